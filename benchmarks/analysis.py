"""Time the perfect-information solver ("all cards visible") against the targets of issue 17.

    .venv/bin/python benchmarks/analysis.py                  # 6, 8, 10 tricks; 12 with --whole
    .venv/bin/python benchmarks/analysis.py --tricks 6,8 --positions 20
    .venv/bin/python benchmarks/analysis.py --whole 3        # + 3 whole 12-trick hands
    .venv/bin/python benchmarks/analysis.py --tricks 6,8,10,12 --positions 6 \
        --positions-12 3 --whole 2 --cap 30 --whole-cap 120       # the documented run

Positions are real card-play positions of simulated hands (``tarock_logs.tools.simulate``: the
engine's own heuristic players at tables of 4), taken at the start of a trick with K tricks
left, in normal contracts (tri ... solo ena, the hardest objective: card points in thirds,
the difference and the bonuses). For each, every legal card of the player to move is valued
(``values()``) by a fresh native solver; the pure-Python solver values the same positions at
the smallest K, for the native / Python ratio in one run. ``--whole N`` analyses every card of
N whole hands (``analyse_replay(last_tricks=12, lines=False)``, one solver per hand);
``--first N`` the value of N whole hands from their first card (one ``value()`` of the position
before the first card, 12 tricks left).

Each position (``--cap``) and each whole hand (``--whole-cap``) runs in a forked child under
a CPU-time limit (``RLIMIT_CPU``): one that does not finish is counted as capped and enters
the median and max as its cap (a lower bound: the figure is then printed as ``>= ...``), so a
run ends in a known time even where the targets are far off.

Targets (issue 34): the value of a whole hand from its first card ≤ 0.1 s median; every card
of a whole 12-trick hand ≤ 1 s median and ≤ 10 s max; 10 tricks left ≤ 0.05 s median, on one
core: each time is given as wall seconds and as the CPU seconds of the process (the
figure for one core on a shared, loaded machine). The output is one JSON object on stdout;
progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from tarock_logs import _native
from tarock_logs.analysis.hand import _tt_bits, analyse_replay
from tarock_logs.analysis.native import NativeSolver
from tarock_logs.analysis.position import Position, Setting, read_position
from tarock_logs.analysis.search import PySolver
from tarock_logs.log.models import SessionAdapter
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.tools.simulate import simulate_hands
from tarock_logs.verdict.replay import HandReplay, replay_session

NORMAL = {"three", "two", "one", "solo_three", "solo_two", "solo_one"}


def _replays(n_hands: int, seed: int) -> list[tuple[Any, Any, HandReplay]]:
    out = []
    for doc in simulate_hands(n_hands, seed, table_size=4):
        session = SessionAdapter.validate_python(doc)
        for hand, r in zip(session.hands, replay_session(session), strict=True):
            out.append((session, hand, r))
    return out


def _position_at(r: HandReplay, tricks_left: int) -> tuple[Position, Setting] | None:
    """The position at the start of the trick with ``tricks_left`` tricks to play."""
    st = r.state
    if not isinstance(st, SlovenianHand) or st.contract not in NORMAL or not st.tricks:
        return None
    h = st.copy()
    while h.phase != "play" or h.trick or h.tricks_total - len(h.tricks) < tricks_left:
        if not h.history:
            return None
        h.pop()
        if h.phase not in ("play", "done"):
            return None
    if h.tricks_total - len(h.tricks) != tricks_left:
        return None
    return read_position(h)


def _time_values(make: Any, pos: Position) -> tuple[float, int, float]:
    """Wall seconds, nodes and CPU seconds of valuing every legal card of ``pos``."""
    solver = make()
    t, c = time.perf_counter(), time.process_time()
    solver.values(pos)
    return time.perf_counter() - t, solver.nodes, time.process_time() - c


def _time_value(make: Any, pos: Position) -> tuple[float, int, float]:
    """Wall seconds, nodes and CPU seconds of the value of ``pos`` (best play by both sides)."""
    solver = make()
    t, c = time.perf_counter(), time.process_time()
    solver.value(pos)
    return time.perf_counter() - t, solver.nodes, time.process_time() - c


def _child(fn: Callable[[], Any], cap: float, conn: Any) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (int(cap) + 1, int(cap) + 2))
    conn.send(fn())
    conn.close()


def _capped(fn: Callable[[], Any], cap: float) -> tuple[Any, float, float]:
    """``fn()`` in a forked child limited to ``cap`` CPU seconds (and ten times that of wall
    time): its result (None when capped), the child's wall and CPU seconds."""
    ctx = mp.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = ctx.Process(target=_child, args=(fn, cap, send))
    proc.start()
    send.close()
    result = None
    if recv.poll(10 * cap + 30):
        try:
            result = recv.recv()
        except EOFError:  # the child was killed at its CPU limit
            result = None
    proc.join(5)
    if proc.is_alive():
        proc.kill()
        proc.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result, time.perf_counter() - t, cpu


