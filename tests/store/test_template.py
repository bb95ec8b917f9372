"""A new store made from the schema template (``store/write/template.py``) is the store the
migrations make; a template that cannot be made or does not fit is never used."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest

from tarock_logs.store import schema
from tarock_logs.store.write import template
from tarock_logs.store.write.ingest import ingest

ROOT = Path(__file__).resolve().parents[2]
SLOVENIAN = ROOT / "sample_logs" / "slovenian"

_CATALOGUE = (
    "SELECT table_name, column_name, data_type, is_nullable, column_default "
    "FROM duckdb_columns() WHERE NOT internal ORDER BY ALL",
    "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal ORDER BY ALL",
    "SELECT table_name, constraint_type, constraint_text FROM duckdb_constraints() ORDER BY ALL",
    "SELECT index_name, table_name, sql FROM duckdb_indexes() ORDER BY ALL",
    "SELECT sequence_name, start_value FROM duckdb_sequences() ORDER BY ALL",
    # (every store its own pseudonym key: compared by test_every_store_gets_its_own_key)
    "SELECT key, value FROM meta WHERE key <> 'pseudonym_key' ORDER BY key",
    "SELECT version, name, checksum FROM schema_migrations ORDER BY version",
)


def _catalogue(path: Path) -> list[list[tuple]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return [con.execute(q).fetchall() for q in _CATALOGUE]
    finally:
        con.close()


def _tables(path: Path) -> dict[str, list[tuple]]:
    """Every table's rows, less the columns that hold the clock."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        out = {}
        for (t,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE NOT internal ORDER BY 1"
        ).fetchall():
            cols = [
                c for (c, ty) in con.execute(
                    "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ?",
                    [t],
                ).fetchall() if not ty.startswith("TIMESTAMP")
            ]  # fmt: skip
            sel = ", ".join(f'"{c}"' for c in cols)
            where = " WHERE key <> 'pseudonym_key'" if t == "meta" else ""
            out[t] = con.execute(f"SELECT {sel} FROM {t}{where} ORDER BY ALL").fetchall()
        return out
    finally:
        con.close()


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TAROCK_CACHE_DIR", str(folder))
    return folder


def test_a_copy_of_the_template_has_the_schema_the_migrations_make(tmp_path, cache):
    migrated = tmp_path / "migrated.duckdb"
    con = duckdb.connect(str(migrated))
    schema.migrate(con)
    con.close()
    copied = tmp_path / "copied.duckdb"
    before = dt.datetime.now(dt.UTC)
    assert template.copy_template(copied)
    assert template.template_path().is_file()
    assert template.template_path().parent == cache
    con = duckdb.connect(str(copied))
    assert schema.migrate(con, restamp=True) == []  # every migration already applied
    stamps = [r[0] for r in con.execute("SELECT applied_at FROM schema_migrations").fetchall()]
    con.close()
    assert len(stamps) == schema.latest_version()
    assert all(s >= before - dt.timedelta(seconds=1) for s in stamps)  # stamped when copied
    assert _catalogue(copied) == _catalogue(migrated)


def test_every_store_gets_its_own_pseudonym_key_even_from_the_template(tmp_path, cache):
    keys = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.duckdb"
        assert template.copy_template(path)
        con = duckdb.connect(str(path))
        schema.migrate(con, restamp=True)
        keys.append(con.execute("SELECT value FROM meta WHERE key = 'pseudonym_key'").fetchall()[0])
        con.close()
    tcon = duckdb.connect(str(template.template_path()), read_only=True)
    kept = tcon.execute("SELECT value FROM meta WHERE key = 'pseudonym_key'").fetchall()[0]
    tcon.close()
    assert keys[0] != keys[1] and kept not in keys


def test_an_ingest_into_a_new_file_stores_the_same_with_and_without_a_template(
    tmp_path, cache, monkeypatch
):
    with_t = tmp_path / "with.duckdb"
    ingest([str(SLOVENIAN)], db=str(with_t), jobs=1)
    assert template.template_path().is_file()
    monkeypatch.setattr(template, "copy_template", lambda _dest: False)
    without = tmp_path / "without.duckdb"
    ingest([str(SLOVENIAN)], db=str(without), jobs=1)
    assert _catalogue(with_t) == _catalogue(without)
    a, b = _tables(with_t), _tables(without)
    assert a == b
    assert a["hands"]


def test_a_damaged_template_is_refused_dropped_and_made_anew(tmp_path, cache):
    assert template.copy_template(tmp_path / "first.duckdb")
    path = template.template_path()
    path.write_bytes(b"not a database" * 100)
    summary = ingest([str(SLOVENIAN)], db=str(tmp_path / "store.duckdb"), jobs=1)
    assert summary.hands_stored > 0
    assert not path.exists() or path.read_bytes()[:14] != b"not a database"
    # the next new store gets a good template again
    assert template.copy_template(tmp_path / "again.duckdb")
    assert _catalogue(tmp_path / "again.duckdb") == _catalogue(tmp_path / "store.duckdb")


def test_no_template_where_the_cache_cannot_be_written(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("TAROCK_CACHE_DIR", str(blocker / "cache"))  # under a plain file
    dest = tmp_path / "new.duckdb"
    assert not template.copy_template(dest)
    assert not dest.exists()
    summary = ingest([str(SLOVENIAN)], db=str(tmp_path / "store.duckdb"), jobs=1)
    assert summary.hands_stored > 0


def test_a_new_schema_or_duckdb_gets_a_new_template_and_the_old_one_goes(cache, monkeypatch):
    assert template.copy_template(cache.parent / "one.duckdb")
    first = template.template_path()
    real = schema.migrations()
    extra = schema.Migration(len(real) + 1, f"{len(real) + 1:04d}_x.sql", "CREATE TABLE x (a INT);")
    monkeypatch.setattr(schema, "migrations", lambda: [*real, extra])
    second = template.template_path()
    assert second != first
    assert template.copy_template(cache.parent / "two.duckdb")
    assert second.is_file() and not first.exists()
    con = duckdb.connect(str(cache.parent / "two.duckdb"), read_only=True)
    assert con.execute("SELECT count(*) FROM x").fetchall() == [(0,)]
    con.close()
    monkeypatch.setattr(duckdb, "__version__", "0.0.0-other")
    assert template.template_path() != second


def test_the_cache_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("TAROCK_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert template.cache_dir() == tmp_path / "xdg" / "tarock-logs"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert template.cache_dir() == tmp_path / "home" / ".cache" / "tarock-logs"
