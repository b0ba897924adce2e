"""Skipping numba's BLAS probe (kernels.skip_numba_blas_probe) leaves scipy.linalg importable afterwards."""

from __future__ import annotations

import subprocess
import sys

import pytest

CODE = """
import sys
from fracas.sim import kernels
kernels.skip_numba_blas_probe()
assert "numba.np.arraymath" in sys.modules
assert "scipy.linalg" not in sys.modules, "the probe was not skipped"
import scipy.linalg
import scipy.linalg.cython_blas
print(scipy.linalg.cython_blas.__name__)
"""


def test_scipy_linalg_still_imports_after_the_skipped_probe() -> None:
    pytest.importorskip("numba")
    pytest.importorskip("scipy")
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "scipy.linalg.cython_blas"
