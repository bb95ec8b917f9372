"""The tarock-logs dashboard: ``tarock dashboard --db FILE`` serves this script.

It calls ``st.navigation`` once and runs the chosen page. Replay and audit are *not* the
default page, so their deep links (``/replay?hand=…&step=…&seat=…``) resolve.

Nothing is fetched from any other host: the icons (``:material/…:``) are drawn with the font
Streamlit serves itself, and the browser tab's icon is drawn here (a ``:material/…:`` page
icon would be loaded from fonts.gstatic.com). The app's own configuration
(``dashboard/.streamlit/config.toml``) turns Streamlit's usage statistics off however the
script is started.

A public server (``tarock dashboard --access public``) shows its visitors the public view and
its referees, once logged in, everything (:mod:`dashboard.access`): the page list is built
for the visitor, so the public view has no entry page at all.

A store that cannot be read while serving (replaced by a bad file, truncated, vanished) gives
a visitor a plain message in the page's language, never a traceback (the server's log keeps
the details; ``client.showErrorDetails`` is off for any other error).
"""

from __future__ import annotations

import duckdb
import streamlit as st

from dashboard.access import is_referee
from dashboard.state import (
    begin_run,
    end_run,
    favicon,
    keep_choices,
    resolve_lang,
    sidebar_common,
    store_unreadable,
    tr,
)

st.set_page_config(page_title="tarock-logs", page_icon=favicon(), layout="wide")
resolve_lang()  # before the page titles: they are in the interface language
begin_run()  # the store version the whole page run reads (the sidebar's queries too)
keep_choices()  # what the choice widgets show chosen, kept when their labels change

PAGES = [
    st.Page("app_pages/overview.py", title=tr("Overview"), icon=":material/home:", default=True),
    st.Page("app_pages/audit.py", title=tr("Audit"), icon=":material/gavel:", url_path="audit"),
    st.Page(
        "app_pages/replay.py", title=tr("Replay"), icon=":material/play_circle:", url_path="replay"
    ),
    st.Page(
        "app_pages/players.py",
        title=tr("Players"),
        icon=":material/bar_chart:",
        url_path="players",
    ),
    st.Page(
        "app_pages/tournament.py",
        title=tr("Tournament"),
        icon=":material/emoji_events:",
        url_path="tournament",
    ),
]
if is_referee():  # the public view has no hand entry (dashboard/access.py)
    PAGES.append(
        st.Page(
            "app_pages/enter.py",
            title=tr("Enter a hand"),
            icon=":material/edit_note:",
            url_path="enter",
        )
    )

page = st.navigation(PAGES)
finished = False
try:
    sidebar_common()
    page.run()
    finished = True
except (duckdb.Error, OSError) as exc:  # the store turned bad or vanished while serving
    store_unreadable(exc)
finally:  # also when the run is stopped or restarted: the version is released
    end_run(finished=finished)
