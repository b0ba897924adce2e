"""The Step tables against every row REFERENCE.md prints (reference/earthdawn.md 1.1 and 1.2, steps 1-40),
their extension rules to step 100, and the ED4 p.377 worked number."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fracas.dice.exact import ed4_test, extra_successes
from fracas.dice.expr import parse
from fracas.dice.source import ScriptedDice
from fracas.dice.steps import roll_step, step_dice, step_table

# The printed rows, as in reference/earthdawn.md (Step | Dice, four column pairs a line).
ED4_ROWS = """
| 1 | d4−2 | 11 | d10+d8 | 21 | d20+2d8 | 31 | 2d20+d8+d6 |
| 2 | d4−1 | 12 | 2d10 | 22 | d20+d10+d8 | 32 | 2d20+2d8 |
| 3 | d4 | 13 | d12+d10 | 23 | d20+2d10 | 33 | 2d20+d10+d8 |
| 4 | d6 | 14 | 2d12 | 24 | d20+d12+d10 | 34 | 2d20+2d10 |
| 5 | d8 | 15 | d12+2d6 | 25 | d20+2d12 | 35 | 2d20+d12+d10 |
| 6 | d10 | 16 | d12+d8+d6 | 26 | d20+d12+2d6 | 36 | 2d20+2d12 |
| 7 | d12 | 17 | d12+2d8 | 27 | d20+d12+d8+d6 | 37 | 2d20+d12+2d6 |
| 8 | 2d6 | 18 | d12+d10+d8 | 28 | d20+d12+2d8 | 38 | 2d20+d12+d8+d6 |
| 9 | d8+d6 | 19 | d20+2d6 | 29 | d20+d12+d10+d8 | 39 | 2d20+d12+2d8 |
| 10 | 2d8 | 20 | d20+d8+d6 | 30 | 2d20+2d6 | 40 | 2d20+d12+d10+d8 |
"""

ED1_ROWS = """
| 1 | d4−2 | 11 | d10+d8 | 21 | d20+d10+d6 | 31 | d20+d10+2d8+d6 |
| 2 | d4−1 | 12 | 2d10 | 22 | d20+d10+d8 | 32 | d20+2d10+d8+d6 |
| 3 | d4 | 13 | d12+d10 | 23 | d20+2d10 | 33 | d20+2d10+2d8 |
| 4 | d6 | 14 | **d20+d4** | 24 | d20+d12+d10 | 34 | d20+3d10+d8 |
| 5 | d8 | 15 | d20+d6 | 25 | d20+d10+d8+d4 | 35 | d20+d12+2d10+d8 |
| 6 | d10 | 16 | d20+d8 | 26 | d20+d10+d8+d6 | 36 | 2d20+d10+d8+d4 |
| 7 | d12 | 17 | d20+d10 | 27 | d20+d10+2d8 | 37 | 2d20+d10+d8+d6 |
| 8 | 2d6 | 18 | d20+d12 | 28 | d20+2d10+d8 | 38 | 2d20+d10+2d8 |
| 9 | d8+d6 | 19 | d20+2d6 | 29 | d20+d12+d10+d8 | 39 | 2d20+2d10+d8 |
| 10 | **d10+d6** | 20 | d20+d8+d6 | 30 | d20+d10+d8+2d6 | 40 | 2d20+d12+d10+d8 |
"""

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "rules" / "reference" / "earthdawn.md"


def _rows(text: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for line in text.strip().splitlines():
        cells = [c.strip().strip("*").replace("−", "-") for c in line.strip().strip("|").split("|")]
        for step, dice in zip(cells[::2], cells[1::2], strict=True):
            out[int(step)] = dice
    return out


def _dice(notation: str) -> tuple[list[int], int]:
    """Independent reading of "2d20+d12-1": sorted die sizes and the modifier."""
    sizes: list[int] = []
    modifier = 0
    for sign, n, sides, k in re.findall(r"([+-]?)(?:(\d*)d(\d+)|(\d+))", notation):
        if sides:
            sizes += [int(sides)] * int(n or 1)
        else:
            modifier += int(k) * (-1 if sign == "-" else 1)
    return sorted(sizes), modifier


@pytest.mark.parametrize(("edition", "rows"), [("ed4", ED4_ROWS), ("ed1", ED1_ROWS)])
def test_every_printed_row(edition: str, rows: str) -> None:
    table = _rows(rows)
    assert sorted(table) == list(range(1, 41))
    for step, dice in table.items():
        sd = step_dice(step, edition)
        assert (sorted(sd.dice), sd.modifier) == _dice(dice), (edition, step, dice, sd.notation)


@pytest.mark.skipif(not REFERENCE.exists(), reason="the shared rules folder is not beside this checkout")
@pytest.mark.parametrize(("heading", "rows"), [("### 1.1", ED4_ROWS), ("### 1.2", ED1_ROWS)])
def test_rows_here_are_the_rows_of_reference_md(heading: str, rows: str) -> None:
    text = REFERENCE.read_text()
    section = text[text.index(heading) :]
    section = section[: section.index("\n### ", 5)]
    printed = [ln for ln in section.splitlines() if re.match(r"\| \d+ \|", ln)]
    assert _rows("\n".join(printed)) == _rows(rows)


def _ed4_rule(step: int) -> list[int]:
    """reference/earthdawn.md 1.1: from step 19, floor((step-8)/11) d20s plus base step step-11n (8..18)."""
    if step <= 18:
        return _dice(_rows(ED4_ROWS)[step])[0]
    n = (step - 8) // 11
    return sorted([20] * n + _ed4_rule(step - 11 * n))


def _ed1_rule(step: int) -> list[int]:
    """reference/earthdawn.md 1.2: from step 14 every 11 steps add, in turn, d10+d8 and then d20."""
    if step <= 24:
        return _dice(_rows(ED1_ROWS)[step])[0]
    k = (step - 14) // 11
    extra = [[10, 8], [20]] * k
    added = [s for pair in extra[:k] for s in pair]
    return sorted(_ed1_rule(step - 11 * k) + added)


@pytest.mark.parametrize("step", range(1, 101))
def test_extension_rules_to_step_100(step: int) -> None:
    assert sorted(step_dice(step, "ed4").dice) == _ed4_rule(step)
    assert sorted(step_dice(step, "ed1").dice) == _ed1_rule(step)


def test_reference_spot_values() -> None:
    # reference/earthdawn.md 1.1: 41 = 3d20+2d6, 62 = 4d20+d12+d10+d8; 1.2: step 100 = 4d20+6d10+4d8
    assert step_dice(41).notation == "3d20+2d6"
    assert step_dice(62).notation == "4d20+d12+d10+d8"
    assert step_dice(100, "ed1").notation == "4d20+6d10+4d8"
    assert len(step_table("ed4")) == len(step_table("ed1")) == 100


def test_ed4_p377_crossbow_two_extra_successes_make_step_14() -> None:
    # ED4 p.377 (000_4b24aca42c3b6366.txt): Silar's test result 18 against the griffin's Physical Defense 7
    # is three successes, two of them extra; each extra success adds +2 damage steps: Step 10 -> Step 14.
    assert extra_successes(18, 7) == 2
    assert 10 + 2 * extra_successes(18, 7) == 14
    assert step_dice(14, "ed4").notation == "2d12"
    # the exact odds agree: a sure 18 against DN 7 has exactly two extra successes
    odds = ed4_test("18", 7)
    assert odds.p_success == 1.0 and odds.extra[2] == 1.0
    # and the damage roll of Step 14 is two exploding d12
    r = parse("step 14").roll(ScriptedDice([12, 4, 7]))
    assert r.total == 23 and [d.faces for d in r.dice] == [(12, 4), (7,)]


def test_extra_successes_count_full_fives_only() -> None:
    # ED4 p.377: one extra success per 5 points over the DN; a result below the DN has none
    assert [extra_successes(r, 7) for r in (6, 7, 11, 12, 16, 17)] == [0, 0, 0, 1, 1, 2]


def test_steps_1_and_2_subtract_and_a_step_test_is_at_least_1() -> None:
    # reference/earthdawn.md 1.4: the -2/-1 applies to the total; our choice (fracas.dice.expr.STEP_MINIMUM):
    # a step test is at least 1 (fvtt-earthdawn4e, single source)
    assert parse("step 1").roll(ScriptedDice([1])).total == 1
    assert parse("step 1").roll(ScriptedDice([4, 3])).total == 5
    assert parse("step 2").roll(ScriptedDice([2])).total == 1
    assert roll_step(3, ScriptedDice([4, 4, 2])).total == 10
