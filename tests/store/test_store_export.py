"""``tarock export``: every table to Parquet partitioned by game, or to CSV; row counts survive
the round trip."""

from __future__ import annotations

from pathlib import Path

import duckdb
import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.cli.common import app
from tarock_logs.store.read.export import TABLES
from tarock_logs.store.write.ingest import ingest
from tests.support.store_fixtures import stats_dataset, toy_engine, write_json  # noqa: F401


@pytest.fixture
def db(tmp_path: Path, toy_engine: None) -> Path:  # noqa: F811
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    (logs / "bad.json").write_text("{ not json")
    path = tmp_path / "t.duckdb"
    ingest([logs], db=path)
    return path


def table_counts(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in TABLES}
    finally:
        con.close()


def test_parquet_export_partitions_by_game_and_keeps_every_row(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "pq"
    res = CliRunner().invoke(
        app, ["export", "--db", str(db), "--to", "parquet", str(out), "--json"]
    )
    assert res.exit_code == 0, res.output
    expected = table_counts(db)
    assert orjson.loads(res.stdout)["rows"] == expected
    assert expected["hands"] == 6 and expected["rejects"] == 1
    assert (out / "hands" / "game=slovenian").is_dir()
    assert (out / "actions" / "game=slovenian").is_dir()
    assert (out / "rejects.parquet").is_file()
    con = duckdb.connect()
    for table, query in TABLES.items():
        if query is None:
            src = f"read_parquet('{out / (table + '.parquet')}')"
        else:
            src = f"read_parquet('{out / table}/**/*.parquet', hive_partitioning = true)"
        assert con.execute(f"SELECT count(*) FROM {src}").fetchall()[0][0] == expected[table], table
    games = con.execute(
        f"SELECT DISTINCT game FROM read_parquet('{out}/tricks/**/*.parquet', "
        "hive_partitioning = true)"
    ).fetchall()
    assert games == [("slovenian",)]


def test_csv_export_writes_one_file_per_table(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    res = CliRunner().invoke(app, ["export", "--db", str(db), "--to", "csv", str(out)])
    assert res.exit_code == 0, res.output
    expected = table_counts(db)
    con = duckdb.connect()
    for table in TABLES:
        f = out / f"{table}.csv"
        assert f.is_file(), table
        n = con.execute(f"SELECT count(*) FROM read_csv('{f}', header = true)").fetchall()[0][0]
        assert n == expected[table], table


def test_export_refuses_a_non_empty_folder_and_a_missing_database(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "busy"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    runner = CliRunner()
    assert runner.invoke(app, ["export", "--db", str(db), "--to", "csv", str(out)]).exit_code == 2
    assert (
        runner.invoke(
            app, ["export", "--db", str(tmp_path / "no.duckdb"), "--to", "csv", str(tmp_path / "x")]
        ).exit_code
        == 2
    )
