"""The streaming, lenient log reader: files, gzip, JSON and JSONL framing, byte spans.

It reads ``.json``, ``.jsonl``, ``.json.gz`` and ``.jsonl.gz`` files and yields one
:class:`SessionRecord` per session. It never raises on bad input: every problem becomes a
located :class:`~tarock_logs.log.errors.LogError` and reading goes on.

* **JSONL** is read line by line (gzip streamed), so a 1 GB file is never held in memory; one
  bad line never stops the rest. A ``.json`` file holds one session object or an array of
  sessions; it is read whole up to ``max_bytes`` and its array is split element by element.
* **Malformed JSON** (a byte-order mark, invalid UTF-8, duplicate keys, nesting deeper than
  :data:`MAX_DEPTH`, huge integers, NaN/Infinity, an empty or truncated file) becomes one located
  error; the decoding itself is :mod:`tarock_logs.log.decode`.
* **Validation** of each parsed record (normalising card tokens, the schema, one bad hand never
  sinking its session, the structural checks) is :mod:`tarock_logs.log.validate`.

This module is the public face of reading: :class:`SessionRecord` and :class:`RejectedHand` are
importable from here.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final, Literal

from tarock_logs.log.decode import (
    MAX_DEPTH,
    NO_DEFECTS,
    SLOW,
    Parser,
    cut_off,
    decode_utf8,
    depth_error,
    fast_decode,
    number_error,
)
from tarock_logs.log.errors import LogError
from tarock_logs.log.models import Session
from tarock_logs.log.validate import RejectedHand, SessionRecord, record_from_obj

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_SESSION_BYTES",
    "MAX_DEPTH",
    "SUFFIXES",
    "ByteSpan",
    "Kind",
    "RejectedHand",
    "SessionRecord",
    "iter_log_files",
    "log_kind",
    "read_bytes",
    "read_file",
    "read_paths",
    "read_sessions",
]

#: File suffixes the reader picks up when it walks a folder.
SUFFIXES: Final = (".json", ".jsonl", ".json.gz", ".jsonl.gz")
#: Largest ``.json`` file read (it is read whole); JSONL files have no limit.
DEFAULT_MAX_BYTES: Final = 256 * 1024 * 1024
#: Largest single session record (one JSONL line, or one element of a ``.json`` array).
DEFAULT_MAX_SESSION_BYTES: Final = 32 * 1024 * 1024

_BOM: Final = b"\xef\xbb\xbf"
#: the read buffer of a plain file
_BUFFER: Final = 1 << 20
_UTF16_BOMS: Final = (b"\xff\xfe", b"\xfe\xff")
_WS_RE: Final = re.compile(r"[ \t\n\r]*")

Kind = Literal["json", "jsonl"]


# --------------------------------------------------------------------------- file discovery


def log_kind(path: str | Path) -> Kind | None:
    """``"jsonl"`` or ``"json"`` from the file name's suffix, or None for other files."""
    name = str(path).lower()
    if name.endswith((".jsonl", ".jsonl.gz")):
        return "jsonl"
    if name.endswith((".json", ".json.gz")):
        return "json"
    return None


def iter_log_files(paths: Iterable[str | Path], exclude: Iterable[str] = ()) -> Iterator[Path]:
    """The log files under ``paths``: files as given, folders walked recursively in sorted
    order (hidden entries skipped), keeping only :data:`SUFFIXES`. ``exclude`` names folders or
    files to skip wherever they occur (e.g. ``malformed``)."""
    skip = frozenset(exclude)
    for p in paths:
        p = Path(p)
        if p.name in skip:
            continue
        if p.is_dir():
            found = []
            for sub in p.rglob("*"):
                rel = sub.relative_to(p).parts
                if any(part in skip or part.startswith(".") for part in rel):
                    continue
                if sub.is_file() and log_kind(sub) is not None:
                    found.append(sub)
            yield from sorted(found, key=lambda q: q.as_posix())
        else:
            yield p


