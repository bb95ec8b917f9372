"""The streaming, lenient log reader.

It reads ``.json``, ``.jsonl``, ``.json.gz`` and ``.jsonl.gz`` files and yields one
:class:`SessionRecord` per session. It never raises on bad input: every problem becomes a
located :class:`~tarock_logs.log.errors.LogError` and reading goes on.

* **JSONL** is read line by line (gzip streamed), so a 1 GB file is never held in memory; one
  bad line never stops the rest. A ``.json`` file holds one session object or an array of
  sessions; it is read whole up to ``max_bytes`` and its array is split element by element.
* **Malformed JSON** (a byte-order mark, invalid UTF-8, duplicate keys, nesting deeper than
  :data:`MAX_DEPTH`, huge integers, NaN/Infinity, an empty or truncated file) becomes one located
  error; nesting depth is measured *before* parsing, so a 10,000-deep array never reaches the
  recursive parser.
* **Lenient import, one canonical form**: card tokens go through
  :func:`tarock_logs.cards.parse_card` (aliases, case, whitespace, diacritics); the cards of each
  dealt hand are put in canonical order; the talon keeps its dealt order (it defines the talon
  groups). Normalisation happens before the strict pydantic validation.
* **One bad hand never sinks its session**: the session envelope (everything but ``hands``) is
  validated first, then every hand on its own. Good hands land in ``session.hands``; bad ones in
  :attr:`SessionRecord.rejected_hands` with their errors. A session whose envelope is invalid is
  yielded with ``session=None``.
* **Structural checks** beyond the schema: every card in the game's pack, no card dealt twice,
  hand and talon sizes for the game and table, seats at the table (and not the sitting-out
  dealer of a table of five), per-seat result lists of the right length, unique hand numbers,
  and (a warning) the dealer rotation. The legality of actions is the engines' business.

Where errors live: :attr:`SessionRecord.errors` holds the errors of the session itself (file,
JSON and envelope errors) and the warnings of accepted hands; each rejected hand carries its own
errors. :meth:`SessionRecord.all_errors` gives both.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import IO, Any, Final, Literal

import orjson
from pydantic import TypeAdapter, ValidationError

from tarock_logs.cards import PACKS, CardError, normalize_token, parse_card, sort_cards
from tarock_logs.log.errors import LogError, schema_code
from tarock_logs.log.models import (
    ACTION_TYPES,
    FORMAT_NAME,
    FORMAT_VERSION,
    Hand,
    HandAdapter,
    Play,
    Session,
    SessionAdapter,
)

_PACK_SETS: Final = {g: frozenset(p) for g, p in PACKS.items()}

#: Validated plain card plays by (seat, card): at most 5 seats × 54 cards (per pack).
_PLAYS: dict[tuple[int, str], Play] = {}
_PLAY: Final = TypeAdapter(Play)

#: File suffixes the reader picks up when it walks a folder.
SUFFIXES: Final = (".json", ".jsonl", ".json.gz", ".jsonl.gz")
#: Deepest nesting of arrays and objects accepted in one record.
MAX_DEPTH: Final = 64
#: Largest ``.json`` file read (it is read whole); JSONL files have no limit.
DEFAULT_MAX_BYTES: Final = 256 * 1024 * 1024
#: Largest single session record (one JSONL line, or one element of a ``.json`` array).
DEFAULT_MAX_SESSION_BYTES: Final = 32 * 1024 * 1024

_BOM: Final = b"\xef\xbb\xbf"
_UTF16_BOMS: Final = (b"\xff\xfe", b"\xfe\xff")
_STRING_RE_B: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_TOKEN_RE_B: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)
_NON_BRACKET_BYTES: Final = bytes(b for b in range(256) if b not in b"[]{}")
_NON_BRACKET_QUOTE_BYTES: Final = bytes(b for b in range(256) if b not in b'[]{}"')
_DEPTH_STEP_B: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_WS_RE: Final = re.compile(r"[ \t\n\r]*")
_UNION_TAGS: Final = frozenset(ACTION_TYPES) | {"renons", "misdeal", "arbiter", "penalty"}
_TAGGED_LISTS: Final = frozenset({"actions", "irregularities"})
_SCALAR_UNION_TAGS: Final = frozenset({"str", "int", "bool", "float"})

Kind = Literal["json", "jsonl"]


# --------------------------------------------------------------------------- records


@dataclass
class RejectedHand:
    """A hand that failed validation: its number (if readable), its 0-based position in the
    session's ``hands`` array, its JSON text and its errors."""

    number: int | None
    index: int
    raw: bytes
    errors: list[LogError]


@dataclass
class SessionRecord:
    """One session as read from a file.

    ``line`` is the 1-based line where the record starts (JSONL: its line; ``.json``: where the
    session object starts) or None; ``index`` is the record's 0-based position in the file;
    ``raw`` is the original text of the session. ``session`` is None when the record could not
    be read as a session at all (then ``errors`` says why).
    """

    file: str
    line: int | None
    index: int
    session: Session | None
    errors: list[LogError] = field(default_factory=list)
    raw: bytes = b""
    rejected_hands: list[RejectedHand] = field(default_factory=list)

    def all_errors(self) -> list[LogError]:
        """Session errors and warnings, then every rejected hand's errors, in file order."""
        out = list(self.errors)
        for rh in self.rejected_hands:
            out.extend(rh.errors)
        return out

    @property
    def ok(self) -> bool:
        """True when the whole record was accepted (warnings allowed)."""
        return (
            self.session is not None
            and not self.rejected_hands
            and not any(e.is_error for e in self.errors)
        )


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


