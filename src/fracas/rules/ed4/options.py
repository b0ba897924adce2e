"""ED4 combat options (``000_4b24aca42c3b6366.txt`` p.382-386, the Combat Options Table).

Pure functions: a combatant's declared options in, :class:`~fracas.rules.base.Modifier` lists, Strain
amounts, Difficulty Numbers and verdicts out; every modifier names its rule id and page. The numbers are
data (``data/combat_options.toml``). The ruleset wiring (declaration checks, Strain, the attack flow) is in
:mod:`fracas.rules.ed4.features`.

Restrictions (p.382, p.384, p.389): options are declared before the Initiative test; a knocked-down
character may use none but Jump Up (and Jump Up only while knocked down); Aggressive Attack and Defensive
Stance never in the same round; Tail Attack is for t'skrang only.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier

AGGRESSIVE = "aggressive-attack"
KNOCKDOWN = "attack-to-knockdown"
STUN = "attack-to-stun"
CALLED_SHOT = "called-shot"
DEFENSIVE = "defensive-stance"
JUMP_UP = "jump-up"
SET_AGAINST_CHARGE = "set-against-charge"
SHATTER = "shatter-shield"
SPLIT = "split-movement"
TAIL = "tail-attack"

DECLARE_RULE = "ed4/option/declare-before-initiative p.382"
KNOCKED_DOWN_RULE = "ed4/option/not-while-knocked-down p.382"

ACTION_TESTS = frozenset(
    {"attack", "spellcasting", "strength", "dexterity", "attribute", "perception", "break-free"}
)


class OptionData(BaseModel):
    """One row of the Combat Options Table."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str
    page: str = Field(pattern=r"^p\.\d+$")
    strain: int = Field(ge=0, le=5)
    per_attack: bool = False
    attack: int = 0
    damage: int = 0
    defense: int = 0
    tests: int = 0
    close_only: bool = False
    dn: int | None = None
    min_size: int | None = None
    magical_margin: int | None = None
    two_handed_hold: int | None = None


class _OptionsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    edition: str
    options: dict[str, OptionData]


@cache
def options_table() -> dict[str, OptionData]:
    """The Combat Options Table (validated at load)."""
    text = resources.files("fracas.rules.ed4").joinpath("data/combat_options.toml").read_text("utf-8")
    return dict(_OptionsFile.model_validate(tomllib.loads(text)).options)


def rule(option: str) -> str:
    """The rule id with page of an option, e.g. ``ed4/option/aggressive-attack p.382``."""
    return f"ed4/option/{option} {options_table()[option].page}"


def title(option: str) -> str:
    return options_table()[option].title


# ----- declaring ----------------------------------------------------------------------------------------


def check_declaration(options: Sequence[str], *, knocked_down: bool, tskrang: bool) -> None:
    """Refuse an illegal set of declared options with the rule that forbids it (IllegalCommand).

    - every name must be a combat option of the table (p.382);
    - knocked down: no option but Jump Up (p.382, p.389); Jump Up only while knocked down (p.384);
    - never Aggressive Attack with Defensive Stance (p.382, p.384);
    - never Attacking to Knockdown with Attacking to Stun: one inflicts no real damage, the other Stun
      damage (p.382 table, p.383);
    - Tail Attack: t'skrang only (p.386).
    """
    table = options_table()
    seen: set[str] = set()
    for opt in options:
        if opt not in table:
            raise IllegalCommand(
                f"unknown combat option {opt!r}; known: {', '.join(sorted(table))}", DECLARE_RULE
            )
        if opt in seen:
            raise IllegalCommand(f"{opt} is declared twice", DECLARE_RULE)
        seen.add(opt)
    if knocked_down:
        others = [o for o in options if o != JUMP_UP]
        if others:
            raise IllegalCommand(
                f"a knocked-down character cannot use {title(others[0])} until he is standing (only Jump Up)",
                KNOCKED_DOWN_RULE,
            )
    elif JUMP_UP in seen:
        raise IllegalCommand("Jump Up may only be used by characters that are knocked down", rule(JUMP_UP))
    if AGGRESSIVE in seen and DEFENSIVE in seen:
        raise IllegalCommand(
            "Aggressive Attack and Defensive Stance cannot be used in the same round", rule(AGGRESSIVE)
        )
    if KNOCKDOWN in seen and STUN in seen:
        # the one inflicts no real damage, the other makes the Damage test Stun damage (table p.382, p.383)
        raise IllegalCommand(
            "Attacking to Knockdown (no real damage) and Attacking to Stun (Stun damage) conflict: "
            "declare one of them",
            rule(KNOCKDOWN),
        )
    if TAIL in seen and not tskrang:
        raise IllegalCommand("Tail Attack is only available to t'skrang", rule(TAIL))


# ----- standing options: what an encounter file gives a combatant to declare every round --------------

CONFLICTS = ((AGGRESSIVE, DEFENSIVE), (KNOCKDOWN, STUN))
"""Pairs never declared together (p.382, p.384; p.382 table and p.383)."""


