"""Replay: one hand, action by action, as a card table.

Deep link: ``/replay?hand=<hand_id>&step=<n>&seat=<s|all>&lang=<en|sl|de>`` (step 0 is the
deal; step k is the position after the k-th action). The hand, step and seat are written to
the URL as the position moves, so every position is a link that survives a reload; a hand or
a step that does not exist is said so on the page (never silently replaced by another).

Keys (Streamlit's button shortcuts, so they work wherever the focus is not in a text field):
←/→ one action, ↑/↓ and PageUp/PageDown one trick (before the play: one phase), Home/End the
deal and the last action. The action list is clickable: choosing a line moves the position,
and it keeps the current line in sight as the position moves.

Numbering: step k is the position after action k, and the action list, the audit page's
verdicts and its links number actions the same way (1 is the first action).

Autoplay plays on to the end of the hand at the chosen speed and stops by itself at the end
and on arriving at a problem (an illegal action).

Layout: the step, the toolbar and the card table come first, so that at 1280 × 720 they are
all in sight; on a phone (≤ 700 px) the toolbar is pinned to the bottom of the screen,
wrapping into rows, every control in reach, and the page's title and the hand's header line
give way so that the whole table (every seat and the current trick) is above it at 390 × 844.
"""

from __future__ import annotations

import re
from typing import Any

import polars as pl
import streamlit as st

from dashboard import view_model as vm
from dashboard.state import (
    choice,
    data,
    finding_text,
    hand_view,
    lang,
    masked,
    masked_text,
    one_version,
    require_db,
    score_table,
    session_record,
    tr,
    trn,
    url_selectbox,
)
from dashboard.table import position, table_html
from dashboard.view_model import HandView
from dashboard.view_model import md_text as md
from tarock_logs.report import text
from tarock_logs.store.read import queries as q
from tarock_logs.store.read.analysis import (
    hand_card_analysis,
    hand_card_analysis_player,
    hand_par,
)
from tarock_logs.store.read.timeline import TimelineStep
from tarock_logs.verdict import replay as rp

#: the speeds autoplay offers: seconds per step
SPEEDS = (0.5, 1.0, 2.0)
#: autoplay as this run of the page found it: the viewer's timer is set from it, so a change
#: inside the viewer reruns the whole page (a fragment cannot change its own timer)
PLAYING = bool(st.session_state.get("autoplay"))
SPEED = float(st.session_state.get("autoplay_speed") or 1.0)

#: sessions the session picker offers at once (its search narrows them; issue 18: a store
#: of a million hands has tens of thousands of sessions, never all sent to the browser)
SESSIONS_SHOWN = 200

LANG = lang()
require_db()
# the title and the hand picker side by side: the toolbar and the table higher up
c_title, c_picker = st.columns([1, 4], vertical_alignment="center")
c_title.title(tr("Replay"))
if not data(q.count_sessions):
    st.info(tr("The database holds no hands yet."))
    st.stop()


def _set_step(n: int) -> None:
    st.session_state["step"] = max(0, n)


def _goto_hand(hand_id: str | None, session_id: str | None = None) -> None:
    if hand_id:
        if session_id:
            st.session_state["replay_session"] = session_id
        st.session_state["replay_hand"] = hand_id
        st.session_state["step"] = 0


def _jump() -> None:
    choice = st.session_state.get("jump")
    if choice is not None:
        st.session_state["step"] = int(choice)
    st.session_state["jump"] = None


def _picked_action() -> None:
    st.session_state["step"] = int(st.session_state.get("action_list") or 0)


def _new_session() -> None:
    st.session_state["replay_hand"] = None
    st.session_state["step"] = 0


# ---------------------------------------------------------------- which hand
url_hand = st.query_params.get("hand")
bad_hand = None
if url_hand and url_hand != st.session_state.get("_url_seen_replay_hand"):
    # the hand as the viewer reads it (cached): its session, and nothing read twice
    url_view = hand_view(url_hand)
    if url_view is not None:
        st.session_state["replay_session"] = url_view.session_id
    else:
        bad_hand = url_hand

if bad_hand is not None:
    st.error(
        tr("There is no hand {hand} in this database. Choose a hand below.", hand=md(bad_hand)),
        icon=":material/search_off:",
    )
    st.session_state["_url_seen_replay_hand"] = bad_hand
    st.session_state["replay_hand"] = None

