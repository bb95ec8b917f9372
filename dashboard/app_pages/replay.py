"""Replay: one hand, action by action, as the rules engine saw it.

Deep link: ``/replay?hand=<hand_id>&step=<n>&seat=<s|all>`` (step 0 is the deal; step k is
the position after the k-th action). The hand, step and seat widgets are bound to the URL, so
every view is shareable; unknown values are ignored (validated against the database).
"""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from dashboard import view_model as vm
from dashboard.state import data, hand_view, masked, require_db, score_table, url_selectbox
from dashboard.view_model import HandView
from dashboard.view_model import md_text as md
from tarock_logs.report import text
from tarock_logs.report.cards_svg import cards_svg
from tarock_logs.store import queries as q

require_db()
sessions: pl.DataFrame = data(q.sessions_index)
sessions = sessions.filter(pl.col("n_hands") > 0)
if sessions.is_empty():
    st.info("The database holds no hands yet.")
    st.stop()
sids: list[str] = sessions["session_id"].to_list()
slabels = dict(zip(sids, sessions["label"].to_list(), strict=True))


def _reset_step() -> None:
    st.session_state["step"] = 0


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
    if choice:
        st.session_state["step"] = int(choice.rsplit("step ", 1)[1].rstrip(")"))
    st.session_state["jump"] = None


def _new_session() -> None:
    st.session_state["replay_hand"] = None
    st.session_state["step"] = 0


st.title("Replay")
# A deep link names the hand; its session is looked up (and so validated) in the database.
url_hand = st.query_params.get("hand")
if url_hand and url_hand != st.session_state.get("_url_seen_replay_hand"):
    url_session = data(q.hand_session, url_hand)
    if url_session in slabels:
        st.session_state["replay_session"] = url_session
if st.session_state.get("replay_session") not in slabels:
    st.session_state["replay_session"] = sids[0]
c_session, c_hand = st.columns([3, 2])
session_id = c_session.selectbox(
    "Session",
    sids,
    key="replay_session",
    format_func=lambda s: slabels.get(s, s),
    on_change=_new_session,
)
hands: pl.DataFrame = data(q.session_hands, session_id)
ids: list[str] = hands["hand_id"].to_list()
labels = {
    r["hand_id"]: f"hand {r['number']}"
    + (f" · {r['contract']}" if r["contract"] else "")
    + (" [illegal]" if r["illegal"] else "")
    + (" [score≠]" if r["discrepancy"] else "")
    for r in hands.to_dicts()
}
with c_hand:
    hand_id = url_selectbox(
        "Hand",
        ids,
        param="hand",
        key="replay_hand",
        default=ids[0] if ids else None,
        format_func=lambda h: labels.get(h, h),
        on_change=_reset_step,
        help="[illegal]: an illegal action · [score≠]: a score difference",
    )
if not hand_id:
    st.info("Select a hand to replay.")
    st.stop()
found = hand_view(hand_id)
if found is None:
    st.error("Unknown hand.")
    st.stop()
view: HandView = found  # (the fragment below sees it as a HandView)

players = [masked(p) for p in view.players]
n_seats = len(players)
last = view.n_steps

# ---------------------------------------------------------------- header
st.caption(
    f"{md(vm.event_line(view))} — session {md(view.session_id)}, hand {view.number}, "
    f"{md(view.game)}, ruleset {md(view.ruleset)}"
)
roles = []
if view.contract:
    roles.append(f"contract **{md(view.contract)}**")
if view.declarer is not None:
    roles.append(f"declarer **{md(players[view.declarer])}**")
if view.partner is not None:
    roles.append(f"partner **{md(players[view.partner])}**")
called = (view.steps[-1].view or {}).get("called_king") if view.steps else None
if called:
    roles.append(f"called king **{md(called)}**")
if view.won is not None:
    roles.append("won" if view.won else "lost")
if roles:
    st.markdown(" · ".join(roles))

h1, h2, h3, h4 = st.columns([1, 1, 1, 1])
autoplay = h3.toggle("Autoplay", key="autoplay", help="step forward by itself")
speed = h4.select_slider(
    "Seconds per step",
    [0.5, 1.0, 2.0, 4.0],
    value=1.0,
    key="autoplay_speed",
    label_visibility="collapsed",
    disabled=not autoplay,
)
h1.button(
    "Previous hand",
    key="prev_hand",
    icon=":material/skip_previous:",
    on_click=_goto_hand,
    args=(view.prev_hand,),
    disabled=view.prev_hand is None,
    width="stretch",
    help="previous hand of this session",
)
h2.button(
    "Next hand",
    key="next_hand",
    icon=":material/skip_next:",
    icon_position="right",
    on_click=_goto_hand,
    args=(view.next_hand,),
    disabled=view.next_hand is None,
    width="stretch",
    help="next hand of this session",
)

