"""The per-session facts (``session_player_facts``, ``pair_facts``, ``match_facts``, computed
at ingest by ``tarock_logs/store/write/facts.py``) against the computation they replace.

On simulated Royal Tarock matches (beside Slovenian sessions, with events and dates), every
section that reads them (Royal Tarock's match and pair standings, partners, head to head,
synergy, score over time and its timeline) equals the same section computed from the seat
facts, in the same store with the per-session tables gone (a store of schema version 10),
and the plain queries over the raw tables (``tests/support/stats_reference.py``), under the
filters that keep whole sessions; and after re-ingests of changed and pruned match files the
per-session facts equal those of a fresh ingest.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from tarock_logs.store.read import stats
from tarock_logs.store.write import facts
from tarock_logs.store.write.ingest import ingest
from tarock_logs.tools.simulate import dumps_session, simulate_hands
from tests.store.test_facts import _facts_by_content
from tests.support import stats_reference as ref

#: what each section is called with: (section, per-game, in the raw reference)
_SECTIONS = [
    ("pair_matches", True, True), ("pair_standings", True, True), ("partners", True, True),
    ("head_to_head", True, True), ("synergy", False, True), ("score_over_time", False, True),
    ("score_timeline", False, False),
]  # fmt: skip


def _matches(n: int, seed: int, game: str, first_day: int) -> list[dict[str, Any]]:
    """``n`` simulated hands of ``game`` in sessions of 8, each with a date (two sessions a
    day) and every third in one event."""
    sessions = simulate_hands(n, seed, game=game, hands_per_session=8)
    for i, s in enumerate(sessions):
        day = dt.date(2026, 3, 1) + dt.timedelta(days=first_day + i // 2)
        s["event"] = {"name": "Spring cup" if i % 3 == 0 else f"Club evening {i}",
                      "date": day.isoformat()}  # fmt: skip
    return sessions


def _write(folder: Path, name: str, sessions: list[dict[str, Any]]) -> None:
    (folder / name).write_bytes(b"".join(dumps_session(s) for s in sessions))


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A store of simulated Royal matches and Slovenian sessions, and a copy of it without
    the per-session tables."""
    base = tmp_path_factory.mktemp("session-facts")
    logs = base / "logs"
    logs.mkdir()
    _write(logs, "royal.jsonl", _matches(96, 7, "royal", 0))
    _write(logs, "slovenian.jsonl", _matches(48, 8, "slovenian", 3))
    db = base / "facts.duckdb"
    ingest([logs], db=db)
    old = base / "seats.duckdb"
    shutil.copy(db, old)
    con = duckdb.connect(str(old))
    for table in facts.SESSION_TABLES:
        con.execute(f"DROP TABLE {table}")
    con.close()
    return db, old


def _filters(con: duckdb.DuckDBPyConnection, game: str | None) -> list[stats.Filters]:
    player, name = con.execute(
        "SELECT p.player_id, p.name FROM players p JOIN session_players sp USING (player_id) "
        "JOIN sessions s USING (session_id) WHERE s.game = coalesce(?, s.game) "
        "ORDER BY 1 LIMIT 1",
        [game],
    ).fetchall()[0]
    lo, hi = con.execute(
        "SELECT min(date), max(date) FROM sessions WHERE game = coalesce(?, game)", [game]
    ).fetchall()[0]
    g = stats.Filters(game=game)
    return [
        g,
        stats.Filters(game=game, player=player),
        stats.Filters(game=game, player=name),
        stats.Filters(game=game, event="Spring cup"),
        stats.Filters(game=game, date_from=lo + dt.timedelta(days=2), date_to=hi),
        stats.Filters(game=game, player=player, date_to=lo + dt.timedelta(days=4)),
        stats.Filters(game=game, event="nobody's event"),
    ]


