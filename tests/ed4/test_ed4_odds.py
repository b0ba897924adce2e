"""The web view's needs: exact odds before a roll (same modifiers as the resolver), Strain on the card, and
each die's purpose for a person typing physical dice."""

from __future__ import annotations

import re

from ed4_helpers import RULESET, build

from fight_helpers import auto, two_sides
from fracas.dice.exact import ed4_test
from fracas.dice.source import RandomDice
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.engine.state import Condition


def _duel(**mica: object) -> Fight:
    mica_entry = {"template": "mica", "id": "mica", "at": [0, 0], **mica}
    state = build(
        two_sides(mica_entry, {"template": "ghoul", "id": "ghoul", "at": [1, 0]}, ("Heroes", "Foes"))
    )
    return Fight(RULESET, state, RandomDice(7))


class _Asked:
    """A dice source that records what each die is asked for (as a person typing dice would see it)."""

    def __init__(self) -> None:
        self.inner = RandomDice(3)
        self.whys: list[str] = []

    def roll(self, sides: int, why: str = "") -> int:
        self.whys.append(why)
        return self.inner.roll(sides, why)


def _attack(f: Fight) -> Command:
    me = f.state.combatants["mica"]
    return Command("mica", "attack", "ghoul", {"attack": me.stats.attacks[0].name})


def test_odds_use_the_resolvers_step_and_dn() -> None:
    f = _duel()
    auto(f, "mica")
    f.state.combatants["ghoul"].conditions["knocked-down"] = Condition("knocked-down", None, 3, "test")
    f.state.combatants["mica"].counters["wounds"] = 2
    cmd = _attack(f)
    text = RULESET.odds(f.state, cmd)
    assert text is not None
    events = RULESET.resolve(f.state, cmd, RandomDice(1))
    att = next(e for e in events if isinstance(e, ev.Rolled) and e.test.endswith("Attack"))
    # the same step and DN as the roll, with the Wounds and the target's knockdown among the modifiers
    assert f"step {att.step} " in text and f"vs PD {att.dn}:" in text
    assert "-2 2 Wounds" in text
    o = ed4_test(f"step {att.step}", att.dn)
    pct = int(re.search(r": (\d+)% hit", text).group(1))
    assert pct == round(100 * o.p_success)
    ex = int(re.search(r", (\d+)% with an extra success", text).group(1))
    assert ex == round(100 * o.p_at_least_extra(1))
    assert "Rule of One" in text


def test_odds_include_karma_when_the_command_spends_it() -> None:
    f = _duel()
    auto(f, "mica")
    me = f.state.combatants["mica"]
    assert me.counters.get("karma", 0) > 0
    cmd = _attack(f)
    plain = RULESET.odds(f.state, cmd)
    karma = RULESET.odds(f.state, Command("mica", "attack", "ghoul", {**cmd.args, "karma": True}))
    assert "Karma" not in plain and "+ Karma step" in karma
    hit = lambda t: int(re.search(r": (\d+)% hit", t).group(1))  # noqa: E731
    assert hit(karma) > hit(plain)


def test_no_odds_for_illegal_or_rollless_commands() -> None:
    f = _duel()
    auto(f, "mica")
    assert RULESET.odds(f.state, Command("mica", "end")) is None
    assert RULESET.odds(f.state, Command("mica", "attack", "nobody", {"attack": "x"})) is None


def test_every_die_says_what_it_is_for() -> None:
    f = _duel()
    auto(f, "mica")
    dice = _Asked()
    cmd = _attack(f)
    RULESET.resolve(f.state, cmd, dice)
    name = cmd.args["attack"]
    assert dice.whys and all(dice.whys)
    assert re.fullmatch(rf"Mica: {re.escape(name)} Attack test, step \d+", dice.whys[0])


def test_card_shows_strain() -> None:
    f = _duel()
    c = f.state.combatants["mica"]
    assert RULESET.card(c)["strain"] == 0
    ev.Damaged("mica", 2, "mica", "damage", 2, 0, "strain", "ed4/damage/strain").apply(f.state)
    card = RULESET.card(c)
    assert card["strain"] == 2 and card["damage"] == 2
