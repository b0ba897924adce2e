"""The batch kernels are bound to the engine code they mirror (fracas/sim/kernels/mirrors.toml).

When an engine function a kernel mirrors changes, the test below fails until the manifest records the new
source: check that the kernel mirrors the change, then ``FRACAS_MIRRORS=write python -m pytest
tests/sim/test_mirrors.py`` (engine and kernel change in one commit). No kernel is compiled here.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from fracas.sim import kernels
from fracas.sim.kernels import mirrors

KERNELS = Path(kernels.__file__).parent


def test_every_mirrored_function_is_unchanged() -> None:
    if mirrors.writing():
        changed = mirrors.write()
        print("\n".join(changed) if changed else "no hash changed")  # noqa: T201 - told to the one writing
    found = mirrors.problems(mirrors.load())
    assert not found, "\n".join([*found, "", mirrors.REFRESH])


def test_every_bundled_kernel_has_a_manifest() -> None:
    """Each kernel module the simulator loads is named by a manifest, under the name its kernel reports."""
    listed = {f for k in mirrors.load() for f in k.files}
    bundled = {m.rsplit(".", 1)[1] + ".py" for mods in kernels._BUILTINS.values() for m in mods}
    assert bundled <= listed, f"kernel modules without a manifest: {sorted(bundled - listed)}"
    for k in mirrors.load():
        assert k.mirrors, f"{k.name}: an empty manifest"
        for f in k.files:
            assert (KERNELS / f).is_file(), f"{k.name}: no kernel file {f}"
        names = _kernel_names(k.files)
        assert k.name in names, f"{k.name}: not the name of a kernel in {k.files} ({sorted(names)})"


def _kernel_names(files: list[str]) -> set[str]:
    """The ``name = "..."`` class attributes of the kernel classes in these files (read, not imported)."""
    out = set()
    for f in files:
        for node in ast.walk(ast.parse((KERNELS / f).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if (
                        isinstance(item, ast.Assign)
                        and [getattr(t, "id", None) for t in item.targets] == ["name"]
                        and isinstance(item.value, ast.Constant)
                    ):
                        out.add(item.value.value)
    return out


# ----- the check itself can fail ---------------------------------------------------------------------


def _one(name: str, recorded: str) -> list[mirrors.Kernel]:
    return [mirrors.Kernel("toy", ["toy.py"], {name: recorded})]


def test_a_changed_function_is_reported_with_how_to_refresh() -> None:
    name = "fracas.engine.play:Fight._check_end"
    now = mirrors.source_hash(mirrors.resolve(name))
    assert mirrors.problems(_one(name, now)) == []
    found = mirrors.problems(_one(name, "0" * mirrors.HASH_CHARS))
    assert len(found) == 1 and "Fight._check_end changed" in found[0]
    assert "FRACAS_MIRRORS=write" in mirrors.REFRESH and "kernel mirrors the change" in mirrors.REFRESH


def test_a_moved_or_renamed_function_fails() -> None:
    for name in (
        "fracas.engine.play:Fight._no_such_thing",  # renamed
        "fracas.engine.no_such_module:f",  # moved
        "fracas.rules.ed4.ruleset:Ed4CoreRuleset._initiative",  # only inherited here: written elsewhere
        "fracas.engine.play",  # not module:name
    ):
        found = mirrors.problems(_one(name, "0" * mirrors.HASH_CHARS))
        assert len(found) == 1 and "Point the manifest" in found[0], name


def test_the_hash_follows_the_source_comments_included(tmp_path: Path, monkeypatch: Any) -> None:
    mod = tmp_path / "mirrored_toy.py"
    monkeypatch.syspath_prepend(str(tmp_path))

    def hash_of(text: str) -> str:
        import importlib
        import sys

        mod.write_text(text)
        sys.modules.pop("mirrored_toy", None)
        importlib.invalidate_caches()
        return mirrors.source_hash(mirrors.resolve("mirrored_toy:Rules.attack"))

    base = hash_of("class Rules:\n    def attack(self):\n        return 1\n")
    assert hash_of("class Rules:\n    def attack(self):\n        return 1  # why\n") != base
    assert hash_of("class Rules:\n    def attack(self):\n        return 2\n") != base
    # dedented: the same method at another depth hashes the same
    assert hash_of("if True:\n    class Rules:\n        def attack(self):\n            return 1\n") == base


def test_write_records_the_hashes_and_keeps_the_header(tmp_path: Path) -> None:
    name = "fracas.engine.play:Fight._check_end"
    path = tmp_path / "m.toml"
    path.write_text(f'# header\n# two\n\n[toy]\nfiles = ["toy.py"]\n\n[toy.mirrors]\n"{name}" = "old"\n')
    assert mirrors.write(path) == [f"toy: {name}"]
    (k,) = mirrors.load(path)
    assert path.read_text().startswith("# header\n# two\n")
    assert k.files == ["toy.py"] and mirrors.problems([k]) == []
    path.write_text(path.read_text().replace("_check_end", "_gone"))
    with pytest.raises(mirrors.MirrorMissing):
        mirrors.write(path)
