"""Enter a hand at the table: the deal by clicks (or pasted tokens), then every action with the
engine offering the legal choices, an illegal action recorded anyway and judged at once, the
irregularities and the written score; the result is a log file and its dossier.

Everything the page does is :class:`dashboard.entry_model.Entry` (Streamlit-free); the page
keeps one in the browser session and presents it. It never touches the store: the log is
downloaded, or saved as a new file into the entry box of ``tarock dashboard --entry-dir DIR``
(:mod:`dashboard.entries`), where it waits until a referee accepts it for ``tarock ingest``
(the list at the page's end). The page is a referee's: a public server's visitors do not
have it (:mod:`dashboard.access`). One column of wrapping buttons, so that it works on a phone
held in one hand: once the deal is complete it folds away and the actions come first.

At the table a slip must not record a renons: a card the rules forbid is offered under
*Record anyway*, drawn in a warning style, and a tap on it only asks; a second tap on
*Yes, record it* records it (*Cancel* forgets it). Cards are written with red hearts and
diamonds and black spades and clubs; a talon group to take is shown with its cards.

The page is drawn in parts (Streamlit's keyed fragments: the status line, the table, the deal,
the actions, the irregularities, the score, the conclusions, the entry box): a click draws
again only the parts it changes (:func:`_rerun`), so that a card or a choice does not send
the table's and the irregularities' widgets, the dealt cards and the rest to the browser
again; a click that changes which parts the page has (the deal completed or opened again,
the mode) draws the whole page. Streamlit's browser side still draws the whole page again at
every run, so a folded section (the complete deal, every verdict, the two forms) draws what it
holds only once unfolded (:func:`_folding`).

A **counted** hand (log format 1.2) is entered in the other mode: the contract and its
announcements, then the cards tapped into their places (the talon, the cards the declarer took
and laid away, the declarer's side's pile; in klop each player's pile but the last); the
other side's pile is the rest of the pack (:class:`dashboard.entry_model.CountEntry`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from dashboard.entries import EntryBox, EntryRefused
from dashboard.entry_model import GAMES, CountEntry, Entry, default_name, said_fields
from dashboard.state import choice, entry_dir, finding_text, lang, tr
from dashboard.view_model import md_text as md
from tarock_logs.log.models import Renons
from tarock_logs.report import text
from tarock_logs.report.cards_svg import cards_svg

SUITS = {
    "T": "Remaining taroks",
    "H": "Remaining hearts",
    "D": "Remaining diamonds",
    "S": "Remaining spades",
    "C": "Remaining clubs",
}
ACTION_TYPES = (
    "play",
    "bid",
    "pass",
    "call",
    "talon",
    "announce",
    "kontra",
    "lezim",
    "claim",
    "throw_in",
)
RENONS_KINDS: tuple[str, ...] = Renons.model_fields["kind"].annotation.__args__  # type: ignore[union-attr]

st.title(tr("Enter a hand"))
st.caption(
    tr(
        "Reconstruct a hand at the table: the seating, the deal, then every action in order. "
        "The engine offers the legal choices and judges anything else at once. The page "
        "writes a log file and its dossier; it never writes the database."
    )
)


def entry() -> Entry:
    e = st.session_state.get("entry")
    if not isinstance(e, Entry):
        e = st.session_state["entry"] = Entry(lang=lang())
    return e


def _relabel() -> None:
    """The seats without a player's name take their default name in the page's language
    (before the seat fields are drawn)."""
    e = entry()
    if e.lang != lang() and e.relabel(lang()):
        for s, name in enumerate(e.players):
            st.session_state[f"e_player_{s}"] = name


def _note(msg: str, kind: str = "error") -> None:
    st.session_state["entry_note"] = (kind, msg)


#: the parts of the page drawn on their own (keyed fragments), in the page's order
PARTS = ("status", "table", "deal", "play", "irr", "score", "concl", "count", "box")
#: the parts of a hand entered card by card, drawn as one part in the counted mode
_IN_COUNT = frozenset({"deal", "play", "irr", "score", "concl"})


def _layout(e: Entry) -> tuple[bool, bool]:
    """What decides which parts the page has: the counted mode, and (card by card) whether
    the deal is complete (then the actions and what follows them are drawn)."""
    counted = bool(st.session_state.get("e_mode"))
    return counted, not counted and e.deal_complete


def _table_open(e: Entry, counted: bool) -> bool:
    """Whether the table's fields are unfolded: until the first card or action is entered
    (counted: until the contract is chosen)."""
    if counted:
        return count_entry(e).contract is None
    return not e.actions and not any(e.hands)


def _rerun(*parts: str) -> None:
    """End a click's callback by drawing again only the parts of the page it changed (and the
    status line, which says what the click did); the whole page when the click changed which
    parts it has (:func:`_layout`). The table is drawn again when it is to fold or unfold,
    the dealt cards when the first action locks them or its undo frees them."""
    ss = st.session_state
    e = entry()
    counted, complete = _layout(e)
    if (counted, complete) != ss.get("e_layout"):
        st.rerun()
    wanted = ["status", *parts]
    if _table_open(e, counted) != ss.get("e_table_open"):
        wanted.append("table")
    if complete and bool(e.actions) != ss.get("e_deal_locked"):
        wanted.append("deal")
    drawn = ss.get("e_parts") or ()
    keys = {f"entry_{'count' if counted and p in _IN_COUNT else p}" for p in wanted}
    st.rerun([f"entry_{p}" for p in PARTS if f"entry_{p}" in keys and p in drawn])


def _folding(label: str, key: str, *, icon: str | None = None) -> Any:
    """An expander whose content is drawn only while it is unfolded (its ``.open``): opening
    or folding it draws its part of the page again. Streamlit's browser side draws the whole
    page again at every run, even a part's, so a folded expander's widgets and buttons (the
    54 dealt cards, the list of verdicts, the forms) would cost every click."""
    return st.expander(label, key=key, icon=icon, on_change="rerun")


def _all_parts() -> None:
    """A change of the table (names, dealer, session id, event): every part says it."""
    _rerun("table", "deal", "play", "irr", "score", "concl", "count")


#: the suits written in red (hearts, diamonds); the others black
RED_SUITS = frozenset("HD")


def card(c: str) -> str:
    """A card as a button or caption label: red hearts and diamonds (Streamlit's ``:red[…]``
    colour), the others in the text's own black."""
    said = md(text.card_text(c, entry().game))
    return f":red[{said}]" if c[:1] in RED_SUITS and len(c) > 1 else said


