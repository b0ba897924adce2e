"""Damaged character files: a clear error (exit 2) naming the file, never a traceback, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.importers import CharacterFileError, import_file

FILES = Path(__file__).parent / "files"
SAMPLES = sorted(p for p in FILES.rglob("*") if p.suffix in (".gcs", ".xml", ".json"))


def _mutate(value: object, path: list[int], replacement: object) -> object:
    """``value`` with one node (chosen by ``path``) replaced."""
    if not path:
        return replacement
    if isinstance(value, dict) and value:
        keys = sorted(value)
        k = keys[path[0] % len(keys)]
        return {**value, k: _mutate(value[k], path[1:], replacement)}
    if isinstance(value, list) and value:
        i = path[0] % len(value)
        return value[:i] + [_mutate(value[i], path[1:], replacement)] + value[i + 1 :]
    return replacement


_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    sample=st.sampled_from([p for p in SAMPLES if p.suffix in (".gcs", ".json")]),
    path=st.lists(st.integers(0, 50), min_size=1, max_size=7),
    junk=_JUNK,
)
def test_json_files_with_a_damaged_node(tmp_path: Path, sample: Path, path: list[int], junk: object) -> None:
    doc = json.loads(sample.read_text(encoding="utf-8"))
    bad = tmp_path / sample.name
    bad.write_text(json.dumps(_mutate(doc, path, junk)), encoding="utf-8")
    try:
        import_file(bad)
    except CharacterFileError as exc:
        assert str(bad) in str(exc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sample=st.sampled_from(SAMPLES), cut=st.floats(0.0, 1.0), noise=st.binary(max_size=8))
def test_truncated_or_noisy_files(tmp_path: Path, sample: Path, cut: float, noise: bytes) -> None:
    raw = sample.read_bytes()
    bad = tmp_path / sample.name
    bad.write_bytes(raw[: int(len(raw) * cut)] + noise)
    try:
        import_file(bad)
    except CharacterFileError as exc:
        assert str(bad) in str(exc)


def test_cli_exit_2_on_a_damaged_file(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "x.gcs"
    bad.write_text('{"version": 5, "attributes": [{"attr_id": "st", "calc": {"value": null}}]}')
    code, _, err = run("import", bad, "--json")
    assert code == 2 and "Traceback" not in err and "x.gcs" in err and "attributes[0].calc.value" in err
