"""Where the store lives: the names the command line declares its ``--db`` and ``--dask``
options with.

Standard library only (nothing here imports DuckDB), so that ``tarock --help`` can name the
defaults without loading the store; :mod:`tarock_logs.store.write.ingest` re-exports them.
"""

from __future__ import annotations

#: Environment variable naming the database when ``--db`` is not given.
DB_ENV = "TAROCK_DB"
#: The database file when neither ``--db`` nor ``$TAROCK_DB`` names one (in the working folder).
DEFAULT_DB = "tarock.duckdb"
#: ``ingest(dask=LOCAL_CLUSTER)`` / ``--dask`` without an address: a local Dask cluster started
#: for the run, of one worker per core.
LOCAL_CLUSTER = "local"
