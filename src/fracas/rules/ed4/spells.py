"""ED4 spell combat (``000_4b24aca42c3b6366.txt`` p.377-378, p.393): Spellcasting test against Mystic
Defense, Effect test on Willpower (plus Willforce), extra successes as each spell says.

The spells are data (``data/spells.toml``, numbers marked [choice] where the combat chapter does not give
them). Thread weaving (one Standard action and a test per thread before the spell can be cast) follows the
spell chapter's outline that the combat chapter refers to (p.373: "weaving threads and casting spells" are
Standard actions) [choice: the Thread Weaving step is the Spellcasting step].
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from fracas.errors import RuleNotImplemented
from fracas.rules.base import Modifier

SPELL_RULE = "ed4/combat/spell p.393"
SPELL_EXTRA_RULE = "ed4/attack/spell-extra-successes p.377"
EFFECT_RULE = "ed4/damage/effect-test p.378"
WEAVING_RULE = "ed4/combat/spell-threads p.373"


class SpellData(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    discipline: str
    circle: int = Field(ge=1, le=15)
    threads: int = Field(ge=0, le=10)
    weaving: int = Field(ge=0, le=40)
    range: int = Field(ge=0, le=1000)
    kind: Literal["attack", "weapon-buff"]
    effect: int = Field(ge=0, le=30)
    armor: Literal["physical", "mystic", "none"] = "mystic"
    armor_reduction: int = 0
    armor_rounds: int = 0
    duration: int = 0
    extra: Literal["effect+2", "armor-rounds+2", "duration+1"]
    confidence: Literal["text", "single", "choice", "verify"]


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")
    edition: str
    spells: dict[str, SpellData]


@cache
def spells() -> dict[str, SpellData]:
    text = resources.files("fracas.rules.ed4").joinpath("data/spells.toml").read_text("utf-8")
    return dict(_File.model_validate(tomllib.loads(text)).spells)


def spell_key(name: str) -> str:
    return name.strip().lower().replace("'", "").replace(" ", "-")


def get_spell(name: str) -> SpellData:
    key = spell_key(name)
    table = spells()
    if key not in table:
        raise RuleNotImplemented(f"spell {name!r} is not bundled; known: {', '.join(sorted(table))}")
    return table[key]


@dataclass(frozen=True, slots=True)
class SpellOutcome:
    """What a successful casting does, after its extra successes: the Effect step modifiers, the armor
    reduction and how long it lasts, the buff's steps and rounds."""

    effect_mods: tuple[Modifier, ...] = ()
    armor_reduction: int = 0
    armor_rounds: int = 0
    buff_steps: int = 0
    buff_rounds: int = 0


def effect_step(wil_step: int, spell: SpellData, willforce: int = 0) -> tuple[int, list[Modifier]]:
    """The Effect test of an attack spell: Willpower step plus the spell's bonus, plus Willforce (p.378)."""
    mods = [Modifier(spell.effect, f"{spell.name} effect", EFFECT_RULE)]
    if willforce:
        mods.append(Modifier(willforce, "Willforce", EFFECT_RULE))
    return wil_step, mods


def outcome(spell: SpellData, extra_successes: int) -> SpellOutcome:
    """What the spell does with ``extra_successes`` on the Spellcasting test (p.377: "the bonus noted in the
    spell description"). Earth Darts with three successes (two extra): its armor reduction lasts four more
    rounds (Maloren, p.377)."""
    n = max(0, extra_successes)
    if spell.kind == "attack":
        mods: list[Modifier] = []
        if spell.extra == "effect+2" and n:
            mods.append(Modifier(2 * n, f"{n} extra success{'es' if n > 1 else ''}", SPELL_EXTRA_RULE))
        rounds = spell.armor_rounds + (2 * n if spell.extra == "armor-rounds+2" else 0)
        return SpellOutcome(tuple(mods), spell.armor_reduction, rounds if spell.armor_reduction else 0)
    if spell.kind == "weapon-buff":
        rounds = spell.duration + (n if spell.extra == "duration+1" else 0)
        return SpellOutcome(buff_steps=spell.effect, buff_rounds=rounds)
    raise RuleNotImplemented(f"spell kind {spell.kind!r}")
