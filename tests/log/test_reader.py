"""The lenient streaming reader (tarock_logs.log.reader)."""

from __future__ import annotations

import copy
import gzip
import json
import re
import tracemalloc
from pathlib import Path

import pytest

from tarock_logs.log.reader import (
    MAX_DEPTH,
    iter_log_files,
    read_bytes,
    read_file,
    read_paths,
)

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"
MALFORMED = SAMPLES / "malformed"


def _readme_rows() -> list[tuple[str, list[str]]]:
    rows = []
    for line in (MALFORMED / "README.md").read_text().splitlines():
        m = re.match(r"^\| `([^`]+)` \| ([^|]+) \|", line)
        if m:
            rows.append((m.group(1), m.group(2).split()))
    return rows


def _b1() -> dict:
    return copy.deepcopy(json.loads((SAMPLES / "slovenian" / "appendix-b.json").read_text())[0])


def _read_obj(obj) -> list:
    return read_bytes(json.dumps(obj).encode(), kind="json")


def _codes(records) -> list[str]:
    return sorted(e.code for r in records for e in r.all_errors())


# --------------------------------------------------------------------------- malformed samples


def test_every_malformed_sample_is_listed_in_its_readme():
    listed = {name for name, _ in _readme_rows()}
    present = {p.name for p in MALFORMED.iterdir() if p.name != "README.md"}
    assert listed == present
    assert len(listed) >= 30


@pytest.mark.parametrize(("name", "codes"), _readme_rows())
def test_malformed_sample_gives_exactly_its_planted_codes_with_a_location(name, codes):
    path = MALFORMED / name
    records = list(read_file(path))  # must not raise
    errors = [e for r in records for e in r.all_errors()]
    assert sorted(e.code for e in errors) == sorted(codes)
    for e in errors:
        assert e.file == str(path)
        assert e.line is not None, f"{e} has no line"
        assert "\n" not in str(e)


def test_mixed_file_keeps_every_good_hand_and_session():
    records = list(read_file(MALFORMED / "mixed.jsonl"))
    ok = {r.session.id: [h.number for h in r.session.hands] for r in records if r.session}
    assert ok == {"mixed-good-1": [1], "mixed-bad-hand": [1, 3], "mixed-good-2": [2]}
    bad = next(r for r in records if r.session and r.session.id == "mixed-bad-hand")
    [rejected] = bad.rejected_hands
    assert (rejected.number, rejected.index) == (2, 1)
    assert json.loads(rejected.raw)["number"] == 2
    [err] = rejected.errors
    assert (err.code, err.line, err.session, err.hand, err.path) == (
        "card.unknown", 4, "mixed-bad-hand", 2, "$.hands[1].deal.hands[0][0]",
    )  # fmt: skip
    broken = [r for r in records if r.session is None]
    assert [(r.line, r.errors[0].code) for r in broken] == [(3, "json.syntax")]
    assert b"mixed-broken" in broken[0].raw


def test_bom_is_an_error_but_the_session_is_still_read():
    [rec] = list(read_file(MALFORMED / "json.bom.json"))
    assert rec.session is not None and len(rec.session.hands) == 1
    assert [e.code for e in rec.errors] == ["json.bom"]


# --------------------------------------------------------------------------- JSON hazards


def test_ten_thousand_deep_array_in_a_jsonl_line_is_a_depth_error_not_a_recursion_error():
    data = b'{"a": 1}\n' + b"[" * 10_000 + b"]" * 10_000 + b"\n"
    recs = read_bytes(data, kind="jsonl")
    assert [e.code for e in recs[1].errors] == ["json.depth"]
    assert recs[1].line == 2


def test_depth_at_the_limit_is_accepted_by_the_json_layer():
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    recs = read_bytes(ok.encode(), kind="jsonl")
    assert [e.code for e in recs[0].errors] != ["json.depth"]
    too_deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert [e.code for e in read_bytes(too_deep.encode(), kind="jsonl")[0].errors] == ["json.depth"]


def test_brackets_inside_strings_do_not_count_as_nesting():
    s = _b1()
    s["notes"] = "[" * 500 + "{" * 500
    [rec] = _read_obj(s)
    assert rec.ok


