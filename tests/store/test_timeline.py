"""The store as the replayer's truth (issue 32, item 4): a hand's steps read from rows alone
(tarock_logs/store/read/timeline.py) are the engine's replay, position by position.

The sample logs of the three games are ingested into a new store, their files deleted, and
each stored hand's steps compared with the engine's replay of the same hand (the session
rebuilt from the store's rows) on what the replay page shows of a position: the seat to move,
the cards each seat holds, the trick on the table, the completed tricks with their leaders,
winners and points, the talon's groups and the group taken, the discards, the contract,
declarer and partner, the pairs of a game of fixed pairs, whether the bidding is over, the
findings at their step and, at an illegal card, the cards the rules allowed.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tarock_logs.log.reader import read_file
from tarock_logs.rules import get_engine
from tarock_logs.store.read.queries import connect_reader, fetch
from tarock_logs.store.read.rebuild import load_session
from tarock_logs.store.read.timeline import CLEAN, EXACT, hand_timeline
from tarock_logs.store.write.ingest import ingest
from tarock_logs.verdict import replay as rp

ROOT = Path(__file__).resolve().parents[2]
#: a log of each game and a disputed tournament round (illegal cards; its ordinary tables
#: the ingest lane's)
SAMPLES = (
    "slovenian/appendix-b.json",
    "disputed/round-1.jsonl",
    "zwanzigerrufen/fd-examples.json",
    "royal/worked-examples.json",
)
#: the position's keys the page reads, compared as they are
SAME = ("to_move", "hands", "trick", "talon_groups", "talon_taken", "discards", "contract",
        "declarer", "partner", "pairs")  # fmt: skip
LISTS = ("talon_groups", "talon_taken", "discards")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    """A store of the samples whose log files are gone after the ingest."""
    base = tmp_path_factory.mktemp("timeline")
    logs = base / "logs"
    for rel in SAMPLES:
        (logs / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "sample_logs" / rel, logs / rel)
    db = base / "t.duckdb"
    ingest([str(logs)], db=str(db))
    shutil.rmtree(logs)
    con = connect_reader(db)
    try:
        yield con.cursor()
    finally:
        con.close()


def _tricks(view: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (t.get("leader"), [tuple(x) for x in t.get("cards") or []], t.get("winner"),
         t.get("points"))
        for t in view.get("tricks") or []
    ]  # fmt: skip


def _allowed(replay: rp.HandReplay, step: rp.Step) -> list[str]:
    a = step.action
    if a is None or a.type != "play" or not any(v.severity == "error" for v in step.violations):
        return []
    alts = rp.legal_alternatives(replay, step.index - 1)
    return [x.card for x in alts if x.type == "play" and x.seat == a.seat and x.card]


def test_a_stored_hand_steps_as_the_engine_replays_it_with_its_log_deleted(store) -> None:
    compared = {EXACT: 0, CLEAN: 0}
    games = set()
    allowed_seen = 0
    sessions = [r[0] for r in fetch(
        store, "SELECT DISTINCT session_id FROM hands WHERE deal IS NOT NULL ORDER BY 1"
    )]  # fmt: skip
    assert sessions
    for sid in sessions:
        loaded = load_session(store, sid)  # (rebuilt from rows: the file is gone)
        assert loaded is not None
        session, ids = loaded
        engine = get_engine(session.game)
        assert engine is not None
        first = str(engine.first_phase)
        for hand_id, replay in zip(ids, rp.replay_session(session, with_views=True), strict=True):
            tl = hand_timeline(store, hand_id)
            assert tl is not None and tl.kind in (EXACT, CLEAN), hand_id
            assert len(tl.steps) == len(replay.steps)
            for want, got in zip(replay.steps, tl.steps, strict=True):
                where = (sid, hand_id[:8], want.index)
                ev, sv = want.view or {}, got.view
                assert got.action == want.action, where
                for key in SAME:
                    if key == "pairs" and key not in ev:
                        continue
                    a, b = sv.get(key), ev.get(key)
                    if key in LISTS:  # (none and an empty list read the same)
                        a, b = a or [], b or []
                    assert a == b, (*where, key)
                assert _tricks(sv) == _tricks(ev), where
                # the phase: the engine's own name where it said it, else whether the bidding
                # (the game's first phase) is over, which is what the page shows of it
                if tl.kind == EXACT:
                    assert sv["phase"] == str(ev["phase"]), where
                else:
                    assert (sv["phase"] == first) == (str(ev["phase"]) == first), where
                assert sorted((v.code, v.severity) for v in got.violations) == sorted(
                    (v.code, v.severity) for v in want.violations
                ), where
                allowed = _allowed(replay, want)
                assert sorted(sv.get("allowed") or []) == sorted(allowed), where
                allowed_seen += bool(allowed)
            compared[tl.kind] += 1
            games.add(session.game)
    assert games == {"slovenian", "zwanzigerrufen", "royal"}
    assert compared[EXACT] and compared[CLEAN]
    assert allowed_seen  # the disputed round's illegal cards


def test_the_radelci_carried_in_are_the_engines(store) -> None:
    """The radelci before and after each Slovenian hand are the engine's replay of the log
    (the log as written: a session's recorded radelci before its first hand are not in the
    store's hands, so a session rebuilt from rows would not say them)."""
    seen = 0
    for rel in SAMPLES:
        for rec in read_file(ROOT / "sample_logs" / rel):
            session = getattr(rec, "session", None)
            if session is None or session.game != "slovenian":
                continue
            for hand, replay in zip(session.hands, rp.replay_session(session), strict=True):
                rows = fetch(
                    store,
                    "SELECT hand_id FROM hands WHERE session_id = ? AND number = ?",
                    [session.id, hand.number],
                )
                tl = hand_timeline(store, rows[0][0])
                assert tl is not None
                assert tl.radelci_before == list(replay.carry_before["radelci"])
                assert tl.radelci_after == list(replay.carry_after["radelci"])
                seen += any(tl.radelci_before)
    assert seen  # (a hand played with radelci)


def test_a_store_of_schema_version_8_migrates_and_keeps_its_hands_without_a_timeline(
    tmp_path: Path,
) -> None:
    """Migration 0009 adds the timeline's columns and table to a store that has hands: they
    keep NULLs (``hands.timeline``), which the read path takes for "no timeline stored" (the
    page then replays such a hand with the engine, as before)."""
    from tarock_logs.store.schema import latest_version, migrate, migrations

    con = duckdb.connect(str(tmp_path / "v8.duckdb"))
    con.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL,"
        " applied_at TIMESTAMPTZ NOT NULL, checksum VARCHAR NOT NULL)"
    )
    for mg in migrations()[:8]:
        con.execute(mg.sql)
        con.execute(
            "INSERT INTO schema_migrations VALUES (?, ?, current_timestamp, ?)",
            [mg.version, mg.name, mg.checksum],
        )
    con.execute(
        "INSERT INTO hands (hand_id, session_id, game, number, dealer, table_size, verified,"
        " n_actions, n_violations, n_discrepancies, file, hand_key)"
        " VALUES ('h', 's', 'slovenian', 1, 0, 4, true, 1, 0, 0, 'f', 1)"
    )
    con.execute("INSERT INTO action_rows (hand_key, idx, seat, type) VALUES (1, 0, 1, 'pass')")
    assert migrate(con) == list(range(9, latest_version() + 1))
    assert con.execute("SELECT timeline, card_points FROM hands").fetchall() == [(None, None)]
    assert con.execute("SELECT to_move, phase FROM action_rows").fetchall() == [(None, None)]
    assert con.execute("SELECT count(*) FROM step_states").fetchall() == [(0,)]
    assert hand_timeline(con.cursor(), "h") is None
    con.close()
