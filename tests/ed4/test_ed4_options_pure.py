"""ED4 combat options, pure layer (000_4b24aca42c3b6366.txt p.382-386): the table and the text's numbers."""

from __future__ import annotations

import pytest

from fracas.errors import IllegalCommand
from fracas.rules.base import total
from fracas.rules.ed4 import options as o


def test_table_matches_the_combat_options_table_p382() -> None:
    t = o.options_table()
    assert len(t) == 10
    strain = {k: v.strain for k, v in t.items()}
    assert strain == {
        "aggressive-attack": 1,
        "attack-to-knockdown": 0,
        "attack-to-stun": 0,
        "called-shot": 1,
        "defensive-stance": 0,
        "jump-up": 2,
        "set-against-charge": 0,
        "shatter-shield": 1,
        "split-movement": 1,
        "tail-attack": 0,
    }
    assert (t["aggressive-attack"].attack, t["aggressive-attack"].damage, t["aggressive-attack"].defense) == (
        3,
        3,
        -3,
    )
    assert (t["defensive-stance"].defense, t["defensive-stance"].tests) == (3, -3)
    assert t["called-shot"].attack == -3
    assert t["tail-attack"].tests == -2
    assert t["jump-up"].dn == 6


def test_thrak_knocks_the_dyre_dn_13_p383() -> None:
    assert o.knockdown_attack_dn(21, 8) == 13


def test_herekar_shatters_the_body_shield_23_vs_21_p385() -> None:
    assert o.shield_shatters(23, 21)
    assert not o.shield_shatters(20, 21)
    assert not o.shield_shatters(23, 21, magical=True)  # must beat it by 10
    assert o.shield_shatters(31, 21, magical=True)
    assert o.can_shatter(3) and not o.can_shatter(2)
    assert total(o.shatter_step_mods(3)) == 3


def test_aggressive_attack_close_only_and_defense_p382() -> None:
    assert total(o.step_mods([o.AGGRESSIVE], "attack", close=True)) == 3
    assert total(o.step_mods([o.AGGRESSIVE], "damage", close=True)) == 3
    assert o.step_mods([o.AGGRESSIVE], "attack", close=False) == []
    assert total(o.defense_mods([o.AGGRESSIVE])) == -3
    assert all(m.rule == "ed4/option/aggressive-attack p.382" for m in o.defense_mods([o.AGGRESSIVE]))


def test_defensive_stance_penalty_not_on_knockdown_bonus_only_when_aware_p384() -> None:
    assert total(o.step_mods([o.DEFENSIVE], "attack")) == -3
    assert total(o.step_mods([o.DEFENSIVE], "damage")) == -3
    assert o.step_mods([o.DEFENSIVE], "knockdown") == []
    assert o.step_mods([o.DEFENSIVE], "recovery") == []
    assert total(o.defense_mods([o.DEFENSIVE])) == 3
    assert o.defense_mods([o.DEFENSIVE], aware=False) == []


def test_tail_attack_all_tests_minus_2_p386() -> None:
    for test in ("attack", "damage", "knockdown", "initiative"):
        assert total(o.step_mods([o.TAIL], test)) == -2


def test_strain_per_attack_and_per_round() -> None:
    assert sum(s for s, _, _ in o.attack_strain([o.AGGRESSIVE], close=True)) == 1
    assert o.attack_strain([o.AGGRESSIVE], close=False) == []
    assert sum(s for s, _, _ in o.attack_strain([o.CALLED_SHOT, o.AGGRESSIVE], close=True)) == 2
    assert sum(s for s, _, _ in o.round_strain([o.AGGRESSIVE], 0)) == 1  # at least 1 (p.382)
    assert o.round_strain([o.AGGRESSIVE], 2) == []
    assert sum(s for s, _, _ in o.round_strain([o.SPLIT], 1)) == 1


@pytest.mark.parametrize(
    ("opts", "down", "tskrang", "rule"),
    [
        ([o.AGGRESSIVE, o.DEFENSIVE], False, False, "ed4/option/aggressive-attack p.382"),
        ([o.AGGRESSIVE], True, False, o.KNOCKED_DOWN_RULE),
        ([o.JUMP_UP, o.DEFENSIVE], True, False, o.KNOCKED_DOWN_RULE),
        ([o.JUMP_UP], False, False, "ed4/option/jump-up p.384"),
        ([o.TAIL], False, False, "ed4/option/tail-attack p.386"),
        (["berserk"], False, False, o.DECLARE_RULE),
        # p.382 table / p.383: Knockdown "inflicts no real damage", Stun's "Damage test inflicts Stun damage"
        ([o.STUN, o.KNOCKDOWN], False, False, "ed4/option/attack-to-knockdown p.383"),
    ],
)
def test_illegal_declarations_name_their_rule(opts: list[str], down: bool, tskrang: bool, rule: str) -> None:
    with pytest.raises(IllegalCommand) as err:
        o.check_declaration(opts, knocked_down=down, tskrang=tskrang)
    assert err.value.rule == rule


def test_legal_declarations() -> None:
    o.check_declaration([o.JUMP_UP], knocked_down=True, tskrang=False)
    o.check_declaration([o.TAIL, o.AGGRESSIVE], knocked_down=False, tskrang=True)
    o.check_declaration([o.SET_AGAINST_CHARGE, o.DEFENSIVE, o.KNOCKDOWN], knocked_down=False, tskrang=False)


def test_jump_up_armor_penalty_and_called_shot_hold() -> None:
    assert o.jump_up_dn() == 6
    assert total(o.jump_up_mods(3)) == -3
    assert o.jump_up_mods(0) == []
    dn, mods = o.called_shot_hold(12, two_handed=True)
    assert dn == 12 and total(mods) == 3