def test_duplicate_key_in_the_session_envelope_rejects_the_session():
    text = json.dumps(_b1()).replace('"ruleset": ', '"ruleset": "x", "ruleset": ', 1)
    [rec] = read_bytes(text.encode(), kind="jsonl")
    assert rec.session is None
    assert [(e.code, e.path) for e in rec.errors] == [("json.duplicate_key", "$.ruleset")]


def test_infinity_and_overflowing_floats_are_number_errors():
    for bad in ("Infinity", "-Infinity", "1e999"):
        text = json.dumps(_b1()).replace('"first_dealer": 3', f'"first_dealer": {bad}', 1)
        [rec] = read_bytes(text.encode(), kind="jsonl")
        assert [e.code for e in rec.errors] == ["json.number"], bad


def test_json_array_records_carry_the_line_where_each_session_starts():
    a, b = _b1(), _b1()
    b["id"] = "second"
    text = "[\n" + json.dumps(a, indent=1) + ",\n" + json.dumps(b, indent=1) + "\n]\n"
    recs = read_bytes(text.encode(), kind="json")
    assert [r.line for r in recs] == [2, 3 + json.dumps(a, indent=1).count("\n")]
    assert [r.index for r in recs] == [0, 1]
    assert json.loads(recs[1].raw)["id"] == "second"


def test_a_json_array_cut_after_a_complete_session_keeps_that_session():
    text = "[" + json.dumps(_b1()) + ', {"format": "tarock-log"'
    recs = read_bytes(text.encode(), kind="json")
    assert recs[0].ok
    assert [e.code for e in recs[1].errors] == ["file.truncated"]


# --------------------------------------------------------------------------- lenient import


def test_aliases_are_normalised_dealt_hands_sorted_and_the_talon_keeps_its_order():
    s = _b1()
    h = s["hands"][0]
    seat0 = h["deal"]["hands"][0]
    h["deal"]["hands"][0] = ["pagat" if c == "T1" else c.lower() for c in reversed(seat0)]
    h["deal"]["talon"] = ["t10", "XX", "h1", "T12", "S7", "III"]
    h["actions"][4]["card"] = " dk "
    play = next(a for a in h["actions"] if a["type"] == "play" and a["card"] == "T22")
    play["card"] = "Škis"
    [rec] = _read_obj(s)
    assert rec.ok, rec.all_errors()
    hand = rec.session.hands[0]
    assert hand.deal.hands[0] == ["T1", "T6", "T15", "T16", "T18", "T19", "HK", "H4", "DJ", "SK",
                                  "S9", "C10"]  # fmt: skip
    assert hand.deal.talon == ["T10", "T20", "H1", "T12", "S7", "T3"]
    assert hand.actions[4].card == "DK"
    assert any(a.type == "play" and a.card == "T22" for a in hand.actions)


def test_a_bad_hand_is_rejected_alone_with_its_position_and_number():
    s = _b1()
    good = s["hands"][0]
    bad = copy.deepcopy(good)
    bad["number"] = 2
    bad["dealer"] = 0
    bad["actions"][30]["card"] = "ZZ"
    third = copy.deepcopy(good)
    third["number"] = 3
    third["dealer"] = 1
    s["hands"] = [good, bad, third]
    [rec] = _read_obj(s)
    assert [h.number for h in rec.session.hands] == [1, 3]
    [rh] = rec.rejected_hands
    [e] = rh.errors
    assert (e.code, e.hand, e.action_index, e.path) == (
        "card.unknown", 2, 30, "$.hands[1].actions[30].card",
    )  # fmt: skip
    assert str(e).startswith("<input>:1: session si-appendix-b1 hand 2 action 30 ")


def test_invalid_envelope_yields_no_session_but_keeps_the_raw_text():
    s = _b1()
    s["game"] = "skat"
    [rec] = _read_obj(s)
    assert rec.session is None
    assert [(e.code, e.path) for e in rec.errors] == [("schema.literal_error", "$.game")]
    assert json.loads(rec.raw)["game"] == "skat"


