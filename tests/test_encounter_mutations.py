"""Every file fracas accepts plays to the end: each bundled example is mutated at one node (deleted, given
a wrong type, out of range, huge, negative, unicode, duplicated) and run through ``validate`` then
``fight`` in this process. Every outcome is exit 2 at ``validate``, or a fight that ends (exit 0, the last
event FightEnded); never exit 1, never a stop half-way, within a time and memory bound per case.

The cases are drawn by hypothesis with a fixed seed: ``FRACAS_MUTATIONS`` (default 40) sets how many a run
tries; a larger sweep, e.g. ``FRACAS_MUTATIONS=2000 pytest tests/test_encounter_mutations.py``."""

from __future__ import annotations

import copy
import json
import os
import resource
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.cli import main

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*/*.yaml"))
CASES = int(os.environ.get("FRACAS_MUTATIONS", "40"))
SECONDS = 60  # per case: validate and a fight of at most MAX_ROUNDS rounds
MAX_ROUNDS = "30"
MEMORY = 2_000_000  # kB of peak resident memory for the whole process

Path_ = tuple[Any, ...]

MUTATIONS: dict[str, Any] = {
    "delete": None,
    "wrong type: text": "zzz",
    "wrong type: list": [1, [2]],
    "wrong type: mapping": {"zzz": 1},
    "wrong type: bool": True,
    "wrong type: float": 2.5,
    "zero": 0,
    "negative": -1,
    "very negative": -(10**6),
    "huge": 10**9,
    "out of any range": 10**30,
    "unicode": "Ünïcødé 😀 ∞",
    "empty text": "",
    "duplicate": None,
}


def _nodes(value: Any, path: Path_ = ()) -> Iterator[Path_]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, (*path, i))


def _get(data: Any, path: Path_) -> Any:
    for p in path:
        data = data[p]
    return data


def _mutated(data: dict[str, Any], path: Path_, mutation: str) -> str:
    """The YAML text of ``data`` with ``mutation`` made at ``path``."""
    new = copy.deepcopy(data)
    if not path:
        if mutation == "duplicate":  # a key given twice: the loader must refuse it
            text = yaml.safe_dump(new, sort_keys=False, allow_unicode=True)
            return text + yaml.safe_dump({"sides": new["sides"]}, allow_unicode=True)
        return yaml.safe_dump(MUTATIONS[mutation], allow_unicode=True)
    parent, last = _get(new, path[:-1]), path[-1]
    if mutation == "delete":
        del parent[last]
    elif mutation == "duplicate":
        if isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        else:  # a mapping's key written twice in the text
            text = yaml.safe_dump(new, sort_keys=False, allow_unicode=True)
            return text if len(path) > 1 else text + yaml.safe_dump({last: parent[last]}, allow_unicode=True)
    else:
        parent[last] = copy.deepcopy(MUTATIONS[mutation])
    return yaml.safe_dump(new, sort_keys=False, allow_unicode=True)


LOADED = {p: yaml.safe_load(p.read_text()) for p in EXAMPLES}
NODES = [(p, path) for p in EXAMPLES for path in _nodes(LOADED[p])]


class _TooLong(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _TooLong


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


@settings(
    max_examples=CASES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(node=st.sampled_from(NODES), mutation=st.sampled_from(sorted(MUTATIONS)))
def test_a_mutated_example_is_refused_or_plays_to_the_end(
    node: tuple[Path, Path_], mutation: str, capsys: pytest.CaptureFixture[str]
) -> None:
    example, path = node
    text = _mutated(LOADED[example], path, mutation)
    case = f"{example.parent.name}/{example.name} at {'.'.join(map(str, path)) or '(top)'}: {mutation}"
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "mutated.yaml"
        f.write_text(text, encoding="utf-8")
        before = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(SECONDS)
        try:
            rc, _, err = _run(["validate", str(f)], capsys)
            assert rc in (0, 2), f"{case}: validate exit {rc}: {err[-600:]}"
            if rc == 2:
                assert "Traceback" not in err and err.strip(), case
                return
            rc, out, err = _run(
                ["fight", str(f), "--seed", "1", "--json", "--max-rounds", MAX_ROUNDS], capsys
            )
        except _TooLong:
            pytest.fail(f"{case}: more than {SECONDS} s")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, before)
    assert rc == 0, f"{case}: validate accepted it, fight exit {rc}: {err[-600:]}"
    last = json.loads(out.strip().splitlines()[-1])
    assert last["type"] == "FightEnded", f"{case}: the fight stopped half-way ({last['type']})"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert peak < MEMORY, f"{case}: {peak} kB of memory"
