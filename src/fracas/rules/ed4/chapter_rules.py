"""The rules of ED4 p.382-398 as ``fracas rules ed4`` lists them: implemented (with id and page), optional,
or the gamemaster's call with the reason. (``000_4b24aca42c3b6366.txt``.)"""

from __future__ import annotations

from fracas.rules.base import Rule

GM = "gm-call"


def _r(rid: str, title: str, page: str, status: str = "implemented", note: str = "") -> Rule:
    return Rule(rid, title, page, status, note)


CHAPTER_RULES: list[Rule] = [
    # ----- combat options p.382-386 -----------------------------------------------------------------------
    _r(
        "ed4/option/declare-before-initiative",
        "Combat options are declared before the Initiative test",
        "p.382",
        note="an option not declared, or a declaration during the round, is refused",
    ),
    _r(
        "ed4/option/not-while-knocked-down",
        "No combat option while knocked down, except Jump Up",
        "p.382",
        note="options declared before falling are suspended while he is down, bonuses and penalties alike "
        "[choice]; their Strain is paid as declared [choice]",
    ),
    _r(
        "ed4/option/aggressive-attack",
        "Aggressive Attack: +3 close Attack and Damage, -3 Physical and Mystic "
        "Defense, 1 Strain per close Attack test (at least 1); never with Defensive Stance",
        "p.382",
        note="the erratum's active defenses are talents, which stat blocks here do not model",
    ),
    _r(
        "ed4/option/attack-to-knockdown",
        "Attacking to Knockdown: Damage less armor is the Knockdown DN; no damage",
        "p.383",
    ),
    _r("ed4/option/attack-to-stun", "Attacking to Stun: the damage is Stun damage", "p.383"),
    _r(
        "ed4/option/called-shot",
        "Called Shot: -3 to the Attack test, 1 Strain per test; a held item is kept "
        "with a Strength test against the Damage Step (+3 two-handed)",
        "p.384",
        note="attack args called: weapon (+3 to hold on when the weapon is two-handed or over the race's "
        "one-handed Size; a lost weapon's thrown use is lost too; combat_options from a file aim at the "
        "weapon); "
        "other body parts hit normally, their effect and harder shots' penalties are the gamemaster's call",
    ),
    _r(
        "ed4/option/defensive-stance",
        "Defensive Stance: +3 Physical and Mystic Defense against attacks he is "
        "aware of; -3 to Action and Damage tests, not Knockdown tests",
        "p.384",
    ),
    _r(
        "ed4/option/jump-up",
        "Jump Up: 2 Strain, Dexterity (6) test with the armor's Initiative penalty, no "
        "knocked-down penalty; then a Standard action and no other movement",
        "p.384",
    ),
    _r(
        "ed4/option/set-against-charge",
        "Setting Against a Charge: a reserved action strikes the charging rider "
        "first with the mount's Strength; an extra success tests the rider's Knockdown",
        "p.385",
        note="the charged defender's reserved action strikes as the rider arrives; first long close weapon "
        "(spear, lance, pike or Size 4+)",
    ),
    _r(
        "ed4/option/shatter-shield",
        "Shattering a Shield: Size 3+ weapon, 1 Strain, Damage + Size against the "
        "Shatter Threshold (+10 magical); no damage",
        "p.385",
        note="a magical shield: options.magical_shield on its bearer",
    ),
    _r(
        "ed4/option/split-movement",
        "Splitting Movement: move/action/move, 1 Strain, Harried for the round",
        "p.386",
    ),
    _r(
        "ed4/option/tail-attack",
        "Tail Attack (t'skrang): an extra Unarmed Combat attack with Strength damage, "
        "-2 to all tests that round",
        "p.386",
    ),
    # ----- situation modifiers p.386-390 ------------------------------------------------------------------
    _r(
        "ed4/situation/blindsided",
        "Blindsided: -2 to Physical and Mystic Defense; attacks from the rear on an "
        "engaged or Harried defender, unseen attackers",
        "p.386",
        note="rear: the three hexes behind the facing; a defender keeps an attacker in front (clarification)",
    ),
    _r(
        "ed4/situation/cover",
        "Cover: partial +2 to Physical and Mystic Defense against any attack; full cover cannot be attacked",
        "p.387",
        note="map.cover hexes give partial cover, map.extra.full_cover full cover",
    ),
    _r(
        "ed4/situation/darkness",
        "Darkness partial -2, full -4 to sight-based tests; Low-Light Vision and Heat "
        "Sight; Blindness as full, Dazzled as partial",
        "p.387",
        note="magical darkness and darkness slowing movement are the gamemaster's call",
    ),
    _r(
        "ed4/situation/harried",
        "Harried: -2 to Action tests and Defenses; four or more close attackers; "
        "a further -1 per harried effect after the first",
        "p.388",
    ),
    _r(
        "ed4/situation/impaired-movement",
        "Impaired Movement: light -5, heavy -10 yards (never below 1), -2/-4 to movement-based tests",
        "p.389",
        note="map.extra.impaired: light|heavy, or {light: [hexes], heavy: [hexes]}; tripping tests are the "
        "gamemaster's call",
    ),
    _r(
        "ed4/situation/knocked-down",
        "Knocked Down: -3 to Action tests (and the next Initiative test) and Defenses; standing takes the "
        "Standard action; crawl at 2; Jump Up",
        "p.389",
    ),
    _r("ed4/situation/range", "Range: short none, long -2 to Attack and Damage tests", "p.390"),
    _r(
        "ed4/situation/surprised",
        "Surprised: Perception test against the lowest Dexterity step of those "
        "encountered; no actions and -3 to Defenses for the round",
        "p.390",
        note="when combatants start hidden (ambush); Social Defense never modified (gamemaster's call)",
    ),
    _r(
        "ed4/situation/surprised-later",
        "Surprise later in a fight (Mica's friends sneak up on the ghouls)",
        "p.390",
        GM,
        "an encounter file places hidden combatants at the start only; combatants arriving unseen during a "
        "fight, and a DN other than the lowest Dexterity step, are the gamemaster's call",
    ),
    # ----- types of combat p.391-394 ----------------------------------------------------------------------
    _r("ed4/combat/close", "Close combat reaches the adjacent hex (2 yards), also in height", "p.391"),
    _r(
        "ed4/combat/long-reach",
        "Some longer weapons reach farther than 2 yards",
        "p.391",
        GM,
        "the weapon data has no reach (the descriptions, p.400, are not in the texts): every close attack "
        "reaches the adjacent hex; a longer reach is the gamemaster's call",
    ),
    _r(
        "ed4/combat/close-six-attackers",
        "At most six human-sized attackers on one defender",
        "p.391",
        note="one combatant a hex enforces it; small creatures swarming in shared hexes: gamemaster's call",
    ),
    _r(
        "ed4/combat/entangling",
        "Entangling weapons: an extra success entangles; Strength or Dexterity to break "
        "free, a one-handed blade adds its Damage Step",
        "p.391",
        note="bundled: whip, bola, net (weapons.toml); the DN to break free is in the weapon's description "
        "(not in the text): data/entangling.toml [choice], a creature's entangling attack its Damage Step "
        "[choice]; a net makes no Damage test [choice]; a blade is a sword, dagger, knife or axe [choice]; "
        "a missed net or bola that strikes a character in the way (p.392) entangles him with an extra "
        "success over his Physical Defense [choice]",
    ),
    _r(
        "ed4/combat/improvised",
        "Improvised weapons and throws: -2 to the Attack test",
        "p.392",
        note="attack args improvised: true; the object's Damage Step, range and Strength minimum are the "
        "gamemaster's (throw-at takes range)",
    ),
    _r(
        "ed4/combat/grappling",
        "Grappling: Unarmed Combat with an extra success, no damage; the grappled "
        "cannot move; breaking free; holding as the Standard action",
        "p.392",
    ),
    _r(
        "ed4/combat/ranged",
        "Ranged attacks: minimum, short, long and maximum range from weapon data",
        "p.392",
    ),
    _r(
        "ed4/combat/thrown-weapon-gone",
        "A thrown weapon leaves the thrower's hand: its thrown and close attacks are gone until it is "
        "picked up",
        "p.392",
        note="it lies on the target's hex when it hits, at the feet of one a miss strikes in the way, "
        "where a miss scatters to (p.393), or where a throw at an area landed [choice]",
    ),
    _r(
        "ed4/combat/pick-up-thrown-weapon",
        "Picking up a thrown weapon",
        "p.392",
        GM,
        "the text gives no action for it (its list of Simple actions, p.373, is not in the text): the "
        "gamemaster's call; default here [choice]: pick-up is a Simple action in the weapon's hex or next "
        "to it, by its thrower; the tactics fetch a thrown weapon when they have no other weapon",
    ),
    _r(
        "ed4/combat/ranged-into-close-combat",
        "Firing into close combat: +1 Physical Defense per character in "
        "the way; a miss may strike them, closest first",
        "p.392",
    ),
    _r(
        "ed4/combat/throw-at-area",
        "Throwing at an area: DN 7",
        "p.393",
        note="what the object does where it lands is the gamemaster's call",
    ),
    _r(
        "ed4/combat/scatter",
        "Scatter: D6 direction, Step (DN - result) feet",
        "p.393",
        note="the Scatter Diagram is not in the text: direction 1..6 = hex direction 0..5; a missed throw at "
        "a character scatters too (Brighton) and the thrown object lies where it lands",
    ),
    _r(
        "ed4/combat/spell",
        "Spell combat: Spellcasting against Mystic Defense, Effect test on Willpower, extra "
        "successes as each spell says; thread weaving",
        "p.393",
        note="bundled spells: Earth Darts, Flame Weapon, Mind Dagger, Spirit Dart (numbers to verify)",
    ),
    _r("ed4/combat/spell-threads", "Weaving a spell thread takes a Standard action", "p.373"),
    _r("ed4/damage/effect-test", "A spell's Effect test: its damage, against the target's armor", "p.378"),
    _r(
        "ed4/attack/spell-extra-successes",
        "Extra successes of spells: the spell's own bonus (Maloren's Earth Darts)",
        "p.377",
    ),
    # ----- mounted combat p.394-398 -----------------------------------------------------------------------
    _r("ed4/combat/mounted", "Mounted combat: rider and mount", "p.394"),
    _r(
        "ed4/mounted/windling-rider",
        "A windling riding a biped: both suffer two instances of Harried",
        "p.394",
        note="further penalties (shared Initiative penalties, acting on the lower Initiative) are the "
        "gamemaster's call",
    ),
    _r(
        "ed4/mounted/training",
        "Untrained, trained and combat mounts",
        "p.394",
        note="options.training on the mount; untrained mounts spooking is the gamemaster's call",
    ),
    _r(
        "ed4/mounted/mounting",
        "Mounting: Standard action; Trick Riding against an untrained mount's Social Defense",
        "p.395",
    ),
    _r("ed4/mounted/dismounting", "Dismounting: Simple action", "p.395"),
    _r(
        "ed4/mounted/jump-off-to-grapple",
        "Jumping off to grapple: Step 5 to the rider, Step 5 to the target on success",
        "p.395",
        note="attack with grapple: true from the saddle; jumping off to attack is dismount, then attack",
    ),
    _r(
        "ed4/mounted/falling-off",
        "A mount's failed Knockdown unseats the rider; falling off is Step 5 damage and knocked down",
        "p.395",
    ),
    _r(
        "ed4/mounted/rider-and-mount-act",
        "Rider and mount act; a trained mount on the rider's Initiative",
        "p.395",
        note="a trained mount mounted during the round takes the rider's Initiative and, if it has not "
        "acted, acts right after him; its used actions stay used",
    ),
    _r(
        "ed4/mounted/movement",
        "Shared movement: the mount's Movement Rate; the rider cannot also use his own",
        "p.395",
        note="even after dismounting, once he rode (moved, galloped or charged) that round; a rider who "
        "dismounts without having ridden may walk",
    ),
    _r(
        "ed4/mounted/unfamiliar-mount",
        "Trick Riding to take an unfamiliar mount into combat",
        "p.395",
        note="options.familiar: false; [choice] tested before the rider's first attack or charge from that "
        "mount in the fight, passed it holds for the fight; failed, that attack is not made (its action "
        "spent); never for moving away",
    ),
    _r(
        "ed4/mounted/unfamiliar-mount-failure",
        "What a failed Trick Riding test for an unfamiliar mount does",
        "p.395",
        GM,
        "the text does not say; done as: the mount will not go in, that attack is not made (a charge does "
        "not move), and the rider may try again on a later turn; the gamemaster may rule otherwise",
    ),
    _r(
        "ed4/mounted/split-movement",
        "The rider takes the Strain and Harried of Splitting Movement; the mount's Standard action may move",
        "p.395",
    ),
    _r(
        "ed4/mounted/charging-attack",
        "Charging attacks: more than the mount's Movement Rate in a straight line, "
        "the mount's Strength Step added (both mounts' when riders charge each other)",
        "p.396",
    ),
    _r(
        "ed4/mounted/charge-strength-test",
        "After a charge: Strength against the target's Toughness Step; thrown "
        "off with a lance, weapon lost otherwise",
        "p.396",
        note="weapons that shatter on impact: none of the bundled weapons",
    ),
    _r(
        "ed4/mounted/charge-no-extra-attacks",
        "No Second Attack and the like on a split-movement charge",
        "p.396",
        GM,
        "talents are not modelled",
    ),
    _r(
        "ed4/mounted/attack-patterns",
        "Stationary, mobile, charging, ride-by and all-out charging attacks",
        "p.397",
    ),
    _r(
        "ed4/mounted/long-weapons",
        "Long weapons when the mount cannot move 2 yards: size over the one-handed limit as a penalty",
        "p.397",
    ),
    _r(
        "ed4/mounted/mount-attacks",
        "Combat mounts attack with their Standard action",
        "p.398",
        note="tactic 'mount'; untrained mounts attacking when threatened is the gamemaster's call",
    ),
    # ----- aerial combat p.398 ---------------------------------------------------------------------------
    _r(
        "ed4/combat/aerial",
        "Aerial combat: altitude in yards; close combat within 2 yards of height",
        "p.398",
    ),
    _r("ed4/aerial/flying-movement", "Flying movement: vertical movement free, hovering", "p.398"),
    _r(
        "ed4/aerial/swooping-attack",
        "Swooping attacks: Splitting Movement; interception only with a higher "
        "Initiative and a reserved action",
        "p.398",
    ),
    _r(
        "ed4/aerial/flying-mounts",
        "Flying mounts: riders fall by distance",
        "p.398",
        note="flying charging attacks: the mount's Flying Movement rate, and it comes within close reach of "
        "the target (vertical movement is free); a rider strapped into the saddle is the gamemaster's call",
    ),
    _r(
        "ed4/aerial/knocked-out-of-the-sky",
        "Knocked out of the sky: falling damage by distance",
        "p.398",
        note="the Gamemaster's Guide falling table is not in the texts: data/falling.toml [choice]",
    ),
    _r(
        "ed4/aerial/long-falls",
        "Long Falls: falling over rounds; Dexterity (6) to stop",
        "p.398",
        "optional",
        "option long-falls, off by default; an unconscious faller makes one Recovery test after a round "
        "of descent, as if roused",
    ),
    _r(
        "ed4/aerial/take-to-the-air-again",
        "A flier knocked to the ground can take to the air again once it stands back up",
        "p.398",
        GM,
        "flying is a combatant's option (flying: true) and altitude is set by its commands; whether and "
        "when it climbs again after standing up is the gamemaster's call",
    ),
    _r(
        "ed4/combat/grappled-other-actions",
        "At the gamemaster's discretion a grappled character takes other actions, succeeding only if he "
        "beats the grappler's Unarmed Combat Step",
        "p.392",
        GM,
        "at the gamemaster's discretion in the text; default here: he may attack, and his Attack test must "
        "beat the hold's Unarmed Combat Step (the DN is raised to it: Silar's tail needs 10); he cannot move",
    ),
    _r(
        "ed4/situation/social-defense",
        "The situation table's Defense modifiers also apply to Social Defense",
        "p.386",
        GM,
        "at the gamemaster's discretion (the table footnote); social tests are not modelled in the fight",
    ),
]
