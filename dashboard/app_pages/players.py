"""Players: the library's statistics (:mod:`tarock_logs.store.stats`) per player and per role
(declarer; partner = the holder of the called king; defender), charts once a sample is large
enough, and a drill-down from a figure to the hands behind it (each linking to the replay),
with a CSV export of those hands.

Select a row of the "per role" or "per contract" table to drill down to its hands.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl
import streamlit as st

from dashboard.state import data, masked, require_db
from dashboard.view_model import md_text as md
from tarock_logs.store import queries as q
from tarock_logs.store.stats import MIN_SAMPLE

require_db()
st.title("Players")
fv: dict[str, Any] = data(q.filter_values)
if not fv["players"]:
    st.info("No players in the database yet.")
    st.stop()
names: dict[str, str] = fv["players"]

with st.sidebar:
    st.header("Filters")
    with st.form("player_filters"):
        game = st.selectbox("Game", fv["games"], index=None, placeholder="all")
        event = st.selectbox("Event", fv["events"], index=None, placeholder="all")
        lo, hi = fv["date_min"], fv["date_max"]
        span = st.date_input("Dates", value=(lo, hi), min_value=lo, max_value=hi) if lo else ()
        player = st.selectbox(
            "Player",
            list(names),
            index=None,
            placeholder="everyone",
            format_func=lambda p: masked(names.get(p) or p),
        )
        st.form_submit_button("Apply")

d_from = span[0] if isinstance(span, (tuple, list)) and len(span) > 0 else None
d_to = span[1] if isinstance(span, (tuple, list)) and len(span) > 1 else None
if (d_from, d_to) == (lo, hi):  # the full range: keep the sessions without a date too
    d_from = d_to = None
filters = (game, event, d_from, d_to, player)


def _named(frame: pl.DataFrame, *cols: str) -> pl.DataFrame:
    """Player-name columns, masked when the sidebar toggle is on."""
    return frame.with_columns(
        pl.col(c).fill_null("").map_elements(masked, return_dtype=pl.String) for c in cols
    )


def _section(name: str) -> pl.DataFrame:
    out: pl.DataFrame = data(q.stats_section, name, filters)
    return out.with_columns(pl.col(pl.Float64).round(2))


# ------------------------------------------------------------------ per player
per_player = _section("players")
st.caption(
    f"{per_player.height} players match the filters. Rates are charted from {MIN_SAMPLE} hands on."
)
if per_player.is_empty():
    st.stop()
st.subheader("Per player")
st.dataframe(_named(per_player, "name").drop("player_id"), hide_index=True, width="stretch")

st.subheader("Per player and role")
roles = _named(_section("roles"), "name")
st.dataframe(
    roles.drop("player_id"),
    hide_index=True,
    width="stretch",
    key="roles_table",
    on_select="rerun",
    selection_mode="single-row",
)

c1, c2 = st.columns(2)
with c1:
    st.markdown("**Score over time** (cumulative, per session)")
    sot = _named(_section("time"), "name")
    counts = sot.group_by("player_id").agg(pl.col("hands").sum())
    ok = counts.filter(pl.col("hands") >= MIN_SAMPLE)["player_id"].to_list()
    if ok:
        chart = sot.filter(pl.col("player_id").is_in(ok)).with_columns(
            pl.int_range(1, pl.len() + 1).over("player_id").alias("session no")
        )
        st.line_chart(chart, x="session no", y="cumulative", color="name")
    else:
        st.caption(f"No player has {MIN_SAMPLE} hands in the selection yet.")
contracts = _section("contracts")
with c2:
    st.markdown("**Contract mix**" + (" (declared by the player)" if player else ""))
    if contracts.height and contracts["played"].sum() >= MIN_SAMPLE:
        st.bar_chart(contracts, x="contract", y="played")
    else:
        st.caption(f"Fewer than {MIN_SAMPLE} hands in the selection.")

st.subheader("Success by contract")
charted = contracts.filter(pl.col("enough") & pl.col("win_rate").is_not_null())
if charted.height:
    st.bar_chart(charted, x="contract", y="win_rate")
st.dataframe(
    contracts,
    hide_index=True,
    width="stretch",
    key="contracts_table",
    on_select="rerun",
    selection_mode="single-row",
)

st.subheader("Partner synergy")
syn = _section("synergy")
if syn.height:
    st.dataframe(
        _named(syn, "name_a", "name_b").drop("player_a", "player_b"),
        hide_index=True,
        width="stretch",
    )
else:
    st.caption("No pair played on the same side in the selection.")

b1, b2 = st.columns(2)
with b1:
    st.markdown("**Announcements** (bonuses announced and made)")
    st.dataframe(
        _named(_section("bonuses"), "name").drop("player_id"), hide_index=True, width="stretch"
    )
with b2:
    st.markdown("**Kontras** (given and successful)")
    st.dataframe(
        _named(_section("kontras"), "name").drop("player_id"), hide_index=True, width="stretch"
    )

# ------------------------------------------------------------------ drill-down
st.subheader("The hands behind a figure")
drill_player, drill_role, drill_contract = player, None, None
sel_roles = st.session_state.get("roles_table")
if sel_roles and sel_roles.selection.rows:
    row = _section("roles").row(sel_roles.selection.rows[0], named=True)
    drill_player, drill_role = row["player_id"], row["role"]
sel_contracts = st.session_state.get("contracts_table")
if sel_contracts and sel_contracts.selection.rows:
    drill_contract = contracts.row(sel_contracts.selection.rows[0], named=True)["contract"]
    if drill_role is None:
        drill_role = "declarer"
outcome = st.segmented_control("Outcome", ["won", "lost"], key="dd_won", selection_mode="single")
drill: list[tuple[str, Any]] = []
if drill_role:
    drill.append(("role", drill_role))
if drill_contract:
    drill.append(("contract", drill_contract))
if outcome:
    drill.append(("won", outcome == "won"))
d_filters = (game, event, d_from, d_to, drill_player)
hands: pl.DataFrame = data(q.drill_hands, d_filters, tuple(drill))
what = ", ".join(
    x
    for x in (
        masked(names.get(drill_player, drill_player)) if drill_player else "everyone",
        drill_role,
        drill_contract,
        outcome,
    )
    if x
)
st.caption(
    f"{hands['hand_id'].n_unique()} hands ({hands.height} seats): {md(what)}. "
    "Select a row above to narrow."
)
shown = hands.with_columns(
    pl.col("player_id").replace_strict(names, default=pl.col("player_id")).alias("player"),
    pl.col("date").cast(pl.String),
)
shown = _named(shown, "player").select(
    "session_id", "number", "date", "player", "seat", "role", "contract", "score", "won", "replay"
)
st.dataframe(
    shown,
    hide_index=True,
    width="stretch",
    column_config={"replay": st.column_config.LinkColumn("replay", display_text="open")},
)
st.download_button(
    "Download these hands (CSV)",
    shown.write_csv(),
    file_name=f"hands-{dt.date.today()}.csv",
    mime="text/csv",
    icon=":material/download:",
)
