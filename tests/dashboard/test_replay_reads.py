"""A replay opened reads its hand in two queries and its session in one (issue 36: the load
targets): the view built from them is the view the many table-by-table reads built, for
every stored hand of the dashboard's test store (the disputed session's illegal card and score
differences among them), and a step or a reload reads nothing more."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator
from typing import Any

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboard import view_model as vm
from tarock_logs.store.read import queries as q
from tests.dashboard.dash_helpers import APP, DISPUTED_ID, DashDB


class Counting:
    """A cursor that counts the statements run through it."""

    def __init__(self, cur: duckdb.DuckDBPyConnection) -> None:
        self.cur = cur
        self.statements = 0

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        self.statements += 1
        return self.cur.execute(*args, **kwargs)

    def sql(self, *args: Any, **kwargs: Any) -> Any:
        self.statements += 1
        return self.cur.sql(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cur, name)


@pytest.fixture(scope="module")
def reader(dash_db: DashDB) -> Iterator[tuple[duckdb.DuckDBPyConnection, q.HandDirectory]]:
    con, _ = q.connect_version(dash_db.path)
    cur = con.cursor()
    try:
        yield cur, q.HandDirectory(cur)
    finally:
        con.close()


def _hands(cur: duckdb.DuckDBPyConnection) -> list[str]:
    """The stored hands with a timeline: the disputed session's first (its illegal card and
    score differences), then the others."""
    rows = cur.execute(
        "SELECT hand_id FROM hands WHERE timeline IS NOT NULL "
        "ORDER BY session_id <> ?, n_discrepancies = 0, session_id, number",
        [DISPUTED_ID],
    )
    return [str(r[0]) for r in rows.fetchall()]


def test_the_view_read_in_three_queries_is_the_view_read_table_by_table(
    reader: tuple[duckdb.DuckDBPyConnection, q.HandDirectory], monkeypatch: pytest.MonkeyPatch
) -> None:
    cur, directory = reader
    hands = _hands(cur)
    assert len(hands) > 10
    for hand_id in hands[:40]:
        key = directory.key(cur, hand_id)
        with monkeypatch.context() as m:  # no record: the view is read table by table
            m.setattr(q, "hand_record", lambda *_a, **_k: None)
            table_by_table = vm.hand_view(cur, hand_id, hand_key=key)
        assert table_by_table is not None and table_by_table.irregularities is None
        old = dataclasses.asdict(table_by_table)
        view = vm.hand_view(cur, hand_id, hand_key=key)
        assert view is not None and view.irregularities is not None
        new = dataclasses.asdict(view)
        assert new.pop("irregularities") == q.hand_irregularities(cur, hand_id)
        old.pop("irregularities")
        assert new == old, hand_id


def test_the_store_holds_what_the_comparison_needs(
    reader: tuple[duckdb.DuckDBPyConnection, q.HandDirectory],
) -> None:
    """(The comparison above covers findings at an action, score differences and radelci.)"""
    cur, _ = reader
    for sql in (
        "SELECT count(*) FROM findings WHERE action_index IS NOT NULL",
        "SELECT count(*) FROM score_items WHERE delta <> 0",
        "SELECT count(*) FROM hand_scores WHERE radelci_after IS NOT NULL",
    ):
        assert cur.execute(sql).fetchall()[0][0] > 0, sql


def test_a_hand_is_read_in_two_queries_and_its_session_in_one(
    reader: tuple[duckdb.DuckDBPyConnection, q.HandDirectory],
) -> None:
    cur, directory = reader
    hand_id = _hands(cur)[0]
    counting = Counting(cur)
    rec = q.hand_record(counting, hand_id, directory.key(cur, hand_id))  # type: ignore[arg-type]
    assert rec is not None and counting.statements == 2
    counting.statements = 0
    sess = q.session_record(counting, rec["session_id"])  # type: ignore[arg-type]
    assert sess is not None and counting.statements == 1
    assert hand_id in [h["hand_id"] for h in sess["hands"]]
    counting.statements = 0
    sessions: dict[str, Any] = {rec["session_id"]: sess}
    view = vm.hand_view(
        counting,  # type: ignore[arg-type]
        hand_id,
        hand_key=directory.key(cur, hand_id),
        session=sessions.get,
    )
    assert view is not None and view.hand_id == hand_id
    assert counting.statements == 2  # the session's read came from the caller's cache


def test_an_unknown_hand_or_a_key_of_another_hand_reads_as_no_hand(
    reader: tuple[duckdb.DuckDBPyConnection, q.HandDirectory],
) -> None:
    cur, directory = reader
    first, second = _hands(cur)[:2]
    assert q.hand_record(cur, "no-such-hand") is None
    assert q.hand_record(cur, "no-such-hand", -1) is None
    assert q.hand_record(cur, first, directory.key(cur, second)) is None  # the id is checked
    assert q.hand_record(cur, first)["hand_id"] == first  # type: ignore[index]


def _recorded(fn: Callable[..., Any], reads: list[str]) -> Callable[..., Any]:
    """``fn``, noting each call in ``reads`` (its name kept: the page's cache keys on it)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        reads.append(fn.__name__)
        return fn(*args, **kwargs)

    return run


def test_a_replay_step_reads_nothing_from_the_store(
    dash_db: DashDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a hand is open, the forward button's run (the viewer's fragment) asks the store
    nothing: the step is served from the view read when the hand was opened."""
    monkeypatch.setenv("TAROCK_DB", str(dash_db.path))
    con, _ = q.connect_version(dash_db.path)
    try:
        hand_id = _hands(con.cursor())[0]
    finally:
        con.close()
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("app_pages/replay.py")
    at.query_params["hand"] = hand_id
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    reads: list[str] = []
    for name in ("hand_record", "session_record", "hand_facts", "hand_findings"):
        monkeypatch.setattr(q, name, _recorded(getattr(q, name), reads))
    at.button(key="forward").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["step"] == 1
    assert reads == []
