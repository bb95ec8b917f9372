"""Tournament: standings recomputed from the logs beside the recorded ones.

Per round and table: the round score (sum of the hands), the table average and the placement
points (5-4-3-2 … by place at the table); then the final ranking (placement points plus
tournament-point penalties, ties broken by the sum of deviations from the table average).
Differences between what the scorer recorded and what the logs give are highlighted.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import view_model as vm
from dashboard.state import data, masked, require_db, tr, trn
from dashboard.view_model import md_text as md
from tarock_logs.store import queries as q

#: the column headers of the tables below, by their label ids
HEADERS = {
    "round": "round",
    "table": "table",
    "session": "session",
    "player": "player",
    "recorded score": "recorded score",
    "recomputed score": "recomputed score",
    "table average": "table average",
    "recorded points": "recorded points",
    "recomputed points": "recomputed points",
    "item": "item",
    "recorded": "recorded",
    "recomputed": "recomputed",
    "delta": "difference",
    "seat": "seat",
    "message": "message",
}


def _header(column: str) -> str:
    return tr(HEADERS[column]) if column in HEADERS else column


require_db()
st.title(tr("Tournament"))
tids: list[str] = data(q.tournaments)
if not tids:
    st.info(tr("No session in the database names a tournament (`event.tournament`)."))
    st.stop()

tid = st.selectbox(tr("Tournament"), tids, key="tournament", bind="query-params")
with st.spinner(tr("Recomputing the standings from the logs…")):
    report = data(vm.tournament_report, tid)
if report is None:
    st.error(tr("Unknown tournament."))
    st.stop()
t = report["tournament"]
st.caption(
    f"{md(t['game'])} · "
    + tr("ruleset {ruleset}", ruleset=md(t["ruleset"]))
    + " · "
    + tr("rounds {rounds}", rounds=", ".join(map(str, t["rounds"])) or "—")
    + " · "
    + trn("{n} table", "{n} tables", len(t["sessions"]))
)


def _highlight(cols: tuple[str, str]):  # type: ignore[no-untyped-def]
    a, b = cols

    def fn(r):  # type: ignore[no-untyped-def]
        differs = (
            r[a] is not None and r[b] is not None and r[a] == r[a] and r[b] == r[b] and r[a] != r[b]
        )
        return ["background-color: #ffcdd2" if differs and c in cols else "" for c in r.index]

    return fn


st.subheader(tr("Final ranking (recomputed)"))
rows = []
for s in t["standings"]:
    row = {
        tr("rank"): s["rank"],
        tr("player"): masked(s["name"]),
        "id": s["player"],
        tr("total"): s["total"],
        tr("placement points"): s["placement_points"],
        tr("penalties"): s["penalties"],
        tr("deviation"): s["deviation"],
    }
    for rnd, r in s["rounds"].items():
        row[tr("R{n} score", n=rnd)] = r.get("score")
        row[tr("R{n} points", n=rnd)] = r.get("placement_points")
        row[tr("R{n} recorded points", n=rnd)] = r.get("recorded_placement_points")
    rows.append(row)
ranking = pl.DataFrame(rows, strict=False)
if st.session_state.get("mask_names"):
    ranking = ranking.drop("id")  # ids may be names too
ranking = ranking.to_pandas()
styled = ranking.style.format(precision=2, na_rep="—")
for rnd in t["rounds"]:
    pair = (tr("R{n} points", n=rnd), tr("R{n} recorded points", n=rnd))
    if pair[1] in ranking.columns:
        styled = styled.apply(_highlight(pair), axis=1)
st.dataframe(styled, hide_index=True, width="stretch")
st.caption(tr("Highlighted: the recorded figure differs from the one recomputed from the logs."))
for u in t["unverified"]:
    st.warning(md(u))

st.subheader(tr("Rounds and tables: recorded vs recomputed"))
tables = pl.DataFrame(report["tables"], strict=False, infer_schema_length=None)
if not tables.is_empty():
    # masked here, in the script's thread (a polars callback runs in other threads, where
    # Streamlit's session state is not there: one warning per row)
    tables = tables.with_columns(
        pl.Series("player", [masked(p) for p in tables["player"].to_list()], dtype=pl.String)
    )
    shown = tables.drop("player_id").rename(_header).to_pandas()
    styled = (
        shown.style.apply(_highlight((tr("recorded score"), tr("recomputed score"))), axis=1)
        .apply(_highlight((tr("recorded points"), tr("recomputed points"))), axis=1)
        .format(precision=2, na_rep="—")
    )
    st.dataframe(styled, hide_index=True, width="stretch")

if t["discrepancies"]:
    st.subheader(tr("Placement-point differences"))
    diffs = pl.DataFrame(t["discrepancies"], strict=False)
    if "player" in diffs.columns:
        ids_to_names = {r["player_id"]: r["player"] for r in report["tables"]}
        diffs = diffs.with_columns(
            pl.Series(
                "player",
                [masked(ids_to_names.get(p, p)) for p in diffs["player"].to_list()],
                dtype=pl.String,
            )
        )
    st.dataframe(diffs.rename(_header), hide_index=True, width="stretch")
else:
    st.success(tr("Recorded placement points agree with the recomputed ones."))
