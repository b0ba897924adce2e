"""Encounter files that are not files or not text are refused in one line, exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.cli import main
from fracas.engine import encounter
from fracas.errors import EncounterFileError


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(EncounterFileError, match="not a file"):
        encounter.read_file(tmp_path)


def test_a_binary_file_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "junk.yaml"
    f.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(EncounterFileError, match="not a text file"):
        encounter.read_file(f)


def test_cli_exit_code_and_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "junk.yaml"
    f.write_bytes(b"\xff\xfe\x00bad")
    assert main(["validate", str(f)]) == 2
    assert main(["fight", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    assert err.count("error:") == 2
