"""Players: statistics of one game at a time (games are never mixed), with ratings.

Deep link: ``/players?game=<game>&player=<id>&event=<event>&from=<date>&to=<date>&tab=<tab>
&lang=…``: the game, the filters, the selected player and the tab shown are written to the URL
as they change. Only the tab shown runs its queries.

The tables (per player, per role, per contract or Schlemm, kontras, partners, head to head,
Royal Tarock's matches and pairs, ratings) come from :mod:`tarock_logs.store.read.stats` and
:mod:`tarock_logs.store.read.ratings`; rates are shown as percentages beside their sample size
(the hands they are taken over), and are charted only from ``MIN_SAMPLE`` hands on.
Thrown-in deals are counted on their own and left out of every average. Selecting a row
opens a dialog beside the table with the hands behind that row, each with a link into the
replay, and a CSV download.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import polars as pl
import streamlit as st

from dashboard import charts
from dashboard.state import (
    choice,
    data,
    lang,
    masked,
    names_masked,
    pager,
    query,
    require_db,
    shown_order,
    tr,
    trn,
    url_selectbox,
)
from dashboard.view_model import (
    csv_labels,
    game_name,
    game_sections,
    has_feature,
    role_label,
    term_label,
)
from dashboard.view_model import md_text as md
from tarock_logs.report import text
from tarock_logs.store.read import queries as q
from tarock_logs.store.read.analysis import par_points_lost, points_lost
from tarock_logs.store.read.stats import MIN_SAMPLE

LANG = lang()
require_db()
st.title(tr("Players"))
fv: dict[str, Any] = data(q.filter_values)
games = [g for g, _ in data(q.games_by_hands)]
if not games or not fv["players"]:
    st.info(tr("No players in the database yet."))
    st.stop()
names: dict[str, str] = fv["players"]


def _game_name(g: str) -> str:
    return game_name(g, LANG)


# ------------------------------------------------------------------ the game and the filters
top = st.container(horizontal=True, key="players_filters")
with top:
    game = url_selectbox(
        tr("Game"), games, param="game", key="players_game", default=games[0],
        format_func=_game_name, width=220,
    )  # fmt: skip
assert game is not None
GAME: str = game  # (narrowed for the functions below)
ids_in_game = data(q.game_section, "players", (game, None, None, None, None))["player_id"]
player_opts = shown_order(
    [p for p in names if p in set(ids_in_game.to_list())], lambda p: masked(names.get(p) or p)
)
with top:
    player = url_selectbox(
        tr("Player"), player_opts, param="player", key="players_player", default=None,
        format_func=lambda p: masked(names.get(p) or p), placeholder=tr("everyone"), width=240,
    )  # fmt: skip
    event = url_selectbox(
        tr("Event"), list(fv["events_by_game"].get(game, [])), param="event",
        key="players_event", default=None,
        placeholder=tr("every event"), width=260,
    )  # fmt: skip


def _url_date(param: str) -> dt.date | None:
    raw = st.query_params.get(param)
    try:
        return dt.date.fromisoformat(raw) if raw else None
    except ValueError:
        return None


lo, hi = fv["date_min"], fv["date_max"]
d_from, d_to = _url_date("from"), _url_date("to")
if lo is not None:
    with top:
        span = st.date_input(
            tr("Dates"), value=(d_from or lo, d_to or hi), min_value=lo, max_value=hi,
            key="players_dates", width=240,
        )  # fmt: skip
    if isinstance(span, (tuple, list)) and len(span) == 2:
        d_from, d_to = span[0], span[1]
        if (d_from, d_to) == (lo, hi):  # the whole range: the sessions without a date count too
            d_from = d_to = None
for param, value in (("from", d_from), ("to", d_to)):
    if value is None:
        st.query_params.pop(param, None)
    else:
        st.query_params[param] = value.isoformat()
filters = (game, event, d_from, d_to, player)


# ------------------------------------------------------------------ how a table is shown

#: (column, label, kind): kind ``name`` (a player's name, masked when asked), ``term`` (a
#: game term: contract, bonus, Schlemm), ``role``, ``pct`` (a rate shown as a percentage),
#: ``num`` (an average, one decimal), ``int``, ``rank`` (1 is first: sorted ascending),
#: ``text``, ``list`` (names)
Col = tuple[str, str, str]


def _cell(kind: str, value: Any, as_text: bool = False) -> Any:
    """One value as shown; ``as_text`` for a number column with a missing value (the whole
    column is then text, so that the missing one reads ``—``, never ``None``)."""
    if value is None:
        return "—"
    if kind == "pct":
        return f"{round(100 * float(value))} %"
    if kind == "num":
        return f"{float(value):.1f}" if as_text else round(float(value), 1)
    if kind in ("int", "rank") and as_text:
        return str(value)
    if kind == "name":
        return masked(str(value))
    if kind == "list":
        return " + ".join(masked(str(v)) for v in value)
    if kind == "term":
        return _term(str(value))
    if kind == "role":
        return _role(str(value))
    if kind == "text" and not isinstance(value, str):
        return str(value)
    return value


def _term(key: str) -> str:
    return term_label(key, GAME, LANG)


def _role(role: str) -> str:
    return role_label(role, LANG)


def _display(df: pl.DataFrame, cols: list[Col]) -> list[dict[str, Any]]:
    """The rows of ``df`` as the page shows them: readable headers in the interface
    language, percentages, no empty value shown as ``None``."""
    present = [c for c in cols if c[0] in df.columns]
    gaps = {
        col for col, _, kind in present if kind in {"num", "int", "rank"} and df[col].null_count()
    }
    # each header translated once, not once per row
    shown = [(col, tr(label), kind, col in gaps) for col, label, kind in present]
    return [
        {label: _cell(kind, r[col], gap) for col, label, kind, gap in shown}
        for r in df.iter_rows(named=True)
    ]


def _pending(table: str) -> Callable[[], None]:
    def mark() -> None:
        st.session_state["_drill_open"] = table

    return mark


#: rows of a table (and of the hands behind a figure) per page
PAGE = 25
#: at most this many points per line of a chart over time (the browser's drawing of the
#: charts is most of a warm load on a large store: the score and rating charts alike)
CHART_POINTS = q.TIMELINE_POINTS


def _thinned(df: pl.DataFrame, by: str, points: int) -> pl.DataFrame:
    """At most about ``points`` rows per ``by`` (evenly spaced, the last one kept), so a chart
    over a large store draws a few hundred points per line, not a row per session."""
    i = pl.int_range(pl.len()).over(by)
    n = pl.len().over(by)
    step = (n // points + 1).cast(pl.Int64)
    return df.filter((i % step == 0) | (i == n - 1))


def _by_shown(df: pl.DataFrame, col: str, kind: str) -> pl.DataFrame:
    """``df`` sorted by the text its ``col`` shows when names are masked (the pseudonyms),
    else unchanged: sorted by the hidden names, the rows would give their order away."""
    if not names_masked():
        return df
    order = [str(_cell(kind, v)) for v in df[col].to_list()]
    return (
        df.with_columns(pl.Series("_shown", order))
        .sort("_shown", maintain_order=True)
        .drop("_shown")
    )


def table(
    df: pl.DataFrame,
    cols: list[Col],
    key: str,
    drill: Callable[[dict[str, Any]], tuple[str, dict[str, Any]]] | None = None,
) -> None:
    """Show one page of ``df``, sorted on the server by the column chosen (never the whole
    table); with ``drill`` a selected row opens the dialog of the hands behind it
    (``drill(row)`` gives its title and the drill-down fields)."""
    if df.is_empty():
        st.caption(tr("Nothing to show for this selection."))
        return
    present = {col: (label, kind) for col, label, kind in cols if col in df.columns}
    if df.height > PAGE:
        c_sort, c_page = st.columns([2, 1])
        by = c_sort.selectbox(
            tr("Sort by"), list(present), key=choice(f"{key}_sort"),
            format_func=lambda c: tr(present[c][0]),
        )  # fmt: skip
        if by is not None:
            # numbers: the largest first; a rank: the first first
            desc = present[by][1] in {"int", "num", "pct"}
            df = df.sort(by, descending=desc, nulls_last=True, maintain_order=True)
            if present[by][1] in {"name", "list"}:  # masked: by the pseudonym shown
                df = _by_shown(df, by, present[by][1])
        with c_page:
            offset = pager(f"{key}_page", df.height, PAGE)
        df = df.slice(offset, PAGE)
    elif (first := next(iter(present))) and present[first][1] in {"name", "list"}:
        # one page, as the query ordered it (by the hidden names or ids): masked, by the
        # pseudonyms shown, the paged table's first order
        df = _by_shown(df, first, present[first][1])
    st.dataframe(
        _display(df, cols),
        hide_index=True,
        width="stretch",
        key=key,
        on_select=_pending(key) if drill else "ignore",
        selection_mode="single-row",
    )
    if drill is None or st.session_state.get("_drill_open") != key:
        return
    st.session_state["_drill_open"] = None
    sel = st.session_state.get(key)
    rows = sel.selection.rows if sel else []
    if rows:
        title, fields = drill(df.row(rows[0], named=True))
        hands_dialog(title, tuple(sorted(fields.items())))


@st.dialog(" ", width="large")
def hands_dialog(title: str, drill: tuple[tuple[str, Any], ...]) -> None:
    """The hands behind one figure, a page at a time (fetched from the database page by
    page), each with a link into the replay; the CSV of them all is made when asked for."""
    total: int = data(q.game_drill_count, filters, drill)
    st.markdown(f"**{md(title)}**")
    st.caption(trn("{n} hand", "{n} hands", total))
    offset = pager("drill_page", total, PAGE)
    hands: pl.DataFrame = data(q.game_drill_page, filters, drill, offset, PAGE, LANG)
    shown = _display(
        hands.with_columns(
            pl.col("date").cast(pl.String),
            pl.when(pl.col("won")).then(pl.lit(tr("yes")))
            .when(~pl.col("won")).then(pl.lit(tr("no")))
            .otherwise(pl.lit("—")).alias("won"),
        ),
        [
            ("date", "date", "text"), ("session_id", "session", "text"),
            ("number", "hand", "int"), ("name", "player", "name"), ("role", "role", "role"),
            ("contract", "contract", "term"), ("score", "score", "int"),
            ("won", "won", "text"), ("replay", "replay", "text"),
        ],
    )  # fmt: skip
    st.dataframe(
        shown,
        hide_index=True,
        width="stretch",
        column_config={tr("replay"): st.column_config.LinkColumn(display_text=tr("open"))},
    )
    mask = names_masked()
    csv_key = (filters, drill, mask)
    if st.session_state.get("_csv_for") != csv_key:
        if st.button(tr("Prepare the CSV of these hands"), icon=":material/table_view:"):
            with st.spinner(tr("Writing the CSV…")):
                st.session_state["_csv_bytes"] = query(
                    q.game_drill_csv, filters, drill, mask, labels=csv_labels(GAME, LANG)
                )
            st.session_state["_csv_for"] = csv_key
            st.rerun(scope="fragment")
    else:
        st.download_button(
            tr("Download these hands (CSV)"),
            st.session_state.get("_csv_bytes", b""),
            file_name=f"hands-{dt.date.today()}.csv",
            mime="text/csv",
            icon=":material/download:",
            on_click="ignore",  # a download needs no run of the page
        )


def section(name: str) -> pl.DataFrame:
    out: pl.DataFrame = data(q.game_section, name, filters)
    return out


def _who(r: dict[str, Any], col: str = "player_id") -> str:
    return masked(names.get(r[col]) or r[col])


# ------------------------------------------------------------------ the tables
per_player = section("players")
thrown = data(q.game_thrown_in, filters)
st.caption(
    tr(
        "{game}: {players}. Rates are percentages of the decided hands (n); charts from "
        "{min} hands on.",
        game=_game_name(game),
        players=trn("{n} player", "{n} players", per_player.height),
        min=MIN_SAMPLE,
    )
    + (" " + tr("{n} thrown-in deals, counted on their own.", n=thrown) if thrown else "")
)
#: the game's own sections (its engine declares them) and whether it is played in fixed pairs
sections = game_sections(game)
pairs = has_feature(game, "fixed_pairs")
tabs = st.tabs(
    [tr("Players"), tr("Score over time"), tr("Roles")]
    + [
        tr(
            {
                "schlemm": "Schlemme",
                "matches": "Matches and pairs",
                "contracts": "Contracts",
                "bonuses": "Bonuses",
            }.get(name, name)
        )
        for name in sections
    ]
    + [tr("Kontras"), tr("Partners"), tr("Head to head"), tr("Ratings")]
    + [tr("Card play")],
    # the shown tab is in the URL (``?tab=Partners``), and only it runs: a tab's queries cost
    # up to seconds on a large store, so the others wait until they are opened (issue 18)
    key="tab",
    bind="query-params",
)
tab = iter(tabs)

with (t := next(tab)):
    if t.open is not False:  # only the tab shown runs its queries
        table(
            per_player,
            [
                ("name", "player", "name"), ("hands", "hands", "int"),
                ("thrown_in", "thrown in", "int"), ("decided", "n", "int"),
                ("won", "won", "int"), ("win_rate", "win rate", "pct"),
                ("avg_score", "average score", "num"), ("total_score", "total score", "int"),
            ]
            + (
                [("as_attacker", "as attacker", "int"), ("as_defender", "as defender", "int")]
                if pairs
                else [
                    ("as_declarer", "as declarer", "int"), ("as_partner", "as partner", "int"),
                    ("as_defender", "as defender", "int"),
                ]
            ),
            "t_players",
            lambda r: (_who(r), {"player": r["player_id"]}),
        )  # fmt: skip

with (t := next(tab)):
    if t.open is not False:  # only the tab shown runs its query and draws its chart
        # charted from an aggregate: at most TIMELINE_POINTS per player, names masked in the
        # query. A tab of its own: drawing the chart is the browser's largest work on this
        # page (issue 18), and the first tab opens without it
        sot: pl.DataFrame = data(q.timeline, filters, names_masked())
        if sot.height:
            st.markdown("**" + tr("Score over time") + "** (" + tr("cumulative, per session") + ")")
            chart = sot.rename({"session_no": tr("session"), "cumulative": tr("score")})
            charts.line(chart, x=tr("session"), y=tr("score"), color="name", legend=tr("player"))
        else:
            st.caption(tr("No player has {min} hands under these filters yet.", min=MIN_SAMPLE))

with (t := next(tab)):
    if t.open is not False:  # only the tab shown runs its queries
        table(
            section("roles"),
            [
                ("name", "player", "name"), ("role", "role", "role"), ("hands", "hands", "int"),
                ("decided", "n", "int"), ("won", "won", "int"), ("win_rate", "win rate", "pct"),
                ("avg_score", "average score", "num"),
            ],
            "t_roles",
            lambda r: (
                f"{_who(r)} · {_role(r['role'])}",
                {"player": r["player_id"], "role": r["role"]},
            ),
        )  # fmt: skip


def _schlemm_tab() -> None:
    """The Schlemme of a game with them: per player, announced, made, failed, raised."""
    table(
        section("schlemm"),
        [
            ("name", "player", "name"), ("bonus", "Schlemm", "term"),
            ("announced", "announced", "int"), ("made", "made", "int"),
            ("failed", "failed", "int"), ("raised", "raised by the partner", "int"),
            ("decided", "n", "int"), ("success_rate", "made (rate)", "pct"),
        ],
        "t_schlemm",
        lambda r: (
            f"{_who(r)} · {_term(r['bonus'])}",
            {"player": r["player_id"], "schlemm": r["bonus"]},
        ),
    )  # fmt: skip


def _matches_tab() -> None:
    """The pair and match standings of a game of fixed pairs."""
    st.markdown("**" + tr("Pair standings") + "**")
    table(
        section("pairs"),
        [
            ("players", "pair", "list"), ("matches", "matches", "int"),
            ("won", "won", "int"), ("drawn", "drawn", "int"), ("lost", "lost", "int"),
            ("points_for", "match points for", "int"),
            ("points_against", "match points against", "int"),
        ],
        "t_pairs",
        lambda r: (
            " + ".join(masked(str(n)) for n in r["players"]),
            {"player": r["player_ids"][0], "partner": r["player_ids"][-1]},
        ),
    )  # fmt: skip
    st.markdown("**" + tr("Match standings") + "**")
    matches = section("matches")
    table(
        matches.with_columns(pl.col("result").replace_strict(
            {"won": tr("won"), "lost": tr("lost"), "drawn": tr("drawn")},
            default=pl.col("result"),
        )) if matches.height else matches,
        [
            ("session_id", "match", "text"), ("date", "date", "text"),
            ("players", "pair", "list"), ("games", "games", "int"),
            ("points", "points", "int"), ("match_points", "match points", "int"),
            ("result", "result", "text"),
        ],
        "t_matches",
        lambda r: (
            f"{r['session_id']} · " + " + ".join(masked(str(n)) for n in r["players"]),
            {"session": r["session_id"], "player": r["player_ids"][0]},
        ),
    )  # fmt: skip


def _contracts_tab() -> None:
    """Per contract: played, won, the declarer's average score (charted)."""
    contracts = section("contracts")
    charted = contracts.filter(pl.col("enough") & pl.col("win_rate").is_not_null())
    if charted.height:
        charts.bar(
            charted.with_columns(
                # named here, in the script's thread (not per row in polars' threads,
                # where Streamlit's session is not there)
                pl.col("contract").replace(
                    {c: _term(c) for c in charted["contract"].unique().to_list() if c}
                ),
                (pl.col("win_rate") * 100).alias(tr("win rate") + " %"),
            ),
            x="contract",
            y=tr("win rate") + " %",
            x_label=tr("contract"),
        )
    table(
        contracts,
        [
            ("contract", "contract", "term"), ("played", "played", "int"),
            ("decided", "n", "int"), ("won", "won", "int"),
            ("win_rate", "win rate", "pct"),
            ("avg_declarer_score", "declarer's average score", "num"),
        ],
        "t_contracts",
        lambda r: (
            _term(r["contract"]),
            {"contract": r["contract"], "role": r["drill_role"]},
        ),
    )  # fmt: skip


