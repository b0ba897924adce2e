"""Every rule of the ED4 combat chapter (``000_4b24aca42c3b6366.txt``, p.371-398) with its id and page.

``REFS`` maps the shared combat code's rule keys to ED4 rule ids with pages (what ``Modifier.rule`` and
``Rolled.rule`` carry). ``RULES`` is what ``fracas rules ed4`` lists: implemented rules, rules left to the
game master (with why), and the rules of p.382-398 that only the whole chapter (chapter.py) brings
(status "not-implemented" in the core alone).
"""

from __future__ import annotations

from fracas.rules.base import Rule

# key -> "ed4/<area>/<rule> p.<page>"
REFS: dict[str, str] = {
    "round.declare": "ed4/round/declare p.371",
    "round.resolve": "ed4/round/resolve-actions p.374",
    "initiative": "ed4/initiative/test p.371",
    "initiative.below-one": "ed4/initiative/below-step-1 p.371",
    "initiative.ties": "ed4/initiative/ties p.371",
    "initiative.take": "ed4/initiative/take-the-initiative p.372",
    "initiative.group": "ed4/initiative/speeding-up p.372",
    "initiative.higher": "ed4/initiative/higher-initiative p.375",
    "map.hex": "ed4/map/hex-2-yards p.372",
    "actions.standard": "ed4/actions/standard p.373",
    "movement": "ed4/actions/movement p.373",
    "movement.double": "ed4/actions/movement-double p.373",
    "actions.sustained": "ed4/actions/sustained p.373",
    "actions.simple": "ed4/actions/simple p.374",
    "actions.free": "ed4/actions/free p.374",
    "actions.reserved": "ed4/actions/reserved p.375",
    "actions.delayed": "ed4/actions/delayed p.376",
    "actions.delayed.next-round": "ed4/actions/delayed-next-round p.376",
    "attack": "ed4/attack/test p.377",
    "attack.extra-successes": "ed4/attack/extra-successes p.377",
    "attack.spell-extra": "ed4/attack/spell-extra-successes p.377",
    "damage": "ed4/damage/test p.378",
    "karma": "ed4/damage/karma p.378",
    "damage.armor": "ed4/damage/armor p.379",
    "damage.wounds": "ed4/damage/wounds p.379",
    "damage.knockdown": "ed4/damage/knockdown p.379",
    "damage.unconscious": "ed4/damage/unconsciousness p.380",
    "damage.death": "ed4/damage/death p.380",
    "damage.stun": "ed4/damage/stun p.383",
    "recovery": "ed4/recovery/test p.380",
    "recovery.wounds": "ed4/recovery/wounds p.380",
    "recovery.unconscious": "ed4/recovery/unconscious p.380",
    "wounds.penalty": "ed4/wounds/penalties p.381",
    "rule-of-one": "ed4/test/rule-of-one (reference 1.4)",
    "situation.knocked-down": "ed4/situation/knocked-down p.389",
    "situation.harried": "ed4/situation/harried p.388",
    "situation.range": "ed4/situation/range p.390",
    "combat.close": "ed4/combat/close p.391",
    "combat.ranged": "ed4/combat/ranged p.392",
    "strain": "ed4/damage/strain (reference 2.1)",
}


def _id(key: str) -> tuple[str, str]:
    rid, _, page = REFS[key].partition(" ")
    return rid, page


def _r(key: str, title: str, status: str = "implemented", note: str = "") -> Rule:
    rid, page = _id(key)
    return Rule(rid, title, page, status, note)


ISSUE4 = "not-implemented"

