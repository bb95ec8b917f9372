"""Audit: every hand with findings, its verdicts with the rules they cite, the score item by item,
a link to the replay at the offending action and the HTML dispute dossier; beside them the
findings of sessions (totals, placement points: picking one opens the session's score sheet
with the differing cells marked) and of tournaments (standings, linked); and a what-if: the
hand and its session re-scored under another ruleset of the game or with one option changed,
item by item against the stored score (the engine runs for that only; the store is read).

Findings: an *illegal* action (the engine's verdict, citing a ruleset section), a score
*discrepancy* (recorded ≠ recomputed for an item) or an *unverified* item (not checkable).
Every hand has a verification state (verified, partial, unverified), shown as a badge and
filtered on. Texts from the logs are shown as text (Markdown characters escaped).
Deep link: ``/audit?hand=<hand_id>``, ``/audit?session=<session_id>`` (its score sheet).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from html import escape
from typing import Literal

import polars as pl
import streamlit as st

from dashboard import view_model as vm
from dashboard.state import (
    choice,
    data,
    finding_text,
    hand_key,
    hand_view,
    lang,
    masked,
    masked_text,
    names_masked,
    pager,
    require_db,
    rule_quote,
    score_table,
    shown_order,
    tr,
    trn,
    url_selectbox,
)
from dashboard.view_model import md_text as md
from tarock_logs.report import i18n
from tarock_logs.report.text import score_item_name
from tarock_logs.store.read import queries as q
from tarock_logs.verdict.findings import Finding

#: rows of the findings list per page
PAGE = 50
_log = logging.getLogger(__name__)

require_db()
st.title(tr("Audit"))
#: the verification states in words (label ids)
STATE_WORDS = {"verified": "verified", "partial": "partly verified", "unverified": "not verified"}
#: how a verification state is shown (a badge: icon, colour)
STATE_BADGE: dict[str, tuple[str, Literal["green", "orange", "gray"]]] = {
    "verified": (":material/check_circle:", "green"),
    "partial": (":material/report:", "orange"),
    "unverified": (":material/help:", "gray"),
}
#: the icons of errors and warnings, named: Streamlit's default alert icon is a Material
#: ligature whose text ("error", "warning") would read as an untranslated label
ICON_ERROR = ":material/block:"
ICON_WARNING = ":material/report:"
#: the orders of the findings list in words (label ids)
ORDER_WORDS = {
    "playing order": "playing order",
    "most illegal actions": "most illegal actions",
    "most score differences": "most score differences",
}


def badge(state: str) -> None:
    icon, colour = STATE_BADGE.get(state, STATE_BADGE["unverified"])
    st.badge(tr(STATE_WORDS.get(state, "not verified")), icon=icon, color=colour)


#: the kinds of finding the filter offers, in words (label ids)
KIND_LABEL = {
    "illegal": "illegal actions",
    "discrepancy": "score differences",
    "unverified": "not verified",
}


def _said(f: dict[str, object]) -> str:
    """A stored session or tournament finding in the interface language (its players by
    the names stored with it; a differing session total with the hands it follows from)."""
    names = f.get("names")
    players = [{"name": n, "role": "player"} for n in names] if isinstance(names, list) else []
    row: dict[str, object] = {**f, "players": players}
    ids = f.get("player_ids")
    if f.get("code") == "session.total_differs" and isinstance(ids, list) and ids:
        knock_on = data(q.session_knock_on, str(f["session_id"]), str(ids[0]))
        if knock_on:
            row["params"] = {"knock_on": [list(k) for k in knock_on]}
    return finding_text(Finding.from_dict(row, game=str(f["game"]) if f.get("game") else None))


opts: dict[str, list[object]] = data(q.finding_options)

with st.sidebar:
    st.header(tr("Filters"))
    event = st.selectbox(
        tr("Event"), opts["event"], index=None, key="f_event", placeholder=tr("all")
    )
    rnd = st.selectbox(tr("Round"), opts["round"], index=None, key="f_round", placeholder=tr("all"))
    table = st.selectbox(
        tr("Table"), opts["table"], index=None, key="f_table", placeholder=tr("all")
    )
    player = st.selectbox(
        tr("Player"),
        shown_order(list(opts["player"]), lambda p: masked(str(p))),
        index=None,
        key=choice("f_player"),
        placeholder=tr("all"),
        format_func=lambda p: masked(str(p)),
    )
    game = st.selectbox(tr("Game"), opts["game"], index=None, key="f_game", placeholder=tr("all"))
    kinds = st.multiselect(
        tr("Kind of finding"),
        list(q.FINDING_KINDS),
        key=choice("f_kinds"),
        placeholder=tr("any finding"),
        format_func=lambda k: tr(KIND_LABEL.get(str(k), str(k))),
    )
    states = st.multiselect(
        tr("Verification"),
        list(q.VERIFICATION_STATES),
        key=choice("f_states"),
        placeholder=tr("any state"),
        format_func=lambda s_: tr(STATE_WORDS[s_]),
    )

ff = q.FindingFilters(
    event=str(event) if event is not None else None,
    round=int(str(rnd)) if rnd is not None else None,
    table=str(table) if table is not None else None,
    player=str(player) if player is not None else None,
    game=str(game) if game is not None else None,
    kinds=tuple(kinds),
    findings_only=not states,  # a state asked for: its hands with or without findings
    states=tuple(states),
)
n_found: int = data(q.count_findings, ff)
ov: dict[str, int] = data(q.overview)
counts = {s_: ov[f"hands_{s_}"] for s_ in q.VERIFICATION_STATES}
st.caption(
    tr("{n} of {total} hands match the filters", n=n_found, total=ov["hands"])
    + " · "
    + ", ".join(f"{n} {tr(STATE_WORDS[s_])}" for s_, n in counts.items())
)
c_order, c_page = st.columns([2, 1])
order = c_order.selectbox(
    tr("Sort by"),
    list(q.FINDING_ORDERS),
    key=choice("audit_order"),
    format_func=lambda o: tr(ORDER_WORDS.get(str(o), str(o))),
)
with c_page:
    offset = pager("audit_page", n_found, PAGE)
found: pl.DataFrame = data(q.findings_page, ff, offset, PAGE, order)
if "label" in found.columns:  # "<session> · hand <n>" in the reader's words
    found = found.with_columns(
        pl.col("label").str.replace(" · hand ", f" · {tr('hand')} ", literal=True)
    )


def _open_selected() -> None:
    """A row picked in the findings table opens that hand below."""
    sel = st.session_state.get("findings_table")
    if sel and sel.selection.rows:
        st.session_state["audit_hand"] = found["hand_id"][sel.selection.rows[0]]


if found.is_empty():
    st.success(tr("No hand with findings matches the filters."))
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
        "verification",
    ).with_columns(
        pl.col("verification").replace_strict(
            {k: tr(v) for k, v in STATE_WORDS.items()}, default=pl.col("verification")
        )
    )
    show = show.rename(
        {
            "label": tr("session · hand"),
            "event": tr("event"),
            "round": tr("round"),
            "table": tr("table"),
            "game": tr("kind of game"),
            "contract": tr("contract"),
            "n_violations": tr("illegal actions"),
            "n_discrepancies": tr("score differences"),
            "verification": tr("verification"),
        }
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
    st.caption(tr("Select a row to see the hand's verdicts."))

# ------------------------------------------------------------------ session and tournament findings
sess_f: pl.DataFrame = data(q.session_findings)
tour_f: pl.DataFrame = data(q.tournament_findings)
if event:
    sess_f = sess_f.filter(pl.col("event") == event)
    tour_f = tour_f.filter(pl.col("tournament") == event)
if ff.round is not None:
    sess_f = sess_f.filter(pl.col("round") == ff.round)
if table:
    sess_f = sess_f.filter(pl.col("table") == table)
if game:
    sess_f = sess_f.filter(pl.col("game") == game)
if ff.player:
    sess_f = sess_f.filter(pl.col("names").list.contains(ff.player))
    tour_f = tour_f.filter(pl.col("names").list.contains(ff.player))
st.markdown("#### " + md(tr("Session and tournament findings")))
if sess_f.is_empty() and tour_f.is_empty():
    st.success(tr("No session total, placement points or standing differs."))
else:
    rows = [
        {tr("level"): tr("Session"), tr("where"): r["session_id"],
         tr("severity"): tr(r["severity"]), tr("code"): r["code"],
         tr("finding"): masked_text(_said(r), r["names"] or []),
         tr("state"): tr(STATE_WORDS.get(r["verification"], r["verification"]))}
        for r in sess_f.to_dicts()
    ] + [
        {tr("level"): tr("Tournament"), tr("where"): r["tournament"],
         tr("severity"): tr(r["severity"]), tr("code"): r["code"],
         tr("finding"): masked_text(_said(r), r["names"] or []),
         tr("state"): tr(STATE_WORDS.get(r["verification"], r["verification"]))}
        for r in tour_f.to_dicts()
    ]  # fmt: skip
    picked = st.dataframe(
        pl.DataFrame(rows),
        hide_index=True,
        width="stretch",
        key="session_findings",
        column_config={tr("finding"): st.column_config.TextColumn(tr("finding"), width="large")},
        on_select="rerun",
        selection_mode="single-row",
    )
    st.caption(tr("Select a session's finding to see its score sheet."))
    sessions = list(dict.fromkeys(sess_f["session_id"].to_list()))
    # a row picked opens its session's score sheet below (once: the sheet's own picker then
    # changes it); a tournament's row links to its standings
    chosen = tuple(picked.selection.rows) if picked is not None else ()
    if chosen != st.session_state.get("_session_findings_opened"):
        st.session_state["_session_findings_opened"] = chosen
        if chosen and chosen[0] < sess_f.height:
            st.session_state["audit_session"] = sess_f["session_id"][chosen[0]]
            st.query_params["session"] = sess_f["session_id"][chosen[0]]
    if chosen and chosen[0] >= sess_f.height:
        tid = tour_f["tournament"][chosen[0] - sess_f.height]
        st.page_link(
            "app_pages/tournament.py",
            label=tr("Standings of {tournament}", tournament=tid),
            icon=":material/leaderboard:",
            query_params={"tournament": tid},
        )
    if sessions:
        sid = url_selectbox(
            tr("Session score sheet"),
            sessions,
            param="session",
            key="audit_session",
            placeholder=tr("Select a session to see its score sheet"),
        )
        if sid:
            # the picked session's findings as sentences (a table cell clips them on a phone)
            for r in sess_f.filter(pl.col("session_id") == sid).to_dicts():
                said = md(masked_text(_said(r), r["names"] or []))
                text = f"**{md(tr('Session'))}** · {md(tr(r['severity']))} {md(r['code'])}: {said}"
                if r["severity"] == "error":
                    st.error(text, icon=ICON_ERROR)
                else:
                    st.warning(text, icon=ICON_WARNING)
            sheet = data(q.session_sheet, sid)
            if sheet is not None:
                table_df, marked = vm.score_sheet(
                    sheet, [masked(p) for p in sheet["players"]], lang()
                )
                st.caption(
                    md(sid)
                    + ": "
                    + md(
                        tr(
                            "recorded score sheet · cells marked ✖ differ from the "
                            "recomputation (recorded → recomputed)"
                        )
                    )
                )
                st.dataframe(
                    table_df.to_pandas().style.apply(
                        lambda col: [
                            "background-color: #ffcdd2" if (i, col.name) in marked else ""
                            for i in range(len(col))
                        ]
                    ),
                    hide_index=True,
                    width="stretch",
                    height=38 + 35 * table_df.height,
                    key="session_sheet",
                )

ids = found["hand_id"].to_list()
labels = dict(zip(found["hand_id"].to_list(), found["label"].to_list(), strict=True))
options = list(ids)
url_hand = st.query_params.get("hand")
if url_hand and url_hand not in labels:
    label = data(q.hand_label, url_hand, hand_key(url_hand))
    if label is not None:  # a deep link to a hand on another page, or without findings
        options.insert(0, url_hand)
        labels[url_hand] = tr("{label} (not on this page)", label=label)
hand_id = url_selectbox(
    tr("Hand"),
    options,
    param="hand",
    key="audit_hand",
    format_func=lambda h: labels.get(h, h),
    placeholder=tr("Select a hand to see its verdicts"),
)
if not hand_id:
    st.stop()

view = hand_view(hand_id, engine=True)  # (the dossier and the findings' engine facts)
if view is None:
    st.error(tr("Unknown hand."), icon=ICON_ERROR)
    st.stop()
players = [masked(p) for p in view.players]
st.subheader(f"{md(view.session_id)} · {md(tr('hand'))} {view.number}", anchor=False)
badge(view.verification)
st.caption(
    md(
        tr(
            "hand id {id} · {game} · ruleset {ruleset}",
            id=hand_id,
            game=vm.game_name(view.game, lang()),
            ruleset=view.ruleset,
        )
    )
)

# ------------------------------------------------------------------ verdicts
st.markdown("#### " + md(tr("Verdicts")))
if view.findings:
    for f in view.findings:
        ai = f.get("action_index")
        # actions numbered as the replayer's steps: action n is the one that leads to step n
        where = tr("action {n}", n=ai + 1) if ai is not None else tr("hand")
        worded = view.stored_finding(f)
        message = md(masked_text(finding_text(worded), view.players))
        text = f"**{md(where)}** · {md(tr(f['severity']))} {md(f['code'])}: {message}"
        quote = rule_quote(worded)
        if quote:
            text += f"  \n*{md(quote)}*"
        if f.get("severity") == "error":
            st.error(text, icon=ICON_ERROR)
        else:
            st.warning(text, icon=ICON_WARNING)
        if ai is not None:
            st.page_link(
                "app_pages/replay.py",
                label=tr("Replay at action {n}", n=ai + 1),
                icon=":material/play_circle:",
                query_params={"hand": hand_id, "step": str(ai + 1), "seat": "all"},
            )
else:
    st.success(tr("Every action is legal."))
for u in view.unverified:
    st.warning(md(tr("Not checked: {what}", what=u)), icon=ICON_WARNING)

# ------------------------------------------------------------------ score
st.markdown("#### " + md(tr("Score: recorded vs recomputed")))
score_table(view, players)


# ------------------------------------------------------------------ links and dossier
def _dossier(build: Callable[[], str], lang_: str, hand: str) -> Callable[[], str]:
    """The dossier's download, rendered when pressed (outside the page's run: no Streamlit
    call in it). Should the rendering fail then, the download is an HTML page that says so
    in the page's words (the warning the page showed when it rendered the dossier in every
    run), and the server's log keeps the details."""

    def html() -> str:
        try:
            return build()
        except Exception as exc:  # noqa: BLE001 - a page that says why, not a failed download
            _log.warning("dossier of hand %s not rendered: %s", hand, exc, exc_info=exc)
            said = escape(i18n.t("Dossier not available: {error}", lang_, error=exc))
            return (
                f'<!DOCTYPE html><html lang="{lang_}"><head><meta charset="utf-8">'
                f"<title>{said}</title></head><body><p>{said}</p></body></html>"
            )

    return html


