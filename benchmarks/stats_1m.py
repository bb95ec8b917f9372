"""Statistics on a million hands (issue 18): build the store from the simulator, then time
every dashboard query and page and ``tarock stats``, cold and warm (the figures are in
docs/performance.md).

    .venv/bin/python benchmarks/stats_1m.py build --workdir /tmp/tarock-1m       # ~1M hands
    .venv/bin/python benchmarks/stats_1m.py measure --workdir /tmp/tarock-1m     # the timings
    .venv/bin/python benchmarks/stats_1m.py all --workdir /tmp/tarock-1m --hands 50000
    .venv/bin/python benchmarks/stats_1m.py audit --workdir /tmp/tarock-1m       # tarock audit

**build**: a pool of ``--pool`` simulated Slovenian hands (``tarock_logs.tools.simulate``,
sessions of 16 at tables of 4, players drawn from 24 names) is written out again and again
with new session and hand ids (every hand stored, none a duplicate) into files of
``--per-file`` hands, each copy dated one day later; then ``tarock ingest`` (the CLI, default
workers) loads them into a fresh store. The proportional set size (PSS) of the whole ingest
process tree is sampled every 0.5 s from ``/proc/<pid>/smaps_rollup`` (target: ≤ 1 GB).

**measure**: in a fresh process each query of the read API (``store.queries``) and each
statistics section runs once (cold: the first query of the process, data not in DuckDB's
buffers) and then five times (warm: the median); ``tarock stats --format json`` runs as a
subprocess (wall time and peak RSS, targets ≤ 2 s and ≤ 1 GB); the dashboard is served by
``tarock dashboard`` and driven in Debian's Chromium: the Players and Audit pages are opened
cold (first visit after the server started) and warm (a reload), each time until the page's
script has finished and its tables are drawn (targets: Players ≤ 3 s cold and ≤ 1 s warm,
Audit ≤ 1 s; the server's log is kept and its per-row "missing ScriptRunContext" warnings
counted); a replay step is timed server-side with Streamlit's AppTest on the hand with
the most actions (p95 target ≤ 150 ms).

**audit** (also in **all**): ``tarock audit LOGS --summary --format json`` over the whole
archive the build wrote, once (wall, CPU, the command's own peak RSS, hands verified).

One JSON object on stdout, progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.ingest_1m import write_copies  # noqa: E402 (the same copies, dated)
from benchmarks.proc import cpu_seconds, process_tree  # noqa: E402

TAROCK = Path(sys.executable).with_name("tarock")


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- build


def _pss_each_mb(pids: list[int]) -> dict[int, float]:
    """The PSS of each of ``pids`` that is still alive, in MB."""
    out: dict[int, float] = {}
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    out[p] = int(line.split()[1]) / 1024
        except OSError:
            continue
    return out


def _pss_mb(pids: list[int]) -> float:
    return sum(_pss_each_mb(pids).values())


def build(args: argparse.Namespace) -> dict[str, Any]:
    from tarock_logs.tools.simulate import dumps_session, simulate_hands

    work: Path = args.workdir
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    db = work / "store.duckdb"
    for old in [db, *work.glob("store.duckdb.*")]:
        if old.is_file():
            old.unlink()
    for old in logs.iterdir():
        old.unlink()
    t0 = time.perf_counter()
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    written = 0
    per_game: dict[str, int] = {}
    for k, game in enumerate(games):
        # an equal share per game (the first games take the remainder)
        share = args.hands // len(games) + (1 if k < args.hands % len(games) else 0)
        pool = simulate_hands(max(16, args.pool // len(games)), args.seed, game=game,
                              hands_per_session=16)  # fmt: skip
        lines = [dumps_session(s) for s in pool]
        per_game[game] = write_copies(
            lines,
            share,
            args.per_file,
            logs,
            f'"sim-{game}-{args.seed}-'.encode(),
            dated=True,
            stem=f"part-{game}",
        )
        written += per_game[game]
    size = sum(p.stat().st_size for p in logs.iterdir())
    say(f"generated {written} hands ({size / 1e6:.0f} MB) in {time.perf_counter() - t0:.0f} s")
    t1 = time.perf_counter()
    proc = subprocess.Popen(
        [str(TAROCK), "ingest", str(logs), "--db", str(db), "-q", "--format", "json"],
        stdout=subprocess.PIPE,
    )
    peak = 0.0
    curve = []
    # at the tree's peak: the writer (the CLI process: DuckDB and the Arrow loads) and the
    # workers (its children), so that the peak says where the memory is
    at_peak: dict[str, float] = {}
    while proc.poll() is None:
        each = _pss_each_mb(process_tree(proc.pid))
        pss = sum(each.values())
        if pss > peak:
            workers = sorted((v for p, v in each.items() if p != proc.pid), reverse=True)
            at_peak = {"writer": round(each.get(proc.pid, 0.0))}
            at_peak.update({f"worker_{i + 1}": round(v) for i, v in enumerate(workers)})
        peak = max(peak, pss)
        if not curve or time.perf_counter() - t1 - curve[-1][0] >= 30:
            curve.append((round(time.perf_counter() - t1), round(pss)))
            say(f"  {curve[-1][0]:6.0f} s  tree PSS {pss:6.0f} MB")
        time.sleep(0.5)
    out = proc.stdout.read() if proc.stdout else b""
    summary = json.loads(out) if out.strip() else {}
    t_ingest = time.perf_counter() - t1
    return {
        "hands": written,
        "hands_by_game": per_game,
        "log_mb": round(size / 1e6),
        "ingest_seconds": round(t_ingest, 1),
        "ingest_hands_per_s": round(written / t_ingest),
        "ingest_tree_peak_pss_mb": round(peak),
        "ingest_peak_pss_by_process_mb": at_peak,
        "ingest_exit": proc.returncode,
        "db_mb": round(db.stat().st_size / 1e6) if db.exists() else None,
        "hands_stored": summary.get("hands_stored"),
        "pss_curve": curve,
    }


# --------------------------------------------------------------------------- measure


def _timed(fn: Any, warm: int = 5) -> dict[str, float]:
    """Wall time of the first call (cold) and the median of ``warm`` more; with the CPU time
    of this process (all its threads: DuckDB's too), which a loaded machine does not inflate."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    cold, cold_cpu = time.perf_counter() - t0, time.process_time() - c0
    runs, cpus = [], []
    for _ in range(warm):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        runs.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return {
        "cold_ms": round(cold * 1000, 1),
        "warm_ms": round(statistics.median(runs) * 1000, 1),
        "cold_cpu_ms": round(cold_cpu * 1000, 1),
        "warm_cpu_ms": round(statistics.median(cpus) * 1000, 1),
    }


def _server_pids() -> list[int]:
    """This process's descendants that serve the dashboard (not the browser)."""
    out = []
    for pid in process_tree(os.getpid()):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"dashboard" in cmd and b"chromium" not in cmd:
            out.append(pid)
    return out


def measure_queries(db: Path) -> dict[str, Any]:
    """Every read-API query and statistics section, cold then warm, in this process."""
    from tarock_logs.store.read import queries as q
    from tarock_logs.store.read import stats

    con = q.connect_reader(db)
    cur = con.cursor()
    hand_id = cur.execute("SELECT hand_id FROM hands ORDER BY n_actions DESC LIMIT 1").fetchall()
    hid = hand_id[0][0]
    sid = q.hand_session(cur, hid)
    pid = cur.execute("SELECT player_id FROM players ORDER BY 1 LIMIT 1").fetchall()[0][0]
    none = (None, None, None, None, None)
    cases: dict[str, Any] = {
        "overview": lambda: q.overview(cur),
        "filter_values": lambda: q.filter_values(cur),
        "audit_page": lambda: q.findings_page(cur, q.FindingFilters(), offset=0, limit=50),
        "audit_count": lambda: q.count_findings(cur, q.FindingFilters()),
        "audit_options": lambda: q.finding_options(cur),
        "sessions_page": lambda: q.sessions_page(cur, offset=0, limit=200),
        "session_hands": lambda: q.session_hands(cur, sid),
        "hand_facts": lambda: q.hand_facts(cur, hid),
        "hand_findings": lambda: q.hand_findings(cur, hid),
        "player_neighbour_hand": lambda: q.player_neighbour_hand(cur, hid, pid, True),
        "drill_page": lambda: q.drill_page(cur, none, (("role", "declarer"),), 0, 50),
        "drill_count": lambda: q.drill_count(cur, none, (("role", "declarer"),)),
    }
    # the Players page: one game at a time, each game of the store (a mixed store: every
    # figure's name starts with its game)
    decl = (("role", "declarer"),)
    by_hands = q.games_by_hands(cur)
    for game, *_rest in by_hands:
        tag = "game" if len(by_hands) == 1 else f"{game}"
        g_all = (game, None, None, None, None)
        g_pid = (game, None, None, None, pid)
        cases |= {
            f"{tag}_thrown_in": lambda g_all=g_all: q.game_thrown_in(cur, g_all),
            ("timeline" if tag == "game" else f"{tag}_timeline"): lambda g_all=g_all: q.timeline(
                cur, g_all
            ),
            f"{tag}_drill_page": lambda g_all=g_all: q.game_drill_page(cur, g_all, decl, 0, 25),
            f"{tag}_drill_count": lambda g_all=g_all: q.game_drill_count(cur, g_all, decl),
            f"{tag}_drill_csv_player": lambda g_pid=g_pid: q.game_drill_csv(cur, g_pid, decl),
            f"{tag}_ratings": lambda game=game: q.game_ratings(cur, game),
        }
        for name in q.GAME_SECTIONS:
            if name in ("schlemm", "matches", "pairs") and game != "royal":
                continue
            cases[f"{tag}_{name}"] = lambda name=name, g=g_all: q.game_section(cur, name, g)
            cases[f"{tag}_{name}_player"] = lambda name=name, g=g_pid: q.game_section(cur, name, g)
    cases["games_by_hands"] = lambda: q.games_by_hands(cur)
    for name in stats.SECTIONS:
        cases[f"stats_{name}"] = lambda name=name: q.stats_section(cur, name, none)
        cases[f"stats_{name}_player"] = lambda name=name: q.stats_section(
            cur, name, (None, None, None, None, pid)
        )
    out: dict[str, Any] = {"loadavg": os.getloadavg()[0]}
    for name, fn in cases.items():
        out[name] = _timed(fn)
        say(f"  {name:28s} {out[name]}")
    con.close()
    return out


#: A small launcher (``python -S -c``, ≈ 10 MB) between the benchmark and ``tarock stats``:
#: Linux carries a process's peak RSS across fork and exec into the child's ``ru_maxrss``, so
#: a child forked from this (large) benchmark process would report the benchmark's peak. The
#: launcher forks and execs the command, waits for it and writes its wall time, CPU time and
#: peak RSS (the command's own, plus at most the launcher's few MB) as JSON on stderr.
_LAUNCHER = """
import json, os, sys, time
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
sys.stderr.write("\\n" + json.dumps({"wall_s": time.perf_counter() - t0,
    "cpu_s": ru.ru_utime + ru.ru_stime, "maxrss_mb": ru.ru_maxrss / 1024,
    "exit": os.waitstatus_to_exitcode(status)}))
"""


def _launched(args: list[str], ok: tuple[int, ...] = (0,)) -> tuple[dict[str, Any], bytes]:
    """``tarock ARGS`` through :data:`_LAUNCHER`: its usage (wall, CPU, peak RSS) and stdout."""
    proc = subprocess.run([sys.executable, "-S", "-c", _LAUNCHER, str(TAROCK), *args],
                          capture_output=True, check=True)  # fmt: skip
    usage = json.loads(proc.stderr.decode().strip().splitlines()[-1])
    assert usage["exit"] in ok, usage
    return usage, proc.stdout


def measure_audit_cli(logs: Path) -> dict[str, Any]:
    """``tarock audit LOGS --summary --format json`` once through :data:`_LAUNCHER` (a re-audit
    of the whole archive, issue 16): wall time, CPU time, the command's own peak RSS, and how
    many hands it verified."""
    load = os.getloadavg()[0]
    usage, stdout = _launched(["audit", str(logs), "--summary", "--format", "json"], (0, 1, 5))
    summary = json.loads(stdout)["summary"]
    return {
        "wall_s": round(usage["wall_s"], 1),
        "cpu_s": round(usage["cpu_s"], 1),
        "peak_rss_mb": round(usage["maxrss_mb"]),
        "hands": summary["hands"],
        "verified_hands": summary["verified_hands"],
        "exit": usage["exit"],
        "loadavg": load,
    }


def measure_stats_cli(db: Path) -> dict[str, Any]:
    """``tarock stats --format json`` three times through :data:`_LAUNCHER`: wall time, CPU
    time and the command's own peak RSS."""
    load = os.getloadavg()[0]
    runs, cpus, peaks = [], [], []
    stdout = b""
    for _ in range(3):
        usage, stdout = _launched(["stats", "--db", str(db), "--format", "json"])
        runs.append(usage["wall_s"])
        cpus.append(usage["cpu_s"])
        peaks.append(usage["maxrss_mb"])
    return {
        "cold_s": round(runs[0], 2),
        "warm_s": round(min(runs[1:]), 2),
        "cold_cpu_s": round(cpus[0], 2),
        "warm_cpu_s": round(min(cpus[1:]), 2),
        "peak_rss_mb": round(max(peaks)),
        "json_bytes": len(stdout),
        "loadavg": load,
    }


#: the Players page's tabs after the first (a Slovenian store), as ``?tab=`` opens them
PLAYER_TABS = (
    "Score over time", "Roles", "Contracts", "Bonuses", "Kontras", "Partners", "Head to head",
    "Ratings", "Card play",
)  # fmt: skip


def measure_pages(db: Path) -> dict[str, Any]:
    """The Players and Audit pages in Chromium, cold and warm; a replay step (AppTest)."""
    from playwright.sync_api import sync_playwright

    from tests.dashboard.browser_helpers import ARGS, CHROMIUM, serve

    out: dict[str, Any] = {"loadavg_before": os.getloadavg()[0]}
    wait = 900_000  # ms: a loaded machine is slow, the figure says how slow

    def load(page: Any, url: str, ready: str) -> float:
        """Open ``url`` and wait until the script has finished and ``ready`` is drawn; the
        wall time (and the server's CPU seconds in ``cpu``)."""
        servers = _server_pids()
        c0 = cpu_seconds(servers)
        t0 = time.perf_counter()
        page.goto(url)
        page.wait_for_selector(
            "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=wait
        )
        page.wait_for_timeout(200)  # let the run start
        page.wait_for_selector("[data-test-script-state='notRunning']", timeout=wait)
        page.wait_for_selector(ready, timeout=wait)
        cpu.append(round(cpu_seconds(servers) - c0, 2))
        return time.perf_counter() - t0 - 0.2

    cpu: list[float] = []

    log = db.with_name("dashboard-server.log")
    with serve(db, log) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1600})
            table = "[data-testid='stDataFrame']"
            out["players_cold_s"] = round(load(page, f"{url}/players", table), 2)
            out["players_warm_s"] = round(
                min(load(page, f"{url}/players", table) for _ in range(3)), 2
            )
            # simulated hands have no findings: the Audit page says so (an alert), no table
            listed = f"{table}, [data-testid='stAlert']"
            out["audit_cold_s"] = round(load(page, f"{url}/audit", listed), 2)
            out["audit_warm_s"] = round(
                min(load(page, f"{url}/audit", listed) for _ in range(3)), 2
            )
            # the server's CPU seconds per load: players cold, 3 warm, audit cold, 3 warm
            out["server_cpu_s"] = {"players": cpu[:4], "audit": cpu[4:8]}
            # every other tab of the Players page (only the tab shown runs its queries):
            # opened cold (its first view since the server started), then warm (a reload)
            tabs: dict[str, dict[str, float]] = {}
            for label in PLAYER_TABS:
                link = f"{url}/players?tab={quote(label)}"
                # a table; the chart of the score over time; the card-play tab of a store
                # without analysis: its caption
                drawn = {
                    "Card play": "[data-testid='stCaptionContainer']",
                    "Score over time": (
                        "[data-testid='stVegaLiteChart'] canvas, "
                        "[data-testid='stVegaLiteChart'] svg"
                    ),
                }.get(label, table)
                cold = load(page, link, drawn)
                warm = min(load(page, link, drawn) for _ in range(2))
                tabs[label] = {
                    "cold_s": round(cold, 2),
                    "warm_s": round(warm, 2),
                    "server_cpu_cold_s": cpu[-3],
                }
            out["players_tabs"] = tabs
            out["replay_step_browser"] = measure_replay_steps_browser(db, page, url)
        finally:
            browser.close()
    out["loadavg_after"] = os.getloadavg()[0]
    text = log.read_text(errors="replace")
    out["server_log_lines"] = text.count("\n")
    out["server_log_script_run_context_warnings"] = text.count("missing ScriptRunContext")
    out["replay_step"] = measure_replay_step(db)
    return out


