"""Every rule of the ED1 combat chapter (``001_694a1556573a8dc9.txt``, "EDRulebook: 12 Combat") with its id.

The text carries no page numbers, so a rule's "page" is its chapter and section: ``ch.12 §Initiative``
(the section headings of the text, in its order). Rules the chapter points to but does not contain
(Resolving Attacks, Combat Options, Situation Modifiers, Mounted and Aerial Combat, the Attribute Table, the
Success Level Table) cite where their numbers come from instead: ``reference 1.5`` is
/work/shared/rules/reference/earthdawn.md section 1.5, and so on.

``REFS`` maps the shared Earthdawn code's rule keys (``rules/earthdawn/round.py``, ``combat.py``) and the
ED1 ruleset's own keys to ids with their section; ``RULES`` is what ``fracas rules ed1`` lists.
"""

from __future__ import annotations

from fracas.rules.base import Rule

CH = "ch.12"

# key -> "ed1/<area>/<rule> <section>"
REFS: dict[str, str] = {
    # the chapter's own rules, in the order of the text
    "round": "ed1/round/sequence ch.12§Combat-Round",
    "round.declare": "ed1/round/declare-actions ch.12§Combat-Round.1",
    "initiative": "ed1/initiative/test ch.12§Combat-Round.2",
    "initiative.dexterity": "ed1/initiative/dexterity-dice ch.12§Combat-Round.2",
    "initiative.creature": "ed1/initiative/creature-dice ch.12§Combat-Round.2",
    "initiative.armor": "ed1/initiative/armor-and-shields ch.12§Combat-Round.2",
    "initiative.talents": "ed1/initiative/talents ch.12§Combat-Round.2",
    "round.resolve": "ed1/round/resolve-actions ch.12§Combat-Round.3",
    "round.declare-specific": "ed1/round/declare-talent-and-karma ch.12§Combat-Round.3",
    "round.new": "ed1/round/new-round ch.12§Combat-Round.4",
    "initiative.order": "ed1/initiative/descending-order ch.12§Initiative",
    "initiative.group": "ed1/initiative/group ch.12§Initiative",
    "initiative.ties": "ed1/initiative/ties ch.12§Initiative",
    "actions": "ed1/actions/per-round ch.12§Actions",
    "movement": "ed1/movement/combat-movement ch.12§Movement",
    "movement.full": "ed1/movement/full-movement ch.12§Movement",
    "movement.all-at-once": "ed1/movement/all-at-once ch.12§Movement",
    "movement.split": "ed1/option/splitting-movement ch.12§Movement",
    "actions.simple": "ed1/actions/simple ch.12§Simple-Actions",
    "talents.no-action": "ed1/talents/no-action ch.12§Simple-Actions",
    "actions.standard": "ed1/talents/one-action-talent ch.12§Talent-Tests",
    "talents.as-skill": "ed1/talents/as-skill ch.12§Talent-Tests",
    "special": "ed1/actions/special ch.12§Special-Actions",
    "special.surrender": "ed1/actions/special-surrender ch.12§Special-Actions",
    "special.retreat": "ed1/actions/special-retreat ch.12§Special-Actions",
    "changed": "ed1/actions/changing-declared-action ch.12§Changing-Declared-Action",
    "resolve.one-at-a-time": "ed1/round/one-at-a-time ch.12§Resolving-Actions",
    "karma": "ed1/round/karma-at-the-turn ch.12§Resolving-Actions",
    "defense-talents": "ed1/talents/defense-for-the-round ch.12§Resolving-Actions",
    "dn": "ed1/test/difficulty-number ch.12§Difficulty-Number",
    "dn.success-level": "ed1/test/success-level-required ch.12§Difficulty-Number",
    "actions.reserved": "ed1/actions/reserved ch.12§Reserved-Actions",
    "reserved.charge": "ed1/actions/reserved-against-charge ch.12§Reserved-Actions",
    # what the chapter points to; numbers from reference/earthdawn.md
    "steps": "ed1/test/step-table (reference 1.2)",
    "levels": "ed1/test/success-levels (reference 1.5)",
    "rule-of-one": "ed1/test/rule-of-one (reference 1.4)",
    "attributes": "ed1/attributes/table p.52 (reference 2.2)",
    "attack": "ed1/attack/test ch.12§Resolving-Attacks (reference 1.5)",
    "attack.armor-defeating": "ed1/attack/armor-defeating-hit ch.12§Resolving-Attacks (reference 1.5)",
    "attack.extra-successes": "ed1/attack/no-extra-successes (reference 1.5)",
    "damage": "ed1/damage/test ch.12§Resolving-Attacks",
    "damage.armor": "ed1/damage/armor ch.12§Resolving-Attacks",
    "damage.wounds": "ed1/damage/wounds ch.12§Resolving-Attacks",
    "damage.knockdown": "ed1/damage/knockdown ch.12§Resolving-Attacks",
    "damage.unconscious": "ed1/damage/unconsciousness ch.12§Resolving-Attacks",
    "damage.death": "ed1/damage/death ch.12§Resolving-Attacks",
    "damage.stun": "ed1/damage/stun (not in the text held)",
    "recovery": "ed1/recovery/test (reference 2.2)",
    "recovery.wounds": "ed1/recovery/wounds (reference 2.1)",
    "recovery.unconscious": "ed1/recovery/unconscious (reference 2.1)",
    "wounds.penalty": "ed1/wounds/penalty (reference 2.2)",
    "situation.knocked-down": "ed1/situation/knocked-down ch.12§Situation-Modifiers(not-held)",
    "situation.harried": "ed1/situation/harried ch.12§Situation-Modifiers(not-held)",
    "situation.range": "ed1/situation/range ch.12§Situation-Modifiers(not-held)",
    "situation.unconscious": "ed1/situation/unconscious-target ch.12§Situation-Modifiers(not-held)",
    "combat.close": "ed1/combat/close (hex map, DESIGN.md)",
    "combat.ranged": "ed1/combat/ranged (reference 4.1)",
    "charge": "ed1/mounted/charging-attack (Mounted Combat, not in the text held)",
    "swoop": "ed1/aerial/swooping-attack (Aerial Combat, not in the text held)",
    "mounted.movement": "ed1/mounted/movement (Mounted Combat, not in the text held)",
    # shared-code keys ED1 has no rule for: the ED1 ruleset refuses the commands that would use them
    "movement.double": "ed1/movement/full-movement ch.12§Movement",
    "actions.sustained": "ed1/actions/sustained (not in the ED1 text)",
    "actions.delayed": "ed1/actions/no-delayed-action ch.12§Reserved-Actions",
    "actions.delayed.next-round": "ed1/actions/no-delayed-action ch.12§Reserved-Actions",
    "initiative.below-one": "ed1/initiative/step-below-one (not in the text)",
    "initiative.take": "ed1/initiative/no-take-the-initiative (ED4 only)",
    "strain": "ed1/damage/strain (not in the text held)",
}


