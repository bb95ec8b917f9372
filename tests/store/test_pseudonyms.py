"""Pseudonyms: the same in Python and in SQL (names are masked in the statistics' queries)."""

from __future__ import annotations

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from tarock_logs.store.pseudonyms import pseudonym, pseudonym_sql

_CON = duckdb.connect()


def _in_sql(name: str) -> str:
    return str(
        _CON.execute(f"SELECT {pseudonym_sql('n')} FROM (SELECT ? AS n)", [name]).fetchall()[0][0]
    )


def test_pseudonyms_are_stable_and_tell_players_apart() -> None:
    assert pseudonym("Ana Kos") == pseudonym("Ana Kos")
    names = [f"Player {i}" for i in range(30)]
    assert len({pseudonym(n) for n in names}) == 30
    assert "Ana" not in pseudonym("Ana Kos")


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_the_sql_pseudonym_is_the_python_one(name: str) -> None:
    assert _in_sql(name) == pseudonym(name)
