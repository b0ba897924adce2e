"""Combat options from encounter files (000_4b24aca42c3b6366.txt p.382-386): ``combat_options`` per
combatant, checked at load with the file, field path, what was found, what is allowed and the rule that
forbids it; declared by the combatant's tactic each round when legal (p.382: before Initiative, none while
knocked down but Jump Up)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from ed4_helpers import RULESET

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.errors import EncounterFileError
from fracas.rules.ed4 import options as opt


def _data(hero: dict[str, Any], ruleset: str = "ed4", foe: str = "ghoul") -> dict[str, Any]:
    return {
        "version": 1,
        "ruleset": ruleset,
        "name": "t",
        "max_rounds": 6,
        "sides": [
            {"name": "A", "combatants": [{"at": [0, 0], **hero}]},
            {"name": "B", "combatants": [{"template": foe, "at": [1, 0]}]},
        ],
    }


def _load_error(data: dict[str, Any]) -> str:
    with pytest.raises(EncounterFileError) as err:
        encounter.load_data(data, "fight.yaml")
    return str(err.value)


def test_aggressive_attack_with_defensive_stance_is_refused_at_load_p382() -> None:
    msg = _load_error(
        _data({"template": "thrak", "combat_options": ["aggressive-attack", "defensive-stance"]})
    )
    assert msg.startswith("fight.yaml: sides.0.combatants.0.combat_options.1:")
    assert "ed4/option/aggressive-attack p.382" in msg
    assert "found ['aggressive-attack', 'defensive-stance']" in msg and "allowed: aggressive-attack," in msg


def test_knockdown_with_stun_is_refused_at_load_p383() -> None:
    msg = _load_error(
        _data({"template": "thrak", "combat_options": ["attack-to-stun", "attack-to-knockdown"]})
    )
    assert "combat_options.1" in msg and "ed4/option/attack-to-knockdown p.383" in msg


def test_tail_attack_is_for_tskrang_only_at_load_p386() -> None:
    msg = _load_error(_data({"template": "thrak", "combat_options": ["tail-attack"]}))
    assert "sides.0.combatants.0.combat_options.0" in msg and "ed4/option/tail-attack p.386" in msg
    _, state = encounter.load_data(_data({"template": "silar", "combat_options": ["tail-attack"]}))
    assert state.combatants["silar"].marks["combat_options"] == ["tail-attack"]


def test_unknown_and_repeated_options_are_refused_at_load_p382() -> None:
    msg = _load_error(
        _data({"template": "thrak", "combat_options": ["berserk", "called-shot", "called-shot"]})
    )
    lines = msg.splitlines()
    assert len(lines) == 2 and all(line.startswith("fight.yaml: ") for line in lines)
    assert "combat_options.0" in lines[0] and "'berserk'" in lines[0]
    assert "combat_options.2" in lines[1] and "twice" in lines[1]


def test_shattering_a_shield_needs_a_size_3_weapon_at_load_p385() -> None:
    msg = _load_error(_data({"template": "kira", "combat_options": ["shatter-shield"]}))  # Size 2 and 1
    assert "ed4/option/shatter-shield p.385" in msg
    encounter.load_data(_data({"template": "herekar", "combat_options": ["shatter-shield"]}))  # broadsword


def test_setting_against_a_charge_needs_a_long_weapon_at_load_p385() -> None:
    msg = _load_error(_data({"template": "kira", "combat_options": ["set-against-charge"]}))
    assert "ed4/option/set-against-charge p.385" in msg
    hero = {
        "template": "thrak",
        "equipment": {"weapons": ["spear"]},
        "combat_options": ["set-against-charge"],
    }
    encounter.load_data(_data(hero))


def test_rulesets_without_combat_options_refuse_the_field() -> None:
    data = _data(
        {"template": "ork-raider", "combat_options": ["aggressive-attack"]}, ruleset="ed1", foe="bog-gob"
    )
    msg = _load_error(data)
    assert "sides.0.combatants.0.combat_options: the ed1 ruleset has no combat options" in msg


def test_standing_options_are_declared_every_round_by_the_default_tactic_p382() -> None:
    _, state = encounter.load_data(_data({"template": "thrak", "combat_options": ["aggressive-attack"]}))
    assert state.combatants["thrak"].tactic == "default"
    f = Fight(RULESET, state, RandomDice(4), seed=4)
    f.run()
    decl = [e for e in f.log or () if isinstance(e, ev.Declared) and e.actor == "thrak"]
    rounds = [e.round for e in f.log or () if isinstance(e, ev.RoundStarted)]
    assert len(decl) == len(rounds)  # declared before every Initiative test
    for e in decl:
        assert e.options in (("aggressive-attack",), ())  # () only when knocked down or surprised
    assert any(e.options == ("aggressive-attack",) for e in decl)
    strain = [e for e in f.log or () if isinstance(e, ev.Damaged) and e.damage_type == "strain"]
    assert strain and all(e.rule == opt.rule(opt.AGGRESSIVE) for e in strain)  # 1 per close Attack test


def test_round_declaration_knocked_down_surprised_and_jump_up_p382_p384_p390() -> None:
    standing = ["jump-up", "aggressive-attack", "shatter-shield"]
    assert opt.round_declaration(standing, knocked_down=True, surprised=False) == ["jump-up"]
    assert opt.round_declaration(["aggressive-attack"], knocked_down=True, surprised=False) == []
    assert opt.round_declaration(standing, knocked_down=False, surprised=True) == []
    assert opt.round_declaration(standing, knocked_down=False, surprised=False) == [
        "aggressive-attack",
        "shatter-shield",
    ]
    assert opt.round_declaration(standing, knocked_down=False, surprised=False, shield_foe=False) == [
        "aggressive-attack"
    ]


def test_merge_keeps_the_files_options_over_the_tactics_p382() -> None:
    assert opt.merge_declaration(["aggressive-attack"], ["defensive-stance"]) == ["aggressive-attack"]
    assert opt.merge_declaration(["called-shot"], ["defensive-stance", "called-shot"]) == [
        "called-shot",
        "defensive-stance",
    ]
    assert opt.merge_declaration(["attack-to-stun"], ["attack-to-knockdown"]) == ["attack-to-stun"]


def test_standing_problems_are_pure_and_name_the_rule() -> None:
    probs = opt.standing_problems(
        ["defensive-stance", "aggressive-attack"], tskrang=False, shatter_weapon=True, long_weapon=True
    )
    assert probs == [(1, probs[0][1], opt.rule(opt.AGGRESSIVE))]
    assert not opt.standing_problems(
        list(opt.options_table().keys() - {"defensive-stance", "attack-to-stun"}),
        tskrang=True,
        shatter_weapon=True,
        long_weapon=True,
    )


def test_a_tskrang_with_tail_attack_makes_its_tail_attacks_p386() -> None:
    _, state = encounter.load_data(_data({"template": "silar", "combat_options": ["tail-attack"]}))
    f = Fight(RULESET, state, RandomDice(2), seed=2)
    f.run()
    tails = [e for e in f.log or () if isinstance(e, ev.Rolled) and "ail" in e.test and e.actor == "silar"]
    assert tails


def test_called_shot_from_the_file_aims_at_the_weapon_p384() -> None:
    data = _data({"template": "thrak", "combat_options": ["called-shot"]}, foe="bandit")
    _, state = encounter.load_data(data)
    f = Fight(RULESET, state, RandomDice(5), seed=5)
    f.run()
    holds = [e for e in f.log or () if isinstance(e, ev.Rolled) and e.test == "Strength (hold on)"]
    assert holds  # each hit makes the bandit test Strength to keep his sword (p.384)


def test_the_veterans_own_options_give_way_to_the_files() -> None:
    hero = {"template": "thrak", "tactic": "veteran", "combat_options": ["aggressive-attack"]}
    data = _data(hero)
    data["sides"][1]["combatants"] = [{"template": "ghoul", "count": 3, "at": [[1, 0], [1, -1], [0, 1]]}]
    _, state = encounter.load_data(data)
    f = Fight(RULESET, state, RandomDice(1), seed=1)
    f.run()
    decl = [e for e in f.log or () if isinstance(e, ev.Declared) and e.actor == "thrak"]
    assert decl and all("defensive-stance" not in e.options for e in decl)


def test_the_cli_shows_the_rule_of_a_refused_combat_option(tmp_path: Any, capsys: Any) -> None:
    from fracas.cli import main

    f = tmp_path / "fight.yaml"
    f.write_text(yaml.safe_dump(_data({"template": "thrak", "combat_options": ["tail-attack"]})))
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err
    assert "combat_options.0" in err and "ed4/option/tail-attack p.386" in err and "Traceback" not in err
