"""Fixtures for the dashboard tests (see dash_helpers.py for what the database holds)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from pathlib import Path

import pytest
from streamlit import config as st_config
from streamlit.runtime.scriptrunner.script_cache import ScriptCache

from tests.dashboard.dash_helpers import DISPUTED_ID, DashDB, build_logs, ingest

#: compiled page scripts by (path, modification time, size, magic on)
_COMPILED: dict[tuple[str, int, int, bool], object] = {}
_get_bytecode = ScriptCache.get_bytecode


def _shared_bytecode(self: ScriptCache, script_path: str) -> object:
    """Streamlit's server compiles a page script once for all its sessions; AppTest builds
    a new script cache for every run, so each ``at.run()`` compiled the app and its page
    again (Streamlit's "magic" rewrite of the syntax tree: about 0.2 s a run, most of a short
    test's time). The test process keeps one compiled script per file version instead."""
    path = os.path.abspath(script_path)
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size, bool(st_config.get_option("runner.magicEnabled")))
    code = _COMPILED.get(key)
    if code is None:
        code = _COMPILED[key] = _get_bytecode(self, script_path)
    return code


ScriptCache.get_bytecode = _shared_bytecode  # type: ignore[method-assign]


def _build(base: Path) -> int | None:
    """The sample logs and the disputed session under ``base/logs``, ingested into
    ``base/dash.duckdb``; the planted illegal action's index."""
    logs = base / "logs"
    idx = build_logs(logs)
    db = base / "dash.duckdb"
    ingest(logs, db)
    assert db.is_file(), "ingest wrote no database"
    return idx


@pytest.fixture(scope="session")
def dash_db(tmp_path_factory: pytest.TempPathFactory) -> DashDB:
    """The test database. Under xdist the workers share one build (the first to ask builds
    it, under a lock, in the run's common temporary folder; the logs are only read) and each
    gets its own copy of the database file (a served store is opened by other processes)."""
    base = tmp_path_factory.mktemp("dash")
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return DashDB(base / "dash.duckdb", base / "logs", DISPUTED_ID, _build(base))
    shared = tmp_path_factory.getbasetemp().parent / "dash-shared"
    shared.mkdir(exist_ok=True)
    with open(shared / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / "built.json"
        if not done.is_file():
            done.write_text(json.dumps({"illegal_index": _build(shared)}), encoding="utf-8")
        idx = json.loads(done.read_text(encoding="utf-8"))["illegal_index"]
    db = base / "dash.duckdb"
    shutil.copyfile(shared / "dash.duckdb", db)
    return DashDB(db, shared / "logs", DISPUTED_ID, idx)


@pytest.fixture()
def app_env(dash_db: DashDB, monkeypatch: pytest.MonkeyPatch) -> DashDB:
    """Point the app at the test database (the app reads ``TAROCK_DB``)."""
    monkeypatch.setenv("TAROCK_DB", str(dash_db.path))
    return dash_db