def cards_label(cards: list[str]) -> str:
    return " ".join(card(c) for c in cards)


# ------------------------------------------------------------------------------ callbacks


def _set_table() -> None:
    e = entry()
    ss = st.session_state
    game = ss.get("e_game", e.game)
    n = int(ss.get("e_size", e.n))
    if game != e.game:  # a new game: its own ruleset and table size
        probe = Entry(game=game, lang=lang())
        ss["e_ruleset"], n = probe.ruleset, probe.n
        ss["e_size"] = n
    names = [ss.get(f"e_player_{s}") or default_name(s, lang()) for s in range(n)]
    dealer = ss.get("e_dealer", e.dealer)
    e.set_table(
        game=game,
        ruleset=ss.get("e_ruleset", e.ruleset),
        players=names,
        dealer=dealer if isinstance(dealer, int) and dealer < n else n - 1,
    )
    ss["e_dealer"] = e.dealer
    for s, name in enumerate(e.players):
        ss[f"e_player_{s}"] = name
    _all_parts()


def _set_session_id() -> None:
    value = (st.session_state.get("e_session_id") or "").strip()
    if value:
        entry().session_id = value
    _all_parts()


def _set_event() -> None:
    """The event fields into the entry's log (``event``: name, date, round, table)."""
    ss = st.session_state
    day = ss.get("e_ev_date")
    rnd = ss.get("e_ev_round")
    entry().event = {
        "name": (ss.get("e_ev_name") or "").strip() or None,
        "date": day.isoformat() if isinstance(day, dt.date) else None,
        "round": int(rnd) if isinstance(rnd, int) and rnd > 0 else None,
        "table": (ss.get("e_ev_table") or "").strip() or None,
    }
    _all_parts()


def _buttons(
    key: str,
    title: str,
    items: list[tuple[str, str]],
    on_click: Any,
    *,
    chosen: Any = (),
    disabled: bool = False,
) -> None:
    """A titled row of wrapping buttons (one per item ``(value, label)``), the way cards and
    choices are clicked on this page: a click is one event calling ``on_click(value)``, so
    clicking the same label twice in a row (two passes) records it twice, and nothing stays
    selected in the browser. ``chosen`` values are drawn as primary buttons. The row's key
    names it for tests (``.st-key-<key>``); each button's key holds its value, so a click on
    a row drawn before the last change is never read as another choice."""
    st.markdown(f"**{title}**")
    with st.container(horizontal=True, key=key, gap="small"):
        for value, label in items:
            st.button(
                label,
                key=f"{key}__{value}",
                on_click=on_click,
                args=(value,),
                type="primary" if value in chosen else "secondary",
                disabled=disabled,
            )


def _deal_clicked(c: str) -> None:
    why = entry().deal_card(c)
    if why:
        _note(why)
    _rerun("deal")


def _undeal_clicked(target: int, c: str) -> None:
    entry().undeal(target, c)
    _rerun("deal")


def _target_clicked(t: int) -> None:
    entry().target = int(t)
    _rerun("deal")


def _deal_rest() -> None:
    entry().deal_rest()
    _rerun("deal")


def _paste() -> None:
    e = entry()
    problems = e.paste(e.target, st.session_state.get("e_paste", ""))
    st.session_state["e_paste"] = ""
    if problems:
        _note("; ".join(problems))
    _rerun("deal")


def _acted() -> None:
    """An action was recorded or undone: the actions and the conclusions change."""
    _rerun("play", "concl")


def _illegal_clicked(value: str) -> None:
    """A tap on a choice the rules forbid only asks (a slip must not record a renons)."""
    st.session_state["e_pending_bad"] = value
    _rerun("play")


def _illegal_confirmed() -> None:
    value = st.session_state.pop("e_pending_bad", None)
    if value:
        _choice_clicked(value)
    _rerun("play")


def _illegal_cancelled() -> None:
    st.session_state.pop("e_pending_bad", None)
    _rerun("play")