def read_paths(
    paths: Iterable[str | Path],
    exclude: Iterable[str] = (),
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_session_bytes: int = DEFAULT_MAX_SESSION_BYTES,
) -> Iterator[SessionRecord]:
    """Every session record of every log file under ``paths`` (see :func:`iter_log_files`)."""
    for f in iter_log_files(paths, exclude):
        yield from read_file(f, max_bytes=max_bytes, max_session_bytes=max_session_bytes)


@dataclass(frozen=True, slots=True)
class ByteSpan:
    """A run of whole lines of an uncompressed JSONL file: bytes ``start`` (a line start) up
    to ``stop`` (a line start or the end of the file), the first of them being line
    ``first_line`` (1-based). Workers read the parts of one big file side by side; reading
    every span of a file in order gives the records of reading the file whole."""

    start: int
    stop: int
    first_line: int


#: A fast lane for the records of a JSONL file (:func:`read_file`): given a record's bytes
#: and its line, a value to yield in place of the record's :class:`SessionRecord`, or None
#: (the reader then reads the record itself).
Lane = Callable[[bytes, int], object | None]


def read_file(
    path: str | Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_session_bytes: int = DEFAULT_MAX_SESSION_BYTES,
    span: ByteSpan | None = None,
    lane: Lane | None = None,
) -> Iterator[SessionRecord | Any]:
    """Stream the session records of one file. Never raises on bad input.

    ``span`` reads only those lines of a plain ``.jsonl`` file (see :class:`ByteSpan`); the
    checks that belong to the file's start (byte-order mark, first record, empty file) run
    only in the span that starts at byte 0.

    ``lane``: each record of a JSONL file that the framing passes (a whole line that is not
    the file's first with a byte-order mark, not over ``max_session_bytes``, starting as a
    record) is offered to ``lane`` first; what it returns, when not None, is yielded in place
    of the record's :class:`SessionRecord` (the store's ingest lane:
    :mod:`tarock_logs.store.write.lane`). Records of ``.json`` files are never offered.
    """
    name = str(path)
    kind = log_kind(name)
    if span is not None and (kind != "jsonl" or name.lower().endswith(".gz")):
        raise ValueError("a byte span can only be read from an uncompressed JSONL file")
    if kind is None:
        yield _file_error(
            name,
            "file.not_a_log",
            f"{Path(name).name} is not a log file: tarock logs end in " + ", ".join(SUFFIXES),
        )
        return
    gz = name.lower().endswith(".gz")
    try:
        # (a buffer of a megabyte: a record is a long line, which readline otherwise finds and
        # copies in pieces of the default 8 KB: 0.86 -> 0.14 ms for a 1.4 MB file)
        stream: IO[bytes] = gzip.open(name, "rb") if gz else open(name, "rb", buffering=_BUFFER)  # type: ignore[assignment]
    except OSError as exc:
        yield _file_error(name, "file.unreadable", f"cannot open the file: {exc.strerror or exc}")
        return
    with stream:
        try:
            if kind == "jsonl" and span is not None:
                stream.seek(span.start)
                yield from _read_jsonl(stream, name, max_session_bytes, span=span, lane=lane)
            elif kind == "jsonl":
                yield from _read_jsonl(stream, name, max_session_bytes, lane=lane)
            else:
                data = stream.read(max_bytes + 1)
                if len(data) > max_bytes:
                    yield _file_error(
                        name,
                        "file.too_large",
                        f"the .json file is over {max_bytes} bytes; split it or use JSONL",
                    )
                    return
                yield from _read_json_text(data, name, max_session_bytes)
        except gzip.BadGzipFile:
            yield _file_error(name, "file.not_a_log", "the file ends in .gz but is not gzip data")
        except EOFError:
            yield _file_error(
                name, "file.truncated", "the gzip stream ends early: the file is cut off"
            )
        except zlib.error as exc:
            yield _file_error(name, "file.truncated", f"the gzip data is corrupt ({exc})")
        except OSError as exc:
            yield _file_error(name, "file.unreadable", f"cannot read the file: {exc}")


