"""Profile one benchmark stage with cProfile and print where the time goes.

    .venv/bin/python benchmarks/profile_stages.py replay [--hands 1000] [--ruleset openspiel-2.0]
    .venv/bin/python benchmarks/profile_stages.py validate|ingest|openspiel [--hands N]

The data is simulated exactly as ``tarock bench`` does (same seed), so the profile explains
the bench figures. Prints the top functions by cumulative and by own ("tottime") time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

from tarock_logs import bench
from tarock_logs.simulate import simulate_hands


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("stage", choices=("validate", "replay", "ingest", "baseline", "openspiel"))
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--ruleset", default=None)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "logs"
        folder.mkdir()
        if args.stage == "openspiel" or args.ruleset in ("openspiel", "openspiel-2.0"):
            sessions = bench.openspiel_sessions(args.hands, args.seed)
        else:
            sessions = simulate_hands(args.hands, args.seed, ruleset=args.ruleset)
        path = folder / "bench.jsonl"
        bench.write_sessions(sessions, path)
        files = [path]
        if args.stage == "validate":
            run = lambda: bench.stage_validate(files)  # noqa: E731
        elif args.stage == "replay":
            models = bench.parse_sessions(files)
            run = lambda: bench.stage_replay(models)  # noqa: E731
        elif args.stage == "ingest":
            run = lambda: bench.stage_ingest(folder, Path(tmp) / "p.duckdb")  # noqa: E731
        elif args.stage == "baseline":
            run = lambda: bench.stage_baseline(files, Path(tmp) / "b.duckdb")  # noqa: E731
        else:
            games = [g for s in sessions for g in bench.openspiel_action_ids(s)]
            run = lambda: bench.stage_openspiel(games)  # noqa: E731
        t0 = time.perf_counter()
        prof = cProfile.Profile()
        prof.enable()
        run()
        prof.disable()
        wall = time.perf_counter() - t0
        n = sum(len(s["hands"]) for s in sessions)
        print(f"{args.stage}: {n} hands, {wall:.2f} s under the profiler", file=sys.stderr)
        st = pstats.Stats(prof)
        st.sort_stats("cumulative").print_stats(args.top)
        st.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