def _bonuses_tab() -> None:
    """Per player and bonus: announced, made."""
    table(
        data(q.stats_section, "bonuses", filters),
        [
            ("name", "player", "name"), ("bonus", "bonus", "term"),
            ("announced", "announced", "int"), ("decided", "n", "int"),
            ("made", "made", "int"), ("success_rate", "made (rate)", "pct"),
        ],
        "t_bonuses",
        lambda r: (
            f"{_who(r)} · {_term(r['bonus'])}",
            {"player": r["player_id"], "bonus": r["bonus"]},
        ),
    )  # fmt: skip


#: each per-game section's tab (the engine's ``stat_sections``, in its order)
_SECTION_VIEWS = {
    "schlemm": _schlemm_tab,
    "matches": _matches_tab,
    "contracts": _contracts_tab,
    "bonuses": _bonuses_tab,
}

for name in sections:
    with (t := next(tab)):
        if t.open is not False:  # only the tab shown runs its queries
            _SECTION_VIEWS[name]()

with (t := next(tab)):
    if t.open is not False:  # only the tab shown runs its queries
        table(
            section("kontras"),
            [
                ("name", "player", "name"), ("target", "on", "term"), ("level", "level", "int"),
                ("given", "given", "int"), ("decided", "n", "int"),
                ("successful", "successful", "int"), ("failed", "failed", "int"),
                ("success_rate", "success rate", "pct"),
            ],
            "t_kontras",
            lambda r: (
                f"{_who(r)} · {text.kontra_name(r['level'], game)} · {_term(r['target'])}",
                {"player": r["player_id"], "kontra": True},
            ),
        )  # fmt: skip

