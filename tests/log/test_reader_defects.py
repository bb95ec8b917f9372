"""Regression tests for the reader defects of the hardening campaign (issue 14), each named
after the defect: the bytes that once crashed or fooled the reader now give located errors."""

from __future__ import annotations

import copy
import json
import tracemalloc
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarock_logs.log.decode import MAX_INT, MIN_INT, SLOW, fast_decode
from tarock_logs.log.errors import LogError, printable
from tarock_logs.log.reader import SessionRecord, read_bytes, read_file
from tarock_logs.log.writer import dumps_sessions

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _b1() -> dict[str, Any]:
    doc = json.loads((SAMPLES / "slovenian" / "appendix-b.json").read_text())[0]
    return copy.deepcopy(doc)


def _both(text: str) -> tuple[list[SessionRecord], list[SessionRecord]]:
    data = text.encode()
    return read_bytes(data, kind="json"), read_bytes(data + b"\n", kind="jsonl")


def _errors(records: list[SessionRecord]) -> list[tuple[str, str | None]]:
    return [(e.code, e.path) for r in records for e in r.all_errors()]


def _usable(records: list[SessionRecord]) -> None:
    """Every error prints on one line and dumps as JSON; every accepted session writes back."""
    for r in records:
        for e in r.all_errors():
            assert "\n" not in str(e)
            str(e).encode("utf-8")
            orjson.dumps(e.to_dict())
        for rh in r.rejected_hands:
            rh.raw.decode("utf-8")
        if r.session is not None:
            dumps_sessions([r.session], kind="jsonl")


# --------------------------------------------------------------------------- 1: lone surrogates


def test_lone_surrogate_in_a_rejected_hand_is_a_located_error_not_a_crash():
    s = _b1()
    s["hands"][0]["notes"] = "MARK"
    for records in _both(json.dumps(s).replace("MARK", "\\ud800")):
        assert _errors(records) == [("schema.string_unicode", "$.hands[0].notes")]
        [rh] = records[0].rejected_hands
        assert rh.number == 1 and rh.raw.endswith(b'"notes": "\\ud800"}')
        assert records[0].session is not None  # (its one hand rejected, the session kept)
        _usable(records)


def test_lone_surrogate_in_the_session_id_is_kept_escaped_in_every_error():
    s = _b1()
    s["id"] = "MARK"
    s["hands"][0]["deal"]["talon"][0] = "XX9"
    for records in _both(json.dumps(s).replace("MARK", "s\\udfff")):
        assert records[0].session is None
        errs = records[0].all_errors()
        assert errs and all(e.session == "s\\udfff" for e in errs)
        _usable(records)


@pytest.mark.parametrize(
    ("where", "path"),
    [
        (("source", "importer"), "$.source.importer"),
        (("options", "note"), "$.options.note"),
    ],
)
def test_lone_surrogate_in_a_free_form_field_rejects_the_session_not_the_writer(where, path):
    """Found by the long fuzz run (benchmarks/fuzz.py, seeds 1 and 1000): a free-form string
    (a source's importer, an option's value) kept a lone surrogate, the session was accepted
    and ``fmt`` and ``ingest`` exited 3 writing it back."""
    s = _b1()
    s.setdefault(where[0], {})[where[1]] = "MARK"
    for records in _both(json.dumps(s).replace("MARK", "x\\ud800")):
        assert _errors(records) == [("schema.string_unicode", path)]
        assert records[0].session is None
        _usable(records)


def test_lone_surrogate_in_a_free_form_field_of_a_hand_rejects_only_that_hand():
    """The same in a hand (an announcement's free-form ``raises``): that hand is rejected."""
    doc = _b1()
    acts = doc["hands"][0]["actions"]
    k = next(i for i, a in enumerate(acts) if a["type"] == "announce")
    acts[k]["raises"] = "MARK"
    for records in _both(json.dumps(doc).replace("MARK", "\\udfff")):
        assert ("schema.string_unicode", f"$.hands[0].actions[{k}].raises") in _errors(records)
        assert records[0].session is not None and len(records[0].rejected_hands) == 1
        _usable(records)


def test_a_surrogate_pair_is_one_character_and_accepted():
    s = _b1()
    s["notes"] = "MARK"
    for records in _both(json.dumps(s).replace("MARK", "\\ud83c\\udccf")):
        assert records[0].ok and records[0].session.notes == "\U0001f0cf"
        _usable(records)


# --------------------------------------------------------------------------- 2: 64-bit integers


@pytest.mark.parametrize(
    ("where", "path"),
    [
        (lambda s, v: s.update(options={"x": v}), "$.options.x"),
        (lambda s, v: s.update(source={"software": "t", "seed": v}), "$.source.seed"),
        (lambda s, v: s["recorded"].update(placement_points=[v, 0, 0, 0]),
         "$.recorded.placement_points[0]"),
    ],
)  # fmt: skip
def test_integers_beyond_64_bits_in_the_envelope_reject_the_session_in_json_and_jsonl(where, path):
    for v in (MAX_INT + 1, MIN_INT - 1, 10**30):
        s = _b1()
        s.setdefault("recorded", {})
        where(s, v)
        for records in _both(json.dumps(s)):
            assert records[0].session is None
            assert ("json.number", path) in _errors(records), v
            _usable(records)


