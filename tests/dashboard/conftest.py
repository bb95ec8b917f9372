"""Fixtures for the dashboard tests (see dash_helpers.py for what the database holds)."""

from __future__ import annotations

import pytest

from tests.dashboard.dash_helpers import DISPUTED_ID, DashDB, build_logs, ingest


@pytest.fixture(scope="session")
def dash_db(tmp_path_factory: pytest.TempPathFactory) -> DashDB:
    base = tmp_path_factory.mktemp("dash")
    logs = base / "logs"
    idx = build_logs(logs)
    db = base / "dash.duckdb"
    ingest(logs, db)
    assert db.is_file(), "ingest wrote no database"
    return DashDB(db, logs, DISPUTED_ID, idx)


@pytest.fixture()
def app_env(dash_db: DashDB, monkeypatch: pytest.MonkeyPatch) -> DashDB:
    """Point the app at the test database (the app reads ``TAROCK_DB``)."""
    monkeypatch.setenv("TAROCK_DB", str(dash_db.path))
    return dash_db
