"""Many visitors at once (issue 36, item 6): real sessions of a served dashboard, driven over
Streamlit's own websocket protocol (:mod:`tests.dashboard.ws_client`), at 1, 5, 20 and 50
sessions.

Method: ``tarock dashboard --db FILE`` is started (one server for all the levels, warmed by
one visitor who opens each page once). At each level every session, concurrently, ``--rounds``
times: opens the Players page, the Audit page, a replay of a hand of its own (``/replay?hand=…``,
a different hand each time: a cold replay for the server) and steps it ``--steps`` times with
the "forward" button (a fragment run, as the browser sends it), with a random pause of up to
``--think`` seconds before each request (the sessions start within the first ``--think`` s).
A request's time is from its message sent to the server's ``script_finished``: the server's
work (the script run) and the transfer on the loopback. A failure: no ``script_finished``
within ``--timeout``, a page with an exception or an error box, a closed connection. The
server's RSS (its process and children, ``/proc``) is sampled every 0.2 s, and its CPU time
over each level is read (per request, and as cores used: a server that used far less than
the 2 cores while its pages queued was starved by the host's other work).

Targets (issue 36): at 50 sessions p95 ≤ 2 s for Players, Audit and a replay opened, a step
≤ 0.5 s, no failure, the server's RSS ≤ 1 GB. The client runs on the same machine (one
process, asyncio; it parses the messages but does not render them).

    .venv/bin/python benchmarks/dashboard_load.py --db STORE [--levels 1,5,20,50]
        [--rounds 3] [--steps 5] [--think 1.0] [--workers N] [--json OUT]

One JSON object on stdout (``--json`` writes it to a file too), a table on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.proc import cpu_seconds, process_tree  # noqa: E402
from tests.dashboard.browser_helpers import free_port, wait_healthy  # noqa: E402
from tests.dashboard.ws_client import Run, Session  # noqa: E402

TAROCK = Path(sys.executable).with_name("tarock")
KINDS = ("players", "audit", "replay_open", "step")


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _rss_mb(pid: int) -> float:
    total = 0
    for p in process_tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def _pss_by_process_mb(pid: int) -> dict[int, float]:
    """Each process's PSS (MB): its private pages plus its share of the pages it shares with
    others (the interpreter's and the libraries' code). The sum is what the tree takes of the
    machine's memory; the sum of RSS counts every shared page once per process."""
    out: dict[int, float] = {}
    for p in process_tree(pid):
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    out[p] = int(line.split()[1]) / 1024
        except OSError:
            pass
    return out


def _cpu_s(pid: int, *, alone: bool = False) -> float:
    """User + system CPU seconds so far of a process tree (from /proc); ``alone``: of the
    process itself (the front door of ``--workers``, without its servers)."""
    return cpu_seconds([pid] if alone else process_tree(pid))


class RssSampler:
    """The peak RSS of a process tree, sampled every 0.2 s in a thread, and its peak PSS (the
    sum of the processes' PSS, sampled every 1 s: reading ``smaps_rollup`` costs more) with
    each process's own peak PSS."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0.0
        self.pss_peak = 0.0
        self.pss_by_process: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        n = 0
        while not self._stop.is_set():
            self.peak = max(self.peak, _rss_mb(self.pid))
            if n % 5 == 0:
                pss = _pss_by_process_mb(self.pid)
                self.pss_peak = max(self.pss_peak, sum(pss.values()))
                for p, v in pss.items():
                    self.pss_by_process[p] = max(self.pss_by_process.get(p, 0.0), v)
            n += 1
            self._stop.wait(0.2)

    def __enter__(self) -> RssSampler:
        self.peak = _rss_mb(self.pid)
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def pick_hands(db: Path, n: int, seed: int) -> list[str]:
    """``n`` hands of the store with at least 20 actions, drawn at random (seeded)."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            "SELECT hand_id FROM hands WHERE n_actions >= 20 ORDER BY hash(hand_id || ?) LIMIT ?",
            [str(seed), n],
        ).fetchall()
    finally:
        con.close()
    return [str(r[0]) for r in rows]


def _failure(run: Run) -> str | None:
    if run.status != "finished":
        return run.status
    if run.exceptions:
        return "exception: " + run.exceptions[0][:120]
    if run.errors:
        return "error box: " + run.errors[0][:120]
    return None


async def visitor(
    url: str,
    hands: list[str],
    rounds: int,
    steps: int,
    think: float,
    timeout: float,
    rng: random.Random,
    times: dict[str, list[float]],
    failures: list[str],
    cpu: dict[str, list[float]] | None = None,
    server_pid: int = 0,
) -> None:
    """One session's requests; with ``cpu`` (one session alone: nothing else runs on the
    server between its requests), the server's CPU seconds of each request by kind."""
    s = Session(url, timeout=timeout, texts=False)
    await asyncio.sleep(rng.uniform(0, think))
    try:
        await s.connect()
    except Exception as exc:  # noqa: BLE001 - counted, not raised
        failures.append(f"connect: {exc}")
        return

    async def one(kind: str, request: Any) -> bool:
        await asyncio.sleep(rng.uniform(0, think))
        before = _cpu_s(server_pid) if cpu is not None else 0.0
        run = await request
        if cpu is not None:
            cpu[kind].append(_cpu_s(server_pid) - before)
        times[kind].append(run.seconds)
        why = _failure(run)
        if why is not None:
            failures.append(f"{kind}: {why}")
            return False
        return True

    try:
        for r in range(rounds):
            await one("players", s.open("players"))
            await one("audit", s.open("audit"))
            hand = hands[r % len(hands)]
            if await one("replay_open", s.open("replay", f"hand={hand}&step=0")):
                for _ in range(steps):
                    if "forward" not in s.widgets:
                        failures.append("step: no forward button")
                        break
                    await one("step", s.click("forward"))
    finally:
        await s.close()


