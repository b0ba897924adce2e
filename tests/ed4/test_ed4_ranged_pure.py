"""ED4 ranged combat, pure layer (000_4b24aca42c3b6366.txt p.392-393)."""

from __future__ import annotations

from fracas.dice.source import ScriptedDice
from fracas.rules.base import total
from fracas.rules.ed4 import ranged as r
from fracas.rules.ed4.ruleset import ED4


def test_silar_into_the_melee_dn_13_result_9_hits_ulm_p392() -> None:
    dn = 9 + total(r.intervening_mods(4))
    assert dn == 13
    # "with a result of 9; he misses his intended target": the code's hit comparison at that DN
    assert r.stray_hit(9, [("target", dn)]) is None
    assert r.stray_hit(13, [("target", dn)]) == "target"
    hit = r.stray_hit(9, [("bandit", 10), ("ulm", 8), ("x", 7), ("y", 9)])
    assert hit == "ulm"
    assert r.stray_hit(5, [("bandit", 10), ("ulm", 8)]) is None


def test_brighton_flask_scatter_step_3_five_feet_p393() -> None:
    assert r.scatter_step(9, 6) == 3
    # D6 direction 5, then Step 3 (d4) shows... the text's result is 5: a 4 that explodes into a 1.
    sc = r.scatter(9, 6, ScriptedDice([5, 4, 1]), ED4)
    assert (sc.direction, sc.step, sc.feet) == (5, 3, 5)


def test_area_dn_and_ranges() -> None:
    assert r.area_dn() == 7
    assert r.may_fire(60, 2, 80) is None
    assert "maximum" in (r.may_fire(81, 2, 80) or "")
    assert "minimum" in (r.may_fire(1, 2, 80) or "")
    assert r.scatter_hex((0, 0), 1, 6) == (1, 0)