def read_file(
    path: str | Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_session_bytes: int = DEFAULT_MAX_SESSION_BYTES,
    span: ByteSpan | None = None,
) -> Iterator[SessionRecord]:
    """Stream the session records of one file. Never raises on bad input.

    ``span`` reads only those lines of a plain ``.jsonl`` file (see :class:`ByteSpan`); the
    checks that belong to the file's start (byte-order mark, first record, empty file) run
    only in the span that starts at byte 0.
    """
    name = str(path)
    kind = log_kind(name)
    if span is not None and (kind != "jsonl" or name.lower().endswith(".gz")):
        raise ValueError("a byte span can only be read from an uncompressed JSONL file")
    if kind is None:
        yield _file_error(
            name,
            "E-FILE-TYPE",
            f"{Path(name).name} is not a log file: tarock logs end in " + ", ".join(SUFFIXES),
        )
        return
    gz = name.lower().endswith(".gz")
    try:
        stream: IO[bytes] = gzip.open(name, "rb") if gz else open(name, "rb")  # type: ignore[assignment]
    except OSError as exc:
        yield _file_error(name, "E-FILE-READ", f"cannot open the file: {exc.strerror or exc}")
        return
    with stream:
        try:
            if kind == "jsonl" and span is not None:
                stream.seek(span.start)
                yield from _read_jsonl(stream, name, max_session_bytes, span=span)
            elif kind == "jsonl":
                yield from _read_jsonl(stream, name, max_session_bytes)
            else:
                data = stream.read(max_bytes + 1)
                if len(data) > max_bytes:
                    yield _file_error(
                        name,
                        "E-FILE-TOO-LARGE",
                        f"the .json file is over {max_bytes} bytes; split it or use JSONL",
                    )
                    return
                yield from _read_json_text(data, name, max_session_bytes)
        except gzip.BadGzipFile:
            yield _file_error(name, "E-FILE-TYPE", "the file ends in .gz but is not gzip data")
        except EOFError:
            yield _file_error(
                name, "E-FILE-TRUNCATED", "the gzip stream ends early: the file is cut off"
            )
        except zlib.error as exc:
            yield _file_error(name, "E-FILE-TRUNCATED", f"the gzip data is corrupt ({exc})")
        except OSError as exc:
            yield _file_error(name, "E-FILE-READ", f"cannot read the file: {exc}")