picker = c_picker.expander(
    tr("Choose a hand"), expanded=bad_hand is not None, icon=":material/style:"
)
search = picker.text_input(
    tr("Find a session"),
    key="session_search",
    placeholder=tr("event, round, table or session id"),
)
shown: pl.DataFrame = data(q.sessions_page, search or None, 0, SESSIONS_SHOWN)
sids: list[str] = shown["session_id"].to_list()
slabels = dict(zip(sids, shown["label"].to_list(), strict=True))
current = st.session_state.get("replay_session")
if current and current not in slabels:  # the session of a deep link or an earlier choice
    current_rec = session_record(current)
    if current_rec is not None:
        sids.insert(0, current)
        slabels[current] = str(current_rec["label"])
if not sids:
    picker.info(tr("No session matches the search."))
    st.stop()
if st.session_state.get("replay_session") not in slabels:
    st.session_state["replay_session"] = sids[0]
c_session, c_hand = picker.columns([3, 2])
session_id = c_session.selectbox(
    tr("Session"),
    sids,
    key=choice("replay_session"),
    format_func=lambda s: slabels.get(s, s),
    on_change=_new_session,
)
session_rec = session_record(session_id) if session_id else None
hand_rows: list[dict[str, Any]] = session_rec["hands"] if session_rec else []
ids: list[str] = [str(r["hand_id"]) for r in hand_rows]
labels = {
    r["hand_id"]: tr("hand {n}", n=r["number"])
    + (f" · {r['contract']}" if r["contract"] else "")
    + (" · " + tr("illegal") if r["illegal"] else "")
    + (" · " + tr("score differs") if r["discrepancy"] else "")
    for r in hand_rows
}
with c_hand:
    if bad_hand is not None:
        # the URL's hand does not exist: keep the wrong value out of the picker's URL sync
        st.query_params.pop("hand", None)
    hand_id = url_selectbox(
        tr("Hand"),
        ids,
        param="hand",
        key="replay_hand",
        default=None if bad_hand is not None else (ids[0] if ids else None),
        format_func=lambda h: labels.get(h, h),
        on_change=lambda: _set_step(0),
        placeholder=tr("Choose a hand"),
    )
if not hand_id:
    if bad_hand is None:
        st.info(tr("Choose a hand to replay."))
    st.stop()
found = hand_view(hand_id)
if found is None:
    st.error(tr("There is no hand {hand} in this database. Choose a hand below.", hand=md(hand_id)))
    st.stop()
view: HandView = found

players = [masked(p) for p in view.players]
n_seats = len(players)
last = view.n_steps

# ---------------------------------------------------------------- which step (deep link)
raw_step = st.query_params.get("step")
if raw_step is not None and raw_step != st.session_state.get("_url_seen_step"):
    wanted, ok = vm.parse_step(raw_step, last)
    st.session_state["_url_seen_step"] = raw_step
    if wanted is not None:
        st.session_state["step"] = wanted
    if not ok:
        st.session_state["_bad_step"] = raw_step
if int(st.session_state.get("step") or 0) > last:
    st.session_state["step"] = last

header = [
    vm.event_line(view, LANG),
    tr("hand {n}", n=view.number),
    vm.game_name(view.game, LANG),
    tr("ruleset {ruleset}", ruleset=view.ruleset),
]
st.container(key="replay_head").caption(md(" · ".join(x for x in header if x)))

if not view.deal:
    st.info(
        tr(
            "This hand was recorded as facts without cards (a line of a score sheet): there "
            "are no cards to replay. Its score, recorded and recomputed:"
        ),
        icon=":material/receipt_long:",
    )
    score_table(view, players)
    st.stop()
if not view.steps:
    st.warning(tr("This hand could not be replayed.") + " " + md("; ".join(view.unverified)))
    st.stop()

ENTRIES = vm.action_entries(view, players, LANG)
STOPS = vm.trick_stops(view)
JUMPS = vm.phase_jumps(view, LANG)


def _entry_label(step: int) -> str:
    e = ENTRIES[step] if step < len(ENTRIES) else None
    if e is None:
        return str(step)
    where = ""
    if e.trick is not None:
        where = tr("trick {n}", n=e.trick) + " · "
    elif e.phase:
        where = text.phase_name(e.phase, lang=LANG) + " · "
    mark = " ✗" if e.illegal else ""
    return md(f"{step}. {where}{e.text}") + mark


