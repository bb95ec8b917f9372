"""Audit: every hand with findings, its verdicts with the rules they cite, the score item by item,
a link to the replay at the offending action and the HTML dispute dossier.

Findings: an *illegal* action (the engine's verdict, citing a ruleset section), a score
*discrepancy* (recorded ≠ recomputed for an item) or an *unverified* item (not checkable).
Deep link: ``/audit?hand=<hand_id>``.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import view_model as vm
from dashboard.state import data, hand_view, masked, require_db, score_table, url_selectbox
from dashboard.view_model import md_text as md
from tarock_logs.store import queries as q

require_db()
st.title("Audit")
index: pl.DataFrame = data(q.hands_index)


def _opts(col: str) -> list[str]:
    return sorted({str(x) for x in index[col].to_list() if x is not None})


with st.sidebar:
    st.header("Filters")
    event = st.selectbox("Event", _opts("event"), index=None, key="f_event", placeholder="all")
    rnd = st.selectbox("Round", _opts("round"), index=None, key="f_round", placeholder="all")
    table = st.selectbox("Table", _opts("table"), index=None, key="f_table", placeholder="all")
    all_players = sorted({p for ps in index["players"].to_list() for p in (ps or [])})
    player = st.selectbox(
        "Player", all_players, index=None, key="f_player", placeholder="all", format_func=masked
    )
    game = st.selectbox("Game", _opts("game"), index=None, key="f_game", placeholder="all")
    kinds = st.multiselect(
        "Kind of finding", list(q.FINDING_KINDS), key="f_kinds", placeholder="any finding"
    )

found = q.filter_hands(
    index,
    event=event,
    round=int(rnd) if rnd else None,
    table=table,
    player=player,
    game=game,
    kinds=kinds,
    findings_only=True,
)
st.caption(f"{len(found)} of {len(index)} hands have findings matching the filters.")


def _open_selected() -> None:
    """A row picked in the findings table opens that hand below."""
    sel = st.session_state.get("findings_table")
    if sel and sel.selection.rows:
        st.session_state["audit_hand"] = found["hand_id"][sel.selection.rows[0]]


if found.is_empty():
    st.success("No hand with findings matches the filters.")
else:
    show = found.select(
        "label",
        "event",
        "round",
        "table",
        "game",
        "contract",
        "n_violations",
        "n_discrepancies",
        "unverified",
    ).rename(
        {"label": "hand", "n_violations": "illegal actions", "n_discrepancies": "score differences"}
    )
    st.dataframe(
        show,
        hide_index=True,
        width="stretch",
        height=min(400, 38 + 35 * len(show)),
        key="findings_table",
        on_select=_open_selected,
        selection_mode="single-row",
    )
    st.caption("Select a row to see the hand's verdicts.")

ids = found["hand_id"].to_list()
labels = dict(zip(found["hand_id"].to_list(), found["label"].to_list(), strict=True))
options = list(ids)
url_hand = st.query_params.get("hand")
if url_hand and url_hand not in labels and data(q.hand_exists, url_hand):
    options.insert(0, url_hand)  # a deep link to a hand without findings, or filtered out
    row = index.filter(pl.col("hand_id") == url_hand)
    labels[url_hand] = (
        row["label"][0] if row.height else url_hand
    ) + " (no finding / filtered out)"
hand_id = url_selectbox(
    "Hand",
    options,
    param="hand",
    key="audit_hand",
    format_func=lambda h: labels.get(h, h),
    placeholder="Select a hand to see its verdicts",
)
if not hand_id:
    st.stop()

view = hand_view(hand_id)
if view is None:
    st.error("Unknown hand.")
    st.stop()
players = [masked(p) for p in view.players]
st.subheader(f"{md(view.session_id)} · hand {view.number}", anchor=False)
st.caption(f"hand id {md(hand_id)} · {md(view.game)} · ruleset {md(view.ruleset)}")

# ------------------------------------------------------------------ verdicts
st.markdown("#### Verdicts")
if view.violations:
    for v in view.violations:
        ai = v.get("action_index")
        seat = v.get("seat")
        who = players[seat] if seat is not None and seat < len(players) else "—"
        where = f"action {ai}" if ai is not None else "hand"
        text = (
            f"**{where}** · {md(who)}: {md(v['message'])}  \n"
            f"Rule: **{md(v.get('rule') or '—')}** · {md(v['code'])}"
        )
        (st.error if v.get("severity") == "error" else st.warning)(text)
        if ai is not None:
            st.page_link(
                "app_pages/replay.py",
                label=f"Replay at action {ai}",
                icon=":material/play_circle:",
                query_params={"hand": hand_id, "step": str(ai + 1), "seat": "all"},
            )
else:
    st.success("Every action is legal.")
for u in view.unverified:
    st.warning(f"Unverified: {md(u)}")

# ------------------------------------------------------------------ score
st.markdown("#### Score: recorded vs recomputed")
score_table(view, players)

# ------------------------------------------------------------------ links and dossier
c1, c2 = st.columns(2)
first = view.first_problem_step()
c1.page_link(
    "app_pages/replay.py",
    label="Open in the replay viewer" + (" at the first problem" if first else ""),
    icon=":material/play_circle:",
    query_params={"hand": hand_id, "step": str(first or 0), "seat": "all"},
)
try:
    html = vm.dossier_html(view, masked if st.session_state.get("mask_names") else None)
except Exception as exc:  # noqa: BLE001 - the page stays usable without the dossier
    c2.warning(f"Dossier not available: {md(exc)}")
else:
    c2.download_button(
        "Download the dispute dossier (HTML)",
        html,
        file_name=f"dossier-{view.session_id}-{view.number}.html",
        mime="text/html",
        icon=":material/download:",
    )
