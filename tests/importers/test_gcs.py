"""GURPS Character Sheet files -> gurps4 combatants: values from the calc blocks, the report, errors."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from fracas.engine.encounter import load_data
from fracas.importers import CharacterFileError, import_file


def _encounter(*entries: dict) -> dict:
    return {
        "version": 1,
        "ruleset": "gurps4",
        "sides": [
            {"name": "Party", "combatants": list(entries)},
            {"name": "Foes", "combatants": [{"template": "spearman", "at": [10, 0]}]},
        ],
    }


def test_knight_v5_takes_the_calc_values(files: Path) -> None:
    got = import_file(files / "gcs/knight-v5.gcs")
    e = got.entry
    assert got.ruleset == "gurps4"
    assert e["name"] == "Sir Giles" and e["id"] == "sir-giles"
    s = e["stats"]
    assert (s["st"], s["dx"], s["iq"], s["ht"], s["hp"], s["will"], s["per"]) == (12, 12, 10, 12, 14, 11, 10)
    assert s["basic_speed"] == 6.0 and s["combat_reflexes"] is True
    assert s["skills"]["Riding"] == 14 and s["skills"]["Lance"] == 14 and s["skills"]["Shield"] == 13
    # 118.25 lb carried against Basic Lift 29 lb: Heavy (over 3x, up to 6x BL, p.B17); Move and Dodge at Heavy
    assert s["encumbrance"] == 3 and s["basic_move"] == 2 and s["dodge"] == 7
    assert e["equipment"]["weapons"] == ["lance", "broadsword"]
    assert e["equipment"]["shield"] == "medium_shield"
    assert e["equipment"]["saddle"] == "war_saddle"  # in other_equipment: not carried, still his saddle
    assert e["equipment"]["armor"] == ["steel_corselet", "plate_arms", "plate_legs", "pot_helm"]
    r = got.report
    assert any(t.field == "stats.st" and t.source == "attributes[st].calc.value" for t in r.taken)
    assert any(c.field == "stats.encumbrance" and "118.25 lb" in c.how for c in r.computed)
    assert any("Lance Couching" in d.what for d in r.unused)
    assert any("Honesty" in d.what for d in r.unused)
    load_data(_encounter({**e, "at": [0, 0]}))


def test_warhorse_v4_is_a_mount(files: Path) -> None:
    got = import_file(files / "gcs/warhorse-v4.gcs")
    e = got.entry
    assert e["template"] == "heavy_warhorse"
    s = e["stats"]
    assert (s["st"], s["hp"], s["basic_move"], s["dodge"], s["sm"]) == (24, 24, 7, 9, 1)
    assert s["war_trained"] is True and s["skills"] == {"Brawling": 12, "Mount": 13}
    # its own attacks, at GCS's final damage and level (Brawling 12)
    assert s["attacks"] == [
        {"name": "trample", "damage": "2d+2", "type": "cr", "reach": [0, 1], "skill": "Brawling"},
        {"name": "bite", "damage": "2d", "type": "cr", "reach": [0], "skill": "Brawling"},
    ]
    _, state = load_data(_encounter({**e, "at": [0, 0]}))
    st = state.combatants["bayard-heavy-warhorse"].stats
    assert st.mount and [a.name for a in st.attacks()] == ["trample", "bite"]
    assert st.attack("trample").damage == "2d+2" and st.dr_at("foot", "cr") == 1  # hooves


def test_cli_writes_yaml_and_json(files: Path, tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "party.yaml"
    code, text, _ = run("import", files / "gcs/knight-v5.gcs", files / "gcs/warhorse-v4.gcs", "-o", out)
    assert code == 0, text
    assert "taken     stats.st = 12" in text and "wrote 2 combatants" in text
    doc = yaml.safe_load(out.read_text())
    assert doc["ruleset"] == "gurps4" and [c["id"] for c in doc["combatants"]] == [
        "sir-giles",
        "bayard-heavy-warhorse",
    ]
    code, text, _ = run("import", files / "gcs/knight-v5.gcs", "--json")
    assert code == 0
    got = json.loads(text)
    assert set(got) == {"ruleset", "combatants", "reports"}
    rep = got["reports"][0]
    assert set(rep) >= {"file", "format", "version", "name", "taken", "computed", "unused", "unusable"}
    assert rep["format"] == "gcs" and rep["version"] == "version 5"


def test_damaged_files_exit_2_naming_file_and_field(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    cases = {
        "broken.gcs": ('{"version": 5, "attributes": [', "not JSON"),
        "old.gcs": ('{"version": 9, "attributes": []}', "version: 9"),
        "noattr.gcs": ('{"version": 5}', "attributes"),
        "nost.gcs": ('{"version": 4, "attributes": [{"attr_id": "dx", "calc": {"value": 10}}]}', "'st'"),
        "badcalc.gcs": (
            '{"version": 3, "attributes": [{"attr_id": "st", "calc": {"value": "x"}}]}',
            "attributes[0].calc.value",
        ),
    }
    out = tmp_path / "party.yaml"
    for name, (text, needle) in cases.items():
        p = tmp_path / name
        p.write_text(text)
        code, _, err = run("import", p, "-o", out)
        assert code == 2, (name, err)
        assert str(p) in err and needle in err, err
        assert "Traceback" not in err
        assert not out.exists()  # nothing half-written


def test_an_xml_gcs_file_is_told_to_resave(tmp_path: Path) -> None:
    p = tmp_path / "old.gcs"
    p.write_text('<?xml version="1.0"?>\n<character version="2"><name>x</name></character>')
    try:
        import_file(p)
    except CharacterFileError as exc:
        assert "4.20" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("an XML .gcs file was read")


def test_archer_v2_advantages_and_hit_locations(files: Path) -> None:
    got = import_file(files / "gcs/archer-v2.gcs")
    s = got.entry["stats"]
    assert s["high_pain_threshold"] is True and s["skills"]["Bow"] == 15 and s["skills"]["Riding"] == 13
    assert s["encumbrance"] == 0 and s["basic_move"] == 6 and s["dodge"] == 9  # 18.5 lb <= BL 24 lb
    assert got.entry["equipment"] == {"weapons": ["composite_bow", "shortsword"], "armor": ["leather_armor"]}
    assert any("Sling" in d.what for d in got.report.unusable)  # no fracas row: said, not dropped
    assert any("Greed" in d.what and "switched off" in d.why for d in got.report.unused)
    assert any(c.field == "DR by location" for c in got.report.computed)
    load_data(_encounter({**got.entry, "at": [0, 0]}))


def test_winged_v3_flies(files: Path) -> None:
    got = import_file(files / "gcs/winged-v3.gcs")
    s = got.entry["stats"]
    assert s["flight"] == "winged" and "flight_limitation" not in s  # Cannot Hover is switched off
    assert s["air_move"] == 12  # Basic Speed 6.25 x 2 (p.B56)
    _, state = load_data(_encounter({**got.entry, "at": [0, 0], "altitude": 10}))
    assert state.combatants["ilia-of-the-cliffs"].stats.flies


def test_pegasus_v5_is_a_flying_mount(files: Path) -> None:
    got = import_file(files / "gcs/pegasus-v5.gcs")
    e = got.entry
    assert e["template"] == "race_horse"  # the nearest ST in fracas's mount table
    assert e["stats"]["flight"] == "winged" and e["stats"]["air_move"] == 11
    # Kick at level 9 = DX 11 - 2 (no Brawling): skill DX with a modifier, as GCS worked it out
    assert e["stats"]["attacks"] == [
        {"name": "kick", "damage": "2d", "type": "cr", "reach": [0, 1], "skill": "DX", "skill_modifier": -2}
    ]
    _, state = load_data(_encounter({**e, "at": [0, 0]}))
    st = state.combatants["pegasus"].stats
    assert st.mount and st.flies and st.st == 20


def test_equipment_without_equipped_is_carried_not_used(files: Path, tmp_path: Path) -> None:
    """GCS writes "equipped" only when true (omitempty): an item without it is carried, not in hand or worn,
    yet its weight counts toward encumbrance (p.B17)."""
    doc = json.loads((files / "gcs/knight-v5.gcs").read_text())
    for item in doc["equipment"]:
        if item["description"] == "Broadsword":
            del item["equipped"]
    p = tmp_path / "k.gcs"
    p.write_text(json.dumps(doc))
    got = import_file(p)
    assert got.entry["equipment"]["weapons"] == ["lance"]
    assert any("Broadsword" in d.what and "not equipped" in d.why for d in got.report.unused)
    assert got.entry["stats"]["encumbrance"] == 3  # still carried


def test_a_weapon_without_a_row_of_its_name_takes_its_skills_row(files: Path, tmp_path: Path) -> None:
    doc = json.loads((files / "gcs/knight-v5.gcs").read_text())
    doc["equipment"].append(
        {
            "id": "eLargeKnife00001", "description": "Large Knife", "quantity": 1, "weight": "1 lb",
            "equipped": True,
            "weapons": [
                {"id": "wLargeKnife00001", "sv": 1, "damage": {"type": "imp", "st": "thr"}, "usage": "Thrust",
                 "reach": "C", "parry": "-1", "defaults": [{"type": "skill", "name": "Knife"}],
                 "calc": {"level": 10, "damage": "1d-1 imp", "parry": "7"}},
            ],
            "calc": {"extended_weight": "1 lb"},
        }
    )  # fmt: skip
    p = tmp_path / "k.gcs"
    p.write_text(json.dumps(doc))
    got = import_file(p)
    assert got.entry["equipment"]["weapons"] == ["lance", "broadsword", "dagger"]
    assert any(
        c.field == "equipment.weapons" and "Knife" in c.how or "dagger" in c.how for c in got.report.computed
    )
    # the dagger row does thr-1 imp = 1d-2 at ST 12, not the file's 1d-1: said
    assert any("1d-1 imp" in d.what and "dagger" in d.why for d in got.report.unusable)
