"""kill -9 / restart trials of a 2-worker ingest (issue 14: "20 of 20").

Method: simulate ``--hands`` Slovenian hands into 4 ``.jsonl`` files; ingest them once
serially into a reference store (the clean ingest), and time one 2-worker ingest. Then, per
trial: start ``tarock ingest LOGS --db DB --jobs 2`` (every third trial on top of a store that
already holds the first file, so the killed ingest works on a staging copy of a published
file), ``kill -9`` it (odd trials: at a random moment while its two workers run; even trials:
at a uniformly random moment of the whole run, start-up and the writer's tail included), and
run a plain
``tarock ingest LOGS --db DB`` (no ``--wait``, no manual step). A trial passes when the re-run
exits 0, the store equals the clean ingest table by table (no hand lost or duplicated), nothing
is left next to the database (no staging copy, WAL, spill folder or lock file) and none of the
killed ingest's workers is still running.

Run: ``.venv/bin/python benchmarks/kill_restart.py [--trials 20] [--hands 2000] [--seed 1]``
Prints one line per trial and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tarock_logs.store.write.ingest import ingest  # noqa: E402
from tarock_logs.tools.simulate import dumps_session, simulate_hands  # noqa: E402
from tests.support.store_fixtures import stored_rows  # noqa: E402

TAROCK = Path(sys.executable).with_name("tarock")


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if len(fields) > 1 and int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _cmd(logs: Path, db: Path, *extra: str) -> list[str]:
    return [str(TAROCK), "ingest", str(logs), "--db", str(db), "-q", *extra]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        logs = base / "logs"
        logs.mkdir()
        sessions = simulate_hands(args.hands, args.seed, hands_per_session=16)
        per = -(-len(sessions) // 4)
        for i in range(4):
            part = sessions[i * per : (i + 1) * per]
            (logs / f"f{i}.jsonl").write_bytes(b"".join(dumps_session(s) for s in part))
        clean_db = base / "clean.duckdb"
        ingest([logs], db=clean_db, jobs=1)
        clean = stored_rows(clean_db)
        timed = base / "timed.duckdb"
        t0 = time.monotonic()
        subprocess.run(_cmd(logs, timed, "--jobs", "2"), check=True, stdout=subprocess.DEVNULL)
        run_s = time.monotonic() - t0
        print(f"{args.hands} hands in 4 files; a 2-worker ingest takes {run_s:.2f} s")
        passed = 0
        results = []
        for trial in range(1, args.trials + 1):
            folder = base / f"trial-{trial:02d}"
            folder.mkdir()
            db = folder / "t.duckdb"
            on_top = trial % 3 == 0
            if on_top:
                ingest([logs / "f0.jsonl"], db=db, jobs=1)
            proc = subprocess.Popen(
                _cmd(logs, db, "--jobs", "2"),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            started = time.monotonic()
            if trial % 2:  # while the workers run
                while len(_children(proc.pid)) < 2 and proc.poll() is None:
                    time.sleep(0.01)
                time.sleep(rng.uniform(0.0, 0.5 * run_s))
            else:
                time.sleep(rng.uniform(0.05, run_s))
            after = time.monotonic() - started
            workers = _children(proc.pid)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            rerun = subprocess.run(_cmd(logs, db), capture_output=True, text=True)
            time.sleep(0.2)
            alive = [w for w in workers if _running(w)]
            left = sorted(p.name for p in folder.iterdir() if p.name != "t.duckdb")
            same = rerun.returncode == 0 and stored_rows(db) == clean
            ok = same and not left and not alive
            passed += ok
            results.append(
                {
                    "trial": trial,
                    "killed_after_s": round(after, 2),
                    "on_top_of_a_store": on_top,
                    "workers_at_kill": len(workers),
                    "rerun_exit": rerun.returncode,
                    "store_equals_clean_ingest": same,
                    "left_behind": left,
                    "workers_still_running": len(alive),
                    "ok": ok,
                }
            )
            print(
                f"trial {trial:2d}: killed after {after:.2f} s ({len(workers)} workers"
                f"{', on a store' if on_top else ''}): re-run exit {rerun.returncode}, "
                f"store {'=' if same else '≠'} clean, left {left or 'nothing'}, "
                f"{len(alive)} workers running -> {'ok' if ok else 'FAIL'}"
            )
        summary = {"trials": args.trials, "passed": passed, "hands": args.hands, "runs": results}
        print(json.dumps({k: v for k, v in summary.items() if k != "runs"}))
        if passed != args.trials:
            sys.exit(1)


if __name__ == "__main__":
    main()
