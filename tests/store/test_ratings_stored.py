"""Ratings stored at ingest (store/write/ratings.py: ``refresh``) and read back
(store/read/ratings.py: ``stored_ratings``, ``read_ratings``): always what ``ratings()``
recomputes from the same store, kept so by re-ingests of changed, new, pruned and unchanged
files, and recomputed only for the games whose sessions changed."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from tarock_logs.store.read import ratings as r
from tarock_logs.store.read.queries import game_ratings
from tarock_logs.store.write.ingest import ingest
from tarock_logs.tools.simulate import dumps_session, simulate_hands
from tests.support.simulated import run_simulation
from tests.support.store_fixtures import reverse_scores_of_first_session

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("tournament", "royal", "zwanzigerrufen")


def _assert_same(a: r.RatingHistory, b: r.RatingHistory) -> None:
    assert a.current.schema == b.current.schema and a.history.schema == b.history.schema
    assert a.current.equals(b.current)
    assert a.history.equals(b.history)


def _open(db: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(db), read_only=True)


def _games(con: duckdb.DuckDBPyConnection) -> list[str]:
    rows = con.execute("SELECT DISTINCT CAST(game AS VARCHAR) FROM sessions ORDER BY 1")
    return [g for (g,) in rows.fetchall()]


def _assert_stored_equal_recomputed(db: Path) -> None:
    con = _open(db)
    try:
        for game in [None, *_games(con)]:
            stored = r.stored_ratings(con, game)
            assert stored is not None, game
            _assert_same(stored, r.ratings(con, game))
    finally:
        con.close()


def _stored(db: Path, game: str | None = None) -> r.RatingHistory:
    con = _open(db)
    try:
        stored = r.stored_ratings(con, game)
    finally:
        con.close()
    assert stored is not None
    return stored


@pytest.fixture
def recomputed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str | None]]:
    """The games the ingest recomputes (``refresh`` reads each one's session rows)."""
    seen: list[str | None] = []
    real = r.session_rows

    def counting(con: duckdb.DuckDBPyConnection, game: str | None = None):  # type: ignore[no-untyped-def]
        seen.append(game)
        return real(con, game)

    monkeypatch.setattr(r, "session_rows", counting)
    yield seen


def _copy_samples(dest: Path, games: tuple[str, ...] = GAMES) -> Path:
    for g in games:
        shutil.copytree(ROOT / "sample_logs" / g, dest / g)
    return dest


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stored") / "t.duckdb"
    ingest([str(ROOT / "sample_logs" / g) for g in GAMES], db=str(path))
    return path


def test_the_ingest_stores_what_ratings_recomputes_on_the_sample_store(sample_db: Path) -> None:
    _assert_stored_equal_recomputed(sample_db)
    con = _open(sample_db)
    try:
        assert _games(con) == ["royal", "slovenian", "zwanzigerrufen"]
        for game in _games(con):  # the Players page's query reads the stored rows
            _assert_same(game_ratings(con, game), r.ratings(con, game))
        n = con.execute("SELECT count(*) FROM rating_history").fetchall()[0][0]
        assert n == r.ratings(con).history.height > 0
    finally:
        con.close()


def test_the_ingest_stores_what_ratings_recomputes_on_simulated_hands(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    games = [("slovenian", 2400), ("royal", 80), ("zwanzigerrufen", 160)]
    for game, n in games:
        if game == "slovenian":  # (the stored facts' differential takes the same hands)
            sessions = run_simulation(tmp_path_factory, n, 7, hands_per_session=8)
        else:
            sessions = simulate_hands(n, 7, game=game, hands_per_session=8)
        half = len(sessions) // 2
        for i, part in enumerate((sessions[:half], sessions[half:])):
            (logs / f"{game}-{i}.jsonl").write_bytes(b"".join(dumps_session(s) for s in part))
    db = tmp_path / "sim.duckdb"
    ingest([str(logs)], db=str(db), jobs=1)
    _assert_stored_equal_recomputed(db)
    assert _stored(db, "slovenian").history["session_id"].n_unique() == 300


def test_a_changed_session_recomputes_its_game_and_equals_a_fresh_ingest(
    tmp_path: Path, recomputed: list[str | None]
) -> None:
    logs = _copy_samples(tmp_path / "logs")
    db = tmp_path / "t.duckdb"
    ingest([str(logs)], db=str(db))
    assert sorted(map(str, recomputed)) == ["royal", "slovenian", "zwanzigerrufen"]
    before = _stored(db, "slovenian")
    reverse_scores_of_first_session(logs / "tournament" / "round-2.jsonl")
    recomputed.clear()
    summary = ingest([str(logs)], db=str(db))
    assert summary.files_changed == 1
    assert recomputed == ["slovenian"]  # the other games' inputs did not change
    after = _stored(db, "slovenian")
    assert not after.current.equals(before.current)  # the change reached the ratings
    fresh = tmp_path / "fresh.duckdb"
    ingest([str(logs)], db=str(fresh))
    for game in (None, "royal", "slovenian", "zwanzigerrufen"):
        _assert_same(_stored(db, game), _stored(fresh, game))
    _assert_stored_equal_recomputed(db)


def test_an_unchanged_reingest_recomputes_nothing(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "again.duckdb"
    shutil.copyfile(sample_db, db)
    before = _stored(db)

    def boom(frame: object) -> r.RatingHistory:
        raise AssertionError("recomputed although nothing changed")

    monkeypatch.setattr(r, "rate", boom)
    summary = ingest([str(ROOT / "sample_logs" / g) for g in GAMES], db=str(db))
    assert summary.files_unchanged == summary.files == 5
    monkeypatch.undo()
    _assert_same(_stored(db), before)


def test_new_and_pruned_files_recompute_their_game_only(
    tmp_path: Path, recomputed: list[str | None]
) -> None:
    logs = _copy_samples(tmp_path / "logs", ("tournament", "royal"))
    db = tmp_path / "t.duckdb"
    ingest([str(logs)], db=str(db))
    recomputed.clear()
    shutil.copytree(ROOT / "sample_logs" / "zwanzigerrufen", logs / "zwanzigerrufen")
    ingest([str(logs)], db=str(db))
    assert recomputed == ["zwanzigerrufen"]
    _assert_stored_equal_recomputed(db)
    recomputed.clear()
    shutil.rmtree(logs / "royal")
    assert ingest([str(logs)], db=str(db), prune=True).files_pruned == 1
    assert recomputed == []  # a game with no sessions left is not rated: its rows go
    con = _open(db)
    try:
        assert con.execute(
            "SELECT (SELECT count(*) FROM rating_games WHERE game = 'royal'), "
            "(SELECT count(*) FROM rating_current WHERE game = 'royal'), "
            "(SELECT count(*) FROM rating_history WHERE game = 'royal')"
        ).fetchall() == [(0, 0, 0)]
    finally:
        con.close()
    _assert_stored_equal_recomputed(db)
    assert _stored(db, "royal").current.is_empty()


def test_a_store_without_stored_ratings_is_recomputed_until_an_ingest_stores_them(
    sample_db: Path, tmp_path: Path, recomputed: list[str | None]
) -> None:
    db = tmp_path / "old.duckdb"
    shutil.copyfile(sample_db, db)
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM rating_games WHERE game = 'royal'")  # migrated, not yet computed
    con.close()
    con = _open(db)
    try:
        assert r.stored_ratings(con, "royal") is None and r.stored_ratings(con) is None
        assert r.stored_ratings(con, "slovenian") is not None
        _assert_same(r.read_ratings(con, "royal"), r.ratings(con, "royal"))
    finally:
        con.close()
    con = duckdb.connect(str(db))  # a store older than migration 0006
    for table in ("rating_games", "rating_current", "rating_history"):
        con.execute(f"DROP TABLE {table}")
    con.execute("DELETE FROM schema_migrations WHERE version = 6")
    con.close()
    con = _open(db)
    try:
        assert r.stored_ratings(con) is None
        for game in (None, "royal", "slovenian"):
            _assert_same(r.read_ratings(con, game), r.ratings(con, game))
            if game is not None:
                _assert_same(game_ratings(con, game), r.ratings(con, game))
    finally:
        con.close()
    # the next ingest migrates it and stores every game's ratings, though no file changed
    recomputed.clear()
    summary = ingest([str(ROOT / "sample_logs" / g) for g in GAMES], db=str(db))
    assert summary.files_unchanged == summary.files
    assert sorted(map(str, recomputed)) == ["royal", "slovenian", "zwanzigerrufen"]
    _assert_stored_equal_recomputed(db)
