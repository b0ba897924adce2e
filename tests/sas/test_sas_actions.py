"""Every line of the COMBAT ROUND ACTIONS LIST and every reaction, played once through the engine."""

from __future__ import annotations

import pytest

from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.engine.state import Condition
from fracas.errors import IllegalCommand
from fracas.rules.registry import get_ruleset
from fracas.rules.sas.actions import ALL_ACTIONS, charge, disengage, magic, mass, mounted, move, other
from fracas.rules.sas.actions import attack as attack_actions
from fracas.rules.sas.actions.registry import ACTIONS
from fracas.rules.sas.tables import tables

SAS = get_ruleset("sas")
POTIONS = {"potions": 2}
BRAN = {
    "weapons": ["long-sword", "spear", "dagger", "bomb"],
    "skills": {"intimidate": 2, "taunt": 1, "leadership": 2, "ride": 3},
}


def scene() -> Fight:
    """Bran the fighter (potions, spear too) next to a goblin; Ilse the mage and Pip behind; a second goblin
    far off; a horse for the party. The party acts first, Bran's turn."""
    data = {
        "version": 1,
        "ruleset": "sas",
        "options": {"brawl-rule": False},
        "sides": [
            {
                "name": "party",
                "combatants": [
                    {"template": "fighter", "id": "bran", "at": [0, 0], "stats": BRAN, "equipment": POTIONS},
                    {"template": "mage", "id": "ilse", "at": [-1, 0]},
                    {"template": "rogue", "id": "pip", "at": [-1, 1]},
                    {"template": "riding-horse", "id": "horse", "at": [0, -1]},
                ],
            },
            {
                "name": "goblins",
                "combatants": [
                    {"template": "goblin", "id": "g1", "at": [1, 0]},
                    {"template": "goblin", "id": "g2", "at": [8, 0]},
                ],
            },
        ],
    }  # fmt: skip
    _, state = encounter.load_data(data)
    fight = Fight(SAS, state, ScriptedDice([20, 1]))
    decision = fight.advance_until_decision()
    assert decision is not None and decision.actor == "bran"
    fight.dice = RandomDice(11)
    return fight


def cond(name: str, until: int | None = None) -> Condition:
    return Condition(name, until)


# (action, target, args, set-up on the scene, an event type or note text the result must hold)
CASES = [
    ("attack", "g1", {}, None, "Attack"),
    ("attack", "g1", {"disarm": True}, None, "Attack"),
    ("attack", "g1", {"dual": True, "target2": "g1"}, None, "Attack"),
    ("hack-and-slash", "g1", {}, "continued", "Attack"),
    ("mighty-blow", "g1", {}, "continued", "Attack"),
    ("defensive-stance-attack", "g1", {}, "continued", "Attack"),
    ("aimed-shot", "g2", {"weapon": "dagger"}, "continued-throw", "Attack"),
    ("close-to-attack", "g2", {}, "alone", "Attack"),
    ("charge", "g2", {"battle_cry": True}, "alone", "Attack"),
    ("hurling-charge", "g2", {}, "alone-dagger", "Attack"),
    ("sneak-attack", "g2", {}, "alone-hidden", "Attack"),
    ("leap-attack", "g1", {}, "high", "Attack"),
    ("walk", None, {"toward": "g2"}, "alone", ev.Moved),
    ("run", None, {"to": [-6, 0]}, "alone", ev.Moved),
    ("sneak", None, {"to": [2, 3]}, "alone-hidden", ev.Moved),
    ("disengage", "g1", {"mode": "withdrawal"}, None, ev.Moved),
    ("disengage", "g1", {"mode": "flee"}, None, ev.Moved),
    ("hide", None, {}, "alone", "Hide (Stealth check)"),
    ("lookout", None, {}, "hidden-foe", "Lookout"),
    ("change-facing", None, {"facing": 3}, None, ev.Moved),
    ("stand-up", None, {}, "prone", "Stand Up"),
    ("pick-up", None, {}, "dropped", "Pick up Dropped Item"),
    ("mount", "horse", {}, None, ev.Moved),
    ("dismount", None, {}, "mounted", ev.Moved),
    ("battle-cry", None, {}, None, ev.ConditionAdded),
    ("cast-spell", "g1", {"spell": "sleep"}, "ilse", "Spell Check (Sleep)"),
    ("rally", None, {}, "routed-ally", "Rally"),
    ("set-to-receive-charge", None, {}, "spear", ev.Marked),
    ("overwatch", None, {}, "bow", ev.Marked),
    ("feint", "g1", {}, None, ev.ConditionAdded),
    ("defensive-stance", None, {}, None, ev.ConditionAdded),
    ("light-fuse", None, {}, None, ev.Marked),
    ("apply-poison", None, {}, None, ev.Marked),
    ("rummage", None, {"item": "rope"}, None, ev.Note),
    ("quaff", None, {}, "hurt", ev.CounterChanged),
    ("stop-bleed", "bran", {}, "bleeding", ev.CounterChanged),
    ("intimidate", "g1", {}, None, "Intimidate"),
    ("taunt", "g1", {}, None, "Taunt"),
    ("break-free", None, {}, "held", "Break Free"),
    ("nothing", None, {}, None, ev.TurnEnded),
]


