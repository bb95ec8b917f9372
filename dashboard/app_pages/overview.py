"""Overview: what the database holds and where the findings are."""

from __future__ import annotations

import streamlit as st

from dashboard.state import data, require_db
from dashboard.view_model import md_text as md
from tarock_logs.store import queries as q

path, _ = require_db()
st.title("tarock-logs")
st.caption(f"Database: {md(path.name)} (read-only)")
counts = data(q.overview)
cols = st.columns(4)
cols[0].metric("Sessions", counts["sessions"])
cols[1].metric("Hands", counts["hands"])
cols[2].metric("Players", counts["players"])
cols[3].metric("Rejected records", counts["rejects"])
findings = st.columns(3)
findings[0].metric("Hands with illegal actions", counts["illegal"])
findings[1].metric("Hands with score differences", counts["discrepancy"])
findings[2].metric("Hands not fully verified", counts["unverified"])

st.page_link("app_pages/audit.py", label="Audit: every hand with findings", icon=":material/gavel:")
st.page_link(
    "app_pages/replay.py", label="Replay a hand action by action", icon=":material/play_circle:"
)
st.page_link("app_pages/players.py", label="Player statistics", icon=":material/bar_chart:")
st.page_link(
    "app_pages/tournament.py", label="Tournament standings", icon=":material/emoji_events:"
)

if counts["rejects"]:
    with st.expander(f"Rejected records ({counts['rejects']}): not stored, with the first error"):
        st.dataframe(data(q.rejects), hide_index=True, width="stretch")
        st.caption("`tarock validate FILE` lists every error of a file with its location.")
