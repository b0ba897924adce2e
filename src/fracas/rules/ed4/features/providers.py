"""The modifiers the ED4 chapter adds to tests and Defenses (p.382-398): the declared combat options
(p.382-386), Harried from every source (p.388), Blindsided (p.388), cover (p.387), surprise (p.390), sight
(p.387), shooting into close combat (p.392), knocked down at Initiative (p.389), improvised weapons
(p.391), mounted long weapons and charges (p.395-396), Flame Weapon and armor-reducing spells (p.393) and
the grappled attacker's DN (p.392). Each is a provider of the Earthdawn round (docs/rulesets/ed4.md
"Extending the resolver"): a pure function of the test's context. :func:`install` registers them in the
order the modifiers are listed (the order is in the golden digests)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fracas.engine import taken
from fracas.engine.hexgrid import neighbours
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.combat import TestContext
from fracas.rules.earthdawn.profile import AttackProfile
from fracas.rules.ed4 import close, mounted, ranged, situation, spells
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features.readers import (
    ONE_HANDED_LIMIT,
    adjacent_enemies,
    cover,
    declared,
    direction,
    in_force,
    intervening,
    lighting,
    mount_of,
    race,
    rider_of,
    senses,
    size,
)

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile
    from fracas.rules.ed4.ruleset import Ed4Ruleset

ACTION_TESTS = frozenset(
    {"attack", "spellcasting", "knockdown", "attribute", "strength", "dexterity", "jump-up", "break-free"}
)
"""Tests Harried counts on (p.388: "Action tests"): Jump Up is a Dexterity test and breaking free a Strength
or Dexterity test (p.384, p.391; the entangled are Harried for any action but breaking free, and other
sources still count then). The core's list (round.py) has no "jump-up": Jump Up "does not suffer the -3
penalty for being knocked down" (p.384)."""


def _p_options_tests(ctx: TestContext) -> Iterable[Modifier]:
    if ctx.test == "initiative" and ctx.actor.marks.get("shield_shattered"):
        return list(_shield_dropped_initiative(ctx)) + list(_options_tests(ctx))
    return _options_tests(ctx)


def _options_tests(ctx: TestContext) -> Iterable[Modifier]:
    if ctx.test == "initiative":
        return ()  # chosen, so kept apart: voluntary_initiative_mods (p.371)
    mine = in_force(ctx.state, ctx.actor)
    if not mine:
        return ()
    a = ctx.attack
    return opt.step_mods(mine, ctx.test, close=a.close if a is not None else True)


def voluntary_initiative_mods(state: FightState, c: Combatant) -> list[Modifier]:
    """The declared combat options' modifiers to the Initiative step (Tail Attack's -2 to all tests,
    p.386): chosen, they lower it no further than Step 1 (p.371)."""
    mine = in_force(state, c)
    return opt.step_mods(mine, "initiative") if mine else []


def _p_options_defense(ctx: TestContext) -> Iterable[Modifier]:
    t = ctx.target
    if t is None:
        return ()
    out: list[Modifier] = []
    if t.marks.get("shield_shattered"):
        out += _shattered_shield_defense(t, ctx.against)
    theirs = in_force(ctx.state, t)
    if not theirs:
        return out
    aware = not ctx.extra.get("blindsided") and "surprised" not in t.conditions
    return out + opt.defense_mods(theirs, aware=aware, name=t.name)


def _shattered_shield_defense(t: Combatant, against: str) -> list[Modifier]:
    """A shattered shield "is now useless, and confers no further protective benefits" (p.385): its
    bonus to Physical or Mystic Defense is taken off (a stat block without its shield's numbers keeps
    its Defenses [choice])."""
    shield = getattr(getattr(t.stats, "source", None), "shield", None)
    if shield is None:
        return []
    bonus = {"physical": shield.physical_defense, "mystic": shield.mystic_defense}.get(against, 0)
    return [Modifier(-bonus, f"{t.name}'s shield shattered", opt.rule(opt.SHATTER))] if bonus else []


def _shield_dropped_initiative(ctx: TestContext) -> list[Modifier]:
    """The shattered shield's fragments are dropped (Herekar's opponent, p.385): its Initiative penalty
    goes with it [choice]."""
    from fracas.rules.earthdawn.characteristics import initiative_step

    src = getattr(ctx.actor.stats, "source", None)
    shield = getattr(src, "shield", None)
    if shield is None or not shield.initiative_penalty:
        return []
    armor = getattr(src, "armor", None)
    without = initiative_step(ctx.actor.stats.dex_step, armor.initiative_penalty if armor else 0, 0)
    gain = without - ctx.actor.stats.initiative_step
    return [Modifier(gain, "shield shattered and dropped", opt.rule(opt.SHATTER))] if gain > 0 else []