p1, p2, p3 = st.columns([2, 1, 1])
ids_at_table = [p.id for p in view.session.players] if view.session is not None else []
seat_of = {pid: i for i, pid in enumerate(ids_at_table)}
if st.session_state.get("follow") not in seat_of:
    st.session_state["follow"] = None
follow = p1.selectbox(
    "Follow a player",
    ids_at_table,
    format_func=lambda pid: players[seat_of[pid]],
    key="follow",
    placeholder="Follow a player across hands…",
    label_visibility="collapsed",
)
back_of = data(q.player_neighbour_hand, hand_id, follow, False) if follow else None
next_of = data(q.player_neighbour_hand, hand_id, follow, True) if follow else None
p2.button(
    "Their previous hand",
    key="player_prev",
    icon=":material/person:",
    width="stretch",
    on_click=_goto_hand,
    args=back_of or (None,),
    disabled=back_of is None,
)
p3.button(
    "Their next hand",
    key="player_next",
    icon=":material/person:",
    width="stretch",
    on_click=_goto_hand,
    args=next_of or (None,),
    disabled=next_of is None,
)

if not view.steps:
    st.warning("This hand could not be replayed: " + md("; ".join(view.unverified)))
    st.stop()


def viewer() -> None:
    """The position at one step: reruns alone when the step or the view changes (and every
    ``speed`` seconds while autoplay is on, one step further each time)."""
    if autoplay:
        now = int(st.session_state.get("step", 0) or 0)
        if now < last:
            st.session_state["step"] = now + 1
    # ---------------------------------------------------------------- position and controls
    c1, c2 = st.columns([3, 1])
    step = c1.slider("Step", 0, max(last, 1), key="step", bind="query-params", disabled=last == 0)
    step = min(int(step), len(view.steps) - 1) if view.steps else 0
    seat_opts = ["all"] + [str(i) for i in range(n_seats)]
    with c2:
        seat_sel = url_selectbox(
            "View",
            seat_opts,
            param="seat",
            key="replay_seat",
            default="all",
            format_func=lambda s: (
                "all hands open" if s == "all" else f"seat {s}: {players[int(s)]}"
            ),
        )
    only = None if seat_sel in (None, "all") else int(seat_sel)

    nav = st.columns(5)
    nav2 = st.columns([2, 2])
    nav[0].button(
        "First", icon=":material/first_page:", on_click=_set_step, args=(0,), width="stretch"
    )
    nav[1].button(
        "Back",
        icon=":material/chevron_left:",
        key="back",
        on_click=_set_step,
        args=(step - 1,),
        shortcut="Left",
        disabled=step <= 0,
        width="stretch",
    )
    nav[2].button(
        "Next",
        icon=":material/chevron_right:",
        icon_position="right",
        key="forward",
        on_click=_set_step,
        args=(min(last, step + 1),),
        shortcut="Right",
        disabled=step >= last,
        width="stretch",
    )
    nav[3].button(
        "Last",
        icon=":material/last_page:",
        icon_position="right",
        on_click=_set_step,
        args=(last,),
        width="stretch",
    )
    problem = view.first_problem_step()
    nav[4].button(
        "First problem",
        icon=":material/report:",
        key="first_problem",
        on_click=_set_step,
        args=(problem or 0,),
        disabled=problem is None,
        width="stretch",
        help="the position right after the first illegal action",
    )
    marks = vm.phase_marks(view)
    nav2[0].selectbox(
        "Jump to",
        [f"{lbl} (step {s})" for lbl, s in marks],
        index=None,
        key="jump",
        on_change=_jump,
        label_visibility="collapsed",
        placeholder="Jump to…",
    )
    cur = view.steps[step]
    state: dict[str, Any] = cur.view or {}

    # ---------------------------------------------------------------- the action and its verdict
    st.subheader(
        f"Step {step} of {last}: {md(vm.step_text(view, cur.action, players, step=step))}",
        anchor=False,
    )
    offending_cards: set[str] = set()
    for v in cur.violations:
        rule = f"Rule: **{md(v.rule or '—')}** · code {md(v.code)}"
        if v.severity == "error":
            st.error(f"**Illegal action** — {md(v.message)}  \n{rule}", icon=":material/block:")
        else:
            st.warning(f"**Warning** — {md(v.message)}  \n{rule}", icon=":material/warning:")
        if v.card:
            offending_cards.add(v.card)
    if cur.action is not None and not cur.violations:
        st.success("Legal", icon=":material/check_circle:")
    if "error" in state:
        st.warning(f"The engine could not show this position: {md(state['error'])}")

    # ---------------------------------------------------------------- the table
    left, right = st.columns([3, 2])
    with left:
        played = vm.played_by_seat(state, n_seats)
        hands = state.get("hands") or view.deal
        to_move = state.get("to_move")
        for seat in range(n_seats):
            tags = []
            if seat == view.dealer:
                tags.append("dealer")
            if seat == state.get("declarer", view.declarer):
                tags.append("declarer")
            if state.get("partner") is not None and seat == state.get("partner"):
                tags.append("partner")
            if seat == to_move:
                tags.append("**to move**")
            held = list(hands[seat]) if seat < len(hands) else []
            st.markdown(
                f"**{md(players[seat])}** (seat {seat})" + (" — " + ", ".join(tags) if tags else "")
            )
            if only is not None and seat != only:
                st.caption(f"{len(held)} cards, hidden")
                continue
            if not held and not played[seat]:
                st.caption("no cards" if view.deal[seat] else "sits out")
                continue
            st.image(
                cards_svg(
                    held + played[seat],
                    greyed=played[seat],
                    highlight=offending_cards & set(played[seat]),
                    scale=0.8,
                    title=f"{players[seat]}: {text.cards_text(held, view.game)}",
                    game=view.game,
                )
            )
    with right:
        trick = state.get("trick") or []
        if (
            not trick
            and state.get("tricks")
            and cur.action is not None
            and cur.action.type == "play"
        ):
            trick = state["tricks"][-1].get("cards") or []  # the trick just completed
        st.markdown("**On the table**")
        if trick:
            st.image(
                cards_svg(
                    [c for _, c in trick],
                    highlight=offending_cards,
                    captions=[players[s].split()[0] for s, _ in trick],
                    scale=0.9,
                    game=view.game,
                )
            )
        else:
            st.caption("no trick in progress")
        groups = state.get("talon_groups") or ([state["talon"]] if state.get("talon") else [])
        if groups:
            taken = state.get("talon_taken") or []
            st.markdown("**Talon**" + (" (the greyed group was taken)" if taken else ""))
            flat = [c for g in groups for c in g]
            caps = (
                [f"group {i}" for i, g in enumerate(groups) for _ in g] if len(groups) > 1 else None
            )
            st.image(cards_svg(flat, greyed=taken, captions=caps, scale=0.6, game=view.game))
        discards = state.get("discards")
        if discards and (only is None or only == view.declarer):
            st.markdown("**Discards**")
            st.image(
                cards_svg(list(discards), highlight=offending_cards, scale=0.6, game=view.game)
            )

    h1, h2, h3 = st.columns(3)
    with h1:
        st.markdown("**Bidding**")
        st.text("\n".join(vm.history_lines(players, state.get("bids"))) or "—")
    with h2:
        st.markdown("**Announcements**")
        st.text("\n".join(vm.history_lines(players, state.get("announcements"))) or "—")
    with h3:
        st.markdown("**Kontras**")
        st.text("\n".join(vm.history_lines(players, state.get("kontras"))) or "—")

    side = set()
    if view.declarer is not None:
        side = {view.declarer} | ({view.partner} if view.partner is not None else set())
    rows = vm.trick_rows(state, players, side)
    if rows:
        st.markdown("**Tricks**")
        st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")

    # ---------------------------------------------------------------- legal alternatives
    # In one seat's view, other seats' alternatives would reveal their cards: not shown.
    if cur.action is not None and (only is None or cur.action.seat == only):
        alts = vm.alternatives(view, step - 1)
        with st.expander(
            f"Legal alternatives to this action ({len(alts)})", expanded=bool(cur.violations)
        ):
            st.markdown(
                md(", ".join(text.action_phrase(a, view.game) for a in alts[:60]) or "none")
            )
    nxt = vm.alternatives(view, step) if step < last else []
    if only is not None:
        nxt = [a for a in nxt if a.seat == only]
    if nxt:
        with st.expander(f"Legal next actions ({len(nxt)})"):
            st.markdown(md(", ".join(vm.step_text(view, a, players) for a in nxt[:60])))

    # ---------------------------------------------------------------- score
    with st.expander("Score: recorded vs recomputed", expanded=step == last):
        score_table(view, players)
        for u in view.unverified:
            st.warning(f"Unverified: {md(u)}")


st.fragment(viewer, run_every=speed if autoplay else None)()