def read_bytes(data: bytes, *, file: str = "<input>", kind: Kind = "json") -> list[SessionRecord]:
    """Read log text held in memory (``kind`` says whether it is JSON or JSONL)."""
    if kind == "json":
        return list(_read_json_text(data, file, DEFAULT_MAX_SESSION_BYTES))
    return list(_read_jsonl(io.BytesIO(data), file, DEFAULT_MAX_SESSION_BYTES))


def read_sessions(paths: Iterable[str | Path], exclude: Iterable[str] = ()) -> list[Session]:
    """Convenience: the accepted sessions (with their good hands) under ``paths``."""
    return [r.session for r in read_paths(paths, exclude) if r.session is not None]


def _file_error(file: str, code: str, message: str, line: int | None = 1) -> SessionRecord:
    return SessionRecord(
        file=file, line=line, index=0, session=None,
        errors=[LogError(code, message, file=file, line=line)],
    )  # fmt: skip


# --------------------------------------------------------------------------- JSONL


def _read_jsonl(
    stream: IO[bytes],
    file: str,
    max_session_bytes: int,
    span: ByteSpan | None = None,
    lane: Lane | None = None,
) -> Iterator[SessionRecord | Any]:
    line_no = 0
    index = 0
    pending: list[LogError] = []
    seen_content = False
    stop = None
    if span is not None:
        line_no = span.first_line - 1
        stop = span.stop
        seen_content = span.start > 0  # the file's first record is another span's
    while True:
        if stop is not None and stream.tell() >= stop:
            break
        try:
            chunk = stream.readline(max_session_bytes + 1)
        except (EOFError, zlib.error) as exc:
            cut = isinstance(exc, EOFError)
            yield SessionRecord(
                file, line_no + 1, index, None,
                pending + [LogError("file.truncated",
                                    "the gzip stream ends early: the file is cut off" if cut
                                    else f"the gzip data is corrupt ({exc})",
                                    file=file, line=line_no + 1)],
            )  # fmt: skip
            return
        if not chunk:
            break
        line_no += 1
        if line_no == 1 and chunk.startswith(_BOM):
            chunk = chunk[len(_BOM) :]
            pending.append(_bom_warning(file))
        if line_no == 1 and chunk.startswith(_UTF16_BOMS):
            yield SessionRecord(file, 1, 0, None, [_utf16_error(file)], raw=chunk)
            return
        if len(chunk) > max_session_bytes and not chunk.endswith(b"\n"):
            while True:  # drain the rest of the over-long line
                more = stream.readline(1 << 20)
                if not more or more.endswith(b"\n"):
                    break
            seen_content = True
            yield SessionRecord(
                file, line_no, index, None,
                pending + [LogError("file.too_large",
                                    f"the record is over {max_session_bytes} bytes",
                                    file=file, line=line_no)],
            )  # fmt: skip
            pending = []
            index += 1
            continue
        body = chunk.strip()
        if not body:
            continue
        if not seen_content and body[:1] not in (b"{", b"["):
            yield SessionRecord(
                file, line_no, 0, None,
                pending + [LogError("file.not_a_log", "the file is not JSON Lines: its first "
                                    f"record starts with {_preview(body)} instead of '{{'",
                                    file=file, line=line_no)],
                raw=chunk,
            )  # fmt: skip
            return
        seen_content = True
        if lane is not None and not pending:
            taken = lane(chunk, line_no)
            if taken is not None:
                yield taken
                index += 1
                continue
        at_eof = not chunk.endswith(b"\n")
        yield _record_from_bytes(chunk, file, line_no, index, pending, at_eof=at_eof)
        pending = []
        index += 1
    if not seen_content and (span is None or not stream.read(1)):  # (a later span's content)
        yield SessionRecord(
            file, 1, 0, None,
            pending + [LogError("file.empty", "the file holds no log records",
                                file=file, line=1)],
        )  # fmt: skip