c1, c2 = st.columns(2)
first = view.first_problem_step()
c1.page_link(
    "app_pages/replay.py",
    label=tr("Open in the replay viewer at the first problem")
    if first
    else tr("Open in the replay viewer"),
    icon=":material/play_circle:",
    query_params={"hand": hand_id, "step": str(first or 0), "seat": "all"},
)
try:  # checked and its names masked now; rendered (seconds: the solver) when pressed
    build = vm.dossier_builder(view, masked if names_masked() else None, lang=lang())
except Exception as exc:  # noqa: BLE001 - the page stays usable without the dossier
    c2.warning(md(tr("Dossier not available: {error}", error=exc)), icon=ICON_WARNING)
else:
    c2.download_button(
        tr("Download the dispute dossier (HTML)"),
        _dossier(build, lang(), hand_id),
        file_name=f"dossier-{view.session_id}-{view.number}.html",
        mime="text/html",
        icon=":material/download:",
        on_click="ignore",  # a download needs no run of the page
    )


# ------------------------------------------------------------------ what-if
def _option_value(game: str, option: str, current: object) -> object:
    """A widget for the new value of ``option`` (its value in the ruleset: ``current``)."""
    key = f"whatif_value_{option}"
    label = tr("New value")
    if isinstance(current, bool):
        return st.toggle(label, value=not current, key=key)
    if isinstance(current, int):
        return int(st.number_input(label, value=current, step=1, key=key))
    if isinstance(current, float):
        return float(st.number_input(label, value=current, key=key))
    known = [v for v in vm.what_if_values(game, option) if isinstance(v, str)]
    if len(known) > 1:
        others = [v for v in known if v != current]
        return st.selectbox(label, known, index=known.index(others[0]), key=key)
    return st.text_input(label, value=str(current), key=key)


