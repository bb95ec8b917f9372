"""The Slovenian hand as a state machine (:class:`SlovenianHand`, a ``rules.base.HandState``).

Phases, in order (spec sections 4–8 and docs/architecture.md "The Slovenian hand as a sequence
of actions"):

``bidding``
    P2 speaks first; P1 (forehand) holds the **mandatory three** (*obvezna trojka*) implicitly
    (an explicit opening ``bid three`` by P1 is accepted). Each call is ``pass`` (or ``bid`` with
    contract ``pass``) or a contract code; a seat that passed is out. The last remaining seat
    makes one more ``bid``, the **final declaration** (klop or three or higher when everybody
    passed; otherwise the held contract or higher).
``king_call``
    tri/dva/ena with 4 active players: ``call`` with ``HK DK SK CK``. Calling one's own king
    (*samoruf*) is allowed; a king in the talon means the declarer plays alone.
``talon`` / ``discard``
    ``talon`` with the 0-based group, then ``discard`` actions (one with all cards, or one per
    card: :meth:`legal_actions` offers single-card candidates). Kings and trula cards may never
    be discarded; other taroks must be ``shown`` (tournament) or may be discarded only when no
    other card is left (openspiel, ``only_if_forced``).
``announcements``
    optional ``announce`` / ``lezim`` by the declarer, then each other player's ``announce`` /
    ``kontra`` ending with ``pass`` ("v redu"), then the declarer's kontras on the defenders'
    announcements. The first ``play`` ends the phase whatever has been said. Turn-order
    deviations inside the phase are warnings (``ann.order``).
``play``
    one ``play`` per card; ``claim`` (``rest``) ends the hand with the remaining tricks to the
    claimer's side. Berač and odprti berač end at the declarer's first trick, barvni valat and
    the valat contract at his first lost trick; later cards are ``play.after_end`` warnings.
``done``

The phases before play live in mixins: :mod:`.bidding`, :mod:`.exchange` (king call, talon,
discards) and :mod:`.announcements`; this module holds the state, dispatch, undo, trick play,
findings and the view.

Leniency (the audit must reach the end of the hand): an illegal but physically possible action
is applied and reported. A card the seat does not hold is reported as ``play.not_in_hand`` and
**applied** (put on the trick), so the trick structure follows the log; a token that is no card
of the pack (``play.unknown_card``) is skipped. Actions that cannot mean anything (an unknown
contract, a group index out of range, an announcement the side may not make,
a kontra on nothing, anything after the end) are reported and **skipped**; :meth:`pop` still
undoes them (each push is one undo entry). A missing step (no final declaration, no king call,
no talon pick, too few discards) is reported when the next phase's action arrives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from tarock_logs.rules.base import (
    Action,
    HandScore,
    HandState,
    Irregularity,
    RecordedFacts,
    Violation,
)
from tarock_logs.rules.slovenian.announcements import AnnouncementsMixin
from tarock_logs.rules.slovenian.bidding import BiddingMixin
from tarock_logs.rules.slovenian.codes import violation
from tarock_logs.rules.slovenian.contracts import ALONE, CONTRACTS, MANDATORY, Contract, Rules
from tarock_logs.rules.slovenian.exchange import ExchangeMixin
from tarock_logs.rules.slovenian.scoring import (
    hand_facts,
    recorded_facts,
    score_facts,
    score_hand,
)
from tarock_logs.rules.slovenian.state import Phase
from tarock_logs.rules.slovenian.tricks import (
    PACK_SET,
    PAGAT,
    SUIT,
    SUIT_NAMES,
    PlayRules,
    Trick,
    sort_cards,
    thirds,
    winner_index,
)

PHASES: Final = tuple(Phase)
_PHASE_INDEX: Final[dict[str, int]] = {p: i for i, p in enumerate(PHASES)}
#: the phase each action type belongs to; ``pass`` belongs to the bidding or to the
#: announcement round, depending on the moment (``SlovenianEngine.action_phases``)
PHASE_OF_TYPE: Final[Mapping[str, Phase]] = MappingProxyType(
    {
        "bid": Phase.BIDDING,
        "call": Phase.KING_CALL,
        "talon": Phase.TALON,
        "discard": Phase.DISCARD,
        "announce": Phase.ANNOUNCEMENTS,
        "kontra": Phase.ANNOUNCEMENTS,
        "lezim": Phase.ANNOUNCEMENTS,
        "play": Phase.PLAY,
        "claim": Phase.PLAY,
    }
)
#: the phase a logged action moves the hand to (a log may skip a step: ``_advance``)
_TARGET_PHASE: Final = {
    t: _PHASE_INDEX[p] for t, p in PHASE_OF_TYPE.items() if p is not Phase.BIDDING
}


class _PlayUndo(NamedTuple):
    """The undo entry of a card (python-chess's ``_BoardState`` for one move): who played
    what, whether the seat held it (a card not held is put on the trick but taken from no
    hand), whether it was a detected renons and whether it ended the hand."""

    seat: int
    card: str
    in_hand: bool
    renons: bool
    done: bool

    def __deepcopy__(self, memo: dict[int, Any]) -> _PlayUndo:
        return self  # immutable (and the sentinels below stay themselves in a copied hand)


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """The undo entry of any other action: everything but the card path's lists is a scalar
    or an immutable value (replaced on change), kept by reference (``scalars``, in the order
    of ``SlovenianHand._SCALARS``); the card path's lists are kept by length (``trick`` also
    by object, as completing a trick replaces it); the hands are copied only by actions that
    move cards (else ``hands`` is None)."""

    scalars: tuple[Any, ...]
    trick: list[tuple[int, str]]
    trick_len: int
    tricks_len: int
    detected_len: int
    hands: list[set[str]] | None


#: the undo entries of a legal card by the seat to move (the card is in the history)
_LEGAL_PLAY: Final = _PlayUndo(-1, "", True, False, False)
_LEGAL_PLAY_DONE: Final = _PlayUndo(-1, "", True, False, True)
#: the undo entry of a card that changed nothing (a seat not at the table, no card at all)
_NOOP: Final = _PlayUndo(-1, "", False, False, False)
#: shared (seat, card) pairs, so that tricks hold no per-hand tuples
_PAIRS: Final[dict[tuple[int, str], tuple[int, str]]] = {
    (s, c): (s, c) for s in range(5) for c in sorted(PACK_SET)
}
#: the same pairs by seat, then card (no key tuple built on the hot path)
_PAIRS_BY_SEAT: Final[tuple[dict[str, tuple[int, str]], ...]] = tuple(
    {c: _PAIRS[(s, c)] for c in sorted(PACK_SET)} for s in range(5)
)

#: each seat's card plays (actions are frozen, so :meth:`SlovenianHand.legal_actions` hands
#: out these rather than new ones at every card)
_PLAY_ACTIONS: Final[tuple[dict[str, Action], ...]] = tuple(
    {c: Action("play", s, card=c) for c in sorted(PACK_SET)} for s in range(5)
)


#: the taroks of the pack
_TAROK_SET: Final = frozenset(c for c in PACK_SET if SUIT[c] == "T")


class Seating(NamedTuple):
    """The seats of a hand dealt by ``dealer`` at a table of ``n`` (:func:`_seating`)."""

    #: the active seats in playing order from P1
    active: tuple[int, ...]
    n_active: int
    #: seat → position in ``active``
    pos: dict[int, int]
    #: seat → the next active seat
    nxt: dict[int, int]
    p1: int
    tricks_total: int
    #: seat → the active seats in playing order from that seat (a trick's seats)
    order: dict[int, tuple[int, ...]]


def _seating(n: int, dealer: int) -> Seating:
    """The seats of a hand dealt by ``dealer`` at a table of ``n``. At a table of 5 the
    dealer sits out."""
    if n == 5:
        active = tuple((dealer + i) % n for i in range(1, 5))
    else:
        active = tuple((dealer + i) % n for i in range(1, n + 1))
    k = len(active)
    pos = {s: i for i, s in enumerate(active)}
    nxt = {s: active[(i + 1) % k] for i, s in enumerate(active)}
    order = {s: active[i:] + active[:i] for i, s in enumerate(active)}
    return Seating(active, k, pos, nxt, active[0], 48 // k if k in (3, 4) else 12, order)


#: :func:`_seating` of every dealer at the tables of 3, 4 and 5 (a fixed table, computed at
#: import; its dicts are shared by the hands and never changed)
SEATING: Final = {(n, d): _seating(n, d) for n in (3, 4, 5) for d in range(n)}


def make_play_rules(rules: Rules, contract: str, colour_valat: bool = False) -> PlayRules:
    """The legal-card rules of ``contract`` under ``rules`` (spec 8.3–8.4)."""
    row = CONTRACTS[contract]
    neg = row.negative
    return PlayRules(
        negative=neg,
        pagat_restricted=neg and (row.alone or rules.pagat_in_berac),
        pagat_last_tarok=rules.pagat_last_tarok,
        by_rank=rules.overtake_by_rank,
        emperor_always=rules.emperor_always,
        colour_valat=colour_valat or row.colour_valat,
        protect_either=rules.protect_either,
    )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class SlovenianHand(HandState, BiddingMixin, ExchangeMixin, AnnouncementsMixin):
    """One hand of Slovenian tarok (see the module docstring for the action sequence)."""

    table_size: int

    def __init__(
        self,
        rules: Rules,
        table_size: int,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        radelci: Sequence[int] | None = None,
        irregularities: Sequence[Irregularity] = (),
        misdeals_before: Sequence[int] | None = None,
    ) -> None:
        n = table_size
        self.rules = rules
        self.table_size = n
        self.dealer = dealer
        self.talon: tuple[str, ...] = tuple(talon)
        # per seat, padded or cut to the table size (a log may record a list of another length)
        dealt = tuple(map(tuple, hands[:n]))
        self.dealt: tuple[tuple[str, ...], ...] = dealt + ((),) * (n - len(dealt))
        self.radelci_before: tuple[int, ...] = (
            tuple([max(0, int(x)) for x in radelci or ()]) + (0,) * n
        )[:n]
        self.misdeals_before: tuple[int, ...] = (tuple(misdeals_before or ()) + (0,) * n)[:n]
        self.irregularities: tuple[Irregularity, ...] = tuple(irregularities)
        seating = SEATING.get((n, dealer)) or _seating(n, dealer)
        self.active: tuple[int, ...]
        self.pos: dict[int, int]
        #: the active seat after each active seat in playing order
        self._next_seat: dict[int, int]
        #: the active seats in playing order from each active seat (a trick's seats)
        self._order: dict[int, tuple[int, ...]]
        (
            self.active,
            self.n_active,
            self.pos,
            self._next_seat,
            self.p1,
            self.tricks_total,
            self._order,
        ) = seating
        self.deal_violations: list[Violation] = self._check_deal()

        # ---- mutable state (everything below is restored by pop) ----
        self.phase = Phase.BIDDING
        # tokens outside the pack are reported by the deal check and left out of the hands
        self.hands: list[set[str]] = [
            set(h) if PACK_SET.issuperset(h) else {c for c in h if c in PACK_SET}
            for h in self.dealt
        ]
        self.history: list[Action] = []
        self._undo: list[_PlayUndo | _Snapshot] = []
        self._version = 0
        self._lc_key: tuple[int, int] = (-1, -1)
        self._lc: list[str] = []
        self._lc_why = ""
        #: what the last push reported (``check`` pushes, reads it and pops)
        self._last_violations: list[Violation] = []
        # bidding
        # containers that change outside the card path are immutable values, replaced on change
        self.bids: tuple[tuple[int, str], ...] = ()
        self.passed: frozenset[int] = frozenset()
        self.high = MANDATORY
        self.holder = self.p1
        self.others_bid = False
        self.turn = self.active[1] if self.n_active > 1 else self.p1
        self.awaiting_final = False
        # contract
        self.contract: str | None = None
        self.declarer: int | None = None
        self.called_king: str | None = None
        self.partner: int | None = None
        self.king_in_talon = False
        self.self_call = False
        self.talon_group: int | None = None
        self.taken: tuple[str, ...] = ()
        self.discards: tuple[str, ...] = ()
        self.shown: tuple[str, ...] = ()
        # announcements
        self.ann: dict[str, tuple[int, str]] = {}
        self.ann_list: tuple[tuple[int, str], ...] = ()
        self.kontra: dict[str, int] = {}
        self.kontra_list: tuple[tuple[int, str, int], ...] = ()
        self.lezim = False
        self.stage = 0
        self.stage_done: frozenset[int] = frozenset()
        self._pr: PlayRules | None = None
        self._protected: tuple[str, ...] = ()
        # play
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[Trick] = []
        self.ended_early = False
        self.claim: tuple[int, int, tuple[str, ...]] | None = None  # seat, tricks done, cards left
        self.after_end = 0
        #: detected renons-type violations: (kind, seat, code)
        self.detected: list[tuple[str, int | None, str]] = []

    # ------------------------------------------------------------------ deal check

    def _check_deal(self) -> list[Violation]:
        r = self.rules
        out: list[Violation] = []
        n = self.table_size

        def v(code: str, msg: str, seat: int | None = None, **params: Any) -> None:
            out.append(self._v(code, msg, seat, **params))

        if n not in r.table_sizes:
            v(
                "deal.table_size",
                f"a table of {n} is not allowed by {r.ruleset.id}",
                allowed=list(r.table_sizes),
                size=n,
            )
        seen: dict[str, int] = {}
        allcards = list(chain(self.talon, *self.dealt))
        if len(allcards) == 54 and PACK_SET.issuperset(allcards) and len(set(allcards)) == 54:
            allcards = []  # the usual case: 54 distinct cards of the pack
        for c in allcards:
            if c not in PACK_SET:
                out.append(
                    self._v(
                        "deal.unknown_card",
                        f"{c} is not a card of the Slovenian pack",
                        card=c,
                        token=c,
                    )
                )
            seen[c] = seen.get(c, 0) + 1
        dups = sorted(c for c, k in seen.items() if k > 1)
        if dups:
            v("deal.duplicate_card", f"dealt more than once: {' '.join(dups)}", cards=dups)
        missing = sort_cards(PACK_SET - set(seen)) if seen else []
        if missing:
            v("deal.missing_card", f"not dealt: {' '.join(missing)}", cards=missing)
        if len(self.talon) != 6:
            v(
                "deal.talon_size",
                f"the talon has {len(self.talon)} cards, not 6",
                size=len(self.talon),
            )
        want = self.tricks_total
        for s in range(n):
            size = len(self.dealt[s])
            if n == 5 and s == self.dealer:
                if size:
                    v(
                        "deal.sitting_out_has_cards",
                        f"seat {s} deals at a table of 5 and sits out but was dealt {size} cards",
                        s,
                    )
            elif size != want:
                v(
                    "deal.hand_size",
                    f"seat {s} was dealt {size} cards, not {want}",
                    s,
                    size=size,
                    expected=want,
                )
        if r.redeal_without_taroks:
            for s in self.active:
                if _TAROK_SET.isdisjoint(self.dealt[s]):
                    v(
                        "deal.no_tarok",
                        f"seat {s} has no tarok: the deal is void under {r.ruleset.id}",
                        s,
                    )
        return out

    # ------------------------------------------------------------------ helpers

    def _v(
        self, code: str, msg: str, seat: int | None = None, card: str | None = None, **params: Any
    ) -> Violation:
        """A finding of ``code`` (its section and severity from :mod:`.codes`)."""
        return violation(self.rules.ruleset, code, msg, seat=seat, card=card, **params)

    def side(self, seat: int) -> str:
        """``M`` for the declarer and his partner, ``O`` for the others (klop: everyone ``O``)."""
        if self.declarer is not None and (seat == self.declarer or seat == self.partner):
            return "M"
        return "O"

    def p(self, seat: int) -> str:
        """``P1`` … ``P4`` of an active seat (``dealer`` for the sitting-out dealer)."""
        i = self.pos.get(seat)
        return f"P{i + 1}" if i is not None else "dealer"

    def _next_active(self, seat: int) -> int:
        return self.active[(self.pos[seat] + 1) % self.n_active]

    @property
    def contract_row(self) -> Any:
        return CONTRACTS[self.contract] if self.contract else None

    def colour_valat(self) -> bool:
        """Whether colour-valat trick rules apply (bid, or announced in a solo game)."""
        c = self.contract
        return (c is not None and CONTRACTS[c].colour_valat) or "barvni_valat" in self.ann

    def _first_leader(self) -> int:
        c = self.contract
        if c is None or CONTRACTS[c].alone or self.declarer is None:
            return self.p1
        if CONTRACTS[c].declarer_leads or "barvni_valat" in self.ann:
            return self.declarer
        if "valat" in self.ann and self.rules.announced_valat_leads:
            return self.declarer
        return self.p1

    def _play_rules(self) -> PlayRules:
        pr = self._pr
        if pr is None:
            c = self.contract or ALONE
            pr = make_play_rules(self.rules, c, self.colour_valat())
            prot: list[str] = []
            if self.rules.protection and not CONTRACTS[c].negative:
                if "pagat_ultimo" in self.ann:
                    prot.append(PAGAT)
                if "kralj_ultimo" in self.ann and self.called_king:
                    prot.append(self.called_king)
            self._protected = tuple(prot)
            self._pr = pr
        return pr

    # ------------------------------------------------------------------ protocol

    def to_move(self) -> int | None:
        ph = self.phase
        if ph == "play":
            return self._play_turn()
        if ph == "bidding":
            return self.turn
        if ph in ("king_call", "talon", "discard"):
            return self.declarer
        if ph == "announcements":
            return self._ann_turn()
        return None

    def _play_turn(self) -> int:
        t = self.trick
        if t:
            return self.active[(self.pos.get(t[-1][0], 0) + 1) % self.n_active]
        if self.tricks:
            return self.tricks[-1].winner
        return self._first_leader()

    def is_over(self) -> bool:
        return self.phase == "done"

    def copy(self) -> SlovenianHand:
        """An independent copy (its pushes and pops leave this hand alone); the rules, which
        never change, are shared."""
        return deepcopy(self, {id(self.rules): self.rules})

    def legal_actions(self) -> list[Action]:
        ph = self.phase
        if ph == "play":
            seat = self._play_turn()
            plays = _PLAY_ACTIONS[seat]
            return [
                plays.get(c) or Action("play", seat, card=c)
                for c in sort_cards(self._legal_for(seat))
            ]
        if ph == "bidding":
            return [
                Action("pass", self.turn) if b == "pass" else Action("bid", self.turn, contract=b)
                for b in self._legal_bids()
            ]
        if ph == "king_call":
            return [Action("call", self.declarer, card=k) for k in ("HK", "DK", "SK", "CK")]  # type: ignore[arg-type]
        if ph == "talon":
            k = CONTRACTS[self.contract].talon  # type: ignore[index]
            return [Action("talon", self.declarer, group=g) for g in range(6 // k)]  # type: ignore[arg-type]
        if ph == "discard":
            return self._legal_discards()
        if ph == "announcements":
            return self._legal_announcements()
        return []

    def check(self, action: Action) -> list[Violation]:
        """Why ``action`` would be illegal now (empty list = legal); the state is unchanged."""
        if action.type == "play" and self.phase == "play" and action.seat == self._play_turn():
            card = action.card
            if card in self.hands[action.seat] and card in self._legal_for(action.seat):
                return []
        self.push(action)
        out = self._last_violations
        self.pop()
        return out

    def push(self, action: Action) -> list[Violation]:
        """Apply ``action`` (leniently, see the module docstring); returns its violations."""
        t = action.type
        if t == "play" and self.phase == "play":
            # the hot path: a legal card by the seat to move, no Violation built
            seat = action.seat
            card = action.card
            trick = self.trick
            if trick:
                exp = self._next_seat.get(trick[-1][0])
            elif self.tricks:
                exp = self.tricks[-1].winner
            else:
                exp = self._first_leader()
            if seat == exp:
                hand = self.hands[seat]
                if card in hand:
                    if card in self._legal_for(seat):  # the legal cards (spec 8.3-8.4)
                        hand.remove(card)
                        trick.append(_PAIRS_BY_SEAT[seat][card])
                        done = len(trick) >= self.n_active and self._complete_trick()
                        self._undo.append(_LEGAL_PLAY_DONE if done else _LEGAL_PLAY)
                        self.history.append(action)
                        self._version += 1
                        out: list[Violation] = []
                        self._last_violations = out
                        return out
            out = self._play(action)
        else:
            snap = self._snapshot(t)
            out = self._dispatch(action)
            self._undo.append(snap)
        self.history.append(action)
        self._version += 1
        self._last_violations = out
        return out

    def pop(self) -> Action:
        """Undo the last pushed action exactly; returns it."""
        entry = self._undo.pop()
        action = self.history.pop()
        if entry is _LEGAL_PLAY or entry is _LEGAL_PLAY_DONE:
            self._unplay(_PlayUndo(action.seat, action.card or "", True, False, entry.done))
        elif isinstance(entry, _Snapshot):
            self._restore(entry)
        elif entry is not _NOOP:
            self._unplay(entry)
        self._version += 1
        self._lc_key = (-1, -1)
        return action

    #: the fields a :class:`_Snapshot` keeps by reference
    _SCALARS: Final = (
        "phase",
        "high",
        "holder",
        "others_bid",
        "turn",
        "awaiting_final",
        "contract",
        "declarer",
        "called_king",
        "partner",
        "king_in_talon",
        "self_call",
        "talon_group",
        "taken",
        "lezim",
        "stage",
        "_pr",
        "_protected",
        "ended_early",
        "claim",
        "after_end",
        "ann",
        "kontra",
        "passed",
        "stage_done",
        "bids",
        "discards",
        "shown",
        "ann_list",
        "kontra_list",
    )
    _get_scalars: Final = attrgetter(*_SCALARS)
    _MOVES_CARDS: Final = frozenset({"talon", "discard", "play"})

    def _snapshot(self, kind: str) -> _Snapshot:
        return _Snapshot(
            self._get_scalars(self),
            self.trick,
            len(self.trick),
            len(self.tricks),
            len(self.detected),
            [set(h) for h in self.hands] if kind in self._MOVES_CARDS else None,
        )

    def _restore(self, snap: _Snapshot) -> None:
        d = self.__dict__
        for k, v in zip(self._SCALARS, snap.scalars, strict=True):
            d[k] = v
        trick = snap.trick
        del trick[snap.trick_len :]
        d["trick"] = trick
        del self.tricks[snap.tricks_len :]
        del self.detected[snap.detected_len :]
        if snap.hands is not None:  # actions that move no card leave the hands as they are
            d["hands"] = snap.hands

    def _dispatch(self, a: Action) -> list[Violation]:
        t = a.type
        out: list[Violation] = []
        if a.seat not in self.pos:
            return [
                self._v(
                    "action.seat_not_active",
                    f"seat {a.seat} is not an active player of this hand",
                    a.seat,
                )
            ]
        if t in ("bid", "pass") and self.phase == "bidding":
            return self._bid(a)
        if t == "pass" and self.phase in ("announcements", "play") and not self._card_played():
            return self._ann_pass(a)
        target = _TARGET_PHASE.get(t)
        if target is None:
            if t == "bid":
                return [
                    self._v(
                        "bid.after_bidding",
                        f"seat {a.seat} bid {a.contract} after the bidding was over",
                        a.seat,
                    )
                ]
            if t == "pass":
                return [
                    self._v(
                        "action.out_of_phase",
                        f"seat {a.seat} passed during {self.phase}; ignored",
                        a.seat,
                    )
                ]
            return [self._v("action.unknown", f"{a} is not an action of Slovenian tarok", a.seat)]
        if _PHASE_INDEX[self.phase] < target:
            out += self._advance(target, a)
        if t == "call":
            out += self._call(a)
        elif t == "talon":
            out += self._talon(a)
        elif t == "discard":
            out += self._discard(a)
        elif t in ("announce", "kontra", "lezim"):
            out += self._announce(a)
        elif t == "play":
            if self.phase == "play":
                out += self._play(a, in_dispatch=True)
            else:
                out.append(self._after_end(a))
        elif t == "claim":
            out += self._claim(a)
        return out

    def _card_played(self) -> bool:
        return bool(self.trick or self.tricks)

    # ------------------------------------------------------------------ phase advance

    def _advance(self, target: int, a: Action) -> list[Violation]:
        """Move to phase ``target`` when the log skipped a step, reporting what is missing."""
        out: list[Violation] = []
        guard = 0
        while _PHASE_INDEX[self.phase] < target and guard < 8:
            guard += 1
            ph = self.phase
            if ph == "bidding":
                if not self.awaiting_final:
                    out.append(
                        self._v(
                            "bid.incomplete",
                            f"the bidding did not finish before {a}",
                            a.seat,
                            remaining=[s for s in self.active if s not in self.passed],
                        )
                    )
                special = self.holder == self.p1 and self._mandatory_held()
                if special:
                    guess = ALONE if a.type in ("play", "kontra") else MANDATORY
                    out.append(
                        self._v(
                            "bid.missing_final",
                            f"{self.p(self.p1)} (seat {self.p1}) won the bidding after "
                            f"everybody passed but made no final declaration (klop or "
                            f"three or higher); assumed {guess}",
                            self.p1,
                            assumed=guess,
                        )
                    )
                    self._finish_bidding(self.p1, guess)
                else:
                    self._finish_bidding(self.holder, self.high)
            elif ph == "king_call":
                out.append(
                    self._v(
                        "call.missing",
                        f"seat {self.declarer} declared {self.contract} but called no king",
                        self.declarer,
                    )
                )
                self.phase = Phase.TALON
            elif ph == "talon":
                out.append(
                    self._v(
                        "talon.missing",
                        f"seat {self.declarer} took no talon group",
                        self.declarer,
                    )
                )
                self.phase = Phase.DISCARD
            elif ph == "discard":
                k = CONTRACTS[self.contract].talon  # type: ignore[index]
                out.append(
                    self._v(
                        "discard.count",
                        f"seat {self.declarer} discarded {len(self.discards)} of the "
                        f"{k} cards he must lay away",
                        self.declarer,
                        discarded=len(self.discards),
                        required=k,
                    )
                )
                self.detected.append(("wrong_discard", self.declarer, "discard.count"))
                self._enter_announcements()
            elif ph == "announcements":
                self._start_play()
            else:
                break
        return out

    # ------------------------------------------------------------------ play

    def _legal_for(self, seat: int) -> list[str]:
        key = (self._version, seat)
        if self._lc_key == key:
            return self._lc
        pr = self._pr or self._play_rules()
        prot = self._protected
        hand = self.hands[seat]
        cards = [c for _, c in self.trick]
        legal, why = pr.legal(hand, cards, prot)
        self._lc_key = key
        self._lc = legal
        self._lc_why = why
        return legal

    def _after_end(self, a: Action) -> Violation:
        self.after_end += 1
        return self._v(
            "play.after_end",
            f"seat {a.seat} played {a.card} after the hand had ended; ignored",
            a.seat,
            a.card,
        )

    def _play(self, a: Action, in_dispatch: bool = False) -> list[Violation]:
        seat = a.seat
        card = a.card or ""
        out: list[Violation] = []
        if seat not in self.pos:
            out.append(
                self._v(
                    "action.seat_not_active",
                    f"seat {seat} is not an active player of this hand",
                    seat,
                )
            )
            if not in_dispatch:
                self._undo.append(_NOOP)
            return out
        hand = self.hands[seat]
        exp = self._play_turn()
        if seat != exp:
            out.append(
                self._v(
                    "play.out_of_turn",
                    f"seat {seat} played {card} but seat {exp} was to play",
                    seat,
                    card,
                    expected=exp,
                )
            )
        if card not in PACK_SET:
            out.append(
                self._v(
                    "play.unknown_card",
                    f"seat {seat} played {card!r}, which "
                    "is not a card of the Slovenian pack; ignored",
                    seat,
                    card,
                )
            )
            if not in_dispatch:
                self._undo.append(_NOOP)
            return out
        in_hand = card in hand
        renons = False
        if not in_hand:
            out.append(
                self._v(
                    "play.not_in_hand",
                    f"seat {seat} played {card}, which he does not hold",
                    seat,
                    card,
                )
            )
        else:
            legal = self._legal_for(seat)
            if card not in legal:
                bad = self._illegal(seat, card, legal)
                out.append(bad)
                self.detected.append(("illegal_card", seat, bad.code))
                renons = True
            hand.remove(card)
        trick = self.trick
        trick.append((seat, card))
        done = False
        if len(trick) >= self.n_active:
            done = self._complete_trick()
        if not in_dispatch:
            self._undo.append(_PlayUndo(seat, card, in_hand, renons, done))
        return out

    def _illegal(self, seat: int, card: str, legal: list[str]) -> Violation:
        """The finding of a held card outside the legal set ``legal``: the base rule's
        ``play.illegal_card`` (8.3) or the code of the additional rule of 8.4 it breaks.
        ``params``: ``legal`` (the legal cards), ``required`` (the rule, as the legal-card
        function names it) and, by rule, ``led`` and ``held`` (the led suit and the cards of it
        held) or ``protected`` (the announced card)."""
        why = self._lc_why
        trick = [c for _, c in self.trick]
        legal_s = sort_cards(legal)
        hand = self.hands[seat]
        legal_text = " ".join(legal_s)
        if "protected" in why and card in self._protected:
            return self._v(
                "play.protected_card",
                f"seat {seat} played {card}; legal were "
                f"{legal_text}: the announced {card} may not be played before it is "
                "forced",
                seat,
                card,
                legal=legal_s,
                required=why,
                protected=card,
            )
        if "emperor" in why:
            return self._v(
                "play.must_overtake",
                f"seat {seat} played {card}; legal were "
                f"{legal_text}: škis and mond are in the trick: the pagat must be "
                "played",
                seat,
                card,
                legal=legal_s,
                required=why,
            )
        if "pagat restriction" in why and card == PAGAT:
            return self._v(
                "play.pagat_restricted",
                f"seat {seat} played {card}; legal were "
                f"{legal_text}: the pagat may be played only when it is the only "
                "legal card",
                seat,
                card,
                legal=legal_s,
                required=why,
            )
        if "overtake" in why:
            return self._v(
                "play.must_overtake",
                f"seat {seat} played {card}; legal were "
                f"{legal_text}: a card that wins the trick must be played",
                seat,
                card,
                legal=legal_s,
                required=why,
            )
        if why.startswith("follow"):
            led = SUIT[trick[0]]
            held = [c for c in sort_cards(hand) if SUIT[c] == led]
            return self._v(
                "play.illegal_card",
                f"seat {seat} played {card} while holding "
                f"{' '.join(held)}: {SUIT_NAMES[led]} must be followed",
                seat,
                card,
                legal=legal_s,
                required=why.split(",")[0],
                need="follow",
                led=led,
                held=held,
            )
        facts: dict[str, Any] = {}
        if why.startswith("trump"):
            req = "a player void in the led suit must play a tarok"
            facts = {
                "need": "trump",
                "led": SUIT[trick[0]],
                "held": [c for c in sort_cards(hand) if SUIT[c] == "T"],
            }
        else:
            req = "not a legal card"
        return self._v(
            "play.illegal_card",
            f"seat {seat} played {card}; legal were {legal_text}: {req}",
            seat,
            card,
            legal=legal_s,
            required=why,
            **facts,
        )

    def _complete_trick(self) -> bool:
        trick = self.trick
        cards = [c for _, c in trick]
        try:
            wi = winner_index(cards, (self._pr or self._play_rules()).colour_valat)
        except KeyError:  # unknown tokens: the first known card wins
            wi = 0
        winner = trick[wi][0]
        tricks = self.tricks
        k = len(tricks)
        c = self.contract
        row: Contract | None = CONTRACTS.get(c) if c is not None else None
        if row is not None and row.talon_gifts and k < 6 and k < len(self.talon):
            gift: str | None = self.talon[k]
            pile = (*cards, self.talon[k])
        else:
            gift = None
            pile = tuple(cards)
        tricks.append(Trick(trick[0][0], tuple(trick), winner, cards[wi], gift, pile))
        self.trick = []
        if k + 1 >= self.tricks_total:
            self.phase = Phase.DONE
            return True
        d = self.declarer
        if row is not None and row.no_trick and winner == d:  # berač: the declarer took a trick
            self.phase = Phase.DONE
            self.ended_early = True
            return True
        # valat: the declarer lost a trick
        if ((row is not None and row.every_trick) or "barvni_valat" in self.ann) and winner != d:
            self.phase = Phase.DONE
            self.ended_early = True
            return True
        return False

    def _unplay(self, entry: _PlayUndo) -> None:
        seat, card, in_hand, renons, done = entry
        if done or not self.trick:
            rec = self.tricks.pop()
            self.trick = list(rec.cards)
            if done:
                self.phase = Phase.PLAY
                self.ended_early = False
        self.trick.pop()
        if in_hand:
            self.hands[seat].add(card)
        if renons:
            self.detected.pop()

    def _claim(self, a: Action) -> list[Violation]:
        if self.phase != "play":
            return [
                self._v(
                    "claim.not_expected",
                    f"seat {a.seat} claimed the rest during {self.phase}",
                    a.seat,
                )
            ]
        left = tuple(c for s in self.active for c in self.hands[s]) + tuple(
            c for _, c in self.trick
        )
        self.claim = (a.seat, len(self.tricks), left)
        self.phase = Phase.DONE
        out: list[Violation] = []
        k = self.called_king
        if "kralj_ultimo" in self.ann and k in left and len(self.hands[a.seat]) >= 2:
            out.append(
                self._v(
                    "renons.partial_king_ultimo",
                    f"seat {a.seat} laid down "
                    f"his cards with kralj ultimo announced: {k} counts as caught "
                    "(partial renons)",
                    a.seat,
                )
            )
            self.detected.append(("partial_king_ultimo", a.seat, "renons.partial_king_ultimo"))
        return out

    # ------------------------------------------------------------------ results

    def hand_findings(self) -> list[Violation]:
        """Hand-level findings (no action index): the deal check, plus at the end of the hand
        ``play.missing_tricks`` and ``renons.unclaimed`` warnings (spec 10.7)."""
        out = list(self.deal_violations)
        if self.phase != "done":
            out.append(
                self._v(
                    "play.missing_tricks",
                    f"the hand stops in phase "
                    f"{self.phase} after {_plural(len(self.tricks), 'trick')}",
                )
            )
        if not self.detected:
            return out
        claimed = {(i.kind, i.seat) for i in self.irregularities if i.type == "renons"}
        seen: set[tuple[str, int | None]] = set()
        for kind, seat, code in self.detected:
            if (kind, seat) in claimed or (kind, seat) in seen:
                continue
            seen.add((kind, seat))
            alt = self._settlement_if_called(kind, seat)
            more = f" (called, it would settle as {alt})" if alt is not None else ""
            out.append(
                self._v(
                    "renons.unclaimed",
                    f"seat {seat} committed a detectable "
                    f"renons ({code}) that nobody called; the hand is scored as "
                    f"played{more}",
                    seat,
                    kind=kind,
                    violation=code,
                    settlement_if_called=alt,
                )
            )
        return out

    def _settlement_if_called(self, kind: str, seat: int | None) -> list[int] | None:
        """The totals of the renons settlement had the renons been called (spec 10.7)."""
        if self.contract is None or self.rules.openspiel_scoring or seat is None:
            return None
        f = hand_facts(self)
        f.irregularities = (*f.irregularities, Irregularity("renons", seat=seat, kind=kind))
        return list(score_facts(self.rules, f).totals)

    def score(self) -> HandScore:
        return score_hand(self)

    def recorded_facts(self) -> RecordedFacts | None:
        """The score-sheet line of this hand (:func:`.scoring.recorded_facts`)."""
        return recorded_facts(self)

    def view(self) -> dict[str, Any]:
        """A JSON-able snapshot for the replay viewer (see ``rules.base.HandState.view``)."""
        tricks = []
        for t in self.tricks:
            pile = [c for _, c in t.cards] + ([t.gift] if t.gift else [])
            tricks.append(
                {
                    "leader": t.leader,
                    "cards": [[s, c] for s, c in t.cards],
                    "winner": t.winner,
                    "winning_card": t.winning_card,
                    "gift": t.gift,
                    "points": thirds(pile) if all(c in PACK_SET for c in pile) else None,
                    "points_unit": "thirds",
                }
            )
        k = CONTRACTS[self.contract].talon if self.contract else 0
        return {
            "phase": self.phase,
            "to_move": self.to_move(),
            "hands": [sort_cards(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "tricks": tricks,
            "talon": list(self.talon),
            "talon_group": self.talon_group,
            "talon_taken": list(self.taken),
            "talon_groups": [list(self.talon[i : i + k]) for i in range(0, 6, k)] if k else [],
            "discards": list(self.discards),
            "discards_shown": list(self.shown),
            "contract": self.contract,
            "declarer": self.declarer,
            "partner": self.partner,
            "called_king": self.called_king,
            "bids": [[s, b] for s, b in self.bids],
            "announcements": [
                {"seat": s, "bonus": b, "side": self.ann.get(b, (s, "?"))[1]}
                for s, b in self.ann_list
            ],
            "kontras": [{"seat": s, "target": t, "level": lv} for s, t, lv in self.kontra_list],
            "lezim": self.lezim,
            "active": list(self.active),
            "dealer": self.dealer,
            "radelci_before": list(self.radelci_before),
            "ended_early": self.ended_early,
            "claim": (
                {"seat": self.claim[0], "after_tricks": self.claim[1]} if self.claim else None
            ),
        }


__all__ = ["PHASES", "PHASE_OF_TYPE", "SEATING", "Phase", "Seating", "SlovenianHand", "Trick"]