#: the stored card-play analysis of this hand (``tarock ingest --analyse``), by action index:
#: all cards visible, and what the player knew (``--analyse-view player``); where both exist
#: the card-values box switches between them (``analysis_view``)
#: (a store without any analysis, most, asks nothing per hand: checked once per version)
ANALYSED_ALL, ANALYSED_PLAYER = data(q.card_analysis_stored)
ANALYSIS_ALL: dict[int, dict[str, Any]] = (
    {int(r["action_index"]): r for r in data(hand_card_analysis, view.hand_id)}
    if ANALYSED_ALL
    else {}
)
ANALYSIS_PLAYER: dict[int, dict[str, Any]] = (
    {int(r["action_index"]): r for r in data(hand_card_analysis_player, view.hand_id)}
    if ANALYSED_PLAYER
    else {}
)
#: the two views' labels, every place they are shown
VIEWS = {"all": tr("all cards visible"), "player": tr("what the player knew")}


def _analysis_view() -> str:
    """The view the card values show: the switch's, or the one that exists."""
    if not ANALYSIS_PLAYER:
        return "all"
    if not ANALYSIS_ALL:
        return "player"
    return "player" if st.session_state.get("analysis_view") == "player" else "all"


def _analysis() -> dict[int, dict[str, Any]]:
    return ANALYSIS_PLAYER if _analysis_view() == "player" else ANALYSIS_ALL


#: the forms of :func:`tarock_logs.analysis.outcome.changes` with an item: "ITEM NOW (best: BEST)"
_CHANGE = re.compile(r"^(?P<item>\w+) (?P<now>.+) \(best: (?P<best>.+)\)$")


def _change_text(phrase: str) -> str:
    """One stored "what the card changed" phrase (English, from the analysis) in the interface
    language: "contract lost", "contract made", "klop full (best: points)", "trula for the
    defenders (best: for the declarer side)", ..."""
    words = {
        "contract lost": tr("contract lost"),
        "contract made": tr("contract made"),
        "for the declarer side": tr("for the declarer side"),
        "for nobody": tr("for nobody"),
        "for the defenders": tr("for the defenders"),
        "paid by the defenders": tr("paid by the defenders"),
        "not paid": tr("not paid"),
        "paid by the declarer side": tr("paid by the declarer side"),
        "empty": tr("empty"),
        "full": tr("full"),
        "points": tr("points"),
    }
    m = _CHANGE.match(phrase)
    if m is None:
        return words.get(phrase, phrase)
    item = m["item"]
    name = tr("klop") if item == "klop" else text.bonus_name(item, view.game)
    now, best = words.get(m["now"], m["now"]), words.get(m["best"], m["best"])
    return tr("{item} {now} (best: {best})", item=name, now=now, best=best)


def _value_text(v: Any) -> str:
    return f"{round(v, 1):g}" if isinstance(v, float) else str(v)


def valued(step: int, cur: rp.Step | TimelineStep, only: int | None) -> dict[str, Any] | None:
    """The analysis row of the card just played at ``step`` (None when it has none, or in
    another seat's view: its values would reveal that seat's hand)."""
    row = _analysis().get(step - 1) if cur.action is not None else None
    if row is None or cur.action is None or only not in (None, cur.action.seat):
        return None
    return row


def _player_said(row: dict[str, Any]) -> str:
    """What the card cost on what the player knew, its spread and the samples behind it."""
    card = text.card_text(str(row["card"]), view.game)
    lost = float(row["loss"])
    said = (
        tr(
            "{card} lost {lost} points on average against {best}",
            card=card,
            lost=_value_text(lost),
            best=text.cards_text(row["best_cards"], view.game, lang=LANG),
        )
        if lost > 0
        else tr("{card} was a best card on what the player knew", card=card)
    )
    spread = row["spread"].get(str(row["card"]), {})
    if spread:
        said += "; " + tr(
            "its value ranged from {lo} to {hi} (±{std})",
            lo=spread["min"],
            hi=spread["max"],
            std=_value_text(float(spread["std"])),
        )
    return (
        md(said)
        + ". "
        + tr(
            "Values: mean {values} over {n} layouts of the hidden cards consistent with "
            "what the player knew (seed {seed}), each solved with all cards visible.",
            values=text.analysis_values(view.game, lang=LANG),
            n=row["samples"],
            seed=row["seed"],
        )
    )