with (t := next(tab)):
    if t.open is not False:  # only the tab shown runs its queries
        st.caption(tr("How each player does with each partner on the same side."))
        table(
            section("partners"),
            [
                ("name_a", "player", "name"), ("name_b", "with", "name"),
                ("hands", "hands", "int"), ("won", "won", "int"),
                ("win_rate", "win rate together", "pct"),
                ("own_win_rate", "own win rate", "pct"),
                ("avg_score", "average score together", "num"),
            ],
            "t_partners",
            lambda r: (
                f"{_who(r, 'player_a')} + {_who(r, 'player_b')}",
                {"player": r["player_a"], "partner": r["player_b"]},
            ),
        )  # fmt: skip

with (t := next(tab)):
    if t.open is not False:  # only the tab shown runs its queries
        st.caption(tr("How each player does against each opponent."))
        table(
            section("head_to_head"),
            [
                ("name_a", "player", "name"), ("name_b", "against", "name"),
                ("hands", "hands", "int"), ("won", "won", "int"),
                ("win_rate", "win rate", "pct"), ("avg_score", "average score", "num"),
            ],
            "t_h2h",
            lambda r: (
                f"{_who(r, 'player_a')} – {_who(r, 'player_b')}",
                {"player": r["player_a"], "opponent": r["player_b"]},
            ),
        )  # fmt: skip

