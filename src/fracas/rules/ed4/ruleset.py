"""The Earthdawn 4th Edition ruleset ``ed4``: the shared Earthdawn round with ED4's numbers and pages.

Core combat (p.371-381) is implemented here and in :mod:`fracas.rules.earthdawn`; the rest of the chapter
(combat options, situation modifiers, the types of combat of p.382-398) is in
:mod:`fracas.rules.ed4.features`, one file per rule area, which :class:`Ed4Ruleset` lists: modifier
providers and actions registered on the round's plug-in points (docs/rulesets/ed4.md "Extending the
resolver"), and the round's methods it extends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.errors import IllegalCommand
from fracas.rules.actions import Registry
from fracas.rules.base import Modifier, OptionalRule, Rule
from fracas.rules.cite import catalog
from fracas.rules.earthdawn.actions import CombatOption
from fracas.rules.earthdawn.combat import Edition, Scratch, TestContext, recovery_events
from fracas.rules.earthdawn.profile import CombatProfile, override, profile_from_block, profile_from_stats
from fracas.rules.earthdawn.ruleset import EarthdawnRuleset
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features import (
    attack,
    declaring,
    flight,
    grappling,
    hooks,
    providers,
    riding,
    spellcasting,
    thrown,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from fracas.dice.source import DiceSource
    from fracas.engine.commands import Command, Decision
    from fracas.engine.state import Combatant, FightState

RECOVERY_FAILED = "recovery_failed"
"""Mark of an unconscious character whose Recovery test (one minute after falling, or when revived) did not
wake him: "he must wait another hour before he can make another Recovery test" (p.380)."""

ED4 = Edition(
    id="ed4",
    steps="ed4",
    refs=dict(catalog("ed4").refs),
    extra_success_damage=2,
    rule_of_one_min_dice=2,
    result_floor=1,
)


class Ed4CoreRuleset(EarthdawnRuleset):
    """ED4 core combat (p.371-381) alone: what :class:`Ed4Ruleset` adds the rest of the chapter to."""

    refuses_attacks = False  # every attack the tactics plan is legal in the core: no second check
    tactics_legal = True
    """The core's own tactics (``legal_by_construction``) build only commands ``validate`` accepts: the
    engine does not check them twice (engine/play.py ``Fight.step``)."""

    id = "ed4"
    name = "Earthdawn 4th Edition"
    source = "000_4b24aca42c3b6366.txt"
    hex_yards = 2.0
    edition = ED4

    def __init__(self) -> None:
        super().__init__()
        self.catalog_parts: set[str] = set()  # the chapter: the parts of data/rules.toml it brings

    # ----- p.375: a reserved action's +2 to every Difficulty Number of the turn ----------------------------
    def reacting(self, state: FightState, view: Scratch | None, cid: str) -> bool:
        """``cid`` is taking his reserved action now (the command interrupting another, p.375)."""
        intr = state.extra.get("interrupt")
        return bool(view is not None and view.flags.get("reserved") and intr and intr.get("by") == cid)

    def _reserved_dn(self, ctx: TestContext) -> Iterable[Modifier]:
        """+2 to the DN of the reserver's tests on his reserved turn (p.375: "all actions performed on their
        turn"): attacks, and also a charge's, a swoop's or a spell's test made as the reserved action."""
        if ctx.extra.get("reserved") or self.reacting(ctx.state, ctx.view, ctx.actor.id):
            return (Modifier(2, "DN: reserved action", self.ref("actions.reserved")),)
        return ()

    # ----- p.380: one Recovery test while unconscious, then an hour ----------------------------------------
    def _v_revive(self, state: FightState, command: Command) -> None:
        super()._v_revive(state, command)
        t = state.combatants[command.target or ""]
        if t.marks.get(RECOVERY_FAILED):
            raise IllegalCommand(
                f"{t.name}'s Recovery test did not wake him: he must wait another hour before he can make "
                "another Recovery test",
                self.ref("recovery.unconscious"),
            )

    def _r_revive(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        """A revival is the unconscious character's Recovery test made at once (p.380); if it does not wake
        him, no other Recovery test in the fight, by revival or one minute after falling (p.380)."""
        t = sc.get(command.target or "")
        recovery_events(sc, self.edition, dice, t.id, f"revived by {state.combatants[command.actor].name}")
        if t.status == "unconscious":
            rule = self.ref("recovery.unconscious")
            sc.emit(
                ev.Marked(t.id, "recovery_tried", True, rule), ev.Marked(t.id, RECOVERY_FAILED, True, rule)
            )
        self._end_or_mark(state, command, sc, True)

    def _start_round(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        """The core's round start; an unconscious character whose Recovery test one minute after falling did
        not wake him must wait an hour for the next (p.380): nobody can revive him in the fight either."""
        out = super()._start_round(state, dice)
        tried = [e.target for e in out if isinstance(e, ev.Marked) and e.key == "recovery_tried"]
        if not tried:
            return out
        woke = {e.target for e in out if isinstance(e, ev.StatusChanged) and e.status == "active"}
        rule = self.ref("recovery.unconscious")
        extra = [ev.Marked(cid, RECOVERY_FAILED, True, rule) for cid in tried if cid not in woke]
        if not extra:
            return out
        # after the Recovery tests, before the roster or the Initiative tests
        later = (ev.ExtraSet, ev.InitiativeRolled, ev.OrderSet, ev.TurnStarted)
        i = next((i for i, e in enumerate(out) if isinstance(e, later)), len(out))
        return out[:i] + extra + out[i:]

    def rules(self) -> list[Rule]:
        """The catalog's rows, less those of the parts (the whole chapter) this ruleset does not bring."""
        ed4 = catalog("ed4")
        return ed4.rows(without=frozenset(ed4.parts.values()) - self.catalog_parts)

    def optional_rules(self) -> list[OptionalRule]:
        ed4 = catalog("ed4")
        return ed4.optional_rows(without=frozenset(ed4.parts.values()) - self.catalog_parts)

    def templates(self) -> list[str]:
        from fracas.rules.earthdawn.catalog import list_templates

        return [t.key for t in list_templates("ed4")]

    def profile_from_block(self, block: dict[str, Any], name: str, where: str) -> CombatProfile:
        return profile_from_block(block, name, where)

    def profile_from_stats(self, stats: Any, name: str, catalog: Any) -> CombatProfile:
        return profile_from_stats(stats, name)

    def override_profile(self, profile: CombatProfile, block: dict[str, Any], where: str) -> CombatProfile:
        return override(profile, block, where)

    def tactics(self) -> dict[str, Any]:
        if self._tactics is None:
            from fracas.rules.ed4.tactics import TACTICS

            self._tactics = dict(TACTICS)
        return self._tactics


FEATURES = (declaring, grappling, thrown, spellcasting, riding, flight)
"""The rule areas of p.382-398 that add commands (each has ``actions(ruleset)``), in the order their actions
are registered; :mod:`.features.providers` adds the modifiers and :mod:`.features.hooks` the round's
changes."""


class Ed4Ruleset(Ed4CoreRuleset):
    """The whole ED4 combat chapter: the core plus p.382-398 (:mod:`fracas.rules.ed4.features`)."""

    refuses_attacks = True  # the chapter may refuse an attack the core allows: tactics check first
    tactics_legal = False  # the chapter may refuse what the core tactics build: the engine validates

    def __init__(self) -> None:
        super().__init__()
        providers.install(self)
        for name in opt.options_table():
            self.combat_options[name] = CombatOption(name, opt.rule(name), declaring.check_options)
        # every action, the core's and the chapter's, meets the chapter's restrictions, Strain and facing
        added = [a for feature in FEATURES for a in feature.actions(self)]
        self.actions = Registry(declaring.wrap_action(self, a) for a in [*self.actions, *added])
        # the rows of data/rules.toml (the optional rule long-falls too) only the whole chapter brings
        self.catalog_parts.add("chapter")

    def tactics(self) -> dict[str, Any]:
        """The core's tactics and the chapter's, each inside the chapter's standing behaviour
        (:class:`~fracas.rules.ed4.chapter_tactics.ChapterAware`)."""
        if self._tactics is None:
            from fracas.rules.ed4.chapter_tactics import CHAPTER_TACTICS, wrap_tactics
            from fracas.rules.ed4.tactics import TACTICS

            tactics = {**TACTICS, **CHAPTER_TACTICS}
            wrap_tactics(tactics)
            self._tactics = tactics
        return self._tactics

    # ----- the round, as the chapter changes it (features/hooks.py) ---------------------------------------
    def prepare(self, state: FightState, spec: Any) -> None:
        hooks.set_up(state, spec)
        super().prepare(state, spec)
        hooks.placed(state, spec)

    def _declarers(self, state: FightState) -> tuple[str, ...]:
        return hooks.declarers(state, super()._declarers(state))

    def movement_hexes(self, state: FightState, c: Combatant) -> int:
        return hooks.movement_hexes(state, c)

    def standing_hexes(self, state: FightState, c: Combatant) -> int:
        return hooks.standing_hexes(self, state, c)

    def initiative_leader(self, state: FightState, c: Combatant) -> str | None:
        return riding.initiative_leader(state, c)

    def voluntary_initiative_mods(self, state: FightState, c: Combatant) -> list[Modifier]:
        return providers.voluntary_initiative_mods(state, c)

    def may_refuse_attack(self, state: FightState, me: Combatant, t: Combatant) -> bool:
        return attack.may_refuse_attack(state, me, t)

    def pending(self, state: FightState) -> Decision | None:
        return hooks.pending(state, super().pending(state))

    def advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        return hooks.advance(self, state, dice, super().advance)

    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[ev.Event]:
        return hooks.resolve(self, state, command, dice, super().resolve(state, command, dice))

    def offered(self, state: FightState, decision: Decision) -> list[Command]:
        return hooks.offered(state, decision, super().offered(state, decision))

    def narrate(self, event: ev.Event, state: FightState) -> str | None:
        said = hooks.narrate(event, state)
        return said if said is not None else super().narrate(event, state)


RULESET = Ed4Ruleset()
