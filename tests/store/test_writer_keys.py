"""The writer's own bookkeeping of keys and plain inserts (store/write/ingest.py, ``_Writer``).

A load of players none of whom is stored inserts them plainly with the keys it gives them
itself (``_new_players``), where a load with a stored player runs the upsert: the players
table must be the same either way. A load of new sessions gives them the next session keys
itself: keys stay unique and follow the store's greatest across new, changed and duplicate
files. A batch table with a column its store table lacks is refused (as ``INSERT … BY NAME``
refuses it), never dropped silently; a store column it lacks gets its default.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from tarock_logs.store.write import ingest as ig
from tarock_logs.tools.simulate import dumps_session, simulate_hands


def _write(path: Path, sessions: list[dict]) -> None:
    path.write_bytes(b"".join(dumps_session(s) for s in sessions))


def _logs(folder: Path) -> list[dict]:
    """Files of simulated sessions (16 hands each), one of them (``e``) holding a new session
    and a copy of a session of the first file: loaded together (batches of 32 hands), its
    sessions take the writer's careful path, which gives the new one its key in SQL; the
    next file's new sessions then follow it."""
    folder.mkdir()
    sessions = simulate_hands(112, 3, hands_per_session=16)
    _write(folder / "a.jsonl", sessions[:2])
    _write(folder / "b.jsonl", sessions[2:4])
    _write(folder / "c.jsonl", sessions[4:5])
    _write(folder / "e.jsonl", [sessions[5], json.loads(json.dumps(sessions[0]))])
    _write(folder / "f.jsonl", sessions[6:])
    return sessions