def setup(fight: Fight, how: str | None) -> None:
    st = fight.state
    bran, g1, g2 = st.combatants["bran"], st.combatants["g1"], st.combatants["g2"]
    if how in ("continued", "continued-throw"):
        bran.marks["last_attack_round"] = st.round - 1
        if how == "continued-throw":
            g1.pos = (1, 5)
            g2.pos = (4, 0)
    elif how and how.startswith("alone"):
        g1.pos = (1, 6)
        g2.pos = (4, 0)
        if how == "alone-dagger":
            bran.marks["weapon"] = "dagger"
        if how == "alone-hidden":
            bran.hidden = True
            g2.pos = (3, 0)
    elif how == "high":
        bran.altitude = 2
    elif how == "hidden-foe":
        g2.hidden = True
    elif how == "prone":
        bran.conditions["knocked-down"] = cond("knocked-down")
    elif how == "dropped":
        bran.marks["dropped"] = "long-sword"
        bran.marks["weapon"] = "unarmed"
    elif how == "mounted":
        bran.marks["mounted_on"] = "horse"
        st.combatants["horse"].marks["ridden_by"] = "bran"
        st.combatants["horse"].pos = bran.pos
    elif how == "ilse":
        st.order.insert(0, "ilse")
        st.turn = 0
        st.combatants["ilse"].pos = (0, 1)
    elif how == "routed-ally":
        st.combatants["pip"].conditions["routed"] = cond("routed")
    elif how == "spear":
        bran.marks["weapon"] = "spear"
    elif how == "bow":
        bran.marks["weapon"] = "dagger"
        st.combatants["bran"].stats = __import__("dataclasses").replace(bran.stats, weapons=("short-bow",))
        bran.marks["weapon"] = "short-bow"
    elif how == "hurt":
        bran.counters["markers"] = 3
    elif how == "bleeding":
        bran.counters["bleeds"] = 1
    elif how == "held":
        bran.conditions["partial-immobilization"] = cond("partial-immobilization")


