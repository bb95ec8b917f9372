"""Server time of one replay step in the dashboard (target: under 150 ms).

Method: ingest ``sample_logs/`` (without ``malformed/``) into a fresh DuckDB file, open the
Replay page with Streamlit's AppTest on the hand with the most actions, warm it up (the first
run builds the cached replay), then click "Next" through the hand and time each ``run()``:
the whole page script (widgets, SVG cards, tables, legal alternatives) as the server runs it
for one step, without the browser's rendering. Also times the cold build of one hand's
replay (``hand_view``: rebuild the session from the store + replay with views), paid once per
hand and database version.

Run: ``.venv/bin/python benchmarks/dashboard_step.py [--db FILE] [--steps N]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, help="an existing database (default: ingest sample_logs)")
    ap.add_argument("--steps", type=int, default=40)
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    db = args.db
    if db is None:
        db = Path(tmp.name) / "bench.duckdb"
        tarock = Path(sys.executable).with_name("tarock")
        samples = str(ROOT / "sample_logs")
        subprocess.run(
            [str(tarock), "ingest", samples, "--exclude", "malformed", "--db", str(db)],
            check=True,
            capture_output=True,
        )
    os.environ["TAROCK_DB"] = str(db)

    import duckdb
    from streamlit.testing.v1 import AppTest

    from dashboard.view_model import hand_view
    from tarock_logs.store.read.queries import connect_reader

    con = duckdb.connect(str(db), read_only=True)
    hand_id, n_actions, n_hands = con.execute(
        "SELECT hand_id, n_actions, (SELECT count(*) FROM hands) FROM hands "
        "WHERE verified ORDER BY n_actions DESC LIMIT 1"
    ).fetchall()[0]
    con.close()

    ro = connect_reader(db)
    cold = []
    for _ in range(5):
        t0 = time.perf_counter()
        hand_view(ro.cursor(), hand_id)
        cold.append(time.perf_counter() - t0)
    ro.close()

    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("app_pages/replay.py")
    at.query_params["hand"] = hand_id
    at.query_params["step"] = "0"
    at.run()
    at.run()  # warm: cached replay, imports
    times = []
    for _ in range(min(args.steps, n_actions)):
        t0 = time.perf_counter()
        at.button(key="forward").click().run()
        times.append(time.perf_counter() - t0)
        assert not at.exception, [e.value for e in at.exception]
    times.sort()
    ms = [t * 1000 for t in times]
    p95 = ms[max(0, int(len(ms) * 0.95) - 1)]
    print(f"database: {n_hands} hands; hand {hand_id[:12]}… with {n_actions} actions")
    print(
        f"replay step (page run, AppTest): n={len(ms)} median {statistics.median(ms):.0f} ms, "
        f"p95 {p95:.0f} ms, max {ms[-1]:.0f} ms"
    )
    print(f"cold hand build (hand_view): median {statistics.median(cold) * 1000:.0f} ms")
    tmp.cleanup()


if __name__ == "__main__":
    main()
