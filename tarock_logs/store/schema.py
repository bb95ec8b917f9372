"""The store's schema as numbered SQL migrations.

Migrations live in ``tarock_logs/store/migrations/NNNN_name.sql``. :func:`migrate` applies the
ones a database has not seen, in order, inside one transaction, and records each in
``schema_migrations(version, applied_at, checksum)``. A migration that was applied is never
edited: :func:`migrate` refuses a database whose recorded checksum differs from the file's.
Changes are additive (a new numbered file).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources

import duckdb

from tarock_logs import __version__ as TOOL_VERSION
from tarock_logs.store.pseudonyms import KEY_META, new_key

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class SchemaError(RuntimeError):
    """The database's schema history does not match this program's migrations."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()


def migrations() -> list[Migration]:
    """Every migration shipped with the package, in version order."""
    out: list[Migration] = []
    for entry in resources.files("tarock_logs.store.migrations").iterdir():
        m = _NAME.match(entry.name)
        if m:
            out.append(Migration(int(m.group(1)), entry.name, entry.read_text("utf-8")))
    out.sort(key=lambda m: m.version)
    versions = [m.version for m in out]
    if versions != list(range(1, len(out) + 1)):
        raise SchemaError(f"migrations are not numbered 1..n: {versions}")
    return out


def latest_version() -> int:
    return len(migrations())


def applied_versions(con: duckdb.DuckDBPyConnection) -> dict[int, str]:
    """``{version: checksum}`` of the migrations recorded in the database (empty if none)."""
    exists = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'schema_migrations'"
    ).fetchall()[0][0]
    if not exists:
        return {}
    rows = con.execute("SELECT version, checksum FROM schema_migrations").fetchall()
    return {int(v): str(c) for v, c in rows}


def migrate(con: duckdb.DuckDBPyConnection, *, restamp: bool = False) -> list[int]:
    """Bring the database to the latest schema in one transaction; return the versions applied.

    Also records ``duckdb_version``, ``tool_version`` and ``schema_version`` in ``meta``, and
    the store's pseudonym key (:mod:`tarock_logs.store.pseudonyms`) where it has none.
    ``restamp``: the database is a new copy of the schema template
    (:mod:`tarock_logs.store.write.template`): its migrations' ``applied_at`` become now.
    """
    todo = migrations()
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name VARCHAR NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL, checksum VARCHAR NOT NULL)"
        )
        # (the table exists now: read it without asking the catalog, which costs ≈ 6 ms)
        done = {
            int(v): str(c)
            for v, c in con.execute("SELECT version, checksum FROM schema_migrations").fetchall()
        }
        newest = max(done, default=0)
        if newest > len(todo):
            raise SchemaError(
                f"database schema version {newest} is newer than this program's ({len(todo)}); "
                "upgrade tarock-logs"
            )
        applied: list[int] = []
        for m in todo:
            if m.version in done:
                if done[m.version] != m.checksum:
                    raise SchemaError(f"migration {m.name} was changed after it was applied")
                continue
            con.execute(m.sql)
            con.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, current_timestamp, ?)",
                [m.version, m.name, m.checksum],
            )
            applied.append(m.version)
        if restamp:
            con.execute("UPDATE schema_migrations SET applied_at = current_timestamp")
        meta = {
            "duckdb_version": duckdb.__version__,
            "tool_version": TOOL_VERSION,
            "schema_version": str(len(todo)),
        }
        stored = dict(con.execute("SELECT key, value FROM meta").fetchall())
        if restamp or KEY_META not in stored:
            # every store its own pseudonym key (a copy of the template gets a new one)
            meta[KEY_META] = new_key()
        for key, value in meta.items():
            if stored.get(key) == value:  # (each upsert costs ≈ 2.5 ms; usually none is due)
                continue
            con.execute(
                "INSERT INTO meta VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [key, value],
            )
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return applied


#: The ``actions`` table's columns that hold a log action's fields, as ``(column, field)``
#: pairs: each column holds the field of the same name, except ``talon_group`` (a talon pick's
#: ``group``). An action's ``params`` (announcements, melds) are the JSON column ``params``.
#: The way back, rows to log actions, is :func:`tarock_logs.store.read.rebuild.action_from_row`.
ACTION_COLUMNS = (
    ("card", "card"),
    ("cards", "cards"),
    ("shown", "shown"),
    ("contract", "contract"),
    ("talon_group", "group"),
    ("bonus", "bonus"),
    ("side", "side"),
    ("target", "target"),
    ("level", "level"),
    ("claim", "claim"),
    ("meld", "meld"),
    ("raises", "raises"),
    ("note", "note"),
)
