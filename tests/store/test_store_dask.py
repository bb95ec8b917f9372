"""``tarock ingest --dask``: the files and JSONL byte spans processed on a Dask cluster of 2
worker processes store exactly what a serial ingest stores (every table, row for row), with
the same summary and rejects, and a re-run stores nothing twice. (The Dask ingests run as
``tarock`` commands: no test process imports Dask, see ``tests/support/dask_cluster.py``.)"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.cli.common import app
from tarock_logs.store.write import ingest as ing
from tarock_logs.store.write import plan
from tests.support.dask_cluster import dask_address, every_row, needs_dask, tarock

__all__ = ["dask_address"]  # the fixture, used by name

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _serial(paths: list[Path], db: Path) -> dict[str, Any]:
    d = ing.ingest(paths, db=db, jobs=1).to_dict()
    d.pop("db")
    return d


def _on_dask(paths: list[Path], db: Path, *dask: str) -> dict[str, Any]:
    """``tarock ingest PATHS --db DB --format json --dask …``: its summary (db left out)."""
    res = tarock("ingest", *map(str, paths), "--db", str(db), "--format", "json", "--dask", *dask)
    assert res.returncode == 0, res.stderr
    d: dict[str, Any] = orjson.loads(res.stdout)
    assert d.pop("db") == str(db)
    return d


@pytest.fixture(scope="module")
def samples_ingested(tmp_path_factory: pytest.TempPathFactory, dask_address: str) -> dict[str, Any]:
    """The sample logs ingested once serially and once on the cluster (for the module's
    three tests that compare with them): the two databases and the two summaries."""
    base = tmp_path_factory.mktemp("samples")
    serial = _serial([SAMPLES], base / "serial.duckdb")
    dask = _on_dask([SAMPLES], base / "dask.duckdb", dask_address)
    return {"serial": serial, "dask": dask, "serial_db": base / "serial.duckdb",
            "dask_db": base / "dask.duckdb"}  # fmt: skip


def test_dask_ingest_of_the_sample_logs_stores_the_serial_rows_and_rejects(
        samples_ingested: dict[str, Any]) -> None:  # fmt: skip
    serial, dask = samples_ingested["serial"], samples_ingested["dask"]
    assert serial["hands_rejected"] > 0 and serial["files_rejected"] > 0  # the malformed logs
    assert dask == serial
    rows = every_row(samples_ingested["dask_db"])
    assert rows["hands"] and rows["rejects"]
    assert rows == every_row(samples_ingested["serial_db"])


def test_dask_ingest_numbers_players_as_the_local_parallel_ingest_does(
        tmp_path: Path, samples_ingested: dict[str, Any]) -> None:  # fmt: skip
    """Even the surrogate player keys (numbered batch by batch) are the ``--jobs 2`` ones:
    the work is cut and loaded alike."""
    ing.ingest([SAMPLES], db=tmp_path / "pool.duckdb", jobs=2)
    assert every_row(samples_ingested["dask_db"], raw_keys=True) == every_row(
        tmp_path / "pool.duckdb", raw_keys=True
    )


def test_dask_ingest_run_again_stores_nothing_and_counts_everything_unchanged(
        tmp_path: Path, dask_address: str, samples_ingested: dict[str, Any]) -> None:  # fmt: skip
    db = tmp_path / "t.duckdb"  # a copy of the module's first Dask ingest, run again
    shutil.copyfile(samples_ingested["dask_db"], db)
    first = samples_ingested["dask"]
    before = every_row(db)
    again = _on_dask([SAMPLES], db, dask_address)
    assert again["hands_stored"] == 0
    assert again["files_unchanged"] == first["files"]
    assert again["hands_unchanged"] == first["hands_stored"]
    assert again["rejects"] == first["rejects"]
    assert every_row(db) == before


def test_dask_ingest_of_a_changed_file_replaces_its_rows_as_a_serial_ingest_does(
        tmp_path: Path, dask_address: str) -> None:  # fmt: skip
    logs = tmp_path / "logs"
    shutil.copytree(SAMPLES / "slovenian", logs / "slovenian")
    shutil.copytree(SAMPLES / "disputed", logs / "disputed")
    _serial([logs], tmp_path / "serial.duckdb")
    _on_dask([logs], tmp_path / "dask.duckdb", dask_address)
    changed = sorted((logs / "disputed").glob("*.jsonl"))[0]
    lines = changed.read_bytes().splitlines(keepends=True)
    changed.write_bytes(b"".join(lines[:-1]))  # its last session gone
    serial = _serial([logs], tmp_path / "serial.duckdb")
    dask = _on_dask([logs], tmp_path / "dask.duckdb", dask_address)
    assert serial["files_changed"] == 1 and serial["hands_removed"] > 0
    assert dask == serial
    assert every_row(tmp_path / "dask.duckdb") == every_row(tmp_path / "serial.duckdb")


def test_dask_ingest_on_a_local_cluster_of_its_own_stores_the_serial_rows(tmp_path: Path) -> None:
    """A bare ``--dask`` starts (and closes) a local cluster of ``--jobs`` workers."""
    needs_dask()
    src = [SAMPLES / "slovenian", SAMPLES / "tournament"]
    serial = _serial(src, tmp_path / "serial.duckdb")
    assert _on_dask(src, tmp_path / "dask.duckdb", "--jobs", "2") == serial
    assert every_row(tmp_path / "dask.duckdb") == every_row(tmp_path / "serial.duckdb")


def test_dask_ingest_with_no_scheduler_at_the_address_exits_2_and_publishes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    needs_dask()
    # nothing listens at port 9: Dask retries the refused connection until the timeout (the
    # product's default 10 s, 1 s here before): 0.2 s gives the same refusal sooner
    monkeypatch.setitem(os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "0.2s")
    db = tmp_path / "t.duckdb"
    res = tarock(
        "ingest", str(SAMPLES / "slovenian"), "--db", str(db), "--dask", "tcp://127.0.0.1:9"
    )
    assert res.returncode == 2
    assert "no Dask scheduler at tcp://127.0.0.1:9" in res.stderr
    assert list(tmp_path.iterdir()) == []  # no database, staging copy, spill folder or lock


#: hands per table and round of the simulated season: 30 (600 hands, an archive of ≈ 1.5 MB,
#: still four byte spans for two workers: asserted); 1,000 (20,000 hands) with
#: TAROCK_LONG_CHECKS=1
SEASON_GAMES = 1000 if os.environ.get("TAROCK_LONG_CHECKS") == "1" else 30


@pytest.mark.slow
def test_dask_ingest_of_a_simulated_season_read_in_byte_spans_stores_the_serial_rows(
        tmp_path: Path, dask_address: str) -> None:  # fmt: skip
    """A season (``tarock simulate``: 4 rounds of 5 tables of :data:`SEASON_GAMES` hands) in
    one JSONL archive, which the workers read in four byte spans (``plan_units``): the rows
    are still the serial ones, and a re-run stores nothing."""
    hands = 20 * SEASON_GAMES
    sim = tmp_path / "sim"
    season = ["--tables", "4,4,4,4,4", "--rounds", "4", "--games-per-round", str(SEASON_GAMES)]
    res = CliRunner().invoke(app, ["simulate", "-o", str(sim), "--seed", "7", *season])
    assert res.exit_code == 0, res.output
    logs = tmp_path / "logs"
    logs.mkdir()
    archive = logs / "season.jsonl"
    archive.write_bytes(b"".join(f.read_bytes() for f in sorted(sim.glob("*.jsonl"))))
    units = plan.plan_units([archive], 2)
    assert len(units) == 4 and all(u.span is not None for u in units)
    serial = _serial([logs], tmp_path / "serial.duckdb")
    dask = _on_dask([logs], tmp_path / "dask.duckdb", dask_address)
    assert serial["hands_stored"] == hands
    assert dask == serial
    assert every_row(tmp_path / "dask.duckdb") == every_row(tmp_path / "serial.duckdb")
    again = _on_dask([logs], tmp_path / "dask.duckdb", dask_address)
    assert again["hands_stored"] == 0 and again["hands_unchanged"] == hands