def _choice_clicked(value: str) -> None:
    """Record the choice ``value`` (``<action count>:<the action as JSON>``): a choice offered
    before the last action was recorded or undone is not recorded."""
    n, _, action = value.partition(":")
    e = entry()
    if int(n) == len(e.actions):
        e.push(json.loads(action))
    _acted()


def _discard_toggled(c: str) -> None:
    chosen: list[str] = st.session_state.setdefault("e_discard", [])
    if c in chosen:
        chosen.remove(c)
    else:
        chosen.append(c)
    _rerun("play")


def _discard() -> None:
    seat = st.session_state.get("e_discard_seat")
    cards = list(st.session_state.get("e_discard") or [])
    if isinstance(seat, int) and cards:
        entry().discard(seat, cards)
        st.session_state["e_discard"] = []
    _acted()


def _undo() -> None:
    entry().undo()
    _acted()


def _free_action() -> None:
    ss = st.session_state
    t = ss.get("e_free_type")
    value = (ss.get("e_free_value") or "").strip()
    a: dict[str, Any] = {"type": t, "seat": ss.get("e_free_seat")}
    try:
        if t in ("play", "call"):
            a["card"] = value.upper()
        elif t == "bid":
            a["contract"] = value
        elif t == "talon":
            a["group"] = int(value)
        elif t == "announce":
            a["bonus"] = value
        elif t == "kontra":
            target, _, level = value.partition(":")
            a["target"] = target or "game"
            a["level"] = int(level or 1)
        elif t == "claim":
            a["claim"] = value or "rest"
        entry().push(a)
        ss["e_free_value"] = ""
    except Exception as exc:  # noqa: BLE001 - a malformed action: say why, record nothing
        _note(tr("Not recorded: {why}", why=str(exc)))
    _acted()


def _add_irregularity() -> None:
    ss = st.session_state
    e = entry()
    kind = ss.get("e_irr_type")
    seat = ss.get("e_irr_seat")
    if kind == "renons":
        irr: dict[str, Any] = {
            "type": "renons",
            "offender": seat,
            "kind": ss.get("e_irr_kind") or "illegal_card",
        }
        if isinstance(ss.get("e_irr_by"), int):
            irr["called_by"] = ss["e_irr_by"]
        idx = ss.get("e_irr_action")
        if isinstance(idx, int) and 0 <= idx < len(e.actions):
            irr["action_index"] = idx
        if not ss.get("e_irr_upheld", True):
            irr["upheld"] = False
    elif kind == "misdeal":
        irr = {"type": "misdeal", "seat": seat}
    else:
        irr = {"type": "arbiter", "decision": (ss.get("e_irr_text") or "").strip() or "ruling"}
    e.irregularities.append(irr)
    _rerun("play", "irr", "concl")  # the engine replays the hand with its irregularities


def _drop_irregularity(i: int) -> None:
    irr = entry().irregularities
    if 0 <= i < len(irr):
        del irr[i]
    _rerun("play", "irr", "concl")


def _set_score() -> None:
    ss = st.session_state
    e = entry()
    e.scores = (
        [int(ss.get(f"e_score_{s}") or 0) for s in range(e.n)] if ss.get("e_has_score") else None
    )
    _rerun("score", "concl")


def _new_entry() -> None:
    game = entry().game
    mode = st.session_state.get("e_mode")
    for k in list(st.session_state):
        if str(k).startswith("e_") or k in ("entry", "entry_note", "count_entry"):
            del st.session_state[k]
    st.session_state["entry"] = Entry(game=game, lang=lang())
    if mode is not None:
        st.session_state["e_mode"] = mode


# ------------------------------------------------------------------------------ the page


def _table(e: Entry, counted: bool = False) -> None:
    # (drawn folded too: a field drawn afresh shows its default for a moment, and what is
    # read from the table right after unfolding it, the session id, must be the entry's)
    open_ = st.session_state["e_table_open"] = _table_open(e, counted)
    with st.expander(tr("Table: game, ruleset, players, dealer"), expanded=open_):
        ss = st.session_state
        ss.setdefault("e_game", e.game)
        st.selectbox(tr("Game"), GAMES, key="e_game", on_change=_set_table)
        ss.setdefault("e_ruleset", e.ruleset)
        st.selectbox(tr("Ruleset"), e.rulesets(), key="e_ruleset", on_change=_set_table)
        ss.setdefault("e_size", e.n)
        st.selectbox(
            tr("Players at the table"), list(e.table_sizes()), key="e_size", on_change=_set_table
        )
        for s in range(e.n):
            ss.setdefault(f"e_player_{s}", e.players[s])
            st.text_input(
                tr("Seat {seat} (in playing order)", seat=s + 1),
                key=f"e_player_{s}",
                on_change=_set_table,
            )
        ss.setdefault("e_dealer", e.dealer)
        st.selectbox(
            tr("Dealer"),
            list(range(e.n)),
            key="e_dealer",
            format_func=lambda s: md(e.players[s]),
            on_change=_set_table,
        )
        ss.setdefault("e_session_id", e.session_id)
        st.text_input(
            tr("Session id (the file name)"), key="e_session_id", on_change=_set_session_id
        )
        ev = e.event
        ss.setdefault("e_ev_name", ev.get("name") or "")
        st.text_input(tr("Event"), key="e_ev_name", on_change=_set_event)
        c_round, c_table, c_date = st.columns(3)
        ss.setdefault("e_ev_round", ev.get("round"))
        c_round.number_input(
            tr("Round"), min_value=1, max_value=99, step=1, key="e_ev_round", on_change=_set_event
        )
        ss.setdefault("e_ev_table", ev.get("table") or "")
        c_table.text_input(tr("Table"), key="e_ev_table", max_chars=32, on_change=_set_event)
        ss.setdefault("e_ev_date", dt.date.fromisoformat(ev["date"]) if ev.get("date") else None)
        c_date.date_input(tr("Date"), key="e_ev_date", on_change=_set_event)


