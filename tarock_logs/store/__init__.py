"""The DuckDB store: schema (numbered migrations), ingest, export and read-only access.

The command line is the only writer (``tarock ingest``); it publishes a new database file
atomically, so readers (the dashboard, ``tarock stats``) open it read-only with
:func:`connect_readonly` and keep working while an ingest runs.
"""

from tarock_logs.store.connect import connect_readonly, db_fingerprint

__all__ = ["connect_readonly", "db_fingerprint"]
