"""Streamlit glue shared by the pages: the database path, the cached read-only connection, cached
queries and per-hand replays. Presentation only: the queries are
:mod:`tarock_logs.store.read.queries`, what the pages show is built in :mod:`dashboard.view_model`.

The connection is opened read-only and re-opened when the database file is replaced (the
ingest publishes a new file atomically with ``os.replace``): the cache key is the file's
``(st_ino, st_mtime_ns)``. The old connection is closed *before* the new one is opened, since
DuckDB reuses an open instance for the same path within one process (readers would keep
seeing the old rows).
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar, cast

import duckdb
import streamlit as st
from PIL import Image, ImageDraw

from dashboard.access import is_referee, login_box
from dashboard.view_model import HandView, md_text, score_lines, total_lines
from dashboard.view_model import hand_view as build_hand_view
from tarock_logs.report import i18n
from tarock_logs.report import text as wording
from tarock_logs.store import db_fingerprint
from tarock_logs.store.pseudonyms import pseudonym
from tarock_logs.store.read import queries
from tarock_logs.verdict.findings import Finding

T = TypeVar("T")
_log = logging.getLogger("tarock_logs.dashboard")

#: The version key of the database file: its path, inode and modification time, which change
#: whenever the ingest publishes a new file.
DbKey = tuple[str, int, int]


def db_key(path: Path) -> DbKey:
    """The version key of the database at ``path`` (see :data:`DbKey`)."""
    return (str(path), *db_fingerprint(path))


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


def entry_dir() -> Path | None:
    """The folder the hand entry saves logs into (``tarock ingest`` picks them up there):
    ``--entry-dir DIR`` after ``--`` on the command line, else ``TAROCK_ENTRY_DIR``; None
    when the dashboard was started without one (the entry then only offers downloads)."""
    argv = sys.argv[1:]
    for i, arg in enumerate(argv):
        if arg == "--entry-dir" and i + 1 < len(argv):
            return Path(argv[i + 1])
        if arg.startswith("--entry-dir="):
            return Path(arg.split("=", 1)[1])
    env = os.environ.get("TAROCK_ENTRY_DIR")
    return Path(env) if env else None


class _Version:
    """One published version of the store, open (its own reader), and the page runs reading it."""

    def __init__(self, con: duckdb.DuckDBPyConnection, key: DbKey) -> None:
        self.con = con
        self.key = key
        self.runs = 0


class _Versions:
    """The store versions the server has open: the newest published one, and older ones for
    as long as a page run that began on them is running (then closed). A page run pins the
    newest version when it begins (:meth:`pin`) and reads it to its end, however many
    publishes happen meanwhile; the next run reads the new file."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open: dict[DbKey, _Version] = {}
        self.newest: DbKey | None = None

    def pin(self, path: Path) -> _Version:
        """The version published at ``path`` now, held open until :meth:`unpin`."""
        with self.lock:
            key = db_key(path)
            version = self.open.get(key)
            if version is None:
                con, fingerprint = queries.connect_version(path)
                key = (str(path), *fingerprint)
                version = self.open.get(key)
                if version is None:
                    version = self.open[key] = _Version(con, key)
                else:  # published anew while the lock was waited for: the newer one is open
                    con.close()
            version.runs += 1
            self.newest = key  # a publish replaces the file: the one opened now is the newest
            self._close_unread()
            return version

    def unpin(self, version: _Version) -> None:
        with self.lock:
            version.runs = max(0, version.runs - 1)
            self._close_unread()

    def _close_unread(self) -> None:
        """Close the versions older than the newest that no page run reads any more."""
        for key, version in list(self.open.items()):
            if key != self.newest and version.runs == 0:
                del self.open[key]
                try:
                    version.con.close()
                except duckdb.Error:
                    pass


@st.cache_resource(show_spinner=False)
def _versions() -> _Versions:
    return _Versions()


def open_versions() -> list[DbKey]:
    """The store versions the server holds open now: the newest, and older ones while a page
    run reads them."""
    with _versions().lock:
        return list(_versions().open)


#: the store version the running page reads, pinned by :func:`begin_run` (a page run, and a
#: fragment's run, is one thread): every query of one run reads that version, so a page never
#: shows numbers of two published files side by side
_RUN = threading.local()
#: a run whose store turned unreadable under it while a newer one was published starts over
#: on the new one, at most this many times in a row; then it says so and stops
MAX_STORE_RERUNS = 3


