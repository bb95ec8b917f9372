"""What the store reads: files, sessions (the reader) and hand verdicts (the audit).

The store depends on three neighbours through small documented interfaces:

* the reader, ``tarock_logs.log.reader.read_paths(paths, exclude)`` yielding ``SessionRecord``\\ s
  (``file, line, index, session, errors, raw, rejected_hands``);
* the audit, ``tarock_logs.verdict.audit.audit_session(session, file=...)`` whose ``HandAudit``\\ s
  serialise to the JSON keys of docs/architecture.md "The audit record";
* the replay, for the completed tricks of each hand (``HandReplay.tricks`` after a fast
  replay, else the engine's ``view()["tricks"]``).

This module adapts them to plain data (:class:`FileRecord`, dicts), so the rest of the store
does not care how they are spelled. It never raises for bad input: problems become errors.
"""

from __future__ import annotations

import hashlib
import os
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from tarock_logs.log import models as m

if TYPE_CHECKING:
    from tarock_logs.verdict.audit import HandAudit
    from tarock_logs.verdict.replay import HandReplay

#: File name endings the store ingests when given a folder.
LOG_SUFFIXES = (".json", ".jsonl", ".ndjson")


@dataclass(slots=True)
class Rejected:
    """A session or hand the reader refused, with its located errors (as dicts)."""

    line: int | None
    session: str | None
    hand: int | None
    hand_index: int | None
    raw: str
    errors: list[dict[str, Any]]


@dataclass(slots=True)
class FileRecord:
    """One session record of a file: the session (good hands only) and what was rejected."""

    line: int | None
    session: m.Session | None
    rejected: list[Rejected] = field(default_factory=list)


def list_files(paths: Sequence[str | os.PathLike[str]], exclude: Sequence[str] = ()) -> list[Path]:
    """The log files under ``paths``, as the reader finds them (folders walked in sorted
    order, ``exclude`` names skipped wherever they occur), each once."""
    from tarock_logs.log.reader import iter_log_files

    seen: set[str] = set()
    out: list[Path] = []
    for p in iter_log_files([Path(x) for x in paths], exclude):
        key = file_key(p)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def file_key(path: Path) -> str:
    """How a file is named in the store: its absolute path (symlinks resolved), so the same
    file reached by another relative path or from another folder is still the same file."""
    return str(Path(path).resolve())


