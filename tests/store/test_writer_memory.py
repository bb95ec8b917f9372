"""The writer's DuckDB memory limit: 256 MB unless ``$TAROCK_WRITER_MEMORY`` names a size;
anything else is refused before it reaches SQL (a usage error on the command line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.store.connect import (
    WRITER_MEMORY_ENV,
    WRITER_MEMORY_LIMIT,
    WriterMemoryError,
    connect_writer,
    writer_memory_limit,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_default_limit_is_256_mb(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WRITER_MEMORY_ENV, raising=False)
    assert writer_memory_limit() == WRITER_MEMORY_LIMIT == "256MB"


@pytest.mark.parametrize("value", ["512MB", "1GB", "1.5GiB", "300 mb"])
def test_a_size_in_the_environment_is_the_writers_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    monkeypatch.setenv(WRITER_MEMORY_ENV, value)
    con = connect_writer(tmp_path / "w.duckdb")
    try:
        limit = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
    finally:
        con.close()
    assert limit != "" and writer_memory_limit() == value


@pytest.mark.parametrize("value", ["lots", "256", "1GB'; DROP TABLE hands; --", "-1GB"])
def test_anything_else_is_refused_before_it_reaches_sql(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    monkeypatch.setenv(WRITER_MEMORY_ENV, value)
    with pytest.raises(WriterMemoryError, match=WRITER_MEMORY_ENV):
        connect_writer(tmp_path / "w.duckdb")
    r = CliRunner().invoke(
        app,
        ["ingest", str(ROOT / "sample_logs" / "tournament"), "--db", str(tmp_path / "t.duckdb")],
    )
    assert r.exit_code == 2 and "is not a size" in r.output, r.output
    assert not (tmp_path / "t.duckdb").exists()
