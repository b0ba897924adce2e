"""fracas: tabletop RPG combat run exactly by the book."""

from __future__ import annotations

__version__ = "0.1.0"
