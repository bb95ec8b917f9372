"""``tarock bench`` prints one JSON object with every documented key (no timing asserted)."""

from __future__ import annotations

import os

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.bench import (
    DASK_KEYS,
    JSON_KEYS,
    STARTUP_LOG,
    have_openspiel,
    machine_info,
    native_card_loop,
    native_card_loops,
    peak_rss_mb,
)
from tarock_logs.cli import app
from tarock_logs.rules import get_engine
from tests.support.dask_cluster import dask_address, tarock

__all__ = ["dask_address"]  # the fixture, used by name

DOCUMENTED_KEYS = {
    "hands", "validate_hands_per_s", "replay_hands_per_s", "replay_actions_per_s",
    "ingest_hands_per_s", "baseline_hands_per_s", "openspiel_hands_per_s",
    "replay_vs_openspiel", "ingest_vs_baseline", "peak_rss_mb", "machine", "native",
    "startup_s", "startup_validate_s", "orjson_parse_hands_per_s", "validate_vs_orjson",
    "zwanzigerrufen_ingest_cost_vs_slovenian", "royal_ingest_cost_vs_slovenian",
}  # fmt: skip


def test_the_json_keys_are_the_documented_ones() -> None:
    assert set(JSON_KEYS) == DOCUMENTED_KEYS


def test_machine_info_names_cores_cpu_python_and_versions() -> None:
    m = machine_info()
    assert m["nproc"] >= 1 and m["python"] and "duckdb" in m["versions"]
    assert peak_rss_mb() > 0


@pytest.mark.skipif(get_engine("slovenian") is None, reason="no Slovenian engine yet")
def test_bench_quick_json_prints_every_key_on_tiny_data() -> None:
    """Every stage and both start-up figures, each timed once (``--repeat 1
    --startup-runs 1``: the keys and their kinds are the same as with the defaults)."""
    result = CliRunner().invoke(
        app,
        ["bench", "--quick", "--hands", "12", "--openspiel-hands", "12", "--format", "json",
         "--repeat", "1", "--startup-runs", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = orjson.loads(result.stdout)
    assert DOCUMENTED_KEYS <= set(report)
    assert report["hands"] == 12
    for key in (
        "validate_hands_per_s",
        "orjson_parse_hands_per_s",
        "validate_vs_orjson",
        "replay_hands_per_s",
        "replay_actions_per_s",
        "ingest_hands_per_s",
        "baseline_hands_per_s",
        "ingest_vs_baseline",
        "zwanzigerrufen_ingest_cost_vs_slovenian",
        "royal_ingest_cost_vs_slovenian",
    ):
        assert isinstance(report[key], float) and report[key] > 0, key
    if have_openspiel():
        assert report["openspiel_hands_per_s"] > 0 and report["replay_vs_openspiel"] > 0
    else:
        assert report["openspiel_hands_per_s"] is None
    # the simulated data replays clean, so both programs accepted the same games
    assert report["details"]["replay_hands_not_clean"] == 0
    # the card loop is native exactly when the C extension is loaded; start-up timed
    assert report["native"] is (report["details"]["native_core"] is True)
    assert report["details"]["native_core"] is True or isinstance(
        report["details"]["native_core"], str
    )
    # per game: every game's card loop is native exactly when the C extension is loaded
    loops = report["details"]["native_card_loops"]
    assert set(loops) == {"slovenian", "zwanzigerrufen", "royal"}
    assert all(v is (report["details"]["native_core"] is True) for v in loops.values())
    assert loops["slovenian"] is report["native"]
    whole = report["details"]["native_whole_hand"]
    assert whole == dict.fromkeys(("si-tournament-2021", "openspiel-2.0"), report["native"])
    assert isinstance(report["startup_s"], float) and 0 < report["startup_s"] < 60
    if STARTUP_LOG.is_file():  # (the repository's sample logs: always in a checkout)
        assert isinstance(report["startup_validate_s"], float)
        assert 0 < report["startup_validate_s"] < 60
    assert not set(DASK_KEYS) & set(report)  # only with --dask


def test_native_is_reported_when_the_card_loop_runs_in_c() -> None:
    from tarock_logs import _native

    assert native_card_loop() is _native.available()
    assert native_card_loops() == dict.fromkeys(
        ("slovenian", "zwanzigerrufen", "royal"), _native.available()
    )


def test_native_is_reported_false_with_tarock_native_0() -> None:
    """``TAROCK_NATIVE=0`` forces the pure-Python fallback, and the bench says so."""
    import subprocess
    import sys

    code = (
        "from tarock_logs.bench import native_card_loop as n, native_card_loops as m, "
        "native_whole_hand as w; print(n(), sorted(m().values()), sorted(w().values()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "TAROCK_NATIVE": "0"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "False [False, False, False] [False, False]"


@pytest.mark.skipif(get_engine("slovenian") is None, reason="no Slovenian engine yet")
def test_bench_with_dask_adds_the_dask_ingest_figures(dask_address: str) -> None:
    res = tarock("bench", "--hands", "12", "--openspiel-hands", "0", "--format", "json",
                 "--repeat", "1", "--startup-runs", "1", "--dask", dask_address)  # fmt: skip
    assert res.returncode == 0, res.stderr
    report = orjson.loads(res.stdout)
    assert DOCUMENTED_KEYS <= set(report)
    assert report["dask_workers"] == 2
    assert report["dask_ingest_hands_per_s"] > 0 and report["dask_vs_ingest"] > 0


def test_bench_rejects_an_unknown_format() -> None:
    result = CliRunner().invoke(app, ["bench", "--format", "xml"])
    assert result.exit_code == 2


def test_bench_defaults_time_each_stage_best_of_3_and_start_up_5_times() -> None:
    """``--repeat``/``--startup-runs`` are for a quick look (the tests): without them the
    figures are those of the documented defaults."""
    from tarock_logs.bench import STARTUP_RUNS, BenchOptions

    assert BenchOptions().repeat == 3 and BenchOptions().startup_runs == STARTUP_RUNS == 5
    for bad in (["--repeat", "0"], ["--startup-runs", "0"]):
        assert CliRunner().invoke(app, ["bench", *bad]).exit_code == 2
