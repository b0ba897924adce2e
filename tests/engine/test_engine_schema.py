"""Every field of an encounter is typed by meaning, per ruleset: wrong shapes, out-of-range numbers,
unknown keys and impossible rides are refused at ``validate`` (exit 2, every error at once, the field
path ``sides.0.combatants.0...``), never accepted and then crashed or stopped in the fight."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.cli import main
from fracas.engine import bounds, encounter
from fracas.errors import EncounterFileError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FILES = {
    "ed4": "ed4/mica-and-the-ghouls.yaml",
    "ed1": "ed1/ork-rider-skirmish.yaml",
    "gurps4": "gurps4/fight-on-foot.yaml",
    "sas": "sas/goblin-horde.yaml",
}


def _data(ruleset: str) -> dict[str, Any]:
    return yaml.safe_load((EXAMPLES / FILES[ruleset]).read_text())


def _first(data: dict[str, Any]) -> dict[str, Any]:
    return data["sides"][0]["combatants"][0]


def _refused(data: dict[str, Any], *expected: str) -> str:
    with pytest.raises(EncounterFileError) as info:
        encounter.load_data(data, "bad.yaml")
    text = str(info.value)
    for e in expected:
        assert e in text, text
    return text


@pytest.mark.parametrize(
    ("ruleset", "extra", "path"),
    [
        ("ed4", {"blocked": 5}, "map.extra.blocked"),
        ("ed4", {"light": "purple"}, "map.extra.light"),
        ("ed4", {"cover": 7}, "map.extra.cover"),
        ("ed4", {"full_cover": [[1]]}, "map.extra.full_cover.0"),
        ("ed4", {"impaired": "sticky"}, "map.extra.impaired"),
        ("sas", {"good_cover": 5}, "map.extra.good_cover"),
        ("sas", {"underwater": "yes"}, "map.extra.underwater"),
        ("sas", {"high": [[0, 10**30]]}, "map.extra.high.0.1"),
        ("gurps4", {"anything": 1}, "map.extra.anything"),
        ("ed1", {"blocked": [[1]]}, "map.extra.blocked"),
    ],
)
def test_map_extra_is_typed_per_ruleset(ruleset: str, extra: dict[str, Any], path: str) -> None:
    data = _data(ruleset)
    data.setdefault("map", {})["extra"] = {**data.get("map", {}).get("extra", {}), **extra}
    _refused(data, f"bad.yaml: {path}")


@pytest.mark.parametrize("ruleset", list(FILES))
def test_a_short_hex_in_map_blocked_is_refused(ruleset: str) -> None:
    data = _data(ruleset)
    data.setdefault("map", {})["blocked"] = [[1]]
    _refused(data, "map.blocked.0")


@pytest.mark.parametrize(
    ("ruleset", "stats", "path"),
    [
        ("ed4", {"initiative": 1_000_000}, "stats.initiative: expected at most 60"),
        ("ed4", {"physical_defense": -3}, "stats.physical_defense: expected at least 1"),
        ("ed1", {"initiative": 1_000_000}, "stats.initiative: expected at most 60"),
        ("ed1", {"initiative_talents": {"Air Dance": 10**9}}, "stats.initiative_talents.Air Dance"),
        (
            "ed1",
            {"initiative": 60, "initiative_talents": {f"t{i}": 30 for i in range(3)}},
            "stats: initiative_talents add 90",
        ),
        ("gurps4", {"st": 1_000_000_000}, "stats.st: expected at most 100"),
        ("gurps4", {"st": -5}, "stats.st: expected at least 1"),
        ("gurps4", {"dx": -1, "hp": 0, "basic_move": -2}, "stats.basic_move"),
        ("gurps4", {"dodge": "x"}, "stats.dodge: expected a whole number"),
        ("gurps4", {"combat_reflexes": "yes"}, "stats.combat_reflexes: expected true or false"),
        ("sas", {"movement": -4}, "stats.movement: expected at least 0"),
        ("sas", {"attack": -1, "toughness": -5}, "stats.toughness: expected at least 0"),
        ("sas", {"size": 7}, "stats.size: expected text"),
    ],
)
def test_stats_are_typed_with_ranges(ruleset: str, stats: dict[str, Any], path: str) -> None:
    data = _data(ruleset)
    _first(data)["stats"] = stats
    _refused(data, f"sides.0.combatants.0.{path}")


@pytest.mark.parametrize(
    ("ruleset", "options", "path"),
    [
        ("ed4", {"senses": ["x-ray"]}, "options.senses.0"),
        ("ed4", {"flying": "yes"}, "options.flying: expected true or false"),
        ("ed4", {"size": "enormous"}, "options.size: unknown field"),
        ("ed1", {"zzz": 1}, "options.zzz: unknown field"),
        ("ed1", {"rides": "nobody"}, "options.rides: unknown field"),
        ("gurps4", {"mount": 7}, "options.mount: expected text"),
        ("sas", {"heroic": "very"}, "options.heroic: expected true or false"),
    ],
)
def test_combatant_options_are_typed(ruleset: str, options: dict[str, Any], path: str) -> None:
    data = _data(ruleset)
    _first(data)["options"] = options
    _refused(data, f"sides.0.combatants.0.{path}")


def test_gurps_equipment_of_the_wrong_shape_is_refused() -> None:
    data = _data("gurps4")
    _first(data)["equipment"] = {"barding": True}
    _refused(data, "sides.0.combatants.0.equipment.barding: expected a list")


@pytest.mark.parametrize("ruleset", list(FILES))
def test_an_unknown_tactic_is_refused_at_load(ruleset: str) -> None:
    data = _data(ruleset)
    _first(data)["tactic"] = "zzz"
    _refused(data, "sides.0.combatants.0.tactic: unknown tactic 'zzz'; allowed:")


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        ([True, False], "expected [q, r]"),
        ([0, 10**30], "off the map"),
        ([[0, 0], [bounds.MAX_COORD + 1, 0]], "off the map"),
        ("here", "expected [q, r]"),
    ],
)
def test_positions_are_two_whole_numbers_on_the_map(at: Any, expected: str) -> None:
    data = _data("ed4")
    _first(data)["at"] = at
    _refused(data, "sides.0.combatants.0.at", expected)


@pytest.mark.parametrize("ruleset", list(FILES))
def test_a_combatant_on_a_blocked_hex_is_refused(ruleset: str) -> None:
    data = _data(ruleset)
    first = _first(data)
    first["at"] = first.get("at", [0, 0])
    hexes = first["at"] if isinstance(first["at"][0], list) else [first["at"]]
    data.setdefault("map", {})["blocked"] = [hexes[0]]
    _refused(data, "starts on the blocked hex")


def _ed4_riders(mica: dict[str, Any], other: dict[str, Any] | None = None) -> dict[str, Any]:
    data = copy.deepcopy(_data("ed4"))
    data["sides"][0]["combatants"] = [
        {"template": "war-horse", "id": "horse", "at": [0, 0]},
        {"template": "mica", "id": "mica", **mica},
        *([other] if other else []),
    ]
    return data


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (_ed4_riders({"options": {"rides": "mica"}}), "mica cannot ride itself"),
        (_ed4_riders({"options": {"rides": "ghoul-1"}}), "an enemy"),
        (_ed4_riders({"options": {"rides": "nobody"}}), "no combatant 'nobody'"),
        (
            _ed4_riders(
                {"options": {"rides": "horse"}}, {"template": "thrak", "options": {"rides": "horse"}}
            ),
            "mount carries at most one rider",
        ),
        (
            _ed4_riders(
                {"options": {"rides": "horse"}},
                {"template": "thrak", "id": "t", "options": {"rides": "mica"}},
            ),
            "who rides horse itself",
        ),
    ],
)
def test_rides_are_checked_as_a_graph(data: dict[str, Any], expected: str) -> None:
    _refused(data, expected)


def test_a_horse_cannot_ride_its_own_rider() -> None:
    data = _ed4_riders({"options": {"rides": "horse"}})
    data["sides"][0]["combatants"][0]["options"] = {"rides": "mica"}
    _refused(data, "rides")


def test_sas_riders_graph() -> None:
    data = yaml.safe_load((EXAMPLES / "sas/cavalry-charge.yaml").read_text())
    riders = [e for e in data["sides"][0]["combatants"] if e.get("options", {}).get("mount")]
    riders[1]["options"]["mount"] = riders[0]["options"]["mount"]
    _refused(data, "a mount carries at most one rider")


def test_too_many_combatants_are_refused_naming_the_limit() -> None:
    data = _data("ed4")
    data["sides"][1]["combatants"] = [
        {"template": "ghoul", "count": 500},
        {"template": "ghoul", "id": "g", "count": 500},
    ]
    _refused(data, f"the limit is {bounds.MAX_COMBATANTS}")


def test_every_error_at_once_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _data("gurps4")
    _first(data).update(tactic="zzz", stats={"st": 10**9}, options={"mount": 7})
    data["map"] = {"extra": {"light": "purple"}}
    f = tmp_path / "bad.yaml"
    f.write_text(yaml.safe_dump(data))
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err
    for part in ("tactic", "stats.st", "options.mount", "map.extra.light"):
        assert part in err
    assert "internal error" not in err


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*/*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_example_is_accepted(path: Path) -> None:
    encounter.load(path)


@pytest.mark.parametrize("ruleset", ["gurps4", "sas"])
def test_riding_what_is_not_a_mount_is_refused_at_its_entry_path(ruleset: str) -> None:
    data = _data(ruleset)
    first = _first(data)
    other = data["sides"][0]["combatants"][1]
    other_id = other.get("id") or other["template"]
    first["options"] = {"mount": other_id}
    _refused(data, "sides.0.combatants.0.options.mount:", "is not a mount in this encounter (mounts:")


def test_ed1_initiative_talents_of_a_full_stat_block_stay_within_the_step_table() -> None:
    data = yaml.safe_load((EXAMPLES / "ed1/thom-hammerblade.yaml").read_text())
    block = next(c for s in data["sides"] for c in s["combatants"] if "stats" in c and "template" not in c)
    block["stats"]["initiative_talents"] = {"Air Dance": 1000}
    _refused(data, ".stats.initiative_talents.Air Dance: expected at most 30")


@pytest.mark.parametrize(
    ("attack", "expected"),
    [
        ({"range": [0, 10**9, 10**12]}, "range.1"),
        ({"range": [-5, -1]}, "range.0"),
        ({"range": [30, 2]}, "each at least the one before"),
        ({"size": 10**9}, "size"),
    ],
)
def test_an_ed4_stat_block_attack_is_bounded(attack: dict[str, Any], expected: str) -> None:
    data = yaml.safe_load((EXAMPLES / "ed4/silar-and-the-griffin.yaml").read_text())
    block = next(c for s in data["sides"] for c in s["combatants"] if "stats" in c and "template" not in c)
    block["stats"]["attacks"][0].update(attack)
    _refused(data, ".stats.attacks.0", expected)


@pytest.mark.parametrize("ruleset", ["ed4", "ed1"])
def test_a_combatant_that_cannot_fly_does_not_start_in_the_air(ruleset: str) -> None:
    data = _data(ruleset)
    _first(data)["altitude"] = 5000
    _refused(data, "sides.0.combatants.0.altitude: 5000, but", "cannot fly")