def read_bytes(data: bytes, *, file: str = "<input>", kind: Kind = "json") -> list[SessionRecord]:
    """Read log text held in memory (``kind`` says whether it is JSON or JSONL)."""
    if kind == "json":
        return list(_read_json_text(data, file, DEFAULT_MAX_SESSION_BYTES))
    import io

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
    stream: IO[bytes], file: str, max_session_bytes: int, span: ByteSpan | None = None
) -> Iterator[SessionRecord]:
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
                pending + [LogError("E-FILE-TRUNCATED",
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
                pending + [LogError("E-FILE-TOO-LARGE",
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
                pending + [LogError("E-FILE-TYPE", "the file is not JSON Lines: its first "
                                    f"record starts with {_preview(body)} instead of '{{'",
                                    file=file, line=line_no)],
                raw=chunk,
            )  # fmt: skip
            return
        seen_content = True
        at_eof = not chunk.endswith(b"\n")
        yield _record_from_bytes(chunk, file, line_no, index, pending, at_eof=at_eof)
        pending = []
        index += 1
    if not seen_content and (span is None or not stream.read(1)):  # (a later span's content)
        yield SessionRecord(
            file, 1, 0, None,
            pending + [LogError("E-FILE-EMPTY", "the file holds no log records",
                                file=file, line=1)],
        )  # fmt: skip


def _preview(b: bytes) -> str:
    s = b[:12].decode("utf-8", "replace")
    return repr(s + ("…" if len(b) > 12 else ""))


def _utf16_error(file: str) -> LogError:
    return LogError("E-JSON-UTF8", "the file is UTF-16 encoded; logs must be UTF-8 (save it "
                    "again as UTF-8)", file=file, line=1)  # fmt: skip


def _bom_warning(file: str) -> LogError:
    return LogError(
        "E-JSON-BOM",
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
            pending + [LogError("E-FILE-EMPTY", "the file holds no log data", file=file,
                                line=1)],
        )  # fmt: skip
        return
    text, err = _decode_utf8(data, file, 1)
    if err is not None:
        yield SessionRecord(file, err.line, 0, None, pending + [err], raw=data)
        return
    stripped = text.lstrip()
    first_line = 1 + text.count("\n", 0, len(text) - len(stripped))
    if stripped[:1] not in ("{", "["):
        yield SessionRecord(
            file, first_line, 0, None,
            pending + [LogError("E-FILE-TYPE", "the file is not JSON: it starts with "
                                f"{_preview(stripped.encode())} instead of '{{' or '['",
                                file=file, line=first_line)],
            raw=data,
        )  # fmt: skip
        return
    derr = _depth_error(data, file, 1)
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
        parser = _Parser()
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
                                pending + [_number_error(exc, file, rec_line)])  # fmt: skip
            return
        rec_line = lines.line(start)
        raw = text[start:end].encode()
        if len(raw) > max_session_bytes:
            yield SessionRecord(
                file, rec_line, index, None,
                pending + [LogError("E-FILE-TOO-LARGE", f"the session is over {max_session_bytes}"
                                    " bytes", file=file, line=rec_line)],
            )  # fmt: skip
        else:
            yield _record_from_obj(obj, raw, file, rec_line, index, pending, parser.dups)
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
        pending + [LogError("E-FILE-TRUNCATED", f"the file ends early: {msg}", file=file,
                            line=line)],
    )  # fmt: skip


def _syntax(file: str, line: int, pending: list[LogError], msg: str) -> SessionRecord:
    return SessionRecord(
        file, line, 0, None, pending + [LogError("E-JSON-SYNTAX", msg, file=file, line=line)]
    )


def _json_error_record(
    exc: json.JSONDecodeError, text: str, file: str, lines: _LineCounter, pending: list[LogError]
) -> SessionRecord:
    line = lines.line(exc.pos)
    if _cut_off(exc, text):
        return _truncated(file, line, pending, f"{exc.msg.lower()} at the end of the text")
    return _syntax(file, line, pending, f"{exc.msg} (line {exc.lineno}, column {exc.colno})")


def _cut_off(exc: json.JSONDecodeError, text: str) -> bool:
    """True when a parse error means the text simply stops (a truncated file)."""
    return exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")


# --------------------------------------------------------------------------- parsing


class _Parser:
    """A JSON decoder that notes duplicate keys and rejects NaN, Infinity and inf floats."""

    __slots__ = ("decoder", "dups")

    def __init__(self) -> None:
        self.dups: list[_DupDict] = []
        self.decoder = json.JSONDecoder(
            object_pairs_hook=self._pairs,
            parse_constant=_reject_constant,
            parse_float=_parse_float,
        )

    def _pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(pairs)
        if len(d) != len(pairs):
            dd = _DupDict(d)
            seen: set[str] = set()
            dd.dup_keys = sorted({k for k, _ in pairs if k in seen or seen.add(k)})  # type: ignore[func-returns-value]
            self.dups.append(dd)
            return dd
        return d


class _DupDict(dict):  # type: ignore[type-arg]
    dup_keys: list[str] = []


class _NumberError(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _NumberError(f"{name} is not a number a log may hold")


def _parse_float(s: str) -> float:
    f = float(s)
    if not math.isfinite(f):
        raise _NumberError(f"the number {s[:20]} is too large")
    return f


def _number_error(exc: BaseException, file: str, line: int | None) -> LogError:
    if isinstance(exc, RecursionError):
        return LogError("E-JSON-DEPTH", f"nesting deeper than {MAX_DEPTH} levels", file=file,
                        line=line)  # fmt: skip
    msg = str(exc)
    if "integer string conversion" in msg:
        digits = re.search(r"value has (\d+) digits", msg)
        msg = f"an integer with {digits.group(1) if digits else 'too many'} digits"
    return LogError("E-JSON-NUMBER", f"number out of range: {msg}", file=file, line=line)


def _decode_utf8(data: bytes, file: str, base_line: int) -> tuple[str, LogError | None]:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = base_line + data.count(b"\n", 0, exc.start)
        bad = data[exc.start : exc.start + 1].hex()
        return "", LogError(
            "E-JSON-UTF8",
            f"byte 0x{bad} at offset {exc.start} is not valid UTF-8 (logs must be UTF-8)",
            file=file, line=line,
        )  # fmt: skip


def _depth_error(data: bytes, file: str, base_line: int) -> LogError | None:
    """Measure nesting without recursion; an error when it exceeds :data:`MAX_DEPTH`.

    Strings are cut out first (a bracket inside a string is not nesting), then the running
    depth of the remaining brackets is computed; all of it in C except one pass over the
    brackets.
    """
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return None
    brackets = _STRING_RE_B.sub(b"", data).translate(None, _NON_BRACKET_BYTES)
    if len(brackets) <= 2 * MAX_DEPTH:
        return None
    if max(accumulate(map(_DEPTH_STEP_B.__getitem__, brackets))) <= MAX_DEPTH:
        return None
    depth = 0
    pos = 0
    for m in _TOKEN_RE_B.finditer(data):
        ch = m.group()
        if ch in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                pos = m.start()
                break
        elif ch in (b"]", b"}"):
            depth -= 1
    line = base_line + data.count(b"\n", 0, pos)
    return LogError(
        "E-JSON-DEPTH",
        f"arrays/objects are nested more than {MAX_DEPTH} levels deep; a log never needs that",
        file=file, line=line,
    )  # fmt: skip


_PAIR_RE_B: Final = re.compile(rb"\[\]|\{\}")
_LONG_INT_RE_B: Final = re.compile(rb"[0-9]{19}")
_NO_DUPS: Final[list[_DupDict]] = []


def _fast_decode(chunk: bytes) -> Any:
    """The parsed record when a cheap check proves the careful path would give the same value
    with no error; else ``_SLOW`` (the caller then takes the careful path, which reports).

    The careful path decodes with the stdlib to record duplicate keys and measures nesting by
    cutting out strings with a regex; together they were ~40 % of reading a hand. Here, for a
    record without backslashes (so no escapes: a string is exactly the text between two
    quotes, and orjson writes it back byte for byte):

    * **nesting**: keeping only quotes and brackets and dropping every ``""`` leaves the
      structural brackets when no string holds a bracket (a string that does leaves a quote,
      and then :func:`_fast_decode_split` measures on the text with the strings cut out);
      removing innermost ``[]``/``{}`` pairs once per level measures the nesting exactly;
    * **duplicate keys**: orjson keeps one value per key, so its output has as many colons as
      the text only when no key was written twice (colons inside strings are the same on both
      sides, numbers have none);
    * **numbers**: an integer orjson cannot hold exactly (beyond 64 bits) comes back as a
      float, written with an ``e`` or a ``.``; so the counts of ``e``, ``E`` and ``.`` must
      match too (a float written another way, e.g. ``1e3``, also sends the record to the
      careful path, which is only slower).
    """
    if b"\\" in chunk:
        return _SLOW
    brackets = chunk.translate(None, _NON_BRACKET_QUOTE_BYTES).replace(b'""', b"")
    if b'"' in brackets:
        return _fast_decode_split(chunk)
    obj = _parse_if_shallow(chunk, brackets)
    if obj is _SLOW:
        return _SLOW
    out = orjson.dumps(obj)
    for ch in (b":", b"e", b"E", b"."):
        if out.count(ch) != chunk.count(ch):
            return _SLOW
    return obj


def _fast_decode_split(chunk: bytes) -> Any:
    """:func:`_fast_decode` for a record with brackets inside strings: the structure is the
    text between the strings (split at the quotes); no integer may have 19 or more digits
    (orjson turns those beyond 64 bits into floats), and the parsed value must have as many
    keys as the text (no duplicate key)."""
    structure = b"".join(chunk.split(b'"')[0::2])
    if _LONG_INT_RE_B.search(structure) is not None:
        return _SLOW
    obj = _parse_if_shallow(chunk, structure.translate(None, _NON_BRACKET_BYTES))
    if obj is _SLOW:
        return _SLOW
    # no backslash in the input, so none in orjson's output: every '":' there ends a key
    if orjson.dumps(obj).count(b'":') != structure.count(b":"):
        return _SLOW
    return obj


def _parse_if_shallow(chunk: bytes, brackets: bytes) -> Any:
    """orjson's parse of ``chunk`` when its structural ``brackets`` are balanced and nested
    at most :data:`MAX_DEPTH` deep (innermost ``[]``/``{}`` pairs removed once per level),
    else ``_SLOW`` (too deep, unbalanced or not JSON: the careful path says which)."""
    for _ in range(MAX_DEPTH):
        if not brackets:
            break
        brackets = _PAIR_RE_B.sub(b"", brackets)
    if brackets:
        return _SLOW
    try:
        return orjson.loads(chunk)
    except orjson.JSONDecodeError:
        return _SLOW


_SLOW: Final = object()


def _record_from_bytes(
    chunk: bytes, file: str, line: int, index: int, pending: list[LogError], *, at_eof: bool
) -> SessionRecord:
    text, err = _decode_utf8(chunk, file, line)
    if err is None:
        obj = _fast_decode(chunk)
        if obj is not _SLOW:
            return _record_from_obj(obj, chunk, file, line, index, pending, _NO_DUPS)
    if err is not None:
        return SessionRecord(file, line, index, None, pending + [err], raw=chunk)
    derr = _depth_error(chunk, file, line)
    if derr is not None:
        return SessionRecord(file, line, index, None, pending + [derr], raw=chunk)
    return _record_from_text(text, chunk, file, line, index, pending, at_eof=at_eof)


def _record_from_text(
    text: str, raw: bytes, file: str, line: int, index: int, pending: list[LogError], *,
    at_eof: bool,
) -> SessionRecord:  # fmt: skip
    parser = _Parser()
    text = text.rstrip("\r\n")
    try:
        obj = parser.decoder.decode(text)
    except json.JSONDecodeError as exc:
        eline = line + exc.lineno - 1
        if at_eof and _cut_off(exc, text):
            err = LogError("E-FILE-TRUNCATED", "the file ends in the middle of a record "
                           f"({exc.msg.lower()})", file=file, line=eline)  # fmt: skip
        else:
            err = LogError("E-JSON-SYNTAX", f"{exc.msg} (column {exc.colno})", file=file,
                           line=eline)  # fmt: skip
        return SessionRecord(file, line, index, None, pending + [err], raw=raw)
    except (ValueError, RecursionError) as exc:
        return SessionRecord(file, line, index, None, pending + [_number_error(exc, file, line)],
                             raw=raw)  # fmt: skip
    return _record_from_obj(obj, raw, file, line, index, pending, parser.dups)


# --------------------------------------------------------------------------- validation


def _record_from_obj(
    obj: Any, raw: bytes, file: str, line: int | None, index: int, pending: list[LogError],
    dups: list[_DupDict],
) -> SessionRecord:  # fmt: skip
    v = _Validator(file, line)
    session, rejected = v.session(obj, dups)
    return SessionRecord(file, line, index, session, pending + v.errors, raw, rejected)


def _dup_paths(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(path, key) of every duplicate key, found by walking the parsed value."""
    stack = [(obj, path)]
    while stack:
        o, p = stack.pop()
        if isinstance(o, dict):
            if isinstance(o, _DupDict):
                for k in o.dup_keys:
                    yield p + (k,), k
            stack.extend((v, p + (k,)) for k, v in o.items())
        elif isinstance(o, list):
            stack.extend((v, p + (i,)) for i, v in enumerate(o))


def _json_path(loc: Iterable[Any], base: str = "$") -> str:
    out = [base]
    for el in loc:
        if isinstance(el, int):
            out.append(f"[{el}]")
        elif isinstance(el, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", el):
            out.append("." + el)
        else:
            out.append(f"[{json.dumps(el, ensure_ascii=False)}]")
    return "".join(out)


def _clean_loc(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """Drop pydantic's union tags from an error location (``actions, 3, play, card``)."""
    out: list[Any] = []
    for k, el in enumerate(loc):
        if (
            k >= 2
            and isinstance(loc[k - 1], int)
            and loc[k - 2] in _TAGGED_LISTS
            and el in _UNION_TAGS
        ):
            continue
        if k >= 2 and loc[k - 2] in ("options", "params") and el in _SCALAR_UNION_TAGS:
            continue
        out.append(el)
    return tuple(out)


def _dump_raw(obj: Any) -> bytes:
    try:
        return orjson.dumps(obj)
    except TypeError:
        return json.dumps(obj, ensure_ascii=False).encode()


def _short(value: Any) -> str:
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    r = repr(value)
    return r if len(r) <= 40 else r[:37] + "..."


def _expected_sizes(game: str, n: int, dealer: int) -> tuple[list[int], int] | None:
    """Cards per seat and talon size for ``game`` at a table of ``n`` (None: no rule)."""
    if game == "slovenian":
        if n == 3:
            return [16] * 3, 6
        if n == 4:
            return [12] * 4, 6
        if n == 5:
            return [0 if s == dealer else 12 for s in range(5)], 6
        return None
    if n == 4:
        return [10] * 4, 0
    return None


def _all_pack(pack: frozenset[str], tokens: list[Any]) -> bool:
    """Every element is a card token of ``pack`` (which holds only strings, so a number or
    any other value is not in it; an unhashable one is not a card either)."""
    try:
        return pack.issuperset(tokens)
    except TypeError:
        return False


class _Validator:
    """Validates one session record, collecting located errors."""

    def __init__(self, file: str, line: int | None) -> None:
        self.file = file
        self.line = line
        self.sid: str | None = None
        self.errors: list[LogError] = []

    def err(
        self, code: str, message: str, path: str | None = None, *, hand: int | None = None,
        action: int | None = None, severity: str = "error", into: list[LogError] | None = None,
    ) -> None:  # fmt: skip
        e = LogError(code, message, self.file, self.line, self.sid, hand, action, path,
                     severity)  # type: ignore[arg-type]  # fmt: skip
        (self.errors if into is None else into).append(e)

    def schema_errors(
        self, exc: ValidationError, base: str, hand: int | None, into: list[LogError]
    ) -> None:
        seen: set[str] = set()
        for e in exc.errors(include_url=False):
            loc = _clean_loc(tuple(e["loc"]))
            path = _json_path(loc, base)
            if path in seen and e["type"] != "missing":
                continue
            seen.add(path)
            action = (
                loc[1] if len(loc) > 1 and loc[0] == "actions" and isinstance(loc[1], int) else None
            )
            t = e["type"]
            field_name = next((x for x in reversed(loc) if isinstance(x, str)), "record")
            if t == "missing":
                msg = f"the required field {field_name!r} is missing"
            elif t == "extra_forbidden":
                msg = f"{field_name!r} is not a field of log format v1 here"
            elif t == "union_tag_invalid":
                ctx = e.get("ctx", {})
                msg = (f"unknown type {ctx.get('tag')!r}; expected one of "
                       f"{ctx.get('expected_tags', '?')}")  # fmt: skip
            elif t == "union_tag_not_found":
                msg = "the entry has no 'type' field"
            else:
                msg = f"{field_name}: {e['msg']} (found {_short(e.get('input'))})"
            self.err(schema_code(t), msg, path, hand=hand, action=action, into=into)

    # ------------------------------------------------------------------ session envelope

    def session(self, obj: Any, dups: list[_DupDict]) -> tuple[Session | None, list[RejectedHand]]:
        if not isinstance(obj, dict):
            kind = type(obj).__name__ if obj is not None else "null"
            self.err("E-SCHEMA-MODEL-TYPE", f"a session must be a JSON object, found {kind}", "$")
            return None, []
        sid = obj.get("id")
        self.sid = sid if isinstance(sid, str) else None
        hand_dups: dict[int, list[tuple[tuple[Any, ...], str]]] = {}
        if dups:
            for p, key in _dup_paths(obj):
                if len(p) >= 3 and p[0] == "hands" and isinstance(p[1], int):
                    hand_dups.setdefault(p[1], []).append((p[2:], key))
                else:
                    self.err("E-JSON-DUPLICATE-KEY",
                             f"the key {key!r} appears more than once in one object",
                             _json_path(p))  # fmt: skip
        if "format" in obj and obj["format"] != FORMAT_NAME:
            self.err("E-FORMAT-VERSION", f"format {_short(obj['format'])} is not a tarock log "
                     f"(expected {FORMAT_NAME!r})", "$.format")  # fmt: skip
            return None, []
        fv = obj.get("format_version")
        if "format_version" in obj and (type(fv) is not int or fv != FORMAT_VERSION):
            self.err("E-FORMAT-VERSION", f"format_version {_short(fv)} is not supported: this "
                     f"reader reads version {FORMAT_VERSION}", "$.format_version")  # fmt: skip
            return None, []
        hands_raw = obj.get("hands", [])
        envelope = dict(obj)
        if isinstance(hands_raw, list):
            envelope["hands"] = []
        try:
            env = SessionAdapter.validate_python(envelope)
        except ValidationError as exc:
            self.schema_errors(exc, "$", None, self.errors)
            return None, []
        self.envelope_checks(env)
        if any(e.is_error for e in self.errors):
            return None, []
        good: list[Hand] = []
        rejected: list[RejectedHand] = []
        numbers: set[int] = set()
        for i, h in enumerate(hands_raw):
            herrs: list[LogError] = []
            number = h.get("number") if isinstance(h, dict) else None
            number = number if type(number) is int else None
            for p, key in hand_dups.get(i, ()):
                act = p[1] if len(p) > 1 and p[0] == "actions" and isinstance(p[1], int) else None
                self.err("E-JSON-DUPLICATE-KEY",
                         f"the key {key!r} appears more than once in one object",
                         _json_path(p, f"$.hands[{i}]"), hand=number, action=act,
                         into=herrs)  # fmt: skip
            hand = self.hand(h, i, env, number, herrs)
            if hand is not None and hand.number in numbers:
                self.err("E-HAND-NUMBER-DUPLICATE", f"hand number {hand.number} is used by an "
                         "earlier hand of this session", f"$.hands[{i}].number",
                         hand=number, into=herrs)  # fmt: skip
            if hand is None or any(e.is_error for e in herrs):
                rejected.append(RejectedHand(number, i, _dump_raw(h), herrs))
            else:
                numbers.add(hand.number)
                good.append(hand)
                self.errors.extend(herrs)
        self.rotation_checks(env, good, hands_raw)
        return env.model_copy(update={"hands": good}), rejected

    def envelope_checks(self, env: Session) -> None:
        n = len(env.players)
        if env.game in ("zwanzigerrufen", "royal") and n != 4:
            self.err("E-TABLE-SIZE", f"{env.game} is played by 4 players; this session seats {n}",
                     "$.players")  # fmt: skip
        if env.first_dealer is not None and env.first_dealer >= n:
            self.err("E-SEAT-RANGE", f"first_dealer {env.first_dealer} is not a seat at this "
                     f"table of {n} (seats 0..{n - 1})", "$.first_dealer")  # fmt: skip
        if env.recorded is not None:
            for name in ("totals", "placement_points"):
                vals = getattr(env.recorded, name)
                if vals is not None and len(vals) != n:
                    self.err("E-RESULT-SIZE", f"recorded {name} has {len(vals)} entries for "
                             f"{n} seats", f"$.recorded.{name}")  # fmt: skip
        if env.game == "royal" and n == 4:
            self.royal_pairs(env)

    def royal_pairs(self, env: Session) -> None:
        seats: dict[tuple[str | None, str | None], list[int]] = {}
        for s, p in enumerate(env.players):
            seats.setdefault((p.pair, p.role), []).append(s)
        ok = all(len(seats.get((pr, rl), [])) == 1 for pr in "AB"
                 for rl in ("abfaenger", "eintreiber"))  # fmt: skip
        if not ok:
            self.err("E-ROYAL-PAIRS", "Royal Tarock needs two fixed pairs A and B, each with one "
                     "'abfaenger' and one 'eintreiber' (set pair and role of every player)",
                     "$.players")  # fmt: skip
            return
        for pr in "AB":
            abf = seats[(pr, "abfaenger")][0]
            ein = seats[(pr, "eintreiber")][0]
            if ein != (abf + 1) % 4:
                self.err("E-ROYAL-PAIRS", f"pair {pr}: the eintreiber (seat {ein}) must sit "
                         f"right after the abfaenger (seat {abf}) in playing order",
                         "$.players")  # fmt: skip

    def rotation_checks(self, env: Session, good: list[Hand], hands_raw: Any) -> None:
        n = len(env.players)
        step = 2 if env.game == "royal" else 1
        prev: Hand | None = None
        for h in good:
            expected: int | None = None
            if prev is None:
                if env.first_dealer is not None and h.number == 1:
                    expected = env.first_dealer
            elif h.number == prev.number + 1:
                thrown = any(a.type == "throw_in" for a in prev.actions)
                expected = prev.dealer if thrown else (prev.dealer + step) % n
            if expected is not None and h.dealer != expected and h.dealer < n:
                idx = next(i for i, x in enumerate(hands_raw)
                           if isinstance(x, dict) and x.get("number") == h.number)  # fmt: skip
                why = ("the first dealer" if prev is None else
                       f"hand {prev.number} was dealt by seat {prev.dealer}")  # fmt: skip
                self.err("E-DEALER-ROTATION", f"hand {h.number} is dealt by seat {h.dealer}, but "
                         f"the rotation gives seat {expected} ({why})",
                         f"$.hands[{idx}].dealer", hand=h.number,
                         severity="warning")  # fmt: skip
            prev = h

    # ------------------------------------------------------------------ one hand

    def hand(
        self, h: Any, i: int, env: Session, number: int | None, herrs: list[LogError]
    ) -> Hand | None:
        base = f"$.hands[{i}]"
        if not isinstance(h, dict):
            self.err("E-SCHEMA-MODEL-TYPE", f"a hand must be a JSON object, found "
                     f"{type(h).__name__}", base, into=herrs)  # fmt: skip
            return None
        game = env.game
        card_errs: list[LogError] = []
        norm = self.normalise(h, game, base, number, card_errs)
        try:
            hand = HandAdapter.validate_python(norm)
        except ValidationError as exc:
            herrs.extend(card_errs)
            self.schema_errors(exc, base, number, herrs)
            return None
        if card_errs:
            herrs.extend(card_errs)
            return None
        self.structure(hand, env, base, herrs)
        return hand

    def normalise(
        self, h: dict[str, Any], game: str, base: str, number: int | None, errs: list[LogError]
    ) -> dict[str, Any]:
        pack = _PACK_SETS[game]
        out = dict(h)
        deal = h.get("deal")
        if isinstance(deal, dict):
            d = dict(deal)
            hands = deal.get("hands")
            if isinstance(hands, list):
                d["hands"] = [
                    sort_cards(cs, game)
                    if type(cs) is list and _all_pack(pack, cs)
                    else self.cards(cs, game, f"{base}.deal.hands[{k}]", number, None, errs, True)
                    for k, cs in enumerate(hands)
                ]
            talon = deal.get("talon")
            if talon is not None and not (type(talon) is list and _all_pack(pack, talon)):
                d["talon"] = self.cards(talon, game, f"{base}.deal.talon", number, None, errs,
                                        False)  # fmt: skip
            out["deal"] = d
        actions = h.get("actions")
        if isinstance(actions, list):
            new_actions = actions
            plays = _PLAYS
            for j, a in enumerate(actions):
                if type(a) is not dict:
                    continue
                c = a.get("card")
                if len(a) == 3 and type(c) is str and c in pack:
                    # a plain card play {type, seat, card}: the same validated (frozen,
                    # immutable) Play for every hand that has it; validated the first time
                    # and only kept when valid, so any defect is still reported in place
                    seat = a.get("seat")
                    if type(seat) is int and a.get("type") == "play":
                        p = plays.get((seat, c))
                        if p is None:
                            try:
                                p = _PLAY.validate_python(a)
                            except ValidationError:
                                continue
                            plays[(seat, c)] = p
                        if new_actions is actions:
                            new_actions = list(actions)
                        new_actions[j] = p
                        continue
                cs = a.get("cards")
                sh = a.get("shown")
                if (
                    (c is None or (type(c) is str and c in pack))
                    and (
                        cs is None
                        or (type(cs) is list and all(type(x) is str and x in pack for x in cs))
                    )
                    and (
                        sh is None
                        or (type(sh) is list and all(type(x) is str and x in pack for x in sh))
                    )
                ):
                    continue
                if new_actions is actions:
                    new_actions = list(actions)
                a = dict(a)
                ap = f"{base}.actions[{j}]"
                if isinstance(c, str):
                    a["card"] = self.card(c, game, ap + ".card", number, j, errs)
                for key in ("cards", "shown"):
                    if key in a:
                        a[key] = self.cards(a[key], game, f"{ap}.{key}", number, j, errs,
                                            False)  # fmt: skip
                new_actions[j] = a
            out["actions"] = new_actions
        return out

    def card(
        self, tok: str, game: str, path: str, number: int | None, action: int | None,
        errs: list[LogError],
    ) -> str:  # fmt: skip
        try:
            return parse_card(tok, game)
        except CardError:
            pass
        try:
            canon = normalize_token(tok, game)
        except CardError:
            self.err("E-CARD-UNKNOWN", f"{tok!r} is not a card of the {game} pack", path,
                     hand=number, action=action, into=errs)  # fmt: skip
            return tok
        self.err("E-CARD-NOT-IN-PACK", f"{tok!r} ({canon}) is a card, but the {game} pack "
                 "does not have it", path, hand=number, action=action, into=errs)  # fmt: skip
        return tok

    def cards(
        self, lst: Any, game: str, path: str, number: int | None, action: int | None,
        errs: list[LogError], sort: bool,
    ) -> Any:  # fmt: skip
        if not isinstance(lst, list):
            return lst
        before = len(errs)
        out = [
            self.card(t, game, f"{path}[{k}]", number, action, errs) if isinstance(t, str) else t
            for k, t in enumerate(lst)
        ]
        if sort and len(errs) == before and all(isinstance(t, str) for t in out):
            out = sort_cards(out, game)
        return out

    def structure(self, hand: Hand, env: Session, base: str, errs: list[LogError]) -> None:
        n = len(env.players)
        num = hand.number
        game = env.game

        def seat_ok(seat: int | None, path: str, what: str, action: int | None = None) -> bool:
            if seat is not None and seat >= n:
                self.err("E-SEAT-RANGE", f"{what} seat {seat} is not at this table of {n} "
                         f"(seats 0..{n - 1})", path, hand=num, action=action,
                         into=errs)  # fmt: skip
                return False
            return True

        dealer_ok = seat_ok(hand.dealer, f"{base}.dealer", "the dealer")
        seat_ok(hand.deal.cut_by, f"{base}.deal.cut_by", "the cutter")
        if dealer_ok:
            self.deal_checks(hand, game, n, base, errs)
        sits_out = hand.dealer if (game == "slovenian" and n == 5 and dealer_ok) else -1
        acts = hand.actions
        odd = [j for j, a in enumerate(acts) if a.seat >= n or a.seat == sits_out]
        for j in odd:  # (usually none: one pass above instead of a branch per action)
            a = acts[j]
            if seat_ok(a.seat, f"{base}.actions[{j}].seat", "the acting", j):
                self.err("E-SEAT-INACTIVE", f"seat {a.seat} deals and sits out at a table of "
                         f"five, but makes a {a.type!r} action", f"{base}.actions[{j}].seat",
                         hand=num, action=j, into=errs)  # fmt: skip
        for j, irr in enumerate(hand.irregularities):
            ip = f"{base}.irregularities[{j}]"
            for attr in ("offender", "called_by", "seat"):
                seat_ok(getattr(irr, attr, None), f"{ip}.{attr}", f"the {attr.replace('_', ' ')}")
            for k, adj in enumerate(getattr(irr, "adjustments", ())):
                seat_ok(adj.seat, f"{ip}.adjustments[{k}].seat", "the adjusted")
        r = hand.result
        if r is not None:
            if len(r.scores) != n:
                self.err("E-RESULT-SIZE", f"the result has {len(r.scores)} scores for {n} seats",
                         f"{base}.result.scores", hand=num, into=errs)  # fmt: skip
            if r.radelci_after is not None and len(r.radelci_after) != n:
                self.err("E-RESULT-SIZE", f"radelci_after has {len(r.radelci_after)} entries "
                         f"for {n} seats", f"{base}.result.radelci_after", hand=num,
                         into=errs)  # fmt: skip
            for k, it in enumerate(r.items):
                seat_ok(it.seat, f"{base}.result.items[{k}].seat", f"the {it.item!r} item's")
        rb = hand.radelci_before
        if rb is not None and len(rb) != n:
            self.err("E-RESULT-SIZE", f"radelci_before has {len(rb)} entries for {n} seats",
                     f"{base}.radelci_before", hand=num, into=errs)  # fmt: skip

    def deal_checks(self, hand: Hand, game: str, n: int, base: str, errs: list[LogError]) -> None:
        num = hand.number
        deal = hand.deal
        if len(deal.hands) != n:
            self.err("E-DEAL-COUNT", f"the deal lists {len(deal.hands)} hands for a table of {n} "
                     "(one list per seat, empty for a seat that sits out)",
                     f"{base}.deal.hands", hand=num, into=errs)  # fmt: skip
            return
        sizes = _expected_sizes(game, n, hand.dealer)
        pack = PACKS[game]
        dealt = [*deal.talon, *(c for cs in deal.hands for c in cs)]
        if (sizes is not None and len(dealt) == len(pack) and _PACK_SETS[game].issuperset(dealt)
                and len(set(dealt)) == len(dealt) and len(deal.talon) == sizes[1]
                and [len(cs) for cs in deal.hands] == sizes[0]):  # fmt: skip
            return  # the whole pack, each card once, the right sizes: nothing to report
        counts = Counter(deal.talon)
        for cs in deal.hands:
            counts.update(cs)
        dups = [c for c, cnt in counts.items() if cnt > 1]
        for c in dups:
            where = [f"{base}.deal.hands[{s}][{k}]" for s, cs in enumerate(deal.hands)
                     for k, x in enumerate(cs) if x == c]  # fmt: skip
            where += [f"{base}.deal.talon[{k}]" for k, x in enumerate(deal.talon) if x == c]
            self.err("E-DEAL-DUPLICATE-CARD", f"{c} is dealt {counts[c]} times", where[1],
                     hand=num, into=errs)  # fmt: skip
        if dups:  # a card dealt twice explains the missing card and the odd sizes: one defect
            return
        missing = [c for c in pack if c not in counts]
        if missing:
            n_dealt = sum(counts.values())
            self.err("E-DEAL-MISSING-CARD", f"the deal lacks {', '.join(missing)} ({len(pack)} "
                     f"cards expected, {n_dealt} dealt)", f"{base}.deal", hand=num,
                     into=errs)  # fmt: skip
            return
        if sizes is None:
            return
        per_seat, talon = sizes
        for s, cs in enumerate(deal.hands):
            if len(cs) != per_seat[s]:
                why = ("the dealer sits out at a table of five" if per_seat[s] == 0 else
                       f"{game} at a table of {n} deals {per_seat[s]} to each active player")  # fmt: skip
                self.err("E-DEAL-COUNT", f"seat {s} was dealt {len(cs)} cards; {why}",
                         f"{base}.deal.hands[{s}]", hand=num, into=errs)  # fmt: skip
        if len(deal.talon) != talon:
            self.err("E-DEAL-COUNT", f"the talon has {len(deal.talon)} cards; {game} deals "
                     f"{talon}", f"{base}.deal.talon", hand=num, into=errs)  # fmt: skip