def begin_run() -> bool:
    """Pin the store version this page run reads (``dashboard/app.py``, before the page; a
    fragment through :func:`one_version`): the one published now, read to the run's end.
    False when the run had one pinned already (a fragment inside its page's run)."""
    if getattr(_RUN, "version", None) is not None:
        return False
    path = db_path()
    _RUN.version = None
    if path is not None and path.is_file():
        try:
            _RUN.version = _versions().pin(path)
        except (duckdb.Error, OSError) as exc:  # removed or bad: the page's queries say so
            _log.info("no store version pinned: %s", exc)
    return True


def end_run(*, finished: bool = True) -> None:
    """The run is over: release its store version (an older one is closed once no run reads
    it); ``finished``: it ran to its end, so its restarts are forgotten."""
    version: _Version | None = getattr(_RUN, "version", None)
    _RUN.version = None
    if version is not None:
        _versions().unpin(version)
    if finished:
        st.session_state.pop("_store_reruns", None)


F = TypeVar("F", bound=Callable[..., Any])


def one_version(fn: F) -> F:
    """``fn`` (a fragment) reads one store version per run: its own when it reruns alone,
    its page's when it runs within the page's run."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        began = begin_run()
        try:
            return fn(*args, **kwargs)
        finally:
            if began:
                end_run(finished=False)

    return cast(F, run)


def _start_over_on_the_new_store() -> NoReturn:
    """The store this run reads became unreadable and a new one was published: run the page
    again on the new version (a clean switch), or, after :data:`MAX_STORE_RERUNS` restarts in
    a row, say so."""
    n = int(st.session_state.get("_store_reruns", 0)) + 1
    if n > MAX_STORE_RERUNS:
        st.session_state["_store_reruns"] = 0
        st.warning(tr("The database is being updated. Reload the page in a moment."))
        st.stop()
    st.session_state["_store_reruns"] = n
    st.rerun()


def require_db() -> tuple[Path, DbKey]:
    """The database path and the version key this page run reads (pinned by
    :func:`begin_run`; the file's current one outside a page run); stops the page with a
    message if there is no database."""
    path = db_path()
    pinned: _Version | None = getattr(_RUN, "version", None)
    if path is not None and pinned is not None and pinned.key[0] == str(path):
        # the run reads its pinned version to its end: no look at the file (a stat per
        # query, some twenty a page)
        return path, pinned.key
    if path is None or not path.is_file():
        st.error(
            tr(
                "No database. Start the dashboard with `tarock dashboard --db FILE` "
                "after `tarock ingest PATH --db FILE`."
            )
        )
        st.stop()
    assert path is not None
    return path, db_key(path)


def store_unreadable(exc: BaseException) -> None:
    """Tell the visitor, in plain words and their language, that the store cannot be read
    now (no traceback, no server path); the details go to the server's log."""
    _log.warning("the store cannot be read: %s", exc, exc_info=exc)
    st.error(
        tr(
            "The database cannot be read right now: it was replaced by a file that is not a "
            "tarock-logs store, or removed. The pages work again once a good store is "
            "published (`tarock ingest`); reload the page then."
        )
    )


def query(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(cursor, *args)`` on a fresh cursor of the store version this page run reads
    (:func:`begin_run`; outside a run, the version published now, for this call).

    A run reads its version to its end whatever is published meanwhile. Should its file turn
    unreadable while a newer one has been published, the page runs again on the new version
    (:func:`_start_over_on_the_new_store`): one run never mixes two versions.
    """
    path, _ = require_db()
    pinned: _Version | None = getattr(_RUN, "version", None)
    if pinned is not None and pinned.key[0] == str(path):
        cur = pinned.con.cursor()
        try:
            return fn(cur, *args, **kwargs)
        except duckdb.Error:
            try:
                swapped = db_key(path) != pinned.key
            except OSError:
                swapped = False
            if swapped:
                _start_over_on_the_new_store()
            raise
        finally:
            _close_quietly(cur)
    version = _versions().pin(path)
    try:
        cur = version.con.cursor()
        try:
            return fn(cur, *args, **kwargs)
        finally:
            _close_quietly(cur)
    finally:
        _versions().unpin(version)


def _close_quietly(cur: duckdb.DuckDBPyConnection) -> None:
    try:
        cur.close()
    except duckdb.Error:
        pass


@st.cache_data(max_entries=256, show_spinner=False)
def _cached(_fn: Callable[..., Any], name: str, key: DbKey, *args: Any) -> Any:
    """``_fn(cursor, *args)`` cached per function ``name`` and database version (Streamlit
    hashes ``name``, ``key`` and ``args``, not the function itself; copies are returned)."""
    return query(_fn, *args)


def data(fn: Callable[..., T], *args: Any) -> T:
    """``fn(cursor, *args)``, a query of :mod:`tarock_logs.store.read.queries` or a view-model
    builder of :mod:`dashboard.view_model`, cached per database version."""
    _, key = require_db()
    result: T = _cached(fn, f"{fn.__module__}.{fn.__qualname__}", key, *args)
    return result


@st.cache_resource(max_entries=2, show_spinner=False)
def _directory(key: DbKey) -> queries.HandDirectory:
    return query(queries.HandDirectory)


def hand_key(hand_id: str) -> int | None:
    """The key of a stored hand in the version this run reads (-1: no such hand; None: ask
    by the id), from the version's :class:`~tarock_logs.store.read.queries.HandDirectory` (built
    once per version, shared): the hand's rows are then found without reading the id column
    of every hand."""
    _, key = require_db()
    directory = _directory(key)
    return query(directory.key, hand_id)


def session_record(session_id: str) -> dict[str, Any] | None:
    """One session as the replay reads it (:func:`queries.session_record`: its label, event,
    seating and hands in one query), cached per database version: the hand picker and every
    hand of the session opened share it."""
    rec: dict[str, Any] | None = data(queries.session_record, session_id)
    return rec


@st.cache_resource(max_entries=32, show_spinner=False)
def _replay(key: DbKey, hand_id: str, engine: bool) -> HandView | None:
    return query(
        build_hand_view,
        hand_id,
        engine=engine,
        hand_key=hand_key(hand_id),
        session=session_record,
    )


def hand_view(hand_id: str, *, engine: bool = False) -> HandView | None:
    """One hand with everything the viewer shows, its steps as the store keeps them
    (cached per database version; shared, never mutated): read in two queries and its
    session's one (:func:`session_record`, shared by the session's hands), so that a step
    and a reload read nothing more. ``engine``: with the engine's replay of the hand too
    (the legal alternatives, the dossier), which runs then."""
    _, key = require_db()
    return _replay(key, hand_id, engine)


@st.cache_resource(show_spinner=False)
def favicon() -> Image.Image:
    """The browser tab's icon: a card with a tarok's blue border, drawn here and served by the
    dashboard itself (32 × 32 pixels)."""
    img = Image.new("RGBA", (32, 32), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((5, 1, 26, 30), radius=4, fill="white", outline="#1a237e", width=3)
    draw.rectangle((11, 8, 20, 11), fill="#1a237e")
    draw.rectangle((14, 8, 17, 23), fill="#1a237e")
    return img


def names_masked() -> bool:
    """True when players' names are shown as pseudonyms: always in the public view (decided
    on the server, :mod:`dashboard.access`), and for a referee when the sidebar's masking
    toggle is on."""
    return not is_referee() or bool(st.session_state.get("mask_names"))


def shown_order(values: list[T], shown: Callable[[T], str]) -> list[T]:
    """``values`` in the order of what the page shows for them (``shown``) when names are
    masked, else as they came. Players listed in the order of their real names but shown as
    pseudonyms would give that order away, and with a tournament's public list of players
    every pseudonym with it."""
    return sorted(values, key=shown) if names_masked() else values


def masked(name: str) -> str:
    """A player's name, or its stable pseudonym (under the store's key) when names are
    masked (:func:`names_masked`)."""
    if names_masked():
        return pseudonym(name, _store_key())
    return name


def _store_key() -> str:
    """The store's pseudonym key (empty without a store: the entry page alone)."""
    path = db_path()
    if path is None or not path.is_file():
        return ""
    return data(queries.pseudonym_key)


