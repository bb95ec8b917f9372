"""Safe and fast JSON decoding of one log record.

Two ways to one parsed value:

* **the careful path** (:class:`Parser`): the standard library's decoder with hooks that record
  duplicate keys (:class:`DupDict`) and reject NaN, Infinity and floats that overflow; nesting
  is measured *before* parsing (:func:`depth_error`), so a 10,000-deep array never reaches the
  recursive parser; invalid UTF-8 is located (:func:`decode_utf8`);
* **the fast path** (:func:`fast_decode`): orjson plus cheap checks that prove the careful path
  would give the same value with no error, else :data:`SLOW` (the caller then takes the careful
  path, which reports). ``tests/log/test_reader_fast_decode.py`` holds the two to the same
  records, errors and values.

Every problem is a located :class:`~tarock_logs.log.errors.LogError`; nothing here raises on
bad input.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from itertools import accumulate
from typing import Any, Final

import orjson

from tarock_logs.log.errors import LogError

#: Deepest nesting of arrays and objects accepted in one record.
MAX_DEPTH: Final = 64

_STRING_RE_B: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_TOKEN_RE_B: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)
_NON_BRACKET_BYTES: Final = bytes(b for b in range(256) if b not in b"[]{}")
_NON_BRACKET_QUOTE_BYTES: Final = bytes(b for b in range(256) if b not in b'[]{}"')
_DEPTH_STEP_B: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class Parser:
    """A JSON decoder that notes duplicate keys and rejects NaN, Infinity and inf floats."""

    __slots__ = ("decoder", "dups")

    def __init__(self) -> None:
        self.dups: list[DupDict] = []
        self.decoder = json.JSONDecoder(
            object_pairs_hook=self._pairs,
            parse_constant=_reject_constant,
            parse_float=_parse_float,
        )

    def _pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(pairs)
        if len(d) != len(pairs):
            counts = Counter(k for k, _ in pairs)
            dd = DupDict(d, sorted(k for k, c in counts.items() if c > 1))
            self.dups.append(dd)
            return dd
        return d


class DupDict(dict[str, Any]):
    """A parsed JSON object that names some keys more than once (``dup_keys``, sorted); it holds
    the last value of each, as every JSON parser does."""

    __slots__ = ("dup_keys",)

    def __init__(self, items: dict[str, Any], dup_keys: list[str]) -> None:
        super().__init__(items)
        self.dup_keys = dup_keys


class _NumberError(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _NumberError(f"{name} is not a number a log may hold")


def _parse_float(s: str) -> float:
    f = float(s)
    if not math.isfinite(f):
        raise _NumberError(f"the number {s[:20]} is too large")
    return f


def number_error(exc: BaseException, file: str, line: int | None) -> LogError:
    """The located error for what the careful parse raised besides a syntax error: nesting
    (``RecursionError``), a huge integer, NaN, Infinity or a float that overflows."""
    if isinstance(exc, RecursionError):
        return LogError("json.depth", f"nesting deeper than {MAX_DEPTH} levels", file=file,
                        line=line)  # fmt: skip
    msg = str(exc)
    if "integer string conversion" in msg:
        digits = re.search(r"value has (\d+) digits", msg)
        msg = f"an integer with {digits.group(1) if digits else 'too many'} digits"
    return LogError("json.number", f"number out of range: {msg}", file=file, line=line)


def decode_utf8(data: bytes, file: str, base_line: int) -> tuple[str, LogError | None]:
    """The text of ``data``, or ``""`` and the located error at its first byte that is not
    UTF-8 (``base_line`` is the line ``data`` starts on)."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = base_line + data.count(b"\n", 0, exc.start)
        bad = data[exc.start : exc.start + 1].hex()
        return "", LogError(
            "json.not_utf8",
            f"byte 0x{bad} at offset {exc.start} is not valid UTF-8 (logs must be UTF-8)",
            file=file, line=line,
        )  # fmt: skip


def depth_error(data: bytes, file: str, base_line: int) -> LogError | None:
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
        "json.depth",
        f"arrays/objects are nested more than {MAX_DEPTH} levels deep; a log never needs that",
        file=file, line=line,
    )  # fmt: skip


_PAIR_RE_B: Final = re.compile(rb"\[\]|\{\}")
_LONG_INT_RE_B: Final = re.compile(rb"[0-9]{19}")
#: The duplicate-key list of a record decoded by the fast path (which proves there are none).
NO_DUPS: Final[list[DupDict]] = []
#: What :func:`fast_decode` returns when the record must take the careful path.
SLOW: Final = object()


def fast_decode(chunk: bytes) -> Any:
    """The parsed record when a cheap check proves the careful path would give the same value
    with no error; else ``SLOW`` (the caller then takes the careful path, which reports).

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
        return SLOW
    brackets = chunk.translate(None, _NON_BRACKET_QUOTE_BYTES).replace(b'""', b"")
    if b'"' in brackets:
        return _fast_decode_split(chunk)
    obj = _parse_if_shallow(chunk, brackets)
    if obj is SLOW:
        return SLOW
    out = orjson.dumps(obj)
    for ch in (b":", b"e", b"E", b"."):
        if out.count(ch) != chunk.count(ch):
            return SLOW
    return obj


def _fast_decode_split(chunk: bytes) -> Any:
    """:func:`fast_decode` for a record with brackets inside strings: the structure is the
    text between the strings (split at the quotes); no integer may have 19 or more digits
    (orjson turns those beyond 64 bits into floats), and the parsed value must have as many
    keys as the text (no duplicate key)."""
    structure = b"".join(chunk.split(b'"')[0::2])
    if _LONG_INT_RE_B.search(structure) is not None:
        return SLOW
    obj = _parse_if_shallow(chunk, structure.translate(None, _NON_BRACKET_BYTES))
    if obj is SLOW:
        return SLOW
    # no backslash in the input, so none in orjson's output: every '":' there ends a key
    if orjson.dumps(obj).count(b'":') != structure.count(b":"):
        return SLOW
    return obj


def _parse_if_shallow(chunk: bytes, brackets: bytes) -> Any:
    """orjson's parse of ``chunk`` when its structural ``brackets`` are balanced and nested
    at most :data:`MAX_DEPTH` deep (innermost ``[]``/``{}`` pairs removed once per level),
    else ``SLOW`` (too deep, unbalanced or not JSON: the careful path says which)."""
    for _ in range(MAX_DEPTH):
        if not brackets:
            break
        brackets = _PAIR_RE_B.sub(b"", brackets)
    if brackets:
        return SLOW
    try:
        return orjson.loads(chunk)
    except orjson.JSONDecodeError:
        return SLOW


def cut_off(exc: json.JSONDecodeError, text: str) -> bool:
    """True when a parse error means the text simply stops (a truncated file)."""
    return exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
