"""Stream many hands through ``tarock ingest`` and report peak memory (target: 1M hands ≤ 1 GB).

    .venv/bin/python benchmarks/ingest_1m.py                    # 1,000,000 hands
    .venv/bin/python benchmarks/ingest_1m.py --hands 50000      # a smaller run

How: a pool of ``--pool`` hands is simulated once through the engine
(``tarock_logs.tools.simulate``, sessions of 16 hands at tables of 4); the pool is then written
out again and again, each copy with its own session and hand ids (so every hand has its own
content hash and is stored, not skipped as a duplicate), into files of ``--per-file`` hands.
One ``ingest()`` library call (the same as ``tarock ingest FOLDER --db DB``) then loads every
file into a fresh DuckDB file.

Peak memory is sampled from ``/proc/self/status`` (VmRSS) every 0.2 s by a thread, and checked
against ``ru_maxrss`` at the end; the RSS after each file is printed so a flat curve (memory
bounded by the batch size, not by the number of hands) can be seen. The output is one JSON
object on stdout; progress on stderr.
"""

from __future__ import annotations

import argparse
import datetime as dt
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson

from tarock_logs.tools.simulate import dumps_session, simulate_hands


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return 0.0


class Sampler(threading.Thread):
    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak = 0.0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, rss_mb())
            self.stop.wait(0.2)


def write_copies(
    lines: list[bytes],
    n_hands: int,
    per_file: int,
    folder: Path,
    prefix: bytes,
    dated: bool = False,
    stem: str = "part",
) -> int:
    """Write ``n_hands`` hands as renamed copies of the pool ``lines`` (16 hands each) into
    files of ``per_file`` hands; ``dated``: each copy's sessions get an event date a day later
    than the copy before (from 2024-01-01); ``stem``: the files' name before their number."""
    written = file_no = copy = in_file = 0
    out = None
    start = dt.date(2024, 1, 1)
    while written < n_hands:
        day = (start + dt.timedelta(days=copy)).isoformat().encode()
        for line in lines:
            if written >= n_hands:
                break
            if out is None:
                out = open(folder / f"{stem}-{file_no:05d}.jsonl", "wb")
                in_file = 0
            line = line.replace(prefix, prefix + b"c%d-" % copy)
            if dated:
                line = line.replace(b'"id":', b'"event":{"date":"' + day + b'"},"id":', 1)
            out.write(line)
            n = line.count(b'"number":')
            written += n
            in_file += n
            if in_file >= per_file:
                out.close()
                out = None
                file_no += 1
        copy += 1
    if out is not None:
        out.close()
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--pool", type=int, default=2000, help="distinct simulated hands to copy")
    ap.add_argument("--per-file", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=1, help="ingest worker processes")
    ap.add_argument("--workdir", type=Path, default=None, help="keep files and DB here")
    args = ap.parse_args()

    from tarock_logs.store.write.ingest import ingest

    tmp = Path(args.workdir or tempfile.mkdtemp(prefix="tarock-1m-"))
    folder = tmp / "logs"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        t0 = time.perf_counter()
        pool = simulate_hands(args.pool, args.seed)
        lines = [dumps_session(s) for s in pool]
        prefix = f'"sim-slovenian-{args.seed}-'.encode()
        written = write_copies(lines, args.hands, args.per_file, folder, prefix)
        t_gen = time.perf_counter() - t0
        size = sum(p.stat().st_size for p in folder.iterdir())
        print(
            f"generated {written} hands ({size / 1e6:.0f} MB) in {t_gen:.0f} s; rss "
            f"{rss_mb():.0f} MB before ingest",
            file=sys.stderr,
        )
        del pool, lines

        sampler = Sampler()
        sampler.start()
        curve: list[tuple[int, float]] = []
        done = [0]

        def progress(file: str, hands: int) -> None:
            done[0] += hands
            if hands and (not curve or done[0] - curve[-1][0] >= args.per_file):
                curve.append((done[0], round(rss_mb(), 1)))
                print(
                    f"  {done[0]:>9} hands  rss {curve[-1][1]:7.1f} MB  "
                    f"{done[0] / (time.perf_counter() - t1):7.0f} hands/s",
                    file=sys.stderr,
                )

        t1 = time.perf_counter()
        summary = ingest(
            [str(folder)], db=str(tmp / "big.duckdb"), jobs=args.jobs, progress=progress
        )  # type: ignore[arg-type]
        t_ingest = time.perf_counter() - t1
        sampler.stop.set()
        sampler.join()
        peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
        peak_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
        report = {
            "hands": written,
            "ingest_seconds": round(t_ingest, 1),
            "ingest_hands_per_s": round(written / t_ingest, 1),
            "peak_rss_mb": round(max(sampler.peak, peak_self), 1),
            "peak_rss_children_mb": round(peak_children, 1),
            "rss_curve": curve,
            "db_mb": round((tmp / "big.duckdb").stat().st_size / 1e6, 1),
            "summary": summary.to_dict(),
            "target_1m_le_1gb": None
            if written < 1_000_000
            else max(sampler.peak, peak_self) <= 1024,
        }
        sys.stdout.write(orjson.dumps(report).decode() + "\n")
    finally:
        if args.workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