def masked_text(text: str, names: list[str]) -> str:
    """A message with the players' names masked when masking is on."""
    for n in sorted(set(names), key=len, reverse=True):
        if n:
            text = text.replace(n, masked(n))
    return text


def browser_lang() -> str:
    """The language the browser asks for (its locale, else its ``Accept-Language``
    header): one of :data:`tarock_logs.report.i18n.LANGS`, English when it asks for none."""
    try:
        locale = st.context.locale
    except Exception:  # noqa: BLE001 - no browser (AppTest): English
        locale = None
    if locale and i18n.normalize(locale) != "en":
        return i18n.normalize(locale)
    try:
        header = st.context.headers.get("Accept-Language")
    except Exception:  # noqa: BLE001
        header = None
    return i18n.negotiate(header)


def resolve_lang() -> str:
    """The interface language of this run, settled before anything is drawn: ``?lang=`` when
    the URL brings a new value, else the session's choice, else the browser's language.
    The sidebar's language picker (key ``lang``) then shows it."""
    url = st.query_params.get("lang")
    seen = st.session_state.get("_url_seen_lang")
    if url is not None and url != seen and url in i18n.LANGS:
        st.session_state["lang"] = url
    elif st.session_state.get("lang") not in i18n.LANGS:
        st.session_state["lang"] = browser_lang()
    lang: str = st.session_state["lang"]
    return lang


