"""The Earthdawn ruleset on the fracas engine, shared by the editions (ED4 p.371-381).

:class:`EarthdawnRuleset` runs declare -> Initiative -> turns -> end of round, the Standard/Simple actions,
movement, reserved and delayed actions and the Attack/Damage procedure, with every number explained by
:class:`~fracas.rules.base.Modifier` lists. An edition subclass supplies its :class:`Edition` (step table,
rule ids and pages), its rules list, its optional rules, its Initiative step and its movement.

Plug-in points (docs/rulesets/ed4.md "Extending the resolver"):

- ``self.step_providers[test]``: functions ``(TestContext) -> Iterable[Modifier]`` adding step modifiers to
  one kind of test ("initiative", "attack", "damage", "knockdown", "recovery", ...; "*" for every test);
- ``self.defense_providers``: modifiers to the Defense of an attack's target (they change the DN);
- ``self.dn_providers``: modifiers to the DN from the attacker's side (reserved action, ...);
- ``self.armor_providers``: functions ``(target, attack) -> Iterable[Modifier]`` changing the armor an
  attack meets (Earth Darts' armor reduction); :meth:`EarthdawnRuleset.armor_of` is what every attack uses;
- ``self.actions``: the :class:`~fracas.rules.actions.Registry` of the commands by name, each an
  :class:`Action` (validate, resolve, Standard or not); an edition changes :meth:`core_actions`;
- ``self.combat_options[name]``: combat options a declaration may carry (the ED4 chapter registers them).

Commands (``Command.action``): ``declare``, ``attack``, ``move``, ``run``, ``stand-up``, ``revive``,
``reserve``, ``delay``, ``sustain``, ``simple``, ``end``; to a reserved action's trigger ``react`` with
any Standard-action command or ``pass``; a delaying character ``act-now`` or ``wait``.

The class is built in layers, one file per rule area, each extending the one below:
:mod:`~fracas.rules.earthdawn.providers` (the modifier plug-in points, the core modifiers) <
:mod:`~fracas.rules.earthdawn.actions` (movement and the actions other than the attack) <
:mod:`~fracas.rules.earthdawn.attack` < :mod:`~fracas.rules.earthdawn.round` (declare, Initiative, order,
end of round) < :mod:`~fracas.rules.earthdawn.commands` (choices, validate, resolve; reserved and delayed
actions) < :mod:`~fracas.rules.earthdawn.show` (narration, odds, card) < this module (set-up: the
registration of the core's providers and actions, the profiles of an encounter's combatants).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.engine import taken
from fracas.errors import EncounterFileError
from fracas.rules.actions import Registry
from fracas.rules.earthdawn.actions import SIMPLE, STANDARD, Action, CombatOption
from fracas.rules.earthdawn.combat import Provider
from fracas.rules.earthdawn.providers import ArmorProvider
from fracas.rules.earthdawn.show import EarthdawnShow

if TYPE_CHECKING:
    from fracas.engine.encounter import CombatantSpec
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile


class EarthdawnRuleset(EarthdawnShow):
    hex_yards = 2.0
    # is_out reads status only: the engine checks the end after StatusChanged
    out_by_status_only = True

    def __init__(self) -> None:
        self.step_providers: dict[str, list[Provider]] = {}
        self.defense_providers: list[Provider] = []
        self.dn_providers: list[Provider] = []
        self.armor_providers: list[ArmorProvider] = []
        self.combat_options: dict[str, CombatOption] = {}
        self._tactics: dict[str, Any] | None = None
        self._install_core()
        self.actions: Registry[Action] = Registry(self.core_actions())

    # The edition supplies how a stat block, a catalog entry and overrides become a profile.
    def profile_from_block(self, block: dict[str, Any], name: str, where: str) -> CombatProfile:
        raise NotImplementedError

    def profile_from_stats(self, stats: Any, name: str, catalog: Any) -> CombatProfile:
        raise NotImplementedError

    def override_profile(self, profile: CombatProfile, block: dict[str, Any], where: str) -> CombatProfile:
        raise NotImplementedError

    def load_profile(self, spec: CombatantSpec, name: str, where: str) -> CombatProfile:
        """A combatant's profile from an encounter entry: a full ``stats`` block, or a bundled template of
        this edition (characters may change ``equipment``), with ``stats`` as overrides."""
        from fracas.errors import FracasError
        from fracas.rules.earthdawn import catalog

        edition = self.edition.id
        if spec.template is None:
            if spec.equipment:
                raise EncounterFileError(f"{where}.equipment: equipment needs a character template")
            if not spec.stats:
                raise EncounterFileError(
                    f"{where}: give a template (one of: {', '.join(self.templates())}) or stats"
                )
            return self.profile_from_block(spec.stats, name or spec.name or "combatant", where)
        cat = catalog.get_catalog(edition)
        key = catalog.normalize_name(spec.template)
        try:
            if spec.equipment:
                bad = [k for k in spec.equipment if k not in EQUIPMENT_KEYS]
                if bad:
                    raise EncounterFileError(
                        f"{where}.equipment.{bad[0]}: unknown field; allowed: {', '.join(EQUIPMENT_KEYS)}"
                    )
                if key not in cat.characters:
                    raise EncounterFileError(
                        f"{where}.equipment: only character templates take equipment; "
                        f"{spec.template!r} is not one"
                    )
                _check_equipment(cat, spec.equipment, f"{where}.equipment")
                stats = character_with(cat, key, spec.equipment, edition)
            else:
                stats = cat.template(key)
        except EncounterFileError:
            raise
        except FracasError as exc:
            raise EncounterFileError(f"{where}.template: {exc}") from None
        profile = self.profile_from_stats(stats, name or stats.name, cat)
        if spec.stats:
            profile = self.override_profile(profile, spec.stats, where)
        return profile

    # ----- registration -----------------------------------------------------------------------------------
    def _install_core(self) -> None:
        self.add_step_provider("*", self._wound_penalty)
        self.add_step_provider("*", self._knocked_down_tests)
        self.add_step_provider("*", self._harried_tests)
        self.add_step_provider("attack", self._long_range)
        self.add_step_provider("damage", self._long_range)
        self.defense_providers += [
            self._knocked_down_defense,
            self._harried_defense,
            self._unconscious_defense,
        ]
        self.dn_providers.append(self._reserved_dn)

    def core_actions(self) -> tuple[Action, ...]:
        """The commands of the round, in the order they are registered."""
        r = self.ref
        return (
            Action("attack", STANDARD, self._v_attack, self._r_attack, r("attack")),
            Action("move", SIMPLE, self._v_move, self._r_move, r("movement")),
            Action("run", STANDARD, self._v_run, self._r_run, r("movement.double")),
            Action("stand-up", STANDARD, self._v_stand_up, self._r_stand_up, r("situation.knocked-down")),
            Action("revive", STANDARD, self._v_revive, self._r_revive, r("recovery.unconscious")),
            Action("sustain", STANDARD, self._v_none, self._r_sustain, r("actions.sustained")),
            Action("simple", SIMPLE, self._v_none, self._r_simple, r("actions.simple")),
            Action("end", "turn", self._v_none, self._r_end, r("round.resolve")),
            Action("reserve", "turn", self._v_reserve, self._r_reserve, r("actions.reserved")),
            Action("delay", "turn", self._v_none, self._r_delay, r("actions.delayed")),
        )

    # ----- building ---------------------------------------------------------------------------------------
    def make_combatants(self, spec: CombatantSpec, side: str, where: str) -> list[Combatant]:
        from fracas.engine.encounter import assign_ids
        from fracas.engine.state import Combatant

        ids = assign_ids(spec, "combatant")
        profile = self.load_profile(
            spec, ids[0][1] if spec.count == 1 else (spec.name or spec.template or ""), where
        )
        known = self.tactics()
        if spec.tactic not in known:
            raise EncounterFileError(
                f"{where}.tactic: unknown tactic {spec.tactic!r}; allowed: {', '.join(sorted(known))}"
            )
        out = []
        for (cid, name), pos in zip(ids, spec.positions(), strict=True):
            counters = {"damage": 0, "wounds": 0}
            if profile.karma:
                counters["karma"] = profile.karma
            out.append(
                Combatant(
                    cid,
                    name,
                    side,
                    profile,
                    player=spec.player,
                    tactic=spec.tactic,
                    hidden=spec.hidden,
                    template=spec.template or "",
                    pos=pos,
                    facing=spec.facing,
                    altitude=spec.altitude,
                    counters=counters,
                )
            )
        return out

    def prepare(self, state: FightState, spec: Any) -> None:
        """Place combatants without a starting hex on free hexes, in rows (sides 8 hexes apart): neither
        another's hex nor one the map blocks."""
        used = {c.pos for c in state.combatants.values() if c.pos is not None}
        walls = taken.map_blocked(state)
        for si, side in enumerate(state.sides):
            q = si * 8
            r = 0
            for c in state.on_side(side):
                if c.pos is not None:
                    continue
                while (q, r) in used or (q, r) in walls:
                    r += 1
                c.pos = (q, r)
                used.add((q, r))