with (t := next(tab)):
    if t.open is not False:  # only the tab shown runs its queries
        rated = data(q.game_ratings, game)
        current: pl.DataFrame = rated.current
        history: pl.DataFrame = rated.history
        if player is not None:
            current = current.filter(pl.col("player_id") == player)
        st.caption(
            tr(
                "openskill (Plackett-Luce) ratings from each table session's placement by session "
                "score; rating = μ − 3σ, recomputed from the store in playing order."
            )
        )
        table(
            current,
            [
                ("rank", "rank", "rank"), ("name", "player", "name"), ("rating", "rating", "num"),
                ("mu", "μ", "num"), ("sigma", "σ", "num"), ("sessions", "sessions", "int"),
            ],
            "t_ratings",
            lambda r: (_who(r), {"player": r["player_id"]}),
        )  # fmt: skip
        if history.height:
            shown = history if player is None else history.filter(pl.col("player_id") == player)
            shown = _thinned(shown, "player_id", CHART_POINTS)
            st.markdown("**" + tr("Rating over time") + "**")
            charts.line(
                shown.with_columns(
                    pl.col("name").replace({n: masked(n) for n in shown["name"].unique() if n}),
                    pl.col("order").alias(tr("session")),
                    pl.col("rating").alias(tr("rating")),
                ),
                x=tr("session"),
                y=tr("rating"),
                color="name",
                legend=tr("player"),
            )

