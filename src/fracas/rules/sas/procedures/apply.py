"""Folding Spells & Swords effects into fighters, for tests and the simulator (the engine folds events
instead, :mod:`fracas.rules.sas.fold`)."""

from __future__ import annotations

from collections.abc import Iterable

from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.rolls import Effect
from fracas.rules.sas.tables import tables


def apply(fighters: dict[str, Fighter], effects: Iterable[Effect]) -> None:
    """Fold effects into fighters (for tests and the simulator; the engine folds events instead)."""
    for e in effects:
        f = fighters.get(e.target)
        if f is None:
            continue
        k = e.kind
        if k == "markers":
            _markers(f, e)
        elif k in _BODY:
            _body(f, e)
        elif k == "burn-markers":
            f.markers += e.value
            f.burn_markers += e.value
        elif k == "condition":
            f.conditions[e.name] = e.rounds
        elif k == "remove-condition":
            f.conditions.pop(e.name, None)
        elif k == "bleed":
            f.bleeds += e.value
            f.next["bleed_death"] = min(f.next.get("bleed_death", 10**6), e.rounds or 10**6)
        elif k == "stop-bleed":
            f.bleeds = 0
            f.next.pop("bleed_death", None)
        elif k == "dead":
            f.dead = True
        elif k == "dying":
            f.dying_rounds = e.rounds
        elif k == "next":
            f.next[e.name] = f.next.get(e.name, 0) + e.value
        elif k == "stat":
            _stat(f, e)


def _markers(f: Fighter, e: Effect) -> None:
    f.markers = max(0, f.markers + e.value)
    f.burn_markers = min(f.burn_markers, f.markers)
    if e.value > 0:
        f.hits_taken += 1


def _stat(f: Fighter, e: Effect) -> None:
    if e.name == "strength":
        f.strength_loss -= e.value
    elif e.name == "appearance":
        f.appearance_loss -= e.value


def _drop_weapon(f: Fighter) -> None:
    held = tables().weapons.get(f.wielded)
    if held is None or held.hands:  # a natural weapon is never dropped
        f.weapon = "unarmed"


def _lost_limb(f: Fighter, e: Effect) -> None:
    f.lost = (*f.lost, e.name)
    if e.name == "leg":
        f.next["move"] = f.next.get("move", 0) + e.value


_BODY = frozenset(("hurt", "broken", "remove-broken", "permanent", "drop-weapon", "lost-limb"))


def _body(f: Fighter, e: Effect) -> None:
    """Hurt, broken, healed and lost parts, a dropped weapon."""
    k = e.kind
    if k == "hurt":
        f.hurt.append(e.name)
    elif k == "broken":
        f.broken.append(e.name)
    elif k == "remove-broken":
        if e.name in f.broken:
            f.broken.remove(e.name)
    elif k == "permanent":
        f.permanent.append(e.name)
    elif k == "drop-weapon":
        _drop_weapon(f)
    elif k == "lost-limb":
        _lost_limb(f, e)
