"""tarock-logs: validate, replay, audit and score recorded tarock games.

Layers, data flowing one way: :mod:`tarock_logs.cards` and :mod:`tarock_logs.models` (the log
format) → :mod:`tarock_logs.reader` → :mod:`tarock_logs.rules` (pure engines) →
:mod:`tarock_logs.replay` / :mod:`tarock_logs.audit` → :mod:`tarock_logs.store` (DuckDB) →
:mod:`tarock_logs.stats` → the Streamlit dashboard in ``dashboard/``.
"""

__version__ = "0.1.0"