RULES: list[Rule] = [
    _r("round.declare", "Declare the general action and combat options before Initiative"),
    _r("initiative", "Initiative test on the Initiative step (Dexterity step, armor and shield penalties)"),
    _r("initiative.below-one", "Initiative step never voluntarily below 1; involuntarily: act last at 1"),
    _r("initiative.ties", "Ties: player characters first, then the higher Initiative step, then Dexterity"),
    _r(
        "initiative.take",
        "Take the Initiative: gamemaster characters use the step as the result",
        "optional",
        "option take-the-initiative, off by default",
    ),
    _r(
        "initiative.group",
        "Speeding up Initiative: one test for a group of identical creatures",
        "optional",
        "option group-initiative, on by default (the text recommends it)",
    ),
    _r("map.hex", "Battle map: one hex is 2 yards; yards round up to cover a full hex (1 yard is 1 hex)"),
    _r("actions.standard", "One Standard action per round"),
    _r("movement", "Move up to the Movement Rate, before or after the action"),
    _r("movement.double", "Spend the Standard action to move up to double the Movement Rate"),
    _r("actions.sustained", "Sustained actions over several rounds (command sustain: task, rounds)"),
    _r(
        "actions.simple",
        "Simple actions, any number (command simple; the gamemaster limits them)",
        "gm-call",
        "recorded as notes; what is reasonable in six seconds is the gamemaster's call",
    ),
    _r(
        "actions.free",
        "Free actions are part of other actions (Karma on a test; one defensive talent per attack)",
        "implemented",
        "Karma dice are the Free actions modelled; defensive talents are not in this chapter",
    ),
    _r("round.resolve", "Actions resolved one character at a time, highest Initiative first"),
    _r("actions.reserved", "Reserved action: a trigger, interrupting, +2 to the DN of every action"),
    _r(
        "initiative.higher", "Talents needing a higher Initiative compare test results (Cobra Strike example)"
    ),
    _r("actions.delayed", "Delayed action: act later in the round, no penalty, never interrupting"),
    _r("actions.delayed.next-round", "Delay into the next round: Initiative one above the round's highest"),
    _r("attack", "Attack test against Physical, Mystic or Social Defense"),
    _r("attack.extra-successes", "Extra successes against Physical Defense: +2 damage steps each"),
    _r(
        "attack.spell-extra",
        "Spell extra successes: the bonus the spell names",
        ISSUE4,
        "spell combat: the whole chapter",
    ),
    _r("damage", "Damage test: weapon Damage Step + Strength step (creatures: their Damage step)"),
    _r(
        "karma",
        "Karma die (step 4) added to a test made with a talent; to damage only when an ability allows",
    ),
    _r("damage.armor", "Physical or Mystic Armor subtracted from the Damage test result"),
    _r("damage.wounds", "A Wound when one attack's damage reaches the Wound Threshold"),
    _r(
        "damage.knockdown", "Knockdown test (Strength step vs damage - Wound Threshold) when damage >= WT + 5"
    ),
    _r(
        "damage.unconscious",
        "Unconscious at the Unconsciousness Rating: no actions, Blindsided, Knocked Down",
    ),
    _r("damage.death", "Dead at the Death Rating"),
    _r(
        "damage.stun",
        "Stun damage: no Wounds (Harried instead), cannot kill; Willpower on the next Recovery",
        "implemented",
        "from the Attacking to Stun option (p.383) or an attack marked stun",
    ),
    _r("recovery", "Recovery test on the Toughness step; one of the day's Recovery tests"),
    _r("recovery.wounds", "Wounds subtract from the Recovery result, never below 1 point recovered"),
    _r("recovery.unconscious", "Unconscious: a Recovery test after one minute, or at once when revived"),
    _r(
        "wounds.penalty",
        "Wound penalties: -1 per Wound to every test except Recovery tests",
        "optional",
        "option wound-penalties, on by default (the text: not an optional rule)",
    ),
    _r("rule-of-one", "Rule of One: every die (at least two) showing 1 fails the test"),
    _r("strain", "Strain: damage without Wounds or armor (from combat options and talents)"),
    Rule(
        "ed4/recovery/after-combat",
        "Recovery tests wait one hour after combat",
        "p.380",
        "gm-call",
        "outside the fight; in a fight only the unconscious make Recovery tests",
    ),
    Rule("ed4/wounds/healing", "Healing one Wound per day", "p.381", "gm-call", "outside the fight"),
    # ----- the whole chapter's (p.382-398) ---------------------------------------------------------------
    Rule(
        "ed4/option/aggressive-attack",
        "Aggressive Attack",
        "p.382",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule(
        "ed4/option/attack-to-knockdown",
        "Attacking to Knockdown",
        "p.383",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule(
        "ed4/option/attack-to-stun",
        "Attacking to Stun",
        "p.383",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule(
        "ed4/option/called-shot", "Called Shot", "p.384", ISSUE4, "the whole chapter (rules/ed4/chapter.py)"
    ),
    Rule(
        "ed4/option/defensive-stance",
        "Defensive Stance",
        "p.384",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule("ed4/option/jump-up", "Jump Up", "p.384", ISSUE4, "the whole chapter (rules/ed4/chapter.py)"),
    Rule(
        "ed4/option/set-against-charge",
        "Setting Against a Charge",
        "p.385",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule(
        "ed4/option/shatter-shield",
        "Shattering a Shield",
        "p.385",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule(
        "ed4/option/split-movement",
        "Splitting Movement",
        "p.386",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule(
        "ed4/option/tail-attack",
        "Tail Attack (t'skrang)",
        "p.386",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule(
        "ed4/situation/blindsided",
        "Blindsided",
        "p.387",
        ISSUE4,
        "the whole chapter (unconscious targets: the core too)",
    ),
    Rule(
        "ed4/situation/cover",
        "Cover, partial and full",
        "p.387",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule(
        "ed4/situation/darkness",
        "Darkness, Blindness, Dazzled",
        "p.387",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    _r(
        "situation.harried",
        "Harried: -2 to Action tests and Defenses",
        "implemented",
        "the condition (from Stun damage); four or more attackers is the whole chapter's",
    ),
    Rule(
        "ed4/situation/impaired-movement",
        "Impaired Movement",
        "p.389",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    _r(
        "situation.knocked-down",
        "Knocked Down: -3 to Action tests and Defenses; stand up with the Standard "
        "action; crawl at Movement 2",
    ),
    _r(
        "situation.range",
        "Range: long range -2 to Attack and Damage tests",
        "implemented",
        "ranges from weapon data; minimum range refused",
    ),
    Rule("ed4/situation/surprised", "Surprised", "p.390", ISSUE4, "the whole chapter (rules/ed4/chapter.py)"),
    _r(
        "combat.close",
        "Close combat reaches the adjacent hex (2 yards)",
        "implemented",
        "six attackers at most and the rest of close combat: the whole chapter",
    ),
    Rule(
        "ed4/combat/entangling",
        "Entangling weapons",
        "p.391",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule(
        "ed4/combat/improvised",
        "Improvised weapons",
        "p.392",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule("ed4/combat/grappling", "Grappling", "p.392", ISSUE4, "the whole chapter (rules/ed4/chapter.py)"),
    _r(
        "combat.ranged",
        "Ranged attacks up to the weapon's long range",
        "implemented",
        "firing into close combat, throwing and scatter: the whole chapter",
    ),
    Rule(
        "ed4/combat/spell",
        "Spell combat",
        "p.393",
        ISSUE4,
        "the whole chapter (spell attacks roll against Mystic Defense already; spell effects: not modelled)",
    ),
    Rule(
        "ed4/combat/mounted",
        "Mounted combat",
        "p.394-398",
        ISSUE4,
        "the whole chapter (rules/ed4/chapter.py)",
    ),
    Rule("ed4/combat/aerial", "Aerial combat", "p.398", ISSUE4, "the whole chapter (rules/ed4/chapter.py)"),
]