def card_values(step: int, cur: rp.Step | TimelineStep, only: int | None) -> None:
    """The card-play analysis at ``step``: the values of the card just played and its legal
    alternatives are drawn on the table's cards; here what it cost, and the previous / next
    mistake of at least a chosen size. Where both are stored, a switch between all cards
    visible and what the player knew (mean values over sampled layouts). In one seat's view
    only that seat's cards are valued and navigated (other seats' values would reveal their
    hands)."""
    if not ANALYSIS_ALL and not ANALYSIS_PLAYER:
        return
    with st.container(border=True, key="card_values"):
        if ANALYSIS_ALL and ANALYSIS_PLAYER:
            st.radio(
                tr("Analysis"),
                list(VIEWS),
                format_func=VIEWS.__getitem__,
                key=choice("analysis_view"),
                horizontal=True,
            )
        which = _analysis_view()
        analysis = _analysis()
        st.markdown("**" + tr("Every legal card valued ({view})", view=VIEWS[which]) + "**")
        row = valued(step, cur, only)
        if row is not None and which == "player":
            st.caption(_player_said(row))
        elif row is not None:
            card = text.card_text(str(row["card"]), view.game)
            lost = int(row["loss"])
            said = (
                tr(
                    "{card} cost {lost} points against {best}",
                    card=card,
                    lost=lost,
                    best=text.cards_text(row["best_cards"], view.game, lang=LANG),
                )
                if lost > 0
                else tr("{card} was a best card", card=card)
            )
            if row["changed"]:
                said += "; " + "; ".join(_change_text(str(c)) for c in row["changed"])
            st.caption(
                md(said)
                + ". "
                + tr(
                    "Values: {values}, best play afterwards, every hand visible; a card that "
                    "loses with all cards visible may have been right on what the player knew.",
                    values=text.analysis_values(view.game, lang=LANG),
                )
            )
        else:
            st.caption(tr("No card of this step is valued: step to a card played."))
        nav = st.container(
            horizontal=True, key="mistake_nav", gap="small", vertical_alignment="bottom"
        )
        threshold = nav.number_input(
            tr("Mistakes of at least (points)"),
            min_value=1,
            value=1,
            step=1,
            key="mistake_min",
            help=tr("Points a card cost its side against the best card, all cards visible")
            if which == "all"
            else tr(
                "Points a card cost its side against the best card, on average over the "
                "layouts consistent with what the player knew"
            ),
            width=220,
        )
        mistakes = sorted(
            i + 1
            for i, r in analysis.items()
            if r["legal"] and float(r["loss"]) >= threshold and only in (None, r["seat"])
        )
        prev_m = max((m for m in mistakes if m < step), default=None)
        next_m = min((m for m in mistakes if m > step), default=None)
        nav.button(
            tr("Previous mistake"),
            icon=":material/skip_previous:",
            key="prev_mistake",
            on_click=_set_step,
            args=(prev_m or 0,),
            disabled=prev_m is None,
        )
        nav.button(
            tr("Next mistake"),
            icon=":material/skip_next:",
            icon_position="right",
            key="next_mistake",
            on_click=_set_step,
            args=(next_m or 0,),
            disabled=next_m is None,
        )
        nav.caption(trn("{n} mistake in this hand", "{n} mistakes in this hand", len(mistakes)))


#: the stored par before the first trick of this hand (``tarock ingest --analyse
#: --analyse-par``), or None
PAR: dict[str, Any] | None = (
    data(hand_par, view.hand_id) if ANALYSED_ALL or ANALYSED_PLAYER else None
)


def _par_rows(options: list[dict[str, Any]], kind: str) -> pl.DataFrame:
    cols = text.par_columns(LANG)
    rows = []
    for o in options:
        if kind == "contract":
            name = text.contract_name(o["contract"], view.game, lang=LANG)
        else:
            name = text.par_option_name(kind, int(o["group"]), LANG)
        extra = (
            "; ".join(" ".join(e) for e in o["equivalent"][1:])
            if kind == "discard"
            else f"{o['decided']}/{o['lines']}"
        )
        rows.append({
            cols["option"]: name,
            cols["cards"]: text.cards_text(o["cards"], view.game, lang=LANG) if o["cards"] else "",
            cols["value"]: text.par_value_text(o["value"], o["low"], o["high"], LANG),
            cols["recorded"]: "★" if o["recorded"] else "",
            cols["equivalent"] if kind == "discard" else cols[
                "lines" if kind == "contract" else "decided"
            ]: extra,
        })  # fmt: skip
    return pl.DataFrame(rows)


