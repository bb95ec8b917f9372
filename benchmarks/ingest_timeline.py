"""The timeline of one ingest: when each writer step and each worker's unit ran, in seconds.

    .venv/bin/python benchmarks/ingest_timeline.py FOLDER [--jobs N] [--warm FILE_OR_FOLDER]

The folder is ingested twice into new databases in a temporary folder: first ``--warm``
(default: the folder itself) so that imports and caches are warm as in ``tarock bench``, then
the folder again, timed. Printed: each writer step (connect, schema, every load and commit,
the facts, the ratings, the publish) with its start and duration, each worker unit with its
start and duration, and the total. What it shows: whether the workers or the writer are on
the critical path, and how long the writer runs alone after the last worker is done (see
docs/performance.md, "Where the time goes").
"""

from __future__ import annotations

import argparse
import functools
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tarock_logs.store import connect as dbc
from tarock_logs.store.write import facts, ratings, tournaments
from tarock_logs.store.write import ingest as ig

T0 = [0.0]
STEPS: list[tuple[str, float, float]] = []


def _timed(owner: Any, name: str, label: str) -> None:
    fn: Callable[..., Any] = getattr(owner, name)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            STEPS.append((label, t - T0[0], time.perf_counter() - t))

    setattr(owner, name, wrapper)


#: where the worker processes write their units' times (the parent reads the file)
UNITS = [Path(tempfile.mkdtemp()) / "units.txt"]
_SHARD = ig._shard_to_ipc


def timed_shard(path: str, out: str, batch_hands: int, span: Any = None) -> Any:
    """:func:`tarock_logs.store.write.ingest._shard_to_ipc`, its start and duration noted."""
    t = time.perf_counter()
    result = _SHARD(path, out, batch_hands, span)
    with open(UNITS[0], "a") as fh:
        fh.write(f"{Path(path).name}\t{t - T0[0]:.3f}\t{time.perf_counter() - t:.3f}\t"
                 f"{os.getpid()}\n")  # fmt: skip
    return result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--warm", type=Path, default=None)
    args = ap.parse_args()

    for owner, name, label in (
        (dbc, "connect_writer", "connect"),
        (ig, "migrate", "schema"),
        (ig._Writer, "load", "load"),
        (ig._Writer, "commit", "commit"),
        (facts, "add", "facts"),
        (ratings, "refresh", "ratings"),
        (tournaments, "refresh", "tournaments"),
        (dbc, "publish", "publish"),
    ):
        _timed(owner, name, label)
    units = UNITS[0]
    ig._shard_to_ipc = timed_shard  # type: ignore[assignment]  # the workers are forked
    with tempfile.TemporaryDirectory() as tmp:
        ig.ingest([str(args.warm or args.folder)], db=f"{tmp}/warm.duckdb", jobs=args.jobs)
        STEPS.clear()
        units.write_text("")
        T0[0] = time.perf_counter()
        summary = ig.ingest([str(args.folder)], db=f"{tmp}/timed.duckdb", jobs=args.jobs)
        total = time.perf_counter() - T0[0]
    print(f"{'writer step':12s} {'start':>7s} {'seconds':>8s}")
    for label, start, dur in sorted(STEPS, key=lambda s: s[1]):
        print(f"{label:12s} {start:7.3f} {dur:8.3f}")
    print(f"\n{'worker unit':20s} {'start':>7s} {'seconds':>8s}  pid")
    for line in units.read_text().splitlines():
        name, start, dur, pid = line.split("\t")
        print(f"{name:20s} {float(start):7.3f} {float(dur):8.3f}  {pid}")
    print(f"\ntotal {total:.3f} s, {summary.hands_stored} hands stored")


if __name__ == "__main__":
    main()
