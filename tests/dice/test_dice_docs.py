"""The examples in docs/dice.md run and print what the page says."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "dice.md"


@pytest.mark.skipif(not DOC.exists(), reason="docs/dice.md is not in this checkout")
def test_docs_dice_md_examples() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0