def par_values(cur: rp.Step | TimelineStep, only: int | None) -> None:
    """At the talon step each talon group the declarer could have taken (and each contract he
    could have declared), at a discard step each discard after his group, valued before the
    first trick with all cards visible (the stored par), the recorded choice marked. In
    another seat's view nothing: the values would reveal the hands."""
    if PAR is None or cur.action is None or PAR.get("skipped"):
        return
    kind = cur.action.type
    if kind not in ("talon", "discard") or only not in (None, PAR.get("declarer")):
        return
    with st.container(border=True, key="par_values"):
        st.markdown("**" + tr("Before the first trick (par), all cards visible") + "**")
        if kind == "talon":
            st.dataframe(_par_rows(PAR["groups"], "group"), hide_index=True, key="par_groups")
            if PAR["contracts"]:
                st.caption(text.par_contracts_title(LANG))
                st.dataframe(
                    _par_rows(PAR["contracts"], "contract"), hide_index=True, key="par_contracts"
                )
        else:
            st.dataframe(_par_rows(PAR["discards"], "discard"), hide_index=True, key="par_discards")
        foot = text.par_footer(
            int(PAR["budget"]),
            int(PAR["hand_budget"]),
            bool(PAR["budget_hit"]),
            float(PAR["seconds"] or 0),
            LANG,
        )
        st.caption("  \n".join([*foot, "★ " + tr("the declarer's choice")]))


