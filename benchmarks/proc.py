"""Process trees and their CPU time, read from Linux's /proc (the benchmarks' one home for
them: the load benchmark times a dashboard server and its workers, the 1M run an ingest and
its workers)."""

from __future__ import annotations

import os
from pathlib import Path


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(parents.get(p, []))
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds so far of the processes ``pids`` still alive."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / tick
