"""The long fuzz run of the log reader (issue 14): mutated logs until one breaks an invariant.

    .venv/bin/python benchmarks/fuzz.py                      # 1,000,000 mutants, seed 1
    .venv/bin/python benchmarks/fuzz.py --mutants 20000 --seed 7
    make fuzz                                                # the same, at nice 19

Each mutant comes from ``tests/support/log_mutator.Mutator`` (structure-aware: values, keys and
lists of valid sessions changed where they are, written many ways, then sometimes bytes
flipped, cut or spliced; seeds from ``sample_logs/`` and ``tests/log/fuzz_corpus/``) and is
checked by ``tests/support/log_mutator.check``: the reader never raises and every error is
located; every accepted session is written in canonical form and reads back equal; a one-line
record reads the same as ``.json`` and ``.jsonl``; the audit never raises on an accepted
session. A mutant that takes longer than ``--timeout`` seconds is a hang.

Every crash, broken invariant or hang is written to ``--crashes`` (the input, and a ``.txt``
with how it was made and the traceback) for triage into ``tests/log/fuzz_regressions/``. The
report is one JSON object on stdout (progress on stderr): mutants, records, sessions accepted,
hands audited, crashes, hangs, the slowest mutant, mutants per second, the most frequent
error codes (what the mutants reached).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tarock_logs.log.reader import read_bytes  # noqa: E402
from tests.support.log_mutator import InvariantBroken, Mutant, Mutator, check  # noqa: E402


class _Hang(Exception):
    """A mutant ran past the timeout."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Hang


def _save(folder: Path, m: Mutant, what: str, detail: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(m.data).hexdigest()[:12]
    name = f"{what}-{digest}.{m.kind}"
    (folder / name).write_bytes(m.data)
    (folder / f"{name}.txt").write_text(
        f"{what}\nrecipe: {m.recipe}\n\n{detail}\n", encoding="utf-8", errors="backslashreplace"
    )
    return name


def run(
    mutants: int, seed: int, timeout: float, crashes: Path, every: int, seconds: float = 0.0
) -> dict[str, Any]:
    mutator = Mutator(seed)
    signal.signal(signal.SIGALRM, _alarm)
    counts: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    found: list[dict[str, str]] = []
    slowest = (0.0, "")
    t_start = time.monotonic()
    done = 0
    for i in range(mutants):
        if seconds and time.monotonic() - t_start > seconds:
            break
        done = i + 1
        try:
            m = mutator.mutant()
        except Exception:  # noqa: BLE001 - a fault of the mutator, not of the reader
            counts["mutator_errors"] += 1
            if counts["mutator_errors"] <= 5:
                print(traceback.format_exc(), file=sys.stderr, flush=True)
            continue
        t0 = time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            out = check(m, audit=True)
            counts["records"] += out.records
            counts["accepted"] += out.accepted
            counts["audited_hands"] += out.audited_hands
        except _Hang:
            counts["hangs"] += 1
            found.append({"hang": _save(crashes, m, "hang", f"over {timeout} s")})
        except InvariantBroken as exc:
            counts["invariants_broken"] += 1
            found.append({"invariant": _save(crashes, m, "invariant", repr(exc))})
        except Exception:  # noqa: BLE001 - a crash is what this run looks for
            counts["crashes"] += 1
            found.append({"crash": _save(crashes, m, "crash", traceback.format_exc())})
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        took = time.monotonic() - t0
        if took > slowest[0]:
            slowest = (took, " / ".join(m.recipe))
        if i % 50 == 0:  # what the mutants reach (sampled: reading again costs)
            for rec in read_bytes(m.data, kind=m.kind):
                codes.update(e.code for e in rec.all_errors())
        if every and (i + 1) % every == 0:
            rate = (i + 1) / (time.monotonic() - t_start)
            print(f"{i + 1} mutants, {rate:.0f}/s, {dict(counts)}", file=sys.stderr, flush=True)
    elapsed = time.monotonic() - t_start
    return {
        "mutants": done,
        "mutants_asked": mutants,
        "seed": seed,
        "records": counts["records"],
        "sessions_accepted": counts["accepted"],
        "hands_audited": counts["audited_hands"],
        "crashes": counts["crashes"],
        "invariants_broken": counts["invariants_broken"],
        "hangs": counts["hangs"],
        "mutator_errors": counts["mutator_errors"],
        "found": found,
        "timeout_s": timeout,
        "slowest_mutant_s": round(slowest[0], 3),
        "slowest_mutant": slowest[1][:300],
        "elapsed_s": round(elapsed, 1),
        "mutants_per_s": round(done / elapsed, 1) if elapsed else None,
        "error_codes_sampled": dict(codes.most_common(40)),
    }


def _merge(parts: list[dict[str, Any]], seed: int, elapsed: float) -> dict[str, Any]:
    """One report from the workers' reports."""
    out: dict[str, Any] = {"mutants": sum(p["mutants"] for p in parts), "seed": seed}
    for key in ("records", "sessions_accepted", "hands_audited", "crashes",
                "invariants_broken", "hangs", "mutator_errors"):  # fmt: skip
        out[key] = sum(p[key] for p in parts)
    out["found"] = [f for p in parts for f in p["found"]]
    out["timeout_s"] = parts[0]["timeout_s"]
    worst = max(parts, key=lambda p: p["slowest_mutant_s"])
    out["slowest_mutant_s"], out["slowest_mutant"] = (
        worst["slowest_mutant_s"],
        worst["slowest_mutant"],
    )
    out["workers"] = len(parts)
    out["worker_seeds"] = [p["seed"] for p in parts]
    out["elapsed_s"] = round(elapsed, 1)
    out["mutants_per_s"] = round(out["mutants"] / elapsed, 1) if elapsed else None
    codes: Counter[str] = Counter()
    for p in parts:
        codes.update(p["error_codes_sampled"])
    out["error_codes_sampled"] = dict(codes.most_common(40))
    return out


def _worker(args: tuple[int, int, float, Path, int, float]) -> dict[str, Any]:
    return run(*args)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds before a hang")
    ap.add_argument(
        "--crashes", type=Path, default=Path(tempfile.gettempdir()) / "tarock-fuzz-found"
    )
    ap.add_argument("--progress", type=int, default=10_000, help="report every N mutants")
    ap.add_argument("--workers", type=int, default=1, help="processes (seeds SEED, SEED+1, ...)")
    ap.add_argument(
        "--seconds", type=float, default=0.0, help="stop after this long (0: when all are done)"
    )
    args = ap.parse_args()
    if args.workers <= 1:
        report = run(
            args.mutants, args.seed, args.timeout, args.crashes, args.progress, args.seconds
        )
    else:
        import multiprocessing

        share = [args.mutants // args.workers + (k < args.mutants % args.workers)
                 for k in range(args.workers)]  # fmt: skip
        jobs = [(n, args.seed + k, args.timeout, args.crashes, args.progress, args.seconds)
                for k, n in enumerate(share)]  # fmt: skip
        t0 = time.monotonic()
        with multiprocessing.Pool(args.workers) as pool:
            parts = pool.map(_worker, jobs)
        report = _merge(parts, args.seed, time.monotonic() - t0)
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    bad = report["crashes"] + report["invariants_broken"] + report["hangs"]
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
