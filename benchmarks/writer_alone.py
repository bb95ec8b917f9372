"""The writer of ``tarock ingest`` alone: what it costs to store batches the workers made.

    .venv/bin/python benchmarks/writer_alone.py FOLDER [--rounds 7] [--case fresh,unchanged,changed]
                                                       [--shape parallel|serial] [--json]

The batches of every file in FOLDER are made once (``ingest._shard_to_ipc``, what a worker
does: Arrow IPC folders under ``--cache``, default a temporary folder) and the ingest is then
run with a stand-in for the worker pool that hands those folders over at once, so only the
writer's work is timed: staging, the schema, ``begin_run``, reading the IPC files, the loads,
the commits, the facts, the tournaments, the ratings, the final checkpoint, the publish. The
real ``ingest()`` runs (lock, listing, digests, ``_process``, ``_Buffer``, ``_Writer``): only
the workers are replaced.

``--shape parallel`` (default) is the shape of ``tarock bench``'s ingest (2,000 hands in 4
files, 2 workers): the writer's DuckDB runs with the threads the workers leave it
(``SET threads``) until the pool is drained, and the units arrive as in a typical timeline
(``--ready``: which units find the next one already done, so one load takes both; default
``1000``: loads of 1,000, 500 and 500 hands). ``--shape serial``: the writer with every
core (as once the workers are done). ``--arrival T0,T1,…``: the units are done at these times
(seconds after the ingest started; the writer waits for them), e.g. workers three times as
fast as today's: ``0.08,0.08,0.16,0.16``.

Cases: ``fresh`` (a new store: the bench), ``unchanged`` (the same files again into the
store: every file skipped), ``changed`` (the store's sha256 of every file altered first, so
each file is deleted and loaded again and its hands come back unchanged).

Per step: calls, CPU time of the process (``time.process_time``: DuckDB's threads included)
and wall time, each exclusive of the steps inside it, medians over the rounds (one warm-up
round first); ``other`` is the rest of ``ingest()`` (the final checkpoint and close before
the writer names them, the per-batch collection, the lock, the listing). ``--json`` prints
one object.

``--compare OLD_TREE``: interleaved A/B runs of two trees, ``--pairs`` times the old tree's
package (``PYTHONPATH=OLD_TREE``) then this one (or ``--new NEW_TREE``), each a new process
of ``--rounds`` rounds; medians of the pairs. An old tree: ``git archive COMMIT tarock_logs |
tar -x -C OLD_TREE`` and the built ``tarock_logs/_native/_core*.so`` copied beside its
sources.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb

from tarock_logs.store import connect as dbc
from tarock_logs.store import sources
from tarock_logs.store.write import facts, plan, ratings, template, tournaments
from tarock_logs.store.write import ingest as ig

#: (owner, attribute, label): the steps timed (those that exist in the tree under test)
STEPS: list[tuple[Any, str, str]] = [
    (dbc, "begin_staging", "stage"),
    (template, "copy_template", "template"),
    (dbc, "connect_writer", "connect"),
    (ig, "migrate", "schema"),
    (ig._Writer, "begin_run", "begin_run"),
    (sources, "sha256_file", "sha256"),
    (ig, "_read_ipc", "ipc_read"),
    (ig._Buffer, "add", "buffer"),
    (ig._Buffer, "flush", "buffer"),
    (ig._Writer, "start_file", "start_file"),
    (ig._Writer, "start_files", "start_file"),
    (ig._Writer, "load", "load"),
    (ig._Writer, "commit", "commit"),
    (ig._Writer, "unchanged_file", "unchanged_file"),
    (ig._Writer, "unchanged_files", "unchanged_file"),
    (ig._Writer, "end_run", "end_run"),
    (facts, "add", "facts"),
    (facts, "refresh_summaries", "summaries"),
    (tournaments, "refresh", "tournaments"),
    (ratings, "refresh", "ratings"),
    (ig._Writer, "finish", "finish"),
    (dbc, "publish", "publish"),
]


class _Clock:
    """Exclusive CPU and wall time per label (a step's time less that of steps inside it)."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.stack: list[list[float]] = []  # per open step: [child cpu, child wall]

    def wrap(self, fn: Callable[..., Any], label: str) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            c0, w0 = time.process_time(), time.perf_counter()
            self.stack.append([0.0, 0.0])
            try:
                return fn(*args, **kwargs)
            finally:
                kids = self.stack.pop()
                c, w = time.process_time() - c0, time.perf_counter() - w0
                self.cpu[label] += c - kids[0]
                self.wall[label] += w - kids[1]
                self.calls[label] += 1
                if self.stack:
                    self.stack[-1][0] += c
                    self.stack[-1][1] += w

        return timed

    def reset(self) -> None:
        self.cpu.clear()
        self.wall.clear()
        self.calls.clear()


CLOCK = _Clock()


def _instrument() -> None:
    for owner, name, label in STEPS:
        fn = getattr(owner, name, None)
        if fn is not None:
            setattr(owner, name, CLOCK.wrap(fn, label))


class _Prepared:
    """The IPC folders of every file's batches, made once by ``_shard_to_ipc``."""

    def __init__(self, files: list[Path], cache: Path, batch_hands: int) -> None:
        self.folders: dict[str, list[str]] = {}
        for f in files:
            out = cache / f.name
            if not out.exists():
                out.mkdir(parents=True)
                folders, _ = ig._shard_to_ipc(str(f), str(out), batch_hands)
                (out / "folders.json").write_text(json.dumps(folders))
            self.folders[sources.file_key(f)] = json.loads((out / "folders.json").read_text())


PREPARED: list[_Prepared] = []
READY: list[set[int]] = [set()]
#: ``--arrival``: when each unit is done, seconds after the ingest started (None: at once)
ARRIVAL: list[list[float] | None] = [None]
START = [0.0]


class _FakeStream:
    """Stands in for ``ingest._ParallelStream``: every unit is done, its IPC folders are
    read by the writer as from a real worker (they are not deleted)."""

    def __init__(self, files: list[Path], jobs: int, out_dir: Path, batch_hands: int,
                 lock_fd: int | None = None) -> None:  # fmt: skip
        self.on_drain: Callable[[], None] | None = None
        self.units = [plan.Unit(f) for f in files]
        self.i = 0

    def __iter__(self) -> Iterator[tuple[Any, Iterator[Any], dict[str, int]]]:
        while self.i < len(self.units):
            unit = self.units[self.i]
            arrival = ARRIVAL[0]
            if arrival is not None:  # wait for the unit's worker
                time.sleep(max(0.0, START[0] + arrival[self.i] - time.perf_counter()))
            self.i += 1
            if self.i == len(self.units) and self.on_drain is not None:
                self.on_drain()
            folders = PREPARED[0].folders[sources.file_key(unit.path)]
            yield unit, (ig._read_ipc(d) for d in folders), {}

    def next_ready(self) -> bool:
        """Whether the unit after the one just given is done (``--arrival``, ``--ready``)."""
        arrival = ARRIVAL[0]
        if arrival is not None:
            return self.i < len(self.units) and time.perf_counter() >= START[0] + arrival[self.i]
        return self.i < len(self.units) and (self.i - 1) in READY[0]

    def close(self) -> None:
        pass


def _one(folder: Path, db: Path, jobs: int) -> tuple[float, float, dict[str, Any]]:
    CLOCK.reset()
    c0, w0 = time.process_time(), time.perf_counter()
    START[0] = w0
    summary = ig.ingest([str(folder)], db=str(db), jobs=jobs)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return cpu, wall, summary.to_dict()


def _alter_digests(db: Path) -> None:
    con = duckdb.connect(str(db))
    try:
        con.execute("UPDATE raw_logs SET sha256 = 'changed:' || sha256")
        con.execute("CHECKPOINT")
    finally:
        con.close()


def run(folder: Path, cases: list[str], rounds: int, jobs: int, work: Path) -> dict[str, Any]:
    base = work / "base.duckdb"
    if base.exists():
        base.unlink()
    _one(folder, base, jobs)  # warm-up (imports, template, caches), and the stored copy
    results: dict[str, Any] = {}
    samples: dict[str, list[tuple[float, float, dict[str, float], dict[str, float],
                                  dict[str, int]]]] = {c: [] for c in cases}  # fmt: skip
    counter = 0
    for _ in range(rounds):
        for case in cases:  # interleaved: each case sees the same stretch of the host
            counter += 1
            db = work / f"r{counter}.duckdb"
            if case != "fresh":
                shutil.copyfile(base, db)
                if case == "changed":
                    _alter_digests(db)
            cpu, wall, summary = _one(folder, db, jobs)
            samples[case].append((cpu, wall, dict(CLOCK.cpu), dict(CLOCK.wall),
                                  dict(CLOCK.calls)))  # fmt: skip
            results.setdefault(case, {})["summary"] = {
                k: v for k, v in summary.items() if k not in ("rejects", "db")
            }
            db.unlink(missing_ok=True)
    for case, runs in samples.items():
        labels = {k for r in runs for k in r[2]}
        wall_of = {k: statistics.median(r[3].get(k, 0.0) for r in runs) for k in labels}
        labels = sorted(labels, key=lambda k: -wall_of[k])
        steps = {}
        for label in labels:
            steps[label] = {
                "calls": runs[0][4].get(label, 0),
                "cpu_ms": 1000 * statistics.median(r[2].get(label, 0.0) for r in runs),
                "wall_ms": 1000 * statistics.median(r[3].get(label, 0.0) for r in runs),
            }
        other_cpu = [r[0] - sum(r[2].values()) for r in runs]
        other_wall = [r[1] - sum(r[3].values()) for r in runs]
        steps["other"] = {
            "calls": 1,
            "cpu_ms": 1000 * statistics.median(other_cpu),
            "wall_ms": 1000 * statistics.median(other_wall),
        }
        results[case].update(
            cpu_ms=1000 * statistics.median(r[0] for r in runs),
            wall_ms=1000 * statistics.median(r[1] for r in runs),
            cpu_best_ms=1000 * min(r[0] for r in runs),
            wall_best_ms=1000 * min(r[1] for r in runs),
            steps=steps,
        )
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--case", default="fresh,unchanged,changed")
    ap.add_argument("--shape", choices=("parallel", "serial"), default="parallel")
    ap.add_argument("--ready", default="1000", help="per unit: 1 if the next one is done")
    ap.add_argument("--arrival", default=None,
                    help="seconds after the start at which each unit is done, e.g. "
                         "0.08,0.08,0.16,0.16 (instead of --ready; the writer waits)")  # fmt: skip
    ap.add_argument("--batch-hands", type=int, default=2000)
    ap.add_argument("--cache", type=Path, default=None, help="where the IPC batches are kept")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--compare", type=Path, default=None, help="an old tree to compare with")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--new", type=Path, default=None, help="with --compare: the new tree")
    ap.add_argument("--quiet", type=float, default=0.0,
                    help="with --compare: before each run, wait (up to a minute) until the "
                         "cores were idle this share of a half second, e.g. 0.9")  # fmt: skip
    args = ap.parse_args()
    if args.compare is not None:
        compare(args)
        return
    files = sources.list_files([str(args.folder)], ())
    READY[0] = {i for i, c in enumerate(args.ready) if c == "1"}
    if args.arrival:
        ARRIVAL[0] = [float(x) for x in args.arrival.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or Path(tmp) / "batches"
        PREPARED.append(_Prepared(files, cache, args.batch_hands))
        _instrument()
        ig._ParallelStream = _FakeStream  # type: ignore[assignment,misc]
        jobs = 2 if args.shape == "parallel" else 1
        if jobs == 1:  # the serial path reads the files itself: hand it the batches instead
            ig.process.iter_batches = _serial_batches  # type: ignore[assignment]
        results = run(args.folder, args.case.split(","), args.rounds, jobs, Path(tmp))
    if args.json:
        print(json.dumps(results))
        return
    for case, r in results.items():
        print(f"\n{case}: CPU {r['cpu_ms']:.1f} ms (best {r['cpu_best_ms']:.1f}), "
              f"wall {r['wall_ms']:.1f} ms (best {r['wall_best_ms']:.1f}), "
              f"medians of {args.rounds}")  # fmt: skip
        print(f"  {'step':16s} {'calls':>5s} {'cpu ms':>8s} {'wall ms':>8s}")
        for label, s in r["steps"].items():
            print(f"  {label:16s} {s['calls']:5d} {s['cpu_ms']:8.1f} {s['wall_ms']:8.1f}")


def compare(args: argparse.Namespace) -> None:
    """Interleaved runs of the old tree and this one (``--compare``)."""
    here = args.new or Path(__file__).resolve().parents[1]
    cache = args.cache or Path(tempfile.gettempdir()) / "writer_alone_batches"
    argv = [sys.executable, str(Path(__file__).resolve()), str(args.folder), "--json",
            "--rounds", str(args.rounds), "--case", args.case, "--shape", args.shape,
            "--ready", args.ready, "--batch-hands", str(args.batch_hands),
            *(["--arrival", args.arrival] if args.arrival else []),
            "--cache", str(cache)]  # fmt: skip
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    for _ in range(args.pairs):
        for name, tree in (("old", args.compare), ("new", here)):
            _wait_quiet(args.quiet)
            env = dict(os.environ, PYTHONPATH=str(tree))
            out = subprocess.run(argv, env=env, check=True, capture_output=True, text=True)
            runs[name].append(json.loads(out.stdout))
    for case in args.case.split(","):
        print(f"\n{case}: medians of {args.pairs} interleaved pairs (ms)")
        print(f"  {'step':16s} {'old cpu':>8s} {'new cpu':>8s} {'old wall':>9s} {'new wall':>9s}")
        steps = {k for r in runs["old"] + runs["new"] for k in r[case]["steps"]}
        for label in ["TOTAL", *sorted(steps)]:
            cells = []
            for field in ("cpu_ms", "wall_ms"):
                for name in ("old", "new"):
                    vals = [
                        r[case][field]
                        if label == "TOTAL"
                        else r[case]["steps"].get(label, {}).get(field, 0.0)
                        for r in runs[name]
                    ]
                    cells.append(statistics.median(vals))
            print(f"  {label:16s} {cells[0]:8.1f} {cells[1]:8.1f} {cells[2]:9.1f} {cells[3]:9.1f}")


def _idle_share(seconds: float) -> float:
    """The share of the cores' time spent idle over ``seconds`` (Linux ``/proc/stat``)."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as fh:
            ticks = [int(x) for x in fh.readline().split()[1:]]
        return ticks[3] + ticks[4], sum(ticks)

    idle0, total0 = sample()
    time.sleep(seconds)
    idle1, total1 = sample()
    return (idle1 - idle0) / max(1, total1 - total0)


def _wait_quiet(share: float, limit: float = 60.0) -> None:
    """Wait until the machine is idle ``share`` of the time (other programs done), at most
    ``limit`` seconds."""
    if share <= 0 or not Path("/proc/stat").exists():
        return
    end = time.monotonic() + limit
    while _idle_share(0.5) < share and time.monotonic() < end:
        pass


def _serial_batches(path: Any, **_: Any) -> Iterator[Any]:
    for d in PREPARED[0].folders[sources.file_key(Path(path))]:
        yield ig._read_ipc(d)


if __name__ == "__main__":
    main()
