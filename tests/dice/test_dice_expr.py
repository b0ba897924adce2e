"""Dice notation: the forms the issue lists, errors that point at the character, round-trips, replays."""

from __future__ import annotations

import doctest
import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice.expr import MAX_DICE, Const, Dice, Expr, Step, parse, roll
from fracas.dice.roll import Roll
from fracas.dice.source import RandomDice, RecordingDice, ScriptedDice
from fracas.errors import UsageError


@pytest.mark.parametrize(
    ("text", "dice", "modifier", "printed"),
    [
        ("3d6", [(6, False)] * 3, 0, "3d6"),
        ("1d20", [(20, False)], 0, "d20"),
        ("d8", [(8, False)], 0, "d8"),
        ("2d6+3", [(6, False)] * 2, 3, "2d6+3"),
        ("d20 - 2", [(20, False)], -2, "d20-2"),
        ("d12!", [(12, True)], 0, "d12!"),
        ("2d%", [(100, False)] * 2, 0, "2d%"),
        ("2d+3", [(6, False)] * 2, 3, "2d+3"),  # GURPS
        ("3d-1", [(6, False)] * 3, -1, "3d-1"),
        ("1d", [(6, False)], 0, "1d"),
        ("d4+d6+1", [(4, False), (6, False)], 1, "d4+d6+1"),
        ("step 14", [(12, True)] * 2, 0, "step 14"),
        ("S14", [(12, True)] * 2, 0, "step 14"),
        ("Step 1", [(4, True)], -2, "step 1"),
        ("step 10 + d6!", [(8, True), (8, True), (6, True)], 0, "step 10+d6!"),
        ("-1+2d6", [(6, False)] * 2, -1, "-1+2d6"),
    ],
)
def test_forms(text: str, dice: list[tuple[int, bool]], modifier: int, printed: str) -> None:
    e = parse(text)
    assert list(e.pool.dice) == dice
    assert e.pool.modifier == modifier
    assert str(e) == printed
    assert parse(printed) == e


def test_edition_picks_the_step_table() -> None:
    assert parse("step 14", "ed1").pool.dice == ((20, True), (4, True))
    assert parse("step 14", "ed4").pool.dice == ((12, True), (12, True))


@pytest.mark.parametrize(
    ("text", "column", "char"),
    [
        ("2d6x", 4, "'x'"),
        ("3d6 + + 2", 7, "'+'"),
        ("2d6-d4", 5, "'d'"),
        ("d", 2, "end"),
        ("step", 5, "end"),
        ("s0", 2, "'0'"),
        ("step 101", 6, "'1'"),
        ("d0", 2, "'0'"),
        ("d1!", 3, "'!'"),
        ("step 14!", 8, "'!'"),
        ("2000d6", 1, "'2'"),
        ("3d6 foo", 5, "'f'"),
        ("", 1, "end"),
    ],
)
def test_bad_notation_points_at_the_character(text: str, column: int, char: str) -> None:
    with pytest.raises(UsageError) as info:
        parse(text)
    msg = str(info.value)
    assert "\n" not in msg
    assert f"column {column}" in msg and char in msg
    assert "accepted: NdM" in msg and "step N" in msg
    assert info.value.exit_code == 2


def test_dice_cap() -> None:
    assert len(parse(f"{MAX_DICE}d6").pool.dice) == MAX_DICE
    with pytest.raises(UsageError, match=f"at most {MAX_DICE}"):
        parse("600d6+500d6")
    with pytest.raises(UsageError, match="edition"):
        parse("d6", "ed3")


# -- round trip -----------------------------------------------------------------------------------------

dice_terms = st.one_of(
    st.builds(
        Dice, st.integers(1, 30), st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100, 1000]), st.booleans()
    ),
    st.builds(lambda n, e: Dice(n, 6, e, gurps=True), st.integers(1, 30), st.booleans()),
    st.builds(lambda n, e: Dice(n, 100, e, percent=True), st.integers(1, 30), st.booleans()),
    st.builds(Dice, st.integers(1, 30), st.just(1), st.just(False)),
    st.builds(Step, st.integers(1, 100)),
    st.builds(Const, st.integers(0, 999)),
)
signed_const = st.builds(Const, st.integers(-999, -1))


@st.composite
def expressions(draw: st.DrawFn) -> Expr:
    terms = draw(st.lists(st.one_of(dice_terms, signed_const), min_size=1, max_size=6))
    return Expr(tuple(terms), draw(st.sampled_from(["ed4", "ed1"])))


@given(expressions())
@settings(max_examples=300)
def test_parse_print_parse_round_trips(e: Expr) -> None:
    text = str(e)
    again = parse(text, e.edition)
    assert again == e
    assert str(again) == text
    assert again.pool == e.pool


@given(st.text(alphabet="0123456789dDstep%!+- xX", max_size=14))
@settings(max_examples=400)
def test_any_text_parses_or_raises_usage_error(text: str) -> None:
    try:
        e = parse(text)
    except UsageError as exc:
        assert "\n" not in str(exc)
        return
    assert parse(str(e)) == e


# -- rolling and replay -----------------------------------------------------------------------------------


def test_scripted_faces_with_explosions() -> None:
    r = roll("step 14", ScriptedDice([12, 12, 3, 5]))
    assert [d.faces for d in r.dice] == [(12, 12, 3), (5,)]
    assert r.total == 32
    assert r.faces_text() == "d12:12+12+3! d12:5"
    r = roll("d12", ScriptedDice([12]))  # a plain d12 does not explode
    assert r.total == 12 and len(r.dice[0].faces) == 1


@given(expressions(), st.integers(0, 2**32))
@settings(max_examples=100, deadline=None)
def test_scripted_sources_replay(e: Expr, seed: int) -> None:
    recorder = RecordingDice(RandomDice(seed))
    first = e.roll(recorder)
    replay = e.roll(ScriptedDice(face for _, face in recorder.record))
    assert replay == first
    assert Roll.from_json(first.to_json()) == first
    # the fast path for RandomDice gives the very same faces as rolling die by die
    assert e.roll(RandomDice(seed)) == first


def test_seeded_rolls_repeat() -> None:
    assert roll("step 30", seed=5) == roll("step 30", seed=5)
    assert roll("3d6", RandomDice(7)).total == roll("3d6", seed=7).total


def test_floor_recorded_for_steps_only() -> None:
    assert roll("step 1", ScriptedDice([1])).floor == 1
    assert roll("d4-2", ScriptedDice([1])).total == -1


# -- the documented examples run ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["fracas.dice", "fracas.dice.expr", "fracas.dice.exact", "fracas.dice.sample"]
)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), raise_on_error=False)
    assert result.failed == 0 and result.attempted > 0
