"""Commands in words: what a button of the game master's page says, and what the log of actions says.

The rules' ids spoken as the books speak them (GURPS ``all_out_attack_determined`` reads "All-Out Attack
(Determined)", B324; ``broadsword:swing`` reads "broadsword (swing)"), never an argument's key and value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.engine.commands import Command
    from fracas.engine.state import FightState

__all__ = ["attack_words", "describe"]


def describe(command: Command, state: FightState) -> str:
    """A command in words: the ruleset's label, else a sentence for the common actions (attack, move, run,
    reserve, ...), else the action, the target's name and the arguments that say something."""
    if command.label:
        return command.label
    target = state.combatants.get(command.target or "")
    tname = target.name if target else (command.target or "")
    args = command.args
    action = command.action
    if action == "attack" and "attack" in args:
        return f"Attack {tname} with {attack_words(args)}"
    if action in ("move", "run") and isinstance(args.get("path"), list):
        verb = "Run" if action == "run" else "Move"
        return verb + _path_words(args["path"], "") + (" (fleeing)" if args.get("flee") else "")
    if action == "reserve":
        trig = args.get("trigger")
        if isinstance(trig, dict):
            who = state.combatants.get(trig.get("target") or "")
            victim = who.name if who else "anyone on our side"
            on = trig.get("on", "attack")
            if on == "attack":
                return f"Reserve the action: strike whoever attacks {victim}"
            return f"Reserve the action: strike at the next {on} of an enemy"
        if "initiative" in args:
            return f"Reserve the action until Initiative {args['initiative']}"
        return "Reserve the action"
    fixed = {"delay": "Delay: act later this round", "end": "End the turn", "pass": "Let it happen"}
    if action in fixed and not args and not command.target:
        return fixed[action]
    shown = {k: v for k, v in args.items() if v not in (None, "", [], {}, False)}
    if action == "declare" and isinstance(shown.get("action"), str):  # Earthdawn 1st: declare, then act
        what = _words(shown.pop("action"))
        opts = shown.pop("options", None)
        text = f"Declare: {what}" + (f" {tname}" if command.target else "")
        if opts:
            text += f", with {_words(opts)}"
        return text + _arg_words(shown)
    if action == "attack" and isinstance(shown.get("weapon"), str):  # GURPS: the weapon, its maneuver
        text = f"Attack {tname} with {_words(shown.pop('weapon'))}"
        maneuver = shown.pop("maneuver", None)
        if isinstance(maneuver, str) and maneuver != "attack":
            text += f": {_title(maneuver)}"
        return text + _arg_words(shown)
    if "_" in action:  # a rule's name as an id: all_out_defense reads "All-Out Defense"
        return _title(action) + (f" {tname}" if command.target else "") + _arg_words(shown, titled=True)
    text = _words(action)
    if command.target:
        text += f" {tname}"
    text += _arg_words(shown)
    return text[:1].upper() + text[1:]


PLAIN_ARGS = ("weapon", "attack", "maneuver", "variant", "action", "option", "options", "mode")
"""Arguments whose value says it all: "Wait Cormac (punch)", not "(weapon punch)"."""


def _title(rule_id: str) -> str:
    """A rule's id in the book's words: ``all_out_attack_determined`` reads "All-Out Attack (Determined)"."""
    words = rule_id.replace("-", "_").split("_")
    if words[:2] == ["all", "out"]:  # GURPS's All-Out maneuvers (B324), the option after them in brackets
        head, rest = words[:3], words[3:]
        text = "All-Out " + " ".join(w.title() for w in head[2:])
        return text + (f" ({' '.join(w.title() for w in rest)})" if rest else "")
    small = {"and", "or", "of", "the", "a", "to", "in", "on"}
    return " ".join(w if (i and w in small) else w[:1].upper() + w[1:] for i, w in enumerate(words))


def _arg_words(shown: dict[str, Any], titled: bool = False) -> str:
    """A command's remaining arguments in words, in brackets ("" when none)."""
    if titled:
        shown = {k: _title(v) if isinstance(v, str) and k in PLAIN_ARGS else v for k, v in shown.items()}
    parts = []
    for k, v in shown.items():
        if k in ("path", "after") and isinstance(v, list):
            parts.append(("moving" if k == "path" else "then moving") + _path_words(v, ""))
        elif v is True:
            parts.append(k.replace("_", " "))
        elif k in PLAIN_ARGS:
            parts.append(_words(v))
        else:
            parts.append(f"{k.replace('_', ' ')} {_words(v)}")
    return f" ({'; '.join(parts)})" if parts else ""


def attack_words(args: dict[str, Any]) -> str:
    """An attack's weapon and extras: "Broadsword + Karma, moving 4 hexes to (2, 0) first"."""
    text = str(args.get("attack", "?"))
    if args.get("karma"):
        text += " + Karma"
    if args.get("karma_damage"):
        text += " + Karma on damage"
    if isinstance(args.get("path"), list) and args["path"]:
        text += "," + _path_words(args["path"], " first").replace(" ", " moving ", 1)
    if isinstance(args.get("after"), list) and args["after"]:
        text += ", then moving" + _path_words(args["after"], "")
    for k, v in args.items():
        if k not in ("attack", "karma", "karma_damage", "path", "after") and v not in (None, False, "", []):
            text += f", {k.replace('_', ' ')}" + ("" if v is True else f" {_words(v)}")
    return text


def _path_words(path: list[Any], tail: str) -> str:
    if not path:
        return " nowhere"
    end = path[-1]
    try:
        where = f" to ({int(end[0])}, {int(end[1])})"
    except (TypeError, ValueError, IndexError):
        where = ""
    n = len(path)
    return f" {n} hex{'' if n == 1 else 'es'}{where}{tail}"


def _words(value: Any) -> str:
    """A value in words: ``move_and_attack`` reads "move and attack", ``broadsword:swing`` "broadsword
    (swing)" (the rules' ids, spoken)."""
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_words(v) for v in value)
    if isinstance(value, str):
        text = value.replace("_", " ")
        if ":" in text and " " not in text.split(":", 1)[0]:
            head, tail = text.split(":", 1)
            text = f"{head} ({tail})"
        return text.replace("-", " ") if " " not in value and "-" in value and value.islower() else text
    return "" if value is None else str(value)
