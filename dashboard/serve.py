"""``python -m dashboard.serve run APP [options]``: Streamlit's own command line (what
``tarock dashboard`` starts), after the modules the pages need have been imported.

A page's first run after the server started otherwise pays for those imports itself: about
1 s on the 2-core machine (polars and DuckDB for the queries, pandas and altair that Streamlit
loads for its first table and chart, the dashboard's own modules, each game's engine), a third
of the Players page's cold load on a 1,000,000-hand store (docs/performance.md, issue 18).
The imports run before Streamlit starts listening, so that the server answers (its health
check, the URL it prints) once a first page can run at full speed: the start takes that second
longer, the first visit does not. (A background thread, tried first, gave the first page
nothing on two cores: imports hold the interpreter lock, and a page that came early waited for
them anyway.)
"""

from __future__ import annotations

import importlib
import logging
import sys

#: imported at start-up, in this order (the heavy libraries first, then the dashboard's)
WARM_MODULES = (
    "polars",
    "duckdb",
    "pyarrow",
    "pandas",
    "altair",
    "tarock_logs.store.read.queries",
    "tarock_logs.store.read.stats",
    "tarock_logs.store.read.analysis",
    "tarock_logs.store.read.ratings",
    "tarock_logs.report.text",
    "dashboard.view_model",
    "dashboard.state",
    "dashboard.table",
)


class _NoRuntimeYet(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "No runtime found" not in record.getMessage()


def warm() -> list[str]:
    """Import :data:`WARM_MODULES`; the ones that could not be imported (a missing optional
    library never stops the server: the page that needs it reports it)."""
    failed = []
    # st.cache_data checks its parameters when a function is decorated: without a runtime yet
    # (the server has not started) it says so on the log, once per decorated function; the
    # caches themselves are made on first call, in the runtime (nothing to warn about)
    quiet = logging.getLogger("streamlit.runtime.caching.cache_data_api")
    no_runtime = _NoRuntimeYet()
    quiet.addFilter(no_runtime)  # (a filter: Streamlit sets its loggers' levels on import)
    try:
        for name in WARM_MODULES:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - a warm-up only: the page imports it again
                failed.append(name)
        # every registered game's engine (a replay's or entry's first run imported it: ≈ 0.2 s
        # a game, and pages opened at once waited for one another's imports)
        from tarock_logs.rules import games, get_engine

        for game in games():
            try:
                get_engine(game)
            except Exception:  # noqa: BLE001 - as above
                failed.append(f"engine:{game}")
    finally:
        quiet.removeFilter(no_runtime)
    return failed


def protect_shared_caches() -> bool:
    """Make a visitor's "clear caches" (Streamlit's ``clear_cache`` message, which any client
    can send) clear that visitor's own session state only, never the caches every visitor
    shares (a neighbour's Players page went from 0.02 to 0.22 s median when one visitor
    cleared them). False when this Streamlit has no such handler (nothing changed; the test
    ``test_a_visitor_cannot_clear_the_shared_caches`` then fails)."""
    from streamlit.runtime.app_session import AppSession

    if not callable(getattr(AppSession, "_handle_clear_cache_request", None)):
        return False

    def own_session_only(self: AppSession) -> None:
        self._session_state.clear()

    AppSession._handle_clear_cache_request = own_session_only  # type: ignore[method-assign]
    return True


def main() -> None:
    warm()
    protect_shared_caches()
    from streamlit.web.cli import main as streamlit_main

    sys.argv[0] = "streamlit"
    streamlit_main()


if __name__ == "__main__":
    main()
