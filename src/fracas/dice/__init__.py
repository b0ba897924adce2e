"""Dice: notation, sources of faces, Earthdawn step tables, exact odds and batch sampling.

>>> from fracas.dice import parse, distribution, ed4_test, ScriptedDice
>>> parse("step 14").roll(ScriptedDice([12, 3, 5])).total
20
>>> round(float(distribution("step 14").at_least(9)), 4)
0.8056

The one-call helpers ``fracas.dice.expr.roll`` and ``fracas.dice.sample.sample`` are not re-exported here:
their names are those of the modules ``fracas.dice.roll`` and ``fracas.dice.sample``.
"""

from __future__ import annotations

from fracas.dice.exact import (
    TAIL_MASS,
    Distribution,
    Ed1Odds,
    Ed4Odds,
    GurpsOdds,
    at_least_table,
    distribution,
    ed1_level,
    ed1_success_levels,
    ed1_test,
    ed4_test,
    extra_successes,
    gurps_roll_under,
    rule_of_one,
    step_distribution,
)
from fracas.dice.expr import MAX_DICE, STEP_MINIMUM, Expr, parse
from fracas.dice.roll import Roll, RolledDie, roll_dice, roll_die
from fracas.dice.sample import sample_pool, sample_steps
from fracas.dice.source import AskedDice, DiceError, DiceSource, RandomDice, RecordingDice, ScriptedDice
from fracas.dice.steps import StepDice, roll_step, step_dice, step_table

__all__ = [
    "MAX_DICE",
    "STEP_MINIMUM",
    "TAIL_MASS",
    "AskedDice",
    "DiceError",
    "DiceSource",
    "Distribution",
    "Ed1Odds",
    "Ed4Odds",
    "Expr",
    "GurpsOdds",
    "RandomDice",
    "RecordingDice",
    "Roll",
    "RolledDie",
    "ScriptedDice",
    "StepDice",
    "at_least_table",
    "distribution",
    "ed1_level",
    "ed1_success_levels",
    "ed1_test",
    "ed4_test",
    "extra_successes",
    "gurps_roll_under",
    "parse",
    "roll_dice",
    "roll_die",
    "roll_step",
    "rule_of_one",
    "sample_pool",
    "sample_steps",
    "step_dice",
    "step_distribution",
    "step_table",
]