def _who(seat: object) -> str:
    return players[seat] if isinstance(seat, int) and seat < len(players) else tr("declarer side")


def _changes(rows: list[dict[str, object]], first: dict[str, object]) -> None:
    """What-if rows as a table: the differing rows red and marked ✖."""
    shown = [
        {
            **{k: f(r) for k, f in first.items()},  # type: ignore[operator]
            tr("stored"): _dash(r["stored"]),
            tr("what-if"): _dash(r["what_if"]),
            tr("change"): _dash(r["change"]),
            tr("differs"): "✖" if r["differs"] else "",
        }
        for r in rows
    ]
    flags = [bool(r["differs"]) for r in rows]
    st.dataframe(
        pl.DataFrame(shown, strict=False)
        .to_pandas()
        .style.apply(
            lambda row: ["background-color: #ffcdd2" if flags[row.name] else ""] * len(row),
            axis=1,
        ),
        hide_index=True,
        width="stretch",
    )


def _dash(v: object) -> object:
    return "—" if v is None else v


st.markdown("#### " + md(tr("What if: another ruleset or one option changed")))
rulesets = vm.what_if_rulesets(view.game)
if not rulesets:
    st.caption(tr("No rules engine for this game: nothing to re-score."))
else:
    st.caption(
        tr("The engine re-scores this hand and its session here; the stored audit is not changed.")
    )
    w1, w2, w3 = st.columns(3)
    with w1:
        ruleset = st.selectbox(
            tr("Ruleset"),
            rulesets,
            index=rulesets.index(view.ruleset) if view.ruleset in rulesets else 0,
            key="whatif_ruleset",
        )
    choices = vm.what_if_options(view.game, ruleset)
    with w2:
        option = st.selectbox(
            tr("Option to change"),
            list(choices),
            index=None,
            key="whatif_option",
            placeholder=tr("none"),
            format_func=lambda o: str(o).replace("_", " "),
        )
    value: object = None
    if option is not None:
        with w3:
            value = _option_value(view.game, option, choices[option])
    if ruleset == view.ruleset and (option is None or value == choices.get(option)):
        st.caption(tr("Pick another ruleset or change one option to see the difference."))
    else:
        with st.spinner(tr("Re-scoring…")):
            result = data(vm.what_if, hand_id, ruleset, option, value)
        if result is not None:
            changed = [r for r in result["items"] if r["differs"]]
            if changed:
                st.warning(
                    md(
                        trn(
                            "{n} score item changes under this what-if.",
                            "{n} score items change under this what-if.",
                            len(changed),
                        )
                    ),
                    icon=ICON_WARNING,
                )
            else:
                st.success(tr("Every score item of this hand stays the same."))
            for note in result["notes"]:
                st.warning(md(tr("Not checked: {what}", what=note)), icon=ICON_WARNING)
            if result["items"]:
                _changes(
                    result["items"],
                    {
                        tr("item"): lambda r: score_item_name(r["item"], view.game, lang=lang()),
                        tr("who"): lambda r: _who(r["seat"]),
                        tr("recorded"): lambda r: _dash(r["recorded"]),
                    },
                )
            if result["totals"]:
                st.caption(tr("The hand's totals"))
                _changes(result["totals"], {tr("player"): lambda r: _who(r["seat"])})
            if result["session"]:
                st.caption(tr("The session's totals"))
                _changes(result["session"], {tr("player"): lambda r: _who(r["seat"])})