def _target_label(e: Entry, t: int) -> str:
    return tr("the talon") if t == e.n else e.players[t]


def _deal(e: Entry) -> bool:
    """The deal section; True when the deal is complete (then it is folded away, so that on
    a phone the actions come first)."""
    counts = " · ".join(
        f"{md(_target_label(e, i))} {have}/{need}" for i, _, need, have in e.targets()
    )
    if e.deal_complete:
        st.success(tr("Deal complete."))
        box = _folding(tr("The deal") + " · " + counts, "e_x_deal", icon=":material/style:")
        if box.open:
            with box:
                _dealt(e)
        return True
    st.subheader(tr("The deal"))
    st.markdown(counts)
    if not e.deal_complete:
        targets = {i: f"{_target_label(e, i)} ({have}/{need})" for i, _, need, have in e.targets()}
        _buttons(
            "e_target",
            tr("Cards go to"),
            [(str(t), md(lab)) for t, lab in targets.items()],
            lambda t: _target_clicked(int(t)),
            chosen={str(e.target)},
        )
        groups: dict[str, list[str]] = {}
        for c in e.remaining():
            groups.setdefault(c[0], []).append(c)
        for suit, label in SUITS.items():
            if groups.get(suit):
                _buttons(
                    f"e_pack_{suit}",
                    tr(label),
                    [(c, card(c)) for c in groups[suit]],
                    _deal_clicked,
                )
        seat = e.fill_last()
        if seat is not None:
            st.button(
                tr(
                    "The remaining {n} cards to {player}",
                    n=len(e.remaining()),
                    player=md(e.players[seat]),
                ),
                key="e_fill_last",
                on_click=_deal_rest,
            )
        st.text_input(
            tr(
                "…or paste tokens for {target} (e.g. T1 T21 HK S10)",
                target=md(_target_label(e, e.target)),
            ),
            key="e_paste",
            on_change=_paste,
        )
    _dealt(e)
    msg, fields = e.statement()[0]
    st.info(tr(msg, **fields))
    return False


def _dealt(e: Entry) -> None:
    """Every target's cards dealt so far (a click takes a card back, before any action)."""
    for idx, _, need, have in e.targets():
        cards = e.talon if idx == e.n else e.hands[idx]
        if cards:
            _buttons(
                f"e_dealt_{idx}",
                tr(
                    "{place}: {have}/{need} (click a card to take it back)",
                    place=md(_target_label(e, idx)),
                    have=have,
                    need=need,
                ),
                [(c, card(c)) for c in cards],
                lambda c, idx=idx: _undeal_clicked(idx, c),
                disabled=bool(e.actions),
            )


def _verdict_line(v: Any) -> str:
    return f"{v.index}. {v.label}"