def measure_replay_steps_browser(db: Path, page: Any, url: str, steps: int = 30) -> dict[str, Any]:
    """A replay step as a user takes it: the hand with the most actions opened in Chromium,
    then ``steps`` presses of the right-arrow key, each timed until the page shows the new
    step and the script has finished, with the server's CPU seconds for it (the step reruns
    the viewer fragment only; AppTest, :func:`measure_replay_step`, reruns the whole page)."""
    from tarock_logs.store.read.queries import connect_reader

    con = connect_reader(db)
    hand_id = con.execute(
        "SELECT hand_id FROM hands WHERE verified ORDER BY n_actions DESC LIMIT 1"
    ).fetchall()[0][0]
    con.close()
    page.goto(f"{url}/replay?hand={hand_id}&step=0&seat=all")
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=300_000)
    page.get_by_text("Step 0 of").first.wait_for(timeout=300_000)
    servers = _server_pids()
    times, cpus = [], []
    for k in range(1, steps + 1):
        for _attempt in range(3):  # a key pressed while the page re-draws can be lost
            page.locator("h1").first.click()
            c0, t0 = cpu_seconds(servers), time.perf_counter()
            page.keyboard.press("ArrowRight")
            try:
                page.get_by_text(f"Step {k} of").first.wait_for(timeout=10_000)
                page.wait_for_selector("[data-test-script-state='notRunning']", timeout=60_000)
            except Exception:  # noqa: BLE001 - pressed again
                continue
            times.append(time.perf_counter() - t0)
            cpus.append(cpu_seconds(servers) - c0)
            break
    ms = sorted(t * 1000 for t in times)
    cpu_ms = sorted(c * 1000 for c in cpus)

    def p95(xs: list[float]) -> int | None:
        return round(xs[max(0, int(len(xs) * 0.95) - 1)]) if xs else None

    return {
        "steps": len(ms),
        "median_ms": round(statistics.median(ms)) if ms else None,
        "p95_ms": p95(ms),
        "server_cpu_median_ms": round(statistics.median(cpu_ms)) if cpu_ms else None,
        "server_cpu_p95_ms": p95(cpu_ms),
        "loadavg": os.getloadavg()[0],
    }


