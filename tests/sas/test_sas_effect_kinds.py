"""The effect kinds of Spells & Swords: one numbering (rules/sas/effects.py), engine and duel kernel."""

from __future__ import annotations

import re
from pathlib import Path

from fracas.rules.sas.effects import KIND_TEXTS, EffectKind
from fracas.sim.kernels import sas_core as K

SAS = Path(__file__).resolve().parents[2] / "src" / "fracas" / "rules" / "sas"


def test_every_effect_the_rules_make_is_a_kind() -> None:
    made = set()
    for path in SAS.glob("*.py"):
        made |= set(re.findall(r'Effect\(\s*"([a-z-]+)"', path.read_text()))
    assert made and made <= KIND_TEXTS


def test_the_kernels_effect_codes_are_the_kinds_and_distinct() -> None:
    codes = {name: getattr(K, name) for name in dir(K) if name.startswith("E_")}
    assert all(isinstance(v, EffectKind) for v in codes.values())
    assert len(set(codes.values())) == len(codes)
    assert (
        EffectKind.of("drop-weapon") is EffectKind.DROP_WEAPON
        and EffectKind.DROP_WEAPON.text == "drop-weapon"
    )
