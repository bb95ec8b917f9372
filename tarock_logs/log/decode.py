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
from collections.abc import Iterator
from itertools import accumulate
from typing import Any, Final, NamedTuple

import orjson

from tarock_logs.log.errors import LogError

#: Deepest nesting of arrays and objects accepted in one record.
MAX_DEPTH: Final = 64

_STRING_RE_B: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_TOKEN_RE_B: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)
_NON_BRACKET_BYTES: Final = bytes(b for b in range(256) if b not in b"[]{}")
_NON_BRACKET_QUOTE_BYTES: Final = bytes(b for b in range(256) if b not in b'[]{}"')
_DEPTH_STEP_B: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


#: Smallest and largest integer a log may hold: what a 64-bit integer holds (signed below,
#: unsigned above), which is what the writer (orjson) can write back.
MIN_INT: Final = -(2**63)
MAX_INT: Final = 2**64 - 1


class JsonDefect(NamedTuple):
    """A defect of the JSON text found while parsing a record: the ``path`` of keys and
    indices (from the record's root) where it is, its ``code`` and its ``message``."""

    path: tuple[str | int, ...]
    code: str
    message: str


class Parser:
    """The careful decoder of one record: the standard library's JSON decoder that notes
    duplicate keys and integers beyond :data:`MIN_INT` .. :data:`MAX_INT` (as
    :meth:`defects`, found where they are, so that one in a hand rejects only that hand) and
    rejects NaN, Infinity and floats that overflow (the whole record).

    ``long_ints`` (the text has 19 digits in a row) turns the range check of integers on, so
    a record without such a number does not pay for it (:meth:`for_text` looks).

    Strings may hold escaped lone surrogates (``"\\ud800"``); the schema rejects them
    (``schema.string_unicode``) and the texts of errors and rejected hands keep them escaped.
    """

    __slots__ = ("big_ints", "decoder", "dups", "long_ints")

    def __init__(self, long_ints: bool = True) -> None:
        self.dups: list[DupDict] = []
        self.big_ints = False
        self.long_ints = long_ints
        self.decoder = json.JSONDecoder(
            object_pairs_hook=self._pairs,
            parse_constant=_reject_constant,
            parse_float=_parse_float,
            parse_int=self._int if long_ints else None,
        )

    @classmethod
    def for_text(cls, text: str | bytes) -> Parser:
        """A parser for ``text`` (or for the parts of it), with the checks it needs."""
        if isinstance(text, str):
            return cls(_LONG_INT_RE.search(text) is not None)
        return cls(has_long_int(text))

    def defects(self, obj: Any) -> list[JsonDefect]:
        """The duplicate keys and out-of-range integers of ``obj`` (parsed by this parser),
        in file order."""
        if not self.dups and not self.big_ints:
            return NO_DEFECTS
        return list(_defects(obj))

    def _int(self, s: str) -> int:
        v = int(s)  # (over 4300 digits: ValueError, the whole record is a number error)
        if MIN_INT <= v <= MAX_INT:
            return v
        self.big_ints = True
        return BigInt(v)

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


class BigInt(int):
    """An integer of the text beyond the 64-bit range: kept (with its value, for the text of
    a rejected hand) so that :meth:`Parser.defects` reports it where it is."""

    __slots__ = ()


def _defects(obj: Any) -> Iterator[JsonDefect]:
    """Walk ``obj`` (no recursion) for the duplicate keys of its :class:`DupDict` objects and
    its :class:`BigInt` numbers."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(obj, ())]
    while stack:
        o, p = stack.pop()
        if isinstance(o, dict):
            if isinstance(o, DupDict):
                for k in o.dup_keys:
                    yield JsonDefect(
                        (*p, k),
                        "json.duplicate_key",
                        f"the key {k!r} appears more than once in one object",
                    )
            stack.extend((v, (*p, k)) for k, v in reversed(o.items()))
        elif isinstance(o, list):
            stack.extend((v, (*p, i)) for i, v in reversed(list(enumerate(o))))
        elif type(o) is BigInt:
            text = str(o)
            shown = text if len(text) <= 24 else f"{text[:10]}...{text[-4:]} ({len(text)} digits)"
            yield JsonDefect(p, "json.number", f"the integer {shown} is beyond the 64-bit range")


_PAIR_RE_B: Final = re.compile(rb"\[\]|\{\}")
#: 19 digits in a row: the shortest integer that may be beyond 64 bits (orjson turns those
#: into floats, the careful path checks their range)
_LONG_INT_RE: Final = re.compile(r"[0-9]{19}")
_DIGITS_TO_ZERO: Final = bytes(48 if 48 <= b <= 57 else b for b in range(256))
_ZEROS_19: Final = b"0" * 19


def has_long_int(data: bytes) -> bool:
    """True when ``data`` has 19 digits in a row (every digit made ``0``, then one substring
    search: both in C, ten times faster than a regex)."""
    return _ZEROS_19 in data.translate(_DIGITS_TO_ZERO)


#: The defects of a record decoded by the fast path (which proves there are none).
NO_DEFECTS: Final[list[JsonDefect]] = []
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
      float; such an integer has at least 19 digits, so a record with 19 digits in a row
      (anywhere, even inside a string) takes the careful path, which checks the range.
      (Counting the ``e`` and ``.`` of the output against the text instead was not enough:
      floats written another way could balance the counts out.)
    """
    if b"\\" in chunk or has_long_int(chunk):
        return SLOW
    brackets = chunk.translate(None, _NON_BRACKET_QUOTE_BYTES).replace(b'""', b"")
    if b'"' in brackets:
        return _fast_decode_split(chunk)
    obj = _parse_if_shallow(chunk, brackets)
    if obj is SLOW:
        return SLOW
    if orjson.dumps(obj).count(b":") != chunk.count(b":"):
        return SLOW
    return obj


def _fast_decode_split(chunk: bytes) -> Any:
    """:func:`fast_decode` for a record with brackets inside strings: the structure is the
    text between the strings (split at the quotes), and the parsed value must have as many
    keys as the text (no duplicate key)."""
    structure = b"".join(chunk.split(b'"')[0::2])
    obj = _parse_if_shallow(chunk, structure.translate(None, _NON_BRACKET_BYTES))
    if obj is SLOW:
        return SLOW
    # no backslash in the input, so none in orjson's output: it splits at its quotes the same
    # way, and its colons between the strings are its keys (a string may end in a colon too)
    out_structure = b"".join(orjson.dumps(obj).split(b'"')[0::2])
    if out_structure.count(b":") != structure.count(b":"):
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
