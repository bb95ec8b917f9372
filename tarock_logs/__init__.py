"""tarock-logs: validate, replay, audit and score recorded tarock games.

Data flows one way: :mod:`tarock_logs.log` (files → the log format's models) →
:mod:`tarock_logs.verdict` (drives the pure engines of :mod:`tarock_logs.rules` into findings
and scores; :mod:`tarock_logs.report` words them) → :mod:`tarock_logs.store` (DuckDB) → the
Streamlit dashboard in ``dashboard/``. ``docs/architecture.md`` has the map and the contracts.
"""

__version__ = "0.1.0"
