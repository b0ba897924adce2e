"""The compiled engine (fracas.native): loaded only when every source it was built from is unchanged, and
the same events as plain Python."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fracas import native
from fracas.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("test_engine_golden.py")


def _stamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **change: object) -> None:
    sources = {m: native._digest(native._source(m)) for m in native.MODULES}
    stamp = {
        "python": native._python_tag(),
        "sources": sources,
        "files": {m: f"{m}.so" for m in native.MODULES},
        "shared": "x__mypyc",
    }
    stamp.update(change)
    (tmp_path / "stamp.json").write_text(json.dumps(stamp))
    monkeypatch.setenv("FRACAS_NATIVE_DIR", str(tmp_path))
    monkeypatch.delenv("FRACAS_PURE", raising=False)


def test_a_matching_stamp_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _stamp(tmp_path, monkeypatch)
    files, shared = native._check()  # type: ignore[misc]
    assert set(files) == set(native.MODULES) and shared == "x__mypyc"


def test_an_edited_source_turns_the_whole_build_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    digests = {m: native._digest(native._source(m)) for m in native.MODULES}
    digests["fracas.rules.earthdawn.round"] = "0" * 64
    _stamp(tmp_path, monkeypatch, sources=digests)
    assert native._check() == "round.py changed since the build (run `fracas native build`)"


def test_another_python_or_no_build_or_pure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _stamp(tmp_path, monkeypatch, python="cpython-39-elsewhere")
    assert "built for cpython-39-elsewhere" in native._check()  # type: ignore[operator]
    monkeypatch.setenv("FRACAS_NATIVE_DIR", str(tmp_path / "missing"))
    assert native._check() == "not built (run `fracas native build`)"
    monkeypatch.setenv("FRACAS_PURE", "1")
    assert native._check() == "FRACAS_PURE is set"


def test_a_build_of_other_modules_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _stamp(tmp_path, monkeypatch, files={"fracas.engine.play": "play.so"})
    assert native._check() == "the build compiled other modules (run `fracas native build`)"


def test_status_command_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["native", "status"]) == 0
    out = capsys.readouterr().out
    s = native.status()
    assert out.startswith("compiled engine: in use" if s.active else "compiled engine: not in use")
    assert s.reason in out


@pytest.mark.skipif(not native.status().active, reason="the compiled engine is not built here")
def test_plain_python_gives_the_same_golden_events_as_the_compiled_engine() -> None:
    """This run uses the compiled engine (tests/engine/test_engine_golden.py pins its event streams); the
    same golden tests run again as plain Python in a fresh process."""
    env = {**os.environ, "FRACAS_PURE": "1"}
    code = "import fracas.native as n, sys; sys.exit(0 if not n.status().active else 3)"
    assert subprocess.run([sys.executable, "-c", code], env=env).returncode == 0
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(GOLDEN)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler here")
@pytest.mark.timeout(1500)
def test_the_compiled_engine_builds_and_plays_the_golden_fights(tmp_path: Path) -> None:
    """Build the compiled engine (C optimisation off, the quickest build) into a folder of this test's,
    then run the golden event streams, the engine's other tests and ED1's (it shares the compiled
    Earthdawn round) with it loaded."""
    env = {**os.environ, "FRACAS_NATIVE_DIR": str(tmp_path / "native")}
    env.pop("FRACAS_PURE", None)
    build = [sys.executable, "-m", "fracas.cli", "native", "build", "--opt", "0"]
    done = subprocess.run(build, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    active = "import fracas.native as n, sys; s = n.status(); print(s.reason); sys.exit(0 if s.active else 1)"
    probe = subprocess.run([sys.executable, "-c", active], env=env, capture_output=True, text=True)
    assert probe.returncode == 0, probe.stdout
    tests = [str(ROOT / "tests" / "engine"), str(ROOT / "tests" / "ed1")]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests, "-k", "not compiled_engine"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