def test_table_of_three_deals_sixteen_cards_each_and_a_talon_of_six():
    s = _b1()
    s["players"] = s["players"][:3]
    s["first_dealer"] = 2
    h = s["hands"][0]
    d = h["deal"]["hands"]
    h["deal"]["hands"] = [d[0] + d[3][:4], d[1] + d[3][4:8], d[2] + d[3][8:]]
    h["dealer"] = 2
    h["actions"] = []
    h.pop("result")
    h.pop("radelci_before")
    [rec] = _read_obj(s)
    assert rec.ok, rec.all_errors()


def test_table_of_five_gives_the_sitting_out_dealer_an_empty_hand():
    s = _b1()
    s["players"].append({"id": "eva"})
    s["first_dealer"] = 4
    h = s["hands"][0]
    h["dealer"] = 4
    h["deal"]["hands"].append([])
    h["result"]["scores"].append(0)
    h["result"]["radelci_after"].append(0)
    h["radelci_before"].append(0)
    [rec] = _read_obj(s)
    assert rec.ok, rec.all_errors()
    h["deal"]["hands"][4] = [h["deal"]["hands"][0].pop()]
    [rec] = _read_obj(s)
    assert _codes([rec]) == ["deal.count", "deal.count"]


def test_royal_tarock_needs_two_pairs_with_the_eintreiber_after_the_abfaenger(tmp_path):
    royal = json.loads((SAMPLES / "royal" / "worked-examples.json").read_text())
    s = royal[0] if isinstance(royal, list) else royal
    s["players"][1]["role"] = "abfaenger"
    [rec] = _read_obj(s)
    assert rec.session is None
    assert [e.code for e in rec.errors] == ["table.royal_pairs"]


def test_result_item_and_irregularity_seats_must_be_at_the_table():
    s = _b1()
    h = s["hands"][0]
    h["result"]["items"][-1]["seat"] = 4
    h["irregularities"] = [{"type": "penalty", "seat": 4, "points": -20}]
    [rec] = _read_obj(s)
    [rh] = rec.rejected_hands
    assert sorted((e.code, e.path) for e in rh.errors) == [
        ("seat.range", "$.hands[0].irregularities[0].seat"),
        ("seat.range", "$.hands[0].result.items[4].seat"),
    ]


# --------------------------------------------------------------------------- files and streaming


def test_iter_log_files_walks_folders_sorted_and_honours_exclude(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "a").mkdir()
    (tmp_path / "skip").mkdir()
    for p in ("b/2.jsonl", "a/1.json", "a/z.json.gz", "skip/x.jsonl", "a/notes.txt",
              "a/.hidden.json"):  # fmt: skip
        (tmp_path / p).write_text("")
    got = [p.relative_to(tmp_path).as_posix() for p in iter_log_files([tmp_path], ["skip"])]
    assert got == ["a/1.json", "a/z.json.gz", "b/2.jsonl"]


def test_sample_logs_without_malformed_read_clean():
    records = list(read_paths([SAMPLES], exclude=["malformed"]))
    assert records and all(r.ok for r in records), [str(e) for r in records for e in r.all_errors()]


def _write_many(path: Path, n: int) -> int:
    s = _b1()
    s["hands"] = []
    s["notes"] = "x" * 1000
    opener = gzip.open if path.suffix == ".gz" else open
    size = 0
    with opener(path, "wt") as f:
        for i in range(n):
            s["id"] = f"s{i}"
            line = json.dumps(s) + "\n"
            size += len(line)
            f.write(line)
    return size


@pytest.mark.parametrize(("name", "n"), [("many.jsonl", 20_000), ("many.jsonl.gz", 2_000)])
def test_jsonl_is_streamed_in_bounded_memory(tmp_path, name, n):
    path = tmp_path / name
    size = _write_many(path, n)
    assert size > n * 1000
    tracemalloc.start()
    try:
        count = 0
        for rec in read_file(path):
            assert rec.ok
            count += 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == n
    assert peak < 2_000_000, f"peak {peak} bytes while reading {size} bytes"


def test_unknown_suffix_and_missing_file_are_located_errors(tmp_path):
    (tmp_path / "x.txt").write_text("{}")
    [rec] = list(read_file(tmp_path / "x.txt"))
    assert [e.code for e in rec.errors] == ["file.not_a_log"]
    [rec] = list(read_file(tmp_path / "missing.json"))
    assert [e.code for e in rec.errors] == ["file.unreadable"]


