"""Every label the game master's page offers and every line the log shows, in a bundled fight of each
ruleset, reads as the rules' words: no ``key value; key value`` argument dumps, no snake_case ids, no
"1 wounds", no "13 <= DN 10" (a roll of 13 is not 10 or less). Rule citations in brackets are ids and pass."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fracas.engine.encounter import read_file
from fracas.errors import RuleNotImplemented
from fracas.rules.gurps4.core import maneuver_words, weapon_words
from fracas.rules.registry import get_ruleset
from fracas.store import FightService, Store
from fracas.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))
TOKEN = "tok"
GM = {"X-Fracas-Token": TOKEN}
RAW = [
    re.compile(r"\(\w+ [\w:.-]+; \w+ [\w:.-]+"),  # "(action run; options retreat)"
    re.compile(r"\b[a-z]+_[a-z0-9_]+\b"),  # "thrust_two_handed", "all_out_attack_determined"
    re.compile(r"\b1 (wounds|Wounds)\b"),
    re.compile(r"<= DN"),
    re.compile(r"^declare: |no combat options\)|hidden set|counter changed"),
]


def _words(text: str) -> str:
    """The text without its rule citations ("[gurps4/core/maneuver/all_out_attack B365]")."""
    for _ in range(2):  # citations nest one level: "[-2 Reduced Visibility [sas/...]]"
        text = re.sub(r"\[[^\[\]]*\]", "", text)
    return text


def _raw(text: str) -> list[str]:
    plain = _words(text)
    return [p.pattern for p in RAW if p.search(plain)]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_labels_offered_and_the_lines_logged_read_as_the_rules_words(
    tmp_path: Path, example: Path
) -> None:
    data = read_file(example)
    try:
        get_ruleset(data["ruleset"])
    except RuleNotImplemented as exc:
        pytest.skip(str(exc))
    service = FightService(Store(tmp_path / "w.sqlite3"))
    fid = service.create(data, seed=3).record.id
    client = TestClient(create_app(service, TOKEN), raise_server_exceptions=True)
    seen: list[tuple[str, str]] = []
    for _ in range(60):
        gm = client.get(f"/api/fights/{fid}/gm?log=false", headers=GM).json()
        seen += [("offered", c["label"]) for c in gm["choices"]]
        seen += [("button", c["short"]) for g in gm["choice_groups"] for c in g["choices"]]
        seen += [("group", g["title"]) for g in gm["choice_groups"] if g["title"]]
        if gm["ended"]:
            break
        path = "advance" if gm["waiting_for_dice"] else "tactic"
        client.post(f"/api/fights/{fid}/{path}", json={"expected": gm["seq"]}, headers=GM)
    log = client.get(f"/api/fights/{fid}/gm", headers=GM).json()["log"]
    seen += [("logged", line["text"]) for line in log]
    seen += [("detail", d) for line in log for d in line["details"] if not d.startswith("rule: ")]
    bad = [(where, text, _raw(text)) for where, text in seen if _raw(text)]
    assert not bad, bad[:5]


def test_gurps_weapons_and_maneuvers_read_as_the_basic_set_writes_them() -> None:
    """B365: All-Out Attack (Determined); Move and Attack; a spear's two-handed thrust (B273)."""
    assert weapon_words("spear:thrust_two_handed") == "spear thrust, two-handed"
    assert weapon_words("composite_bow") == "composite bow"
    assert maneuver_words("all_out_attack_determined") == "All-Out Attack (Determined)"
    assert maneuver_words("move_and_attack") == "Move and Attack"


def test_a_recovery_after_one_wound_reads_one_wound() -> None:
    """ED4 p.380: Wounds subtract from the Recovery result; the log counts "1 Wound", not "1 Wounds"."""
    from fracas.engine import events as ev
    from fracas.engine.encounter import load_data
    from fracas.engine.narrate import narrate

    state = load_data(read_file(ROOT / "examples/ed4/mica-and-the-ghouls.yaml"), "x")[1]
    who = next(iter(state.combatants))
    line = narrate(ev.CounterChanged(who, "damage", -5, "Recovery 6 - 1 Wounds = 5", "r"), state)
    assert line.endswith("heals 5 damage (Recovery 6 - 1 Wound = 5)")