def harried_sources(
    state: FightState,
    view: Any,
    c: Combatant,
    test: str = "",
    adjacent: list[Combatant] | None = None,
) -> list[str]:
    out = []
    if "harried" in c.conditions:
        out.append("Stun damage" if c.conditions["harried"].source else "harried")
    if "entangled" in c.conditions and test != "break-free":
        out.append("entangled")
    if opt.SPLIT in declared(state, c.id):
        out.append("Splitting Movement")
    if adjacent is None:
        # fewer other combatants than it takes to harry by numbers: no need to look (a duel)
        few = not situation.harried_by_numbers(len(state.combatants) - 1)
        adjacent = [] if few else adjacent_enemies(state, view, c)
    if situation.harried_by_numbers(len(adjacent)):
        out.append("four or more attackers")
    m = mount_of(state, c) if c.marks.get("mount") else None
    r = rider_of(state, c) if c.marks.get("rider") else None
    pair = (c, m) if m is not None else (r, c) if r is not None else None
    if pair is not None and pair[0] is not None and size(pair[0]) == "small" and size(pair[1]) != "small":
        out += ["windling rider", "windling rider"]
    return out


def _p_harried_tests(ctx: TestContext) -> Iterable[Modifier]:
    if ctx.test not in ACTION_TESTS:
        return ()
    src = harried_sources(ctx.state, ctx.view, ctx.actor, ctx.test)
    if not src:
        return ()
    return situation.harried_mods(len(src), sources=", ".join(sorted(set(src))))


def _p_harried_defense(ctx: TestContext) -> Iterable[Modifier]:
    t = ctx.target
    if t is None:
        return ()
    # in a duel the attacker is the only one who can stand next to the target: too few to harry him by
    # numbers, and no other to engage him (Blindsided reads the list without the attacker)
    adjacent = adjacent_enemies(ctx.state, ctx.view, t) if len(ctx.state.combatants) > 2 else []
    ctx.extra["target_adjacent"] = adjacent
    src = harried_sources(ctx.state, ctx.view, t, adjacent=adjacent)
    ctx.extra["target_harried"] = bool(src)
    if not src:
        return ()
    return situation.harried_mods(len(src), t.name, ", ".join(sorted(set(src))))


def _p_blindsided(ctx: TestContext) -> Iterable[Modifier]:
    t, me = ctx.target, ctx.actor
    if t is None or t.pos is None or me.pos is None or t.pos == me.pos or t.status != "active":
        return ()
    if "surprised" in t.conditions:
        return ()
    light = lighting(ctx.state)
    hidden_attacker = me.hidden and not me.marks.get("revealed")
    if light == "bright":
        attacker_sees = "blinded" not in me.conditions
        sees = not (hidden_attacker or "blinded" in t.conditions)
    else:
        my_light = situation.effective_darkness(light, senses(me))
        their_light = situation.effective_darkness(light, senses(t))
        attacker_sees = "blinded" not in me.conditions and my_light != "full"
        sees = not (hidden_attacker or "blinded" in t.conditions or their_light == "full")
    adjacent = ctx.extra.get("target_adjacent")
    if adjacent is None:
        adjacent = adjacent_enemies(ctx.state, ctx.view, t)
    engaged = [direction(t.pos, o.pos) for o in adjacent if o.id != me.id and o.pos]
    harried = bool(ctx.extra.get("target_harried"))
    if sees and attacker_sees and not engaged and not harried:
        return ()  # an unengaged defender who sees the attacker turns to face him
    if situation.is_blindsided(
        t.facing,
        direction(t.pos, me.pos),
        engaged,
        harried=harried,
        can_see_attacker=sees,
        attacker_can_see=attacker_sees,
    ):
        ctx.extra["blindsided"] = True
        return situation.blindsided_mods(t.name)
    return ()


def _p_cover(ctx: TestContext) -> Iterable[Modifier]:
    """Partial cover against any attack made on the character, close combat included (p.387: "Cover
    modifiers are applied against any attacks made against the character")."""
    t = ctx.target
    if t is None:
        return ()
    return situation.cover_mods(cover(ctx.state, t), t.name)


def _p_surprised(ctx: TestContext) -> Iterable[Modifier]:
    t = ctx.target
    if t is not None and "surprised" in t.conditions:
        return situation.surprised_mods(t.name)
    return ()


def _p_sight(ctx: TestContext) -> Iterable[Modifier]:
    if ctx.test not in situation.SIGHT_TESTS:
        return ()
    light = lighting(ctx.state)
    c = ctx.actor
    if light == "bright" and "blinded" not in c.conditions and "dazzled" not in c.conditions:
        return ()
    return situation.sight_mods(
        ctx.test, light, senses(c), "blinded" in c.conditions, "dazzled" in c.conditions
    )