def viewer() -> None:
    """The position at one step: reruns alone when the step or the view changes (and every
    few seconds while autoplay is on, one step further each time)."""
    ss = st.session_state
    playing = bool(ss.get("autoplay"))
    if playing != PLAYING or float(ss.get("autoplay_speed") or 1.0) != SPEED:
        st.rerun()  # autoplay switched or its speed changed: the page sets the timer anew
    if playing:
        now = int(ss.get("step", 0) or 0)
        nxt = min(last, now + 1)
        ss["step"] = nxt
        if nxt >= last or view.steps[nxt].violations:
            ss["autoplay"] = False  # the end, or a problem: stop there
            ss["_autoplay_stopped"] = nxt
            st.rerun()
    step = max(0, min(int(st.session_state.get("step") or 0), len(view.steps) - 1))
    st.session_state["step"] = step
    if st.query_params.get("step") != str(step):
        st.query_params["step"] = str(step)
    st.session_state["_url_seen_step"] = str(step)
    bad_step = st.session_state.pop("_bad_step", None)
    if bad_step is not None:
        st.warning(
            tr(
                "Step {bad} does not exist in this hand (steps 0 to {last}): showing step {step}.",
                bad=md(bad_step),
                last=last,
                step=step,
            ),
            icon=":material/warning:",
        )

    cur = view.steps[step]
    st.markdown(
        "**"
        + tr("Step {step} of {last}", step=step, last=last)
        + ":** "
        + md(vm.step_text(view, cur.action, players, step=step, lang=LANG))
    )
    # the seat whose view is shown: the picker sits in the toolbar under the table, so its
    # value (from the URL when a link brings one) is read first
    seat_opts = ["all"] + [str(i) for i in range(n_seats)]
    url_seat = st.query_params.get("seat")
    if url_seat != st.session_state.get("_url_seen_replay_seat") and url_seat in seat_opts:
        st.session_state["replay_seat"] = url_seat
    seat_now = st.session_state.get("replay_seat")
    only = int(seat_now) if seat_now in seat_opts and seat_now != "all" else None
    allowed = vm.allowed_cards(view, step) if cur.violations else []

    # ---------------------------------------------------------------- the toolbar
    bar = st.container(horizontal=True, key="toolbar", gap="small")
    bar.button(
        "",
        icon=":material/first_page:",
        key="home",
        on_click=_set_step,
        args=(0,),
        shortcut="Home",
        help=tr("The deal (Home)"),
        disabled=step == 0,
    )
    bar.button(
        "",
        icon=":material/keyboard_double_arrow_left:",
        key="trick_back",
        on_click=_set_step,
        args=(vm.next_stop(STOPS, step, False),),
        shortcut="Up",
        help=tr("One trick back (↑ or PageUp)"),
        disabled=step == 0,
    )
    bar.button(
        "",
        icon=":material/chevron_left:",
        key="back",
        on_click=_set_step,
        args=(step - 1,),
        shortcut="Left",
        help=tr("One action back (←)"),
        disabled=step <= 0,
    )
    bar.button(
        "",
        icon=":material/chevron_right:",
        key="forward",
        on_click=_set_step,
        args=(min(last, step + 1),),
        shortcut="Right",
        help=tr("One action forward (→)"),
        disabled=step >= last,
    )
    bar.button(
        "",
        icon=":material/keyboard_double_arrow_right:",
        key="trick_forward",
        on_click=_set_step,
        args=(vm.next_stop(STOPS, step, True),),
        shortcut="Down",
        help=tr("One trick forward (↓ or PageDown)"),
        disabled=step >= last,
    )
    bar.button(
        "",
        icon=":material/last_page:",
        key="end",
        on_click=_set_step,
        args=(last,),
        shortcut="End",
        help=tr("The last action (End)"),
        disabled=step >= last,
    )
    problem = view.first_problem_step()
    if problem is not None:
        bar.button(
            tr("First problem"),
            icon=":material/report:",
            key="first_problem",
            on_click=_set_step,
            args=(problem,),
            help=tr("The position right after the first illegal action"),
        )
    bar.selectbox(
        tr("Jump to"),
        [s for _, s in JUMPS],
        index=None,
        key=choice("jump"),
        on_change=_jump,
        format_func=lambda s: next((lbl for lbl, x in JUMPS if x == s), str(s)),
        label_visibility="collapsed",
        placeholder=tr("Jump to…"),
        width=150,
    )
    with bar:
        seat_sel = url_selectbox(
            tr("View"),
            seat_opts,
            param="seat",
            key="replay_seat",
            default="all",
            format_func=lambda s: tr("all hands open") if s == "all" else players[int(s)],
            label_visibility="collapsed",
            width=160,
        )
    with bar:
        st.toggle(
            tr("Autoplay"),
            key="autoplay",
            help=tr("Plays on to the end at the chosen speed; stops at a problem"),
            disabled=step >= last,
        )
        st.selectbox(
            tr("Speed"),
            SPEEDS,
            index=1,
            key=choice("autoplay_speed"),
            format_func=lambda x: tr("{s} s per step", s=f"{x:g}"),
            label_visibility="collapsed",
            width=150,
        )
    # PageUp/PageDown: the same moves as ↑/↓, on buttons kept out of sight (one shortcut each)
    keys = st.container(key="page_keys")
    keys.button(
        tr("One trick back (↑ or PageUp)"),
        key="page_up",
        on_click=_set_step,
        args=(vm.next_stop(STOPS, step, False),),
        shortcut="PageUp",
    )
    keys.button(
        tr("One trick forward (↓ or PageDown)"),
        key="page_down",
        on_click=_set_step,
        args=(vm.next_stop(STOPS, step, True),),
        shortcut="PageDown",
    )
    assert (None if seat_sel in (None, "all") else int(seat_sel)) == only
    stopped = ss.pop("_autoplay_stopped", None)
    if stopped is not None and stopped == step and step < last:
        st.caption(tr("Autoplay stopped at a problem."))
    # ---------------------------------------------------------------- the table
    row = valued(step, cur, only)
    values: dict[int, dict[str, str]] = {}
    trick_values: dict[str, str] = {}
    best: list[str] = []
    if row is not None and cur.action is not None:
        played_card = str(row["card"])
        best = [str(c) for c in row["best_cards"]]
        values[cur.action.seat] = {
            str(c): _value_text(v) for c, v in row["values"].items() if c != played_card
        }
        if played_card in row["values"]:
            trick_values[played_card] = _value_text(row["values"][played_card])
    pos = position(
        view,
        step,
        players=players,
        lang=LANG,
        viewer=only,
        allowed=allowed,
        card_values=values,
        trick_values=trick_values,
        best=best,
    )
    st.html(table_html(pos, LANG, player_view=_analysis_view() == "player"))
    # ---------------------------------------------------------------- the action and its verdict
    for v in cur.violations:
        worded = view.finding_of(v)
        said = masked_text(finding_text(worded), view.players) if worded else v.message
        verdict = (
            f"**{tr('Illegal action')}** — {md(said)}  \n"
            f"{tr('Rule')}: **{md(v.rule or '—')}** · {tr('code')} {md(v.code)}"
        )
        if v.severity == "error":
            st.error(verdict, icon=":material/block:")
        else:
            st.warning(
                verdict.replace(tr("Illegal action"), tr("Warning")), icon=":material/warning:"
            )
    if allowed:
        st.caption(
            tr(
                "The rules allowed: {cards}",
                cards=md(text.cards_text(allowed, view.game, lang=LANG)),
            )
        )
    state: dict[str, Any] = cur.view or {}
    if "error" in state:
        st.warning(tr("The engine could not show this position.") + f" {md(state['error'])}")
    card_values(step, cur, only)
    par_values(cur, only)

    st.markdown("**" + tr("Actions") + "**")
    st.session_state["action_list"] = step
    with st.container(height=260, key="action_list_box"):
        st.radio(
            tr("Actions"),
            list(range(len(ENTRIES))),
            key="action_list",
            format_func=_entry_label,
            on_change=_picked_action,
            label_visibility="collapsed",
        )
    # the page's own script (no data in it, nothing fetched): scroll the action list's box
    # (only the box, never the page) so that the current line is in its middle; the step in
    # the text makes Streamlit run it again at each step. It waits for the list to show the
    # step: the script can run before the radio is drawn anew.
    st.html(
        "<script>(() => { let tries = 0; const step = STEP; const go = () => {"
        "const box = document.querySelector('.st-key-action_list_box');"
        "const inputs = box ? box.querySelectorAll('input[type=radio]') : [];"
        "const el = inputs[step];"
        "if (!el || !el.checked) { if (tries++ < 60) setTimeout(go, 50); return; }"
        "const line = el.closest('label');"
        "let sc = line.parentElement;"
        "while (sc && sc !== box.parentElement && !(sc.scrollHeight > sc.clientHeight + 1"
        " && /auto|scroll/.test(getComputedStyle(sc).overflowY))) sc = sc.parentElement;"
        "if (!sc || sc === box.parentElement) return;"
        "const top = line.getBoundingClientRect().top - sc.getBoundingClientRect().top;"
        "sc.scrollTop += top - (sc.clientHeight - line.offsetHeight) / 2;"
        "}; go(); })();</script>".replace("STEP", str(step)),
        unsafe_allow_javascript=True,
    )
    rows = vm.trick_rows(state, players, vm.trick_sides(view, state), game=view.game, lang=LANG)
    if rows:
        st.markdown("**" + tr("Tricks") + "**")
        # the figures first (won by, points, running totals), the cards last: on a narrow
        # screen what is cut off is the end of the cards, which the table above shows
        cols = list(rows[0])
        first = [tr("trick"), tr("won by"), tr("points")]
        order = [c for c in first if c in cols]
        order += [c for c in cols if c not in order and c not in (tr("cards"), tr("led by"))]
        order += [c for c in (tr("led by"), tr("cards")) if c in cols]
        st.dataframe(rows, hide_index=True, width="stretch", column_order=order)
    else:
        st.caption(tr("No trick played yet."))

    # ---------------------------------------------------------------- the end of the hand
    if step == last:
        irregular = view.irregularities
        if irregular is None:
            irregular = data(q.hand_irregularities, view.hand_id)
        end = vm.end_summary(view, players, LANG, irregular)
        with st.container(border=True, key="end_panel"):
            st.markdown("**" + tr("End of the hand") + ":** " + md(end["headline"]))
            if end["card_points"]:
                st.caption(end["card_points"])
            if end["items"]:
                st.dataframe(end["items"], hide_index=True, width="stretch")
            if end["radelci"]:
                st.dataframe(end["radelci"], hide_index=True)
            if end["remaining"]:
                st.markdown("**" + tr("Cards still held when the hand ended") + "**")
                for name, cards in end["remaining"]:
                    st.markdown(md(f"{name}: {text.cards_text(cards, view.game, lang=LANG)}"))

    # ---------------------------------------------------------------- legal alternatives
    # In one seat's view, other seats' alternatives would reveal their cards: not shown.
    # A question for the engine (the steps themselves are the store's): asked on demand.
    if cur.action is not None and (only is None or cur.action.seat == only):
        with st.expander(tr("Legal alternatives to this action"), expanded=bool(cur.violations)):
            if st.toggle(tr("Ask the rules engine"), key="ask_alternatives"):
                engine_view = hand_view(view.hand_id, engine=True)
                alts = vm.alternatives(engine_view, step - 1) if engine_view is not None else []
                st.markdown(
                    md(
                        ", ".join(text.action_phrase(a, view.game, lang=LANG) for a in alts[:60])
                        or tr("none")
                    )
                )


