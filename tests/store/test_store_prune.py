"""``tarock ingest --prune``: the rows of a file that is gone from the ingested paths are
removed (hands with every child row, sessions, rejects, its raw_logs row); files stored from
other paths are never touched; a hand another file still holds stays stored; without
``--prune`` nothing is removed."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import orjson
from typer.testing import CliRunner

from tarock_logs.cli.common import app
from tarock_logs.store.write.ingest import ingest
from tarock_logs.store.write.process import HAND_CHILDREN

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = sorted((ROOT / "sample_logs" / "tournament").glob("*.jsonl"))
MIXED = ROOT / "sample_logs" / "malformed" / "mixed.jsonl"


def _per_file(db: Path) -> dict[str, dict[str, int]]:
    """Rows per stored file name (base name) and table."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out: dict[str, dict[str, int]] = {}

        def add(table: str, sql: str) -> None:
            for f, n in con.execute(sql).fetchall():
                out.setdefault(Path(f).name, {})[table] = n

        add("raw_logs", "SELECT file, count(*) FROM raw_logs GROUP BY file")
        add("hands", "SELECT file, count(*) FROM hands GROUP BY file")
        add("sessions", "SELECT file, count(*) FROM sessions GROUP BY file")
        add("rejects", "SELECT file, count(*) FROM rejects GROUP BY file")
        for child in HAND_CHILDREN:
            add(child, f"SELECT h.file, count(*) FROM {child} JOIN hands h USING (hand_key) "
                       "GROUP BY h.file")  # fmt: skip
        for t in ("session_players", "session_scores"):
            add(t, f"SELECT s.file, count(*) FROM {t} JOIN sessions s USING (session_id) "
                   "GROUP BY s.file")  # fmt: skip
        orphans = con.execute("SELECT count(*) FROM actions WHERE hand_id NOT IN "
                              "(SELECT hand_id FROM hands)").fetchall()[0][0]  # fmt: skip
        assert orphans == 0
        return out
    finally:
        con.close()


def _folder(tmp: Path) -> Path:
    logs = tmp / "logs"
    logs.mkdir()
    for p in [*ROUNDS, MIXED]:
        shutil.copy(p, logs / p.name)
    return logs


def test_a_deleted_file_is_pruned_with_every_row_and_the_others_stay(tmp_path: Path) -> None:
    logs = _folder(tmp_path)
    db = tmp_path / "t.duckdb"
    ingest([logs], db=db, jobs=1)
    before = _per_file(db)
    assert before["round-2.jsonl"]["hands"] > 40 and before["mixed.jsonl"]["rejects"] > 0
    (logs / "round-2.jsonl").unlink()
    (logs / "mixed.jsonl").unlink()
    kept = ingest([logs], db=db, jobs=1)  # without --prune: nothing is removed
    assert kept.files_pruned == 0 and _per_file(db) == before
    pruned = ingest([logs], db=db, jobs=1, prune=True)
    assert pruned.files_pruned == 2
    assert pruned.hands_removed == before["round-2.jsonl"]["hands"] + before["mixed.jsonl"]["hands"]
    after = _per_file(db)
    assert set(after) == {"round-1.jsonl", "round-3.jsonl"}
    assert after["round-1.jsonl"] == before["round-1.jsonl"]
    assert after["round-3.jsonl"] == before["round-3.jsonl"]
    assert "pruned" in pruned.line()
    again = ingest([logs], db=db, jobs=1, prune=True)
    assert again.files_pruned == 0 and again.files_unchanged == 2


def test_files_stored_from_other_paths_are_not_touched(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    shutil.copy(ROUNDS[0], a / "r1.jsonl")
    shutil.copy(ROUNDS[1], a / "r2.jsonl")
    shutil.copy(ROUNDS[2], b / "r3.jsonl")
    db = tmp_path / "t.duckdb"
    ingest([a, b], db=db, jobs=1)
    (a / "r2.jsonl").unlink()
    summary = ingest([a], db=db, jobs=1, prune=True)  # b is not among the paths
    assert summary.files_pruned == 1
    assert set(_per_file(db)) == {"r1.jsonl", "r3.jsonl"}
    # a single file as the path prunes nothing else either
    summary = ingest([a / "r1.jsonl"], db=db, jobs=1, prune=True)
    assert summary.files_pruned == 0 and set(_per_file(db)) == {"r1.jsonl", "r3.jsonl"}


def test_an_excluded_file_under_the_path_is_pruned(tmp_path: Path) -> None:
    logs = _folder(tmp_path)
    db = tmp_path / "t.duckdb"
    ingest([logs], db=db, jobs=1)
    summary = ingest([logs], db=db, jobs=1, exclude=["mixed.jsonl"], prune=True)
    assert summary.files_pruned == 1
    assert "mixed.jsonl" not in _per_file(db)


def test_a_pruned_files_hand_that_another_file_holds_stays_stored(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(ROUNDS[0], logs / "a.jsonl")
    shutil.copy(ROUNDS[0], logs / "b-copy.jsonl")  # the same hands: stored once, under a
    db = tmp_path / "t.duckdb"
    first = ingest([logs], db=db, jobs=1)
    n = first.hands_stored
    assert first.hands_duplicate == n
    (logs / "a.jsonl").unlink()
    summary = ingest([logs], db=db, jobs=1, prune=True)
    assert summary.files_pruned == 1
    assert _per_file(db)["b-copy.jsonl"]["hands"] == n  # read again from the copy
    assert set(_per_file(db)) == {"b-copy.jsonl"}


def test_cli_prune_reports_the_pruned_files(tmp_path: Path) -> None:
    logs = _folder(tmp_path)
    db = tmp_path / "t.duckdb"
    runner = CliRunner()
    res = runner.invoke(app, ["ingest", str(logs), "--db", str(db), "--format", "json"])
    assert res.exit_code == 0, res.output
    (logs / "round-3.jsonl").unlink()
    res = runner.invoke(app, ["ingest", str(logs), "--db", str(db), "--prune", "--format",
                              "json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    out = orjson.loads(res.stdout)
    assert out["files_pruned"] == 1 and out["hands_removed"] > 40