def _p_into_close(ctx: TestContext) -> Iterable[Modifier]:
    a, t, me = ctx.attack, ctx.target, ctx.actor
    if a is None or a.close or a.kind == "spell" or t is None or t.pos is None or me.pos is None:
        return ()
    n = len(intervening(ctx.state, me, t))
    ctx.extra["intervening"] = n
    return ranged.intervening_mods(n)


def _p_knocked_down_initiative(ctx: TestContext) -> Iterable[Modifier]:
    """Knocked down: -3 to his tests, "including his next Initiative test" (Mica, p.389)."""
    if "knocked-down" in ctx.actor.conditions and ctx.actor.status == "active":
        return situation.knocked_down_mods()
    return ()


def _p_improvised(ctx: TestContext) -> Iterable[Modifier]:
    cmd = ctx.command
    return close.improvised_mods(bool(cmd is not None and cmd.args.get("improvised")))


def _p_long_weapon(ctx: TestContext) -> Iterable[Modifier]:
    a, me = ctx.attack, ctx.actor
    if a is None or not a.close or not me.marks.get("mount"):
        return ()
    m = mount_of(ctx.state, me)
    if m is None or m.pos is None:
        return ()
    blocked = taken.blocked_view(ctx.state, m.id)
    can_move = any(h not in blocked for h in neighbours(m.pos)) and m.stats.movement >= 2
    pen = mounted.long_weapon_penalty(a.size, ONE_HANDED_LIMIT.get(race(me), 3), can_move)
    return (Modifier(pen, "long weapon in close quarters, mounted", mounted.LONG_WEAPONS),) if pen else ()


def _p_charge_damage(ctx: TestContext) -> Iterable[Modifier]:
    cmd = ctx.command
    if cmd is None or not cmd.args.get("charging"):
        return ()
    m = mount_of(ctx.state, ctx.actor) or ctx.state.combatants.get(ctx.actor.marks.get("mount") or "")
    if m is None:
        return ()
    other = None
    t = ctx.target
    if t is not None and t.marks.get("charged") == [ctx.state.round, ctx.actor.id]:
        tm = ctx.state.combatants.get(t.marks.get("mount") or "")
        other = tm.stats.str_step if tm is not None else None
    return mounted.charge_damage_mods(m.stats.str_step, other)


def _p_flame_weapon(ctx: TestContext) -> Iterable[Modifier]:
    a = ctx.attack
    cond = ctx.actor.conditions.get("flame-weapon")
    if cond is None or a is None or a.kind not in ("melee", "thrown", "missile"):
        return ()
    return (Modifier(cond.value, "Flame Weapon", spells.SPELL_RULE),)


def _p_grappled_dn(ctx: TestContext) -> Iterable[Modifier]:
    c = ctx.actor.conditions.get("grappled")
    t = ctx.target
    if c is None or t is None or ctx.test != "attack":
        return ()
    p: CombatProfile = t.stats
    defense = p.physical_defense if ctx.against == "physical" else p.mystic_defense
    raise_to = close.attack_dn_while_grappled(defense, c.value)
    if raise_to > defense:
        return (
            Modifier(
                raise_to - defense,
                f"DN: grappled, must beat the hold's step {c.value}",
                close.GRAPPLING_RULE,
            ),
        )
    return ()


def _p_armor_reduced(t: Combatant, a: AttackProfile) -> Iterable[Modifier]:
    """Earth Darts and the like: the target's physical armor is reduced while the condition lasts
    (p.393, the spell's effect); an armor provider, so every attack path meets it."""
    red = t.conditions.get("armor-reduced")
    if red is not None and a.armor == "physical":
        return (Modifier(-red.value, "armor reduced", red.rule or spells.SPELL_RULE),)
    return ()


def install(rs: Ed4Ruleset) -> None:
    """Register the chapter's providers on ``rs``. Harried (stacking, from numbers, from options) replaces
    the core's single Harried modifier."""
    if rs._harried_tests in rs.step_providers.get("*", []):
        rs.step_providers["*"].remove(rs._harried_tests)
    if rs._harried_defense in rs.defense_providers:
        rs.defense_providers.remove(rs._harried_defense)
    rs.add_step_provider("*", _p_options_tests)
    rs.add_step_provider("*", _p_harried_tests)
    rs.add_step_provider("*", _p_sight)
    rs.add_step_provider("initiative", _p_knocked_down_initiative)
    rs.add_step_provider("attack", _p_improvised)
    rs.add_step_provider("attack", _p_long_weapon)
    rs.add_step_provider("damage", _p_long_weapon)
    rs.add_step_provider("damage", _p_charge_damage)
    rs.add_step_provider("damage", _p_flame_weapon)
    rs.defense_providers += [
        _p_harried_defense,
        _p_blindsided,  # before the options: Defensive Stance needs to know (p.384)
        _p_options_defense,
        _p_cover,
        _p_surprised,
        _p_into_close,
    ]
    rs.dn_providers.append(_p_grappled_dn)
    rs.armor_providers.append(_p_armor_reduced)
