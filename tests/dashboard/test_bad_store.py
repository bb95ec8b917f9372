"""A bad store (issue 36, "Faults"): ``tarock dashboard`` refuses to start on a file that is not
a tarock-logs store, with one plain line and exit 4; a store that turns bad while serving gives
a visitor a plain message in the page's language, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from tarock_logs.store.queries import store_problem
from tests.dashboard.dash_helpers import APP, DashDB

TAROCK = Path(sys.executable).with_name("tarock")


def _bad_stores(tmp: Path, good: Path) -> dict[str, Path]:
    """An empty file, random bytes, a truncated store and a DuckDB file of another schema."""
    out = {name: tmp / f"{name}.duckdb" for name in ("empty", "random", "truncated", "plain")}
    out["empty"].write_bytes(b"")
    out["random"].write_bytes(os.urandom(64 * 1024))
    out["truncated"].write_bytes(good.read_bytes()[:20_000])
    con = duckdb.connect(str(out["plain"]))
    con.execute("CREATE TABLE notes (text VARCHAR)")
    con.close()
    return out


def test_a_good_store_has_no_problem(app_env: DashDB) -> None:
    assert store_problem(app_env.path) is None


@pytest.mark.parametrize("kind", ["empty", "random", "truncated", "plain"])
def test_the_dashboard_does_not_start_on_a_bad_store(
    kind: str, app_env: DashDB, tmp_path: Path
) -> None:
    bad = _bad_stores(tmp_path, app_env.path)[kind]
    problem = store_problem(bad)
    assert problem is not None and str(tmp_path) not in problem
    run = subprocess.run(
        [TAROCK, "dashboard", "--db", str(bad), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "40"},
    )
    assert run.returncode == 4
    lines = run.stderr.strip().splitlines()
    assert lines == [f"tarock: cannot serve {bad}: {problem}"]
    assert "Traceback" not in run.stderr and run.stdout == ""


@pytest.mark.parametrize("lang", ["en", "sl", "de"])
def test_a_store_that_turns_bad_while_serving_gives_a_plain_message(
    lang: str, app_env: DashDB, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "served.duckdb"
    shutil.copy(app_env.path, db)
    monkeypatch.setenv("TAROCK_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    # the ingest publishes a file that is no store at all (a failing disk, a wrong copy)
    db.write_bytes(os.urandom(64 * 1024))
    at.switch_page("app_pages/audit.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(e.value for e in at.error)
    assert "tarock ingest" in shown and str(tmp_path) not in shown
    # the message about a store that cannot be read, in the page's language
    assert {"en": "cannot be read right now", "sl": "ni mogoče prebrati",
            "de": "nicht gelesen werden"}[lang] in shown  # fmt: skip


def test_the_read_connection_is_bounded(app_env: DashDB) -> None:
    """One visitor's statistics cannot take the server's memory: the reader has a limit."""
    from tarock_logs.store.queries import connect_reader

    con = connect_reader(app_env.path)
    try:
        limit, threads = con.execute(
            "SELECT current_setting('memory_limit'), current_setting('threads')"
        ).fetchall()[0]
    finally:
        con.close()
    assert threads == 2
    assert limit.endswith(("MiB", "MB", "GiB", "GB")) and float(limit.split()[0]) <= 1000


def _publishing_page() -> None:
    """A page run that an ingest publishes a new store into, between two of its queries
    (once: the flag file)."""
    import os
    from pathlib import Path

    import streamlit as st

    from dashboard.state import begin_run, data, end_run, query
    from tarock_logs.store import queries as q

    st.session_state["starts"] = st.session_state.get("starts", 0) + 1
    begin_run()
    first = data(q.overview)["hands"]
    flag = Path(os.environ["TAROCK_TEST_PUBLISH"])
    if flag.exists():
        flag.unlink()
        os.replace(os.environ["TAROCK_TEST_NEXT"], os.environ["TAROCK_DB"])
    second = query(lambda cur: cur.execute("SELECT count(*) FROM hands").fetchall()[0][0])
    st.session_state.setdefault("seen", []).append((first, second))
    end_run()


def test_a_page_run_reads_one_store_version_and_switches_cleanly_at_a_publish(
    app_env: DashDB, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, nxt = tmp_path / "served.duckdb", tmp_path / "next.duckdb"
    shutil.copy(app_env.path, db)
    con = duckdb.connect(str(app_env.path), read_only=True)
    try:
        before = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    finally:
        con.close()
    from tarock_logs.store.ingest import ingest

    ingest([str(app_env.logs / "slovenian")], db=str(nxt))  # the next store: other numbers
    con = duckdb.connect(str(nxt), read_only=True)
    try:
        after = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    finally:
        con.close()
    assert after != before
    flag = tmp_path / "publish"
    flag.touch()
    monkeypatch.setenv("TAROCK_DB", str(db))
    monkeypatch.setenv("TAROCK_TEST_PUBLISH", str(flag))
    monkeypatch.setenv("TAROCK_TEST_NEXT", str(nxt))
    at = AppTest.from_function(_publishing_page, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    # the run the publish fell into read the version it began on to its end
    assert at.session_state["starts"] == 1
    assert at.session_state["seen"] == [(before, before)]
    # the next run reads the new file, all of it
    at.run()
    assert at.session_state["seen"] == [(before, before), (after, after)]
    # and the old version was closed once no run read it
    from dashboard.state import db_key, open_versions

    assert open_versions() == [db_key(db)]


def test_a_visitor_cannot_clear_the_shared_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Streamlit's ``clear_cache`` message (any client can send it) clears the caches of every
    visitor; the server (``dashboard.serve``) makes it clear the sender's own session only."""
    from streamlit.runtime import caching
    from streamlit.runtime.app_session import AppSession

    from dashboard import serve

    monkeypatch.setattr(
        AppSession, "_handle_clear_cache_request", AppSession._handle_clear_cache_request
    )
    assert serve.protect_shared_caches()

    def shared(*_: object) -> None:
        raise AssertionError("the shared caches were cleared")

    monkeypatch.setattr(caching.cache_data, "clear", shared)
    monkeypatch.setattr(caching.cache_resource, "clear", shared)

    class _Session:
        def __init__(self) -> None:
            self._session_state = {"mask_names": True}

    visitor = _Session()
    AppSession._handle_clear_cache_request(visitor)  # type: ignore[arg-type]
    assert visitor._session_state == {}
