"""Fixtures for the store tests: a store ingested from the sample logs, opened read-only."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pytest

from tarock_logs.store.read.queries import connect_reader
from tests.support.store_fixtures import ingest_samples


@pytest.fixture(scope="session")
def sample_cur(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only cursor on a store of Appendix B and the disputed round."""
    con = connect_reader(ingest_samples(tmp_path_factory.mktemp("samples")))
    try:
        yield con.cursor()
    finally:
        con.close()


@pytest.fixture(autouse=True)
def _every_read_leaves_the_shared_cursor_ready(request: pytest.FixtureRequest) -> Iterator[None]:
    """A read query must read its result to the end: DuckDB 2 keeps a half-read result open
    on the cursor and the page's next ``cur.sql(...)`` fails (a dashboard page runs many
    queries on one cursor)."""
    yield
    if "sample_cur" in request.fixturenames:
        cur = request.getfixturevalue("sample_cur")
        assert cur.sql("SELECT 1 AS ready").fetchall() == [(1,)], request.node.nodeid