# --------------------------------------------------------------------------- never raises

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_B1_TEXT = json.dumps(_b1()).encode()
_JSON_TOKENS = [b"[", b"]", b"{", b"}", b",", b":", b'"', b"null", b"1e999", b"-1", b"\xff",
                b'"T2"', b'"seat"', b"99999999999999999999", b"\n", b"true"]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(
        st.tuples(st.integers(0, len(_B1_TEXT)), st.integers(0, 40), st.sampled_from(_JSON_TOKENS)),
        min_size=1,
        max_size=4,
    ),
    kind=st.sampled_from(["json", "jsonl"]),
)
def test_mutated_logs_never_raise_and_every_error_is_located(edits, kind):
    data = _B1_TEXT
    for pos, cut, tok in edits:
        data = data[:pos] + tok + data[pos + cut :]
    records = read_bytes(data, kind=kind)
    for r in records:
        for e in r.all_errors():
            assert e.code and e.message and e.file == "<input>"
            assert e.line is not None
        if r.session is not None:
            assert all(h.number for h in r.session.hands)


@settings(max_examples=200, deadline=None)
@given(value=st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
    max_leaves=10,
))  # fmt: skip
def test_any_json_value_in_place_of_a_hand_or_an_action_never_raises(value):
    s = _b1()
    s["hands"][0]["actions"][5] = value
    s["hands"].append(value)
    [rec] = read_bytes(json.dumps(s).encode(), kind="jsonl")
    assert rec.session is not None and rec.rejected_hands


def test_size_limits_apply_to_json_files_and_to_each_session(tmp_path):
    f = tmp_path / "two.json"
    a, b = _b1(), _b1()
    b["id"] = "big"
    b["notes"] = "x" * 5000
    f.write_text(json.dumps([a, b]))
    recs = list(read_file(f, max_session_bytes=8000))
    assert recs[0].ok
    assert [(e.code, e.line) for e in recs[1].errors] == [("file.too_large", 1)]
    [rec] = list(read_file(f, max_bytes=100))
    assert [e.code for e in rec.errors] == ["file.too_large"]


def test_utf16_file_is_one_utf8_error():
    data = json.dumps(_b1()).encode("utf-16")
    for kind in ("json", "jsonl"):
        [rec] = read_bytes(data, kind=kind)
        assert [(e.code, e.line) for e in rec.errors] == [("json.not_utf8", 1)]


def test_shared_card_plays_give_the_models_pydantic_gives() -> None:
    """Plain card plays are validated once per (seat, card) and shared between hands (they
    are frozen): every canonical sample session reads to exactly the model pydantic makes of
    the same JSON, and a defective play is still reported at its own path."""
    import orjson

    from tarock_logs.log.models import Play, SessionAdapter

    root = Path(__file__).resolve().parents[2] / "sample_logs"
    n = 0
    for path in sorted((root / "tournament").glob("*.jsonl")) + [
        root / "disputed" / "round-1.jsonl"
    ]:
        lines = path.read_bytes().splitlines()
        for rec, line in zip(read_file(path), lines, strict=True):
            assert rec.session == SessionAdapter.validate_python(orjson.loads(line))
            n += len(rec.session.hands)
    assert n > 150
    first = next(iter(read_file(sorted((root / "tournament").glob("*.jsonl"))[0])))
    plays = [a for h in first.session.hands for a in h.actions if type(a) is Play]
    assert len({id(a) for a in plays}) < len(plays)  # shared instances
    doc = orjson.loads(
        sorted((root / "tournament").glob("*.jsonl"))[0].read_bytes().splitlines()[0]
    )
    j = next(i for i, a in enumerate(doc["hands"][0]["actions"]) if a["type"] == "play")
    doc["hands"][0]["actions"][j]["seat"] = 7
    recs = read_bytes(orjson.dumps(doc), file="bad.json")
    errs = [e for r in recs for e in r.all_errors()]
    assert any(e.path == f"$.hands[0].actions[{j}].seat" for e in errs), errs