def measure_replay_step(db: Path, steps: int = 40) -> dict[str, Any]:
    from streamlit.testing.v1 import AppTest

    from tarock_logs.store.read.queries import connect_reader

    con = connect_reader(db)
    hand_id = con.execute(
        "SELECT hand_id FROM hands WHERE verified ORDER BY n_actions DESC LIMIT 1"
    ).fetchall()[0][0]
    con.close()
    os.environ["TAROCK_DB"] = str(db)
    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("app_pages/replay.py")
    at.query_params["hand"] = hand_id
    at.query_params["step"] = "0"
    t0 = time.perf_counter()
    at.run()
    first = time.perf_counter() - t0
    at.run()
    times, cpus = [], []
    for _ in range(steps):
        t0, c0 = time.perf_counter(), time.process_time()
        at.button(key="forward").click().run()
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        assert not at.exception, [e.value for e in at.exception]
    ms = sorted(t * 1000 for t in times)
    cpu_ms = sorted(t * 1000 for t in cpus)

    def p95(xs: list[float]) -> int:
        return round(xs[max(0, int(len(xs) * 0.95) - 1)])

    return {
        "first_open_s": round(first, 2),
        "median_ms": round(statistics.median(ms)),
        "p95_ms": p95(ms),
        "max_ms": round(ms[-1]),
        "cpu_median_ms": round(statistics.median(cpu_ms)),
        "cpu_p95_ms": p95(cpu_ms),
        "loadavg": os.getloadavg()[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["build", "measure", "pages", "audit", "all"])
    ap.add_argument("--workdir", type=Path, required=True)
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--pool", type=int, default=4000)
    ap.add_argument("--per-file", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--games",
        default="slovenian",
        help="comma-separated games, an equal share of the hands each (issue 37: "
        "slovenian,zwanzigerrufen,royal for the mixed store)",
    )
    args = ap.parse_args()
    report: dict[str, Any] = {}
    if args.what in ("build", "all"):
        report["build"] = build(args)
        say(json.dumps(report["build"]))
    if args.what in ("measure", "all"):
        db = args.workdir / "store.duckdb"
        report["queries"] = measure_queries(db)
        report["stats_cli"] = measure_stats_cli(db)
        say(json.dumps(report["stats_cli"]))
        report["pages"] = measure_pages(db)
        say(json.dumps(report["pages"]))
    if args.what == "pages":  # the dashboard only (Chromium and the replay step)
        report["pages"] = measure_pages(args.workdir / "store.duckdb")
    if args.what in ("audit", "all"):  # tarock audit of the whole archive
        report["audit_cli"] = measure_audit_cli(args.workdir / "logs")
        say(json.dumps(report["audit_cli"]))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
