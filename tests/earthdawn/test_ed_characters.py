"""The bundled ED4 example characters and creatures reproduce the numbers the ED4 combat text prints.

ED4 text = /work/shared/rules/000_4b24aca42c3b6366.txt; pages as the text's cross-references give them.
"""

from __future__ import annotations

import pytest

from fracas.rules import earthdawn as ed


def test_tomas_wound_threshold_and_knockdown_example() -> None:
    # p.378: WT 8; 15 damage is a Wound and a Knockdown (7) test on his Strength Step
    tomas = ed.character("Tomas", "ed4")
    assert tomas.wound_threshold == 8
    assert 15 - tomas.wound_threshold == 7
    assert tomas.knockdown_step == tomas.strength
    assert tomas.discipline == "Wizard"


def test_thrak_battle_axe_step_14() -> None:
    # p.377: Strength Step 7 + battle-axe 7 = Step 14
    thrak = ed.character("thrak", "ed4")
    assert thrak.strength == 7
    assert ed.weapon("battle-axe", "ed4").damage_step == 7
    assert thrak.attack("Battle-axe").damage_step == 14


def test_thrak_knocks_down_the_dyre_dn_13() -> None:
    # p.383: Damage test 21, the dyre has 8 points of Physical Armor -> Knockdown DN 13
    assert 21 - ed.creature("dyre", "ed4").physical_armor == 13


def test_silar_crossbow() -> None:
    # p.389: Missile Weapons Step 13, crossbow Damage Step 10, 60 yards is long range
    silar = ed.character("silar", "ed4")
    bow = next(a for a in silar.attacks if a.kind == "missile")
    assert bow.attack_step == 13
    assert bow.damage_step == 10
    assert bow.range_band(60) == "long"
    assert bow.range_band(20) == "short"
    assert bow.range_band(1) is None  # within the minimum range
    assert silar.race == "T'skrang"
    # p.392: Silar has the Unarmed Combat skill
    assert silar.rank("Unarmed Combat") > 0


def test_silar_against_the_griffin() -> None:
    # p.377: result 18 vs the griffin's Physical Defense 7 -> three successes (1 + (18-7)//5)
    griffin = ed.creature("griffin", "ed4")
    assert griffin.physical_defense == 7
    assert 1 + (18 - griffin.physical_defense) // 5 == 3
    assert griffin.flying_movement is not None


def test_maloren_against_the_thundra_beast() -> None:
    # p.377: dwarf Elementalist; Spellcasting 21 vs the thundra's Mystic Defense 7 -> three successes
    maloren = ed.character("maloren", "ed4")
    assert maloren.race == "Dwarf"
    spell = maloren.attack("Earth Darts")
    assert spell.kind == "spell" and spell.defense == "mystic"
    thundra = ed.creature("thundra beast", "ed4")
    assert thundra.mystic_defense == 7
    assert 1 + (21 - thundra.mystic_defense) // 5 == 3


def test_mica_physical_defense_10() -> None:
    # p.388: harried Mica's Physical Defense goes from 10 to 8 (6 from behind)
    mica = ed.character("mica", "ed4")
    assert mica.physical_defense == 10
    assert mica.race == "Dwarf" and mica.discipline == "Swordmaster"


def test_herekar_wounds_and_recovery() -> None:
    # p.380: 3 Wounds and 41 Damage Points, alive, makes a Recovery test (result 12 recovers 9)
    herekar = ed.character("herekar", "ed4")
    assert herekar.death_rating > 41
    assert herekar.unconsciousness_rating is not None and herekar.unconsciousness_rating > 41
    assert herekar.recovery_tests_per_day >= 1
    assert herekar.recovery_step == herekar.toughness
    # p.376: Warrior with Cobra Strike
    assert herekar.rank("Cobra Strike") > 0
    # p.385: his sword can shatter a shield (Size 3 or more) and the body shield's threshold is 21
    sword = next(a for a in herekar.attacks if a.kind == "melee")
    assert sword.size is not None and sword.size >= 3
    assert ed.shield("Body shield", "ed4").shatter_threshold == 21


def test_kira_is_a_thief() -> None:
    kira = ed.character("kira", "ed4")
    assert kira.discipline == "Thief"
    assert kira.initiative_step >= 1


def test_ulm_and_the_bandit() -> None:
    # p.373: Ulm is a troll; p.392: his Physical Defense is 8
    ulm = ed.character("ulm", "ed4")
    assert ulm.race == "Troll" and ulm.physical_defense == 8
    # p.392: the bandit has Physical Defense 8 and Unarmed Combat Step 10
    bandit = ed.character("bandit", "ed4")
    assert bandit.physical_defense == 8
    assert bandit.attack("Unarmed").attack_step == 10
    assert bandit.karma_max == 0 and bandit.circle is None


def test_brighton_throws() -> None:
    # p.393: human Troubadour, Throwing Weapons test
    brighton = ed.character("brighton", "ed4")
    assert brighton.race == "Human"
    assert any(a.kind == "thrown" for a in brighton.attacks)


def test_ork_scorcher_has_a_crossbow() -> None:
    # p.387: an ork scorcher shoots Tomas with a crossbow
    scorcher = ed.creature("ork scorcher", "ed4")
    assert any(a.kind == "missile" for a in scorcher.attacks)
    assert scorcher.attack("Battle-axe").damage_step == 14


def test_cadaver_man_immune_to_stun() -> None:
    # p.384: Unconsciousness Rating "NA" -> immune to Stun damage
    cadaver = ed.creature("cadaver-man", "ed4")
    assert cadaver.unconsciousness_rating is None and cadaver.immune_to_stun


@pytest.mark.parametrize("name", ["ork scorcher", "cadaver man", "ghoul", "griffin", "dyre", "thundra beast"])
def test_every_creature_the_text_names_is_bundled(name: str) -> None:
    c = ed.creature(name, "ed4")
    assert c.attacks and c.death_rating > c.wound_threshold


@pytest.mark.parametrize("name", ["Herekar", "Mica", "Tomas", "Silar", "Thrak", "Maloren", "Kira"])
def test_every_character_the_brief_names_is_bundled(name: str) -> None:
    c = ed.character(name, "ed4")
    assert c.name == name and c.kind == "character"
    assert c.attribute_values is not None


def test_ed1_examples() -> None:
    thom = ed.character("Thom Hammerblade", "ed1")
    raider = ed.character("ork raider", "ed1")
    rider = ed.character("ork-rider", "ed1")
    assert thom.edition == raider.edition == rider.edition == "ed1"
    assert rider.mount == "war-horse"
    assert ed.creature(rider.mount, "ed1").kind == "creature"
    # the ED1 espagra as the ED1 book prints it (reference 4.3)
    esp = ed.creature("espagra", "ed1")
    assert (esp.initiative_step, esp.physical_defense, esp.spell_defense, esp.actions) == (9, 11, 9, 3)
    assert (esp.death_rating, esp.unconsciousness_rating, esp.wound_threshold) == (55, 50, 13)
    assert (esp.movement, esp.full_movement) == (100, 200)
