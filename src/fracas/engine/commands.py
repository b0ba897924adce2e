"""What a person or a tactic asks for, and what the engine waits for.

A :class:`Command` is plain data: ``Command("mica", "attack", target="ghoul-1", args={"weapon":
"broadsword"})``. Each ruleset names its actions and documents their ``args``; :meth:`Ruleset.choices`
lists the legal ones and :meth:`Ruleset.validate` explains why another is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Command:
    actor: str
    action: str
    target: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"actor": self.actor, "action": self.action}
        if self.target is not None:
            out["target"] = self.target
        if self.args:
            out["args"] = self.args
        if self.label:
            out["label"] = self.label
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Command:
        return cls(
            str(data["actor"]),
            str(data["action"]),
            data.get("target"),
            dict(data.get("args") or {}),
            str(data.get("label", "")),
        )

    def describe(self) -> str:
        if self.label:
            return self.label
        text = self.action
        if self.target:
            text += f" {self.target}"
        if self.args:
            text += " " + ", ".join(f"{k}={v}" for k, v in self.args.items())
        return text


@dataclass(frozen=True, slots=True)
class Decision:
    """The engine waits for ``actor`` to choose: ``kind`` is e.g. "declare", "act", "react"."""

    actor: str
    kind: str
    prompt: str = ""
