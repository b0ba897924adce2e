"""The examples of docs/encounter-format.md load (and the one marked as wrong is refused as the page says)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.errors import EncounterFileError
from fracas.rules.registry import get_ruleset

DOC = Path(__file__).resolve().parents[2] / "docs" / "encounter-format.md"
BLOCKS = re.findall(r"```(yaml|toml)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("lang,text", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_doc_example(lang: str, text: str) -> None:
    data = yaml.safe_load(text) if lang == "yaml" else tomllib.loads(text)
    if "micah" in text:
        with pytest.raises(EncounterFileError) as exc:
            encounter.load_data(data, "bad.yaml")
        msg = str(exc.value)
        assert "bad.yaml: sides.0.combatants.0.template: unknown template 'micah' in ed4" in msg
        assert "sides.1.combatants.0.stats.wound_threshold: expected at least 1 (found -1)" in msg
        assert "sides.1.combatants.0.tactic: unknown tactic 'berserk'" in msg
        return
    _, state = encounter.load_data(data, "doc")
    f = Fight(get_ruleset("ed4"), state, RandomDice(1))
    f.log = None
    f.run()
    assert f.state.ended
