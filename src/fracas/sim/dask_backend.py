"""The Dask distributed backend: the same chunks as local processes, run on a cluster's workers.

``--scheduler tcp://host:8786`` connects to a running scheduler (``dask scheduler`` and ``dask worker``);
fracas must be installed on the workers. The scenarios are scattered to every worker once; each chunk is one
task. The chunks and their seeds are those of the local backends, so the report is the same.
"""

from __future__ import annotations

from typing import Any

from fracas.errors import UsageError
from fracas.sim.runner import OnDone, Scenario, Task, run_chunk


class DaskBackend:
    name = "dask"

    def __init__(self, scheduler: str | None = None, client: Any = None, timeout: str = "10s") -> None:
        if scheduler is None and client is None:
            raise UsageError("the Dask backend needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
        self.scheduler = scheduler
        self.client = client
        self.workers = 0
        self.timeout = timeout

    def _connect(self) -> tuple[Any, bool]:
        if self.client is not None:
            return self.client, False
        try:
            from distributed import Client
        except ImportError as exc:  # pragma: no cover - dask[distributed] is a dependency
            raise UsageError(f"the Dask backend needs dask[distributed]: {exc}") from None
        try:
            return Client(self.scheduler, timeout=self.timeout), True
        except (OSError, TimeoutError, ValueError) as exc:  # ValueError: not an address (no port, ...)
            raise UsageError(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from None

    def execute(self, scenarios: list[Scenario], tasks: list[Task], seed: int, on_done: OnDone) -> None:
        from distributed import as_completed

        client, owned = self._connect()
        futures: list[Any] = []
        try:
            self.workers = sum(client.nthreads().values())
            scattered = client.scatter(scenarios, broadcast=True, hash=False)
            index: dict[str, int] = {}
            for ti, (si, engine, chunk, count) in enumerate(tasks):
                f = client.submit(run_chunk, scattered[si], engine, seed, chunk, count, pure=False)
                futures.append(f)
                index[f.key] = ti
            for f in as_completed(futures):
                on_done(index[f.key], f.result())
        except BaseException:
            if futures:
                client.cancel(futures)
            raise
        finally:
            if owned:
                client.close()
