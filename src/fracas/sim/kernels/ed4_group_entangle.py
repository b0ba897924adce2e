"""What the ED4 group kernel (:mod:`fracas.sim.kernels.ed4_group`) reads of entangling weapons, Attacking to
Stun and thrown weapons (ED4 p.383, p.391-393), and what of them it refuses: the builder's side of the
section "Entangling weapons, Stun damage, thrown weapons" of :mod:`fracas.sim.kernels.ed4_group_core`.

With the whole chapter (:class:`~fracas.rules.ed4.ruleset.Ed4Ruleset`) the kernel mirrors:

- Stun damage (p.383): an attack marked stun, and every close attack of a combatant whose encounter file
  gives it ``combat_options: [attack-to-stun]`` (``ChapterAware`` declares it each round it stands; a
  knocked-down combatant, who cannot declare it, only stands up or breaks free, so every close attack it
  makes deals Stun damage). Stun damage counts toward unconsciousness, never kills, leaves the target
  Harried for the round at the Wound Threshold (no Wound), is healed first by Recovery tests, and the
  first Recovery test after it adds the Willpower step and heals Stun damage only; Unconsciousness "NA" is
  immune.
- Entangling weapons (whip, net, bola; p.391-392, data/entangling.toml): an extra success entangles (and
  adds no damage; a net makes no Damage test); the entangled is Harried (Action tests but breaking free,
  and Defenses); his tactic breaks free as its Standard action (the better of Strength and Dexterity
  against the weapon's DN; the first one-handed blade in hand adds its Damage Step less Strength and ruins
  the weapon: a whip is lost to its wielder). A thrown net or bola that misses into close combat entangles
  whom it strikes in the way.
- Thrown weapons (p.392-393): the weapon leaves the hand (its thrown and close attacks gone), lies where
  the target stood, at the feet of the one a miss struck in the way, or where the miss scattered; a thrower
  with no weapon left goes for it (``fetch_thrown``) and picks it up.

It refuses, naming the combatants: other declared combat options; Stun damage under the core rules alone;
more than one thrown weapon; a thrown weapon in the hands of a creature with several Actions (where the
weapon lands after several throws is not mirrored); an entangling thrown weapon whose thrower has no other
weapon (fetching a net still wrapped round someone is not mirrored).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.engine.state import Combatant

STUN_OPTION = "attack-to-stun"
WEAPON_KINDS = ("melee", "missile", "thrown")  # chapter_tactics.WEAPON_KINDS


def _weapon(name: str) -> str:
    return name.removesuffix(" (thrown)")  # readers.weapon_of


def obstacles(c: Combatant, chapter: bool, note: Any) -> None:
    """``note(what, who)`` for what of ``c``'s Stun, entangling and thrown attacks the kernel does not mirror
    (module docstring)."""
    from fracas.rules.ed4.features.readers import entangling

    options = list(c.marks.get("combat_options") or ())
    other = [o for o in options if not (chapter and o == STUN_OPTION)]
    if other:
        note(f"declared combat options ({', '.join(other)})", c.id)
    p = c.stats
    for a in p.attacks:
        if a.stun and not chapter:
            note("Stun damage (core rules)", f"{c.id}: {a.name}")
    if not chapter:
        return
    thrown = [a for a in p.attacks if a.kind == "thrown"]
    if len({_weapon(a.name) for a in thrown}) > 1:
        note("more than one thrown weapon", c.id)
    if thrown and p.actions > 1:
        note("a thrown weapon and several Actions", c.id)
    for a in thrown:
        if entangling(c, a) and not any(
            x.kind in WEAPON_KINDS and x.kind != "thrown" and not entangling(c, x) for x in p.attacks
        ):
            note("an entangling thrown weapon and no other weapon", f"{c.id}: {a.name}")


def fill(c: Combatant, attacks: list[Any], chapter: bool, row: Any, att: Any, core: Any) -> None:
    """The kernel's columns of ``c`` (``row`` of the combatant table, ``att`` its attack rows, one per attack
    of ``attacks``, those the tactic weighs; ``core`` the compiled module, for the column numbers)."""
    from fracas.rules.ed4 import close
    from fracas.rules.ed4.features.readers import ONE_HANDED_LIMIT, entangling, race, weapon_key

    p = c.stats
    stun_declared = chapter and STUN_OPTION in (c.marks.get("combat_options") or ())
    row[core.BFSTEP] = max(p.str_step, p.dex_step)
    row[core.RECSTUN] = min(max(p.recovery_step + p.wil_step, 1), core_max_step())
    row[core.WEAPONS] = sum(1 << i for i, a in enumerate(attacks) if a.kind in WEAPON_KINDS)
    if any(a.kind in WEAPON_KINDS for a in p.attacks if a not in attacks):
        row[core.WEAPONS] |= 1 << 62  # a weapon the tactic never uses, never gone: fetch_thrown sees it
    limit = ONE_HANDED_LIMIT.get(race(c), 3)
    for i, a in enumerate(attacks):
        r = att[i]
        r[core.A_STUN] = 2 if a.stun else 1 if (stun_declared and a.close) else 0
        ent = chapter and entangling(c, a)
        key = weapon_key(c, a)
        r[core.A_ENT] = close.entangle_dn(key, a.damage) if ent else 0
        r[core.A_NODMG] = 1 if ent and close.entangles_only(key) else 0
        r[core.A_THROWN] = 1 if chapter and a.kind == "thrown" else 0
        w = _weapon(a.name)
        r[core.A_DROP] = sum(
            1 << j for j, x in enumerate(attacks) if _weapon(x.name) == w and x.kind in ("thrown", "melee")
        )
        r[core.A_RUIN] = sum(1 << j for j, x in enumerate(attacks) if _weapon(x.name) == w)
        blade = a.kind == "melee" and close.is_one_handed_blade(a.name, a.size, limit)
        r[core.A_BLADE] = a.damage - p.str_step if blade else core.NO_BLADE


def core_max_step() -> int:
    from fracas.dice.steps import MAX_STEP

    return MAX_STEP
