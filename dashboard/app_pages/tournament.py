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
from dashboard.state import data, masked, require_db
from dashboard.view_model import md_text as md
from tarock_logs.store import queries as q

require_db()
st.title("Tournament")
tids: list[str] = data(q.tournaments)
if not tids:
    st.info("No session in the database names a tournament (`event.tournament`).")
    st.stop()

tid = st.selectbox("Tournament", tids, key="tournament", bind="query-params")
with st.spinner("Recomputing the standings from the logs…"):
    report = data(vm.tournament_report, tid)
if report is None:
    st.error("Unknown tournament.")
    st.stop()
t = report["tournament"]
st.caption(
    f"{md(t['game'])} · ruleset {md(t['ruleset'])} · "
    f"rounds {', '.join(map(str, t['rounds'])) or '—'} · {len(t['sessions'])} tables"
)


def _highlight(cols: tuple[str, str]):  # type: ignore[no-untyped-def]
    a, b = cols

    def fn(r):  # type: ignore[no-untyped-def]
        differs = (
            r[a] is not None and r[b] is not None and r[a] == r[a] and r[b] == r[b] and r[a] != r[b]
        )
        return ["background-color: #ffcdd2" if differs and c in cols else "" for c in r.index]

    return fn


st.subheader("Final ranking (recomputed)")
rows = []
for s in t["standings"]:
    row = {
        "rank": s["rank"],
        "player": masked(s["name"]),
        "id": s["player"],
        "total": s["total"],
        "placement points": s["placement_points"],
        "penalties": s["penalties"],
        "deviation": s["deviation"],
    }
    for rnd, r in s["rounds"].items():
        row[f"R{rnd} score"] = r.get("score")
        row[f"R{rnd} points"] = r.get("placement_points")
        row[f"R{rnd} recorded points"] = r.get("recorded_placement_points")
    rows.append(row)
ranking = pl.DataFrame(rows, strict=False)
if st.session_state.get("mask_names"):
    ranking = ranking.drop("id")  # ids may be names too
ranking = ranking.to_pandas()
styled = ranking.style.format(precision=2, na_rep="—")
for rnd in t["rounds"]:
    if f"R{rnd} recorded points" in ranking.columns:
        styled = styled.apply(_highlight((f"R{rnd} points", f"R{rnd} recorded points")), axis=1)
st.dataframe(styled, hide_index=True, width="stretch")
st.caption("Highlighted: the recorded figure differs from the one recomputed from the logs.")
for u in t["unverified"]:
    st.warning(md(u))

st.subheader("Rounds and tables: recorded vs recomputed")
tables = pl.DataFrame(report["tables"], strict=False, infer_schema_length=None)
if not tables.is_empty():
    tables = tables.with_columns(pl.col("player").map_elements(masked, return_dtype=pl.String))
    shown = tables.drop("player_id").to_pandas()
    styled = (
        shown.style.apply(_highlight(("recorded score", "recomputed score")), axis=1)
        .apply(_highlight(("recorded points", "recomputed points")), axis=1)
        .format(precision=2, na_rep="—")
    )
    st.dataframe(styled, hide_index=True, width="stretch")

if t["discrepancies"]:
    st.subheader("Placement-point differences")
    diffs = pl.DataFrame(t["discrepancies"], strict=False)
    if "player" in diffs.columns:
        ids_to_names = {r["player_id"]: r["player"] for r in report["tables"]}
        diffs = diffs.with_columns(
            pl.col("player").map_elements(
                lambda p: masked(ids_to_names.get(p, p)), return_dtype=pl.String
            )
        )
    st.dataframe(diffs, hide_index=True, width="stretch")
else:
    st.success("Recorded placement points agree with the recomputed ones.")
