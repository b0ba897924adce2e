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
