"""A Dask ``LocalCluster`` of 2 worker processes for the scale-out tests, run in a process of
its own, ``tarock`` run as a command against it, and the store's every row for comparing two
databases.

The test processes never import Dask themselves: the ingest tests fork pool workers, and a
process that has run a Dask client (event loops, sockets, finalizers) is not safe to fork.
Run as a script, this module starts the cluster, prints its scheduler's address and keeps it
up until its standard input closes.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

#: the ``tarock`` command of the environment running the tests
TAROCK = Path(sys.executable).with_name("tarock")


def needs_dask() -> None:
    """Skip the test when Dask is not installed (without importing it)."""
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("dask[distributed] is not installed")


class _Cluster:
    """The cluster process and its scheduler's address."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        self.address = self.proc.stdout.readline().strip()
        if not self.address.startswith("tcp://"):
            self.close()
            raise AssertionError(f"the cluster did not start: {self.address!r}")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


#: the cluster of the Dask modules' tests in this process (None: not started, or closed)
_shared: _Cluster | None = None

#: the tests that share it (node id prefixes): tests/conftest.py closes it once the
#: next test is none of theirs, and runs them in one xdist group (``SHARED_GROUPS``)
MODULES = (
    "tests/store/test_store_dask.py::",
    "tests/cli/test_dask_cli.py::",
    "tests/cli/test_bench.py::test_bench_with_dask_",  # (the bench's one Dask test)
)


def close_shared_cluster() -> None:
    """Close the shared cluster, if one is up (tests/conftest.py: after the last test of
    :data:`MODULES` in a row, and at the session's end)."""
    global _shared
    if _shared is not None:
        cluster, _shared = _shared, None
        cluster.close()
    assert "distributed" not in sys.modules  # (see the module's docstring)


@pytest.fixture(scope="module")
def dask_address() -> str:
    """The scheduler address of a local cluster of 2 single-threaded worker processes (in a
    process of its own). One cluster serves the modules of :data:`MODULES` that run one
    after the other (both in one xdist group: one cluster start, not one per module); it is
    closed once the next test belongs to neither (tests/conftest.py)."""
    global _shared
    needs_dask()
    if _shared is None:
        _shared = _Cluster()
    return _shared.address


def tarock(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``tarock ARGS…`` (a process of its own), its output captured."""
    return subprocess.run([str(TAROCK), *args], capture_output=True, text=True, timeout=600)


def every_row(db: Path, *, raw_keys: bool = False) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the store at ``db`` (the times of writing left out),
    ordered by all its columns: two stores with equal ``every_row`` hold the same data, the
    hand and session keys and the derived facts included (not the store's own random
    pseudonym key).

    A ``player_key`` is given as the player's id it stands for (``raw_keys``: as stored):
    the writer numbers a batch's new players in id order, so the numbers depend on where the
    batches start (a serial ingest's batches are not a parallel one's), the players not."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    con.execute("SET enable_progress_bar = false")
    try:
        tables = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
            "AND table_type = 'BASE TABLE' ORDER BY table_name").fetchall()]  # fmt: skip
        out: dict[str, list[tuple[Any, ...]]] = {}
        for t in tables:
            cols = [r[0] for r in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                "AND table_schema = 'main' AND data_type NOT LIKE 'TIMESTAMP%' "
                "ORDER BY ordinal_position", [t]).fetchall()]  # fmt: skip
            exprs = []
            for c in cols:
                if c == "player_key" and not raw_keys:
                    if t == "players":
                        continue  # the row has the id itself
                    c = "(SELECT p.player_id FROM players p WHERE p.player_key = t.player_key)"
                else:
                    c = f't."{c}"'
                exprs.append(c)
            # every store its own pseudonym key (random): not part of the data compared
            where = " WHERE t.key <> 'pseudonym_key'" if t == "meta" else ""
            out[t] = con.execute(
                f'SELECT {", ".join(exprs)} FROM "{t}" t{where} ORDER BY ALL'
            ).fetchall()
        return out
    finally:
        con.close()


def _serve() -> None:
    from distributed import LocalCluster

    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",  # (a free port: never a clash)
        scheduler_port=0,
        silence_logs=40,
    )
    try:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()  # until the tests close it
    finally:
        cluster.close()


if __name__ == "__main__":
    _serve()
