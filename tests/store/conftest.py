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