def _preview(b: bytes) -> str:
    s = b[:12].decode("utf-8", "replace")
    return repr(s + ("…" if len(b) > 12 else ""))


def _utf16_error(file: str) -> LogError:
    return LogError("json.not_utf8", "the file is UTF-16 encoded; logs must be UTF-8 (save it "
                    "again as UTF-8)", file=file, line=1)  # fmt: skip


def _bom_warning(file: str) -> LogError:
    return LogError(
        "json.bom",
        "the file starts with a UTF-8 byte-order mark; logs are plain UTF-8 (the content was "
        "read anyway: `tarock fmt` removes the mark)",
        file=file, line=1,
    )  # fmt: skip


# --------------------------------------------------------------------------- .json


def _read_json_text(
    data: bytes, file: str, max_session_bytes: int = DEFAULT_MAX_SESSION_BYTES
) -> Iterator[SessionRecord]:
    pending: list[LogError] = []
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
        pending.append(_bom_warning(file))
    if data.startswith(_UTF16_BOMS):
        yield SessionRecord(file, 1, 0, None, [_utf16_error(file)], raw=data)
        return
    if not data.strip():
        yield SessionRecord(
            file, 1, 0, None,
            pending + [LogError("file.empty", "the file holds no log data", file=file,
                                line=1)],
        )  # fmt: skip
        return
    text, err = decode_utf8(data, file, 1)
    if err is not None:
        yield SessionRecord(file, err.line, 0, None, pending + [err], raw=data)
        return
    stripped = text.lstrip()
    first_line = 1 + text.count("\n", 0, len(text) - len(stripped))
    if stripped[:1] not in ("{", "["):
        yield SessionRecord(
            file, first_line, 0, None,
            pending + [LogError("file.not_a_log", "the file is not JSON: it starts with "
                                f"{_preview(stripped.encode())} instead of '{{' or '['",
                                file=file, line=first_line)],
            raw=data,
        )  # fmt: skip
        return
    derr = depth_error(data, file, 1)
    if derr is not None:
        yield SessionRecord(file, derr.line, 0, None, pending + [derr], raw=data)
        return
    if stripped[0] == "{":
        yield _record_from_text(text, data, file, 1, 0, pending, at_eof=True)
        return
    yield from _split_array(text, file, pending, max_session_bytes)


def _split_array(
    text: str, file: str, pending: list[LogError], max_session_bytes: int
) -> Iterator[SessionRecord]:
    """Yield one record per element of a top-level array, each with its own line number."""
    lines = _LineCounter(text)
    checks = Parser.for_text(text)  # (the checks every element needs, looked for once)
    pos = _WS_RE.match(text, 0).end() + 1  # type: ignore[union-attr]
    index = 0
    n = len(text)
    while True:
        pos = _WS_RE.match(text, pos).end()  # type: ignore[union-attr]
        if pos >= n:
            yield _truncated(file, lines.line(n), pending, "the array of sessions is not closed")
            return
        if text[pos] == "]" and index == 0:
            rest = _WS_RE.match(text, pos + 1).end()  # type: ignore[union-attr]
            if rest < n:
                yield _syntax(file, lines.line(rest), pending, "extra text after the array")
            elif pending:
                yield SessionRecord(file, 1, 0, None, pending)
            return
        start = pos
        parser = Parser(checks.long_ints)
        try:
            obj, end = parser.decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            rec = _json_error_record(exc, text, file, lines, pending)
            rec.index = index
            yield rec
            return
        except (ValueError, RecursionError) as exc:
            rec_line = lines.line(start)
            yield SessionRecord(file, rec_line, index, None,
                                pending + [number_error(exc, file, rec_line)])  # fmt: skip
            return
        rec_line = lines.line(start)
        raw = text[start:end].encode()
        if len(raw) > max_session_bytes:
            yield SessionRecord(
                file, rec_line, index, None,
                pending + [LogError("file.too_large", f"the session is over {max_session_bytes}"
                                    " bytes", file=file, line=rec_line)],
            )  # fmt: skip
        else:
            defects = parser.defects(obj)
            yield record_from_obj(obj, raw, file, rec_line, index, pending, defects)
        pending = []
        index += 1
        pos = _WS_RE.match(text, end).end()  # type: ignore[union-attr]
        if pos >= n:
            rec = _truncated(file, lines.line(n), [], "the array of sessions is not closed")
            rec.index = index
            yield rec
            return
        if text[pos] == ",":
            pos += 1
            continue
        if text[pos] == "]":
            rest = _WS_RE.match(text, pos + 1).end()  # type: ignore[union-attr]
            if rest < n:
                yield _syntax(file, lines.line(rest), [], "extra text after the array")
            return
        yield _syntax(file, lines.line(pos), [], f"expected ',' or ']' but found {text[pos]!r}")
        return