def _same(new: pl.DataFrame, old: pl.DataFrame, what: str) -> None:
    assert new.columns == old.columns, what
    assert_frame_equal(new, old, check_dtypes=False, check_exact=False, rel_tol=1e-9)


def test_royal_matches_pairs_partners_and_opponents_from_the_facts_equal_the_computation(
    stores: tuple[Path, Path],
) -> None:
    """Every section that reads the per-session facts equals its computation from the seat
    facts (the same store without the per-session tables) under every whole-session filter,
    with names and with pseudonyms, and the raw-table reference."""
    db, old = stores
    con = duckdb.connect(str(db), read_only=True)
    seats = duckdb.connect(str(old), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM match_facts").fetchall()[0][0] == 24
        checked = 0
        for game in ("royal", "slovenian", None):
            for f in _filters(con, game):
                rf = ref.Filters(**{k: getattr(f, k) for k in ref.Filters.__dataclass_fields__})
                for name, per_game, in_ref in _SECTIONS:
                    if per_game and game is None:
                        continue
                    if name.startswith("pair_") and game != "royal":
                        continue
                    fn = getattr(stats, name)
                    got = {}
                    for mask in (False, True):
                        new = got[mask] = fn(con, f, mask=mask)
                        _same(new, fn(seats, f, mask=mask), f"{name} {f} mask={mask}")
                        checked += new.height
                    if in_ref:  # (the section with names, as read above: not read again)
                        _same(got[False], getattr(ref, name)(con, rf), f"{name} {f} (raw)")
        assert checked > 1000
    finally:
        con.close()
        seats.close()


def test_a_match_result_is_the_engines_rule_on_the_pairs_points(
    stores: tuple[Path, Path],
) -> None:
    """Royal Tarock (§7.2): each pair's match points are its points divided by the match
    length (8), rounded down; the pair with more won, the other lost."""
    con = duckdb.connect(str(stores[0]), read_only=True)
    try:
        m = stats.pair_matches(con, stats.Filters(game="royal"))
    finally:
        con.close()
    assert m.height == 24 and set(m["games"]) == {8}
    assert (m["match_points"] == m["points"] // 8).all()
    for part in m.partition_by("session_id"):
        a, b = part["match_points"].to_list()
        assert part["result"].to_list() == (
            ["won", "lost"] if a > b else ["lost", "won"] if a < b else ["drawn", "drawn"]
        )


def test_per_session_facts_after_reingests_of_royal_matches_equal_a_fresh_ingest(
    tmp_path: Path,
) -> None:
    """A match file changed (a game dropped, a score changed), another pruned, one unchanged:
    the per-session facts (and the match standings) of the store that saw every ingest equal
    those of one fresh ingest of the files as they are at the end."""
    logs = tmp_path / "logs"
    logs.mkdir()
    sessions = _matches(64, 5, "royal", 0)
    _write(logs, "a.jsonl", sessions[:3])
    _write(logs, "b.jsonl", sessions[3:5])
    _write(logs, "c.jsonl", sessions[5:])
    db = tmp_path / "t.duckdb"
    ingest([logs], db=db)
    changed = json.loads(json.dumps(sessions[:3]))
    del changed[0]["hands"][5]
    changed[1]["hands"][0]["result"]["scores"][0] += 40
    _write(logs, "a.jsonl", changed)
    (logs / "c.jsonl").unlink()
    ingest([logs], db=db, prune=True)
    ingest([logs], db=db)
    fresh = tmp_path / "fresh.duckdb"
    ingest([logs], db=fresh)
    got = _facts_by_content(db)
    assert len(got["matches"]) == 2 * 5
    assert got == _facts_by_content(fresh)
    a = duckdb.connect(str(db), read_only=True)
    b = duckdb.connect(str(fresh), read_only=True)
    try:
        f = stats.Filters(game="royal")
        _same(stats.pair_standings(a, f), stats.pair_standings(b, f), "pair standings")
    finally:
        a.close()
        b.close()
