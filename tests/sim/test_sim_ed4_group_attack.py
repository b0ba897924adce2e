"""The attack side of the ED4 group kernel (fracas.sim.kernels.ed4_group_core): the pieces made faster keep
their meaning.

- the alias tables' interleaved cells give, word for word, the outcome Walker's alias method gives from the
  plain arrays (threshold, own value, alias);
- the fixed part of an acting-order key (init_key) orders combatants as round._initiative's
  initiative_order_key does after the result (p.372): player characters first, the higher Initiative step,
  then the higher Dexterity, then the id;
- the direction to a neighbour from a table is features/readers.direction's (_cdir).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("numba")

from fracas.sim.kernels import ed4_group_core as core  # noqa: E402
from fracas.sim.kernels.ed4_group import _tables  # noqa: E402

MASK64 = (1 << 64) - 1


def _xoshiro(seed: list[int], n: int) -> list[int]:
    """xoshiro256** in plain Python (Blackman and Vigna), to check the kernel's draws word by word."""
    s = list(seed)
    out = []
    for _ in range(n):
        r = (((s[1] * 5) & MASK64) << 7 | ((s[1] * 5) & MASK64) >> 57) & MASK64
        out.append((r * 9) & MASK64)
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & MASK64
    return out


@pytest.mark.parametrize("row", [1, 7, 11, 17, 40])
def test_interleaved_cells_draw_what_the_alias_method_draws(row: int) -> None:
    off, bits, cells, own, alias, _kbase = _tables("ed4", 1, 2, (), 20)
    shift = (64 - bits).astype(np.uint64)
    seed = [0x9E3779B97F4A7C15, 7, 11, 0xDEADBEEF]
    n = 3000
    got = core.sample_many(n, np.array(seed, dtype=np.uint64), row, off, shift, cells, own, alias)
    keep = cells[0::2]
    sh = int(shift[row])
    for i, u in enumerate(_xoshiro(seed, n)):
        k = int(off[row]) + (u >> sh)
        want = own[k] if (u & ((1 << sh) - 1)) < int(keep[k]) else alias[k]
        assert got[i] == want, (i, u)


def test_interleave_refuses_values_it_cannot_pack() -> None:
    keep = np.zeros(2, dtype=np.uint64)
    with pytest.raises(ValueError):
        core.interleave(keep, np.array([1, -1]), np.array([1, 1]))
    with pytest.raises(ValueError):
        core.interleave(keep, np.array([1, 1]), np.array([1, 1 << 31]))


fighter = st.tuples(st.booleans(), st.integers(0, 200), st.integers(0, 255))


@given(st.lists(fighter, min_size=2, max_size=30))
def test_init_key_orders_as_the_initiative_order(fs: list[tuple[bool, int, int]]) -> None:
    keys = [core.init_key(p, i, d, rank) for rank, (p, i, d) in enumerate(fs)]
    assert all(0 <= k < 1 << 27 for k in keys)
    by_key = sorted(range(len(fs)), key=lambda r: keys[r])
    by_rule = sorted(range(len(fs)), key=lambda r: (not fs[r][0], -fs[r][1], -fs[r][2], r))
    assert by_key == by_rule


def test_a_neighbours_direction_from_the_table_is_chapter_direction() -> None:
    for q in range(-3, 4):
        for r in range(-3, 4):
            if q == r == 0:
                continue
            assert core._fdir(5, -2, 5 + q, -2 + r) == core._cdir(5, -2, 5 + q, -2 + r), (q, r)
    for k in range(6):
        assert core._fdir(0, 0, core.DQ[k], core.DR[k]) == k