def lang() -> str:
    """The interface language (see :func:`resolve_lang`)."""
    value = st.session_state.get("lang")
    return value if value in i18n.LANGS else resolve_lang()


def tr(msgid: str, /, **fields: Any) -> str:
    """The label ``msgid`` (English) in the interface language."""
    return i18n.t(msgid, lang(), **fields)


def trn(one: str, many: str, n: int, /, **fields: Any) -> str:
    """A label that counts ``n`` (English ``one`` / ``many``, with ``{n}``) in the plural form
    of ``n`` in the interface language (:func:`tarock_logs.report.i18n.tn`)."""
    return i18n.tn(one, many, n, lang(), **fields)


def finding_text(f: Finding) -> str:
    """A finding as the page's reader sees it (the Audit page's, the replay's and the entry's
    banners): the one wording of a finding (:func:`tarock_logs.report.text.finding_sentence`)
    in the interface language; in English the finding's own ``message`` (its English
    sentence, worded by the same renderer when the audit made it)."""
    lang_ = lang()
    if lang_ == "en" and f.message:
        return f.message
    return wording.finding_sentence(f, lang_)


def rule_quote(f: Finding) -> str | None:
    """The rule's own words in the interface language, where the ruleset has them."""
    return wording.rule_quote(f, lang())


def sidebar_common() -> None:
    """Widgets every page shares: the language (also ``?lang=en|sl|de``), the referee login
    of a public server, and a referee's name masking (kept for the whole session)."""
    url_selectbox(
        tr("Language"),
        list(i18n.LANGS),
        param="lang",
        key="lang",
        default=lang(),
        format_func=lambda code: i18n.LANG_NAMES.get(code, code),
        container=st.sidebar,
    )
    login_box(tr)
    if is_referee():  # the public view is masked on the server: no toggle to unmask it
        st.sidebar.toggle(
            tr("Mask player names"),
            key="mask_names",
            help=tr("Show stable pseudonyms instead of names (for screenshots and exports)."),
            persist_state="session",
        )
    else:
        st.sidebar.caption(tr("Public view: players are shown by their pseudonyms."))


#: keys of the choice widgets (select boxes, multiselects, radios) whose option labels follow
#: the interface language or the name masking (:func:`choice`, :func:`keep_choices`)
_CHOICES: set[str] = set()


def choice(key: str) -> str:
    """``key``, registered as a choice widget's whose labels change with the language or the
    name masking (see :func:`keep_choices`)."""
    _CHOICES.add(key)
    return key


def keep_choices() -> None:
    """Keep what each choice widget shows chosen when its labels change.

    Streamlit keeps a choice widget's state as the label it showed. After a switch of the
    language (or of the name masking) that label is none of the new options, and the widget's
    value became the old label itself: the replayer's autoplay speed read "1 s pro Schritt"
    and the page stopped with an error. So when the labels change, before any widget is drawn,
    every registered choice is set again to its value (read through the labels it was shown
    with): the widget then shows the same choice in the new labels. Called once per run, at
    the start (``dashboard/app.py``)."""
    ss = st.session_state
    labels = (lang(), names_masked())
    before = ss.get("_choice_labels")
    ss["_choice_labels"] = labels
    if before is None or tuple(before) == labels:
        return
    for key in sorted(_CHOICES):
        if key in ss:
            ss[key] = ss[key]


