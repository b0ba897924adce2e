"""Bundled Spells & Swords examples that once stopped mid-fight on a command the ruleset refuses (
every bundled example must end). Each fight is replayed with its seed as ``fracas fight`` plays it, every
command validated; found by the acceptance pass and by scripts/hunt_tactic_crashes.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.events import Note
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def play_validated(example: str, seed: int) -> Fight:
    """The fight of ``example`` with ``seed``, every tactic's command validated before it is resolved."""
    spec, state = encounter.load(EXAMPLES / example)
    fight = Fight(get_ruleset(spec.ruleset), state, RandomDice(seed), seed=seed)
    fight.run_checked()
    return fight


# FUMBLE TABLE (RANGED WEAPON), Friendly Fire: a goblin archer's fumble picked an ally 58 m away, beyond the
# Short Bow's medium range; now only an ally the shot could reach is picked.
FRIENDLY_FIRE_OUT_OF_RANGE = [("sas/goblin-horde.yaml", 11989463676007506017)]


@pytest.mark.parametrize(("example", "seed"), FRIENDLY_FIRE_OUT_OF_RANGE)
def test_friendly_fire_hits_only_an_ally_in_range(example: str, seed: int) -> None:
    fight = play_validated(example, seed)
    assert fight.state.ended
    shots = [e for e in fight.log if isinstance(e, Note) and e.text.startswith("Friendly Fire: Goblin Arch")]
    assert shots  # the fight does reach a ranged Friendly Fire