def _rows(db: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _players(db: Path) -> list[tuple]:
    return _rows(db, "SELECT player_id, name, player_key FROM players ORDER BY player_id")


def _ingest_all(logs: Path, db: Path, check: Callable[[], None] = lambda: None) -> None:
    """Ingest the files, then again with ``b`` changed (``check`` after each ingest)."""
    ig.ingest([logs], db=db, jobs=1, batch_hands=32)
    check()
    sessions = json.loads("[" + ",".join((logs / "b.jsonl").read_text().splitlines()) + "]")
    sessions[0]["hands"][0]["result"]["scores"][0] += 10  # b changed: its rows replaced
    _write(logs / "b.jsonl", sessions)
    ig.ingest([logs], db=db, jobs=1, batch_hands=32)
    check()


def test_new_players_inserted_plainly_equal_the_upsert(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = tmp_path / "logs"
    _logs(logs)
    plain = tmp_path / "plain.duckdb"
    calls = {"plain": 0}
    real = ig._Writer._new_players

    def counting(self: ig._Writer, t: pa.Table) -> pa.Table | None:
        new = real(self, t)
        calls["plain"] += new is not None
        return new

    monkeypatch.setattr(ig._Writer, "_new_players", counting)
    _ingest_all(logs, plain)
    assert calls["plain"] > 0
    upsert = tmp_path / "upsert.duckdb"
    _logs(tmp_path / "logs2")
    monkeypatch.setattr(ig._Writer, "_new_players", lambda self, t: None)
    _ingest_all(tmp_path / "logs2", upsert)
    assert _players(plain) == _players(upsert)
    keys = [k for _, _, k in _players(plain)]
    assert len(set(keys)) == len(keys)


def test_session_keys_stay_unique_across_new_changed_and_duplicate_files(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    _logs(logs)
    db = tmp_path / "t.duckdb"

    def check() -> None:
        keys = [k for (k,) in _rows(db, "SELECT session_key FROM sessions")]
        assert None not in keys and len(set(keys)) == len(keys)
        # every fact points at its hand's session
        assert _rows(
            db,
            "SELECT count(*) FROM seat_facts f JOIN hands h USING (hand_key) "
            "JOIN sessions s ON s.session_id = h.session_id WHERE s.session_key <> f.session_key",
        ) == [(0,)]

    _ingest_all(logs, db, check)
    keys = [k for (k,) in _rows(db, "SELECT session_key FROM sessions")]
    # a new file later: its sessions follow the greatest key
    more = simulate_hands(16, 11, hands_per_session=16)
    _write(logs / "g.jsonl", more)
    top = max(keys)
    ig.ingest([logs], db=db, jobs=1)
    new = _rows(db, "SELECT session_key FROM sessions WHERE file LIKE '%g.jsonl'")
    assert [k for (k,) in new] == [top + 1]


def test_a_batch_column_the_store_lacks_is_refused(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    _logs(logs)
    db = tmp_path / "t.duckdb"
    ig.ingest([logs / "a.jsonl"], db=db, jobs=1)
    con = duckdb.connect(str(db))
    try:
        w = ig._Writer(con, ig.IngestSummary())
        t = pa.table({"file": ["x"], "sha256": ["y"], "size": [1], "n_sessions": [0],
                      "n_hands": [0], "n_rejected": [0], "surprise": [1]})  # fmt: skip
        with pytest.raises(duckdb.BinderException, match="surprise"):
            w._insert("raw_logs", t, ingested_at="current_timestamp")
        w._insert("raw_logs", t.drop_columns(["surprise"]), ingested_at="current_timestamp")
        assert con.execute(
            "SELECT size, ingested_at IS NOT NULL FROM raw_logs WHERE file = 'x'"
        ).fetchall() == [(1, True)]
        # a store column the batch leaves out gets its default, as INSERT … BY NAME gives it
        r = pa.table({"file": ["x"], "line": [3], "errors": ["[]"], "n_errors": [0]})
        w._insert("rejects", r, rejected_at="current_timestamp")
        assert con.execute(
            "SELECT line, session, raw, rejected_at IS NOT NULL FROM rejects WHERE file = 'x'"
        ).fetchall() == [(3, None, None, True)]
    finally:
        con.close()


def test_ids_stored_in_earlier_loads_and_runs_are_found(tmp_path: Path) -> None:
    """The writer's check for ids already stored (the hand ids' hashes, ``_hand_hashes``)
    sees every id stored before, in an earlier load of the run or an earlier run, also after a
    changed file's rows were replaced: each hand and session is stored once."""
    logs = tmp_path / "logs"
    logs.mkdir()
    sessions = simulate_hands(64, 5, hands_per_session=16)
    _write(logs / "a.jsonl", sessions[:2])
    _write(logs / "b.jsonl", sessions[2:])
    _write(logs / "z.jsonl", [sessions[1]])  # a later load holds a copy of a's second session
    db = tmp_path / "t.duckdb"
    summary = ig.ingest([logs], db=db, jobs=1, batch_hands=16)
    assert (summary.hands_stored, summary.hands_duplicate) == (64, 16)
    _write(logs / "y.jsonl", [sessions[2], sessions[3]])  # a new file of stored sessions
    changed = json.loads(json.dumps(sessions[:2]))
    changed[0]["hands"][0]["result"]["scores"][0] += 10
    _write(logs / "a.jsonl", changed)  # a changed: its rows replaced
    ig.ingest([logs], db=db, jobs=1, batch_hands=16)
    assert _rows(db, "SELECT count(*) - count(DISTINCT hand_id) FROM hands") == [(0,)]
    assert _rows(db, "SELECT count(*), count(DISTINCT session_id) FROM sessions") == [(4, 4)]
    fresh = tmp_path / "fresh.duckdb"
    ig.ingest([logs], db=fresh, jobs=1, batch_hands=16)
    for sql in ("SELECT hand_id, session_id FROM hands ORDER BY ALL",
                "SELECT session_id, seat, player_id FROM session_players ORDER BY ALL",
                "SELECT hand_id, seat, recorded_total FROM hand_scores ORDER BY ALL"):  # fmt: skip
        assert _rows(db, sql) == _rows(fresh, sql)


def test_an_unchanged_reingest_reports_what_the_first_ingest_stored(tmp_path: Path) -> None:
    """Files skipped as unchanged are counted in two queries for all of them: the counts are
    those of the first ingest, and the rejects come file by file (the files' order), each
    file's by line and hand, as a query per file gives them."""
    root = Path(__file__).resolve().parents[2] / "sample_logs"
    paths = [root / g for g in ("slovenian", "malformed", "tournament")]
    db = tmp_path / "t.duckdb"
    first = ig.ingest(paths, db=db)
    again = ig.ingest(paths, db=db)
    assert first.rejects and again.files_unchanged == first.files
    assert (again.sessions, again.hands_rejected, again.files_rejected) == (
        first.sessions, first.hands_rejected, first.files_rejected)  # fmt: skip
    assert again.hands_unchanged == first.hands_stored + first.hands_unchanged
    assert again.hands_duplicate == first.hands_duplicate
    from tarock_logs.store import sources

    expected = []
    con = duckdb.connect(str(db), read_only=True)
    try:
        for f in sources.list_files(paths, ()):
            expected += con.execute(
                "SELECT file, line, hand_index, first_code FROM rejects WHERE file = ? "
                "ORDER BY line, hand_index",
                [sources.file_key(f)],
            ).fetchall()
    finally:
        con.close()
    got = [(r["file"], r["line"], None, r["first_code"]) for r in again.rejects]
    assert [(f, ln, c) for f, ln, _, c in got] == [(f, ln, c) for f, ln, _, c in expected]