EQUIPMENT_KEYS = ("weapons", "armor", "shield")


def _check_equipment(cat: Any, equipment: dict[str, Any], where: str) -> None:
    """Every unknown weapon, armor or shield of an encounter's ``equipment``, each at its own path, in one
    error (the catalog's own message names the first only, and not where it is)."""
    from fracas.rules.earthdawn.catalog import UnknownName

    problems: list[str] = []
    weapons = equipment.get("weapons", [])
    items = [(f"{where}.weapons", weapons)] if isinstance(weapons, str) else []
    if isinstance(weapons, list):
        items = [(f"{where}.weapons.{i}", w) for i, w in enumerate(weapons)]
    elif not isinstance(weapons, str):
        problems.append(f"{where}.weapons: expected a list of weapon names, found {weapons!r}")
    lookups = [(path, name, cat.weapon) for path, name in items]
    for field, look in (("armor", cat.armor_piece), ("shield", cat.shield)):
        if equipment.get(field):  # empty: none worn, as from_character reads it
            lookups.append((f"{where}.{field}", equipment[field], look))
    for path, name, look in lookups:
        if not isinstance(name, str):
            problems.append(f"{path}: expected a name, found {name!r}")
            continue
        try:
            look(name)
        except UnknownName as exc:
            problems.append(f"{path}: {exc}")
    if problems:
        raise EncounterFileError("; ".join(problems))


def character_with(cat: Any, key: str, equipment: dict[str, Any], edition: str) -> Any:
    """A catalog character of ``edition`` with the encounter's equipment in place of its own."""
    from fracas.rules.earthdawn.stats import EarthdawnStats

    row = cat.characters[key]
    weapons = equipment.get("weapons", row.weapons)
    if isinstance(weapons, str):
        weapons = [weapons]
    return EarthdawnStats.from_character(
        row.name,
        edition,
        row.race,
        row.attributes,
        talents=row.talents,
        skills=row.skills,
        weapons=weapons,
        armor=equipment.get("armor", row.armor),
        shield=equipment.get("shield", row.shield),
        circle=row.circle,
        karma=row.karma,
        discipline=row.discipline,
        spells=[s.model_dump() for s in row.spells],
        mount=row.mount,
        catalog=cat,
    )