def url_selectbox(
    label: str,
    options: list[str],
    *,
    param: str,
    key: str,
    format_func: Callable[[str], str] = str,
    default: str | None = None,
    on_change: Callable[[], None] | None = None,
    container: Any = None,
    **kwargs: Any,
) -> str | None:
    """A selectbox whose value is the URL query parameter ``param`` (a deep link).

    Streamlit's ``bind="query-params"`` matches the URL against the *displayed* labels, so a
    selectbox showing readable labels for ids (hands) is synced by hand here: a URL value that
    is one of ``options`` (validated, never used otherwise) selects it; the selection is
    written back to the URL.
    """
    choice(key)
    url_val = st.query_params.get(param)
    seen_key = f"_url_seen_{key}"
    if url_val is not None and url_val != st.session_state.get(seen_key) and url_val in options:
        st.session_state[key] = url_val
    elif st.session_state.get(key) not in options:
        st.session_state[key] = default if default in options else None
    value: str | None = (container or st).selectbox(
        label, options, key=key, format_func=format_func, on_change=on_change, **kwargs
    )
    if value is None:
        if param in st.query_params:
            del st.query_params[param]
    elif st.query_params.get(param) != value:
        st.query_params[param] = value
    st.session_state[seen_key] = value
    return value


def _marked(rows: list[dict[str, Any]], column: str) -> Any:
    """Score rows as a table whose differing rows are red, marked ``✖`` in ``column``
    (was a checkbox, which a differing row was easy to miss by). Without a differing row the
    plain table: a styled one costs the server about 0.1 s to send, on every hand opened."""
    import pandas as pd

    df = pd.DataFrame(rows)
    flags = df[column].astype(bool).tolist()
    df[column] = [f"✖ {column}" if f else "" for f in flags]
    if not any(flags):
        return df
    return df.style.apply(
        lambda row: ["background-color: #ffcdd2" if flags[row.name] else ""] * len(row), axis=1
    )


def pager(key: str, total: int, size: int) -> int:
    """Page controls for a list of ``total`` rows shown ``size`` at a time (the page number is
    kept in ``st.session_state[key]``); the offset of the page to show. Only that page is
    fetched from the database and sent to the browser."""
    pages = max(1, -(-total // size))
    if not 1 <= int(st.session_state.get(key, 1) or 1) <= pages:
        st.session_state[key] = 1
    page = 1
    if pages > 1:
        page = int(st.number_input(tr("Page (of {n})", n=pages), 1, pages, step=1, key=key))
    offset = (page - 1) * size
    if total > size:
        st.caption(tr("rows {a}–{b} of {n}", a=offset + 1, b=min(offset + size, total), n=total))
    return offset


def score_table(view: HandView, players: list[str]) -> None:
    """Recorded vs recomputed, item by item: the differing items are listed in red above the
    table, and their rows are red and marked ✖ in it; then the totals per player. Labels in the
    interface language, the score items in the game's words."""
    from tarock_logs.report.text import score_item_name

    game = view.game
    rows = score_lines(view, players)
    if rows:
        bad = [r for r in rows if r["differs"]]
        if bad:
            st.error(
                "**"
                + tr("Score differences")
                + "** — "
                + "; ".join(
                    tr(
                        "{item} ({who}): recorded {recorded}, recomputed {recomputed}",
                        item=md_text(score_item_name(r["item"], game, lang=lang())),
                        who=md_text(
                            r["who"] if r["who"] != "declarer side" else tr("declarer side")
                        ),
                        recorded=_dash(r["recorded"]),
                        recomputed=_dash(r["recomputed"]),
                    )
                    for r in bad
                ),
                icon=":material/block:",
            )
        shown = [
            {
                tr("item"): score_item_name(r["item"], game, lang=lang()),
                tr("who"): r["who"] if r["who"] != "declarer side" else tr("declarer side"),
                tr("recorded"): _dash(r["recorded"]),
                tr("recomputed"): _dash(r["recomputed"]),
                tr("difference"): _dash(r["delta"]),
                tr("differs"): r["differs"],
            }
            for r in rows
        ]
        st.dataframe(_marked(shown, tr("differs")), hide_index=True, width="stretch")
    else:
        st.caption(tr("No itemised score stored for this hand."))
    totals = total_lines(view, players)
    if totals:
        shown_totals = [
            {
                tr("player"): r["player"],
                tr("recorded"): _dash(r["recorded"]),
                tr("recomputed"): _dash(r["recomputed"]),
                tr("differs"): r["differs"],
            }
            for r in totals
        ]
        st.dataframe(_marked(shown_totals, tr("differs")), hide_index=True)


def _dash(value: Any) -> Any:
    """A number as it is; a missing one as an en dash (never ``None`` on a page). Numbers stay
    numbers, so a column with a missing value is shown as text."""
    return "—" if value is None else value
