"""Players: statistics per player and role (declarer, partner = the holder of the called king,
defender), charts once a sample is large enough, and a drill-down from a figure to the hands
behind it (each linking to the replay), with a CSV export of the filtered hands.
"""

from __future__ import annotations

import datetime as dt

import polars as pl
import streamlit as st

from dashboard.state import data, masked, require_db
from tarock_logs import dashboard_data as dd

require_db()
st.title("Players")
base: pl.DataFrame = data("player_hands")
if base.is_empty():
    st.info("No scored hands in the database yet.")
    st.stop()


def _opts(col: str) -> list[str]:
    return sorted({str(x) for x in base[col].to_list() if x is not None})


with st.sidebar:
    st.header("Filters")
    with st.form("player_filters"):
        game = st.selectbox("Game", _opts("game"), index=None, placeholder="all")
        event = st.selectbox("Event", _opts("event"), index=None, placeholder="all")
        dates = [d for d in base["date"].to_list() if d is not None]
        lo, hi = (min(dates), max(dates)) if dates else (None, None)
        span = st.date_input("Dates", value=(lo, hi) if lo else (), min_value=lo, max_value=hi) if lo else ()
        who = st.multiselect("Players", _opts("player"), format_func=masked, placeholder="everyone")
        st.form_submit_button("Apply")

d_from = span[0] if isinstance(span, (tuple, list)) and len(span) > 0 else None
d_to = span[1] if isinstance(span, (tuple, list)) and len(span) > 1 else None
if (d_from, d_to) == (lo, hi):  # the full range: keep the hands without a date too
    d_from = d_to = None
df = dd.filter_player_hands(base, game=game, event=event, date_from=d_from, date_to=d_to, players=who)
st.caption(f"{df['hand_id'].n_unique()} hands, {df['player'].n_unique()} players match the filters. "
           f"Rates are charted from {dd.MIN_SAMPLE} hands on.")  # fmt: skip
if df.is_empty():
    st.stop()


def _mask(frame: pl.DataFrame, *cols: str) -> pl.DataFrame:
    if not st.session_state.get("mask_names"):
        return frame
    return frame.with_columns(pl.col(c).map_elements(masked, return_dtype=pl.String) for c in cols)


st.subheader("Per player and role")
roles = dd.per_player_role(df)
st.dataframe(_mask(roles, "player"), hide_index=True, width="stretch")

c1, c2 = st.columns(2)
with c1:
    st.markdown("**Score over time** (cumulative)")
    sot = _mask(dd.score_over_time(df), "player")
    counts = sot.group_by("player").len()
    ok = counts.filter(pl.col("len") >= dd.MIN_SAMPLE)["player"].to_list()
    if ok:
        st.line_chart(sot.filter(pl.col("player").is_in(ok)), x="hand no", y="cumulative", color="player")
    else:
        st.caption(f"No player has {dd.MIN_SAMPLE} hands in the selection yet.")
with c2:
    st.markdown("**Contract mix** (as declarer)")
    mix = _mask(dd.contract_mix(df), "player")
    if mix.height and mix["hands"].sum() >= dd.MIN_SAMPLE:
        st.bar_chart(mix, x="contract", y="hands", color="player")
    else:
        st.caption(f"Fewer than {dd.MIN_SAMPLE} declared hands in the selection.")
    st.dataframe(mix, hide_index=True, width="stretch", height=160)

st.subheader("Success by contract")
sbc = dd.success_by_contract(df)
charted = sbc.filter(pl.col("enough"))
if charted.height:
    st.bar_chart(charted, x="contract", y="win rate")
st.dataframe(sbc, hide_index=True, width="stretch")

st.subheader("Partner synergy")
syn = dd.partner_synergy(df)
if syn.height:
    st.dataframe(_mask(syn, "player", "partner"), hide_index=True, width="stretch")
else:
    st.caption("No pair has played on the declarer's side together in the selection.")

# ------------------------------------------------------------------ drill-down
st.subheader("The hands behind a figure")
d1, d2, d3 = st.columns(3)
p_sel = d1.selectbox("Player", sorted(df["player"].unique().to_list()), index=None, format_func=masked,
                     key="dd_player", placeholder="any")  # fmt: skip
r_sel = d2.selectbox("Role", sorted(df["role"].unique().to_list()), index=None, key="dd_role", placeholder="any")
c_sel = d3.selectbox("Contract", sorted(x for x in df["contract"].unique().to_list() if x), index=None,
                     key="dd_contract", placeholder="any")  # fmt: skip
hands = dd.drill_down(df, player=p_sel, role=r_sel, contract=c_sel)
hands = _mask(hands, "player").with_columns(
    pl.col("date").cast(pl.String),
    pl.format("/replay?hand={}&step=0&seat=all", pl.col("hand_id")).alias("replay"),
)
st.caption(f"{hands.height} rows")
st.dataframe(
    hands.drop("hand_id"), hide_index=True, width="stretch",
    column_config={"replay": st.column_config.LinkColumn("replay", display_text="open")},
)  # fmt: skip
st.download_button(
    "Download these hands (CSV)", hands.write_csv(), file_name=f"hands-{dt.date.today()}.csv",
    mime="text/csv", icon=":material/download:",
)  # fmt: skip
