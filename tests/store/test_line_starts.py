"""``sources.LineStarts``: where each line of a JSONL file (or of a span of it) starts, read
in blocks, equals reading the file line by line (``readline``), for lines longer than a
block, blank lines, a last line without its newline, and spans that start and stop at line
starts."""

from __future__ import annotations

import random
from array import array
from pathlib import Path

from tarock_logs.log.reader import ByteSpan
from tarock_logs.store import sources


def _by_lines(path: Path, span: ByteSpan | None = None) -> list[int]:
    """The definition: every line's start, read with ``readline``, then the end."""
    starts: array[int] = array("q")
    with open(path, "rb") as fh:
        pos = span.start if span is not None else 0
        stop = span.stop if span is not None else None
        fh.seek(pos)
        while stop is None or pos < stop:
            line = fh.readline()
            if not line:
                break
            starts.append(pos)
            pos += len(line)
        starts.append(pos)
    return list(starts)


def test_line_starts_read_in_blocks_equal_reading_line_by_line(tmp_path: Path) -> None:
    rng = random.Random(20261206)
    for k in range(120):
        parts = [
            rng.choice(
                [
                    b"\n",
                    b"x" * rng.randrange(0, 3000) + b"\n",
                    b"y" * rng.randrange(1, 1_500_000) + b"\n",
                ]
            )
            for _ in range(rng.randrange(0, 5))
        ]
        data = b"".join(parts) + (b"tail" if rng.random() < 0.3 else b"")
        path = tmp_path / f"f{k}.jsonl"
        path.write_bytes(data)
        got = sources.LineStarts.of(path)
        assert got is not None and list(got.starts) == _by_lines(path)
        lines = _by_lines(path)
        if len(lines) > 2:
            a = rng.randrange(len(lines) - 1)
            b = rng.randrange(a + 1, len(lines))
            span = ByteSpan(lines[a], lines[b], a + 1)
            got = sources.LineStarts.of(path, span)
            assert got is not None and list(got.starts) == _by_lines(path, span)
            assert got.span(a + 1) == (lines[a], lines[a + 1] - lines[a])
