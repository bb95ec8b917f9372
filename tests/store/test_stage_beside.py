"""A new store ingested serially is set up in a thread while its first file is read
(store/write/ingest.py, ``_open_stage_beside``): the store is the one a store set up first
gives, and a failure on either side publishes nothing and leaves nothing behind (no staging
copy, WAL or spill folder; the connection closed)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from tarock_logs.store.write import ingest as ig
from tarock_logs.store.write import process
from tests.support.store_fixtures import store_content

ROOT = Path(__file__).resolve().parents[2]


def _logs(tmp: Path) -> Path:
    logs = tmp / "logs"
    for g in ("slovenian", "zwanzigerrufen"):
        shutil.copytree(ROOT / "sample_logs" / g, logs / g)
    return logs


def _left(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name != "logs")


def test_a_new_store_set_up_beside_the_first_file_holds_what_one_set_up_first_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = _logs(tmp_path)
    ig.ingest([logs], db=tmp_path / "beside.duckdb", exclude=["malformed"], jobs=1)
    beside = store_content(tmp_path / "beside.duckdb")

    # the same files into a store set up before any file is read (the path of stores that
    # exist already and of ingests with workers)
    def first(
        stage: Path, summary: ig.IngestSummary, work: Callable[[], None]
    ) -> tuple[duckdb.DuckDBPyConnection, ig._Writer, dict[str, str]]:
        con = ig._open_stage(stage, True)
        w, known = ig._start_writer(con, summary)
        work()
        return con, w, known

    monkeypatch.setattr(ig, "_open_stage_beside", first)
    ig.ingest([logs], db=tmp_path / "first.duckdb", exclude=["malformed"], jobs=1)
    assert beside == store_content(tmp_path / "first.duckdb")
    assert beside["hands"]


def test_a_failed_setup_of_the_store_is_raised_after_the_reading_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = _logs(tmp_path)

    def refuse(stage: Path, fresh: bool) -> duckdb.DuckDBPyConnection:
        raise duckdb.IOException("the disk refused the store")

    monkeypatch.setattr(ig, "_open_stage", refuse)
    with pytest.raises(duckdb.IOException, match="refused the store"):
        ig.ingest([logs], db=tmp_path / "s.duckdb", exclude=["malformed"], jobs=1)
    assert _left(tmp_path) == []


def test_a_failed_first_file_closes_the_new_store_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = _logs(tmp_path)
    opened: list[duckdb.DuckDBPyConnection] = []
    real_open = ig._open_stage

    def spy(stage: Path, fresh: bool) -> duckdb.DuckDBPyConnection:
        opened.append(real_open(stage, fresh))
        return opened[-1]

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the reader broke")

    monkeypatch.setattr(ig, "_open_stage", spy)
    monkeypatch.setattr(process, "iter_batches", broken)
    with pytest.raises(RuntimeError, match="the reader broke"):
        ig.ingest([logs], db=tmp_path / "s.duckdb", exclude=["malformed"], jobs=1)
    assert len(opened) == 1
    with pytest.raises(duckdb.ConnectionException):
        opened[0].execute("SELECT 1")
    assert _left(tmp_path) == []
