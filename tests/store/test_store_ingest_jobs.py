"""Ingest's default worker count: one per usable core, at most one per unit of work (a file,
or a part of a big plain .jsonl file), serial below 1 MB of input (8 MB when the ingest lane
runs: its workers are cheap enough that the writer sets the pace); the rows are the serial
ingest's either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarock_logs.store.write import ingest as ing
from tarock_logs.store.write import plan
from tests.support.store_fixtures import stats_dataset, stored_rows, write_json


def test_default_jobs_is_one_per_core_capped_by_the_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    assert plan.default_jobs(1) == 1
    assert plan.default_jobs(2) == 2
    assert plan.default_jobs(40) == 2
    assert plan.default_jobs(0) == 1


def test_default_jobs_by_size_small_inputs_serial_big_files_in_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tarock_logs.store.write import lane

    monkeypatch.setattr(plan.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(lane, "available", lambda: False)  # (the careful path's sizes)
    kb, mb = 1024, 1024 * 1024
    assert plan.default_jobs(4, [45 * kb] * 4) == 1  # 180 KB in all: serial
    assert plan.default_jobs(1, [900 * kb]) == 1
    assert plan.default_jobs(1, [6 * mb]) == 2  # one big file: read in parts by both
    assert plan.default_jobs(4, [int(1.4 * mb)] * 4) == 2
    assert plan.default_jobs(40, [30 * kb] * 40) == 2  # 1.2 MB in 40 files
    assert plan.default_jobs(0, []) == 1
    monkeypatch.setattr(plan.os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    assert plan.default_jobs(1, [60 * mb]) == 1  # one core


def test_with_the_ingest_lane_inputs_below_eight_megabytes_are_ingested_serially(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tarock_logs.store.write import lane

    monkeypatch.setattr(plan.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(lane, "available", lambda: True)
    mb = 1024 * 1024
    assert plan.default_jobs(4, [int(1.4 * mb)] * 4) == 1  # the bench's 5.5 MB: serial
    assert plan.default_jobs(1, [6 * mb]) == 1
    assert plan.default_jobs(4, [3 * mb] * 4) == 2  # 12 MB in 4 files
    assert plan.default_jobs(1, [20 * mb]) == 2  # one big file: read in parts by both


def test_a_default_ingest_of_one_big_file_runs_workers_on_its_parts_and_stores_the_serial_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarock_logs.tools.simulate import dumps_session, simulate_hands

    logs = tmp_path / "logs"
    logs.mkdir()
    sessions = simulate_hands(480, 3)
    (logs / "big.jsonl").write_bytes(b"".join(dumps_session(s) for s in sessions))
    assert (logs / "big.jsonl").stat().st_size >= plan.SERIAL_BELOW_BYTES
    monkeypatch.setattr(plan.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(plan, "SERIAL_BELOW_BYTES_LANE", plan.SERIAL_BELOW_BYTES)
    used: list[int] = []
    real = ing._process

    def spy(files, buf, jobs, *rest, **kw):  # type: ignore[no-untyped-def]
        used.append(jobs)
        return real(files, buf, jobs, *rest, **kw)

    monkeypatch.setattr(ing, "_process", spy)
    ing.ingest([logs], db=tmp_path / "serial.duckdb", jobs=1)
    summary = ing.ingest([logs], db=tmp_path / "default.duckdb")
    assert used[0] == 1 and used[2] == 2
    assert summary.hands_stored == 480
    assert stored_rows(tmp_path / "serial.duckdb") == stored_rows(tmp_path / "default.duckdb")


def test_default_ingest_of_several_files_runs_workers_and_stores_the_serial_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    s1, s2 = stats_dataset()
    logs = tmp_path / "logs"
    write_json(logs / "one.json", s1)
    write_json(logs / "two.json", s2)
    used: list[int] = []
    real = ing._process

    def spy(files, buf, jobs, *rest, **kw):  # type: ignore[no-untyped-def]
        used.append(jobs)
        return real(files, buf, jobs, *rest, **kw)

    monkeypatch.setattr(plan, "default_jobs", lambda n, _sizes=None: min(2, n))
    monkeypatch.setattr(ing, "_process", spy)
    ing.ingest([logs], db=tmp_path / "serial.duckdb", jobs=1)
    summary = ing.ingest([logs], db=tmp_path / "default.duckdb")
    assert used[0] == 1 and used[2] == 2  # the serial run, then the default run's files
    assert summary.hands_stored == 6
    a, b = stored_rows(tmp_path / "serial.duckdb"), stored_rows(tmp_path / "default.duckdb")
    assert len(a["hands"]) == 6 and len(a["action_rows"]) > 0
    assert a == b
