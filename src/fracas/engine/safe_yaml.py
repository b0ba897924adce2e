"""Reading the text of an encounter file without trusting it: YAML or TOML, with bounded cost.

PyYAML's ``safe_load`` is safe from code execution, not from cost: nine levels of nine aliases ("billion
laughs") expand to 387 million nodes, a mapping with a key written twice silently keeps the second, and
a document nested a few hundred levels deep overflows the Python stack. This loader

- refuses a text longer than :data:`MAX_BYTES`,
- walks the parser's events (a loop, not a recursion) and refuses nesting deeper than :data:`MAX_DEPTH`
  before anything is composed,
- counts the nodes the document would have once every alias is expanded (each node's expanded size is
  worked out once, so the count itself is cheap) and refuses more than :data:`MAX_NODES`, and a
  recursive alias,
- refuses a mapping that gives a key twice, naming the key and both lines.

TOML has no aliases and refuses duplicate keys itself; its text gets the same size and depth limits.
Errors are :class:`~fracas.errors.EncounterFileError` naming the source, exit code 2.
"""

from __future__ import annotations

import tomllib
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from fracas.errors import EncounterFileError

MAX_BYTES = 1_000_000
"""The longest encounter text accepted (1 MB: the largest bundled example is under 4 kB)."""
MAX_DEPTH = 32
"""The deepest nesting of mappings and lists accepted (an encounter needs 7: sides, a side, combatants, an
entry, stats, attacks, an attack's range)."""
MAX_NODES = 200_000
"""The most values (mappings, lists and scalars, aliases expanded) one document may hold."""


class _Loader(yaml.SafeLoader):
    """The safe loader that refuses a mapping giving the same key twice."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:  # an unhashable key: the base class says so with its own message
                break
            line = key_node.start_mark.line + 1
            if first is not None:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"the key {key!r} is given twice (line {first} and line {line}); give it once",
                    key_node.start_mark,
                )
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


def _check_events(text: str, source: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH, from the parser's event stream (no recursion, no nodes)."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                line = event.start_mark.line + 1 if event.start_mark else 0
                raise EncounterFileError(
                    f"{source}: not accepted: mappings and lists nested more than {MAX_DEPTH} levels deep "
                    f"(line {line}; the limit is {MAX_DEPTH})"
                )
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1


def _expanded_size(root: Node, source: str) -> None:
    """Refuse a document of more than MAX_NODES values once its aliases are expanded, or a recursive one.

    An alias is the same node object as its anchor, so each node's expanded size is computed once (an
    explicit stack, no recursion) and reused wherever it is referred to again."""
    size: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        nid = id(node)
        if done:
            on_path.discard(nid)
            if isinstance(node, MappingNode):
                kids = [n for pair in node.value for n in pair]
            else:
                kids = list(node.value)
            total = 1 + sum(size[id(k)] for k in kids)
            if total > MAX_NODES:
                raise EncounterFileError(
                    f"{source}: not accepted: the document holds more than {MAX_NODES} values once its "
                    f"aliases are expanded (line {node.start_mark.line + 1}; the limit is {MAX_NODES})"
                )
            size[nid] = total
            continue
        if nid in size:
            continue
        if isinstance(node, ScalarNode):
            size[nid] = 1
            continue
        if nid in on_path:
            raise EncounterFileError(
                f"{source}: not accepted: a recursive alias (line {node.start_mark.line + 1}): a value "
                "cannot contain itself"
            )
        on_path.add(nid)
        stack.append((node, True))
        kids = [n for pair in node.value for n in pair] if isinstance(node, MappingNode) else node.value
        assert isinstance(node, (MappingNode, SequenceNode))
        for k in kids:
            if id(k) in on_path:
                raise EncounterFileError(
                    f"{source}: not accepted: a recursive alias (line {k.start_mark.line + 1}): a value "
                    "cannot contain itself"
                )
            if id(k) not in size:
                stack.append((k, False))


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """A YAML error in one line: where (line and column, counted from 1) and what."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return where + (f"{problem} ({context})" if context else problem)


def loads(text: str, source: str, *, toml: bool = False) -> Any:
    """The value of an encounter text (YAML, or TOML when ``toml``), within the limits above.

    ``source`` names the text in errors (a file name, or ``<upload>``)."""
    if len(text) > MAX_BYTES:
        raise EncounterFileError(
            f"{source}: not accepted: the text is {len(text)} characters long (the limit is {MAX_BYTES})"
        )
    if toml:
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise EncounterFileError(f"{source}: not valid TOML: {exc}") from None
        except RecursionError:
            raise EncounterFileError(
                f"{source}: not accepted: tables and arrays nested too deep (the limit is {MAX_DEPTH})"
            ) from None
    try:
        _check_events(text, source)
        loader = _Loader(text)
        try:
            root = loader.get_single_node()
            if root is None:
                return None
            _expanded_size(root, source)
            return loader.construct_document(root)
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        raise EncounterFileError(f"{source}: not valid YAML: {_yaml_problem(exc)}") from None
    except RecursionError:  # a guard: the depth limit above keeps the composer far from the stack's end
        raise EncounterFileError(
            f"{source}: not accepted: nested too deep (the limit is {MAX_DEPTH})"
        ) from None


def check_value(data: Any, source: str) -> None:
    """The same limits on a value that did not come from YAML text (JSON from the web, an export's
    encounter): nesting at most MAX_DEPTH deep, at most MAX_NODES values. A loop, not a recursion."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    count = 0
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise EncounterFileError(f"{source}: not accepted: more than {MAX_NODES} values (the limit)")
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise EncounterFileError(
                    f"{source}: not accepted: mappings and lists nested more than {MAX_DEPTH} levels deep "
                    f"(the limit is {MAX_DEPTH})"
                )
            items = value.values() if isinstance(value, dict) else value
            stack.extend((v, depth + 1) for v in items)
