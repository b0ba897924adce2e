"""Riders and mounts in the ED4 group kernel (ED4 p.394-398): what the builder (:mod:`.ed4_group`) checks and
fills. The compiled part (who rides what, the mount's Movement and Initiative, the ``mount`` tactic, falls)
is in :mod:`fracas.sim.kernels.ed4_group_core` (its section "riders and mounts").
"""

from __future__ import annotations

from typing import Any

# ----- the builder's part (plain Python) -------------------------------------------------------------------

MAX_WITH_RIDERS = 7
"""With more combatants a rider falling off could find every hex round him taken and stay on his mount's
hex (falling._landing), which the one-code-per-hex grid cannot hold."""


def obstacles(ruleset: Any, state: Any) -> list[tuple[str, str]]:
    """What the kernel does not model about the riders and mounts of an encounter, as (feature, who)."""
    from fracas.rules.ed4.features.readers import size
    from fracas.rules.ed4.ruleset import Ed4Ruleset

    out: list[tuple[str, str]] = []
    cs = state.combatants
    riders = [c for c in cs.values() if c.marks.get("mount")]
    if not riders:
        return out
    if not isinstance(ruleset, Ed4Ruleset):
        out += [("riders without the ED4 chapter", c.id) for c in riders]
        return out
    from fracas.rules.ed4.features.readers import entangling

    for c in cs.values():  # the Stun, entanglement and options sections leave riders out (not mirrored)
        if c.marks.get("combat_options") or any(a.stun or entangling(c, a) for a in c.stats.attacks):
            out.append(("riders with Stun, entangling attacks or declared options in the fight", c.id))
    out += [
        ("a rider with a thrown weapon", r.id)
        for r in riders
        if any(a.kind == "thrown" for a in r.stats.attacks)
    ]
    # the veteran's options with riders (Setting Against a Charge, p.385) and a veteran rider's charges
    vets = [c.id for c in cs.values() if c.tactic == "veteran"]
    if vets:
        out.append(("riders with veterans (charges, Setting Against a Charge)", vets[0]))
    out += [(f"a rider under the {r.tactic} tactic", r.id) for r in riders if r.tactic != "default"]
    guards = [c.id for c in cs.values() if c.tactic in ("guard", "sentinel")]
    if guards:
        out.append(("riders with reserved actions (guard, sentinel)", guards[0]))
    if len(cs) > MAX_WITH_RIDERS:
        out.append((f"riders among more than {MAX_WITH_RIDERS} combatants", riders[0].id))
    for r in riders:
        m = cs.get(r.marks["mount"])
        if m is None or m.marks.get("rider") != r.id or m.pos != r.pos or m.marks.get("mount"):
            out.append(("a rider not on his mount's hex", r.id))
            continue
        if r.stats.kind == "character":
            out.append(("a rider who may flee (a character)", r.id))
        if r.marks.get("familiar", True) is False:
            out.append(("an unfamiliar mount (Trick Riding tests)", r.id))
        if size(r) == "small" and size(m) != "small":
            out.append(("a windling rider (Harried)", r.id))
        if m.marks.get("training", "combat") not in ("trained", "combat"):
            out.append(("an untrained mount", m.id))
        if m.tactic != "mount":
            out.append(("a ridden mount under another tactic than mount", m.id))
        first = next((a for a in m.stats.attacks if not a.name.lower().startswith("charge")), None)
        if first is not None and not first.close:
            out.append(("a ridden mount whose first attack is not a close one", m.id))
        if m.stats.movement < 2:
            out.append(("a mount with a Movement under 2 yards", m.id))
    return out


def check_tactic(ruleset: Any, used: set[str]) -> None:
    """Refuses a ``mount`` tactic that is not chapter_tactics.MountTactic as the kernel mirrors it
    (:func:`mount_choice` ridden, tactics.Ed4Tactic unridden)."""
    if "mount" not in used:
        return
    from fracas.rules.ed4.chapter_tactics import MountTactic
    from fracas.rules.ed4.tactics import Ed4Tactic
    from fracas.sim.kernels import Unsupported

    t = ruleset.tactics().get("mount")
    if type(t).__name__ == "ChapterAware":  # nothing to add without options, grappling, thrown weapons
        t = getattr(t, "inner", None)
    cls = type(t)
    if not (
        isinstance(t, MountTactic)
        and cls.act is MountTactic.act
        and cls.choose is Ed4Tactic.choose
        and cls.attack_plan is Ed4Tactic.attack_plan
        and Ed4Tactic.act is super(MountTactic, t).act.__func__  # type: ignore[attr-defined]
    ):
        raise Unsupported("the mount tactic is not the one the kernel mirrors")


def size_penalty(c: Any, a: Any) -> int:
    """mounted.long_weapon_penalty's difference for a rider's close weapon: its Size beyond his race's
    one-handed limit (readers.ONE_HANDED_LIMIT, 3 for the others), as a penalty (0 if none)."""
    from fracas.rules.ed4.features.readers import ONE_HANDED_LIMIT, race

    limit = ONE_HANDED_LIMIT.get(race(c), 3)
    return -(a.size - limit) if a.close and a.size > limit else 0


def fill(state: Any, cs: list[Any], cst: Any, att: Any, usable: Any, ruleset: Any) -> bool:
    """The riders' and mounts' columns of the builder's tables; True if there is a rider. A rider's own
    Movement is kept (``movement_hexes`` gives him his mount's while he rides)."""
    from fracas.rules.earthdawn.battle_map import hexes

    from . import ed4_group_core as core

    index = {c.id: i for i, c in enumerate(cs)}
    riders = False
    for i, c in enumerate(cs):
        mid = c.marks.get("mount")
        if mid:
            riders = True
            m = state.combatants[mid]
            cst[i, core.MOUNT0] = index[mid] + 1
            if ruleset.movement_hexes(state, c) != hexes(m.stats.movement):
                raise ValueError(f"{c.id}: a mounted Movement the kernel does not mirror")
            for ai, a in enumerate(usable(c.stats)):
                att[i, ai, core.A_SIZEPEN] = size_penalty(c, a)
        if c.marks.get("rider"):
            cst[i, core.RIDER0] = index[c.marks["rider"]] + 1
            cst[i, core.TRAINED] = 1 if c.marks.get("training", "combat") in ("trained", "combat") else 0
        cst[i, core.MTAC] = 1 if c.tactic == "mount" else 0
    return riders