with (t := next(tab)):
    if t.open is not False:  # only the tab shown runs its queries
        # card play with all cards visible (tarock ingest --analyse): points lost, never a rating
        lost: pl.DataFrame = data(points_lost, filters)
        par_lost: pl.DataFrame = data(par_points_lost, filters)
        phases = not par_lost.is_empty() and not lost.is_empty()
        if phases:  # the talon and discard phases beside the card play (stored par)
            lost = lost.join(par_lost, on="player_id", how="left").with_columns(
                pl.col(
                    "talon_hands", "talon_points_lost", "discard_hands", "discard_points_lost"
                ).fill_null(0)
            )
        if lost.is_empty():
            st.caption(
                tr("No card-play analysis stored for this selection: run {command}.",
                   command="tarock ingest PATH --db FILE --analyse")
            )  # fmt: skip
        else:
            st.caption(
                tr(
                    "Points lost in card play, all cards visible: per player the analysed hands "
                    "(the sample), the cards valued and the points they cost against the best "
                    "card, with every hand visible. A card that loses with all cards visible may "
                    "have been right on what the player knew: this is no rating, and a sample "
                    "under {min} hands says little.",
                    min=MIN_SAMPLE,
                )
            )
            table(
                lost,
                [
                    ("name", "player", "name"), ("hands", "analysed hands", "int"),
                    ("cards", "cards valued", "int"), ("points_lost", "points lost", "int"),
                    ("points_lost_per_hand", "points lost per hand", "num"),
                    ("cards_changing_outcome", "cards that changed the outcome", "int"),
                    *([("talon_hands", "hands with the talon valued", "int"),
                       ("talon_points_lost", "points lost choosing the talon group", "int"),
                       ("discard_hands", "hands with the discard valued", "int"),
                       ("discard_points_lost", "points lost in the discard", "int")]
                      if phases else []),
                ],
                "t_card_play",
                lambda r: (_who(r), {"player": r["player_id"], "analysed": True}),
            )  # fmt: skip