st.fragment(one_version(viewer), run_every=SPEED if PLAYING else None)()
# the hand's score is the same at every step: drawn once per hand, outside the fragment
# that a step reruns (its tables were most of a step's server time)
with st.expander(tr("Score: recorded vs recomputed"), expanded=False):
    score_table(view, players)
    for u in view.unverified:
        st.warning(tr("Unverified") + f": {md(u)}")

# ---------------------------------------------------------------- other hands
with st.expander(tr("Other hands"), icon=":material/swap_horiz:"):
    h1, h2 = st.columns(2)
    h1.button(
        tr("Previous hand"),
        key="prev_hand",
        icon=":material/skip_previous:",
        on_click=_goto_hand,
        args=(view.prev_hand,),
        disabled=view.prev_hand is None,
        width="stretch",
    )
    h2.button(
        tr("Next hand"),
        key="next_hand",
        icon=":material/skip_next:",
        icon_position="right",
        on_click=_goto_hand,
        args=(view.next_hand,),
        disabled=view.next_hand is None,
        width="stretch",
    )
    p1, p2, p3 = st.columns([2, 1, 1])
    ids_at_table = [str(p["id"]) for p in view.seating]
    seat_of = {pid: i for i, pid in enumerate(ids_at_table)}
    if st.session_state.get("follow") not in seat_of:
        st.session_state["follow"] = None
    follow = p1.selectbox(
        tr("Follow a player"),
        ids_at_table,
        format_func=lambda pid: players[seat_of[pid]],
        key=choice("follow"),
        placeholder=tr("Follow a player across hands…"),
        label_visibility="collapsed",
    )
    back_of = data(q.player_neighbour_hand, hand_id, follow, False) if follow else None
    next_of = data(q.player_neighbour_hand, hand_id, follow, True) if follow else None
    p2.button(
        tr("Their previous hand"),
        key="player_prev",
        icon=":material/person:",
        width="stretch",
        on_click=_goto_hand,
        args=back_of or (None,),
        disabled=back_of is None,
    )
    p3.button(
        tr("Their next hand"),
        key="player_next",
        icon=":material/person:",
        width="stretch",
        on_click=_goto_hand,
        args=next_of or (None,),
        disabled=next_of is None,
    )

