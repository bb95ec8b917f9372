"""Export every table of the store to Parquet (partitioned by game) or CSV (one file per table).

Parquet: ``DIR/<table>/game=<game>/*.parquet`` for the tables that belong to a game (sessions,
hands and their children, with ``game`` joined on), ``DIR/<table>.parquet`` for the others
(``raw_logs``, ``players``, ``rejects``, ``meta``, ``schema_migrations``). CSV:
``DIR/<table>.csv`` with a header. Table names come from an allow-list, never from input.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import duckdb

from tarock_logs.store.connect import connect_readonly

#: Every exported table and how its ``game`` is found (None: not partitioned).
TABLES: dict[str, str | None] = {
    "raw_logs": None,
    "players": None,
    "sessions": "SELECT t.* FROM sessions t",
    "session_players": "SELECT t.*, s.game FROM session_players t "
    "JOIN sessions s USING (session_id)",
    "session_scores": "SELECT t.*, s.game FROM session_scores t JOIN sessions s USING (session_id)",
    "hands": "SELECT t.* FROM hands t",
    "actions": "SELECT t.*, h.game FROM actions t JOIN hands h USING (hand_id)",
    "irregularities": "SELECT t.*, h.game FROM irregularities t JOIN hands h USING (hand_id)",
    "tricks": "SELECT t.*, h.game FROM tricks t JOIN hands h USING (hand_id)",
    "violations": "SELECT t.*, h.game FROM violations t JOIN hands h USING (hand_id)",
    "score_items": "SELECT t.*, h.game FROM score_items t JOIN hands h USING (hand_id)",
    "hand_scores": "SELECT t.*, h.game FROM hand_scores t JOIN hands h USING (hand_id)",
    "rejects": None,
    "meta": None,
    "schema_migrations": None,
}

Format = Literal["parquet", "csv"]


class ExportError(RuntimeError):
    """The export cannot start (missing database, non-empty target folder)."""


def _lit(path: Path) -> str:
    """A path as a SQL string literal (COPY cannot bind its target)."""
    return "'" + str(path).replace("'", "''") + "'"


def export(
    db: str | os.PathLike[str],
    to: Format,
    out_dir: str | os.PathLike[str],
    *,
    overwrite: bool = False,
) -> dict[str, int]:
    """Export every table of ``db`` to ``out_dir``; returns ``{table: rows}``."""
    if to not in ("parquet", "csv"):
        raise ExportError(f"unknown export format {to!r}: parquet or csv")
    out = Path(out_dir)
    if out.exists() and any(out.iterdir()) and not overwrite:
        raise ExportError(f"{out} is not empty (use --overwrite)")
    out.mkdir(parents=True, exist_ok=True)
    try:
        con = connect_readonly(db)
    except FileNotFoundError as exc:
        raise ExportError(str(exc)) from exc
    rows: dict[str, int] = {}
    try:
        for table, query in TABLES.items():
            rows[table] = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
            if to == "csv":
                con.execute(
                    f"COPY {table} TO {_lit(out / (table + '.csv'))} (FORMAT csv, HEADER true)"
                ).fetchall()
            elif query is None:
                con.execute(
                    f"COPY {table} TO {_lit(out / (table + '.parquet'))} (FORMAT parquet)"
                ).fetchall()
            elif rows[table] == 0:
                # an empty partitioned COPY writes nothing: keep the schema in one empty file
                (out / table).mkdir(exist_ok=True)
                con.execute(
                    f"COPY ({query} LIMIT 0) TO {_lit(out / table / 'empty.parquet')} "
                    "(FORMAT parquet)"
                ).fetchall()
            else:
                con.execute(
                    f"COPY ({query}) TO {_lit(out / table)} "
                    "(FORMAT parquet, PARTITION_BY (game), OVERWRITE_OR_IGNORE true)"
                ).fetchall()
    except duckdb.Error as exc:
        raise ExportError(f"export failed: {exc}") from exc
    finally:
        con.close()
    return rows
