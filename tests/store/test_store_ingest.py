"""The DuckDB store: migrations, idempotent and incremental ingest, rejects, atomic publish.

Every test uses a real DuckDB file in a temporary folder and the project's real reader, audit
and replay; hands of ``slovenian`` logs are scored by the toy engine of
``tests/support/store_toy_engine.py`` (the store is game-agnostic).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.cli.common import app
from tarock_logs.store import connect_readonly
from tarock_logs.store.schema import SchemaError, latest_version, migrate
from tarock_logs.store.write.ingest import ingest
from tarock_logs.store.write.process import HAND_CHILDREN, KEYED_ONLY, SCHEMAS, process_shard
from tests.support.store_fixtures import (
    act,
    bad_hand,
    hand,
    session,
    stats_dataset,
    toy_engine,  # noqa: F401 - fixture
    write_json,
    write_jsonl,
)

SNAPSHOT = Path(__file__).parent / "snapshots" / "store_columns.json"
TABLES = [
    "raw_logs",
    "sessions",
    "players",
    "session_players",
    "hands",
    "actions",
    "irregularities",
    "tricks",
    "violations",
    "score_items",
    "hand_scores",
    "session_scores",
    "rejects",
    "meta",
    "schema_migrations",
]
SAMPLE_LOGS = Path(__file__).resolve().parents[2] / "sample_logs"

pytestmark = pytest.mark.usefixtures("toy_engine")


def counts(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in TABLES}
    finally:
        con.close()


def columns(con: duckdb.DuckDBPyConnection) -> list[list[str]]:
    rows = con.execute(
        "SELECT table_name, column_name, data_type FROM duckdb_columns() "
        "WHERE schema_name = 'main' AND NOT internal ORDER BY table_name, column_index"
    ).fetchall()
    return [list(r) for r in rows]


# --------------------------------------------------------------------------- migrations


def test_migrations_create_the_documented_schema_on_an_empty_database(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "empty.duckdb"))
    assert migrate(con) == list(range(1, latest_version() + 1))
    got = columns(con)
    if os.environ.get("UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(json.dumps(got, indent=0) + "\n")
    assert got == json.loads(SNAPSHOT.read_text()), "schema changed: add a migration"
    meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    assert meta["duckdb_version"] == duckdb.__version__
    assert meta["schema_version"] == str(latest_version())
    versions = con.execute("SELECT version, checksum FROM schema_migrations").fetchall()
    assert [v for v, _ in versions] == list(range(1, latest_version() + 1))
    assert all(len(c) == 64 for _, c in versions)


def test_migrate_twice_applies_nothing_the_second_time(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "db.duckdb"))
    migrate(con)
    before = columns(con)
    assert migrate(con) == []
    assert columns(con) == before


def test_migrate_brings_meta_up_to_date_when_it_differs(tmp_path: Path) -> None:
    """(migrate writes ``meta`` only where it differs: a store from another version of the
    tool or of DuckDB gets the current ones, a current store is not written.)"""
    con = duckdb.connect(str(tmp_path / "db.duckdb"))
    migrate(con)
    con.execute("UPDATE meta SET value = '0.0.1' WHERE key IN ('tool_version', 'duckdb_version')")
    con.execute("DELETE FROM meta WHERE key = 'schema_version'")
    assert migrate(con) == []
    meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    assert meta["duckdb_version"] == duckdb.__version__
    assert meta["tool_version"] != "0.0.1"
    assert meta["schema_version"] == str(latest_version())


def test_an_edited_applied_migration_is_refused(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "db.duckdb"))
    migrate(con)
    con.execute("UPDATE schema_migrations SET checksum = 'x' WHERE version = 1")
    with pytest.raises(SchemaError, match="changed after it was applied"):
        migrate(con)


def test_a_database_from_a_newer_program_is_refused(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "db.duckdb"))
    migrate(con)
    con.execute("INSERT INTO schema_migrations VALUES (99, '0099_future.sql', now(), 'x')")
    with pytest.raises(SchemaError, match="newer than this program"):
        migrate(con)
    assert con.execute("SELECT count(*) FROM schema_migrations").fetchall() == [
        (latest_version() + 1,)
    ]


def test_every_arrow_table_of_a_shard_matches_its_store_table(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "db.duckdb"))
    migrate(con)
    cols = {}
    for t, c, _ in columns(con):
        cols.setdefault(t, []).append(c)
    # the writer adds the load's timestamps and the integer keys it assigns
    stamped = {"raw_logs": {"ingested_at"}, "rejects": {"rejected_at"},
               "players": {"player_key"}, "sessions": {"session_key"},
               **{t: {"hand_key"} for t in ("hands", *HAND_CHILDREN)}}  # fmt: skip
    for name, schema in SCHEMAS.items():
        # rows the store keys by hand_key alone carry their hand's id in the batch only
        batch_only = {"hand_id"} if name in KEYED_ONLY else set()
        assert set(schema.names) - batch_only == set(cols[name]) - stamped.get(name, set()), name


# --------------------------------------------------------------------------- ingest


def test_process_shard_is_deterministic(tmp_path: Path) -> None:
    f = write_json(tmp_path / "logs" / "s.json", stats_dataset())
    a, b = process_shard(f), process_shard(f)
    assert {k: t.num_rows for k, t in a.items()}["hands"] == 6
    assert all(a[k].equals(b[k]) for k in a)


def test_reingesting_the_same_files_stores_nothing_twice(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    runner = CliRunner()
    first = runner.invoke(app, ["ingest", str(logs), "--db", str(db), "--format", "json"])
    assert first.exit_code == 0, first.output
    s1 = orjson.loads(first.stdout)
    assert (s1["files"], s1["hands_stored"], s1["hands_unchanged"], s1["sessions"]) == (1, 6, 0, 2)
    c1 = counts(db)
    second = runner.invoke(app, ["ingest", str(logs), "--db", str(db), "--format", "json"])
    assert second.exit_code == 0, second.output
    s2 = orjson.loads(second.stdout)
    assert s2["hands_stored"] == 0 and s2["hands_unchanged"] == 6
    c2 = counts(db)
    c1.pop("meta"), c2.pop("meta")
    assert c1 == c2
    assert c2["hands"] == 6 and c2["actions"] == 35 and c2["hand_scores"] == 24


@pytest.mark.skipif(not any(SAMPLE_LOGS.rglob("*.json*")), reason="sample_logs not written yet")
def test_reingesting_sample_logs_is_idempotent(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    runner = CliRunner()
    r1 = runner.invoke(app, ["ingest", str(SAMPLE_LOGS), "--db", str(db), "--format", "json"])
    assert r1.exit_code == 0, r1.output
    c1 = counts(db)
    r2 = runner.invoke(app, ["ingest", str(SAMPLE_LOGS), "--db", str(db), "--format", "json"])
    assert r2.exit_code == 0, r2.output
    s1, s2 = orjson.loads(r1.stdout), orjson.loads(r2.stdout)
    assert s2["hands_stored"] == 0
    assert s2["hands_unchanged"] == s1["hands_stored"] + s1["hands_unchanged"]
    assert s2["hands_rejected"] == s1["hands_rejected"]
    assert s2["hands_duplicate"] == s1["hands_duplicate"]
    assert s2["files_rejected"] == s1["files_rejected"]
    assert s2["files_unchanged"] == s1["files"]
    c2 = counts(db)
    c1.pop("meta"), c2.pop("meta")
    assert c1 == c2


def test_a_mixed_batch_stores_every_good_hand_and_lists_every_reject(tmp_path: Path) -> None:
    s1, s2 = stats_dataset()
    s2_bad = json.loads(json.dumps(s2))
    s2_bad["hands"][1] = bad_hand(s2_bad["hands"][1])  # hand 2: a card dealt twice
    logs = tmp_path / "logs"
    write_jsonl(logs / "mixed.jsonl", [s1, s2_bad], extra_lines=['{"format": "tarock-log", oops'])
    write_json(logs / "broken.json", {"format": "tarock-log", "format_version": 1})
    db = tmp_path / "t.duckdb"
    res = CliRunner().invoke(app, ["ingest", str(logs), "--db", str(db), "--format", "json"])
    assert res.exit_code == 0, res.output
    s = orjson.loads(res.stdout)
    assert s["files"] == 2 and s["files_rejected"] == 1
    assert s["hands_stored"] == 5  # 4 of cup-r1, hand 1 of league-1
    assert s["hands_rejected"] == 3
    codes = {(Path(r["file"]).name, r["hand"], r["first_code"]) for r in s["rejects"]}
    assert ("mixed.jsonl", 2, "deal.duplicate_card") in codes
    assert ("mixed.jsonl", None, "json.syntax") in codes
    broken = [c for c in codes if c[0] == "broken.json"]
    assert len(broken) == 1 and broken[0][1] is None and broken[0][2].startswith("schema.")
    assert all(r["reason"] for r in s["rejects"])
    con = connect_readonly(db)
    rows = con.execute(
        "SELECT file, line, session, hand, first_code, errors, raw FROM rejects ORDER BY file, line"
    ).fetchall()
    assert len(rows) == 3
    dup = next(r for r in rows if r[3] == 2)
    assert dup[2] == "league-1" and dup[1] == 2
    err = json.loads(dup[5])[0]
    assert err["code"] == "deal.duplicate_card" and err["path"].startswith("$.hands[1]")
    assert '"number": 2' in dup[6] or '"number":2' in dup[6]
    numbers = con.execute("SELECT session_id, number FROM hands ORDER BY 1, 2").fetchall()
    assert numbers == [("cup-r1", 1), ("cup-r1", 2), ("cup-r1", 3), ("cup-r1", 4), ("league-1", 1)]
    con.close()
    again = CliRunner().invoke(app, ["ingest", str(logs), "--db", str(db), "--format", "json"])
    s2 = orjson.loads(again.stdout)
    assert s2["hands_stored"] == 0 and s2["hands_rejected"] == 3
    assert counts(db)["rejects"] == 3


def test_a_changed_file_replaces_its_hands_and_leaves_the_others_alone(tmp_path: Path) -> None:
    s1, s2 = stats_dataset()
    logs = tmp_path / "logs"
    write_json(logs / "one.json", s1)
    write_json(logs / "two.json", s2)
    db = tmp_path / "t.duckdb"
    ingest([logs], db=db)
    con = connect_readonly(db)
    two_before = con.execute(
        "SELECT * FROM hands WHERE file LIKE '%two.json' ORDER BY hand_id"
    ).fetchall()
    old_ids = {
        r[0]
        for r in con.execute("SELECT hand_id FROM hands WHERE file LIKE '%one.json'").fetchall()
    }
    con.close()
    # hand 4 changes (c now loses), hand 3 disappears, the others stay as they were
    s1["hands"][3]["actions"][-1] = act("meld", 2, meld="lost")
    s1["hands"][3]["result"] = {"scores": [0, 0, -40, 0]}
    del s1["hands"][2]
    write_json(logs / "one.json", s1)
    summary = ingest([logs], db=db)
    assert summary.files_changed == 1 and summary.files_unchanged == 1
    assert summary.hands_stored == 1  # the changed hand 4
    assert summary.hands_unchanged == 2 + 2  # hands 1-2 of one.json, both of two.json
    assert summary.hands_removed == 2  # old hand 3 and old hand 4
    con = connect_readonly(db)
    new_ids = {
        r[0]
        for r in con.execute("SELECT hand_id FROM hands WHERE file LIKE '%one.json'").fetchall()
    }
    assert len(new_ids) == 3 and len(old_ids & new_ids) == 2
    assert con.execute(
        "SELECT number, won FROM hands WHERE file LIKE '%one.json' ORDER BY number"
    ).fetchall() == [(1, True), (2, False), (4, False)]
    assert (
        con.execute("SELECT * FROM hands WHERE file LIKE '%two.json' ORDER BY hand_id").fetchall()
        == two_before
    )
    for child in ("actions", "hand_scores", "score_items", "tricks", "violations"):
        orphans = con.execute(
            f"SELECT count(*) FROM {child} WHERE hand_id NOT IN (SELECT hand_id FROM hands)"
        ).fetchall()[0][0]
        assert orphans == 0, child
    assert con.execute("SELECT count(*) FROM hand_scores").fetchall()[0][0] == 5 * 4
    con.close()


def test_a_hand_found_in_two_files_is_stored_once(tmp_path: Path) -> None:
    s1, _ = stats_dataset()
    logs = tmp_path / "logs"
    write_json(logs / "a.json", s1)
    write_json(logs / "copy" / "a.json", s1)
    summary = ingest([logs], db=tmp_path / "t.duckdb")
    assert summary.hands_stored == 4 and summary.hands_duplicate == 4
    assert counts(tmp_path / "t.duckdb")["hands"] == 4


def test_parallel_ingest_stores_the_same_rows_as_serial(tmp_path: Path) -> None:
    s1, s2 = stats_dataset()
    logs = tmp_path / "logs"
    write_json(logs / "one.json", s1)
    write_json(logs / "two.json", s2)
    ingest([logs], db=tmp_path / "serial.duckdb")
    summary = ingest([logs], db=tmp_path / "par.duckdb", jobs=2, batch_hands=1)
    assert summary.hands_stored == 6
    a, b = counts(tmp_path / "serial.duckdb"), counts(tmp_path / "par.duckdb")
    a.pop("meta"), b.pop("meta")
    assert a == b


def test_small_batches_give_the_same_rows_as_one_batch(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_jsonl(logs / "s.jsonl", stats_dataset())
    ingest([logs], db=tmp_path / "one.duckdb")
    ingest([logs], db=tmp_path / "many.duckdb", batch_hands=1)
    a, b = counts(tmp_path / "one.duckdb"), counts(tmp_path / "many.duckdb")
    a.pop("meta"), b.pop("meta")
    assert a == b


def test_a_failed_ingest_leaves_the_published_database_untouched(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    ingest([logs], db=db)
    before = db.read_bytes()

    def boom(file: str, n: int) -> None:
        raise KeyboardInterrupt

    write_json(
        logs / "more.json",
        [
            session(
                "x",
                ["a", "b", "c", "d"],
                [
                    hand(
                        1,
                        3,
                        2,
                        [act("bid", 0, contract="three"), act("meld", 0, meld="won")],
                        [10, 0, 0, 0],
                    )
                ],
            )
        ],
    )
    with pytest.raises(KeyboardInterrupt):
        ingest([logs], db=db, progress=boom)
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs", "t.duckdb"]


_READER = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
print(con.execute("SELECT count(*) FROM hands").fetchall()[0][0], flush=True)
sys.stdin.readline()
print(con.execute("SELECT count(*) FROM hands").fetchall()[0][0], flush=True)
"""


