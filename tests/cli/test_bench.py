"""``tarock bench`` prints one JSON object with every documented key (no timing asserted)."""

from __future__ import annotations

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.bench import JSON_KEYS, have_openspiel, machine_info, peak_rss_mb
from tarock_logs.cli import app
from tarock_logs.rules import get_engine

DOCUMENTED_KEYS = {
    "hands", "validate_hands_per_s", "replay_hands_per_s", "replay_actions_per_s",
    "ingest_hands_per_s", "baseline_hands_per_s", "openspiel_hands_per_s",
    "replay_vs_openspiel", "ingest_vs_baseline", "peak_rss_mb", "machine",
}  # fmt: skip


def test_the_json_keys_are_the_documented_ones() -> None:
    assert set(JSON_KEYS) == DOCUMENTED_KEYS


def test_machine_info_names_cores_cpu_python_and_versions() -> None:
    m = machine_info()
    assert m["nproc"] >= 1 and m["python"] and "duckdb" in m["versions"]
    assert peak_rss_mb() > 0


@pytest.mark.skipif(get_engine("slovenian") is None, reason="no Slovenian engine yet")
def test_bench_quick_json_prints_every_key_on_tiny_data() -> None:
    result = CliRunner().invoke(
        app, ["bench", "--quick", "--hands", "12", "--openspiel-hands", "12", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    report = orjson.loads(result.stdout)
    assert DOCUMENTED_KEYS <= set(report)
    assert report["hands"] == 12
    for key in (
        "validate_hands_per_s",
        "replay_hands_per_s",
        "replay_actions_per_s",
        "ingest_hands_per_s",
        "baseline_hands_per_s",
        "ingest_vs_baseline",
    ):
        assert isinstance(report[key], float) and report[key] > 0, key
    if have_openspiel():
        assert report["openspiel_hands_per_s"] > 0 and report["replay_vs_openspiel"] > 0
    else:
        assert report["openspiel_hands_per_s"] is None
    # the simulated data replays clean, so both programs accepted the same games
    assert report["details"]["replay_hands_not_clean"] == 0


def test_bench_rejects_an_unknown_format() -> None:
    result = CliRunner().invoke(app, ["bench", "--format", "xml"])
    assert result.exit_code == 2