class _LineCounter:
    """1-based line of a text position, counted incrementally (positions grow)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.lineno = 1

    def line(self, pos: int) -> int:
        if pos < self.pos:
            return 1 + self.text.count("\n", 0, pos)
        self.lineno += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.lineno


def _truncated(file: str, line: int, pending: list[LogError], msg: str) -> SessionRecord:
    return SessionRecord(
        file, line, 0, None,
        pending + [LogError("file.truncated", f"the file ends early: {msg}", file=file,
                            line=line)],
    )  # fmt: skip


def _syntax(file: str, line: int, pending: list[LogError], msg: str) -> SessionRecord:
    return SessionRecord(
        file, line, 0, None, pending + [LogError("json.syntax", msg, file=file, line=line)]
    )


def _json_error_record(
    exc: json.JSONDecodeError, text: str, file: str, lines: _LineCounter, pending: list[LogError]
) -> SessionRecord:
    line = lines.line(exc.pos)
    if cut_off(exc, text):
        return _truncated(file, line, pending, f"{exc.msg.lower()} at the end of the text")
    return _syntax(file, line, pending, f"{exc.msg} (line {exc.lineno}, column {exc.colno})")


# --------------------------------------------------------------------------- one record


def _record_from_bytes(
    chunk: bytes, file: str, line: int, index: int, pending: list[LogError], *, at_eof: bool
) -> SessionRecord:
    text, err = decode_utf8(chunk, file, line)
    if err is None:
        obj = fast_decode(chunk)
        if obj is not SLOW:
            return record_from_obj(obj, chunk, file, line, index, pending, NO_DEFECTS)
    if err is not None:
        return SessionRecord(file, line, index, None, pending + [err], raw=chunk)
    derr = depth_error(chunk, file, line)
    if derr is not None:
        return SessionRecord(file, line, index, None, pending + [derr], raw=chunk)
    return _record_from_text(text, chunk, file, line, index, pending, at_eof=at_eof)


def _record_from_text(
    text: str, raw: bytes, file: str, line: int, index: int, pending: list[LogError], *,
    at_eof: bool,
) -> SessionRecord:  # fmt: skip
    parser = Parser.for_text(raw)
    text = text.rstrip("\r\n")
    try:
        obj = parser.decoder.decode(text)
    except json.JSONDecodeError as exc:
        eline = line + exc.lineno - 1
        if at_eof and cut_off(exc, text):
            err = LogError("file.truncated", "the file ends in the middle of a record "
                           f"({exc.msg.lower()})", file=file, line=eline)  # fmt: skip
        else:
            err = LogError("json.syntax", f"{exc.msg} (column {exc.colno})", file=file,
                           line=eline)  # fmt: skip
        return SessionRecord(file, line, index, None, pending + [err], raw=raw)
    except (ValueError, RecursionError) as exc:
        return SessionRecord(file, line, index, None, pending + [number_error(exc, file, line)],
                             raw=raw)  # fmt: skip
    return record_from_obj(obj, raw, file, line, index, pending, parser.defects(obj))
