"""What each view shows, as plain data (the JSON API returns it; the templates draw it).

Ruleset-agnostic: a combatant's card is :meth:`Ruleset.card`, the odds :meth:`Ruleset.odds`, the log lines
:meth:`Ruleset.narrate` (through the engine's narration). The player view is built from an allow-list: no
hidden combatant (not its id, not its name, not a log line that mentions it) and no monster statistics (no
card, no counters, no modifiers, no Difficulty Numbers, no monster totals) ever reach it.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from fracas.engine.hexgrid import distance
from fracas.engine.narrate import faces_text
from fracas.store.book import concealed
from fracas.store.overrule import STATUSES
from fracas.store.words import attack_words, describe
from fracas.web.players import hidden_sides, line_for_players, player_sides, secret_words

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState
    from fracas.store.book import FightBook, Line

MAX_LOG = 400  # lines sent with a view; the export holds everything
HEX = 24.0  # hex radius in SVG units
FIELD_MARGIN = 4  # hexes drawn beyond the fitted view, to pan and zoom out into
NAME_CHARS = 12  # a token's name label, cut with an ellipsis beyond (the tooltip has it whole)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_plain(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def _card(card: dict[str, Any]) -> list[dict[str, Any]]:
    """A ruleset's card as rows for the page: a readable label, and the value as text or a list of lines."""
    rows = []
    for key, value in card.items():
        label = str(key).replace("_", " ")
        label = label[:1].upper() + label[1:]
        plain = _plain(value)
        if isinstance(plain, list):
            rows.append({"key": str(key), "label": label, "lines": [_text(v) for v in plain] or ["none"]})
        else:
            rows.append({"key": str(key), "label": label, "text": _text(plain)})
    return rows


SUMMARY_KEYS = ("wounds", "wound_threshold", "karma", "strain", "HP", "Wound Markers", "Hurt", "Broken")
"""Card rows shown on a compact card (the rest folds away under "more"); the damage bar shows the others."""
BAR_KEYS = ("damage", "unconsciousness", "death")


def _bar(card: dict[str, Any]) -> dict[str, Any] | None:
    """A damage bar: damage against the Unconsciousness and Death Ratings (Earthdawn), or what is left of a
    "now / most" counter (HP in GURPS, Wound Markers in Spells & Swords). Percentages of the bar's width."""
    d, u, death = (card.get(k) for k in BAR_KEYS)
    if all(isinstance(x, int) and not isinstance(x, bool) for x in (d, u, death)) and death > 0:
        return {
            "fill": min(100.0, round(100 * max(d, 0) / death, 1)),
            "mark": round(100 * u / death, 1),
            "danger": d >= u,
            "text": f"{d} damage; Unconsciousness {u}, Death {death}",
        }
    for key, taken in (("HP", False), ("Wound Markers", True)):
        value = card.get(key)
        if isinstance(value, str) and "/" in value:
            try:
                now, most = (int(x) for x in value.split("/"))
            except ValueError:
                continue
            if most <= 0:
                continue
            used = now if taken else most - now
            return {
                "fill": min(100.0, round(100 * max(used, 0) / most, 1)),
                "mark": None,
                "danger": used >= most,
                "text": f"{key} {value}",
            }
    return None


def _card_parts(rows: list[dict[str, Any]], has_bar: bool) -> dict[str, Any]:
    """A compact card's rows: the few always shown, and the rest (folded away); the bar replaces its rows."""
    summary = [r for r in rows if r["key"] in SUMMARY_KEYS]
    more = [r for r in rows if r["key"] not in SUMMARY_KEYS and not (has_bar and r["key"] in BAR_KEYS)]
    more = [r for r in more if r["key"] != "conditions"]  # shown with their rounds left below
    return {"card_summary": summary, "card_more": more}