def sha256_file(path: Path) -> tuple[str, int]:
    """``(sha256 hex, size)`` of a file's bytes, read in chunks."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


# --------------------------------------------------------------------------- the reader


def _text(raw: Any, limit: int = 1_000_000) -> str:
    if raw is None:
        return ""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        return bytes(raw[:limit]).decode("utf-8", errors="replace")
    return str(raw)[:limit]


def split_jsonl(path: Path, parts: int) -> list[Any]:
    """Cut a plain ``.jsonl`` file into at most ``parts`` runs of whole lines of about equal
    size (:class:`tarock_logs.log.reader.ByteSpan`), for workers to read side by side.

    The first run always holds the file's first record (the reader checks the file's start
    there). A file that cannot be cut (gzip, ``.json``, one line) gives one span, the whole.
    """
    from tarock_logs.log.reader import ByteSpan

    p = Path(path)
    size = p.stat().st_size
    name = p.name.lower()
    if parts <= 1 or not (name.endswith(".jsonl") or name.endswith(".ndjson")):
        return [ByteSpan(0, size, 1)]
    cuts = [0]
    with open(p, "rb") as fh:
        first_end = 0
        while line := fh.readline():  # past the first record (blank lines before it too)
            first_end = fh.tell()
            if line.strip():
                break
        for k in range(1, parts):
            target = max(size * k // parts, first_end, cuts[-1] + 1)
            if target >= size:
                break
            fh.seek(target - 1)
            fh.readline()  # to the start of the next line (target itself if one starts there)
            pos = fh.tell()
            if pos >= size:
                break
            if pos > cuts[-1]:
                cuts.append(pos)
        cuts.append(size)
        # the line number of each cut: newlines before it
        firsts = [1]
        fh.seek(0)
        done = 0
        lines = 0
        for cut in cuts[1:-1]:
            while done < cut:
                block = fh.read(min(1 << 20, cut - done))
                lines += block.count(b"\n")
                done += len(block)
            firsts.append(lines + 1)
    return [ByteSpan(a, b, f) for a, b, f in zip(cuts[:-1], cuts[1:], firsts, strict=True)]


class LineStarts:
    """Where each line of a plain JSONL file (or of one ``span`` of it) starts, so that a
    session's record can be read again by its bytes alone (``sessions.byte_start`` and
    ``byte_length``) instead of the whole file. One 8-byte offset per line."""

    def __init__(self, first_line: int, starts: array[int]) -> None:
        self.first_line = first_line
        self.starts = starts  # the line starts, then the end of the last line

    @classmethod
    def of(cls, path: Path, span: Any = None) -> LineStarts | None:
        """The line starts of ``path`` (of ``span`` when given); None for a file that is not
        plain JSONL (``.json``, gzip), whose records are not lines."""
        name = Path(path).name.lower()
        if not name.endswith((".jsonl", ".ndjson")):
            return None
        starts: array[int] = array("q")
        start = span.start if span is not None else 0
        with open(path, "rb") as fh:
            fh.seek(start)
            left = span.stop - start if span is not None else -1
            pos = start  # where the line being read starts
            at = start  # the file position of block[0]
            while left != 0:
                block = fh.read(1 << 20 if left < 0 else min(1 << 20, left))
                if not block:
                    break
                left -= len(block) if left > 0 else 0
                i = block.find(b"\n")
                while i >= 0:  # a line ends at at + i: the next one starts after it
                    starts.append(pos)
                    pos = at + i + 1
                    i = block.find(b"\n", i + 1)
                at += len(block)
            if at > pos:  # the last line, without its newline
                starts.append(pos)
                pos = at
            starts.append(pos)
        return cls(span.first_line if span is not None else 1, starts)

    def span(self, line: int) -> tuple[int, int] | None:
        """``(byte_start, byte_length)`` of line ``line`` (1-based), or None outside."""
        i = line - self.first_line
        if not 0 <= i < len(self.starts) - 1:
            return None
        return self.starts[i], self.starts[i + 1] - self.starts[i]


def read_span(path: Path, start: int, length: int) -> bytes:
    """The bytes of one record (see :class:`LineStarts`)."""
    with open(path, "rb") as fh:
        fh.seek(start)
        return fh.read(length)


def read_file(path: Path, span: Any = None, lane: Any = None) -> Iterator[FileRecord | Any]:
    """The session records of one file (or of its ``span`` of lines, see
    :func:`split_jsonl`), through the project's reader.

    A record the reader could not read as a session becomes one rejected entry (hand None);
    a session with error-severity session-level errors keeps its good hands and also gets a
    rejected entry listing those errors; each rejected hand becomes one entry. ``lane``: the
    reader's fast lane (``log.reader.read_file``); what it takes is yielded as it gives it.
    """
    from tarock_logs.log.reader import SessionRecord
    from tarock_logs.log.reader import read_file as _read

    for rec in _read(path, span=span, lane=lane):
        if type(rec) is not SessionRecord:
            yield rec
            continue
        session = rec.session
        sid = session.id if session is not None else None
        rejected: list[Rejected] = []
        errors = [e.to_dict() for e in rec.errors]
        hard = [e for e in errors if e.get("severity", "error") == "error"]
        if session is None or hard:
            rejected.append(
                Rejected(
                    rec.line,
                    sid or _guess_session_id(errors),
                    None,
                    None,
                    _text(rec.raw),
                    errors or [{"code": "E-UNKNOWN", "message": "the record could not be read"}],
                )
            )
        for rh in rec.rejected_hands:
            rejected.append(
                Rejected(
                    rec.line,
                    sid,
                    rh.number,
                    rh.index,
                    _text(rh.raw),
                    [e.to_dict() for e in rh.errors],
                )
            )
        yield FileRecord(rec.line, session, rejected)


def _guess_session_id(errors: Iterable[dict[str, Any]]) -> str | None:
    for e in errors:
        if e.get("session"):
            return str(e["session"])
    return None


# --------------------------------------------------------------------------- the audit


@dataclass(slots=True)
class AuditedSession:
    """The audit of one session as plain data: per hand (record dict, completed tricks, the
    step timeline the replay kept: :class:`~tarock_logs.verdict.replay.Timeline` or None),
    and the session record (``SessionAudit.to_dict()``)."""

    #: (record, TrickRows or a list of trick dicts, Timeline or None)
    hands: list[tuple[dict[str, Any], Any, Any]]
    session: dict[str, Any]


def audit_session(session: m.Session, file: str) -> AuditedSession:
    """Audit ``session`` with :func:`tarock_logs.verdict.audit.audit_session`.

    Tricks are the engine's completed tricks (``{"leader", "cards": [[seat, card], ...],
    "winner", "points"}``) taken from the replay behind each record; empty when no engine
    replayed the hand.
    """
    from tarock_logs.verdict.audit import audit_session as _audit

    sa = _audit(session, file=file, keep_replays=True, timeline=True)
    hands = [audited_hand(h) for h in sa.hands]
    return AuditedSession(hands, sa.to_dict())


def audited_hand(h: HandAudit) -> tuple[dict[str, Any], Any, Any]:
    """One hand of :func:`audit_session`'s: its record, completed tricks and step timeline,
    from its audit kept with its replay (which is let go here)."""
    r = h.replay
    tl = r.timeline if r is not None else None
    if tl is not None and r is not None and r.score is not None and r.score.card_points:
        tl.card_points = dict(r.score.card_points)
    out = (h.to_dict(), _tricks_of(r), tl)
    h.replay = None  # let the engine state go
    return out


def _tricks_of(replay: HandReplay | None) -> Any:
    """The completed tricks behind an audit record: the engine's columns
    (:class:`~tarock_logs.rules.base.TrickRows`) when its bulk path gives them, else the
    ``view()["tricks"]`` dicts."""
    if replay is None:
        return []
    rows = replay.trick_rows()
    if rows is not None:
        return rows
    fast = replay.tricks  # a fast replay gives them (view format) directly
    if fast is not None:
        # read-only from here on: the dicts are the replay's own (dropped with it)
        return [
            t if type(t) is dict else dict(t)
            for t in fast
            if type(t) is dict or isinstance(t, Mapping)
        ]
    state = replay.state
    if state is None:
        return []
    try:
        view = state.view()
    except Exception:  # noqa: BLE001 - tricks are a convenience, never fatal
        return []
    tricks = (view or {}).get("tricks") or []
    return [dict(t) for t in tricks if isinstance(t, Mapping)]


def canonical_json(obj: Any) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
