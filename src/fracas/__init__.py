"""fracas: tabletop RPG combat run exactly by the book."""

from __future__ import annotations

__version__ = "0.1.0"

from fracas import native as _native

_native.install()  # the compiled engine, when it is built and matches the sources (fracas.native)