def _actions(e: Entry, r: Any) -> None:
    st.subheader(tr("The actions"))
    verdicts = e.verdicts(r)
    if verdicts:
        last = verdicts[-1]
        if last.legal:
            st.success(
                md(tr("{action}: legal", action=_verdict_line(last))), icon=":material/check:"
            )
        for x in last.violations:
            if x.severity == "error":
                worded = e.finding_of(x)
                st.error(
                    md(
                        tr(
                            "{action}: ILLEGAL — {code}: {message}",
                            action=_verdict_line(last),
                            code=x.code,
                            message=finding_text(worded) if worded else x.message,
                        )
                    ),
                    icon=":material/gavel:",
                )
        box = _folding(tr("Every action and its verdict"), "e_x_verdicts")
        if box.open:
            with box:
                for v in verdicts:
                    mark = "✓" if v.legal else "✖ " + "; ".join(x.code for x in v.violations)
                    st.text(f"{_verdict_line(v)}  {mark}")
    view = e.state_view(r)
    mover = e.to_move(r)
    phase = e.phase(r)
    trick = view.get("trick") or []
    if trick:
        played = ", ".join(f"{e.players[s]} {text.card_text(c, e.game)}" for s, c in trick)
        st.caption(md(tr("On the table: {cards}", cards=played)))
    if r is not None and r.state is not None and r.state.is_over():
        st.success(tr("The hand is over."))
    elif mover is not None:
        st.markdown(
            md(
                tr(
                    "{player} to move ({phase})",
                    player=e.players[mover],
                    phase=text.phase_name(phase),
                )
            )
        )
        if phase == "discard":
            seat, held, ok = e.discard_choices(r)
            k = e.discard_count(seat, r)
            st.session_state["e_discard_seat"] = seat
            chosen: list[str] = st.session_state.setdefault("e_discard", [])
            marks = {c: ("" if c in ok else " ✖") + (" ✓" if c in chosen else "") for c in held}
            _buttons(
                "e_discard_pick",
                tr("Lay away {n} cards: click to choose or unchoose (✖: not allowed)", n=k),
                [(c, card(c) + marks[c]) for c in held],
                _discard_toggled,
                chosen=set(chosen),
            )
            st.caption(tr("Chosen: {cards}", cards=text.cards_text(chosen, e.game)))
            st.button(
                tr("Discard {n} card(s)", n=len(chosen)),
                key="e_discard_go",
                on_click=_discard,
                disabled=len(chosen) != k,
            )
        else:
            choices = e.choices(r)
            n = len(e.actions)

            groups: list[list[str]] = [list(g) for g in view.get("talon_groups") or []]

            def label(c: Any) -> str:
                a = c.action
                said = md(c.label)
                for key in ("card",):  # a card in the words: in its suit's colour
                    tok = a.get(key)
                    if isinstance(tok, str) and tok[:1] in RED_SUITS:
                        plain = md(text.card_text(tok, e.game))
                        said = said.replace(plain, card(tok))
                g = a.get("group")
                if a.get("type") == "talon" and isinstance(g, int) and 0 <= g < len(groups):
                    said += ": " + cards_label(groups[g])
                return said

            def items(legal: bool) -> list[tuple[str, str]]:
                return [
                    (f"{n}:{json.dumps(c.action, sort_keys=True)}", label(c))
                    for c in choices
                    if c.legal is legal
                ]

            if groups and any(c.action.get("type") == "talon" for c in choices):
                _talon_groups(e, groups)
            _buttons("e_choice", tr("Legal choices"), items(True), _choice_clicked)
            if other := items(False):
                _record_anyway(other)
        held = e.held(mover, view)
        if held:
            st.image(cards_svg(held, game=e.game, scale=0.6))
    box = _folding(tr("Record another action (any seat, any action)"), "e_x_free")
    if box.open:  # (its fields keep what was typed while it is folded: ``persist_state``)
        with box:
            st.selectbox(
                tr("Seat"),
                list(range(e.n)),
                key="e_free_seat",
                persist_state="page",
                format_func=lambda s: md(e.players[s]),
            )
            st.selectbox(tr("Action"), ACTION_TYPES, key="e_free_type", persist_state="page")
            st.text_input(
                tr("Card, contract, bonus, talon group or kontra target[:level]"),
                key="e_free_value",
                persist_state="page",
            )
            st.button(tr("Record"), key="e_free_go", on_click=_free_action)
    if e.actions:
        st.button(tr("Undo the last action"), key="e_undo", on_click=_undo)


def _talon_groups(e: Entry, groups: list[list[str]]) -> None:
    """The talon's groups drawn as cards, numbered as the choices below number them."""
    with st.container(horizontal=True, key="e_talon_groups", gap="medium"):
        for g, cards in enumerate(groups):
            with st.container(key=f"e_talon_group_{g}", width="content"):
                st.caption(tr("group {g}", g=g))
                st.image(cards_svg(cards, game=e.game, scale=0.8))


def _record_anyway(items: list[tuple[str, str]]) -> None:
    """The choices the rules forbid, in a warning style; a tap asks, a second tap records."""
    pending = st.session_state.get("e_pending_bad")
    shown = dict(items)
    if pending in shown:
        with st.container(key="e_confirm_bad", border=True):
            st.warning(
                tr("Record {action} although the rules forbid it here?", action=shown[pending]),
                icon=":material/warning:",
            )
            with st.container(horizontal=True, gap="small"):
                st.button(
                    tr("Yes, record it"),
                    key="e_confirm_bad_yes",
                    on_click=_illegal_confirmed,
                    icon=":material/gavel:",
                )
                st.button(tr("Cancel"), key="e_confirm_bad_no", on_click=_illegal_cancelled)
    elif pending is not None:
        st.session_state.pop("e_pending_bad", None)  # asked about an earlier position
    _buttons("e_choice_bad", "⚠ " + tr("Record anyway (not legal here)"), items, _illegal_clicked)
    st.caption(tr("A tap asks first; the engine then judges it as illegal."))


def _irregularities(e: Entry) -> None:
    st.subheader(tr("Irregularities"))
    for i, irr in enumerate(e.irregularities):
        who = irr.get("offender", irr.get("seat"))
        said = irr["type"] + (f" — {e.players[who]}" if isinstance(who, int) else "")
        said += f" ({irr['kind']})" if "kind" in irr else ""
        said += f": {irr['decision']}" if "decision" in irr else ""
        st.button(
            md(tr("Remove: {what}", what=said)),
            key=f"e_irr_drop_{i}",
            on_click=_drop_irregularity,
            args=(i,),
        )
    box = _folding(tr("Add a renons, misdeal or the arbiter's decision"), "e_x_irr")
    if box.open:
        with box:
            st.selectbox(
                tr("Kind"), ["renons", "misdeal", "arbiter"], key="e_irr_type", persist_state="page"
            )
            st.selectbox(
                tr("Offender (renons) or dealer (misdeal)"),
                list(range(e.n)),
                key="e_irr_seat",
                persist_state="page",
                format_func=lambda s: md(e.players[s]),
            )
            st.selectbox(
                tr("Called by"),
                [None, *range(e.n)],
                key=choice("e_irr_by"),
                persist_state="page",
                format_func=lambda s: tr("nobody") if s is None else md(e.players[s]),
            )
            st.selectbox(tr("Renons kind"), RENONS_KINDS, key="e_irr_kind", persist_state="page")
            st.number_input(
                tr("About action (index)"),
                min_value=0,
                step=1,
                key="e_irr_action",
                persist_state="page",
            )
            st.checkbox(tr("Upheld"), value=True, key="e_irr_upheld", persist_state="page")
            st.text_input(tr("The arbiter's decision"), key="e_irr_text", persist_state="page")
            st.button(tr("Add"), key="e_irr_add", on_click=_add_irregularity)


