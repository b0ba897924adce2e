"""Batch sampling: many rolls of one expression as a NumPy array, in one call (for the simulator).

>>> import numpy as np
>>> totals = sample_steps(14, 1_000_000, np.random.default_rng(7))
>>> totals.shape, totals.dtype, int(totals.min()) >= 2
((1000000,), dtype('int32'), True)

Each die is drawn as a uniform face; the dice that show their maximum are drawn again, only those, until
none explodes (the same distribution as rolling them one by one; no depth cap). A batch records totals
only; to keep every face of a roll use :meth:`fracas.dice.expr.Expr.roll`.
"""

from __future__ import annotations

import numpy as np

from fracas.dice.expr import Expr, Pool, parse
from fracas.errors import UsageError

RngLike = np.random.Generator | int | None


def _rng(rng: RngLike) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def _faces(rng: np.random.Generator, sides: int, shape: tuple[int, ...]) -> np.ndarray:
    # int16 is the quickest dtype NumPy's bounded integers offer here (faster than uint8 and int64)
    return rng.integers(1, sides + 1, size=shape, dtype=np.int16)


def sample_pool(pool: Pool, n: int, rng: RngLike = None) -> np.ndarray:
    """``n`` totals of a flattened pool (see :attr:`Expr.pool`), as an int32 array."""
    if n < 0:
        raise UsageError(f"cannot draw {n} rolls")
    g = _rng(rng)
    total = np.full(n, pool.modifier, dtype=np.int32)
    for sides, explode in pool.dice:  # one die at a time: memory stays at a few arrays of n
        row = _faces(g, sides, (n,))
        total += row
        if explode and sides > 1:
            idx = np.flatnonzero(row == sides)
            while idx.size:  # idx holds each roll once, so fancy-index adding is safe
                more = _faces(g, sides, idx.shape)
                total[idx] += more
                idx = idx[more == sides]
    if pool.floor is not None:
        np.maximum(total, pool.floor, out=total)
    return total


def sample(expr: str | Expr, n: int, rng: RngLike = None, edition: str = "ed4") -> np.ndarray:
    """``n`` totals of a dice expression ("step 14", "2d6+3", "d12!") as an int32 array."""
    e = expr if isinstance(expr, Expr) else parse(expr, edition)
    return sample_pool(e.pool, n, rng)


def sample_steps(step: int, n: int, rng: RngLike = None, edition: str = "ed4") -> np.ndarray:
    """``n`` Earthdawn step tests of one step (every die exploding, total at least 1) as an int32 array."""
    return sample(f"step {int(step)}", n, rng, edition)