def standing_problems(
    options: Sequence[str], *, tskrang: bool, shatter_weapon: bool, long_weapon: bool
) -> list[tuple[int, str, str]]:
    """What is wrong, as far as it can be known before the fight, with the combat options an encounter file
    gives a combatant to declare each round (``combat_options``). Returns (index in the list, problem,
    rule id with page); an empty list when they are fine.

    Known at load: unknown names and repeats (p.382); Aggressive Attack with Defensive Stance (p.382,
    p.384) and Attacking to Knockdown with Attacking to Stun (p.382 table, p.383) are never declared
    together; Tail Attack is for t'skrang only (p.386); Shattering a Shield needs a close combat weapon of
    Size 3 or more (p.385); Setting Against a Charge needs a weapon long enough to reach past the mount, a
    spear or the like (p.385; here a lance, spear or pike, or Size 4 or more). Knocked down, surprised and
    Jump Up depend on the round: :func:`round_declaration` applies them each round.
    """
    table = options_table()
    out: list[tuple[int, str, str]] = []
    seen: dict[str, int] = {}
    for i, o in enumerate(options):
        if o not in table:
            out.append((i, f"unknown combat option {o!r}", DECLARE_RULE))
            continue
        if o in seen:
            out.append((i, f"{o} is listed twice", DECLARE_RULE))
            continue
        seen[o] = i
    for a, b in CONFLICTS:
        if a in seen and b in seen:
            i = max(seen[a], seen[b])
            out.append((i, f"{title(a)} and {title(b)} are never declared in the same round", rule(a)))
    if TAIL in seen and not tskrang:
        out.append((seen[TAIL], "Tail Attack is only available to t'skrang", rule(TAIL)))
    if SHATTER in seen and not shatter_weapon:
        out.append(
            (seen[SHATTER], "only a close combat weapon of Size 3 or more shatters a shield", rule(SHATTER))
        )
    if SET_AGAINST_CHARGE in seen and not long_weapon:
        out.append(
            (
                seen[SET_AGAINST_CHARGE],
                "Setting Against a Charge needs a weapon long enough to reach past the mount (a spear or "
                "similar: lance, spear, pike or Size 4+)",
                rule(SET_AGAINST_CHARGE),
            )
        )
    return sorted(out)


def round_declaration(
    standing: Sequence[str], *, knocked_down: bool, surprised: bool, shield_foe: bool = True
) -> list[str]:
    """The standing options a combatant declares this round, those legal now (p.382): none when surprised
    (no actions, p.390); knocked down, only Jump Up (p.382, p.389); standing, everything but Jump Up (only
    for the knocked down, p.384). Shattering a Shield only when an enemy has a shield left to break
    (``shield_foe``; its attacks are refused otherwise, p.385) [choice]."""
    if surprised:
        return []
    if knocked_down:
        return [JUMP_UP] if JUMP_UP in standing else []
    return [o for o in standing if o != JUMP_UP and (o != SHATTER or shield_foe)]


def merge_declaration(standing: Sequence[str], chosen: Sequence[str]) -> list[str]:
    """The standing options first, then the tactic's own choices that neither repeat nor conflict with
    them (:data:`CONFLICTS`): the encounter file's options win."""
    out = list(standing)
    for o in chosen:
        if o in out:
            continue
        if any((o == a and b in out) or (o == b and a in out) for a, b in CONFLICTS):
            continue
        out.append(o)
    return out


# ----- modifiers ----------------------------------------------------------------------------------------


def step_mods(options: Iterable[str], test: str, *, close: bool = True) -> list[Modifier]:
    """Modifiers a character's own declared options put on one of his tests.

    ``test``: "attack", "damage", "knockdown", "initiative", "recovery", or another Action test.
    - Aggressive Attack: +3 to close combat Attack and Damage tests (p.382);
    - Called Shot: -3 to the Attack test (p.384) -- only on the attack that is the called shot, so callers
      pass it only then;
    - Defensive Stance: -3 to Action and Damage tests, never Knockdown tests (p.384 and its erratum);
    - Tail Attack: -2 to all tests of the round (p.386).
    """
    table = options_table()
    out: list[Modifier] = []
    opts = set(options)
    if AGGRESSIVE in opts and close and test in ("attack", "damage"):
        d = table[AGGRESSIVE]
        out.append(Modifier(d.attack if test == "attack" else d.damage, d.title, rule(AGGRESSIVE)))
    if CALLED_SHOT in opts and test == "attack":
        out.append(Modifier(table[CALLED_SHOT].attack, "Called Shot", rule(CALLED_SHOT)))
    if DEFENSIVE in opts and (test in ACTION_TESTS or test == "damage"):
        out.append(Modifier(table[DEFENSIVE].tests, "Defensive Stance", rule(DEFENSIVE)))
    if TAIL in opts:
        out.append(Modifier(table[TAIL].tests, "Tail Attack this round", rule(TAIL)))
    return out


