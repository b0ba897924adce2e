"""Line and column, in an encounter file's YAML, of the field path an error names.

An error line reads ``FILE: sides.1.combatants.0.stats.wound_threshold: what is wrong``; the path is looked
up in the file's YAML nodes (which carry their position), and `` (line L, column C)`` is added to the line,
so an editor or a person finds the spot. A path that leads nowhere (a missing field) is placed at the
nearest mapping or list that exists on it.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

_TOP = ("version", "ruleset", "name", "description", "options", "max_rounds", "map", "sides", "settings")
_PATH = re.compile(r"^(?P<head>.*?: )(?P<path>(?:" + "|".join(_TOP) + r")(?:\.[^\s:]+)*)(?P<tail>: .*)$")


def node_at(root: Node, path: list[str]) -> Node:
    """The node a dotted path reaches, or the last node on the way that exists."""
    node = root
    for part in path:
        if isinstance(node, MappingNode):
            found = next((v for k, v in node.value if getattr(k, "value", None) == part), None)
            if found is None:
                return node
            node = found
        elif isinstance(node, SequenceNode) and part.isdigit() and int(part) < len(node.value):
            node = node.value[int(part)]
        else:
            return node
    return node


def with_positions(message: str, path: str | Path) -> str:
    """``message`` (one error a line) with the line and column of each line's field path in ``path``."""
    p = Path(path)
    if p.suffix.lower() == ".toml":
        return message
    try:
        root = yaml.compose(p.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return message
    if root is None:
        return message
    out = []
    for line in message.splitlines():
        m = _PATH.match(line)
        if m is None or "(line " in line:
            out.append(line)
            continue
        node = node_at(root, m.group("path").split("."))
        mark = node.start_mark
        out.append(f"{line} (line {mark.line + 1}, column {mark.column + 1})")
    return "\n".join(out)
