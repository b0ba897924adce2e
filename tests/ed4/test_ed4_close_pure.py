"""ED4 close combat, pure layer (000_4b24aca42c3b6366.txt p.391-392)."""

from __future__ import annotations

from fracas.rules.base import total
from fracas.rules.ed4 import close as c


def test_six_human_sized_attackers_at_most_p391() -> None:
    assert c.room_for_attacker(["human"] * 5)
    assert not c.room_for_attacker(["human"] * 6)
    assert c.room_for_attacker(["human"] * 5 + ["small"], "small")


def test_entangling_needs_an_extra_success_and_spends_it_p391() -> None:
    assert c.entangles(1, True) and not c.entangles(0, True) and not c.entangles(2, False)
    assert c.entangled_damage_extra(2) == 1
    step, mods, ruins = c.break_free_entangle(5, 7, 4)
    assert step == 7 and total(mods) == 4 and ruins
    assert c.break_free_entangle(5, 7, None)[2] is False


def test_improvised_minus_2_p392() -> None:
    assert total(c.improvised_mods(True)) == -2
    assert c.improvised_mods(False) == []


def test_grappling_needs_an_extra_success_p392() -> None:
    assert c.grapples(True, 1) and not c.grapples(True, 0) and not c.grapples(False, 2)
    assert c.break_free_grapple(6, 7, 10) == (7, 10)


def test_silar_grappled_by_the_bandit_needs_10_p392() -> None:
    assert c.attack_dn_while_grappled(8, 10) == 10
    assert c.grappled_other_action_dn(10) == 10
