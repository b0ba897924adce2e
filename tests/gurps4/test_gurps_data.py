"""The GURPS data files against REFERENCE.md (reference/gurps.md) and the rules text 002."""

from __future__ import annotations

from fracas.rules.gurps4 import data


def test_horses_match_reference_table() -> None:
    m = data.mounts()
    # (ST/HP, DX, HT, Speed, Move, Dodge, weight) from reference section 2 "Horse stats"
    expect = {
        "heavy_warhorse": (24, 9, 12, 5.25, 7, 9, 1900),
        "cavalry_horse": (22, 9, 11, 5.0, 8, 9, 1400),
        "saddle_horse": (21, 9, 11, 5.0, 6, 8, 1200),
        "draft_horse": (25, 9, 12, 5.25, 6, 8, 2000),
        "race_horse": (20, 9, 11, 5.0, 9, 8, 1100),
        "pony": (18, 10, 11, 5.25, 7, 8, 800),
    }
    for name, (st, dx, ht, speed, move, dodge, wt) in expect.items():
        h = m[name]
        assert (h.st, h.hp, h.dx, h.ht, h.basic_speed, h.basic_move, h.dodge, h.weight_lb) == (
            st,
            st,
            dx,
            ht,
            speed,
            move,
            dodge,
            wt,
        ), name
        assert h.sm == 1 and h.enhanced_move == 2 * h.basic_move
    assert {a.name: a.damage for a in m["heavy_warhorse"].attacks}["trample"] == "2d+3"
    assert {a.name: a.damage for a in m["cavalry_horse"].attacks}["bite"] == "2d-5"
    assert m["text_warhorse"].st == 25 and m["text_warhorse"].dodge == 9


def test_lance_and_shields_match_reference() -> None:
    lance = data.weapons()["lance"]
    assert (lance.min_st, lance.modes[0].damage, lance.modes[0].reach, lance.modes[0].parry) == (
        12,
        "thr+3",
        (4,),
        "none",
    )
    shields = data.armor_file().shields
    assert [shields[s].db for s in ("light_shield", "small_shield", "medium_shield", "large_shield")] == [
        1,
        1,
        2,
        3,
    ]
    assert data.armor_file().barding["full_plate_barding"].dr == 5


def test_wounding_and_locations() -> None:
    w = data.wounding()
    assert {k: v.multiplier for k, v in w.items()} == {
        "cr": 1, "cut": 1.5, "imp": 2, "pi-": 0.5, "pi": 1, "pi+": 1.5, "pi++": 2, "burn": 1, "cor": 1,
        "tox": 1, "fat": 1,
    }  # fmt: skip
    h = data.hit_locations()
    assert {k: v.penalty for k, v in h.items()} == {
        "eye": -9, "skull": -7, "face": -5, "right_leg": -2, "right_arm": -2, "torso": 0, "groin": -3,
        "left_arm": -2, "left_leg": -2, "hand": -4, "foot": -4, "neck": -5, "vitals": -3,
    }  # fmt: skip
    q = data.hit_locations("quadruped")
    assert q["torso"].roll == (9, 10, 11) and q["tail"].roll == (17, 18)


def test_postures_and_maneuvers() -> None:
    p = data.postures()
    assert (p["kneeling"].melee, p["kneeling"].defense, p["lying"].defense, p["crawling"].melee) == (
        -2,
        -2,
        -3,
        -4,
    )
    m = data.maneuvers()
    assert m["all_out_attack_determined"].defense == "none" and m["move_and_attack"].skill_cap_melee == 9


def test_loss_of_control_table_defaults_invent_nothing() -> None:
    t = data.loss_of_control_table()
    assert sorted(t) == list(range(3, 19))
    assert t[12].effect == "falls" and not t[12].placeholder
    assert {t[r].effect for r in t if r != 12} == {"out_of_control"}
