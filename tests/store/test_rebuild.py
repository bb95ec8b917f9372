"""Rows back to models (tarock_logs/store/read/rebuild.py): a stored session as the log's
Session."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from tarock_logs.log.models import ACTION_TYPES, Session, SessionAdapter
from tarock_logs.log.reader import read_file
from tarock_logs.store.read import rebuild
from tarock_logs.store.read.queries import connect_reader
from tarock_logs.store.write.ingest import ingest
from tests.support.store_fixtures import APPENDIX_B, DISPUTED, ROOT


def _logged_sessions() -> list[Session]:
    out = [SessionAdapter.validate_python(s) for s in json.loads(APPENDIX_B.read_text("utf-8"))]
    for line in DISPUTED.read_text("utf-8").splitlines():
        if line.strip():
            out.append(SessionAdapter.validate_json(line))
    return out


def test_a_session_read_again_from_its_unchanged_file_is_the_logged_one(sample_cur) -> None:
    for logged in _logged_sessions():
        loaded = rebuild.load_session(sample_cur, logged.id)
        assert loaded is not None
        assert loaded[0] == logged


def test_a_session_rebuilt_from_the_store_has_the_logged_deals_actions_and_results(
    sample_cur,
) -> None:
    for logged in _logged_sessions():
        loaded = rebuild.load_session(sample_cur, logged.id, prefer_source=False)
        assert loaded is not None
        rebuilt, ids = loaded
        assert len(ids) == len(logged.hands)
        assert [p.id for p in rebuilt.players] == [p.id for p in logged.players]
        assert rebuilt.ruleset == logged.ruleset and rebuilt.options == logged.options
        for a, b in zip(rebuilt.hands, logged.hands, strict=True):
            assert (a.number, a.dealer) == (b.number, b.dealer)
            assert a.deal == b.deal
            assert a.actions == b.actions
            assert a.irregularities == b.irregularities
            assert a.result == b.result


def test_an_unknown_session_gives_none(sample_cur) -> None:
    assert rebuild.load_session(sample_cur, "no-such-session") is None


def test_every_action_type_of_the_log_format_has_its_store_columns() -> None:
    """The columns an action type reads back are read from the log format's models: every
    type is there, and each field of a type's model has a column (``note`` apart)."""
    by_type = rebuild._COLUMNS_BY_TYPE
    assert set(by_type) == set(ACTION_TYPES)
    assert dict(by_type["talon"]) == {"talon_group": "group"}
    assert {f for _, f in by_type["announce"]} == {"bonus", "side", "params", "raises"}
    assert {f for _, f in by_type["meld"]} == {"meld", "params"}
    assert by_type["pass"] == by_type["lezim"] == ()


@pytest.mark.parametrize("game", ["royal", "zwanzigerrufen", "tournament"])
def test_every_sample_session_of_a_game_rebuilds_to_its_logged_actions(
    game: str, tmp_path: Path
) -> None:
    """Rebuilt without the file (``prefer_source=False``): the same players, deals, actions,
    irregularities and recorded results as the log, for every game's samples."""
    folder = ROOT / "sample_logs" / game
    db = tmp_path / "t.duckdb"
    ingest([str(folder)], db=str(db))
    logged = [
        rec.session
        for f in sorted(folder.iterdir())
        if f.suffix in (".json", ".jsonl")
        for rec in read_file(f)
        if rec.session is not None
    ]
    assert logged
    con = connect_reader(db)
    try:
        cur = con.cursor()
        for session in logged:
            loaded = rebuild.load_session(cur, session.id, prefer_source=False)
            assert loaded is not None, session.id
            rebuilt, ids = loaded
            assert len(ids) == len(rebuilt.hands)
            assert rebuilt.players == session.players
            assert rebuilt.recorded == session.recorded
            stored = {h.number for h in rebuilt.hands}
            for a, b in zip(
                rebuilt.hands, [h for h in session.hands if h.number in stored], strict=True
            ):
                assert (a.number, a.dealer, a.deal) == (b.number, b.dealer, b.deal)
                assert a.actions == b.actions, (session.id, a.number)
                assert a.irregularities == b.irregularities, (session.id, a.number)
                assert a.result == b.result
    finally:
        con.close()


def test_a_changed_log_file_is_not_read_again_but_rebuilt_from_the_store(tmp_path: Path) -> None:
    log = tmp_path / "b.json"
    log.write_bytes(APPENDIX_B.read_bytes())
    db = tmp_path / "t.duckdb"
    ingest([str(log)], db=str(db))
    logged = _logged_sessions()[0]
    log.write_text("[]", "utf-8")  # the file changed since the ingest
    con = connect_reader(db)
    try:
        cur: duckdb.DuckDBPyConnection = con.cursor()
        loaded = rebuild.load_session(cur, logged.id)
        assert loaded is not None
        assert [h.actions for h in loaded[0].hands] == [h.actions for h in logged.hands]
    finally:
        con.close()


def test_a_jsonl_session_is_read_back_by_its_byte_span_not_the_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18: the replay read the session's whole log file again (and hashed it) for
    every hand it opened; a JSONL session is read by the bytes of its line alone."""
    log = tmp_path / "round.jsonl"
    log.write_bytes(DISPUTED.read_bytes())
    db = tmp_path / "t.duckdb"
    ingest([str(log)], db=str(db))
    logged = [SessionAdapter.validate_json(x) for x in DISPUTED.read_bytes().splitlines() if x]
    con = connect_reader(db)
    try:
        cur = con.cursor()
        spans = cur.execute(
            "SELECT session_id, byte_start, byte_length FROM sessions ORDER BY byte_start"
        ).fetchall()
        lines = log.read_bytes().splitlines(keepends=True)
        assert [(a, b) for _, a, b in spans] == [
            (sum(len(x) for x in lines[:i]), len(lines[i])) for i in range(len(lines))
        ]

        def no_whole_file(*_a: object, **_k: object) -> None:
            raise AssertionError("the whole file was read again")

        monkeypatch.setattr(rebuild, "read_file", no_whole_file)
        monkeypatch.setattr(rebuild, "sha256_file", no_whole_file)
        for session in logged:
            loaded = rebuild.load_session(cur, session.id)
            assert loaded is not None and loaded[0] == session
    finally:
        con.close()
