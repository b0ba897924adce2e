"""ED4 spell combat, pure layer (000_4b24aca42c3b6366.txt p.377-378, p.393)."""

from __future__ import annotations

import pytest

from fracas.errors import RuleNotImplemented
from fracas.rules.base import total
from fracas.rules.earthdawn.combat import extra_successes
from fracas.rules.ed4 import spells as sp


def test_maloren_earth_darts_three_successes_four_more_rounds_p377() -> None:
    spell = sp.get_spell("Earth Darts")
    extra = extra_successes(21, 7)  # result 21 against the thundra's Mystic Defense 7
    assert extra == 2  # three successes
    out = sp.outcome(spell, extra)
    assert out.armor_rounds - sp.outcome(spell, 0).armor_rounds == 4


def test_bundled_spells_load() -> None:
    table = sp.spells()
    assert {"earth-darts", "flame-weapon"} <= set(table)
    fw = sp.get_spell("Flame Weapon")
    assert fw.kind == "weapon-buff" and sp.outcome(fw, 1).buff_rounds == fw.duration + 1
    md = sp.get_spell("mind dagger")
    assert total(sp.outcome(md, 2).effect_mods) == 4
    step, mods = sp.effect_step(6, md, willforce=2)
    assert step == 6 and total(mods) == md.effect + 2
    with pytest.raises(RuleNotImplemented):
        sp.get_spell("Fireball")
