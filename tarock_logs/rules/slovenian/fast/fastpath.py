"""A fast bulk-audit path for ordinary Slovenian hands (pure standard library).

The reference engine (:class:`~tarock_logs.rules.slovenian.hand.SlovenianHand`) stays the
readable statement of the rules: every action becomes an :class:`~tarock_logs.rules.base.Action`,
goes through ``push`` with its undo entry, history and (for an illegal action) a
:class:`~tarock_logs.rules.base.Violation` citing the ruleset section. A bulk audit of
thousands of clean hands needs much less: "is every action legal, and what is the score?".

:func:`fast_replay` answers exactly that, or declines (returns ``None``) so that the caller
replays the hand through the reference engine. Correctness never depends on this module
covering a case.

* The **deal** is the reference's: the reference hand state with its deal check (any
  finding makes the fast path decline).
* The **phases before play** (bidding, king call, talon, discards, announcements and kontras,
  about a sixth of a hand's actions): the bidding (:func:`_fast_bidding`) and the king call,
  talon group and discards (:func:`_fast_exchange`) run here over the log's actions for the
  clean case and leave the reference's state on the hand; so do the announcement round's
  clean passes (:func:`_fast_ann_pass`) and "ležim". The first action they are not sure of,
  and the announcements and kontras, go through the reference state machine itself: any
  violation or warning there, however small, makes the fast path decline. The first card
  ends the round as the reference's ``_advance`` does (:func:`_before_play`).
* **Card play** (about five sixths of the actions, :func:`_play_cards`) runs in a tight loop
  over the log's actions, trick by trick (no ``Action`` objects): cards are small ints, each
  seat's hand a bitmask, and the suits bitmasks too (:mod:`.cardbits`). A card is accepted at
  once when the seat to move holds it and it leads (but for the pagat under the pagat
  restriction and a protected card), follows the led suit, or the seat holds neither the led
  suit nor (for a suit card) a tarok, in a positive contract (but for a protected card, spec
  8.3). In klop and berač the must-overtake rule is judged over bitmasks
  (:func:`_overtake_mask`) unless the pagat or the trula is involved. Anything else (the
  pagat restriction, protection of an announced pagat/king ultimo, the emperor's trick,
  colour valat) asks the legal-card rules over bitmasks (:func:`_legal_mask`, the rules of
  :meth:`~tarock_logs.rules.slovenian.tricks.PlayRules.legal`); a card outside the legal
  set makes the fast path decline. Both are pinned to ``PlayRules.legal`` on random
  positions (tests/rules/slovenian/test_fast_legal.py).
* Tricks are completed in the same loop (the winner kept while the cards fall, spec 8.2, with
  the emperor's trick and the colour-valat rule; the early end of berač at the declarer's
  first trick and of (colour) valat at his first lost one, spec 8.7) into compact records
  ``(leader, cards, winner)`` with the winning card's index and the trick's card mask. The
  reference's :class:`~tarock_logs.rules.slovenian.hand.Trick` records (klop gifts from the
  talon included) are built from them only when asked for (the viewer's tricks).
* The **score** (:func:`_score`) is the reference's: under ``openspiel-2.0`` OpenSpiel's
  returns from the records (the reference ``openspiel_hand_score``), otherwise the reference
  ``score_facts`` of the facts read off the records (:func:`~.fastfacts.fast_hand_facts`,
  differential-tested against ``hand_facts``): the items are made in one place.

It declines on: recorded irregularities (renons, misdeals, rulings), any finding of the deal
check, any violation or warning before play, a card not held, out of
turn, illegal or unknown, a claim, any action after the first card that is not a card, cards
after the hand's end, and a hand that does not end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any, Final, Literal, NamedTuple, cast, get_args, get_origin

from tarock_logs import _native
from tarock_logs.rules.base import (
    Action,
    FastReplay,
    HandScore,
    HandState,
    ScoreItem,
    TrickRows,
    score_item,
)
from tarock_logs.rules.slovenian.contracts import CONTRACTS, Rules
from tarock_logs.rules.slovenian.fast.cardbits import (
    BIT,
    CARD,
    CID,
    INFO,
    MOND_BIT,
    PAGAT_BIT,
    PAGAT_ID,
    SKIS_BIT,
    STR,
    SUIT_MASK,
    SUIT_OF,
    TAROKS,
    TRULA_MASK,
    cards_of,
)
from tarock_logs.rules.slovenian.fast.fastfacts import TrickRecord, fast_hand_facts
from tarock_logs.rules.slovenian.hand import (
    _PAIRS_BY_SEAT,
    _SEATING,
    SlovenianHand,
    make_play_rules,
)
from tarock_logs.rules.slovenian.openspiel_scoring import CONTRACT_VALUES, TALON_CARDS, os_kind
from tarock_logs.rules.slovenian.scoring import openspiel_hand_score, score_facts
from tarock_logs.rules.slovenian.state import Phase
from tarock_logs.rules.slovenian.tricks import KINGS, PACK_SET, SUIT, PlayRules, Trick, thirds

__all__ = [
    "CONTRACT_CODES",
    "fast_replay",
    "native_card_loop",
    "native_config",
    "native_score",
    "native_score_config",
    "native_whole_hand",
    "trick_views",
]

#: the native card loop (``tarock_logs/_native/cardloop.h``), or None: built without a C
#: compiler, or switched off with ``TAROCK_NATIVE=0``; then :func:`_play_cards` is the loop
_CORE: Final = _native.core


def native_card_loop() -> bool:
    """Whether the card loop of :func:`fast_replay` runs as native code (the C twin of
    :func:`_play_cards`, :func:`_native_play_cards`), or in Python."""
    return _CORE is not None


_CID: Final = CID
_CARD: Final = CARD
_SUIT_OF: Final = SUIT_OF
_SUIT_MASK: Final = SUIT_MASK
_TAROKS: Final = TAROKS
_STR: Final = STR
#: per card id: the cards of its suit that are stronger
_ABOVE: Final[tuple[int, ...]] = tuple(
    sum(1 << j for j in range(54) if _SUIT_OF[j] == _SUIT_OF[i] and _STR[j] > _STR[i])
    for i in range(54)
)
_P: Final = PAGAT_BIT
_M: Final = MOND_BIT
_S: Final = SKIS_BIT
_TRULA: Final = TRULA_MASK
_PAGAT_ID: Final = PAGAT_ID
#: per led suit index: each card id's key in the race for the trick (spec 8.2): taroks beat
#: every suit card, cards of the led suit beat the other suits, which never win (−1); the
#: strongest key wins (keys are distinct among the cards that can win)
_WKEY: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        100 + _STR[c] if _SUIT_OF[c] == 0 else _STR[c] if _SUIT_OF[c] == led else -1
        for c in range(54)
    )
    for led in range(5)
)
#: the same under the colour-valat rule: taroks are an ordinary suit (they win only when led)
_WKEY_CV: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_STR[c] if _SUIT_OF[c] == led else -1 for c in range(54)) for led in range(5)
)


def _legal_mask(pr: PlayRules, hm: int, tids: list[int], tm: int, prot: tuple[int, ...]) -> int:
    """The legal cards of the hand ``hm`` on the trick ``tids`` (card ids; ``tm`` their mask)
    as a bitmask: the rules of :meth:`PlayRules.legal` (spec 8.3–8.4) over bitmasks."""
    if not tids:
        cands = hm
    else:
        led = _SUIT_OF[tids[0]]
        suit = -1
        cands = hm & _SUIT_MASK[led]
        if cands:
            suit = led
        else:
            cands = hm & _TAROKS
            if cands:
                suit = 0
            else:
                cands = hm
        if pr.negative and suit >= 0:
            if pr.by_rank:  # OpenSpiel (Appendix A.6): by rank within the suit played
                if hm & _P and tm & _M and tm & _S:
                    cands = _P
                else:
                    has_tarok = bool(tm & _TAROKS)
                    if (suit != 0 and not has_tarok) or (suit == 0 and has_tarok):
                        # the strongest card of that suit in the trick; the candidates (all
                        # of that suit) above it
                        beat = -1
                        for t in tids:
                            if _SUIT_OF[t] == suit and (beat < 0 or _STR[t] > _STR[beat]):
                                beat = t
                        higher = cands & _ABOVE[beat]
                        if higher:
                            cands = higher
            elif pr.emperor_always and hm & _P and tm & _M and tm & _S:
                cands = _P
            else:
                cv = pr.colour_valat
                # the card now winning the trick, the emperor's trick aside (spec 8.2)
                best = tids[0]
                bsuit = led
                for t in tids[1:]:
                    st = _SUIT_OF[t]
                    if st == bsuit:
                        if _STR[t] > _STR[best]:
                            best = t
                    elif st == 0 and not cv:
                        best, bsuit = t, 0
                beats = _ABOVE[best]
                if bsuit != 0 and not cv:
                    beats |= _TAROKS
                over = cands & beats
                if not cv or led == 0:
                    # a trula card completing the emperor's trick: the pagat wins, mond and
                    # škis do not
                    two = tm & _TRULA
                    if two and (two & (two - 1)):  # two of the three already in the trick
                        third = _TRULA & ~two
                        if cands & third:
                            over = (over | third) if third == _P else (over & ~third)
                if over:
                    cands = over
    if pr.pagat_restricted and cands & _P and cands & (cands - 1):
        if not pr.pagat_last_tarok or hm & _TAROKS & ~_P:
            cands &= ~_P
    if prot and cands & (cands - 1):  # announced ultimo cards, as the reference does
        held = 0
        for x in prot:
            held |= cands & x
        if held and (cands & ~held or not pr.protect_either):
            for x in prot:
                if cands & x and cands & (cands - 1):
                    cands &= ~x
    return cands


def _overtake_mask(by_rank: bool, hm: int, tids: list[int], tm: int, led: int, wi: int) -> int:
    """The legal cards of the hand ``hm`` on the trick ``tids`` (mask ``tm``, led suit ``led``,
    winning so far: ``tids[wi]``) in a negative contract without colour valat or protected
    cards: follow suit, else a tarok, and then overtake when possible (spec 8.4(a); by rank
    within the suit played under ``by_rank``, Appendix A.6). 0 when the pagat could be among
    them or the trula is in play (the pagat restriction and the emperor's trick, spec
    8.4(a)-(b)): then :func:`_legal_mask` decides. The card loop's shortcut for klop and
    berač; pinned to :meth:`PlayRules.legal` by tests/rules/slovenian/test_fast_legal.py."""
    tr = tm & _TRULA
    if tr & (tr - 1) or (hm & _P and tm & _M and tm & _S):
        return 0
    cands = hm & _SUIT_MASK[led]
    if cands:
        suit = led
    else:
        cands = hm & _TAROKS
        if not cands:
            return hm  # void of the led suit and of taroks: any card (no pagat among them)
        suit = 0
    if by_rank:
        if (suit == 0) == bool(tm & _TAROKS):  # the overtake rule applies to this suit
            beat = -1
            for t in tids:
                if _SUIT_OF[t] == suit and (beat < 0 or _STR[t] > _STR[beat]):
                    beat = t
            higher = cands & _ABOVE[beat]
            if higher:
                cands = higher
    else:
        best = tids[wi]
        beats = _ABOVE[best] if _SUIT_OF[best] == 0 else _ABOVE[best] | _TAROKS
        over = cands & beats
        if over:
            cands = over
    return 0 if cands & _P else cands


def trick_views(tricks: Sequence[Trick]) -> list[dict[str, Any]]:
    """The completed tricks as :meth:`SlovenianHand.view` gives them (``view()["tricks"]``)."""
    out = []
    for t in tricks:
        pile = [c for _, c in t.cards] + ([t.gift] if t.gift else [])
        out.append(
            {
                "leader": t.leader,
                "cards": [[s, c] for s, c in t.cards],
                "winner": t.winner,
                "winning_card": t.winning_card,
                "gift": t.gift,
                "points": thirds(pile) if PACK_SET.issuperset(pile) else None,
                "points_unit": "thirds",
            }
        )
    return out


def _fast_bidding(h: SlovenianHand, actions: Sequence[Any]) -> int:
    """Run the bidding (spec 4.2–4.4) of a fresh hand ``h`` over the log's ``actions`` for the
    clean case, writing the reference's bidding state onto ``h``; returns how many actions it
    consumed. The first action it is not sure of (anything the reference would report, or an
    action that is not a bid or a pass) is left to the reference dispatch, from the state the
    reference would have reached by then: the mirror of ``BiddingMixin._bid``/``_final``."""
    pos = h.pos
    active = h.active
    n_active = len(active)
    nxt = h._next_seat
    p1 = h.p1
    avail = h._available
    bids: list[tuple[int, str]] = []
    passed: set[int] = set()
    high = "three"
    hrank = CONTRACTS[high].rank
    holder = p1
    others_bid = False
    turn = h.turn
    final = False
    k = 0
    total = len(actions)
    while k < total:
        a = actions[k]
        t = a.type
        if t == "pass":
            code = "pass"
        elif t == "bid":
            code = a.contract or ""
        else:
            break
        seat = a.seat
        if seat not in pos or (seat != turn and not (not bids and seat == p1 and code == "three")):
            break
        if final:
            # the final declaration by the auction's winner (``_final``), clean cases only
            special = seat == p1 and high == "three" and not others_bid
            row = CONTRACTS.get(code)
            if row is None or not avail(code):
                break
            if code == "klop":
                if not special:
                    break
            elif row.rank < hrank:
                break
            bids.append((seat, code))
            k += 1
            _set_bidding(h, bids, passed, high, holder, others_bid, turn, True)
            h._finish_bidding(seat, code)
            return k
        if not bids and seat == p1 and code == "three":
            bids.append((seat, "three"))  # the explicit mandatory three
            k += 1
            continue
        if seat in passed:
            break
        if code == "pass":
            passed.add(seat)
        else:
            row = CONTRACTS.get(code)
            if row is None or code in ("klop", "three") or not avail(code):
                break
            r = row.rank
            if r < hrank or (r == hrank and pos[seat] > pos[holder]):
                break
            high, hrank, holder = code, r, seat
            if seat != p1:
                others_bid = True
        bids.append((seat, code))
        k += 1
        if len(passed) >= n_active - 1:  # at most one seat left (passed ⊆ active)
            remaining = [s for s in active if s not in passed]
            final = True
            turn = remaining[0] if remaining else holder
        else:
            n = nxt[seat]
            while n in passed:
                n = nxt[n]
            turn = n
    _set_bidding(h, bids, passed, high, holder, others_bid, turn, final)
    return k


def _set_bidding(
    h: SlovenianHand,
    bids: list[tuple[int, str]],
    passed: set[int],
    high: str,
    holder: int,
    others_bid: bool,
    turn: int,
    final: bool,
) -> None:
    h.bids = tuple(bids)
    h.passed = frozenset(passed)
    h.high = high
    h.holder = holder
    h.others_bid = others_bid
    h.turn = turn
    h.awaiting_final = final


def _fast_exchange(h: SlovenianHand, actions: Sequence[Any], k: int) -> int:
    """The king call, talon group and discards (spec 6.1–6.2) from ``actions[k]`` on, for the
    clean case, as ``ExchangeMixin._call``/``_talon``/``_discard`` do them; returns the index of
    the first action left to the reference dispatch (anything else, or anything doubtful)."""
    total = len(actions)
    d = h.declarer
    while k < total and d is not None:
        a = actions[k]
        t = a.type
        ph = h.phase
        if a.seat != d:
            break
        if t == "call" and ph == "king_call":
            king = a.card
            if king not in KINGS:
                break
            h.called_king = king
            h.partner = None
            h.king_in_talon = king in h.talon
            h.self_call = king in h.dealt[d]
            for s in h.active:
                if s != d and king in h.hands[s]:
                    h.partner = s
            h.phase = Phase.TALON
        elif t == "talon" and ph == "talon":
            n = CONTRACTS[h.contract].talon  # type: ignore[index]
            g = a.group
            if type(g) is not int or not 0 <= g < 6 // n:
                break
            h.talon_group = g
            h.taken = h.talon[g * n : (g + 1) * n]
            h.hands[d].update(c for c in h.taken if c in PACK_SET)
            h.phase = Phase.DISCARD
        elif t == "discard" and ph == "discard":
            n = CONTRACTS[h.contract].talon  # type: ignore[index]
            cards = list(a.cards)
            hand = h.hands[d]
            if not cards or len(h.discards) + len(cards) > n or len(set(cards)) != len(cards):
                break
            if not _discards_clean(h, hand, cards, a.shown):
                break
            for c in cards:
                hand.discard(c)
                h.discards += (c,)
                if SUIT[c] == "T":
                    h.shown += (c,)
            if len(h.discards) >= n:
                h._enter_announcements()
        else:
            break
        k += 1
    return k


def _discards_clean(
    h: SlovenianHand, hand: set[str], cards: list[str], shown: Sequence[str]
) -> bool:
    """Whether the declarer may lay away ``cards`` without any finding (spec 6.2): each held,
    never a king or a trula card, a tarok only when forced (openspiel) or shown."""
    forced = h.rules.discard_only_if_forced
    for c in cards:
        if (
            c not in hand
            or h._discard_ok(hand, c, cards) is not None
            or (SUIT[c] == "T" and not forced and c not in shown)
        ):
            return False
    return True


def _fast_ann_pass(h: SlovenianHand, seat: int) -> bool:
    """A pass ("v redu") in the announcement round (spec 7.5) in its clean case, as
    ``AnnouncementsMixin._ann_pass`` does it: the declarer's "ležim" (stage 0), the next
    defender in order (stage 1), the declarer's reply (stage 2). False (nothing changed) for
    anything else, which the reference dispatch then takes and reports."""
    st = h.stage
    d = h.declarer
    if st == 0 or st == 2:
        if seat != d:
            return False
        if st == 0:
            h.lezim = True
            h.stage = 1
        else:
            h.stage = 3
        if h.stage_done or h.stage != 1:  # (stage 1, nobody spoken: the advance is a no-op)
            h._advance_stage()
        return True
    if st != 1:
        return False
    done = h.stage_done
    order = [s for s in h.active if s != d and s not in done]
    if not order or seat != order[0]:
        return False
    h.stage_done = done | {seat}
    if len(order) == 1:  # the defenders have all spoken: the reference moves the stage on
        h._advance_stage()
    return True


def _before_play(
    h: SlovenianHand, actions: Sequence[Any], to_action: Callable[[Any], Action]
) -> int | None:
    """The phases before play on the fresh hand ``h``: the index of the first card, with the
    hand in the play phase, or None when anything is reported (a violation or warning of the
    reference, or no card played). Bidding, king call, talon, discards and the announcement
    round's passes and "ležim" run here in their clean case; anything else goes through the
    reference dispatch (``push`` minus the undo snapshot and the history: this state is never
    popped). The first card ends the announcement round without a word (spec 7.5), as the
    reference's ``_advance`` does; a first card in any earlier phase (a missing step) is left
    to the reference: the fast path declines."""
    push = h._dispatch
    total = len(actions)
    k = _fast_bidding(h, actions)
    k = _fast_exchange(h, actions, k)
    while k < total:
        a = actions[k]
        t = a.type
        if t == "play":
            break
        k += 1
        if h.phase == "announcements":
            if t == "pass" and _fast_ann_pass(h, a.seat):
                continue
            if t == "lezim" and a.seat == h.declarer and not h.lezim:
                # ``_announce``'s clean "ležim" (a second one is reported: the reference's)
                h.lezim = True
                if h.stage == 0:
                    h.stage = 1
                if h.stage_done or h.stage != 1:  # else the advance is a no-op
                    h._advance_stage()
                continue
        if push(to_action(a)):
            return None
    else:
        return None  # no card was played
    if h.phase == "announcements":
        h._start_play()
    if h.phase != "play" or h.trick or h.tricks:
        return None
    return k


def fast_replay(
    rules: Rules,
    table_size: int,
    radelci: Sequence[int],
    misdeals: Sequence[int],
    dealer: int,
    hands: Sequence[Sequence[str]],
    talon: Sequence[str],
    actions: Sequence[Any],
    to_action: Callable[[Any], Action],
) -> FastReplay | None:
    """Replay one ordinary hand fast, or ``None`` (use the reference engine).

    ``rules``, ``table_size``, ``radelci`` and ``misdeals`` are the session's (nothing of it
    is changed: the caller ends the hand with ``SlovenianSession.end_hand``). ``actions`` are
    the log's actions (any objects with ``type``, ``seat`` and, for a card, ``card``);
    ``to_action`` converts a non-card action into an engine
    :class:`~tarock_logs.rules.base.Action` for the reference phases. On success returns the
    reference score, the finished hand state, a ``rebuild()`` of the hand through the
    reference engine, and the completed tricks from a :class:`HandTricks` (``tricks``: as
    ``view()["tricks"]``; ``trick_rows``: as :class:`~tarock_logs.rules.base.TrickRows`).
    """
    radelci = list(radelci)
    misdeals = list(misdeals)
    inputs = HandInputs(rules, table_size, radelci, misdeals, dealer, hands, talon, actions,
                        to_action)  # fmt: skip
    cfg = _native_config(rules, table_size)
    if cfg is not None:
        done = _native_hand(cfg, inputs)
        if done is not None:
            return done
    h = SlovenianHand(
        rules, table_size, dealer, hands, talon, radelci=radelci, misdeals_before=misdeals
    )
    if h.deal_violations:  # the reference deal check: any finding, and the reference judges
        return None
    # ---- the phases before play: the reference state machine, nothing may be reported
    # ``_dispatch`` is what ``push`` runs for these actions, minus the undo snapshot and the
    # history (this state is never popped: the replay rebuilds a reference state on demand)
    k = _before_play(h, actions, to_action)
    if k is None:
        return None
    # ---- card play, then the hand-level findings and the score
    played = _play_cards(h, actions, k)
    if played is None:
        return None
    if h.hand_findings():
        return None
    recs, wins, tmasks = played
    tricks = HandTricks(h, recs, wins)
    score = _score(h, recs, wins, tmasks, tricks)
    if score.unverified:
        return None

    rebuild = partial(_reference_hand, inputs)
    return FastReplay(score, h, rebuild, tricks.views, trick_rows=tricks.rows)


# ---------------------------------------------------------------- the whole hand in C

#: the action kinds of ``_native/slohand.h`` (its ``SH_`` enum); any other kind declines.
#: Keyed by the ``type`` string, and by the classes :func:`_learn_action_class` found to have
#: one type for all their instances (the C then takes the kind from an action's class).
_SH_KINDS: Final[dict[str | type, int]] = {
    "pass": 0, "bid": 1, "call": 2, "talon": 3, "discard": 4, "play": 5, "lezim": 6,
    "announce": 7, "kontra": 8,
}  # fmt: skip
#: the action classes :func:`_learn_action_class` has looked at
_SEEN_CLASSES: Final[set[type]] = set()


def _learn_action_class(cls: type) -> None:
    """Key ``cls`` in :data:`_SH_KINDS` when every instance of it has the same ``type``: a
    frozen pydantic model (its fields cannot be set after validation) whose ``type`` field is
    a ``Literal`` of one of the kinds (the log format's ``Play``, for one). Read by duck
    typing: the engine does not import the log format."""
    _SEEN_CLASSES.add(cls)
    config = getattr(cls, "model_config", None)
    fields = getattr(cls, "model_fields", None)
    if not isinstance(config, dict) or not config.get("frozen") or not isinstance(fields, dict):
        return
    ann = getattr(fields.get("type"), "annotation", None)
    args = get_args(ann) if get_origin(ann) is Literal else ()
    if len(args) == 1 and isinstance(args[0], str) and args[0] in _SH_KINDS:
        _SH_KINDS[cls] = _SH_KINDS[args[0]]


#: the contracts as slohand.h indexes them: the order of ``CONTRACTS``
_CONTRACT_CODES: Final = tuple(CONTRACTS)
#: the contract codes by the index the native whole hand (and the ingest lane) gives
CONTRACT_CODES: Final = _CONTRACT_CODES
_CONTRACT_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(_CONTRACT_CODES)}


def native_whole_hand(rules: Rules, table_size: int) -> bool:
    """Whether :func:`fast_replay` plays a clean hand of ``rules`` at a table of
    ``table_size`` in one native call (``_native/slohand.h``): the deal check, the bidding,
    the king call, the talon and the discards, the announcement round (announcements, kontras,
    "ležim" and the passes, where the reference reports nothing), the cards and (under
    ``openspiel-2.0``) OpenSpiel's returns; under the other rulesets the tricks are then
    scored in Python (:func:`.fastfacts.fast_hand_facts` and the reference ``score_facts``).
    That is the case at tables of 3 and 4 when the native core is there; other hands
    (anything doubtful, a table of 5) take the steps below in Python."""
    return _native_config(rules, table_size) is not None


def native_config(rules: Rules, table_size: int) -> bytes | None:
    """The ruleset's side of the native whole hand for a table of ``table_size`` (the bytes
    ``slovenian_hand`` and the store's ingest lane take), or None where the native whole
    hand does not apply (:func:`native_whole_hand`)."""
    return _native_config(rules, table_size)


def _native_config(rules: Rules, table_size: int) -> bytes | None:
    """The ruleset's side of the native whole hand (``slovenian_config``), or None where it
    does not apply (see :func:`native_whole_hand`)."""
    if _CORE is None:
        return None
    cache = rules.native  # per Rules object (a session's): built once from the options
    if table_size not in cache:
        key = (_config_key(rules), table_size)
        if key not in _CONFIGS:
            _CONFIGS[key] = _config(rules, table_size)
        cache[table_size] = _CONFIGS[key]
    cfg: bytes | None = cache[table_size]
    return cfg


#: :func:`_config` by :func:`_config_key` and table size: the sessions of a ruleset share it
_CONFIGS: Final[dict[tuple[Any, ...], bytes | None]] = {}


def _config_key(rules: Rules) -> tuple[Any, ...]:
    """Every option :func:`_config` reads (the sessions of one ruleset share one set-up)."""
    return (rules.openspiel_scoring, rules.announcements, rules.kontra_levels,
            rules.klop_kontra, rules.lezim_always, rules.solo_brez_bonuses, rules.table_sizes,
            rules.redeal_without_taroks, rules.discard_only_if_forced, rules.pagat_in_berac,
            rules.pagat_last_tarok, rules.overtake_by_rank, rules.emperor_always,
            rules.protect_either, rules.protection, rules.announced_valat_leads)  # fmt: skip


def _ann_stage(rules: Rules, code: str) -> int:
    """How the announcement round of ``code`` opens (``_enter_announcements``): -1 there is
    none (the play follows), 0 with the declarer's turn, 1 with the defenders' (in klop with
    kontra: everyone's)."""
    if code == "klop":
        return 1 if rules.klop_kontra else -1
    if not (rules.announcements or rules.kontra_levels > 0):
        return -1
    bonuses = rules.announcements and rules.has_bonuses(code)
    return 0 if (bonuses or rules.lezim_always) else 1


def _config(rules: Rules, table_size: int) -> bytes | None:
    core = _native.core
    if core is None or not hasattr(core, "slovenian_hand") or table_size not in (3, 4):
        return None
    rows = []
    for code, row in CONTRACTS.items():
        pr = make_play_rules(rules, code)
        play = (int(pr.negative), int(pr.pagat_restricted), int(pr.pagat_last_tarok),
                int(pr.by_rank), int(pr.emperor_always), int(pr.colour_valat), -1, -1,
                int(pr.protect_either))  # fmt: skip
        ends = (1 if code in ("berac", "odprti_berac") else 0) | (
            2 if code in ("barvni_valat", "valat") else 0
        )
        # scored in C only where OpenSpiel's talon agrees with the contract table
        kind = os_kind(code) if TALON_CARDS.get(code) == row.talon else -1
        value = CONTRACT_VALUES.get(code, 0)
        rows.append((row.rank, int(row.at_three), int(row.king_call), row.talon,
                     int(row.declarer_leads), ends, kind, value, _ann_stage(rules, code),
                     play, int(rules.has_bonuses(code)), int(row.solo)))  # fmt: skip
    cfg: bytes = core.slovenian_config(
        table_size,
        48 // table_size,
        int(table_size in rules.table_sizes),
        int(rules.redeal_without_taroks),
        int(rules.discard_only_if_forced),
        int(rules.openspiel_scoring),
        _CONTRACT_INDEX["klop"],
        _CONTRACT_INDEX["three"],
        _CONTRACT_INDEX.get("barvni_valat", -1),
        # the announcement round (announcements.py)
        (int(rules.announcements), rules.kontra_levels, int(rules.klop_kontra),
         int(rules.protection), int(rules.announced_valat_leads)),
        rows,
    )  # fmt: skip
    return cfg


def native_score_config(rules: Rules) -> bytes | None:
    """What the native scoring of a clean hand (``_native/sloscore.h``: the twin of
    :func:`.fastfacts.fast_hand_facts` and the reference ``score_facts`` for a hand without
    irregularities) reads of ``rules`` (``slovenian_score_config``); None without the native
    core. The store's ingest lane scores its hands with it."""
    core = _native.core
    if core is None or not hasattr(core, "slovenian_score_config"):
        return None
    key = ("score", _config_key(rules), rules.win_threshold, rules.diff_nearest_5,
           rules.klop_nearest_5, rules.solo_brez_difference, rules.silent_ultimo_failure_counts,
           rules.count_remainder, rules.mondfang_when_valat, rules.mondfang_value, rules.radelci,
           rules.radelci_from_silent_valat, rules.klop_kontra_full_and_empty_doubled,
           rules.valat_value)  # fmt: skip
    if key not in _CONFIGS:
        rows = []
        for code, row in CONTRACTS.items():
            fixed = 1 if code in ("berac", "odprti_berac") else 2 if code in (
                "barvni_valat", "valat") else 0  # fmt: skip
            rows.append((rules.contract_value(code), fixed, int(row.radelc)))
        _CONFIGS[key] = core.slovenian_score_config(
            rules.win_threshold, int(rules.diff_nearest_5), int(rules.klop_nearest_5),
            int(rules.solo_brez_difference), int(rules.silent_ultimo_failure_counts),
            int(rules.count_remainder), int(rules.mondfang_when_valat), rules.mondfang_value,
            int(rules.radelci), int(rules.radelci_from_silent_valat),
            int(rules.klop_kontra_full_and_empty_doubled), _CONTRACT_INDEX["solo_brez"], rows,
        )  # fmt: skip
    cfg: bytes | None = _CONFIGS[key]
    return cfg


_NO_ANN: Final[dict[str, tuple[int, str]]] = {}
_NO_KONTRA: Final[dict[str, int]] = {}


class FinishedHand:
    """The light stand-in of a hand played by the native whole hand: what the session takes
    back (``end_hand``), what :class:`HandTricks` reads (the trick order from each seat, the
    contract, the talon) and what the scoring facts are read from
    (:func:`.fastfacts.fast_hand_facts`): the seats, the contract and its declarer, partner
    and called king, the talon taken and the discards, the announcements and kontras of the
    round, the radelci and misdeal counts before the hand. Nothing was claimed or recorded
    as irregular (the native call takes no such hand). The reference state is rebuilt only
    when asked for (``FastReplay.rebuild``)."""

    __slots__ = ("_order", "active", "ann", "called_king", "claim", "contract", "dealer",
                 "declarer", "discards", "ended_early", "irregularities", "king_in_talon",
                 "kontra", "kontra_list", "misdeals_before", "n_active", "partner",
                 "radelci_before", "rules", "self_call", "table_size", "taken", "talon",
                 "talon_group", "tricks", "tricks_total")  # fmt: skip

    def __init__(self, rules: Rules, table_size: int, dealer: int, contract: str,
                 talon: tuple[str, ...]) -> None:  # fmt: skip
        seating = _SEATING[(table_size, dealer)]
        self.rules = rules
        self.table_size = table_size
        self.dealer = dealer
        self.active: tuple[int, ...] = seating[0]
        self.n_active: int = seating[1]
        self.tricks_total: int = seating[5]
        self._order: dict[int, tuple[int, ...]] = seating[6]
        self.contract = contract
        self.talon = talon
        self.tricks: list[Trick] = []
        self.declarer: int | None = None
        self.partner: int | None = None
        self.called_king: str | None = None
        self.king_in_talon = False
        self.self_call = False
        self.talon_group: int | None = None
        self.taken: tuple[str, ...] = ()
        self.discards: tuple[str, ...] = ()
        self.ended_early = False
        self.ann = _NO_ANN
        self.kontra = _NO_KONTRA
        self.kontra_list: tuple[tuple[int, str, int], ...] = ()
        self.claim = None
        self.irregularities: tuple[Any, ...] = ()
        self.radelci_before: tuple[int, ...] = ()
        self.misdeals_before: tuple[int, ...] = ()


def _decode_tricks(packed: bytes) -> tuple[list[TrickRecord], list[int]]:
    """The trick records of slohand.h's packed tricks (7 bytes each: leader, winner, the
    winning card's index, four card ids, 255 for none)."""
    card = _CARD
    recs: list[TrickRecord] = []
    wins: list[int] = []
    for i in range(0, len(packed), 7):
        leader, winner, wi, *ids = packed[i : i + 7]
        recs.append((leader, [card[x] for x in ids if x != 255], winner))
        wins.append(wi)
    return recs, wins


@lru_cache(maxsize=4096)
def _returns_items(
    item: str, returns: tuple[int, ...], active: tuple[int, ...]
) -> tuple[ScoreItem, ...]:
    """The score items of OpenSpiel's ``returns`` (one ``item`` line per active seat): frozen
    values, shared by the hands with the same returns."""
    return tuple([score_item(item, returns[s], s, "OpenSpiel returns") for s in active])


def _native_hand(cfg: bytes, inputs: HandInputs) -> FastReplay | None:
    """The whole clean hand in one native call (``_native/slohand.h``), or None: the steps of
    :func:`fast_replay` in Python then take the hand (anything the C does not take, they
    judge, or leave to the reference). The score is :func:`native_score`'s."""
    assert _CORE is not None
    dealer, talon = inputs.dealer, inputs.talon
    acts = inputs.actions
    if acts and type(acts[-1]) not in _SEEN_CLASSES:  # a hand ends with a card: its class
        _learn_action_class(type(acts[-1]))
    res = _CORE.slovenian_hand(cfg, dealer, inputs.hands, talon, inputs.actions, _SH_KINDS,
                               _CONTRACT_INDEX, _CID, _CARD)  # fmt: skip
    if res is None:
        return None
    king = res[3]
    declarer = res[1]
    self_call = declarer >= 0 and king >= 0 and _CARD[king] in inputs.hands[declarer]
    done = native_score(inputs.rules, inputs.table_size, dealer, tuple(talon), self_call,
                        inputs.radelci, inputs.misdeals, res)  # fmt: skip
    if done is None:
        return None
    score, info, tricks = done
    rebuild = partial(_reference_hand, inputs)
    return FastReplay(score, cast(HandState, info), rebuild, tricks.views, trick_rows=tricks.rows)


def native_score(
    rules: Rules,
    n: int,
    dealer: int,
    talon: tuple[str, ...],
    self_call: bool,
    radelci: Sequence[int],
    misdeals: Sequence[int],
    res: tuple[Any, ...],
) -> tuple[HandScore, FinishedHand, HandTricks] | None:
    """The score of a hand the native whole hand played (``res``: what ``slovenian_hand``
    returns, called with the card tokens), the light stand-in of the finished hand and its
    tricks; None when the score leaves anything unverified (the caller then takes the Python
    steps). Under ``openspiel-2.0`` OpenSpiel's returns from the C; otherwise the reference's
    scoring facts of the tricks (:func:`.fastfacts.fast_hand_facts`) and its items
    (``score_facts``), with ``radelci`` and ``misdeals`` the counts before the hand.
    ``self_call``: the declarer called a king of his own hand. Shared by :func:`fast_replay`
    and the store's ingest lane (:mod:`tarock_logs.store.lane`)."""
    (ci, declarer, partner, king, group, discards, packed, early, masks, returns, _, recs,
     anns, kontras) = res  # fmt: skip
    contract = _CONTRACT_CODES[ci]
    info = FinishedHand(rules, n, dealer, contract, talon)
    if returns is not None:  # OpenSpiel's returns, from the C
        klop = contract == "klop"
        item = "klop" if klop else "contract"
        score = HandScore(
            totals=returns,
            items=_returns_items(item, returns, info.active),
            contract=contract,
            declarer=None if declarer < 0 else declarer,
            partner=None if partner < 0 else partner,
            won=None if klop else returns[declarer] > 0,
            carry_after={"radelci": [0] * n},
        )
        return score, info, HandTricks(cast(SlovenianHand, info), packed=packed)
    # the reference's scoring facts of the tricks, and its items (fastfacts, score_facts)
    if declarer >= 0:
        info.declarer = declarer
        info.partner = None if partner < 0 else partner
        if king >= 0:
            k = info.called_king = _CARD[king]
            info.king_in_talon = k in talon
            info.self_call = self_call
        if group >= 0:
            take = CONTRACTS[contract].talon
            info.talon_group = group
            info.taken = talon[group * take : (group + 1) * take]
        info.discards = tuple([_CARD[x] for x in discards])
    info.ended_early = early
    if anns:  # the announcements and kontras of the round, as the reference keeps them
        info.ann = {bonus: (seat, side) for seat, bonus, side in anns}
    if kontras:
        info.kontra = {target: level for _, target, level in kontras}
        info.kontra_list = kontras
    info.radelci_before = (tuple([max(0, int(x)) for x in radelci]) + (0,) * n)[:n]
    info.misdeals_before = (tuple(misdeals) + (0,) * n)[:n]
    recs, wins = recs  # the trick records, made by the C from the tokens of _CARD
    facts = fast_hand_facts(cast(SlovenianHand, info), recs, wins, masks)
    if facts is None:
        return None
    score = score_facts(rules, facts)
    if score.unverified:
        return None
    return score, info, HandTricks(cast(SlovenianHand, info), recs, wins)


class HandInputs(NamedTuple):
    """What :func:`fast_replay` is given for one hand (the session's rules, table size,
    radelci and misdeal counts; the deal; the log's actions and their converter)."""

    rules: Rules
    table_size: int
    radelci: list[int]
    misdeals: list[int]
    dealer: int
    hands: Sequence[Sequence[str]]
    talon: Sequence[str]
    actions: Sequence[Any]
    to_action: Callable[[Any], Action]


def _reference_hand(i: HandInputs) -> SlovenianHand:
    """The hand replayed through the reference engine (a fast replay's ``rebuild``)."""
    ref = SlovenianHand(i.rules, i.table_size, i.dealer, i.hands, i.talon, radelci=i.radelci,
                        misdeals_before=i.misdeals)  # fmt: skip
    for a in i.actions:
        ref.push(i.to_action(a))
    return ref


def _native_play_cards(
    h: SlovenianHand, actions: Sequence[Any], k: int
) -> tuple[list[TrickRecord], list[int], list[int]] | None:
    """:func:`_play_cards` in C (``_native/cardloop.h``): the same tricks, the same state left
    on ``h``, the same declines; differential-tested against the Python loop
    (tests/rules/slovenian/test_native_cards.py)."""
    assert _CORE is not None
    pr = h._pr or h._play_rules()
    prot = [CID[x] for x in h._protected]
    contract = h.contract
    # berač ends at the declarer's first trick (1), (colour) valat at his first lost one (2)
    ends = (1 if contract in ("berac", "odprti_berac") else 0) | (
        2 if contract in ("barvni_valat", "valat") or "barvni_valat" in h.ann else 0
    )
    rules = (
        pr.negative,
        pr.pagat_restricted,
        pr.pagat_last_tarok,
        pr.by_rank,
        pr.emperor_always,
        pr.colour_valat,
        prot[0] if prot else -1,
        prot[1] if len(prot) > 1 else -1,
        pr.protect_either,
    )
    res = _CORE.play_cards(
        h.hands,
        actions,
        k,
        h._first_leader(),
        h._order,
        rules,
        _CID,
        h.tricks_total,
        h.declarer if h.declarer is not None else -1,
        ends,
    )
    if res is None:
        return None
    recs, wins, tmasks, left, ended_early = res
    h.phase = Phase.DONE
    h.ended_early = ended_early
    h.trick = []
    h.hands = [cards_of(m) if m else set() for m in left]
    return recs, wins, tmasks


def _play_cards(
    h: SlovenianHand, actions: Sequence[Any], k: int
) -> tuple[list[TrickRecord], list[int], list[int]] | None:
    """Play the cards ``actions[k:]`` on ``h`` (in the play phase, no card played yet) to the
    end of the hand: the completed tricks as ``(records, winning-card indexes, card masks)``,
    with the hand's phase, early end and remaining cards set as the reference would leave
    them; None at the first action that is not a legal card of the seat to play, or when the
    hand does not end exactly with the last action. With the native core and at most two
    protected cards, :func:`_native_play_cards` plays them in C."""
    if _CORE is not None and len(h._protected) <= 2:
        return _native_play_cards(h, actions, k)
    pr = h._pr or h._play_rules()
    prot = tuple([BIT[x] for x in h._protected]) if h._protected else ()
    protmask = sum(prot)
    positive = not pr.negative
    # the cards the lead rules can forbid: the pagat (restriction, spec 8.4(b)), protected cards
    special = protmask | (_P if pr.pagat_restricted else 0)
    # klop and berač without colour valat: the must-overtake shortcut (_overtake_mask)
    overtake = pr.negative and not prot and not pr.colour_valat
    by_rank = pr.by_rank
    bit_of = BIT.__getitem__
    masks = [sum(map(bit_of, s)) for s in h.hands]  # one bit per card: the sum is the union
    order = h._order  # the seats of a trick in playing order, from its leader
    followers = {s: seats[1:] for s, seats in order.items()}  # the seats after the leader
    info_of = INFO.get
    suit_mask = _SUIT_MASK
    legal_mask = _legal_mask
    cv = pr.colour_valat
    wkeys = _WKEY_CV if cv else _WKEY
    tricks_total = h.tricks_total
    contract = h.contract
    declarer = h.declarer
    # berač ends at the declarer's first trick, (colour) valat at his first lost one (spec 8.7)
    ends_on_win = contract in ("berac", "odprti_berac")
    ends_on_loss = contract in ("barvni_valat", "valat") or "barvni_valat" in h.ann
    # the completed tricks: (leader, cards, winner), the winning card's index, the card mask
    recs: list[TrickRecord] = []
    wins: list[int] = []
    tmasks: list[int] = []
    leader = h._first_leader()
    phase = Phase.PLAY
    ended_early = False
    rest = iter(actions[k:])
    nexta = rest.__next__
    try:
        while True:
            # (reading "the next card of this seat" is written out for the lead and for the
            # followers below on purpose: a helper call per card costs ~4% of the replay)
            # the lead (spec 8.3: any card, but the pagat under the pagat restriction and
            # protected cards, which ask the full rules)
            a = nexta()
            if a.type != "play" or a.seat != leader:
                return None
            card = a.card
            info = info_of(card)
            if info is None:
                return None
            c, bit, led = info
            hm = masks[leader]
            if not hm & bit or (bit & special and not legal_mask(pr, hm, [], 0, prot) & bit):
                return None
            masks[leader] = hm ^ bit
            tcards = [card]
            tids = [c]
            tm = bit
            ledmask = suit_mask[led]
            seats = order[leader]
            # the trick's winner so far (spec 8.2): the card with the strongest key
            wk = wkeys[led]
            best = wk[c]
            wi = 0
            # the others in turn: a card of the led suit, or (void) a tarok, or (void of
            # both) anything, checked at once in a positive contract (but for a protected
            # card); in klop and berač the must-overtake shortcut; everything else asks the
            # full rules
            for seat in followers[leader]:
                a = nexta()
                if a.type != "play" or a.seat != seat:
                    return None
                card = a.card
                info = info_of(card)
                if info is None:
                    return None
                c, bit, s = info
                hm = masks[seat]
                if not hm & bit:
                    return None
                if not (
                    positive
                    and not bit & protmask
                    and (s == led or (not hm & ledmask and (s == 0 or not hm & _TAROKS)))
                ):
                    if not (
                        (overtake and _overtake_mask(by_rank, hm, tids, tm, led, wi) & bit)
                        or legal_mask(pr, hm, tids, tm, prot) & bit
                    ):
                        return None
                masks[seat] = hm ^ bit
                if wk[c] > best:
                    best = wk[c]
                    wi = len(tcards)
                tcards.append(card)
                tids.append(c)
                tm |= bit
            # the trick's winner (spec 8.2), as tricks.winner_index
            if tm & _TRULA == _TRULA and (not cv or led == 0):  # the emperor's trick
                wi = tids.index(_PAGAT_ID)
            winner = seats[wi]
            recs.append((leader, tcards, winner))
            wins.append(wi)
            tmasks.append(tm)
            if len(recs) >= tricks_total:
                phase = Phase.DONE
                break
            if (ends_on_win and winner == declarer) or (ends_on_loss and winner != declarer):
                phase = Phase.DONE
                ended_early = True
                break
            leader = winner
    except StopIteration:
        return None  # the hand did not end
    for _ in rest:
        return None  # actions after the end (the reference warns: play.after_end)
    h.phase = phase
    h.ended_early = ended_early
    h.trick = []
    h.hands = [cards_of(m) if m else set() for m in masks]
    return recs, wins, tmasks


def _score(
    h: SlovenianHand,
    recs: list[TrickRecord],
    wins: list[int],
    tmasks: list[int],
    tricks: Callable[[], list[Trick]],
) -> HandScore:
    """The reference's score of the finished hand ``h`` from the fast path's trick records:
    OpenSpiel's returns under ``openspiel-2.0``, else the reference ``score_facts`` of the
    facts read off the records (:func:`~.fastfacts.fast_hand_facts`), or the reference
    ``score()`` over the built Trick records when that reading declines."""
    rules = h.rules
    if rules.openspiel_scoring:
        return openspiel_hand_score(h, recs)
    facts = fast_hand_facts(h, recs, wins, tmasks)
    if facts is None:
        tricks()
        return h.score()
    return score_facts(rules, facts)


class HandTricks:
    """The completed tricks of a fast-replayed hand, made from its trick records on demand.

    Calling it gives the reference's :class:`~tarock_logs.rules.slovenian.hand.Trick` records
    (built once, kept on the state's ``tricks``); :meth:`views` gives the tricks as
    :meth:`SlovenianHand.view` does (``view()["tricks"]``, what the store keeps), straight
    from the records: equal to ``trick_views(self())`` without the Trick objects.
    """

    __slots__ = ("_packed", "_recs", "_wins", "h")

    def __init__(
        self,
        h: SlovenianHand,
        recs: Sequence[TrickRecord] = (),
        wins: Sequence[int] = (),
        packed: bytes | None = None,
    ) -> None:
        self.h = h
        self._recs = recs
        self._wins = wins
        #: the native whole hand's tricks (slohand.h), decoded into records on first use
        self._packed = packed

    def _decode(self) -> None:
        packed, self._packed = self._packed, None
        if packed is not None:
            self._recs, self._wins = _decode_tricks(packed)

    @property
    def recs(self) -> Sequence[TrickRecord]:
        """The trick records ``(leader, cards, winner)``."""
        if self._packed is not None:
            self._decode()
        return self._recs

    @property
    def wins(self) -> Sequence[int]:
        """Each trick's winning card's index."""
        if self._packed is not None:
            self._decode()
        return self._wins

    def __call__(self) -> list[Trick]:
        h = self.h
        if not h.tricks:
            h.tricks.extend(_tricks(h, self.recs, self.wins, h._order))
        return h.tricks

    def rows(self) -> TrickRows:
        """The tricks as columns (:class:`~tarock_logs.rules.base.TrickRows`), straight from
        the records: the same leaders, winners, seats, cards and points as :meth:`views`."""
        h = self.h
        order = h._order
        gifts = h.talon if h.contract == "klop" else ()
        pack = PACK_SET
        leaders: list[int] = []
        winners: list[int] = []
        seats: list[tuple[int, ...]] = []
        cards_col: list[tuple[str, ...]] = []
        points: list[int | None] = []
        for i, (leader, cards, winner) in enumerate(self.recs):
            gift = gifts[i] if i < 6 and i < len(gifts) else None
            ok = pack.issuperset(cards) and (gift is None or gift in pack)
            leaders.append(leader)
            winners.append(winner)
            seats.append(order[leader][: len(cards)])
            cards_col.append(tuple(cards))
            points.append((thirds(cards) + (thirds((gift,)) if gift else 0)) if ok else None)
        return TrickRows(leaders, winners, seats, cards_col, points)

    def views(self) -> list[dict[str, Any]]:
        h = self.h
        order = h._order
        wins = self.wins
        gifts = h.talon if h.contract == "klop" else ()  # klop: the first six tricks' gifts
        pack = PACK_SET
        out = []
        for i, (leader, cards, winner) in enumerate(self.recs):
            seats = order[leader]
            gift = gifts[i] if i < 6 and i < len(gifts) else None
            ok = pack.issuperset(cards) and (gift is None or gift in pack)
            out.append(
                {
                    "leader": leader,
                    "cards": [[seats[j], c] for j, c in enumerate(cards)],
                    "winner": winner,
                    "winning_card": cards[wins[i]],
                    "gift": gift,
                    "points": (thirds(cards) + (thirds((gift,)) if gift else 0)) if ok else None,
                    "points_unit": "thirds",
                }
            )
        return out


def _tricks(
    h: SlovenianHand,
    recs: Sequence[TrickRecord],
    wins: Sequence[int],
    order: dict[int, tuple[int, ...]],
) -> list[Trick]:
    """The Trick records ``SlovenianHand._complete_trick`` makes, from the fast path's."""
    out = []
    klop = h.contract == "klop"
    talon = h.talon
    for i, (leader, cards, winner) in enumerate(recs):
        seats = order[leader]
        pairs = tuple(_PAIRS_BY_SEAT[seats[j]][c] for j, c in enumerate(cards))
        if klop and i < 6 and i < len(talon):
            gift: str | None = talon[i]
            pile = (*cards, talon[i])
        else:
            gift = None
            pile = tuple(cards)
        out.append(Trick(leader, pairs, winner, cards[wins[i]], gift, pile))
    return out