st.html(
    "<style>"
    # PageUp/PageDown keep their shortcuts on buttons kept out of sight
    ".st-key-page_keys{position:absolute;width:1px;height:1px;overflow:hidden;"
    "clip-path:inset(50%)}"
    # (its wrapper takes no room: no gap of the page's column for it)
    "[data-testid='stLayoutWrapper']:has(>.st-key-page_keys){display:contents}"
    # less room above the title, so that the toolbar and the table are in sight at 1280 × 720
    "[data-testid='stMainBlockContainer']{padding-top:4rem}"
    "[data-testid='stMainBlockContainer'] [data-testid='stVerticalBlock']{gap:.6rem}"
    "h1{padding-top:0 !important;padding-bottom:0 !important;font-size:1.8rem !important}"
    ".st-key-toolbar{flex-wrap:wrap;row-gap:6px}"
    # the keys are in each button's tooltip; the key caps would push the toolbar wider
    ".st-key-toolbar kbd, .st-key-toolbar [data-testid='stButtonShortcut']{display:none}"
    # on a phone the toolbar stays in reach at the bottom of the screen, wrapping into rows
    # (no control beyond the screen's edge), while the table scrolls by; the key caps of
    # the shortcuts (no keyboard there) are left out
    "@media (max-width:700px){"
    ".st-key-toolbar{position:fixed;left:0;right:0;bottom:0;z-index:999990;"
    "background:#fff;padding:4px 6px;border-top:1px solid #ccc;gap:4px !important;"
    "row-gap:4px !important}"
    ".st-key-toolbar button{padding-left:6px;padding-right:6px;min-height:34px;"
    "padding-top:2px;padding-bottom:2px}"
    # the selects' values whole ("alle Karten offen", "vse karte odprte"): a smaller font
    # and no button padding inside them (the toolbar's buttons keep theirs)
    ".st-key-toolbar [data-testid='stSelectbox'] input{padding-left:6px;padding-right:0;"
    "font-size:13px}"
    ".st-key-toolbar [data-testid='stSelectbox'] button{min-width:0;padding:0 2px 0 0}"
    # the whole table above the pinned toolbar (all four seats and the trick in sight):
    # the page's title left to the menu (the picker says what the page is), the hand's
    # header line on one line (cut with an ellipsis)
    "[data-testid='stColumn']:has(h1){display:none}"
    ".st-key-replay_head p{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;"
    "margin:0}"
    # the pinned toolbar in two rows: the moves, the first problem (its icon) and the
    # autoplay switch; then the jump, the view and the speed sharing the width
    ".st-key-toolbar button{min-width:32px;padding-left:5px;padding-right:5px}"
    ".st-key-first_problem button [data-testid='stMarkdownContainer']{display:none}"
    ".st-key-toolbar [data-testid='stTooltipIcon']{display:none}"
    ".st-key-toolbar .st-key-autoplay{order:1}"
    ".st-key-toolbar .st-key-jump,.st-key-toolbar .st-key-replay_seat,"
    ".st-key-toolbar .st-key-autoplay_speed{order:2;flex:1 1 30%;width:auto !important;"
    "min-width:0}"
    "[data-testid='stLayoutWrapper']:has(>.st-key-toolbar){display:contents}"
    "[data-testid='stMain']{padding-bottom:110px}}"
    "</style>"
)
