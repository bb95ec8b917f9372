"""The DuckDB store: schema (numbered migrations), ingest, export and read-only access.

The command line is the only writer (``tarock ingest``); it publishes a new database file
atomically, so readers (the dashboard, ``tarock stats``) open it read-only with
:func:`connect_readonly` and keep working while an ingest runs.

Importing the package loads nothing heavy: :func:`connect_readonly` and :func:`db_fingerprint`
(and DuckDB with them) are imported from :mod:`tarock_logs.store.connect` on first use, so
that :mod:`tarock_logs.store.paths` (the ``--db`` names) costs the command line nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tarock_logs.store.connect import connect_readonly, db_fingerprint

__all__ = ["connect_readonly", "db_fingerprint"]


def __getattr__(name: str) -> Any:
    """``connect_readonly`` and ``db_fingerprint``, imported (with DuckDB) on first use."""
    if name in __all__:
        from tarock_logs.store import connect

        value = getattr(connect, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
