"""Rule ids of the Spells & Swords combat text, each with the section it comes from.

The text (/work/shared/rules/004_0d1ac50b56c23caf.txt) has no page numbers, so a rule id cites its section
heading: ``rule("attack-table")`` -> ``"sas/attack-table (ATTACK TABLE)"``. Facts from
reference/spells-and-swords.md cite that file and its section; settings cite docs/rulesets/sas.md.
"""

from __future__ import annotations

import functools

from fracas.rules.base import Rule

REF = "reference/spells-and-swords.md"

# id -> (title, section, status, note)
RULES: dict[str, tuple[str, str, str, str]] = {
    "combat-rounds": (
        "Combat Rounds: one side attacks, then the other; about 10 seconds",
        "COMBAT ROUNDS",
        "implemented",
        "",
    ),
    "sides": ("Sides of one or many combatants, two or more sides", "SIDES", "implemented", ""),
    "surprise": (
        "Surprise: 1D20 + lowest Stealth - highest Alertness, 11+; +2 Attack in the first round",
        "SURPRISE",
        "implemented",
        "",
    ),
    "initiative": (
        "Side Initiative: 1D20 + lowest Initiative bonus, order kept; simultaneous attacks",
        "INITIATIVE",
        "implemented",
        "ties are rolled again (docs)",
    ),
    "actions": ("Combat Round Actions List", "COMBAT ROUND ACTIONS LIST", "implemented", ""),
    "reactions": ("Reactions during a foe's turn", "REACTIONS", "implemented", ""),
    "zone-of-control": (
        "Zone of Control: no moving out of HTH except to Disengage; 3+ size classes exempt",
        "ZONE OF CONTROL RULE",
        "implemented",
        "",
    ),
    "attacking": ("One attack per round; Continued attacks", "ATTACKING", "implemented", ""),
    "brawl-rule": (
        "The Brawl Rule: 1-10 on 1D20 a melee attack becomes a Random Brawl Attack",
        "THE BRAWL RULE",
        "implemented",
        "",
    ),
    "random-brawl": (
        "Random Brawl Attacks 1D60 (rows 1-23 known; others an unmodified brawl attack)",
        f"{REF} 1.2",
        "implemented",
        "rows 24-60 are not public: a plain brawl attack, Damage -3",
    ),
    "attack-table": ("Attack Table 1D20", "ATTACK TABLE", "implemented", ""),
    "attack-modifiers": ("Attack Table Modifiers", "ATTACK TABLE MODIFIERS", "implemented", ""),
    "fumbles": ("Fumbles: roll on the Fumble Table", "FUMBLES", "implemented", ""),
    "fumble-hth": ("Fumble Table (HTH Weapon) 1D8", "FUMBLE TABLE (HTH WEAPON)", "implemented", ""),
    "fumble-ranged": ("Fumble Table (Ranged Weapon) 1D6", "FUMBLE TABLE (RANGED WEAPON)", "implemented", ""),
    "monster-fumbles": ("Monster Fumbles 1D6", "MONSTER FUMBLES", "implemented", ""),
    "damage": ("Damage: the successful attacker rolls 1D20 on the Damage Table", "DAMAGE", "implemented", ""),
    "damage-table": ("Damage Table 1D20", "DAMAGE TABLE", "implemented", ""),
    "damage-modifiers": (
        "Damage Table Modifier List: weapon and armor classes",
        "DAMAGE TABLE MODIFIER LIST",
        "implemented",
        "",
    ),
    "wounded": (
        "Wounded Condition: more markers than half the Wound Level, -1 to all rolls",
        "WOUNDED CONDITION",
        "implemented",
        "",
    ),
    "helmet-rule": ("Helmet Rule", "HELMET RULE", "implemented", ""),
    "light-wounds": ("Light Wounds and the Light Wound Table 1D6", "LIGHT WOUND TABLE", "implemented", ""),
    "major-wounds": ("Major Wounds and the Major Wound Table 1D8", "MAJOR WOUND TABLE", "implemented", ""),
    "bleeding": ("Bleeding and the Bleed Table 1D6", "BLEED TABLE", "implemented", ""),
    "death-by-a-thousand-cuts": ("Death by a Thousand Cuts", "DEATH BY A THOUSAND CUTS", "implemented", ""),
    "instant-death": ("Instant Death", "INSTANT DEATH", "implemented", ""),
    "healing": (
        "Healing per day, at rest, herbalist, body parts",
        "HEALING",
        "implemented",
        "magical healing: GM call",
    ),
    "regeneration": (
        "Regeneration: 1 marker per round, never burns; body parts in minutes",
        "REGENERATION",
        "implemented",
        "",
    ),
    "stunned": ("Stunned: -2 to all rolls", "STUNNED", "implemented", ""),
    "distracted": ("Distracted: +5 to ambush", "DISTRACTED", "implemented", ""),
    "blinded": ("Blinded: -6 sight rolls, half movement", "BLINDED", "implemented", ""),
    "partial-blindness": ("Partial Blindness: -1 sight rolls", "PARTIAL BLINDNESS", "implemented", ""),
    "chill": (
        "Chill: half speed, -1 to all rolls during and 2D10 minutes after",
        "CHILL",
        "implemented",
        "hypothermia and frostbite: GM call",
    ),
    "shock": (
        "Shock: -3 for 1D2 rounds, save or Knocked Out 1D4 hours, no metal armor",
        "SHOCK",
        "implemented",
        "",
    ),
    "burn": ("Burn: damage rolled again next turn at Damage -1", "BURN", "implemented", ""),
    "sickened": (
        "Sickened or Stench: -2 to all rolls, usually 2D20 minutes",
        "SICKENED OR STENCH",
        "implemented",
        "",
    ),
    "confusion": (
        "Confusion: the Confusion Table 1D10 each round; no Dodge; +2 to be hit",
        "CONFUSION",
        "implemented",
        "",
    ),
    "confusion-table": ("Confusion Table 1D10", "CONFUSION TABLE", "implemented", ""),
    "madness": (
        "Madness: Confusion checked every 1D10 minutes or 1D2 hours",
        "MADNESS",
        "implemented",
        "outside combat time",
    ),
    "knocked-down": (
        "Knocked Down: prone, 50% drop, -2 combat rolls, a round to stand, +2 to be hit",
        "KNOCKED DOWN",
        "implemented",
        "",
    ),
    "knocked-out": (
        "Knocked Out: unconscious 2D6 rounds unless stated; no Dodge; +3 to be hit",
        "KNOCKED OUT",
        "implemented",
        "",
    ),
    "knocked-back": (
        "Knocked Back 1D2 spaces; wall Damage -1",
        "KNOCKED BACK",
        "implemented",
        "spikes and ledges: GM call",
    ),
    "choke": (
        "Choke: save vs Death or Knocked Out 1D10 minutes; +1 to be hit, -1 rolls",
        "CHOKE",
        "implemented",
        "",
    ),
    "disarmed": (
        "Disarmed: drops within 1D3 m, 1 round to retrieve; Disarm attack -4",
        "DISARMED",
        "implemented",
        "",
    ),
    "entangle": (
        "Entangle: Immobilized or Partially Immobilized, GM rules",
        "ENTANGLE",
        "implemented",
        "weapons name which one",
    ),
    "immobilized": ("Immobilized: cannot move, no Dodge, +3 to be hit", "IMMOBILIZED", "implemented", ""),
    "partial-immobilization": (
        "Partial Immobilization: no Dodge, +1 to be hit",
        "PARTIAL IMMOBILIZATION",
        "implemented",
        "",
    ),
    "body-part-hurt": (
        "Body Part Hurt: -1 all rolls, legs Move -2, head Stunned 1D4",
        "BODY PART HURT",
        "implemented",
        "",
    ),
    "random-body-part": ("Random Body Part Table 1D10", "RANDOM BODY PART TABLE", "implemented", ""),
    "body-part-broken": (
        "Body Part Broken: -2 all rolls, legs Move -4, head skull crack, neck death",
        "BODY PART BROKEN",
        "implemented",
        "",
    ),
    "permanent-injuries": ("Permanent Injuries (25%)", "PERMANENT INJURIES", "implemented", ""),
    "alternate-wound-results": (
        "Alternate Wound Table Results",
        "ALTERNATE WOUND TABLE RESULTS",
        "gm-call",
        "the GM substitutes results that fit the attack",
    ),
    "large-creature-attacks": (
        "Large Creature Attacks: Save vs Crush with Swift and Dodge",
        "LARGE CREATURE ATTACKS",
        "implemented",
        "",
    ),
    "disengage": ("Disengage: Fighting Withdrawal, Flee, Rout", "DISENGAGE", "implemented", ""),
    "dual-wield": ("Dual Wield: -2 Attack, -1 Damage without the skill", "DUAL WIELD", "implemented", ""),
    "charge": ("Charge Rules", "CHARGE RULES", "implemented", ""),
    "mounted": ("Mounted Combat", "MOUNTED COMBAT", "implemented", ""),
    "underwater": ("Underwater Combat", "UNDERWATER COMBAT", "implemented", ""),
    "dog-pile": ("Dog Pile", "DOG PILE", "implemented", ""),
    "horde-attack": ("Horde Attack", "HORDE ATTACK", "implemented", ""),
    "weapon-skill": (
        "A weapon skill level is an Attack bonus with that weapon",
        f"{REF} 2.3",
        "implemented",
        "",
    ),
    "skill-check": (
        "Skill checks: 1D20 vs 5/10/15/20, natural 1 fails, 20 succeeds",
        f"{REF} 2.4",
        "implemented",
        "",
    ),
    "save": ("Saving throws: 1D20 13+, natural 1 fails, 20 succeeds", f"{REF} 2.5", "implemented", ""),
    "spell-check": (
        "Spell Check and Spell Failure",
        f"{REF} 5.1",
        "implemented",
        "spell effects are settings",
    ),
    "minions": ("Minions (optional): killed by 1/2/3 hits", f"{REF} 2.6", "optional", "off by default"),
    "morale": (
        "Morale (setting): a side at half strength saves or routs",
        "docs/rulesets/sas.md",
        "optional",
        "off by default",
    ),
}


@functools.lru_cache(maxsize=4096)
def rule(rule_id: str, detail: str = "") -> str:
    """The id a :class:`~fracas.rules.base.Modifier` or event carries: ``sas/<id> (SECTION)``. Remembered:
    a pure function of two strings over the fixed RULES table, asked tens of thousands of times a fight."""
    title, section, _, _ = RULES[rule_id]
    del title
    return f"sas/{rule_id}{'/' + detail if detail else ''} ({section})"


def setting(name: str) -> str:
    return f"sas/setting/{name} (docs/rulesets/sas.md)"


def rule_list() -> list[Rule]:
    return [
        Rule(f"sas/{rid}", title, section, status, note)
        for rid, (title, section, status, note) in RULES.items()
    ]
