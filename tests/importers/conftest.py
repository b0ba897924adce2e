"""Helpers for the importer tests: the sample character files and running the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.cli import main

FILES = Path(__file__).parent / "files"


@pytest.fixture
def files() -> Path:
    return FILES


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """``run(*args)`` -> (exit code, stdout, stderr) of ``fracas ARGS``."""

    def go(*args: str) -> tuple[int, str, str]:
        code = main([str(a) for a in args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return go