def _group_choices(
    choices: list[dict[str, Any]], state: FightState, actor: str | None
) -> list[dict[str, Any]]:
    """Attack choices grouped by target (then weapon and extras); every other choice on its own."""
    me = state.combatants.get(actor or "")
    groups: dict[Any, dict[str, Any]] = {}
    for item in choices:
        cmd = item["command"]
        args = cmd.get("args") or {}
        target = state.combatants.get(cmd.get("target") or "")
        if cmd.get("action") == "attack" and target is not None and "attack" in args:
            key: Any = ("attack", target.id)
            item["short"] = attack_words(args)
            if key not in groups:
                far = ""
                if me is not None and me.pos is not None and target.pos is not None:
                    d = distance(me.pos, target.pos)
                    far = " (next to it)" if d == 1 else f" ({d} hexes away)"
                groups[key] = {"title": f"Attack {target.name}{far}", "choices": []}
        else:
            key = ("one", item["index"])
            item["short"] = item["label"]
            groups[key] = {"title": None, "choices": []}
        groups[key]["choices"].append(item)
    for g in groups.values():
        if g["title"] and len(g["choices"]) > 1:  # each weapon, then its variants (moving, Karma)
            first: dict[str, int] = {}
            for i, item in enumerate(g["choices"]):
                first.setdefault(str(item["command"]["args"].get("attack")), i)
            g["choices"].sort(key=lambda it: first[str(it["command"]["args"].get("attack"))])
    return list(groups.values())