def _figures(times: list[float], cpus: list[float], capped: int) -> dict[str, Any]:
    return {
        "median_s": round(statistics.median(times), 4),
        "max_s": round(max(times), 4),
        "median_cpu_s": round(statistics.median(cpus), 4),
        "max_cpu_s": round(max(cpus), 4),
        "capped": capped,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tricks", default="6,8,10", help="tricks left to time (comma list)")
    ap.add_argument("--positions", type=int, default=12, help="positions per K")
    ap.add_argument(
        "--python-positions",
        type=int,
        default=6,
        help="positions the pure-Python solver also values (smallest K)",
    )
    ap.add_argument("--whole", type=int, default=0, help="whole 12-trick hands to analyse")
    ap.add_argument("--positions-12", type=int, default=3, help="positions at 12 tricks left")
    ap.add_argument("--first", type=int, default=0,
                    help="whole hands valued from their first card (one value each)")  # fmt: skip
    ap.add_argument("--cap", type=float, default=30.0, help="CPU seconds per position at most")
    ap.add_argument("--whole-cap", type=float, default=120.0, help="CPU seconds per whole hand")
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()
    if not _native.available():
        sys.exit(f"the native core is needed: {_native.why_not}")
    ks = [int(k) for k in args.tricks.split(",")]
    replays = _replays(max(64, 6 * args.positions), args.seed)
    out: dict[str, Any] = {
        "positions_per_k": args.positions, "seed": args.seed, "cap_cpu_s": args.cap,
        "load_average_at_start": [round(x, 1) for x in os.getloadavg()],
        "cpus": os.cpu_count(), "tricks": {},
    }  # fmt: skip
    for k in ks:
        positions = [p for p in (_position_at(r, k) for _, _, r in replays) if p is not None]
        positions = positions[: args.positions_12 if k >= 12 else args.positions]
        times, cpus, counts, count_cpus, capped = [], [], [], [], 0
        for i, (pos, setting) in enumerate(positions):

            def run(pos: Position = pos, setting: Setting = setting, k: int = k) -> Any:
                return _time_values(lambda: NativeSolver(setting, _tt_bits(k)), pos)

            got, wall, cpu = _capped(run, args.cap)
            if got is None:
                capped += 1
                times.append(wall)
                cpus.append(max(cpu, args.cap))
                print(f"K={k} position {i + 1}/{len(positions)}: capped after {wall:.1f} s "
                      f"({cpu:.1f} s CPU)", file=sys.stderr)  # fmt: skip
                continue
            dt, nd, cpu = got
            times.append(dt)
            cpus.append(cpu)
            counts.append(nd)
            count_cpus.append(cpu)
            print(f"K={k} position {i + 1}/{len(positions)}: {dt:.3f} s ({cpu:.3f} s CPU), "
                  f"{nd} nodes", file=sys.stderr)  # fmt: skip
        row: dict[str, Any] = {"positions": len(times), **_figures(times, cpus, capped)}
        if counts:
            row["median_nodes"] = int(statistics.median(counts))
            row["nodes_per_cpu_s"] = int(sum(counts) / sum(count_cpus)) if sum(count_cpus) else None
        if k == min(ks) and args.python_positions:
            sub = positions[: args.python_positions]
            nat = sum(_time_values(lambda s=s, k=k: NativeSolver(s, _tt_bits(k)), p)[2]
                      for p, s in sub)  # fmt: skip
            py = sum(_time_values(lambda s=s: PySolver(s), p)[2] for p, s in sub)
            row["python_cpu_s_total"] = round(py, 3)
            row["native_cpu_s_total"] = round(nat, 4)
            row["native_over_python_speed"] = round(py / nat, 1) if nat else None
        out["tricks"][str(k)] = row
    if args.first:
        firsts = [p for p in (_position_at(r, 12) for _, _, r in replays) if p is not None]
        times, cpus, counts, capped = [], [], [], 0
        for i, (pos, setting) in enumerate(firsts[: args.first]):

            def first_run(pos: Position = pos, setting: Setting = setting) -> Any:
                return _time_value(lambda: NativeSolver(setting, _tt_bits(12)), pos)

            got, wall, cpu = _capped(first_run, args.cap)
            times.append(wall)
            if got is None:
                capped += 1
                cpus.append(max(cpu, args.cap))
                print(f"first card {i + 1}: capped after {wall:.1f} s ({cpu:.1f} s CPU)",
                      file=sys.stderr)  # fmt: skip
                continue
            cpus.append(got[2])
            counts.append(got[1])
            print(f"first card {i + 1}: {got[0]:.3f} s ({got[2]:.3f} s CPU), {got[1]} nodes",
                  file=sys.stderr)  # fmt: skip
        row = {"hands": len(times), **_figures(times, cpus, capped)}
        if counts:
            row["median_nodes"] = int(statistics.median(counts))
        out["first_card_value"] = row
    if args.whole:
        whole: list[float] = []
        whole_cpu: list[float] = []
        capped = 0
        for session, hand, r in replays:
            if len(whole) >= args.whole:
                break
            if not isinstance(r.state, SlovenianHand) or r.state.contract not in NORMAL:
                continue

            def hand_run(r: HandReplay = r, sid: str = session.id, hand: Any = hand) -> Any:
                ha = analyse_replay(r, sid, hand, last_tricks=12, lines=False)
                return ha.seconds, len(ha.cards), ha.nodes

            got, wall, cpu = _capped(hand_run, args.whole_cap)
            whole.append(wall)
            if got is None:
                capped += 1
                whole_cpu.append(max(cpu, args.whole_cap))
                print(f"whole hand {len(whole)}: capped after {wall:.1f} s ({cpu:.1f} s CPU)",
                      file=sys.stderr)  # fmt: skip
                continue
            whole_cpu.append(cpu)
            print(f"whole hand {len(whole)}: {wall:.1f} s ({cpu:.1f} s CPU), {got[1]} cards, "
                  f"{got[2]} nodes", file=sys.stderr)  # fmt: skip
        out["whole_hand"] = {"hands": len(whole), "cap_cpu_s": args.whole_cap,
                             **_figures(whole, whole_cpu, capped)}  # fmt: skip
    out["load_average_at_end"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
