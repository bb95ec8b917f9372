"""Tournament: standings recomputed from the logs beside the recorded ones.

Per round and table: the round score (sum of the hands), the table average and the placement
points (5-4-3-2 … by place at the table); then the final ranking (placement points plus
tournament-point penalties, ties broken by the sum of deviations from the table average), the
cross-table (who met whom: per player and round, the table, the opponents and the placement
points earned) and the printable standings (an HTML page of the ranking and the cross-table in
the page's language). Numbers as people write them (``12``, ``4.5``); players by name.
Differences between what the scorer recorded and what the logs give are highlighted; each
differing session links to its score sheet on the Audit page.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard import duplicate_model as dm
from dashboard import view_model as vm
from dashboard.state import data, lang, masked, names_masked, require_db, tr, trn
from dashboard.view_model import md_text as md
from tarock_logs.report.i18n import number
from tarock_logs.store.read import queries as q

#: the column headers of the tables below, by their label ids
HEADERS = {
    "round": "round",
    "table": "table",
    "player": "player",
    "recorded score": "recorded score",
    "recomputed score": "recomputed score",
    "table average": "table average",
    "recorded points": "recorded points",
    "recomputed points": "recomputed points",
    "delta": "difference",
    "opponents": "opponents",
    "placement points": "placement points",
}
#: the colour of a cell whose recorded figure differs from the recomputed one
DIFFERS = "background-color: #ffcdd2"


def _header(column: str) -> str:
    return tr(HEADERS[column]) if column in HEADERS else column


def _pts(v: Any) -> str:
    """Placement points as people write them (``12``, ``4.5``; ``—`` for none)."""
    return vm.points_shown(v, lang())


def _num(v: Any, signed: bool = False) -> str:
    """A score, an average or a deviation in the reader's locale (at most two decimals)."""
    if v is None or (isinstance(v, float) and v != v):
        return "—"
    return number(round(float(v), 2), lang(), signed=signed)


def _table(
    rows: list[dict[str, Any]],
    marked: set[tuple[int, str]],
    key: str,
    pin: tuple[str, ...] = ("rank", "player"),
) -> None:
    """Rows of text as a table, the ``marked`` cells (row index, column) red; the columns
    ``pin`` (label ids: the rank and the player) stay in sight when a narrow screen scrolls
    the table sideways."""
    df = pd.DataFrame(rows)
    pinned = [c for c in (tr(p) for p in pin) if c in df.columns]
    st.dataframe(
        df.style.apply(
            lambda col: [DIFFERS if (i, col.name) in marked else "" for i in range(len(col))]
        ),
        hide_index=True,
        width="stretch",
        key=key,
        column_config={c: st.column_config.TextColumn(c, pinned=True) for c in pinned},
    )