def test_an_integer_beyond_64_bits_in_a_hand_rejects_only_that_hand():
    s = _b1()
    s["hands"][0]["deal"]["seed"] = 2**64
    for records in _both(json.dumps(s)):
        assert _errors(records) == [("json.number", "$.hands[0].deal.seed")]
        assert [rh.number for rh in records[0].rejected_hands] == [1]
        assert b"18446744073709551616" in records[0].rejected_hands[0].raw
        _usable(records)


def test_the_64_bit_limits_themselves_are_accepted_and_written_back():
    for v in (MAX_INT, MIN_INT):
        s = _b1()
        s["source"] = {"software": "t", "seed": v}
        for records in _both(json.dumps(s)):
            assert records[0].ok and records[0].session.source.seed == v
            assert str(v) in dumps_sessions([records[0].session], kind="jsonl")


def test_json_and_jsonl_agree_when_the_counts_of_e_and_dot_balance_out():
    """The fast path once compared the counts of ``e`` and ``.`` in orjson's output with the
    text; floats written another way balanced a huge integer out, and the ``.jsonl`` reading
    took the integer as a float while the ``.json`` reading kept it."""
    line = (
        orjson.dumps(_b1())[:-1]
        + b',"x":12345678901234567890123,"y":[1.5e1,1.5e1,100000000000000000000.0]}'
    )
    assert fast_decode(line) is SLOW
    as_json, as_jsonl = _both(line.decode())
    assert _errors(as_json) == _errors(as_jsonl)
    assert ("json.number", "$.x") in _errors(as_json)


# --------------------------------------------------------------------------- 4: output injection


def test_a_session_id_with_a_newline_cannot_forge_an_error_line():
    s = _b1()
    s["id"] = "s1\nfake.jsonl:1: error: json.syntax: forged\x1b[2J"
    s["hands"][0]["deal"]["talon"][0] = "XX9"
    [rec] = read_bytes(json.dumps(s).encode(), kind="json")
    [err] = rec.all_errors()
    line = str(err)
    assert "\n" not in line and "\x1b" not in line
    assert "session s1\\nfake.jsonl:1: error: json.syntax: forged\\x1b[2J hand 1" in line


def test_printable_escapes_control_format_and_separator_characters_only():
    assert printable("Dušan Horvat ♥ T21") == "Dušan Horvat ♥ T21"
    assert printable("a\nb\rc\td") == "a\\nb\\rc\\td"
    assert printable("\x1b[31m\x00\x7f\x85") == "\\x1b[31m\\x00\\x7f\\x85"
    assert printable("x\u2028y\u202ez\u200b\ufeff") == "x\\u2028y\\u202ez\\u200b\\ufeff"
    assert printable("\ud800") == "\\ud800"
    assert printable("\U000e0001") == "\\U000e0001"


def test_a_file_name_that_is_not_utf8_still_prints(tmp_path):
    bad = tmp_path / "caf\udce9.jsonl"  # the byte 0xe9 of a Latin-1 name, as Python holds it
    try:
        bad.write_bytes(b"{")
    except (UnicodeEncodeError, OSError):
        pytest.skip("the file system refuses the name")
    [rec] = list(read_file(bad))
    [err] = rec.errors
    assert err.file is not None and err.file.endswith("caf\\udce9.jsonl")
    orjson.dumps(err.to_dict())
    str(err).encode("utf-8")


# --------------------------------------------------------------------------- 11: dates, memory


@pytest.mark.parametrize("date", ["2025-02-30", "2023-02-29", "2025-13-01", "2025-00-10"])
def test_a_date_the_calendar_does_not_have_is_a_located_error(date):
    s = _b1()
    s["event"]["date"] = date
    for records in _both(json.dumps(s)):
        assert _errors(records) == [("schema.date_invalid", "$.event.date")]
        assert records[0].session is None


def test_a_leap_day_is_a_date():
    s = _b1()
    s["event"]["date"] = "2024-02-29"
    for records in _both(json.dumps(s)):
        assert records[0].ok


def test_reading_many_invalid_records_keeps_no_error_after_its_record(tmp_path):
    """The reader yields each record with its own errors and keeps none of them: reading
    4 times as many invalid records needs no more memory at its peak."""

    def peak(n: int) -> int:
        f = tmp_path / f"bad-{n}.jsonl"
        f.write_bytes(b'{"format":"tarock-log","id":"x","hands":[]}\n' * n)
        tracemalloc.start()
        errors = 0
        for rec in read_file(f):
            errors += len(rec.all_errors())
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert errors >= n
        return top

    peak(100)  # (one-time allocations: caches, lazy imports)
    small, large = peak(500), peak(2000)
    assert large < small * 1.5 + 200_000, (small, large)


def test_error_texts_are_always_unicode():
    e = LogError("json.syntax", "bad \ud800", file="f\udcff", session="s\ud801", path="$.a")
    assert (e.message, e.file, e.session) == ("bad \\ud800", "f\\udcff", "s\\ud801")
