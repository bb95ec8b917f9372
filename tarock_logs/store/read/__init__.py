"""The store's read path: what the dashboard, ``tarock stats``, ``tarock export`` and the
replayer read from a published store (read-only connections, ``?`` parameters).

Nothing here writes a store or imports :mod:`tarock_logs.store.write` (an import contract in
``pyproject.toml``). The shared parts (the connection, the schema, the ``--db`` names, the
source files, the pseudonyms) live in :mod:`tarock_logs.store` itself.
"""
