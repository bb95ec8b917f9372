"""The store's write path: ``tarock ingest`` (the plan, the worker processes or Dask, the ingest
lane, the one writer and its lock), the facts and ratings computed at ingest, the stored
analysis, and the template a new store is copied from.

The write path may read through :mod:`tarock_logs.store.read`; never the other way round.
"""
