"""The encounter simulator: many seeded fights, statistics, sweeps; local processes or a Dask cluster.

See docs/sim.md. Entry points: :func:`fracas.sim.runner.simulate`, :func:`fracas.sim.runner.load_scenario`,
:func:`fracas.sim.report.to_json`.
"""

from __future__ import annotations
