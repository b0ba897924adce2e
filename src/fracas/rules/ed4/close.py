"""ED4 close combat (``000_4b24aca42c3b6366.txt`` p.391-392): at most six attackers, entangling weapons,
improvised weapons, grappling.

Pure functions; the ruleset wiring is in :mod:`fracas.rules.ed4.features`. Positions come from the hex
grid: the six hexes around a defender are the six places of the Melee Combat Positions diagram (p.391), so
at most six human-sized attackers fit; a small creature (size "small") does not take a place of its own
("some small creatures or pack animals can swarm an opponent", p.391) [choice: two small creatures share a
place].
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from fracas.rules.base import Modifier

MAX_ATTACKERS = 6
CLOSE_RULE = "ed4/combat/close p.391"
SIX_RULE = "ed4/combat/close-six-attackers p.391"
ENTANGLING_RULE = "ed4/combat/entangling p.391"
IMPROVISED_RULE = "ed4/combat/improvised p.392"
GRAPPLING_RULE = "ed4/combat/grappling p.392"

IMPROVISED_PENALTY = -2


def attacker_places(sizes: Iterable[str]) -> float:
    """Places taken around a defender by attackers of these sizes (human-sized: 1; small: 1/2)."""
    return sum(0.5 if s == "small" else 1.0 for s in sizes)


def room_for_attacker(current_sizes: Iterable[str], newcomer: str = "human") -> bool:
    """May one more attacker of size ``newcomer`` attack the defender in close combat (p.391)?"""
    return attacker_places([*current_sizes, newcomer]) <= MAX_ATTACKERS


def improvised_mods(improvised: bool) -> list[Modifier]:
    """Improvised weapons (and improvised throws, p.393): -2 to the Attack test (p.392)."""
    return [Modifier(IMPROVISED_PENALTY, "improvised weapon", IMPROVISED_RULE)] if improvised else []


# ----- entangling ---------------------------------------------------------------------------------------


def entangles(extra_successes: int, entangling: bool) -> bool:
    """An entangling weapon entangles with an extra success on the Attack test (p.391); that success then
    adds no damage."""
    return entangling and extra_successes >= 1


def entangled_damage_extra(extra_successes: int) -> int:
    """Extra successes left for damage after one is spent to entangle."""
    return max(0, extra_successes - 1)


class EntanglingRow(BaseModel):
    """One row of ``data/entangling.toml``: the DN to break free of an entangling weapon (p.391)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dn: int = Field(ge=1, le=40)
    no_damage: bool = False
    confidence: Literal["text", "confirmed", "single", "verify", "choice"]


class _EntanglingFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    edition: Literal["ed4"]
    weapons: dict[str, EntanglingRow]


@cache
def entangling_table() -> dict[str, EntanglingRow]:
    """The bundled entangling weapons' break-free DNs, keyed like ``weapons.toml`` (validated at load)."""
    text = resources.files("fracas.rules.ed4").joinpath("data/entangling.toml").read_text("utf-8")
    return dict(_EntanglingFile.model_validate(tomllib.loads(text)).weapons)


def entangle_dn(weapon: str | None, damage_step: int) -> int:
    """The DN to break free of an entangling weapon: the weapon's own (its description, p.391; the bundled
    values are [choice], data/entangling.toml); an attack without a row (a creature's) uses its Damage
    Step [choice]."""
    row = entangling_table().get(weapon or "")
    return row.dn if row is not None else max(1, damage_step)


def entangles_only(weapon: str | None) -> bool:
    """A weapon that only entangles and makes no Damage test (a net) [choice, data/entangling.toml]."""
    row = entangling_table().get(weapon or "")
    return bool(row is not None and row.no_damage)


def break_free_entangle(
    str_step: int, dex_step: int, blade_damage_step: int | None
) -> tuple[int, list[Modifier], bool]:
    """Breaking free of an entangling weapon (p.391): the better of a Strength or Dexterity test against the
    weapon's DN; a one-handed bladed weapon in hand adds its Damage Step (and ruins the entangling weapon).
    Returns (base step, modifiers, ruins the weapon)."""
    base = max(str_step, dex_step)
    if blade_damage_step:
        return base, [Modifier(blade_damage_step, "one-handed blade cuts free", ENTANGLING_RULE)], True
    return base, [], False


BLADE_WORDS = ("sword", "dagger", "knife", "axe", "blade", "hatchet", "scimitar")
"""[choice] What counts as a bladed weapon for cutting free (p.391): a name with one of these words."""


def is_one_handed_blade(name: str, size: int, one_handed_limit: int = 3) -> bool:
    """A one-handed bladed weapon (p.391): a blade by name (:data:`BLADE_WORDS`) of a Size the wielder can
    use in one hand (the race's one-handed limit, 3 for most races [verify])."""
    n = name.lower()
    return any(w in n for w in BLADE_WORDS) and size <= one_handed_limit


# ----- grappling ----------------------------------------------------------------------------------------


def grapples(success: bool, extra_successes: int) -> bool:
    """A grappling attack (an Unarmed Combat test against Physical Defense) holds the target only with an
    extra success; it never causes damage (p.392)."""
    return success and extra_successes >= 1


def break_free_grapple(unarmed_step: int, str_step: int, hold_step: int) -> tuple[int, int]:
    """Breaking a grapple (p.392): the better of the target's Unarmed Combat and Strength steps against the
    Unarmed Combat Step of the grappling attack. Returns (step, DN)."""
    return max(unarmed_step, str_step), hold_step


def grappled_other_action_dn(hold_step: int) -> int:
    """At the gamemaster's discretion a grappled character may act otherwise, but must beat the Unarmed
    Combat Step of the hold (p.392): Silar's tail attack against the bandit needs 10."""
    return hold_step


def attack_dn_while_grappled(defense: int, hold_step: int) -> int:
    """The DN of a grappled character's other action against his captor: the captor's Defense or the hold's
    Unarmed Combat Step, whichever is higher (p.392: PD 8, Unarmed Combat Step 10 -> DN 10)."""
    return max(defense, hold_step)