def _stats(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    v = sorted(values)
    p95 = v[min(len(v) - 1, max(0, round(0.95 * len(v)) - 1))]
    return {
        "n": len(v),
        "p50_s": round(statistics.median(v), 3),
        "p95_s": round(p95, 3),
        "max_s": round(v[-1], 3),
    }


def run_level(
    url: str, pid: int, n: int, hands: list[str], args: argparse.Namespace
) -> dict[str, Any]:
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    # one session alone: each request's server CPU is its own (what a page costs)
    by_page: dict[str, list[float]] | None = {k: [] for k in KINDS} if n == 1 else None
    failures: list[str] = []
    per = max(1, args.rounds)

    async def all_visitors() -> None:
        await asyncio.gather(
            *(
                visitor(
                    url,
                    hands[i * per : (i + 1) * per] or hands,
                    args.rounds,
                    args.steps,
                    args.think,
                    args.timeout,
                    random.Random(args.seed * 1000 + n * 100 + i),
                    times,
                    failures,
                    by_page,
                    pid,
                )
                for i in range(n)
            )
        )

    t0, cpu0, front0 = time.perf_counter(), _cpu_s(pid), _cpu_s(pid, alone=True)
    with RssSampler(pid) as rss:
        asyncio.run(all_visitors())
    wall, cpu = time.perf_counter() - t0, _cpu_s(pid) - cpu0
    front = _cpu_s(pid, alone=True) - front0
    requests = sum(len(v) for v in times.values())
    return {
        "sessions": n,
        "wall_s": round(wall, 1),
        # the server's CPU over the level: per request, and its share of the level's wall
        # time (2 cores: at most 2.0; far below while the host's other work takes the cores)
        "server_cpu_s": round(cpu, 1),
        "server_cpu_per_request_ms": round(1000 * cpu / max(1, requests)),
        "server_cores_used": round(cpu / wall, 2),
        # with --workers: the front door's share (relaying), the rest is the servers'
        **({"front_cpu_s": round(front, 1)} if args.workers > 1 else {}),
        "pages": {k: _stats(v) for k, v in times.items()},
        **(
            {
                "server_cpu_ms_by_page": {
                    k: round(1000 * statistics.mean(v), 1) for k, v in by_page.items() if v
                }
            }
            if by_page is not None
            else {}
        ),
        "failures": len(failures),
        "failure_examples": sorted(set(failures))[:5],
        "server_rss_peak_mb": round(rss.peak),
        "server_pss_peak_mb": round(rss.pss_peak),
        # each process's own peak PSS, largest first (with --workers: the servers and the
        # front door)
        "server_pss_peak_by_process_mb": sorted(
            (round(v) for v in rss.pss_by_process.values()), reverse=True
        ),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--levels", default="1,5,20,50")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--think", type=float, default=3.0)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path)
    ap.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (`tarock dashboard --workers N`: a front door and N servers; "
        "RSS and CPU are the whole tree's)",
    )
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    hands = pick_hands(args.db, max(levels) * args.rounds + 1, args.seed)
    port = free_port()
    log = open(args.db.with_name(args.db.name + f".load-{port}.log"), "wb")
    proc = subprocess.Popen(
        [
            str(TAROCK),
            "dashboard",
            "--db",
            str(args.db),
            "--port",
            str(port),
            "--host",
            "127.0.0.1",
            # (only when asked: a tree without the option measures too)
            *(["--workers", str(args.workers)] if args.workers > 1 else []),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "TAROCK_DB": ""},
    )
    url = f"http://127.0.0.1:{port}"
    out: dict[str, Any] = {
        "db": str(args.db),
        "db_mb": round(args.db.stat().st_size / 1e6),
        "workers": args.workers,
    }
    try:
        wait_healthy(url, proc, timeout=120)
        if args.workers > 1:  # every worker up, not only the first
            for i in range(1, args.workers + 1):
                wait_healthy(f"http://127.0.0.1:{port + i}", proc, timeout=120)
            time.sleep(2)  # (the front door's health check has seen them)
        out["server_rss_start_mb"] = round(_rss_mb(proc.pid))
        say("warming up: one visitor opens each page once")
        warm = argparse.Namespace(**{**vars(args), "rounds": 1, "think": 0.0})
        # one visitor per worker at once (the front door gives each its own): every server
        # has built its caches (the hand directory among them) before the levels
        out["warmup"] = run_level(url, proc.pid, args.workers, hands[-args.workers :], warm)
        out["levels"] = []
        for n in levels:
            say(f"{n} sessions …")
            level = run_level(url, proc.pid, n, hands, args)
            out["levels"].append(level)
            pages = level["pages"]
            say(
                f"{n:3d} sessions: "
                + ", ".join(
                    f"{k} p50 {pages[k].get('p50_s', '-')} p95 {pages[k].get('p95_s', '-')} s"
                    for k in KINDS
                )
                + f"; failures {level['failures']}; RSS peak {level['server_rss_peak_mb']} MB"
                f" (PSS {level['server_pss_peak_mb']} MB:"
                f" {level['server_pss_peak_by_process_mb']})"
                f"; server CPU {level['server_cpu_per_request_ms']} ms/request,"
                f" {level['server_cores_used']} cores"
                + (f" (front door {level['front_cpu_s']} s)" if "front_cpu_s" in level else "")
                + f"; load {level['loadavg'][0]}"
                + (
                    f"; server CPU by page (ms) {level['server_cpu_ms_by_page']}"
                    if "server_cpu_ms_by_page" in level
                    else ""
                )
            )
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
    text = json.dumps(out, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
