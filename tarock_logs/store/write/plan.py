"""How an ingest (local or on Dask) cuts its input into units of work and how many workers
it starts: whole files, and big plain JSONL files in byte spans of whole lines.

The local ingest (:mod:`tarock_logs.store.write.ingest`) and the Dask driver
(:mod:`tarock_logs.store.write.scaleout`) both plan with this module, so neither imports the other's
insides.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from tarock_logs.store import sources

#: A file is read in parts by several workers only when each part gets at least this much.
UNIT_MIN_BYTES = 256 * 1024
#: At most this many parts per file.
UNIT_MAX_PARTS = 64


@dataclass(slots=True)
class Unit:
    """One piece of work for a worker: a file, or one of ``n`` parts of it (``span``)."""

    path: Path
    index: int = 0
    n: int = 1
    span: Any = None


def plan_units(files: list[Path], jobs: int) -> list[Unit]:
    """Cut big plain JSONL files into parts, so that ``jobs`` workers can share them: a part
    is about ``1/(2*jobs)`` of the data (at least :data:`UNIT_MIN_BYTES`), and a file smaller
    than two parts stays whole. So one big file (``tarock ingest archive.jsonl --jobs 2``)
    is read by every worker, while files already about one part each are not cut at all
    (cutting them finer was measured no faster on 2 cores: each part costs a worker task,
    its IPC files and a load)."""
    units: list[Unit] = []
    for f, parts in zip(files, part_counts(file_sizes(files), jobs), strict=True):
        spans = sources.split_jsonl(f, parts) if parts > 1 else [None]
        units.extend(Unit(f, i, len(spans), sp) for i, sp in enumerate(spans))
    return units


def part_counts(sizes: Sequence[int], jobs: int) -> list[int]:
    """Into how many parts :func:`plan_units` cuts each file of these sizes (bytes) for
    ``jobs`` workers (0 or 1: the file stays whole; a file that is not plain JSONL, or that
    has fewer lines, gets fewer parts than this)."""
    target = max(UNIT_MIN_BYTES, sum(sizes) // (2 * jobs))
    return [min(UNIT_MAX_PARTS, size // target) for size in sizes]


def file_sizes(files: Sequence[Path]) -> list[int]:
    """The files' sizes in bytes, in order."""
    return [f.stat().st_size for f in files]


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


#: Below this many bytes of input in all, the default is a serial ingest: starting workers,
#: their first touches of the pages they inherit and passing the tables between processes
#: cost more than they save (measured on 2 cores, the careful path: 4 files of 45 KB, 0.17 s
#: serial, 0.21 s with 2 workers; one file of 1.4 MB, 0.40 s and 0.39 s; one of 5.5 MB, 1.18 s
#: and 0.82 s).
SERIAL_BELOW_BYTES: Final = 1 << 20
#: The same with the ingest lane (:mod:`tarock_logs.store.write.lane`), whose workers are so cheap
#: (≈ 46 µs a hand against ≈ 330) that the single writer sets the pace and two workers save
#: little below this size (measured on 2 cores, 2026-12-06, medians of 4, serial against 2
#: workers: 5.5 MB 0.300 / 0.316 s, 11 MB 0.544 / 0.521 s, 16 MB 0.751 / 0.709 s, 22 MB
#: 1.029 / 0.916 s; with the other core busy, serial was ahead at every size).
SERIAL_BELOW_BYTES_LANE: Final = 8 << 20


def default_jobs(n_files: int, sizes: Sequence[int] | None = None) -> int:
    """The worker count of an ingest without ``--jobs``: one per usable core, at most one
    per unit of work (a file, or a part of a big plain ``.jsonl`` file: :func:`plan_units`);
    1 (serial) for less than :data:`SERIAL_BELOW_BYTES` of input, or
    :data:`SERIAL_BELOW_BYTES_LANE` when the ingest lane runs. Without ``sizes`` (the files'
    sizes in bytes, in order), one unit per file."""
    from tarock_logs.store.write import lane

    cores = usable_cores()
    if sizes is None:
        return max(1, min(cores, n_files))
    if sum(sizes) < (SERIAL_BELOW_BYTES_LANE if lane.available() else SERIAL_BELOW_BYTES):
        return 1
    units = sum(max(1, parts) for parts in part_counts(sizes, cores))  # (an upper bound)
    return max(1, min(cores, units))
