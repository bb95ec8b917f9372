"""``tarock ingest --dask [ADDRESS]`` and ``tarock audit --dask [ADDRESS]``: the same output
and exit codes as without ``--dask``, the work done on a Dask cluster (2 worker processes).
(Run as ``tarock`` commands: no test process imports Dask, see
``tests/support/dask_cluster.py``.)"""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.cli.common import app, optional_dask_address
from tests.support.dask_cluster import dask_address, needs_dask, tarock

__all__ = ["dask_address"]  # the fixture, used by name

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
runner = CliRunner()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["ingest", "logs", "--dask"], ["ingest", "logs", "--dask=local"]),
        (["ingest", "--dask", "logs"], ["ingest", "--dask=local", "logs"]),
        (["audit", "--dask", "--summary", "x"], ["audit", "--dask=local", "--summary", "x"]),
        (["ingest", "x", "--dask", "tcp://10.0.0.5:8786"], ["ingest", "x", "--dask", "tcp://10.0.0.5:8786"]),
        (["ingest", "x", "--dask", "sched:8786"], ["ingest", "x", "--dask", "sched:8786"]),
        (["ingest", "x", "--dask=tls://h:1"], ["ingest", "x", "--dask=tls://h:1"]),
        (["ingest", "--", "--dask"], ["ingest", "--", "--dask"]),
    ],
)  # fmt: skip
def test_a_bare_dask_option_means_a_local_cluster_and_an_address_names_a_scheduler(
        argv: list[str], expected: list[str]) -> None:  # fmt: skip
    assert optional_dask_address(argv) == expected


@pytest.mark.parametrize("fmt", ["json", "jsonl", "table"])
def test_audit_on_dask_prints_what_the_local_audit_prints_with_its_exit_code(
        fmt: str, dask_address: str) -> None:  # fmt: skip
    """The sample logs hold findings, input errors of the malformed logs, a tournament whose
    placement points the driver settles from the workers' session audits."""
    local = tarock("audit", str(SAMPLES), "--format", fmt)
    dask = tarock("audit", str(SAMPLES), "--format", fmt, "--dask", dask_address)
    assert local.returncode == 1  # findings
    assert dask.returncode == local.returncode
    assert dask.stdout == local.stdout
    assert dask.stderr == local.stderr


def test_audit_what_if_under_another_ruleset_on_dask_matches_the_local_one(
        dask_address: str) -> None:  # fmt: skip
    args = ["audit", str(SAMPLES / "tournament"), "--format", "json", "--ruleset", "openspiel-2.0"]
    local = runner.invoke(app, args)
    dask = tarock(*args, "--dask", dask_address)
    assert dask.returncode == local.exit_code
    assert orjson.loads(dask.stdout) == orjson.loads(local.stdout)


def test_audit_with_a_bare_dask_after_the_paths_runs_a_local_cluster() -> None:
    needs_dask()
    args = ["audit", str(SAMPLES / "slovenian"), "--format", "json", "--summary"]
    local = runner.invoke(app, args)
    dask = tarock(*args, "--jobs", "2", "--dask")
    assert dask.returncode == local.exit_code
    assert orjson.loads(dask.stdout) == orjson.loads(local.stdout)


def test_audit_jobs_without_dask_is_a_usage_error() -> None:
    res = runner.invoke(app, ["audit", str(SAMPLES / "slovenian"), "--jobs", "2"])
    assert res.exit_code == 2
    assert "--dask" in res.stderr


def test_audit_with_no_scheduler_at_the_address_is_a_usage_error(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    needs_dask()
    # nothing listens at port 9: Dask retries the refused connection until the timeout (the
    # product's default 10 s, 1 s here before): 0.2 s gives the same refusal sooner
    monkeypatch.setitem(os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "0.2s")
    res = tarock("audit", str(SAMPLES / "slovenian"), "--dask", "tcp://127.0.0.1:9")
    assert res.returncode == 2
    assert "no Dask scheduler at tcp://127.0.0.1:9" in res.stderr


def test_ingest_analyse_on_dask_stores_the_local_analysis(
        tmp_path: Path, dask_address: str) -> None:  # fmt: skip
    """``tarock ingest --analyse --dask ADDRESS`` analyses the sessions on the cluster: the
    same analysis rows as the local run."""
    from tests.analysis.test_store_analysis import analysis_rows

    args = ["ingest", str(SAMPLES / "disputed"), "--analyse", "--analyse-tricks", "1",
            "--analyse-budget", "2000", "--format", "json"]  # fmt: skip
    local = runner.invoke(app, [*args, "--db", str(tmp_path / "local.duckdb")])
    dask = tarock(*args, "--db", str(tmp_path / "dask.duckdb"), "--dask", dask_address)
    assert dask.returncode == local.exit_code == 0, dask.stderr
    assert orjson.loads(dask.stdout)["analysis"]["cards"] == 42 * 4
    rows = analysis_rows(tmp_path / "local.duckdb")
    assert rows[1] and analysis_rows(tmp_path / "dask.duckdb") == rows