def _id(key: str) -> tuple[str, str]:
    rid, _, page = REFS[key].partition(" ")
    return rid, page


def _r(key: str, title: str, status: str = "implemented", note: str = "") -> Rule:
    rid, page = _id(key)
    return Rule(rid, title, page, status, note)


# Sections the 1st Edition combat text refers to but does not contain: the game master rules them (the 4th
# Edition versions are not carried over, because the editions differ).
NOT_HELD = "gm-call"

RULES: list[Rule] = [
    # ----- Combat Round --------------------------------------------------------------------------------
    _r("round", "Combat Round of about ten seconds: declare, Initiative, resolve, new round"),
    _r(
        "round.declare",
        "Declare the general action (attack, spell, move...) and special actions before Initiative",
        "implemented",
        "command declare: action attack|spell|move|run|stand-up|revive|other, optional target, options",
    ),
    _r("initiative", "Initiative test every round; the gamemaster rolls for his characters and creatures"),
    _r("initiative.dexterity", "Player and gamemaster characters roll their Dexterity dice"),
    _r("initiative.creature", "Creatures roll the Initiative dice of their description"),
    _r("initiative.armor", "Armor and shields reduce Initiative (their Initiative penalties)"),
    _r(
        "initiative.talents",
        "Talents can increase Initiative",
        "implemented",
        "stats initiative_talents: {name: bonus steps}; which talents do so is in the Talents chapter",
    ),
    _r("round.resolve", "Resolve actions in descending order of Initiative"),
    _r(
        "round.declare-specific",
        "At his Initiative a character names the talent, skill or spell and whether he spends Karma",
        "implemented",
        "the command at the turn carries the attack (talent or skill) and karma: true",
    ),
    _r("round.new", "A new Combat Round while combatants remain"),
    _r("initiative.order", "Highest Initiative acts first, then descending"),
    _r(
        "initiative.group",
        "One Initiative test for a group of identical gamemaster creatures or characters",
        "optional",
        "option group-initiative, on by default (the text recommends it); a different step tests apart",
    ),
    _r(
        "initiative.ties",
        "Ties act at the same time in the gamemaster's order; a player character goes before a tied "
        "creature or gamemaster character",
        "implemented",
        "the gamemaster's order is the order of the encounter file; resolved one after the other, so a "
        "tied combatant put out first does not act (letting him strike back is the game master's call)",
    ),
    # ----- Actions -------------------------------------------------------------------------------------
    _r("actions", "In a round: move, a simple action, and one talent that requires an action"),
    _r("movement", "Combat Movement when the character also acts (Attribute Table)"),
    _r("movement.full", "Full Movement when moving is all the character does (command run)"),
    _r("movement.all-at-once", "Movement all at once, before or after the other action, never split"),
    _r(
        "movement.split",
        "Splitting Movement (move, attack, move again)",
        "optional",
        "option split-movement, off by default; the option's own costs are in Combat Options, not held",
    ),
    _r(
        "actions.simple",
        "Simple actions without a test (drawing a weapon, speaking)",
        "gm-call",
        "command simple records them; what is simple is the gamemaster's call",
    ),
    _r(
        "talents.no-action",
        "Talents marked Action: No are used as simple actions (Battle Shout, Cat's Paw, Eagle Eye, "
        "Flame Arrow, Wound Balance)",
        "gm-call",
        "the talents' effects are in the Talents chapter, not held; command simple names them",
    ),
    _r("actions.standard", "Only one talent that requires an action per round; it needs a Talent test"),
    _r(
        "talents.as-skill",
        "A talent used as a skill needs an action just the same",
        "implemented",
        "an attack made with a skill is the round's action like one made with the talent",
    ),
    _r(
        "special",
        "Special actions declared at the start of the round change the standard action; no action needed",
        "implemented",
        "surrender and retreat; Combat Options are in a chapter not held (see below)",
    ),
    _r("special.surrender", "Special action: surrender to the opponent (out of the fight)"),
    _r(
        "special.retreat",
        "Special action: retreat (Full Movement away from the enemy)",
        "implemented",
        "[choice] the retreating character escapes when no enemy could reach him at its Full Movement",
    ),
    _r("changed", "Changing the declared action: +2 to the Difficulty Number of the new action (Thom)"),
    _r("resolve.one-at-a-time", "Each character's action resolved fully before the next acts"),
    _r("karma", "Karma dice announced with the test, rolled with it"),
    _r(
        "defense-talents",
        "Talents that change Physical or Spell Defense for the round: test at the character's Initiative",
        "gm-call",
        "the talents are in the Talents chapter, not held",
    ),
    _r("dn", "Combat talents use the target's Physical Defense or Spell Defense as Difficulty Number"),
    Rule(
        "ed1/test/gamemaster-difficulty-number",
        "The gamemaster sets the Difficulty Number of tests that involve no talent (jumping, climbing...)",
        "ch.12§Difficulty-Number",
        "gm-call",
        "fracas rolls no such test (its guidelines are in Gamemastering Earthdawn, not held)",
    ),
    _r(
        "dn.success-level",
        "Some talents need a given success level",
        "implemented",
        "every test against a DN reports its success level (DN 1-13, DN 1 on the DN 2 row; success or "
        "failure above)",
    ),
    _r("actions.reserved", "Reserved action: choose a lower Initiative number; +2 to the Difficulty Number"),
    _r(
        "reserved.charge",
        "Charging and swooping attackers can be attacked only with a reserved action",
        "implemented",
        "a combatant who makes a charge (or swoop) this round, or declared one and can still make it; a "
        "declared charger who took his turn without charging, or fell before it, is attacked as anyone; "
        "[choice] a reserved action at any lower Initiative may strike him (the text names none)",
    ),
    _r(
        "actions.delayed",
        "No delayed action in ED1 (the ED4 delay is refused; reserve a lower Initiative instead)",
    ),
    # ----- what the chapter relies on --------------------------------------------------------------------
    _r("steps", "ED1 Step/Action Dice table (step 10 = d10+d6, a d20 from step 14)"),
    _r(
        "levels",
        "Success levels Pathetic, Poor, Average, Good, Excellent, Extraordinary from the Success Level Table",
        "implemented",
        "rows for DN 2-13 only [verify]; DN 1 is graded on the DN 2 row [choice]; above DN 13 only success "
        "or failure is reported",
    ),
    _r("rule-of-one", "Rule of One: every die (at least two) showing 1 fails the test"),
    _r("attributes", "Attribute Table: steps, Defenses, ratings, Combat and Full Movement (values 1-30)"),
    _r("attack", "Attack test against Physical Defense (weapons) or Spell Defense (spells)"),
    _r(
        "attack.armor-defeating",
        "An Excellent or Extraordinary Attack test defeats the target's armor",
        "optional",
        "option armor-defeating-hits, on by default [single source, verify]; needs the level, so DN 1-13; "
        "a Good result changes nothing in an attack (only talents that ask for a level)",
    ),
    _r("attack.extra-successes", "No extra successes: ED1 grades success by level, damage is not raised"),
    _r("damage", "Damage test: weapon damage step + Strength step (creatures: their Damage step)"),
    _r("damage.armor", "Physical Armor (Mystic Armor against spells) subtracted from damage"),
    _r("damage.wounds", "A Wound when one attack's damage reaches the Wound Threshold"),
    _r(
        "damage.knockdown",
        "Knockdown test when damage exceeds the Wound Threshold by 5 or more",
        "implemented",
        "the shared Earthdawn rule; the ED1 section is not in the text held [verify]",
    ),
    _r(
        "damage.stun",
        "Stun damage (an attack to stun)",
        "gm-call",
        "not in the text held (the Combat Options are not in it): an attack with stun is refused "
        "(RuleNotImplemented); the ED4 Stun rule (Harried, no Wounds) is not carried over",
    ),
    _r("damage.unconscious", "Unconscious at the Unconsciousness Rating"),
    _r("damage.death", "Dead at the Death Rating"),
    _r(
        "wounds.penalty",
        "Wound penalty: one step per Wound after the first (Wounds - 1), not on Recovery tests",
        "optional",
        "option wound-penalties, on by default [verify]",
    ),
    _r("recovery", "Recovery test on the Toughness step; Recovery tests per day from the Attribute Table"),
    _r(
        "recovery.wounds",
        "Wounds subtract from the Recovery result, at least 1 point recovered",
        "implemented",
        "the shared Earthdawn rule (ED4 p.380); the ED1 section is not in the text held [verify]",
    ),
    _r(
        "recovery.unconscious",
        "Unconscious: a Recovery test when revived by a friend, or after a minute (6 rounds of ten seconds)",
        "implemented",
        "the shared Earthdawn rule (ED4 p.380); the ED1 section is not in the text held [verify]; a minute "
        "is 6 ED1 rounds (ch.12§Combat-Round: a round is roughly ten seconds)",
    ),
    _r(
        "situation.knocked-down",
        "Knocked Down: -3 to tests and Defenses; standing up takes the action",
        "implemented",
        "the shared Earthdawn rule; an ED1-era summary (arkanabar.tripod.com/combat.html) agrees [verify]",
    ),
    _r("situation.range", "Long range: -2 steps (the shared Earthdawn rule)", "implemented", "[verify]"),
    _r(
        "situation.unconscious",
        "An unconscious target: -2 to its Physical and Spell Defense (Blindsided, the shared Earthdawn rule)",
        "implemented",
        "[choice] the ED1 Situation Modifiers are not held; a helpless target keeps no full Defense",
    ),
    _r("combat.close", "Close combat reaches the adjacent hex (2 yards)"),
    _r("combat.ranged", "Ranged attacks up to the weapon's long range"),
    _r(
        "mounted.movement",
        "A rider moves at his mount's Combat and Full Movement",
        "implemented",
        "[choice] the Mounted Combat chapter is not held",
    ),
    _r(
        "charge",
        "Charging attack: mounted, a straight run of 2 hexes or more into close combat",
        "implemented",
        "[choice] damage + the mount's Strength step as in ED4 p.396 (option charge-damage, on)",
    ),
    _r(
        "swoop",
        "Swooping attack of a flyer",
        "implemented",
        "attack arg swoop: only the reserved-action rule, and the flyer moves before and after the attack "
        "(within its Combat Movement) [choice]; the swoop's damage bonus is not held",
    ),
    # ----- referenced, not held ----------------------------------------------------------------------------
    Rule(
        "ed1/option/combat-options",
        "Combat Options (Aggressive Attack, Attacking to Knockdown, ...)",
        "ch.12§Combat-Options",
        NOT_HELD,
        "referenced by the ED1 text but not in it; the game master rules them "
        "(ED4 options are not carried over)",
    ),
    Rule(
        "ed1/situation/modifiers",
        "Situation Modifiers (blindside, darkness, harried, cover...)",
        "ch.12§Situation-Modifiers",
        NOT_HELD,
        "referenced but not in the ED1 text; only knocked down, range and an unconscious target are applied, "
        "the rest is the game master's call",
    ),
    Rule(
        "ed1/combat/spell",
        "Spell effects",
        "ch.12§Spell-Combat",
        NOT_HELD,
        "spell attacks roll against Spell Defense; the effects are in the Magic chapters, "
        "not in this text: the game master's call",
    ),
    # ids the shared Earthdawn code cites under ED1 (refusals and shared modifiers): listed so that
    # ``fracas rules`` explains every citation a fight can show
    _r(
        "situation.harried",
        "Harried: -2 to tests and Defenses (the shared Earthdawn modifier, when a combatant is harried)",
        NOT_HELD,
        "referenced by the ED1 text (Situation Modifiers) but not in it",
    ),
    _r(
        "actions.sustained",
        "No sustained action: the ED4 sustain command is refused",
        "implemented",
        "the ED1 text has no sustained action",
    ),
    _r(
        "initiative.below-one",
        "An Initiative step below 1 is rolled at Step 1 (no acting last)",
        "implemented",
        "the ED1 text has no rule for it; the Step table starts at 1",
    ),
    _r(
        "initiative.take",
        "No Take the Initiative: the ED4 option is refused under ED1",
        "implemented",
        "an ED4 option",
    ),
    _r(
        "strain",
        "Strain: damage a character takes to power an ability (the shared Earthdawn rule)",
        NOT_HELD,
        "not in the ED1 text held",
    ),
]
