"""Spells & Swords rules under interaction, each case a fight with every die scripted.

004 = shared/rules/004_0d1ac50b56c23caf.txt (sections cited by heading); reference =
shared/rules/reference/spells-and-swords.md. Each case names the class of rule it belongs to (A timing, B
stacking, D counting, E what a creature cannot do).
"""

from __future__ import annotations

from typing import Any

from sas_scripted import SAS, fighters, turn

from fight_helpers import encounter_state, two_sides
from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand


def _state(left: list[dict], right: list[dict], **top: Any) -> Any:
    """The state of side left against side right, the Brawl Rule off unless ``options`` are given."""
    top.setdefault("options", {"brawl-rule": False})
    return encounter_state("sas", two_sides(left, right, ("left", "right")), **top)


# ----- A. death takes effect when the marker lands ------------------------------------------------------


def test_a_bleeding_foe_at_its_wound_level_dies_at_the_start_of_the_round_and_never_acts() -> None:
    """004 BLEED TABLE 1 "Get 1 Wound Marker", rolled "At the beginning of every Round"; DEATH BY A THOUSAND
    CUTS "Non-Heroic Foes and Creatures will just die immediately"."""
    state = _state(
        [{"template": "fighter", "id": "a", "at": [0, 0]}],
        [{"template": "goblin-boss", "id": "o", "at": [1, 0]}],
    )
    o = state.combatants["o"]
    o.counters["markers"] = o.stats.wound_level - 1
    o.counters["bleeds"] = 1
    # side Initiative: left 1, right 20 (the orc's side would act first); Bleed Table 1
    fight = Fight(SAS, state, ScriptedDice([1, 20, 1]))
    decision = fight.advance_until_decision()
    assert state.combatants["o"].status == "dead"
    assert decision is None or decision.actor != "o"
    assert state.ended and state.winner == "left"


# ----- Every Major Wound knocks prone (setting major_wound_prone) -----------------------------------------


def test_a_heavy_wound_of_14_to_16_knocks_prone_and_costs_the_next_action() -> None:
    """004 DAMAGE TABLE 14-16 "Heavy Wound ... Major Wound"; MAJOR WOUNDS "Most Major Wounds will Cause the
    victim to be knocked Prone and miss their next Action per GM" (setting major_wound_prone, on); KNOCKED
    DOWN: 50% drop (1D100 99: kept)."""
    fight = fighters()
    # Attack 15 (Hit); Damage 18 (the fighters' sword against chain: 15, Heavy Wound); the drop die 99
    events = turn(fight, Command("a", "attack", "b"), [15, 18, 99])
    damage = next(e for e in events if isinstance(e, ev.Rolled) and e.test == "Damage")
    assert 14 <= damage.total <= 16, damage.total
    assert "knocked-down" in fight.state.combatants["b"].conditions
    lost = [e for e in fight.log or [] if isinstance(e, ev.Note) and e.actor == "b" and "loses" in e.text]
    assert lost and fight.state.round == 2  # b's turn of round 1 went by without his action


def test_without_the_setting_a_heavy_wound_leaves_the_victim_standing() -> None:
    fight = fighters(settings={"major_wound_prone": False})
    turn(fight, Command("a", "attack", "b"), [15, 18])
    assert "knocked-down" not in fight.state.combatants["b"].conditions


# ----- E. what the text says a creature cannot do -------------------------------------------------------


def _charge_refusal(marks: dict[str, Any]) -> str | None:
    state = _state(
        [{"template": "fighter", "id": "a", "at": [0, 0]}],
        [{"template": "fighter", "id": "b", "at": [3, 0]}],
    )
    state.combatants["a"].marks.update(marks)
    fight = Fight(SAS, state, ScriptedDice([20, 1]))
    fight.advance_until_decision()
    try:
        SAS.validate(fight.state, Command("a", "charge", "b"))
    except IllegalCommand as e:
        return str(e)
    return None