def defense_mods(options: Iterable[str], *, aware: bool = True, name: str = "") -> list[Modifier]:
    """Modifiers the *target's* declared options put on his Physical and Mystic Defense.

    Aggressive Attack: -3 (p.382). Defensive Stance: +3, only against attacks he is aware of (p.384): not
    when he is Blindsided or Surprised.
    """
    table = options_table()
    opts = set(options)
    who = f"{name} " if name else ""
    out: list[Modifier] = []
    if AGGRESSIVE in opts:
        out.append(Modifier(table[AGGRESSIVE].defense, f"{who}Aggressive Attack", rule(AGGRESSIVE)))
    if DEFENSIVE in opts and aware:
        out.append(Modifier(table[DEFENSIVE].defense, f"{who}Defensive Stance", rule(DEFENSIVE)))
    return out


# ----- Strain -------------------------------------------------------------------------------------------


def attack_strain(options: Iterable[str], *, close: bool) -> list[tuple[int, str, str]]:
    """Strain one Attack test costs: (amount, why, rule) per option.

    Aggressive Attack: 1 per close combat Attack test (p.382); Called Shot: 1 per Attack test (p.384);
    Shattering a Shield: 1 (p.385).
    """
    opts = set(options)
    out = []
    if AGGRESSIVE in opts and close:
        out.append((1, "Aggressive Attack", rule(AGGRESSIVE)))
    if CALLED_SHOT in opts:
        out.append((1, "Called Shot", rule(CALLED_SHOT)))
    if SHATTER in opts and close:
        out.append((1, "Shattering a Shield", rule(SHATTER)))
    return out


def round_strain(options: Iterable[str], attack_tests_made: int) -> list[tuple[int, str, str]]:
    """Strain owed for the round whatever the character did: Splitting Movement 1 (p.386); Aggressive
    Attack at least 1 even without an Attack test (p.382)."""
    opts = set(options)
    out = []
    if SPLIT in opts:
        out.append((1, "Splitting Movement", rule(SPLIT)))
    if AGGRESSIVE in opts and attack_tests_made == 0:
        out.append((1, "Aggressive Attack (at least 1 Strain in the round)", rule(AGGRESSIVE)))
    return out


# ----- the options' own procedures ----------------------------------------------------------------------


def knockdown_attack_dn(damage_result: int, armor: int) -> int:
    """Attacking to Knockdown (p.383): the Damage test, less armor, is the DN of the target's Knockdown
    test; the target takes no damage. Thrak's 21 against the dyre's 8 armor: DN 13."""
    return max(damage_result - armor, 0)


def can_shatter(weapon_size: int) -> bool:
    """Only weapons of Size 3 or greater can shatter a shield (p.385)."""
    return weapon_size >= (options_table()[SHATTER].min_size or 0)


def shatter_step_mods(weapon_size: int) -> list[Modifier]:
    """The weapon's Size adds to the Damage test against the Shatter Threshold (p.385)."""
    return [Modifier(weapon_size, "weapon Size", rule(SHATTER))]


def shatter_dn(threshold: int, magical: bool = False) -> int:
    """DN of the Damage test that breaks a shield: its Shatter Threshold; +10 for a magical shield (p.385)."""
    return threshold + ((options_table()[SHATTER].magical_margin or 0) if magical else 0)


def shield_shatters(result: int, threshold: int, magical: bool = False) -> bool:
    """Herekar's 23 against the body shield's Shatter Threshold 21 breaks it (p.385)."""
    return result >= shatter_dn(threshold, magical)


def jump_up_dn() -> int:
    """Jump Up is a Dexterity (6) test (p.384)."""
    return options_table()[JUMP_UP].dn or 6


def jump_up_mods(armor_initiative_penalty: int) -> list[Modifier]:
    """Jump Up is modified by the armor's Initiative Penalty, not by the -3 for being knocked down (p.384)."""
    if armor_initiative_penalty <= 0:
        return []
    return [Modifier(-armor_initiative_penalty, "armor Initiative penalty", rule(JUMP_UP))]


def called_shot_hold(damage_step: int, two_handed: bool) -> tuple[int, list[Modifier]]:
    """A Called Shot at a held item (p.384): the holder's Strength test against the attack's Damage Step;
    +3 when held in two hands. Returns (DN, step modifiers)."""
    bonus = options_table()[CALLED_SHOT].two_handed_hold or 0
    mods = [Modifier(bonus, "held in two hands", rule(CALLED_SHOT))] if two_handed else []
    return damage_step, mods


def tail_attack_steps(dex_step: int, unarmed_rank: int, str_step: int) -> tuple[int, int]:
    """The tail attack (p.386): an Unarmed Combat test (Dexterity step + Unarmed Combat rank) and a Damage
    test on the Strength Step. Returns (attack step, damage step)."""
    return dex_step + unarmed_rank, str_step
