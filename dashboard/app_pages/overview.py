"""Overview: what the database holds and where the findings are."""

from __future__ import annotations

import streamlit as st

from dashboard.state import data, require_db, tr
from dashboard.view_model import md_text as md
from tarock_logs.store.read import queries as q

path, _ = require_db()
st.title("tarock-logs")
st.caption(tr("Database: {name} (read-only)", name=md(path.name)))
counts = data(q.overview)
cols = st.columns(4)
cols[0].metric(tr("Sessions"), counts["sessions"])
cols[1].metric(tr("Hands"), counts["hands"])
cols[2].metric(tr("Players"), counts["players"])
cols[3].metric(tr("Rejected records"), counts["rejects"])
findings = st.columns(3)
findings[0].metric(tr("Hands with illegal actions"), counts["illegal"])
findings[1].metric(tr("Hands with score differences"), counts["discrepancy"])
findings[2].metric(tr("Hands not fully verified"), counts["unverified"])
beyond = st.columns(3)
beyond[0].metric(tr("Sessions with score differences"), counts["session_discrepancy"])
beyond[1].metric(tr("Tournament findings"), counts["tournament_findings"])
beyond[2].metric(
    tr("Hands verified / partial / unverified"),
    f"{counts['hands_verified']} / {counts['hands_partial']} / {counts['hands_unverified']}",
)

st.page_link(
    "app_pages/audit.py", label=tr("Audit: every hand with findings"), icon=":material/gavel:"
)
st.page_link(
    "app_pages/replay.py", label=tr("Replay a hand action by action"), icon=":material/play_circle:"
)
st.page_link("app_pages/players.py", label=tr("Player statistics"), icon=":material/bar_chart:")
st.page_link(
    "app_pages/tournament.py", label=tr("Tournament standings"), icon=":material/emoji_events:"
)

if counts["rejects"]:
    with st.expander(
        tr("Rejected records ({n}): not stored, with the first error", n=counts["rejects"])
    ):
        headers = {
            "file": tr("file"), "line": tr("line"), "session": tr("session"),
            "hand": tr("hand"), "first_code": tr("first error code"), "n_errors": tr("errors"),
        }  # fmt: skip
        st.dataframe(data(q.rejects).rename(headers), hide_index=True, width="stretch")
        st.caption(tr("`tarock validate FILE` lists every error of a file with its location."))