def _score(e: Entry) -> None:
    st.subheader(tr("The written score"))
    st.checkbox(
        tr("The scorer wrote a score for this hand"), key="e_has_score", on_change=_set_score
    )
    if st.session_state.get("e_has_score"):
        for s in range(e.n):
            st.session_state.setdefault(f"e_score_{s}", (e.scores or [0] * e.n)[s])
            st.number_input(md(e.players[s]), step=1, key=f"e_score_{s}", on_change=_set_score)


def _conclusions(e: Entry, r: Any) -> None:
    st.subheader(tr("What the audit concludes"))
    audit = e.audit()
    for msg, fields in e.statement(r, audit):
        st.markdown("- " + md(tr(msg, **said_fields(fields, lang()))))
    if audit is not None:
        for f in audit.findings:
            (st.error if f.severity == "error" else st.warning)(md(finding_text(f)))
        for u in audit.unverified:
            st.caption(md(tr("Not checked: {what}", what=u)))
    session, errors = e.read()
    if session is None:
        st.error(md(tr("Not a valid log yet: {errors}", errors="; ".join(errors))))
        return
    st.download_button(
        tr("Download the log"),
        e.log_text,
        file_name=e.file_name(),
        mime="application/json",
        key="e_download",
        on_click="ignore",
    )
    st.download_button(
        tr("Download the dossier (HTML)"),
        lambda: e.dossier_html(lang()),
        file_name=e.file_name().removesuffix(".json") + ".html",
        mime="text/html",
        key="e_dossier",
        on_click="ignore",
    )
    if entry_dir() is not None:
        st.button(tr("Save for acceptance"), key="e_save", on_click=_save_entry)


def _save_entry(save: Callable[[Path], Path] | None = None) -> None:
    """Save the entry (``save``: a counted hand's) as a new file of the entry box, once per
    click (a callback: a button read in the page's run would save again on a rerun)."""
    folder = entry_dir()
    if folder is None:
        return
    try:
        path = (save or entry().save)(folder)
    except EntryRefused as exc:
        note = ("error", tr("Not saved: {why}", why=md(str(exc))))
    else:  # the file's name only: the page never shows a path on the server
        said = tr("Saved as {name}: it waits for a referee's acceptance", name=md(path.name))
        note = ("success", said)
    st.session_state["entry_box_note"] = note
    _rerun("box")


# ------------------------------------------------------------------------------ a counted hand

#: the two ways of entering a hand
MODES = {
    "played": "Card by card (the deal and every action)",
    "counted": "Counted (the cards each side took)",
}
#: the places a tapped card goes to, by the place's kind
PLACES = {
    "talon": "The talon",
    "taken": "Taken from the talon",
    "discards": "Laid away",
    "sides": "The declarer's side's pile",
}


def count_entry(e: Entry) -> CountEntry:
    ce = st.session_state.get("count_entry")
    if not isinstance(ce, CountEntry) or ce.table is not e:
        ce = st.session_state["count_entry"] = CountEntry(e)
    return ce


def _set_count_facts() -> None:
    """The contract, its people, announcements, kontras, mondfang and the table's count."""
    ss = st.session_state
    e = entry()
    ce = count_entry(e)
    ce.set_contract(ss.get("e_c_contract"), ss.get("e_c_declarer"), ss.get("e_c_partner"),
                    ss.get("e_c_called"))  # fmt: skip
    announced = dict.fromkeys(ss.get("e_c_ann_decl") or [], "declarer")
    announced |= {b: "defenders" for b in ss.get("e_c_ann_def") or [] if b not in announced}
    ce.announced = announced
    ce.failed = {b for b in announced if not ss.get(f"e_c_made_{b}", True)}
    ce.kontras = list(ss.get("e_c_kontra") or [])
    ce.mondfang = ss.get("e_c_mond")
    count = ss.get("e_c_count")
    ce.count = int(count) if isinstance(count, int | float) else None
    ce.count_by_seat = [
        int(v) if isinstance(v := ss.get(f"e_c_count_{s}"), int | float) else None
        for s in range(e.n)
    ]
    _rerun("count")


def _place_clicked(place: str) -> None:
    count_entry(entry()).place = place
    _rerun("count")


def _count_card_clicked(c: str) -> None:
    ce = count_entry(entry())
    why = ce.tap(c)
    if why:
        _note(why)
    _rerun("count")


def _place_label(e: Entry, ce: CountEntry, place: str) -> str:
    if place.startswith("pile:"):
        k = int(place.partition(":")[2])
        if ce.form() == "seats":
            return md(e.players[ce.active_seats()[k]])
        return tr(PLACES["sides"])
    return tr(PLACES[place])