@pytest.mark.parametrize(
    ("action", "target", "args", "how", "expect"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_action(action: str, target: str | None, args: dict, how: str | None, expect: object) -> None:
    fight = scene()
    setup(fight, how)
    actor = "ilse" if how == "ilse" else "bran"
    cmd = Command(actor, action, target, args)
    SAS.validate(fight.state, cmd)
    events = SAS.resolve(fight.state, cmd, fight.dice)
    if isinstance(expect, str):
        assert any(isinstance(e, ev.Rolled) and e.test == expect for e in events) or any(
            isinstance(e, ev.Note) and expect in e.text for e in events
        ), [type(e).__name__ for e in events]
    else:
        assert any(isinstance(e, expect) for e in events)  # type: ignore[arg-type]
    # every action ends the turn but a Free Action (COMBAT ROUND ACTIONS LIST "Change Facing - Free Action")
    assert isinstance(events[-1], ev.TurnEnded) == (action != "change-facing")
    fight.state.apply_all(events)


def test_every_action_of_the_list_is_covered() -> None:
    listed = set(tables().combat.actions) - {"defensive-stance-attack"} | {"defensive-stance-attack"}
    engine = set(ALL_ACTIONS) | {"sneak-attack"}
    # the list's Mount line is both Mount and Dismount; Disengage covers Fighting Withdrawal and Flee
    assert listed - engine == set()
    assert {c[0] for c in CASES} >= set(ALL_ACTIONS) - {"horde", "dog-pile", "trample"}


def test_every_action_has_one_resolver_registered_where_it_lives() -> None:
    """Resolving and validating go through the table the action modules register (sas/actions/): every
    action id the ruleset knows has exactly one record, and nothing else is registered."""
    registered = [
        a.name
        for module in (attack_actions, charge, disengage, magic, mass, mounted, move, other)
        for a in module.ACTIONS
    ]
    assert sorted(registered) == sorted(ALL_ACTIONS)
    assert ACTIONS.names() == ALL_ACTIONS  # in the order of the list
    assert ACTIONS["charge"].resolve.__module__ == "fracas.rules.sas.actions.charge"
    # an action's own checks live beside its resolver
    for a in ACTIONS:
        if a.validate is not None:
            assert a.validate.__module__ == a.resolve.__module__, a.name


def test_reactions_catch_missile_and_shield_spell() -> None:
    fight = scene()
    st = fight.state
    st.combatants["g2"].pos = (4, 0)
    pip = st.combatants["pip"]
    pip.pos = (1, 1)
    st.combatants["g1"].pos = (1, 6)
    # the goblin throws nothing: give the second goblin a bow and let it shoot Pip (Catch Missile +1)
    g2 = st.combatants["g2"]
    g2.stats = __import__("dataclasses").replace(g2.stats, weapons=("short-bow",))
    g2.marks["weapon"] = "short-bow"
    fight.dice = ScriptedDice([7, 20])  # a miss, then Pip's Hard check: a natural 20
    events = SAS._resolve(st, Command("g2", "attack", "pip"), fight.dice)  # type: ignore[attr-defined]
    assert any(isinstance(e, ev.Rolled) and e.test == "Catch Missile" and e.success for e in events)
    # Ilse knows the Shield Spell: cast before the attack roll
    fight = scene()
    st = fight.state
    fight.dice = ScriptedDice(
        [15, 10, 1]
    )  # spell check 15, attack 10 -2 Shield = 8: a miss... d20 damage unused
    events = SAS._resolve(st, Command("g1", "attack", "ilse"), fight.dice)  # type: ignore[attr-defined]
    assert any(isinstance(e, ev.Rolled) and e.test == "Spell Check (Shield Spell)" for e in events)
    attack = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"][0]
    assert any(m[1] == "Shield Spell" for m in attack.modifiers)


def test_counterspell() -> None:
    data = {
        "version": 1,
        "ruleset": "sas",
        "sides": [
            {"name": "a", "combatants": [{"template": "mage", "id": "m1", "at": [0, 0]}]},
            {"name": "b", "combatants": [{"template": "mage", "id": "m2", "at": [5, 0]}]},
        ],
    }
    _, state = encounter.load_data(data)
    fight = Fight(SAS, state, ScriptedDice([20, 1]))
    fight.advance_until_decision()
    fight.dice = ScriptedDice([15, 15])
    events = fight.submit(Command("m1", "cast-spell", "m2", {"spell": "sleep"}))
    assert any(isinstance(e, ev.Note) and "counters" in e.text for e in events)
    assert (
        fight.state.combatants["m1"].count("pp_used") == 1
        and fight.state.combatants["m2"].count("pp_used") == 1
    )


def test_taunted_must_attack_the_taunter() -> None:
    fight = scene()
    st = fight.state
    g1 = st.combatants["g1"]
    g1.conditions["taunted"] = Condition("taunted", st.round + 1)
    g1.marks["taunted_by"] = "ilse"
    st.combatants["ilse"].pos = (2, 0)
    with pytest.raises(IllegalCommand, match="Taunted"):
        SAS.validate(st, Command("g1", "attack", "bran"))