def _text(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    return "" if value is None else str(value)


def _conditions(c: Combatant, state: FightState) -> list[dict[str, Any]]:
    out = []
    for cond in c.conditions.values():
        left = None
        if cond.until_round is not None:
            left = max(cond.until_round - state.round + 1, 0)
        out.append({"name": cond.name, "rounds_left": left, "value": cond.value, "rule": cond.rule})
    return out


# ----- the game master ---------------------------------------------------------------------------------


def gm_view(book: FightBook, with_log: bool = True) -> dict[str, Any]:
    state = book.state
    ruleset = book.ruleset
    decision = book.decision()
    choices = []
    if decision is not None:
        for i, cmd in enumerate(ruleset.choices(state, decision)):
            try:
                odds = ruleset.odds(state, cmd)
            except Exception as exc:  # odds are a help, never a reason to hide the action
                odds = f"(odds unavailable: {type(exc).__name__})"
            item = {
                "index": i,
                "command": _plain(cmd.to_json()),
                "label": describe(cmd, state),
                "odds": odds,
                "dice": book.rolls_dice(cmd),
                "moves": cmd.action in ("move", "run") or "path" in cmd.args,
            }
            choices.append(item)
    groups = _group_choices(choices, state, decision.actor if decision else None)
    waiting = book.waiting_for_dice()
    combatants = []
    colours = side_colours(state)
    for c in state.combatants.values():
        combatants.append(
            {
                "id": c.id,
                "name": c.name,
                "side": c.side,
                "colour": colours.get(c.side, 0),
                "player": c.player,
                "hidden": c.hidden,
                "template": c.template,
                "tactic": c.tactic,
                "status": c.status,
                "out": ruleset.is_out(c),
                "pos": list(c.pos) if c.pos is not None else None,
                "facing": c.facing,
                "altitude": c.altitude,
                "counters": dict(c.counters),
                "conditions": _conditions(c, state),
                "card": _plain(ruleset.card(c)),
                "card_rows": _card(ruleset.card(c)),
                "bar": _bar(ruleset.card(c)),
                **_card_parts(_card(ruleset.card(c)), _bar(ruleset.card(c)) is not None),
                "initiative": state.initiative.get(c.id),
            }
        )
    undo = book.undoable
    view: dict[str, Any] = {
        "id": book.record.id,
        "name": book.record.name,
        "ruleset": ruleset.id,
        "ruleset_name": ruleset.name,
        "seq": book.seq,
        "round": state.round,
        "phase": state.phase,
        "status": book.status_text(),
        "ended": state.ended,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "sides": list(state.sides),
        "order": _order(state, ruleset, visible=None),
        "current": state.current,
        "combatants": combatants,
        "decision": (
            {
                "actor": decision.actor,
                "name": state.combatants[decision.actor].name,
                "kind": decision.kind,
                "prompt": decision.prompt,
                "player": state.combatants[decision.actor].player,
            }
            if decision
            else None
        ),
        "choices": choices,
        "choice_groups": groups,
        "waiting_for_dice": {"sides": waiting[0], "why": waiting[1]} if waiting else None,
        "can_undo": book._what(undo[-1]) if undo else None,
        "can_redo": book._what(book.redo[-1]) if book.redo else None,
        "map": hex_map(state, visible=None, bars={c["id"]: c["bar"] for c in combatants if c["bar"]}),
        "overrule": {
            "statuses": list(STATUSES),
            "templates": sorted(ruleset.templates()),
            "sides": list(state.sides),
            "can_end_round": state.round >= 1
            and state.phase not in ("round-end", "start")
            and not state.ended,
        },
    }
    if with_log:
        first = max(len(book.lines) - MAX_LOG, 0)
        view["log"] = [_gm_line(line, first + i) for i, line in enumerate(book.lines[first:])]
    return view


def _gm_line(line: Line, n: int) -> dict[str, Any]:
    e = line.event
    details: list[str] = []
    mods = getattr(e, "modifiers", ())
    for m in mods or ():
        try:
            v, why, rule = m
            details.append(f"{int(v):+d} {why} [{rule}]")
        except (TypeError, ValueError):
            details.append(str(m))
    roll = getattr(e, "roll", None)
    if isinstance(roll, dict):
        details.append(f"dice: {faces_text(roll)}")
    rule = getattr(e, "rule", "")
    if rule:
        details.append(f"rule: {rule}")
    return {"n": n, "batch": line.batch, "type": e.kind, "text": line.text, "details": details}


def _order(state: FightState, ruleset: Any, visible: set[str] | None) -> list[dict[str, Any]]:
    out = []
    for i, cid in enumerate(state.order):
        c = state.combatants.get(cid)
        if c is None or (visible is not None and cid not in visible):
            continue
        item = {
            "id": c.id,
            "name": c.name,
            "side": c.side,
            "current": i == state.turn and not state.ended,
            "acted": cid in state.acted,
            "out": ruleset.is_out(c),
        }
        if visible is None or c.player:
            item["initiative"] = state.initiative.get(cid)
        out.append(item)
    return out


# ----- the players -------------------------------------------------------------------------------------


def player_view(book: FightBook) -> dict[str, Any]:
    """What the players' link shows: built field by field from what players may see (players.py says what
    of the log). ``seq`` is the players' own version: it moves only when something they see changes."""
    state = book.state
    ruleset = book.ruleset
    seen = book.seen
    visible = {c.id for c in state.combatants.values() if not concealed(c, seen)}
    gone_sides = hidden_sides(state, visible)
    secret = secret_words(state, visible)
    colours = side_colours(state)
    combatants = []
    for c in state.combatants.values():
        if c.id not in visible:
            continue
        item: dict[str, Any] = {
            "id": c.id,
            "name": c.name,
            "side": c.side,
            "colour": colours.get(c.side, 0),
            "player": c.player,
            "status": c.status,
            "out": ruleset.is_out(c),
            "pos": list(c.pos) if c.pos is not None else None,
            "conditions": [
                {"name": d["name"], "rounds_left": d["rounds_left"]} for d in _conditions(c, state)
            ],
        }
        if c.player:
            item["card"] = _plain(ruleset.card(c))
            item["card_rows"] = _card(ruleset.card(c))
            item["bar"] = _bar(ruleset.card(c))  # a player character's own: the players may see it
            item.update(_card_parts(item["card_rows"], item["bar"] is not None))
        combatants.append(item)
    current = state.current if state.current in visible and not state.ended else None
    log: list[dict[str, Any]] = []
    for line in book.lines:
        # who is hidden now, and who was when it happened (a combatant seen later was not seen then)
        then = visible - line.hidden if line.hidden else visible
        words = secret_words(state, then) if line.hidden else secret
        text = line_for_players(line, state, then, words, book.record.name)
        if text is not None:
            log.append({"n": len(log), "text": text})
    winner = state.winner if state.winner not in gone_sides else None
    view: dict[str, Any] = {
        "id": book.record.id,
        "name": book.record.name,
        "ruleset": ruleset.id,
        "ruleset_name": ruleset.name,
        "round": state.round,
        "status": book.status_text() if winner == state.winner else f"ended after round {state.round}",
        "ended": state.ended,
        "winner": winner,
        "sides": [s for s in state.sides if s not in gone_sides],
        "order": _order(state, ruleset, visible=visible),
        "current": current,
        "combatants": combatants,
        "log": log[-MAX_LOG:],
        "map": hex_map(state, visible=visible, bars={c["id"]: c["bar"] for c in combatants if c.get("bar")}),
    }
    view["seq"] = players_version(view)
    return view


def players_version(view: dict[str, Any]) -> int:
    """A number that changes when (and only when) what the players see changes: a digest of their view, cut
    to 48 bits so that JavaScript reads it exactly."""
    import hashlib
    import json

    body = json.dumps({k: v for k, v in view.items() if k != "seq"}, sort_keys=True, default=str)
    return int.from_bytes(hashlib.blake2b(body.encode(), digest_size=6).digest(), "big")


def side_colours(state: FightState) -> dict[str, int]:
    """A colour number (0-3) per side: the players' side is always 0, the others follow in the encounter's
    order, so a table learns its colour once."""
    theirs = player_sides(state)
    out: dict[str, int] = {}
    k = 1
    for side in state.sides:
        if side in theirs:
            out[side] = 0
        else:
            out[side] = k % 4 or 1
            k += 1
    return out


# ----- the battle map ----------------------------------------------------------------------------------


def _xy(q: int, r: int) -> tuple[float, float]:
    return HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r


_OFFSETS = [
    (HEX * math.cos(math.radians(60 * i - 30)), HEX * math.sin(math.radians(60 * i - 30))) for i in range(6)
]


def _corners(x: float, y: float) -> str:
    return " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in _OFFSETS)


@lru_cache(maxsize=256)
def _cells(
    xmin: float, xmax: float, ymin: float, ymax: float, blocked: frozenset, cover: frozenset
) -> tuple[dict[str, Any], ...]:
    """The hexes of a map's field (the same field is drawn over and over: cached)."""
    cells = []
    rmin, rmax = math.floor(ymin / (HEX * 1.5)), math.ceil(ymax / (HEX * 1.5))
    for r in range(rmin, rmax + 1):
        qmin = math.floor(xmin / (HEX * math.sqrt(3)) - r / 2)
        qmax = math.ceil(xmax / (HEX * math.sqrt(3)) - r / 2)
        for q in range(qmin, qmax + 1):
            x, y = _xy(q, r)
            if not (xmin - HEX <= x <= xmax + HEX and ymin - HEX <= y <= ymax + HEX):
                continue
            kind = "blocked" if (q, r) in blocked else "cover" if (q, r) in cover else ""
            cells.append({"q": q, "r": r, "points": _corners(x, y), "kind": kind})
    return tuple(cells)


def _health(bar: dict[str, Any] | None) -> dict[str, Any] | None:
    """A token's health strip: the part of its damage bar still unused, in percent."""
    if bar is None:
        return None
    return {"left": max(0.0, round(100 - bar["fill"], 1)), "danger": bar["danger"], "text": bar["text"]}


def hex_map(
    state: FightState, visible: set[str] | None, bars: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Hexes (pointy-top, axial q, r) around everyone placed, with terrain and the tokens as SVG data.

    The view box fits every token shown; the field of hexes reaches a few hexes further, so that the map can
    be panned and zoomed out in the page. ``bars``: damage bars by combatant id (those the viewer may see),
    drawn as a health strip under the token. A fallen token lies small in its hex's corner, apart from
    whoever stands there."""
    terrain = state.extra.get("map", {}) if isinstance(state.extra.get("map"), dict) else {}
    blocked = {tuple(h) for h in terrain.get("blocked", [])}
    cover = {tuple(h) for h in terrain.get("cover", [])}
    shown = [
        c
        for c in state.combatants.values()
        if c.pos is not None and (visible is None or c.id in visible) and c.status not in ("fled",)
    ]
    shown.sort(key=lambda c: c.status == "active")  # the fallen lie under the standing
    points = [tuple(c.pos) for c in shown] + list(blocked) + list(cover)
    if not points:
        points = [(0, 0)]
    xs, ys = zip(*(_xy(q, r) for q, r in points), strict=True)
    pad = HEX * 1.7  # a hex and the name label under a token
    xmin, xmax = min(xs) - pad, max(xs) + pad
    ymin, ymax = min(ys) - pad, max(ys) + pad
    # at least a 6 x 5 field so a small fight still has room around it
    if xmax - xmin < HEX * 11:
        grow = (HEX * 11 - (xmax - xmin)) / 2
        xmin, xmax = xmin - grow, xmax + grow
    if ymax - ymin < HEX * 8:
        grow = (HEX * 8 - (ymax - ymin)) / 2
        ymin, ymax = ymin - grow, ymax + grow
    # whole hexes as bounds, so that small moves reuse the cached field
    xmin, xmax = math.floor(xmin / HEX) * HEX, math.ceil(xmax / HEX) * HEX
    ymin, ymax = math.floor(ymin / HEX) * HEX, math.ceil(ymax / HEX) * HEX
    room = HEX * FIELD_MARGIN
    field = (xmin - room, xmax + room, ymin - room, ymax + room)
    cells = [dict(c) for c in _cells(*field, frozenset(blocked), frozenset(cover))]
    tokens = []
    stacked: dict[tuple[int, int, bool], int] = {}
    colours = side_colours(state)
    for c in shown:
        q, r = c.pos  # type: ignore[misc]
        standing = c.status == "active"
        k = stacked.get((q, r, standing), 0)
        stacked[(q, r, standing)] = k + 1
        x, y = _xy(q, r)
        if standing:
            x, y = x + k * 7, y - k * 7
        else:  # the fallen in the hex's lower left, each a little further right
            x, y = x - HEX * 0.45 + k * 6, y + HEX * 0.45
        initials = "".join(w[0] for w in c.name.split()[:2]).upper() if c.name else c.id[:2]
        if c.name and c.name.split()[-1].isdigit():
            initials = c.name[0].upper() + c.name.split()[-1]
        tokens.append(
            {
                "id": c.id,
                "name": c.name,
                "label": initials[:3],
                "x": round(x, 1),
                "y": round(y, 1),
                "q": q,
                "r": r,
                "side": colours.get(c.side, 0),
                "current": c.id == state.current and not state.ended,
                "active": c.status == "active",
                "hidden": c.hidden if visible is None else False,
                "short": c.name if len(c.name) <= NAME_CHARS else c.name[: NAME_CHARS - 1] + "…",
                "health": _health((bars or {}).get(c.id)),
            }
        )
    return {
        "viewbox": f"{xmin:.0f} {ymin:.0f} {xmax - xmin:.0f} {ymax - ymin:.0f}",
        "field": f"{field[0]:.0f} {field[2]:.0f} {field[1] - field[0]:.0f} {field[3] - field[2]:.0f}",
        "cells": cells,
        "tokens": tokens,
        "light": terrain.get("light", "bright"),
    }
