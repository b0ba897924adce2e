"""Every rule of rules text 002 (and the core it stands on) as this ruleset implements it, for
``fracas rules gurps4``. Pages: Basic Set pages from the text's section (B396-398) and reference/gurps.md."""

from __future__ import annotations

from fracas.rules.base import OptionalRule, Rule

GM = "gm-call"

RULES: list[Rule] = [
    # ---- core (reference/gurps.md section 1)
    Rule(
        "gurps4/core/success-roll", "3d6 success roll against effective skill; below 3 no attack", "B343-344"
    ),
    Rule("gurps4/core/critical", "Critical success and failure by effective skill", "B347-348"),
    Rule(
        "gurps4/core/quick-contest",
        "Quick Contests (margins decide; resistance: defender wins ties)",
        "B348-349",
    ),
    Rule("gurps4/core/turn-order", "Turn order by Basic Speed, then DX, then a die roll", "B363"),
    Rule(
        "gurps4/core/maneuver",
        "Maneuvers: Do Nothing, Move, Change Posture, Aim, Evaluate, Attack, Feint, "
        "All-Out Attack (Determined, Double, Feint, Strong), Move and Attack, "
        "All-Out Defense (Increased, Double), "
        "Concentrate, Ready, Wait",
        "B363-366",
    ),
    Rule(
        "gurps4/core/maneuver/wait",
        "Wait: name a trigger (a foe, or any foe, moving into the weapon's reach or range) and a response "
        "(an Attack with a ready weapon), made before the mover goes on",
        "B366",
        note="reference 1.3; the stop thrust is taken as an ordinary Attack; the Wait lasts until the "
        "waiter's next turn",
    ),
    Rule(
        "gurps4/core/maneuver/move-and-attack",
        "Move and Attack: -4 melee capped at 9 last; ranged -2 or Bulk; no Parry, no retreat",
        "B365",
    ),
    Rule("gurps4/core/maneuver/attack", "Attack: one attack, a step before or after", "B365"),
    Rule("gurps4/core/maneuver/move", "Move: full Move, any defense", "B364"),
    Rule(
        "gurps4/core/maneuver/aim",
        "Aim: +Acc, +1 more after 2 turns, +2 after 3; spoiled by defending, "
        "and by injury unless a Will roll succeeds",
        "B364",
    ),
    Rule(
        "gurps4/core/maneuver/evaluate", "Evaluate: +1 a turn (max +3) to the next attack on that foe", "B364"
    ),
    Rule(
        "gurps4/core/maneuver/feint",
        "Feint: a Quick Contest; the win comes off the foe's next defense",
        "B365",
    ),
    Rule("gurps4/core/maneuver/ready", "Ready: take up or reload a weapon, ready a shield", "B366"),
    Rule(
        "gurps4/core/maneuver/all-out-attack", "All-Out Attack: no active defense until the next turn", "B365"
    ),
    Rule(
        "gurps4/core/maneuver/all_out_attack_determined",
        "All-Out Attack (Determined): +4 melee, +1 ranged",
        "B365",
    ),
    Rule("gurps4/core/maneuver/all_out_attack_double", "All-Out Attack (Double): two melee attacks", "B365"),
    Rule(
        "gurps4/core/maneuver/all_out_attack_feint", "All-Out Attack (Feint): a feint, then an attack", "B365"
    ),
    Rule(
        "gurps4/core/maneuver/all_out_attack_strong", "All-Out Attack (Strong): +2 damage or +1 a die", "B365"
    ),
    Rule(
        "gurps4/core/maneuver/move_and_attack",
        "Move and Attack: the attack roll (-4 melee, capped at 9; ranged -2 or Bulk)",
        "B365",
    ),
    Rule(
        "gurps4/core/maneuver/all-out-defense",
        "All-Out Defense: Increased (+2 to one defense) or Double "
        "(a second defense); only a defense the figure has",
        "B366",
    ),
    Rule(
        "gurps4/core/active-defense",
        "Dodge, Parry, Block; retreat; shields' DB; Combat Reflexes; "
        "multiple parries; Deceptive Attack; feints",
        "B374-377",
    ),
    Rule("gurps4/core/active-defense/dodge", "Dodge: Basic Speed + 3, less encumbrance", "B374"),
    Rule("gurps4/core/active-defense/parry", "Parry: skill/2 + 3 + the weapon's Parry; unarmed -3", "B376"),
    Rule(
        "gurps4/core/active-defense/multiple-parries",
        "Each parry after the first with the same weapon -4 (fencing -2); counted per weapon",
        "B376",
    ),
    Rule(
        "gurps4/core/active-defense/retreat",
        "Retreat: +3 Dodge, +1 Parry or Block (+3 fencing); once a turn, melee only; lasts against the same "
        "attacker until the next turn; not while stunned, sitting, kneeling or mounted",
        "B377",
    ),
    Rule(
        "gurps4/core/active-defense/dodge-and-drop",
        "Dodge and Drop: +3 to Dodge against a ranged attack; the defender ends prone",
        "B377",
        note="not from the saddle, in the air, by a mount, or when already down; the default tactics "
        "never take it",
    ),
    Rule("gurps4/core/active-defense/shield-db", "A ready shield's Defense Bonus to every defense", "B287"),
    Rule("gurps4/core/active-defense/combat-reflexes", "Combat Reflexes +1 to every active defense", "B43"),
    Rule(
        "gurps4/core/active-defense/deceptive-attack",
        "Deceptive Attack: the defense -1 for every -2 the attacker took",
        "B369",
    ),
    Rule("gurps4/core/deceptive-attack", "Deceptive Attack: -2 to the attack per -1 to the defense", "B369"),
    Rule("gurps4/core/minimum-st", "Below a weapon's minimum ST: -1 to skill per point short", "B270"),
    Rule("gurps4/core/shield", "A large shield: -2 to the bearer's attacks", "B287"),
    Rule(
        "gurps4/core/active-defense/direction",
        "Attacks from the side or behind",
        "B390-391",
        GM,
        "facing is not modelled: every attack comes from the front",
    ),
    Rule("gurps4/core/damage", "Damage by ST (thrust/swing), damage types, minimum damage", "B16, B378"),
    Rule(
        "gurps4/core/damage/hit-location",
        "Wounding by hit location (skull x4, vitals x3, limbs capped, crippling)",
        "B398-400",
    ),
    Rule(
        "gurps4/core/damage/dr",
        "DR by location, armor divisors, wounding modifiers, blunt trauma",
        "B378-379",
    ),
    Rule(
        "gurps4/core/critical-hit",
        "Critical Hit Table (no defense; triple/double/max damage, DR halved, "
        "major wound, double shock, drop weapon)",
        "B556",
        "optional",
        "on by default; the Critical Head Blow and Critical Miss Tables are GM's calls (not public)",
    ),
    Rule("gurps4/core/shock", "Shock: -1 per HP (per HP/10 at 20+ HP), max -4, next turn only", "B419"),
    Rule(
        "gurps4/core/knockdown", "Major wounds; HT roll for knockdown and stun; head and vitals hits", "B420"
    ),
    Rule("gurps4/core/stun", "Stunned: Do Nothing, -4 to defenses, HT roll each turn to recover", "B420"),
    Rule(
        "gurps4/core/hp-thresholds",
        "Below 1/3 HP halve Move and Dodge; 0 HP consciousness rolls; death "
        "checks at -1x..-4xHP; dead at -5xHP",
        "B419",
    ),
    Rule(
        "gurps4/core/crippling", "Crippled limbs and extremities; injury past the threshold lost", "B420-421"
    ),
    Rule(
        "gurps4/core/knockback",
        "Knockback from crushing (and unpenetrating cutting) damage; DX roll or fall",
        "B378",
    ),
    Rule("gurps4/core/posture", "Posture modifiers to attack, defense and being hit", "B551"),
    Rule(
        "gurps4/core/hit-location", "Hit locations and their penalties; miss by 1 hits the torso", "B398-400"
    ),
    Rule("gurps4/core/speed-range", "Range penalties from the Size and Speed/Range Table", "B550"),
    Rule("gurps4/core/size-modifier", "SM adds to hit; Size and Speed/Range Table", "B19, B550"),
    Rule("gurps4/core/different-levels", "Combat at Different Levels (defense +-1..3 at 3-5 ft)", "B402"),
    Rule(
        "gurps4/core/close-combat",
        "Close combat (reach C inside a foe's hex)",
        "B391-392",
        GM,
        "not modelled: reach C counts as 1 yard",
    ),
    # ---- mounted combat (text 002)
    Rule(
        "gurps4/mounted",
        "Mounted combat: mount and rider as two combatants in one hex; the rider moves by the mount",
        "B396-397",
        note="GM's calls (options): a riderless mount leaves the fight; an unhorsed rider is out",
    ),
    Rule("gurps4/mounted/mount-attacks", "War-trained mounts attack (bite, kick, trample)", "B396"),
    Rule(
        "gurps4/mounted/trample",
        "Trample a foe 2+ SM smaller (1+ if lying); the victim may only Dodge (reference 1.9)",
        "B404",
    ),
    Rule("gurps4/mounted/iron-horseshoes", "Iron horseshoes +1 to kick and trample damage", "B396"),
    Rule(
        "gurps4/mounted/mount-attacked",
        "The rider's attack at -2 if the mount attacked on its last turn",
        "B396",
    ),
    Rule(
        "gurps4/mounted/panic",
        "Panic: Will roll to stand against a cavalry charge (+6 Combat Reflexes; "
        "no roll at SM >= the mount's)",
        "B396",
        "optional",
        "GM's option, off by default",
    ),
    Rule(
        "gurps4/mounted/cavalry-weapons",
        "Melee and ranged weapons at the lower of weapon skill and Riding",
        "B397",
    ),
    Rule(
        "gurps4/mounted/velocity",
        "Velocity 7+ relative to the foe: -1 to hit, +1 damage",
        "B397",
        note="velocity = the mount's move on its last turn",
    ),
    Rule(
        "gurps4/mounted/open-vehicle",
        "The same rules from a motorcycle or open vehicle with Driving",
        "B397",
        GM,
        "vehicles are not modelled; mounted_skill() takes the control skill's name",
    ),
    Rule(
        "gurps4/mounted/couched-lance",
        "Couched lance: saddle and stirrups; (mount ST x yards moved last "
        "turn)/100 dice, rounded down, +3 imp",
        "B397",
    ),
    Rule("gurps4/mounted/jousting-lance", "Jousting lance: crushing, snaps above 15 (damage 15)", "B397"),
    Rule(
        "gurps4/mounted/ranged", "Ranged attacks from a mount at the lower of Riding and weapon skill", "B397"
    ),
    Rule(
        "gurps4/mounted/noisy-weapon",
        "Riding roll after each noisy shot: spooked, or loss of control on a critical failure",
        "B397",
    ),
    Rule("gurps4/mounted/aim", "Aim while the mount moves more than a step: no extra turns of Aim", "B397"),
    Rule(
        "gurps4/mounted/tricks",
        "Turn in the saddle (-4/-1); hang on the far side (-6/-3, limited targets, a "
        "miss by 4 or less hits the mount)",
        "B397",
        note="the mount may Dodge a blow that a miss sends to it (GM's call, as for a miss by 1)",
    ),
    Rule("gurps4/mounted/mount-defense", "A mount defends only by Dodge; barding and natural DR", "B397"),
    Rule("gurps4/mounted/rider-defense", "Rider's active defenses reduced by 12 - Riding", "B397"),
    Rule(
        "gurps4/mounted/height", "A rider is 3 ft above a standing foe (Combat at Different Levels)", "B397"
    ),
    Rule(
        "gurps4/mounted/results",
        "Stunned rider: Riding-4 or fall; knockback unseats (saddle and stirrups: "
        "Riding -4 per yard); miss by 1 hits the other; hit mount spooks unless Riding - shock; crippled "
        "mount falls (result 12)",
        "B397",
    ),
    Rule(
        "gurps4/mounted/spooked-mounts",
        "Spooked Mounts",
        "B397",
        GM,
        "not public: a spooked mount is treated as 'out of control this turn' (placeholder, data file)",
    ),
    Rule(
        "gurps4/mounted/loss-of-control",
        "Mount Loss of Control Table",
        "B397",
        GM,
        "not public: only 12 (the mount falls) is known; data/mount_loss_of_control.toml, other rows "
        "placeholders 'out of control this turn' for the GM to complete",
    ),
    Rule(
        "gurps4/mounted/multiple-riders",
        "A passenger: controller -1 Riding; passenger stays on with the "
        "lower of the controller's Riding and own ST, at -3",
        "B397",
    ),
    Rule(
        "gurps4/mounted/falling-off",
        "Damage from falling off a mount",
        "B397",
        GM,
        "the text does not give it (Falling, B431): the log says so",
    ),
    # ---- aerial combat (text 002)
    Rule("gurps4/aerial/movement", "Flyers move over other fighters (a different altitude)", "B398"),
    Rule(
        "gurps4/aerial/two-hex-flyers",
        "Humans fly horizontally: two-hex figures on the tactical map",
        "B398",
        GM,
        "not modelled: the engine keeps one hex per figure (facing, which the second hex needs, is not "
        "modelled either)",
    ),
    Rule("gurps4/aerial/height", "Vertical movement at the horizontal cost; 45 degrees costs 1.5", "B398"),
    Rule("gurps4/aerial/step", "Steps and retreats with basic air Move; vertical retreat", "B398"),
    Rule(
        "gurps4/aerial/dive",
        "Diving: +10 air Move and double top airspeed (Move, nothing else)",
        "B398",
        note="the doubled top airspeed changes nothing here: High-Speed Movement (B394) is not modelled",
    ),
    Rule("gurps4/aerial/high-speed", "High-Speed Movement", "B394", GM, "not modelled: air Move per turn"),
    Rule(
        "gurps4/aerial/stall",
        "Cannot Hover / Gliding: Move or Move and Attack at 1/4 top airspeed or stall; DX-4 to recover",
        "B398",
        note="the engine refuses a maneuver that would stall (RuleNotImplemented: falling, B431)",
    ),
    Rule(
        "gurps4/aerial/ceiling",
        "Flight ceiling 6,000 ft / 20,000 ft; no wings in a vacuum",
        "B398",
        note="an encounter or a climb above 6,000 ft (2,000 yd) is refused: its effects (Atmospheric "
        "Pressure B429) are not implemented",
    ),
    Rule(
        "gurps4/aerial/attack-defense",
        "No penalty to attack or defense in flight; Combat at Different Levels against ground foes; reach",
        "B398",
    ),
    Rule("gurps4/aerial/retreat", "A hovering flyer with room retreats up or down: +1 more", "B398"),
    Rule("gurps4/gear/stirrups", "Stirrups: +1 to control the mount; needed for Lance skill", "B289"),
    Rule(
        "gurps4/gear/war-saddle",
        "War saddle: +1 to Riding to stay seated; 50% to stay seated while unconscious",
        "B289",
    ),
    Rule(
        "gurps4/aerial/acrobatic-dodge",
        "Acrobatic Dodge with Aerobatics",
        "B375, B398",
        "optional",
        "values from data/acrobatic_dodge.toml (unverified); tactics do not use it by default",
    ),
]

OPTIONAL: list[OptionalRule] = [
    OptionalRule("panic", "Panic against cavalry charges (GM's option)", False, "B396"),
    OptionalRule("critical_hit_table", "Roll on the Critical Hit Table after a critical hit", True, "B556"),
    OptionalRule("minimum_injury_one", "Any penetrating damage does at least 1 HP of injury", True, "B379"),
    OptionalRule(
        "velocity_with_couched_lance",
        "The velocity 7+ bonus (+1 damage, -1 to hit) also applies to couched lances",
        True,
        "B397",
        "the text does not exclude it",
    ),
    OptionalRule(
        "riderless_mounts_leave", "A mount that loses its rider leaves the fight (GM's call)", True, "B397"
    ),
    OptionalRule("unhorsed_is_out", "Tournament rule: a rider who falls off loses (jousting)", False, "B397"),
]