def _count_facts(e: Entry, ce: CountEntry) -> None:
    """The contract, who played it, the announcements and kontras, the table's count."""
    ss = st.session_state
    terms = ce.terms
    seats = list(range(e.n))

    def name(s: int | None) -> str:
        return tr("nobody") if s is None else md(e.players[s])

    ss.setdefault("e_c_contract", ce.contract)
    st.selectbox(tr("Contract"), [None, *ce.contracts()], key="e_c_contract",
                 format_func=lambda c: "—" if c is None else text.contract_name(c, e.game),
                 on_change=_set_count_facts)  # fmt: skip
    form = ce.form()
    if ce.contract is not None and form is None:
        st.warning(tr("This game's engine cannot count a hand from its piles."))
        return
    if form == "sides":
        ss.setdefault("e_c_declarer", ce.declarer)
        st.selectbox(tr("Declarer"), [None, *seats], key=choice("e_c_declarer"), format_func=name,
                     on_change=_set_count_facts)  # fmt: skip
        ss.setdefault("e_c_partner", ce.partner)
        st.selectbox(tr("Partner"), [None, *seats], key=choice("e_c_partner"), format_func=name,
                     on_change=_set_count_facts)  # fmt: skip
        ss.setdefault("e_c_called", ce.called)
        st.selectbox(tr("Called card"), [None, *e.pack()], key="e_c_called",
                     format_func=lambda c: "—" if c is None else md(text.card_text(c, e.game)),
                     on_change=_set_count_facts)  # fmt: skip
    if terms is None or form is None:
        return

    def bonus(b: str) -> str:
        return md(text.bonus_name(b, e.game))

    with st.expander(tr("Announcements, kontras, the mond")):
        st.multiselect(
            tr("Announced by the declarer's side"),
            list(terms.bonuses),
            key=choice("e_c_ann_decl"),
            format_func=bonus,
            on_change=_set_count_facts,
        )
        st.multiselect(tr("Announced by the defenders"), list(terms.bonuses),
                       key=choice("e_c_ann_def"), format_func=bonus,
                       on_change=_set_count_facts)  # fmt: skip
        for b in ce.announced:
            st.checkbox(tr("{bonus}: made", bonus=bonus(b)), value=True, key=f"e_c_made_{b}",
                        on_change=_set_count_facts)  # fmt: skip
        st.multiselect(tr("Kontra on"), list(terms.kontra_targets), key=choice("e_c_kontra"),
                       format_func=lambda x: md(text.target_name(x, e.game, lang=lang())),
                       on_change=_set_count_facts)  # fmt: skip
        if form == "sides":
            st.selectbox(
                tr("Lost the mond (when the piles cannot show it)"),
                [None, *seats],
                key=choice("e_c_mond"),
                format_func=name,
                on_change=_set_count_facts,
            )
    if form == "sides":
        st.number_input(tr("Card points the table counted for the declarer's side"),
                        min_value=0, max_value=100, step=1, value=None, key="e_c_count",
                        on_change=_set_count_facts)  # fmt: skip
    else:
        st.markdown("**" + tr("Card points each player counted") + "**")
        for s in ce.active_seats():
            st.number_input(md(e.players[s]), min_value=0, max_value=100, step=1, value=None,
                            key=f"e_c_count_{s}", on_change=_set_count_facts)  # fmt: skip


def _count_cards(e: Entry, ce: CountEntry) -> None:
    """Tap the cards into their places; the last pile is the rest of the pack."""
    st.subheader(tr("The cards taken"))
    places = ce.places()
    _buttons("e_c_place", tr("Cards go to"),
             [(p, f"{_place_label(e, ce, p)} ({len(ce.cards_of(p))})") for p in places],
             _place_clicked, chosen={ce.place})  # fmt: skip
    here = ce.cards_of(ce.place)
    if ce.place == "taken":
        offer = list(ce.talon)
    else:
        taken = set(ce.taken)
        busy = {*ce.discards, *(c for p in ce.piles for c in p),
                *(c for c in ce.talon if c not in taken)}  # fmt: skip
        offer = [c for c in e.pack() if c in here or c not in busy]
    groups: dict[str, list[str]] = {}
    for c in offer:
        groups.setdefault(c[0], []).append(c)
    for suit in SUITS:
        if groups.get(suit):
            _buttons(f"e_c_pack_{suit}", text.suit_name(suit, lang=lang()).capitalize(),
                     [(c, card(c) + (" ✓" if c in here else "")) for c in groups[suit]],
                     _count_card_clicked, chosen=set(here))  # fmt: skip
    for p in places:
        cards = ce.cards_of(p)
        if cards:
            st.caption(md(f"{_place_label(e, ce, p)}: ") + cards_label(cards))
    owner = ce.rest_owner()
    rest_name = md(e.players[int(owner)]) if owner.isdigit() else tr("The defenders' pile")
    st.caption(tr("{pile} (the rest): {n} cards", pile=rest_name, n=len(ce.rest())))


