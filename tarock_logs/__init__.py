"""tarock-logs: validate, replay, audit and score recorded tarock games.

Layers, data flowing one way: :mod:`tarock_logs.cards` and :mod:`tarock_logs.log.models` (the log
format) → :mod:`tarock_logs.log.reader` → :mod:`tarock_logs.rules` (pure engines) →
:mod:`tarock_logs.verdict.replay` / :mod:`tarock_logs.verdict.audit` → :mod:`tarock_logs.store` (DuckDB) →
:mod:`tarock_logs.store.stats` → the Streamlit dashboard in ``dashboard/``.
"""

__version__ = "0.1.0"
