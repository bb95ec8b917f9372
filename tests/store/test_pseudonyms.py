"""Pseudonyms: the same in Python and in SQL (names are masked in the statistics' queries)."""

from __future__ import annotations

from pathlib import Path

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from tarock_logs.report.i18n import LANGS, t
from tarock_logs.store.pseudonyms import GENERA, new_key, pseudonym, pseudonym_sql
from tarock_logs.store.read import queries
from tarock_logs.store.schema import migrate

_CON = duckdb.connect()
_KEY = new_key()


def _in_sql(name: str, key: str = "") -> str:
    expr = pseudonym_sql("n", "$1")
    return str(_CON.execute(f"SELECT {expr} FROM (SELECT $2 AS n)", [key, name]).fetchall()[0][0])


def test_pseudonyms_are_stable_and_tell_players_apart() -> None:
    assert pseudonym("Ana Kos") == pseudonym("Ana Kos")
    names = [f"Player {i}" for i in range(30)]
    assert len({pseudonym(n) for n in names}) == 30
    assert "Ana" not in pseudonym("Ana Kos")


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_the_sql_pseudonym_is_the_python_one(name: str) -> None:
    assert _in_sql(name) == pseudonym(name)
    assert _in_sql(name, _KEY) == pseudonym(name, _KEY)


def test_each_store_keys_its_pseudonyms_with_its_own_secret() -> None:
    """A pseudonym cannot be reversed by hashing likely names without the store's key, and
    two stores give one player different pseudonyms; the SQL reads the store's own key."""
    keys = []
    for _ in range(2):
        con = duckdb.connect()
        migrate(con)
        key = queries.pseudonym_key(con)
        assert len(key) == 32
        ana = pseudonym_sql("'Ana Kos'")
        assert con.execute(f"SELECT {ana}").fetchall()[0] == (pseudonym("Ana Kos", key),)
        migrate(con)  # a second migration keeps the key
        assert queries.pseudonym_key(con) == key
        keys.append(key)
        con.close()
    assert keys[0] != keys[1]
    assert pseudonym("Ana Kos", keys[0]) != pseudonym("Ana Kos", keys[1])
    assert pseudonym("Ana Kos", keys[0]) != pseudonym("Ana Kos")


def test_a_pseudonym_is_the_same_word_in_every_language() -> None:
    """Issue 33: the public view's pseudonyms were English words ("Quiet Heron 07") on the
    Slovenian and German pages. A pseudonym is a Latin genus and a number: no reader's
    language, nothing to translate, and still stable per store key."""
    for name in ("Ana Kos", "Bojan Zupan", "Žiga Oblak"):
        said = pseudonym(name, _KEY)
        genus, number = said.split(" ")
        assert genus in GENERA and len(number) == 3 and number.isdigit()
        assert {t(said, lang) for lang in LANGS} == {said}  # no catalogue translates it
        assert pseudonym(name, _KEY) == said
    english = {"the", "quiet", "heron", "wolf", "owl", "amber", "silver", "swift", "crane"}
    assert not {g.lower() for g in GENERA} & english
    assert len(set(GENERA)) == 40


def test_reading_the_key_leaves_the_cursor_ready_for_the_next_query() -> None:
    """DuckDB 2 keeps a half-read result (``fetchone``) open on a cursor, and the next
    ``cur.sql(...)`` on it fails: a page reads the key and then its tables on one cursor."""
    con = duckdb.connect()
    migrate(con)
    assert len(queries.pseudonym_key(con)) == 32
    assert con.sql("SELECT 1 AS one").pl()["one"].to_list() == [1]


def test_the_library_never_half_reads_a_result() -> None:
    """No ``fetchone``/``fetchmany`` in the library: every result is read to its end."""
    root = Path(__file__).resolve().parents[2] / "tarock_logs"
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if ".fetchone(" in p.read_text(encoding="utf-8")
        or ".fetchmany(" in p.read_text(encoding="utf-8")
    ]
    assert offenders == []
