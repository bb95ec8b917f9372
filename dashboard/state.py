"""Streamlit glue shared by the pages: the database path, the cached read-only connection and
cached per-hand replays. Presentation only: every query lives in :mod:`tarock_logs.dashboard_data`.

The connection is opened read-only and re-opened when the database file is replaced (the
ingest publishes a new file atomically with ``os.replace``): the cache key is the file's
``(st_ino, st_mtime_ns)``. The old connection is closed *before* the new one is opened, since
DuckDB reuses an open instance for the same path within one process (readers would keep
seeing the old rows).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import streamlit as st

from tarock_logs import dashboard_data as dd

T = TypeVar("T")


def db_path() -> Path | None:
    """The database the app serves: ``--db FILE`` after ``--`` on the command line, else the
    ``TAROCK_DB`` environment variable."""
    argv = sys.argv[1:]
    for i, arg in enumerate(argv):
        if arg == "--db" and i + 1 < len(argv):
            return Path(argv[i + 1])
        if arg.startswith("--db="):
            return Path(arg.split("=", 1)[1])
    env = os.environ.get("TAROCK_DB")
    return Path(env) if env else None


class _Holder:
    """One read-only connection per database file version, closed when the file changes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.con: duckdb.DuckDBPyConnection | None = None
        self.key: tuple[str, int, int] | None = None

    def get(self, path: Path) -> tuple[duckdb.DuckDBPyConnection, tuple[str, int, int]]:
        with self.lock:
            key = dd.file_signature(path)
            if self.con is None or key != self.key:
                if self.con is not None:
                    try:
                        self.con.close()
                    except duckdb.Error:
                        pass
                    self.con = None
                self.con = dd.connect_readonly(path)
                self.key = key
            return self.con, key


@st.cache_resource(show_spinner=False)
def _holder() -> _Holder:
    return _Holder()


def require_db() -> tuple[Path, tuple[str, int, int]]:
    """The database path and its version key; stops the page with a message if missing."""
    path = db_path()
    if path is None or not path.is_file():
        st.error(
            "No database. Start the dashboard with `tarock dashboard --db FILE` "
            "after `tarock ingest PATH --db FILE`."
        )
        st.stop()
    assert path is not None
    return path, dd.file_signature(path)


def query(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(cursor, *args)`` on a fresh cursor of the cached read-only connection.

    Retries once on a fresh connection if the file was swapped under a running query.
    """
    path, _ = require_db()
    last: Exception | None = None
    for _attempt in range(3):
        con, _key = _holder().get(path)
        cur = con.cursor()
        try:
            return fn(cur, *args, **kwargs)
        except duckdb.Error as exc:  # the file was replaced or is briefly locked
            last = exc
            h = _holder()
            with h.lock:
                h.key = None  # force a re-open
        finally:
            try:
                cur.close()
            except duckdb.Error:
                pass
    assert last is not None
    raise last


@st.cache_data(max_entries=256, show_spinner=False)
def cached(name: str, key: tuple[str, int, int], *args: Any) -> Any:
    """``dashboard_data.<name>(cursor, *args)`` cached per database version (copies returned)."""
    return query(getattr(dd, name), *args)


def data(name: str, *args: Any) -> Any:
    """Cached call of a :mod:`tarock_logs.dashboard_data` query by name."""
    _, key = require_db()
    return cached(name, key, *args)


@st.cache_resource(max_entries=32, show_spinner=False)
def _replay(key: tuple[str, int, int], hand_id: str) -> dd.HandView | None:
    return query(dd.hand_view, hand_id)


def hand_view(hand_id: str) -> dd.HandView | None:
    """The replay of one hand with everything the viewer shows (cached per database version;
    shared, never mutated)."""
    _, key = require_db()
    return _replay(key, hand_id)


def masked(name: str) -> str:
    """A player's name, or its stable pseudonym when the sidebar's masking toggle is on."""
    if st.session_state.get("mask_names"):
        return dd.pseudonym(name)
    return name


def sidebar_common() -> None:
    """Widgets every page shares: name masking (kept for the whole session)."""
    st.sidebar.toggle(
        "Mask player names",
        key="mask_names",
        help="Show stable pseudonyms instead of names (for screenshots and exports).",
        persist_state="session",
    )


def url_selectbox(
    label: str,
    options: list[str],
    *,
    param: str,
    key: str,
    format_func: Callable[[str], str] = str,
    default: str | None = None,
    on_change: Callable[[], None] | None = None,
    **kwargs: Any,
) -> str | None:
    """A selectbox whose value is the URL query parameter ``param`` (a deep link).

    Streamlit's ``bind="query-params"`` matches the URL against the *displayed* labels, so a
    selectbox showing readable labels for ids (hands) is synced by hand here: a URL value that
    is one of ``options`` (validated, never used otherwise) selects it; the selection is
    written back to the URL.
    """
    url_val = st.query_params.get(param)
    seen_key = f"_url_seen_{key}"
    if url_val is not None and url_val != st.session_state.get(seen_key) and url_val in options:
        st.session_state[key] = url_val
    elif st.session_state.get(key) not in options:
        st.session_state[key] = default if default in options else None
    value = st.selectbox(
        label, options, key=key, format_func=format_func, on_change=on_change, **kwargs
    )
    if value is None:
        if param in st.query_params:
            del st.query_params[param]
    elif st.query_params.get(param) != value:
        st.query_params[param] = value
    st.session_state[seen_key] = value
    return value


def score_table(view: dd.HandView, players: list[str]) -> None:
    """Recorded vs recomputed, item by item: the differing items are listed in red above the
    table (and flagged in its ``differs`` column); then the totals per player."""
    if view.score_rows:
        rows = []
        for r in view.score_rows:
            seat = r["seat"]
            who = players[seat] if seat is not None and seat < len(players) else "declarer side"
            differs = (
                (r["delta"] is not None
                and r["delta"] != 0)
                or (r["recorded"] is None) != (r["recomputed"] is None)
            )
            rows.append({"item": r["item"], "who": who, "recorded": r["recorded"],
                         "recomputed": r["recomputed"], "delta": r["delta"], "differs": differs})  # fmt: skip
        bad = [r for r in rows if r["differs"]]
        if bad:
            st.error(
                "**Score differences** — "
                + "; ".join(
                    f"{r['item']} ({r['who']}): recorded {r['recorded']}, recomputed {r['recomputed']}"
                    for r in bad
                ),
                icon=":material/error:",
            )
        rows.sort(key=lambda r: not r["differs"])
        st.dataframe(
            rows, hide_index=True, width="stretch",
            column_config={"differs": st.column_config.CheckboxColumn("differs")},
        )  # fmt: skip
    else:
        st.caption("No itemised score stored for this hand.")
    tot = view.totals
    if tot.get("recorded") or tot.get("recomputed"):
        rec = tot.get("recorded") or [None] * len(players)
        reco = tot.get("recomputed") or [None] * len(players)
        st.dataframe(
            [{"player": p, "recorded": a, "recomputed": b, "differs": a != b} for p, a, b in zip(players, rec, reco, strict=False)],
            hide_index=True,
            column_config={"differs": st.column_config.CheckboxColumn("differs")},
        )  # fmt: skip