def counted_editor(e: Entry) -> None:
    """The counted mode: the facts, the cards taken, the written score, the conclusions."""
    ce = count_entry(e)
    _count_facts(e, ce)
    if ce.form() is not None:
        _count_cards(e, ce)
    _score(e)
    st.subheader(tr("What the audit concludes"))
    audit = ce.audit() if ce.form() is not None else None
    for msg, fields in ce.statement(audit):
        st.markdown("- " + md(tr(msg, **fields)))
    if audit is not None:
        for f in audit.findings:
            (st.error if f.severity == "error" else st.warning)(md(finding_text(f)))
        for u in audit.unverified:
            st.caption(md(tr("Not checked: {what}", what=u)))
    session, errors = ce.read() if ce.form() is not None else (None, [])
    if session is None:
        if errors:
            st.error(md(tr("Not a valid log yet: {errors}", errors="; ".join(errors))))
        return
    st.download_button(
        tr("Download the log"),
        ce.log_text(),
        file_name=e.file_name(),
        mime="application/json",
        key="e_c_download",
        on_click="ignore",
    )
    if entry_dir() is not None:
        st.button(tr("Save for acceptance"), key="e_c_save", on_click=_save_entry, args=(ce.save,))


#: the page's own styles: "record anyway" in a warning colour, never like a legal choice; the
#: confirmation framed the same way
ENTRY_CSS = (
    "<style>"
    ".st-key-e_choice_bad button{background:#fff4e5;border:2px dashed #e65100;color:#8a3200}"
    ".st-key-e_choice_bad button:hover{background:#ffe0b2;border-color:#bf360c}"
    ".st-key-e_confirm_bad{border-color:#e65100 !important;background:#fff8f0}"
    ".st-key-e_confirm_bad_yes button{background:#e65100;color:#fff;border-color:#e65100}"
    "</style>"
)


@st.fragment(key="entry_status")
def status() -> None:
    """The status line (what is entered so far) and what the last click could not do."""
    e = entry()
    st.caption(
        tr(
            "{dealt} of {pack} cards dealt · actions entered: {n}",
            dealt=len(e.dealt()),
            pack=len(e.pack()),
            n=len(e.actions),
        )
    )
    note = st.session_state.pop("entry_note", None)
    if note:
        getattr(st, note[0])(md(note[1]))


@st.fragment(key="entry_table")
def table() -> None:
    _table(entry(), bool(st.session_state.get("e_mode")))


@st.fragment(key="entry_count")
def counted_part() -> None:
    counted_editor(entry())


@st.fragment(key="entry_deal")
def deal_part() -> None:
    e = entry()
    st.session_state["e_deal_locked"] = bool(e.actions)  # (the dealt cards' buttons)
    _deal(e)


@st.fragment(key="entry_play")
def play_part() -> None:
    e = entry()
    _actions(e, e.replay())


@st.fragment(key="entry_irr")
def irregularities_part() -> None:
    _irregularities(entry())


@st.fragment(key="entry_score")
def score_part() -> None:
    _score(entry())


@st.fragment(key="entry_concl")
def conclusions_part() -> None:
    e = entry()
    _conclusions(e, e.replay())


def editor() -> None:
    """The page: its parts in order (each drawn again on its own, :func:`_rerun`)."""
    _relabel()
    e = entry()
    status()
    st.html(ENTRY_CSS)
    counted = st.toggle(
        tr(MODES["counted"]), key="e_mode", help=tr("Off: {mode}", mode=tr(MODES["played"]))
    )
    table()
    drawn = ["status", "table", "box"]
    if counted:
        counted_part()
        drawn.append("count")
    else:
        deal_part()
        if e.deal_complete:
            play_part()
            irregularities_part()
            score_part()
            conclusions_part()
            drawn += ["deal", "play", "irr", "score", "concl"]
        else:
            drawn.append("deal")
    st.button(tr("Start a new hand"), key="e_new", on_click=_new_entry)
    box_part()
    st.session_state["e_layout"] = _layout(e)
    st.session_state["e_parts"] = drawn


def _decide(name: str, accept: bool) -> None:
    folder = entry_dir()
    if folder is None:
        return
    box = EntryBox(folder)
    try:
        done = box.accept(name) if accept else box.reject(name)
    except EntryRefused as exc:
        st.session_state["entry_box_note"] = ("error", md(str(exc)))
        return
    said = (
        tr("Accepted {name}: `tarock ingest` reads it now", name=md(done))
        if accept
        else tr("Rejected {name} (kept aside, not ingested)", name=md(done))
    )
    st.session_state["entry_box_note"] = ("success", said)


@st.fragment(key="entry_box")
def box_part() -> None:
    pending_entries()


def pending_entries() -> None:
    """The entries waiting for a referee's acceptance (dashboard/entries.py): accept one and
    `tarock ingest` of the entry folder reads it; reject one and it is kept aside."""
    folder = entry_dir()
    if folder is None:
        return
    waiting = EntryBox(folder).pending()
    st.subheader(tr("Entries waiting for acceptance"))
    note = st.session_state.pop("entry_box_note", None)
    if note:  # (Markdown already: the names in it escaped)
        getattr(st, note[0])(note[1])
    if not waiting:
        st.caption(tr("No entry is waiting."))
        return
    for k, p in enumerate(waiting):
        c1, c2, c3 = st.columns([5, 1, 1], vertical_alignment="center")
        c1.markdown(f"{md(p.name)} · {p.saved:%Y-%m-%d %H:%M} UTC")
        c2.button(tr("Accept"), key=f"e_accept_{k}", on_click=_decide, args=(p.name, True))
        c3.button(tr("Reject"), key=f"e_reject_{k}", on_click=_decide, args=(p.name, False))


editor()
