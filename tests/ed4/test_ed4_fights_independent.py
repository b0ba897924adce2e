"""Fights are independent: one ruleset object serves every fight of a process (``get_ruleset`` caches it, and
the web server plays fights on parallel threads), so nothing one fight does may change the rules of another.
Two bundled encounters played interleaved, decision by decision, in one thread and on two threads, give
exactly the events each gives alone; a reader given one fight's state answers the same whatever fight was
looked at last."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from fight_helpers import seeded
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
PAIRS = [
    ("ed4", "mica-and-the-ghouls", "mica-and-the-ghouls+heavy"),
    ("ed4", "cavalry-charge", "mica-and-the-ghouls+heavy"),
    ("ed4", "mica-and-the-ghouls", "cavalry-charge"),
    ("ed4", "griffin-swoop", "herekar-guards-tairin"),
    ("ed4", "slavers-nets", "mica-and-the-ghouls"),
    ("ed1", "ork-rider-skirmish", "thom-hammerblade"),
]
SEEDS = (1, 2, 3)


def _fight(ruleset: str, name: str, seed: int) -> Fight:
    """The bundled example ``name``; ``NAME+heavy``: the same on heavily impaired ground (p.389)."""
    name, _, ground = name.partition("+")
    _, state = encounter.load(ROOT / "examples" / ruleset / f"{name}.yaml")
    if ground:
        state.extra.setdefault("map", {})["impaired"] = ground
    f = seeded(state, seed, get_ruleset(ruleset))
    f.start()
    return f


def _alone(ruleset: str, name: str, seed: int) -> list[str]:
    f = _fight(ruleset, name, seed)
    out: list[str] = []
    f.listeners.append(lambda events, _s: out.extend(map(repr, events)))
    f.run_checked()
    return out


def _phases(f: Fight) -> list[Callable[[], None]]:
    """One decision of ``f`` cut into its three calls on the ruleset: advance to the decision, let the
    tactic choose, submit; the other fight's calls run between them."""
    chosen: list = []

    def advance() -> None:
        chosen.clear()
        if not f.state.ended:
            chosen.append(f.advance_until_decision())

    def choose() -> None:
        if chosen and chosen[0] is not None and not f.state.ended:
            chosen.append(f.auto_command(chosen[0]))

    def submit() -> None:
        if len(chosen) == 2:
            f.submit(chosen[1])

    return [advance, choose, submit]


def _recorded(f: Fight) -> list[str]:
    out: list[str] = []
    f.listeners.append(lambda events, _s: out.extend(map(repr, events)))
    return out


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("ruleset", "a", "b"), PAIRS)
def test_interleaved_in_one_thread_as_alone(ruleset: str, a: str, b: str, seed: int) -> None:
    fa, fb = _fight(ruleset, a, seed), _fight(ruleset, b, seed + 100)
    ea, eb = _recorded(fa), _recorded(fb)
    pa, pb = _phases(fa), _phases(fb)
    for _ in range(20_000):
        if fa.state.ended and fb.state.ended:
            break
        for step_a, step_b in zip(pa, pb, strict=True):
            step_a()
            step_b()
    assert fa.state.ended and fb.state.ended
    assert ea == _alone(ruleset, a, seed)
    assert eb == _alone(ruleset, b, seed + 100)


@pytest.mark.parametrize(("ruleset", "a", "b"), PAIRS)
def test_interleaved_on_two_threads_as_alone(ruleset: str, a: str, b: str) -> None:
    """Each thread plays its fight; a barrier makes them take turns phase by phase (advance, choose,
    submit), so the calls of the two fights on the shared ruleset alternate."""
    fa, fb = _fight(ruleset, a, 7), _fight(ruleset, b, 8)
    ea, eb = _recorded(fa), _recorded(fb)
    turn = threading.Condition()
    state = {"next": 0, "done": [False, False]}
    errors: list[BaseException] = []

    def play(me: int, f: Fight) -> None:
        phases = _phases(f)
        try:
            for _ in range(20_000):
                for phase in phases:
                    with turn:
                        turn.wait_for(lambda: state["next"] == me or state["done"][1 - me])
                        phase()
                        state["next"] = 1 - me
                        turn.notify_all()
                if f.state.ended:
                    break
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            with turn:
                state["done"][me] = True
                turn.notify_all()

    threads = [threading.Thread(target=play, args=(0, fa)), threading.Thread(target=play, args=(1, fb))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    assert fa.state.ended and fb.state.ended
    assert ea == _alone(ruleset, a, 7)
    assert eb == _alone(ruleset, b, 8)


def test_movement_read_with_its_own_state() -> None:
    """Two states of the Mica example: Mica of the first jumped up this round (no other movement that
    round, p.384), Mica of the second did not; asking the ruleset about the second fight does not change
    what it answers about the first."""
    rules = get_ruleset("ed4")
    _, a = encounter.load(ROOT / "examples/ed4/mica-and-the-ghouls.yaml")
    _, b = encounter.load(ROOT / "examples/ed4/mica-and-the-ghouls.yaml")
    mica_a = a.combatants["mica"]
    mica_a.marks["jumped_up"] = a.round
    b.round = a.round + 1
    rules.pending(a)
    first = rules.movement_hexes(a, mica_a)
    rules.pending(b)
    assert rules.movement_hexes(a, mica_a) == first == 0
    assert rules.movement_hexes(b, b.combatants["mica"]) > 0


def test_no_fight_kept_on_the_ruleset() -> None:
    """Playing a fight leaves the ruleset object as the fight before left it: no attribute holds a fight."""
    for name, example in (("ed4", "mica-and-the-ghouls"), ("ed1", "ork-rider-skirmish")):
        rules = get_ruleset(name)
        _alone(name, example, 2)
        before = {k: id(v) for k, v in vars(rules).items()}
        _alone(name, example, 1)
        after = {k: id(v) for k, v in vars(rules).items()}
        assert set(after) == set(before), set(after) ^ set(before)
        assert after == before
