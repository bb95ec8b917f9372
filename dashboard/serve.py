"""``python -m dashboard.serve run APP [options]``: Streamlit's own command line (what
``tarock dashboard`` starts), with the modules every page needs imported in a background
thread while the server starts.

A page's first run after the server started otherwise pays for those imports itself: about
1 s on the 2-core machine (polars and DuckDB for the queries, pandas and altair that Streamlit
loads for its first table and chart, the dashboard's own modules), a third of the Players
page's cold load on a 1,000,000-hand store (docs/performance.md, issue 18). A page that runs
before the warm-up is done simply waits for the import in progress (Python's import lock);
nothing else is shared, and the server starts as fast as before.
"""

from __future__ import annotations

import importlib
import sys
import threading

#: imported at start-up, in this order (the heavy libraries first, then the dashboard's)
WARM_MODULES = (
    "polars",
    "duckdb",
    "pyarrow",
    "pandas",
    "altair",
    "tarock_logs.store.queries",
    "tarock_logs.store.stats",
    "tarock_logs.report.text",
    "dashboard.view_model",
    "dashboard.state",
)


def warm() -> list[str]:
    """Import :data:`WARM_MODULES`; the ones that could not be imported (a missing optional
    library never stops the server: the page that needs it reports it)."""
    failed = []
    for name in WARM_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a warm-up only: the page imports it again
            failed.append(name)
    return failed


def main() -> None:
    threading.Thread(target=warm, name="tarock-warm-up", daemon=True).start()
    from streamlit.web.cli import main as streamlit_main

    sys.argv[0] = "streamlit"
    streamlit_main()


if __name__ == "__main__":
    main()