def test_a_fighter_who_has_lost_a_leg_may_not_charge() -> None:
    """004 CHARGE RULES "A Combatant who is Fatigued, Encumbered, or has a Hurt or Broken Leg, Knee, or Foot
    may not Charge": a leg lost (MAJOR WOUND TABLE 4 Lost Limb) is past hurt or broken."""
    assert _charge_refusal({}) is None
    assert "lost a leg" in (_charge_refusal({"lost_leg": True}) or "")
    assert "hurt or broken" in (_charge_refusal({"hurt": ("knee",)}) or "")
    assert _charge_refusal({"lost_arm": True}) is None


# ----- D. counting: sides and spaces, not combatants ----------------------------------------------------


def _surrounded_line(extra_goblin: bool) -> bool:
    """Sir k on his warhorse h (one space) attacks the goblin boss g; with ``extra_goblin`` a second knight
    stands on another side of g. Whether the attack reads Defender Surrounded."""
    left = [
        {"template": "warhorse", "id": "h", "at": [0, 0]},
        {"template": "fighter", "id": "k", "options": {"mount": "h"}},
    ]
    if extra_goblin:
        left.append({"template": "fighter", "id": "k2", "at": [2, -1]})
    state = _state(left, [{"template": "goblin-boss", "id": "g", "at": [1, 0]}])
    fight = Fight(SAS, state, ScriptedDice([20, 1]))
    decision = fight.advance_until_decision()
    assert decision is not None and decision.actor in ("h", "k")
    while decision is not None and decision.actor != "k":
        fight.dice = ScriptedDice([])
        fight.submit(Command(decision.actor, "nothing"))
        decision = fight.advance_until_decision()
    fight.dice = ScriptedDice([5])  # Attack 5: a Miss
    events = fight.submit(Command("k", "attack", "g"))
    attack = next(e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack")
    return any("Surrounded" in m[1] for m in attack.modifiers)


def test_a_rider_and_his_steed_are_one_side_of_the_defender() -> None:
    """004 ATTACK TABLE MODIFIERS "Defender Surrounded +1 On at least 2 Sides (2-4+ Foes)": a horseman is
    one position (the rider shares his steed's space), so one horseman beside a goblin does not surround
    it; a second foe on another side does."""
    assert not _surrounded_line(extra_goblin=False)
    assert _surrounded_line(extra_goblin=True)


def test_a_bite_cannot_be_disarmed() -> None:
    """004 DISARMED "Target Loses his Weapon. Drops within 1D3 Meters": a wolf's bite is not a weapon held,
    so a Disarm attack at it is refused (and KNOCKED DOWN's drop leaves it:
    tests/sas/test_sas_by_the_text.py)."""
    state = _state(
        [{"template": "fighter", "id": "a", "at": [0, 0]}],
        [{"template": "wolf", "id": "w", "at": [1, 0]}],
    )
    fight = Fight(SAS, state, ScriptedDice([20, 1]))
    fight.advance_until_decision()
    try:
        SAS.validate(fight.state, Command("a", "attack", "w", {"disarm": True}))
    except IllegalCommand as e:
        assert "holds no weapon" in str(e)
    else:
        raise AssertionError("a Disarm attack at a bite was accepted")


# ----- C. saves: race and calling (reference 2.5) -------------------------------------------------------


def test_save_bonuses_of_race_and_calling_add() -> None:
    """reference 2.5: Halflings +4 vs Death, Rogues +4 vs Falls; Elves +4 vs Sleep and Mages +4 vs Spells
    both count on an elf mage's save against a Sleep spell; a Monster adds its Armor to every save."""
    from fracas.rules.sas.model import build_stats
    from fracas.rules.sas.procedures.rolls import save_bonuses

    def total(template: str, *against: str) -> int:
        return sum(m.value for m in save_bonuses(build_stats(template), against))

    assert total("rogue", "death") == 4  # a halfling rogue
    assert total("fighter", "death") == 0 and total("fighter", "fear") == 4
    assert total("mage", "spells", "sleep") == 8  # an elf mage
    assert total("priest", "poison") == 4  # a dwarf
    aboleth = build_stats("aboleth")
    assert total("aboleth", "death") == aboleth.armor > 0
