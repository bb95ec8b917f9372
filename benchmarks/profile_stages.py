"""Profile one benchmark stage with cProfile and print where the time goes.

    .venv/bin/python benchmarks/profile_stages.py replay [--hands 1000] [--ruleset openspiel-2.0]
    .venv/bin/python benchmarks/profile_stages.py validate|ingest|openspiel [--hands N]
    .venv/bin/python benchmarks/profile_stages.py replay --split [--ruleset openspiel-2.0]

The data is simulated exactly as ``tarock bench`` does (same seed), so the profile explains
the bench figures. Prints the top functions by cumulative and by own ("tottime") time.

``--split`` (replay only) measures instead, without a profiler, the Slovenian replay in µs
per hand: the reference engine alone (``new_hand``, every action pushed, ``score()``: what a
hand the native engine declines costs), the native whole hand alone (``_native/slohand.h``
and the score around it; the share it takes), the fast replay as it runs (the native whole
hand, or None), and what the replay layer adds (``HandReplay`` records, carried state). Each
is the best of ``--repeat`` with the cyclic garbage collector paused; the replay as the bench
runs it (collector on) is printed too.
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
from tarock_logs.tools.simulate import simulate_hands


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("stage", choices=("validate", "replay", "ingest", "baseline", "openspiel"))
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--ruleset", default=None)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--split", action="store_true", help="replay: µs per hand per fast-path step")
    ap.add_argument("--repeat", type=int, default=5)
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
        if args.split:
            if args.stage != "replay":
                ap.error("--split is for the replay stage")
            split_replay(bench.parse_sessions(files), args.repeat)
            return
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


def split_replay(models: list, repeat: int) -> None:
    """Print the Slovenian replay's parts in µs per hand (see the module docstring)."""
    import gc

    from tarock_logs.rules import get_engine
    from tarock_logs.rules.slovenian.fast import fastpath as fp
    from tarock_logs.verdict.convert import to_engine_action

    eng = get_engine("slovenian")
    assert eng is not None
    rs = eng.ruleset(models[0].ruleset, models[0].options or None)
    hands = [(len(s.players), h.dealer, h.deal.hands, h.deal.talon, h.actions,
              list(h.radelci_before) if h.radelci_before is not None else None)
             for s in models for h in s.hands]  # fmt: skip
    sessions = {n: eng.new_session(rs, n) for n in {x[0] for x in hands}}
    converted = [[to_engine_action(a) for a in x[4]] for x in hands]

    def run(variant: str) -> None:
        for (n, dealer, dealt, talon, actions, radelci), acts in zip(hands, converted, strict=True):
            ss = sessions[n]
            if radelci is not None:
                ss.radelci = radelci
            if variant == "fast":
                ss.fast_replay(dealer, dealt, talon, actions, to_engine_action)
            elif variant == "native":
                cfg = fp.native_config(ss.rules, n)
                if cfg is not None:
                    inputs = fp.HandInputs(ss.rules, n, list(ss.radelci), list(ss.misdeals),
                                           dealer, dealt, talon, actions,
                                           to_engine_action)  # fmt: skip
                    taken[0] += fp._native_hand(cfg, inputs) is not None
            else:
                h = ss.new_hand(dealer, [list(x) for x in dealt], list(talon))
                for a in acts:
                    h.push(a)
                h.score()

    # every variant once per round, rounds repeated: the machine's load drifts over seconds, so
    # each variant's best comes from the same stretch of time
    taken = [0]
    variants = [lambda: run("reference"), lambda: run("native"), lambda: run("fast"),
                lambda: bench.stage_replay(models)]  # fmt: skip
    best = [float("inf")] * (len(variants) + 1)
    for _ in range(repeat):
        gc.disable()
        try:
            for i, fn in enumerate(variants):
                gc.collect()
                t0 = time.perf_counter()
                fn()
                best[i] = min(best[i], time.perf_counter() - t0)
        finally:
            gc.enable()
        gc.collect()
        t0 = time.perf_counter()
        bench.stage_replay(models)  # as the bench runs it: the collector on
        best[-1] = min(best[-1], time.perf_counter() - t0)
    t = [b / len(hands) * 1e6 for b in best]
    share = taken[0] / (repeat * len(hands))
    steps = [
        ("reference engine (push, score)", t[0]),
        (f"native whole hand ({share:.0%} taken)", t[1]),
        ("fast replay (as it runs)", t[2]),
        ("replay layer (HandReplay, carry)", t[3] - t[2]),
        ("replay_session, collector paused", t[3]),
        ("replay_session as benched", t[4]),
    ]
    print(f"{len(hands)} hands, µs per hand (best of {repeat}):")
    for name, us in steps:
        print(f"  {name:<36} {us:7.1f}")


if __name__ == "__main__":
    main()