def _differs(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a == a and b == b and a != b


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
rounds = [str(r) for r in t["rounds"]]
st.caption(
    md(vm.game_name(t["game"], lang()))
    + " · "
    + tr("ruleset {ruleset}", ruleset=md(t["ruleset"]))
    + " · "
    + tr("rounds {rounds}", rounds=", ".join(rounds) or "—")
    + " · "
    + trn("{n} table", "{n} tables", len(t["sessions"]))
)

standings_tab, duplicate_tab = st.tabs([tr("Standings"), tr("Duplicate")])
with standings_tab:
    # ------------------------------------------------------------------ final ranking
    st.subheader(tr("Final ranking (recomputed)"))
    # the recorded points of a round are shown beside the recomputed ones where they differ
    differing_rounds = {str(d["round"]) for d in t["discrepancies"]}
    rows: list[dict[str, Any]] = []
    marked: set[tuple[int, str]] = set()
    rename = masked if names_masked() else None
    for i, s in enumerate(vm.ranking(report, rename)):
        row: dict[str, Any] = {
            tr("rank"): str(s["rank"]),
            tr("player"): masked(s["name"]),
            tr("total"): _pts(s["total"]),
            tr("placement points"): _pts(s["placement_points"]),
            tr("penalties"): _pts(s["penalties"]),
            tr("deviation"): _num(s["deviation"], signed=True),
        }
        for rnd in rounds:
            r = s["rounds"].get(rnd, {})
            row[tr("R{n} score", n=rnd)] = _num(r.get("score"))
            row[tr("R{n} points", n=rnd)] = _pts(r.get("placement_points"))
            recorded = r.get("recorded_placement_points")
            if rnd in differing_rounds:
                row[tr("R{n} recorded points", n=rnd)] = _pts(recorded)
            if _differs(recorded, r.get("placement_points")):
                marked |= {(i, tr("R{n} points", n=rnd)), (i, tr("R{n} recorded points", n=rnd))}
        rows.append(row)
    _table(rows, marked, "ranking")
    if marked:
        st.caption(
            tr("Highlighted: the recorded figure differs from the one recomputed from the logs.")
        )
    for u in t["unverified"]:
        st.warning(md(u))

    # ------------------------------------------------------------------ cross-table
    st.subheader(tr("Cross-table"))
    st.caption(tr("Per round: the table, the opponents met there and the placement points earned."))
    cross = vm.cross_table(report, rename)
    _table(
        [
            {
                tr("rank"): str(c["rank"]),
                tr("player"): masked(c["name"]),
                tr("round"): str(c["round"]) if c["round"] is not None else "—",
                tr("table"): c["table"] or "—",
                tr("opponents"): ", ".join(masked(n) for n in c["opponents"]),
                tr("placement points"): _pts(c["placement_points"]),
            }
            for c in cross
        ],
        set(),
        "cross_table",
    )

    # ------------------------------------------------------------------ printable standings
    try:
        html = vm.standings_html(report, rename, lang=lang())
    except Exception as exc:  # noqa: BLE001 - the page stays usable without the print
        st.warning(md(tr("Printable standings not available: {error}", error=exc)))
    else:
        st.download_button(
            tr("Download the printable standings (HTML)"),
            html,
            file_name=f"standings-{tid}.html",
            mime="text/html",
            icon=":material/print:",
            key="standings_html",
            on_click="ignore",  # a download needs no run of the page
        )

    # ------------------------------------------------------------------ rounds and tables
    st.subheader(tr("Rounds and tables: recorded vs recomputed"))
    rows = []
    marked = set()
    for i, r in enumerate(report["tables"]):
        rows.append(
            {
                _header("round"): str(r["round"]) if r["round"] is not None else "—",
                _header("table"): r["table"] or "—",
                _header("player"): masked(r["player"]),
                _header("recorded score"): _num(r["recorded score"]),
                _header("recomputed score"): _num(r["recomputed score"]),
                _header("table average"): _num(r["table average"]),
                _header("recorded points"): _pts(r["recorded points"]),
                _header("recomputed points"): _pts(r["recomputed points"]),
            }
        )
        for a, b in (
            ("recorded score", "recomputed score"),
            ("recorded points", "recomputed points"),
        ):
            if _differs(r[a], r[b]):
                marked |= {(i, _header(a)), (i, _header(b))}
    if rows:
        _table(rows, marked, "tables")
        if marked:
            st.caption(
                tr(
                    "Highlighted: the recorded figure differs from the one recomputed from "
                    "the logs."
                )
            )

    # ------------------------------------------------------------------ placement-point differences
    if t["discrepancies"]:
        st.subheader(tr("Placement-point differences"))
        by_session = {r["session"]: r for r in report["tables"]}
        names = {r["player_id"]: r["player"] for r in report["tables"]}
        diffs = [
            {
                _header("round"): str(d["round"]) if d.get("round") is not None else "—",
                _header("table"): (by_session.get(d["session"]) or {}).get("table") or "—",
                _header("player"): masked(names.get(d.get("player"), d.get("player") or "—")),
                _header("recorded points"): _pts(d.get("recorded")),
                _header("recomputed points"): _pts(d.get("recomputed")),
                _header("delta"): _num(
                    None
                    if d.get("recorded") is None or d.get("recomputed") is None
                    else d["recorded"] - d["recomputed"],
                    signed=True,
                ),
            }
            for d in t["discrepancies"]
        ]
        _table(diffs, set(), "differences")
        for sid in dict.fromkeys(d["session"] for d in t["discrepancies"]):
            table = (by_session.get(sid) or {}).get("table")
            st.page_link(
                "app_pages/audit.py",
                label=tr(
                    "Score sheet of table {table} ({session})", table=table or "—", session=sid
                ),
                icon=":material/table_view:",
                query_params={"session": sid},
            )
    else:
        st.success(tr("Recorded placement points agree with the recomputed ones."))

# ------------------------------------------------------------------ duplicate
with duplicate_tab:
    dup = data(dm.tournament_duplicate, tid)
    rename = masked if names_masked() else None
    if not dup["deals"]:
        st.info(
            tr(
                "No deal of this tournament was played at more than one table. A duplicate "
                "tournament deals the same cards at every table of a round "
                "(`tarock simulate --duplicate` makes one)."
            )
        )
    else:
        st.subheader(tr("Duplicate ranking"))
        st.caption(
            tr(
                "Each hand's score against the others who held the same cards (the same "
                "position of the same deal): 2 matchpoints per score beaten, 1 per tie, as a "
                "percentage of the maximum. Equal percentages: more matchpoints first, then "
                "the player id."
            )
        )
        _table(dm.ranking_rows(dup, lang(), rename), set(), "duplicate_ranking")
        st.subheader(tr("Deals played at several tables"))
        deals = {str(d["deal"]): d for d in dup["deals"]}
        chosen = st.selectbox(
            tr("Deal"),
            list(deals),
            format_func=lambda k: dm.deal_label(deals[k], lang()),
            key="duplicate_deal",
        )
        deal = deals[chosen]
        st.caption(
            tr(
                "Positions count from the dealer: P1 is forehand, P{n} the dealer. In "
                "brackets the matchpoints each score earned.",
                n=deal["table_size"],
            )
        )
        _table(dm.line_rows(deal, lang(), rename), set(), "duplicate_lines", pin=("table",))
        best = dm.best_line_text(deal, lang(), rename)
        if best is not None:
            st.success(md(best))
        with st.expander(tr("Who held each position")):
            _table(dm.holders(deal, lang(), rename), set(), "duplicate_holders", pin=("table",))
