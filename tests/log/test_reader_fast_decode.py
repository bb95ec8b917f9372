"""The reader's fast JSONL decode (orjson plus cheap checks) against its careful path (stdlib
decoder recording duplicate keys, regex depth measure): the same records, errors and values,
on every sample line and on lines built to defeat the cheap checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarock_logs.log import reader
from tarock_logs.log.reader import MAX_DEPTH, read_bytes

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"


def _shape(records: list[Any]) -> list[Any]:
    out = []
    for r in records:
        out.append((
            r.line, r.index, r.raw,
            r.session.model_dump(mode="json") if r.session is not None else None,
            [repr(e) for e in r.errors],
            [(h.number, h.index, h.raw, [repr(e) for e in h.errors]) for h in r.rejected_hands],
        ))  # fmt: skip
    return out


def _both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any]]:
    fast = _shape(read_bytes(data, kind="jsonl"))
    with monkeypatch.context() as mp:
        mp.setattr(reader, "fast_decode", lambda chunk: reader.SLOW)
        slow = _shape(read_bytes(data, kind="jsonl"))
    return fast, slow


def _lines() -> list[bytes]:
    out = []
    for f in sorted(SAMPLES.rglob("*.jsonl")):
        out += [ln for ln in f.read_bytes().splitlines(keepends=True) if ln.strip()]
    return out


def _b1_line() -> bytes:
    doc = json.loads((SAMPLES / "slovenian" / "appendix-b.json").read_text())[0]
    return orjson.dumps(doc)


def test_every_sample_line_reads_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lines()
    assert len(lines) > 20
    for ln in lines:
        fast, slow = _both(ln, monkeypatch)
        assert fast == slow, ln[:80]


def test_the_fast_path_is_taken_for_a_plain_session() -> None:
    assert reader.fast_decode(_b1_line()) is not reader.SLOW


def _nest(depth: int, inner: bytes = b"1") -> bytes:
    out = inner
    for k in range(depth):
        out = (b"[" + out + b"]") if k % 2 else (b'{"k":' + out + b"}")
    return out


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 200])
def test_nesting_at_and_over_the_limit_reads_the_same(
    depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    b1 = _b1_line()
    line = b1[:-1] + b',"notes_x":' + _nest(depth - 1) + b"}\n"
    fast, slow = _both(line, monkeypatch)
    assert fast == slow
    codes = " ".join(fast[0][4])
    assert ("json.depth" in codes) == (depth > MAX_DEPTH)


@pytest.mark.parametrize("tail", [
    b',"notes":"a","notes":"b"}',  # duplicate top-level key
    b',"notes" : "a" , "notes":"b"}',  # with spaces before the colon
    b',"x":{"a":1,"a":2}}',  # nested duplicate
    b',"notes":"[[[{{{:::]]]}}}"}',  # brackets and colons inside a string
    b',"notes":"\\"a\\": \\\\"}',  # escapes: the careful path decides
    b',"x":12345678901234567890123}',  # an integer orjson would turn into a float
    b',"x":-9223372036854775809}',
    b',"x":1e400}',
    b',"x":18446744073709551615}',  # the largest integer orjson holds exactly
    b',"x":18446744073709551616}',  # one more: a float for orjson
    b',"x":100000000000000000000}',  # 1e20: its float has no "." (but an "e")
    b',"x":[1e3,1.50,2E5,-0,0.0]}',  # floats orjson writes another way
    b',"notes":"a:b.e","notes":"c"}',  # a duplicate key next to colons in a string
    b',"x":{"a":"[","a":"]"}}',  # brackets in strings, and a duplicate key
    b',"x":{"a":null,"a":":["}}',  # a duplicate key whose value starts with a colon
    b',"x":12345678901234567890123,"y":[1.5e1,1.5e1,100000000000000000000.0]}',  # counts of
    # "e" and "." that balance out: the fast path once took the integer as a float
    b',"notes":"]"}',  # an unbalanced bracket inside a string
    b',"x":NaN}',
    b',"notes":"\xc5\xa1kis \xe2\x82\xac"}',  # UTF-8 text
    b',"notes":"\xed\xa0\x80"}',  # a UTF-8-encoded surrogate
    b',}',
])  # fmt: skip
def test_lines_that_defeat_the_cheap_checks_read_the_same(
    tail: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = _b1_line()[:-1] + tail + b"\n"
    fast, slow = _both(line, monkeypatch)
    assert fast == slow


_keys = st.sampled_from(["a", "b", "id", "notes", "k"])
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=5)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda kids: st.lists(kids, max_size=3) | st.lists(st.tuples(_keys, kids), max_size=3),
    max_leaves=12,
)  # fmt: skip


def _dump(v: Any) -> str:
    """JSON text of ``v``; a list of (key, value) pairs becomes an object that may repeat keys."""
    if isinstance(v, list) and v and all(isinstance(x, tuple) for x in v):
        return "{" + ", ".join(f"{json.dumps(k)} : {_dump(x)}" for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_dump(x) for x in v) + "]"
    return json.dumps(v)


@settings(max_examples=150, deadline=None)
@given(extra=_json)
def test_random_values_appended_to_a_session_read_the_same(extra: Any) -> None:
    line = _b1_line()[:-1] + b',"x":' + _dump(extra).encode() + b"}\n"
    fast = _shape(read_bytes(line, kind="jsonl"))
    saved = reader.fast_decode
    reader.fast_decode = lambda chunk: reader.SLOW  # type: ignore[assignment]
    try:
        slow = _shape(read_bytes(line, kind="jsonl"))
    finally:
        reader.fast_decode = saved  # type: ignore[assignment]
    assert fast == slow
