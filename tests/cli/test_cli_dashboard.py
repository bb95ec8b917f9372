"""``tarock dashboard``: the serve flags, the database hand-off and the usage errors."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.cli.dashboard import APP_SCRIPT, streamlit_argv


def test_the_server_runs_headless_without_file_watcher_or_telemetry_on_the_given_address() -> None:
    argv = streamlit_argv(Path("/data/t.duckdb"), 8600, "127.0.0.1")
    assert argv[1:4] == ["-m", "dashboard.serve", "run"] and argv[4] == str(APP_SCRIPT)
    for flag in ("--server.headless=true", "--server.fileWatcherType=none",
                 "--browser.gatherUsageStats=false", "--server.port=8600",
                 "--server.address=127.0.0.1"):  # fmt: skip
        assert flag in argv
    assert argv[-3:] == ["--", "--db", "/data/t.duckdb"]
    assert APP_SCRIPT.is_file()


def test_a_missing_database_is_a_usage_error_with_a_hint(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["dashboard", "--db", str(tmp_path / "none.duckdb")])
    assert res.exit_code == 2
    assert "tarock ingest" in res.output.replace("\n", "")


def test_the_database_defaults_to_the_tarock_db_environment_variable(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["dashboard"], env={"TAROCK_DB": str(tmp_path / "env.duckdb")})
    assert res.exit_code == 2
    assert "env.duckdb" in res.output.replace("\n", "")  # rich wraps long paths


def test_the_server_imports_what_the_pages_need_while_it_starts() -> None:
    """``dashboard.serve`` warms every module of its list (in a new process: a first page
    run then finds them imported, issue 18)."""
    import subprocess
    import sys

    from dashboard.serve import WARM_MODULES

    probe = (
        "import sys; from dashboard.serve import WARM_MODULES, warm; print(warm()); "
        "print(all(m in sys.modules for m in WARM_MODULES)); "
        "from tarock_logs.rules import games; "
        "print(all(getattr(sys.modules.get('tarock_logs.rules.' + g), 'ENGINE', None) "
        "for g in games()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["[]", "True", "True"]  # the modules and every game's engine
    assert "polars" in WARM_MODULES and "dashboard.state" in WARM_MODULES