def test_a_read_only_reader_keeps_working_during_an_ingest(tmp_path: Path) -> None:
    s1, s2 = stats_dataset()
    logs = tmp_path / "logs"
    write_json(logs / "one.json", s1)
    db = tmp_path / "t.duckdb"
    ingest([logs], db=db)
    reader = subprocess.Popen(
        [sys.executable, "-c", _READER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert reader.stdout is not None and reader.stdin is not None
        assert reader.stdout.readline().strip() == "4"
        write_json(logs / "two.json", s2)
        summary = ingest([logs], db=db)  # the reader holds the old file open meanwhile
        assert summary.hands_stored == 2
        reader.stdin.write("\n")
        reader.stdin.flush()
        assert reader.stdout.readline().strip() == "4"  # its snapshot is intact
    finally:
        reader.wait(timeout=30)
    assert reader.returncode == 0
    fresh = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from tarock_logs.store import connect_readonly; "
            "print(connect_readonly(sys.argv[1]).execute('SELECT count(*) FROM hands')"
            ".fetchall()[0][0])",
            str(db),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert fresh.stdout.strip() == "6"


def test_connect_readonly_retries_while_a_writer_holds_the_file(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time, duckdb; c = duckdb.connect(sys.argv[1]); "
            "c.execute('CREATE TABLE t(x INT)');"
            "print('ok', flush=True); time.sleep(1.0); c.close()",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "ok"
    con = connect_readonly(db, retries=60, delay=0.05)
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(0,)]
    con.close()
    holder.wait(timeout=30)
    with pytest.raises(FileNotFoundError):
        connect_readonly(tmp_path / "missing.duckdb")


def test_ingest_of_a_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        app, ["ingest", str(tmp_path / "nope"), "--db", str(tmp_path / "t.duckdb")]
    )
    assert res.exit_code == 2
    assert not (tmp_path / "t.duckdb").exists()


def test_the_same_file_by_another_path_is_the_same_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s1, _ = stats_dataset()
    logs = tmp_path / "logs"
    write_jsonl(logs / "a.jsonl", [s1], extra_lines=["{oops"])
    db = tmp_path / "t.duckdb"
    monkeypatch.chdir(tmp_path)
    first = ingest(["logs"], db="t.duckdb")
    assert first.hands_stored == 4 and first.hands_rejected == 1
    second = ingest([str(logs / "a.jsonl")], db=db)
    assert second.files_unchanged == 1 and second.hands_stored == 0
    c = counts(db)
    assert (c["raw_logs"], c["rejects"], c["hands"]) == (1, 1, 4)


MALFORMED = SAMPLE_LOGS / "malformed"


def _readme_codes() -> dict[str, list[str]]:
    rows = {}
    for line in (MALFORMED / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[1] != "codes":
            rows[cells[0].strip("`")] = cells[1].split()
    return rows


@pytest.mark.skipif(not (MALFORMED / "README.md").exists(), reason="no malformed samples")
def test_malformed_samples_every_good_hand_stored_every_defect_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tarock_logs.rules as rules
    from tarock_logs.log.reader import read_paths
    from tarock_logs.verdict.audit import hand_content_hash

    monkeypatch.setitem(rules._ENGINES, "slovenian", "tarock_logs.rules.slovenian")
    db = tmp_path / "m.duckdb"
    summary = ingest([MALFORMED], db=db)
    good = {
        hand_content_hash(r.session, h)
        for r in read_paths([MALFORMED])
        if r.session is not None
        for h in r.session.hands
    }
    con = connect_readonly(db)
    stored = {r[0] for r in con.execute("SELECT hand_id FROM hands").fetchall()}
    assert stored == good and len(good) > 0
    by_file: dict[str, set[str]] = {}
    for file, errors in con.execute("SELECT file, errors FROM rejects").fetchall():
        by_file.setdefault(Path(file).name, set()).update(e["code"] for e in json.loads(errors))
    con.close()
    expected = _readme_codes()
    assert len(expected) >= 30
    for name, codes in expected.items():
        hard = {c for c in codes if c != "deal.dealer_rotation"}  # a warning: nothing rejected
        assert hard <= by_file.get(name, set()), name
    assert "deal.dealer_rotation.jsonl" not in by_file
    assert summary.hands_rejected == sum(1 for r in summary.rejects)
    assert all(r["first_code"] and r["reason"] for r in summary.rejects)


def test_a_second_concurrent_ingest_is_refused_with_exit_code_4(tmp_path: Path) -> None:
    import fcntl

    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    with open(tmp_path / "t.duckdb.ingest-lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        res = CliRunner().invoke(app, ["ingest", str(logs), "--db", str(db)])
    assert res.exit_code == 4
    assert not db.exists()


def test_strict_exits_1_when_something_was_rejected(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_jsonl(logs / "s.jsonl", stats_dataset(), extra_lines=["{oops"])
    db = tmp_path / "t.duckdb"
    res = CliRunner().invoke(app, ["ingest", str(logs), "--db", str(db), "--strict"])
    assert res.exit_code == 1
    last = res.stdout.strip().splitlines()[-1]
    assert "6 hands stored" in last and "1 rejected" in last and "json.syntax" in last
    assert counts(db)["hands"] == 6  # stored all the same


def test_a_game_without_an_engine_stores_raw_facts_and_unverified_verdicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tarock_logs.rules as rules

    monkeypatch.setitem(rules._ENGINES, "slovenian", "tarock_logs.rules.no_such_engine")
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    assert ingest([logs], db=db).hands_stored == 6
    con = connect_readonly(db)
    hands = con.execute(
        "SELECT verified, legal, contract, declarer, won, len(unverified) > 0 FROM hands"
    ).fetchall()
    assert set(hands) == {(False, True, None, None, None, True)}
    assert con.execute("SELECT DISTINCT CAST(role AS VARCHAR) FROM hand_scores").fetchall() == [
        ("unknown",)
    ]
    assert con.execute("SELECT count(*), count(legal) FROM actions").fetchall() == [(35, 0)]
    assert con.execute(
        "SELECT sum(recorded_total), count(recomputed_total) FROM hand_scores"
    ).fetchall() == [(25, 0)]
    assert con.execute("SELECT count(*) FROM tricks").fetchall() == [(0,)]
    con.close()


def test_store_modules_do_not_import_streamlit() -> None:
    code = (
        "import sys, tarock_logs.store.write.ingest, tarock_logs.store.read.export, "
        "tarock_logs.store.read.stats, "
        "tarock_logs.cli.ingest, tarock_logs.cli.stats, tarock_logs.cli.export; "
        "assert 'streamlit' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_leftovers_of_a_killed_ingest_are_cleaned_and_a_bad_db_is_exit_4(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    (tmp_path / "t.duckdb.tmp-999999").write_bytes(b"half a database")
    (tmp_path / "t.duckdb.tmp-999999.spill").mkdir()
    assert ingest([logs], db=db).hands_stored == 6
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs", "t.duckdb"]
    not_db = tmp_path / "notes.duckdb"
    not_db.write_text("this is not a database\n" * 1000)
    res = CliRunner().invoke(app, ["ingest", str(logs), "--db", str(not_db)])
    assert res.exit_code == 4
    assert not_db.read_text().startswith("this is not")


def test_a_hand_dropped_from_a_changed_file_survives_in_its_duplicate(tmp_path: Path) -> None:
    s1, _ = stats_dataset()
    logs = tmp_path / "logs"
    write_json(logs / "a.json", s1)
    write_json(logs / "b-copy.json", s1)  # the same hands: stored once, under a.json
    db = tmp_path / "t.duckdb"
    first = ingest([logs], db=db)
    assert (first.hands_stored, first.hands_duplicate) == (4, 4)
    del s1["hands"][2]
    write_json(logs / "a.json", s1)  # a.json drops hand 3; b-copy.json still has it
    second = ingest([logs], db=db)
    assert second.hands_stored == 0 and second.hands_removed == 0
    con = connect_readonly(db)
    rows = con.execute(
        "SELECT number, file LIKE '%b-copy.json' FROM hands ORDER BY number"
    ).fetchall()
    con.close()
    assert rows == [(1, False), (2, False), (3, True), (4, False)]
    third = ingest([logs], db=db)
    assert third.hands_stored == 0 and third.files_unchanged == 2
    assert counts(db)["hands"] == 4


def test_dry_run_reports_but_publishes_nothing(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    res = CliRunner().invoke(
        app, ["ingest", str(logs), "--db", str(db), "--dry-run", "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    s = orjson.loads(res.stdout)
    assert s["hands_stored"] == 6 and s["dry_run"] is True
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs"]
