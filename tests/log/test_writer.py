"""The canonical writer (tarock_logs.log.writer): deterministic and round-trippable."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tarock_logs.log.reader import read_bytes, read_file, read_paths
from tarock_logs.log.writer import dumps_session, dumps_sessions, session_to_dict, write_sessions

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _sessions():
    return [r.session for r in read_paths([SAMPLES], exclude=["malformed"]) if r.session]


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".json.gz", ".jsonl.gz"])
def test_read_of_write_equals_the_original_for_every_sample(tmp_path, suffix):
    sessions = _sessions()
    assert len(sessions) >= 6
    path = tmp_path / f"out{suffix}"
    write_sessions(path, sessions)
    back = [r.session for r in read_file(path)]
    assert back == sessions


def test_writing_is_deterministic_and_gzip_carries_no_timestamp(tmp_path):
    sessions = _sessions()
    write_sessions(tmp_path / "a.jsonl.gz", sessions)
    write_sessions(tmp_path / "b.jsonl.gz", sessions)
    assert (tmp_path / "a.jsonl.gz").read_bytes() == (tmp_path / "b.jsonl.gz").read_bytes()
    assert gzip.decompress((tmp_path / "a.jsonl.gz").read_bytes()).decode() == dumps_sessions(
        sessions, kind="jsonl"
    )


def test_jsonl_is_one_compact_line_per_session():
    sessions = _sessions()
    text = dumps_sessions(sessions, kind="jsonl")
    lines = text.splitlines()
    assert len(lines) == len(sessions)
    assert all(json.loads(ln)["format"] == "tarock-log" for ln in lines)


def _appendix_b1():
    return next(read_file(SAMPLES / "slovenian" / "appendix-b.json")).session


def test_type_comes_first_and_defaults_are_left_out():
    s = _appendix_b1()
    d = session_to_dict(s)
    assert list(d)[:2] == ["format", "format_version"]
    for a in d["hands"][0]["actions"]:
        assert next(iter(a)) == "type"
    kontra = next(a for a in d["hands"][0]["actions"] if a["type"] == "kontra")
    assert "level" not in kontra  # level 1 is the default
    assert "note" not in kontra


def test_aliases_come_out_canonical():
    s = json.loads((SAMPLES / "slovenian" / "appendix-b.json").read_text())[0]
    s["hands"][0]["deal"]["talon"] = ["iii", "s7", "XII", "H1", "xx", "T10"]
    [rec] = read_bytes(json.dumps(s).encode())
    text = dumps_session(rec.session)
    assert '"talon":["T3","S7","T12","H1","T20","T10"]' in text


def test_pretty_json_keeps_short_arrays_on_one_line():
    s = _appendix_b1()
    text = dumps_session(s, pretty=True)
    assert '"talon": ["T3", "S7", "T12", "H1", "T20", "T10"]' in text
    assert max(len(ln) for ln in text.splitlines() if '"notes"' not in ln) <= 110


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_text = st.text(max_size=40)
_option = st.one_of(st.booleans(), st.integers(-10**6, 10**6), _text,
                    st.floats(allow_nan=False, allow_infinity=False))  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    notes=st.none() | st.text(max_size=200),
    options=st.dictionaries(st.text(min_size=1, max_size=12), _option, max_size=4),
    names=st.lists(st.none() | st.text(max_size=30), min_size=4, max_size=4),
    action_note=st.none() | _text,
    kind=st.sampled_from(["json", "jsonl"]),
)
def test_round_trip_holds_for_any_optional_text_and_options(
    notes, options, names, action_note, kind
):
    base = _appendix_b1()
    players = [p.model_copy(update={"name": n}) for p, n in zip(base.players, names, strict=True)]
    hand = base.hands[0]
    actions = list(hand.actions)
    actions[0] = actions[0].model_copy(update={"note": action_note})
    s = base.model_copy(update={
        "notes": notes, "options": options, "players": players,
        "hands": [hand.model_copy(update={"actions": actions})],
    })  # fmt: skip
    text = dumps_sessions([s], kind=kind)
    [rec] = read_bytes(text.encode(), kind=kind)
    assert rec.ok, [str(e) for e in rec.all_errors()]
    assert rec.session == s
