"""The README keeps its promises: two set-up commands first, and its Python example runs."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _blocks(lang: str = "") -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_starts_with_exactly_two_setup_commands() -> None:
    text = README.read_text()
    first = text.index("```")
    assert text[:first].strip() == "# fracas"
    lines = [ln for ln in _blocks()[0].splitlines() if ln.strip()]
    assert len(lines) == 2
    assert "pip install" in lines[0] and "fracas fight examples/" in lines[0]
    assert "pytest" in lines[1]
    example = re.search(r"fracas fight (\S+)", lines[0])
    assert example is not None and (README.parent / example.group(1)).is_file()


def test_readme_python_example_runs() -> None:
    (code,) = _blocks("python")
    namespace: dict[str, object] = {}
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - our own README


DOCS = sorted((README.parent / "docs").rglob("*.md"))


def test_every_python_block_in_docs_runs() -> None:
    """Each ```python block of docs/ runs as written (the blocks of one page share a namespace, in order).
    Pages written as doctests (``>>>``) have their own doctest run (tests/dice/test_dice_docs.py)."""
    ran = 0
    for page in DOCS:
        namespace: dict[str, object] = {}
        for code in re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S):
            if code.lstrip().startswith(">>>"):
                continue
            exec(compile(code, str(page), "exec"), namespace)  # noqa: S102 - our own docs
            ran += 1
    assert ran >= 3  # earthdawn-data.md, sas.md, sim.md
