"""One Zwanzigerrufen deal as a state machine (the :class:`~tarock_logs.rules.base.HandState`
contract).

Phases: ``auction`` (turns of declarations, each ended by ``pass`` = weiter) → ``play`` (ten
tricks, forehand leads the first in every contract) → ``done``. After the play the holders of
a **Trull** (Sküs, Mond and Pagat dealt to one player) or of **Four Kings** claim them with a
``claim`` action; the hand is already over then and ``legal_actions()`` lists the claims still
open. A ``throw_in`` (Zusammenwerfen) right after the deal voids the deal.

Pushing is lenient: an illegal but physically possible action is applied and reported
(a card not in the player's hand, or a declaration that cannot be applied, is reported and
ignored). Hand-level findings, about the deal itself (``deal.not_the_pack``, ``deal.hand_size``,
``deal.bad_card``, ``deal.dealer_order``) and about a log that stops too early
(``auction.incomplete``, ``play.missing_tricks``), come from :meth:`ZRHand.hand_findings`
(the optional hand-level hook the replay layer calls after the last action).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import deepcopy
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from tarock_logs.cards import PACKS, sort_cards
from tarock_logs.rules.base import Action, HandScore, HandState, Ruleset, Violation
from tarock_logs.rules.zwanzigerrufen.auction import AUCTION_TYPES, BONUSES, Auction
from tarock_logs.rules.zwanzigerrufen.codes import violation
from tarock_logs.rules.zwanzigerrufen.scoring import score_deal
from tarock_logs.rules.zwanzigerrufen.tricks import (
    CALLABLE,
    FARBENSOLO,
    KING_CARDS,
    PAGAT,
    SOLO,
    TRULL_CARDS,
    Trick,
    close_trick,
    legal_cards,
)

GAME = "zwanzigerrufen"
_PACK = frozenset(PACKS[GAME])
_SUIT_NAMES = {"H": "hearts", "D": "diamonds", "S": "spades", "C": "clubs"}
_CLAIMS = {"trull": TRULL_CARDS, "four_kings": KING_CARDS}


class Phase(StrEnum):
    """The phases of a deal (a ``StrEnum``: ``Phase.PLAY == "play"``). A hand is in
    ``auction``, ``play`` or ``done``; ``deal`` is where a throw-in belongs (right after the
    deal, before the first declaration: the hand reads ``auction`` then)."""

    DEAL = "deal"
    AUCTION = "auction"
    PLAY = "play"
    DONE = "done"


#: each seat's card plays (actions are frozen, so :meth:`ZRHand.legal_actions` hands out
#: these rather than new ones at every card)
_PLAY_ACTIONS: Final[tuple[dict[str, Action], ...]] = tuple(
    {c: Action("play", s, card=c) for c in sorted(_PACK)} for s in range(4)
)
#: each seat's calls, bids and announcements and its weiter, which
#: :meth:`ZRHand._auction_candidates` offers in every auction turn (frozen: made once)
_CALLS: Final = tuple(tuple(Action("call", s, card=c) for c in CALLABLE) for s in range(4))
_BIDS_AND_ANNOUNCEMENTS: Final = tuple(
    (
        *(Action("bid", s, contract=c) for c in (FARBENSOLO, SOLO)),
        *(
            Action("announce", s, bonus=bonus, side=side)
            for bonus in BONUSES
            for side in ("dazu", "dagegen")
        ),
    )
    for s in range(4)
)
_PASSES: Final = tuple(Action("pass", s) for s in range(4))

#: the phases by name (looking a member up on its enum class costs more than a global on the
#: hot path: every push reads the phase)
_DEAL, _AUCTION, _PLAY, _DONE = Phase.DEAL, Phase.AUCTION, Phase.PLAY, Phase.DONE

#: the phase each action type belongs to (``claim``: the card bonuses, after the play)
PHASE_OF_TYPE: Final[Mapping[str, Phase]] = MappingProxyType(
    {
        "throw_in": _DEAL,
        **dict.fromkeys(sorted(AUCTION_TYPES), _AUCTION),
        "play": _PLAY,
        "claim": _DONE,
    }
)
#: the keys of :meth:`ZRHand.view` that :meth:`ZRHand.timeline_state` reads off the auction
#: (and the cards on the table, which the simulated players look at before every card)
_CHEAP_KEYS: Final = frozenset({"contract", "declarer", "partner", "called", "game_level", "trick"})

_INFRACTIONS = frozenset(
    {"play.illegal_card", "play.farbensolo_tarock_lead", "play.pagat_released", "play.out_of_turn"}
)


class _State:
    """Everything that changes during a hand (copied before each push, for ``pop``).

    The trick in progress, the completed tricks and the claims are tuples, replaced (never
    changed) when they grow, so that a copy shares them: a push copies a handful of
    references, not the hand's history."""

    __slots__ = (
        "auction",
        "auction_started",
        "claims",
        "hands",
        "leader",
        "offender",
        "phase",
        "started",
        "thrown_in",
        "trick",
        "tricks",
    )

    def __init__(self, auction: Auction, hands: list[tuple[str, ...]]) -> None:
        self.phase = _AUCTION
        self.auction = auction
        self.hands = hands
        self.trick: tuple[tuple[int, str], ...] = ()
        self.tricks: tuple[Trick, ...] = ()
        self.leader = auction.p1
        self.claims: tuple[tuple[int, str], ...] = ()
        self.thrown_in: int | None = None
        self.started = False
        self.auction_started = False
        self.offender: int | None = None

    def copy(self) -> _State:
        new = _State.__new__(_State)
        new.phase = self.phase
        # the auction never changes once it is over: share it (copy on write)
        new.auction = self.auction if self.auction.over else self.auction.copy()
        new.hands = list(self.hands)  # the hands are tuples: replaced, never changed
        new.trick = self.trick  # (tuples, shared: see the class)
        new.tricks = self.tricks
        new.leader = self.leader
        new.claims = self.claims
        new.thrown_in = self.thrown_in
        new.started = self.started
        new.auction_started = self.auction_started
        new.offender = self.offender
        return new


def throw_in_status(hand: Sequence[str], mode: str) -> str | None:
    """``"must"``, ``"may"`` or None for a dealt hand under option ``throw_in`` (§3.4)."""
    if mode == "off":
        return None
    taroks = [c for c in hand if c[0] == "T"]
    if not taroks:
        return "must"
    if len(taroks) == 1 and taroks[0] in TRULL_CARDS:
        return "must" if mode == "strict" else "may"
    return None


class ZRHand(HandState):
    """A Zwanzigerrufen deal. Build it with :meth:`ZRSession.new_hand`."""

    table_size = 4

    def __init__(
        self,
        ruleset: Ruleset,
        opts: dict[str, Any],
        dealer: int,
        hands: Sequence[Sequence[str]],
        *,
        multiplier: int = 1,
        game_number: int = 1,
        deal_violations: Sequence[Violation] = (),
    ) -> None:
        self.ruleset = ruleset
        self.opts = opts
        self.dealer = dealer
        self.multiplier = multiplier
        self.game_number = game_number
        padded = [list(hands[s]) if s < len(hands) else [] for s in range(4)]
        self.dealt: tuple[frozenset[str], ...] = tuple(frozenset(h) for h in padded)
        self.deal_violations: list[Violation] = list(deal_violations) + self._check_deal(padded)
        if not 0 <= dealer < 4:
            self.deal_violations.append(
                self._v(
                    "action.bad_seat",
                    f"the dealer seat {dealer} is not at the table (seats 0-3); taken as seat "
                    f"{dealer % 4}",
                    seat=dealer,
                )
            )
            self.dealer = dealer = dealer % 4
        extra = [c for h in hands[4:] for c in h]
        if extra:
            self.deal_violations.append(
                self._v(
                    "deal.hand_size",
                    f"cards were dealt to more than four seats ({' '.join(extra)}); they are "
                    "ignored",
                )
            )
        self.throw_in_seats = {
            s: st
            for s in range(4)
            if (st := throw_in_status(padded[s], str(opts["throw_in"]))) is not None
        }
        self._st = _State(Auction(ruleset, opts, dealer, self.dealt), [tuple(h) for h in padded])
        self._stack: list[tuple[_State, Action]] = []
        #: each hand held so far in the pack's order (:meth:`view`: a replay's step timeline
        #: views the hand after every declaration, the same four hands all through the auction)
        self._sorted: dict[tuple[str, ...], list[str]] = {}
        #: every card dealt is one of the pack's, so :meth:`view` (which sorts the hands in
        #: the pack's order) cannot fail: :meth:`timeline_state` may answer without it
        self._view_safe = all(c in _PACK for h in padded for c in h)

    # ------------------------------------------------------------------ contract API

    @property  # type: ignore[override]
    def phase(self) -> Phase:
        """``auction``, ``play`` or ``done``."""
        return self._st.phase

    @phase.setter
    def phase(self, value: Phase) -> None:  # the contract declares a plain attribute
        self._st.phase = value

    @property
    def auction(self) -> Auction:
        """The auction as it stands (contract, declarer, called card, levels, announcements).

        Read it, do not change it: the hand copies it for every action it applies."""
        return self._st.auction

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks so far."""
        return list(self._st.tricks)

    @property
    def actions(self) -> list[Action]:
        return [a for _, a in self._stack]

    def held(self, seat: int) -> tuple[str, ...]:
        """The cards ``seat`` holds now."""
        return tuple(self._st.hands[seat])

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The trick in progress as ``(seat, card)`` in playing order."""
        return list(self._st.trick)

    @property
    def leader(self) -> int:
        """The seat that leads (led) the trick in progress."""
        return self._st.leader

    @property
    def claims(self) -> frozenset[tuple[int, str]]:
        """The card-bonus claims made so far (``(seat, "trull"|"four_kings")``)."""
        return frozenset(self._st.claims)

    @property
    def offender(self) -> int | None:
        """The seat of the first infraction (what ``infraction_policy = penalize`` scores)."""
        return self._st.offender

    def to_move(self) -> int | None:
        st = self._st
        if st.phase == _DONE:
            return None
        if st.phase == _AUCTION:
            a = st.auction
            return a.cur_seat if a.cur_seat is not None else a.expected
        return self._play_to_move(st)

    def is_over(self) -> bool:
        return self._st.phase == _DONE

    def copy(self) -> ZRHand:
        """An independent copy (its pushes and pops leave this hand alone); the ruleset and
        its checked options, which never change, are shared."""
        return deepcopy(self, {id(self.ruleset): self.ruleset, id(self.opts): self.opts})

    def check(self, action: Action) -> list[Violation]:
        """Why ``action`` would be illegal now (nothing is changed)."""
        return self._apply(self._st.copy(), action)

    def push(self, action: Action) -> list[Violation]:
        """Apply ``action`` (leniently) and return its findings."""
        new = self._st.copy()
        out = self._apply(new, action)
        self._stack.append((self._st, action))
        self._st = new
        return out

    def pop(self) -> Action:
        """Undo the last action and return it."""
        if not self._stack:
            raise IndexError("pop from a hand without actions")
        self._st, action = self._stack.pop()
        return action

    def legal_actions(self) -> list[Action]:
        """Everything that may be done now without an error-level finding.

        In the play this is stricter than the card rules of §6.3 by the Pagat's hold
        obligation (§6.6): the holder of an announced Pagat does not get it offered before the
        last trick while he has another legal card (playing it is legal under §6.3 but the
        infraction ``play.pagat_released``). :meth:`legal_cards` gives the §6.3 view."""
        st = self._st
        if st.thrown_in is not None:
            return []
        out: list[Action] = []
        if not st.auction_started and st.phase == _AUCTION and self.throw_in_seats:
            out = [Action("throw_in", s) for s in sorted(self.throw_in_seats)]
            if "must" in self.throw_in_seats.values():
                return out
        if st.phase == _AUCTION:
            seat = self.to_move()
            assert seat is not None
            for cand in self._auction_candidates(st, seat):
                found = self._apply(st.copy(), cand)
                if not any(v.severity == "error" for v in found):
                    out.append(cand)
            return out
        if st.phase == _PLAY:
            seat = self._play_to_move(st)
            legal = self._legal_for(st, seat)
            if self._must_keep_pagat(st, seat) and len(legal) > 1:
                legal = [c for c in legal if c != PAGAT]
            plays = _PLAY_ACTIONS[seat]
            return [plays.get(c) or Action("play", seat, card=c) for c in legal]
        # done: the card-bonus claims still open
        for seat in range(4):
            for claim, cards in _CLAIMS.items():
                if cards.issubset(self.dealt[seat]) and (seat, claim) not in st.claims:
                    out.append(Action("claim", seat, claim=claim))
        return out

    def score(self) -> HandScore:
        """The recomputed score; zero for a thrown-in or incomplete deal (see ``unverified``)."""
        st = self._st
        a = st.auction
        carry: dict[str, Any] = {
            "thrown_in": st.thrown_in is not None,
            "multiplier": self.multiplier,
            "mondfang": False,
            "game_number": self.game_number,
        }
        if st.thrown_in is not None:
            return HandScore(
                totals=(0, 0, 0, 0),
                items=(),
                contract=None,
                declarer=None,
                partner=None,
                won=None,
                card_points={},
                carry_after=carry,
            )
        unverified = tuple(v.message for v in self.final_violations())
        if st.phase != _DONE or a.contract is None or a.holder is None:
            if a.contract is None:
                unverified += ("no contract was declared, so the deal cannot be scored",)
            return HandScore(
                totals=(0, 0, 0, 0),
                items=(),
                contract=a.contract,
                declarer=a.holder,
                partner=a.partner,
                won=None,
                unverified=unverified,
                carry_after=carry,
            )
        offender = st.offender if self.opts["infraction_policy"] == "penalize" else None
        res = score_deal(
            opts=self.opts,
            contract=a.contract,
            declarer=a.holder,
            declarer_side=a.declarer_side(),
            dealt=self.dealt,
            tricks=st.tricks,
            game_level=a.game_level,
            announced=[{"bonus": k[0], **v} for k, v in a.announced.items()],
            claims=frozenset(st.claims),
            multiplier=self.multiplier,
            offender=offender,
        )
        carry["mondfang"] = res.mondfang_counts
        cp = dict(res.card_points)
        cp.update(res.facts)
        return HandScore(
            totals=res.totals,
            items=tuple(res.per_seat),
            contract=a.contract,
            declarer=a.holder,
            partner=a.partner,
            won=res.won,
            card_points=cp,
            unverified=unverified,
            carry_after=carry,
        )

    def hand_findings(self) -> list[Violation]:
        """Hand-level findings (``action_index`` None): the deal checks of §3.7, the dealer
        rotation of §3.2, and a log that ends before the hand is complete."""
        return list(self.deal_violations) + self.final_violations()

    def final_violations(self) -> list[Violation]:
        """Findings about the hand as a whole once the log ends (a log that stops early)."""
        st = self._st
        out: list[Violation] = []
        if st.thrown_in is not None:
            return out
        if st.phase == _AUCTION:
            out.append(
                self._v(
                    "auction.incomplete",
                    "the log ends during the auction: it needs four consecutive weiter "
                    f"(it has {st.auction.empty_run} at the end)",
                )
            )
        elif st.phase == _PLAY:
            n = len(st.tricks)
            out.append(
                self._v(
                    "play.missing_tricks",
                    f"the log ends after {n} complete trick{'s' if n != 1 else ''} "
                    f"and {len(st.trick)} card(s) of the next; a deal has ten tricks",
                )
            )
        return out

    def view(self) -> dict[str, Any]:
        """A JSON-able snapshot (keys of ``HandState.view`` plus Zwanzigerrufen extras)."""
        st = self._st
        a = st.auction
        announcements = [
            {"bonus": k[0], "side": v["side"], "seat": v["seat"], "level": v["level"]}
            for k, v in a.announced.items()
        ]
        # (one pass over the history; each list has its own copies of the entries)
        kontras: list[dict[str, Any]] = []
        bids: list[dict[str, Any]] = []
        history: list[dict[str, Any]] = []
        for h in a.history:
            kind = h["type"]
            if kind == "kontra":
                kontras.append(dict(h))
            elif kind == "call" or kind == "bid":
                bids.append(dict(h))
            history.append(dict(h))
        return {
            "phase": st.phase,
            "to_move": self.to_move(),
            "hands": [self._in_order(h) for h in st.hands],
            "trick": [[s, c] for s, c in st.trick],
            "tricks": [t.to_view() for t in st.tricks],
            "talon": [],
            "discards": [],
            "contract": a.contract,
            "declarer": a.holder,
            "partner": a.partner,
            "called": a.called,
            "bids": bids,
            "announcements": announcements,
            "kontras": kontras,
            "game_level": a.game_level,
            "auction_history": history,
            "auction_over": a.over,
            "claims": [[s, c] for s, c in st.claims],
            "thrown_in": st.thrown_in,
            "forehand": a.p1,
            "dealer": self.dealer,
            "multiplier": self.multiplier,
            "card_points": self._running_points(st),
        }

    def timeline_state(self, keys: Sequence[str]) -> dict[str, Any]:
        """:meth:`view`'s values under ``keys``; the auction's (contract, declarer, partner,
        called, game level) and the trick on the table read without building the whole view
        when the view cannot fail (a card not of the pack makes it raise: then it is built,
        and raises)."""
        if self._view_safe and _CHEAP_KEYS.issuperset(keys):
            st = self._st
            a = st.auction
            cheap: dict[str, Any] = {
                "contract": a.contract,
                "declarer": a.holder,
                "partner": a.partner,
                "called": a.called,
                "game_level": a.game_level,
            }
            if "trick" in keys:
                cheap["trick"] = [[s, c] for s, c in st.trick]
            return {k: cheap[k] for k in keys}
        return super().timeline_state(keys)

    # ------------------------------------------------------------------ internals

    def _in_order(self, hand: tuple[str, ...]) -> list[str]:
        """``hand`` in the pack's order (:func:`~tarock_logs.cards.sort_cards`), a new list."""
        done = self._sorted.get(hand)
        if done is None:
            done = self._sorted[hand] = sort_cards(hand, GAME)
        return list(done)

    def _v(self, code: str, message: str, **kw: Any) -> Violation:
        return violation(self.ruleset, code, message, **kw)

    def _who(self, seat: int) -> str:
        return self._st.auction.who(seat) if 0 <= seat < 4 else f"seat {seat}"

    def _check_deal(self, hands: list[list[str]]) -> list[Violation]:
        if all(len(h) == 10 for h in hands) and set().union(*hands) == _PACK:
            return []  # (four hands of ten, the forty cards of the pack: nothing to report)
        out: list[Violation] = []
        seen: dict[str, int] = {}
        for seat, hand in enumerate(hands):
            if len(hand) != 10:
                out.append(
                    self._v(
                        "deal.hand_size",
                        f"seat {seat} was dealt {len(hand)} cards; every hand has exactly 10",
                        seat=seat,
                        size=len(hand),
                    )
                )
            for card in hand:
                if card not in _PACK:
                    out.append(
                        self._v(
                            "deal.bad_card",
                            f"seat {seat}'s hand holds {card!r}, which is not one of the 40 cards "
                            "of the Zwanzigerrufen pack",
                            seat=seat,
                            card=card,
                        )
                    )
                seen[card] = seen.get(card, 0) + 1
        dup = sorted(c for c, n in seen.items() if n > 1)
        missing = sorted(_PACK - set(seen))
        if dup or missing:
            parts = []
            if dup:
                parts.append("dealt twice: " + " ".join(dup))
            if missing:
                parts.append("missing: " + " ".join(missing))
            out.append(
                self._v(
                    "deal.not_the_pack",
                    "the four hands are not the 40 distinct cards of the pack ("
                    + "; ".join(parts)
                    + ")",
                    duplicates=dup,
                    missing=missing,
                )
            )
        return out

    def _play_to_move(self, st: _State) -> int:
        trick, leader = st.trick, st.leader
        if not trick:
            return leader
        n = len(trick)
        if trick[-1][0] == (leader + n - 1) % 4 and n < 4:
            # the usual trick: played in turn from the leader (the seats leader..leader+n-1)
            if all(trick[k][0] == (leader + k) % 4 for k in range(n - 1)):
                return (leader + n) % 4
        played = {s for s, _ in trick}
        for k in range(4):
            seat = (leader + k) % 4
            if seat not in played:
                return seat
        return leader

    def _contract(self, st: _State) -> str | None:
        return st.auction.contract

    def _legal_for(self, st: _State, seat: int) -> list[str]:
        return legal_cards(
            st.hands[seat],
            (st.trick[0][1],) if st.trick else (),  # (the led card is what the rules read)
            st.auction.contract,  # (:meth:`_contract`)
            self.opts["farbensolo_tarock_compulsion"],
        )

    def legal_cards(self) -> list[str]:
        """The cards the seat to move may play under the card rules alone (§6.3: follow suit,
        tarock compulsion, the Farbensolo lead), without the Pagat's hold obligation of §6.6
        that :meth:`legal_actions` applies too; empty outside the play."""
        st = self._st
        if st.phase != _PLAY or st.thrown_in is not None:
            return []
        return list(self._legal_for(st, self._play_to_move(st)))

    def _must_keep_pagat(self, st: _State, seat: int) -> bool:
        """§6.6: the Pagat's holder on the side that announced Pagat Ultimo keeps it."""
        if self.opts["pagat_hold_obligation"] != "report" or len(st.tricks) >= 9:
            return False
        if PAGAT not in st.hands[seat]:
            return False
        a = st.auction
        return any(k[0] == "pagat" and seat in a.side_seats(k[1]) for k in a.announced)

    def _running_points(self, st: _State) -> dict[str, Any]:
        per = [0, 0, 0, 0]
        for t in st.tricks:
            per[t.winner] += t.points
        side = st.auction.declarer_side() if st.auction.contract else frozenset()
        return {"per_seat": per, "declarer_side": sum(per[s] for s in side)}

    def _auction_candidates(self, st: _State, seat: int) -> list[Action]:
        a = st.auction
        cands: list[Action] = []
        if seat == a.p1 and not a.p1_opened:
            cands += _CALLS[seat]
        cands += _BIDS_AND_ANNOUNCEMENTS[seat]
        targets = ["game"] + sorted({k[0] for k in a.announced})
        for target in targets:
            levels = {a.target_level(target) + 1}
            for k, v in a.announced.items():
                if k[0] == target:
                    levels.add(v["level"] + 1)
            for level in sorted(levels):
                cands.append(Action("kontra", seat, target=target, level=level))
        cands.append(_PASSES[seat])
        return cands

    # ------------------------------------------------------------------ applying

    def _apply(self, st: _State, action: Action) -> list[Violation]:
        st.started = True
        t = action.type
        if t == "play" and st.auction_started and st.thrown_in is None and 0 <= action.seat < 4:
            # (a card after the auction has begun, of a seat at the table, in a deal not
            # thrown in: the checks below come to this; the bulk of a hand's actions)
            return self._play(st, action)
        out: list[Violation] = []
        if not 0 <= action.seat < 4:
            out.append(
                self._v(
                    "action.bad_seat",
                    f"seat {action.seat} is not at the table (seats 0-3); the {t} is ignored",
                    seat=action.seat,
                )
            )
            return out
        if st.thrown_in is not None:
            out.append(
                self._v(
                    "throw_in.action_after",
                    f"{self._who(action.seat)}: {t} after the deal was thrown in (the deal is "
                    "void)",
                    seat=action.seat,
                )
            )
            return out
        if t == "throw_in":
            return out + self._throw_in(st, action)
        if (
            (t in AUCTION_TYPES or t == "play")
            and not st.auction_started
            and (st.phase == _AUCTION)
        ):
            st.auction_started = True
            musts = sorted(s for s, k in self.throw_in_seats.items() if k == "must")
            if musts:
                trull = ", or a single Trull card" if self.opts["throw_in"] == "strict" else ""
                out.append(
                    self._v(
                        "throw_in.missing",
                        f"seat(s) {', '.join(str(s) for s in musts)} had to throw the deal in "
                        f"(no tarock{trull}) "
                        "but the deal was played on",
                        seat=musts[0],
                    )
                )
        if t in AUCTION_TYPES:
            out += st.auction.apply(action)  # after the auction: auction.over, no change
            if st.phase == _AUCTION and st.auction.over:
                st.phase = _PLAY
                st.leader = st.auction.p1
            return out
        if t == "play":
            return out + self._play(st, action)
        if t == "claim":
            return out + self._claim(st, action)
        out.append(
            self._v(
                "action.unknown",
                f"{self._who(action.seat)}: {t!r} does not exist in Zwanzigerrufen (no talon, no "
                "melds); it is ignored",
                seat=action.seat,
            )
        )
        return out

    def _throw_in(self, st: _State, action: Action) -> list[Violation]:
        out: list[Violation] = []
        seat = action.seat
        if st.auction_started or st.phase != _AUCTION:
            out.append(
                self._v(
                    "throw_in.late",
                    f"{self._who(seat)} threw the deal in after the auction had begun; a throw-in "
                    "must come before forehand's first declaration",
                    seat=seat,
                )
            )
        if seat not in self.throw_in_seats:
            mode = self.opts["throw_in"]
            why = (
                "throw-ins are off in this ruleset"
                if mode == "off"
                else "only a hand without tarocks, or whose single tarock is a Trull card, may "
                "throw in"
            )
            out.append(
                self._v(
                    "throw_in.unjustified",
                    f"{self._who(seat)} threw the deal in without a qualifying hand: {why}",
                    seat=seat,
                )
            )
        recorded = dict(action.params).get("compulsory")
        status = self.throw_in_seats.get(seat)
        if recorded is not None and status is not None and recorded != (status == "must"):
            out.append(
                self._v(
                    "throw_in.compulsion_mismatch",
                    f"the log records {self._who(seat)}'s throw-in as "
                    f"{'compulsory' if recorded else 'voluntary'}, but his hand "
                    f"{'must' if status == 'must' else 'may'} throw in under throw_in = "
                    f"{self.opts['throw_in']} (§3.4)",
                    seat=seat,
                    recorded=bool(recorded),
                    required=status == "must",
                )
            )
        st.thrown_in = seat
        st.phase = _DONE
        return out

    def _play(self, st: _State, action: Action) -> list[Violation]:
        out: list[Violation] = []
        seat, card = action.seat, action.card or ""
        if st.phase == _AUCTION:
            out.append(
                self._v(
                    "auction.incomplete",
                    "the play began before the auction had ended with four consecutive weiter "
                    f"(only {st.auction.empty_run} at this point)",
                    seat=seat,
                    card=card,
                )
            )
            st.auction.end_turn(out)
            st.auction.over = True
            st.phase = _PLAY
            st.leader = st.auction.p1
        if st.phase == _DONE:
            out.append(
                self._v(
                    "play.after_end",
                    f"{self._who(seat)} played {card} after the tenth trick; it is ignored",
                    seat=seat,
                    card=card,
                )
            )
            return out
        if not 0 <= seat < 4:
            out.append(
                self._v(
                    "play.out_of_turn", f"seat {seat} is not at the table", seat=seat, card=card
                )
            )
            return out
        to_move = self._play_to_move(st)
        if seat != to_move:
            if any(s == seat for s, _ in st.trick):
                out.append(
                    self._v(
                        "play.out_of_turn",
                        f"{self._who(seat)} played {card} but has already played to this trick; "
                        f"it is {self._who(to_move)}'s turn; the card is ignored",
                        seat=seat,
                        card=card,
                        expected=to_move,
                    )
                )
                return out
            out.append(
                self._v(
                    "play.out_of_turn",
                    f"{self._who(seat)} played {card} out of turn: it was {self._who(to_move)}'s "
                    "turn",
                    seat=seat,
                    card=card,
                    expected=to_move,
                )
            )
            if st.offender is None:
                st.offender = seat
        hand = st.hands[seat]
        if card not in hand:
            out.append(
                self._v(
                    "play.not_in_hand",
                    f"{self._who(seat)} played {card}, which is not in his hand; it is ignored",
                    seat=seat,
                    card=card,
                )
            )
            return out
        legal = self._legal_for(st, seat)
        if card not in legal:
            out.append(self._illegal_card(st, seat, card, legal))
            if st.offender is None:
                st.offender = seat
        elif card == PAGAT and self._must_keep_pagat(st, seat) and legal != [PAGAT]:
            out.append(
                self._v(
                    "play.pagat_released",
                    f"{self._who(seat)} played the Pagat in trick {len(st.tricks) + 1} although "
                    "Pagat Ultimo was announced for his side and he had other legal cards "
                    f"({' '.join(c for c in legal if c != PAGAT)}); the announced bonus is lost",
                    seat=seat,
                    card=card,
                    legal=legal,
                )
            )
            if st.offender is None:
                st.offender = seat
        i = hand.index(card)
        st.hands[seat] = hand[:i] + hand[i + 1 :]
        st.trick += ((seat, card),)
        if len(st.trick) == 4:
            trick = close_trick(
                len(st.tricks) + 1, st.trick, self._contract(st), str(self.opts["maerchenstich"])
            )
            st.tricks += (trick,)
            st.trick = ()
            st.leader = trick.winner
            if len(st.tricks) == 10:
                st.phase = _DONE
        return out

    def _illegal_card(self, st: _State, seat: int, card: str, legal: list[str]) -> Violation:
        who = self._who(seat)
        if not st.trick:
            return self._v(
                "play.farbensolo_tarock_lead",
                f"{who} led {card} in a Farbensolo while holding suit cards "
                f"({' '.join(legal)}): a suit card must be led while one is held",
                seat=seat,
                card=card,
                legal=legal,
            )
        led = st.trick[0][1]
        hand = st.hands[seat]
        taroks = [c for c in hand if c.startswith("T")]
        # the structured facts (``need``: follow, trump or suit; ``led``: the led suit, T for
        # a tarock; ``held``: the held cards that show the breach)
        facts: dict[str, Any]
        if led.startswith("T"):
            why = f"a tarock was led and he holds {' '.join(taroks)}"
            facts = {"need": "follow", "led": "T", "held": taroks}
        else:
            suit = _SUIT_NAMES[led[0]]
            same = [c for c in hand if c[0] == led[0] and not c.startswith("T")]
            if same:
                why = f"{suit} must be followed (holds {' '.join(same)})"
                facts = {"need": "follow", "led": led[0], "held": same}
            elif self._contract(st) == FARBENSOLO and (
                self.opts["farbensolo_tarock_compulsion"] == "suit_first"
            ):
                why = f"void in {suit}, he must play a card of another suit ({' '.join(legal)})"
                facts = {"need": "suit", "led": led[0], "held": list(legal)}
            else:
                why = f"void in {suit}, he must play a tarock (holds {' '.join(taroks)})"
                facts = {"need": "trump", "led": led[0], "held": taroks}
        return self._v(
            "play.illegal_card",
            f"{who} played {card}: {why}",
            seat=seat,
            card=card,
            legal=legal,
            **facts,
        )

    def _claim(self, st: _State, action: Action) -> list[Violation]:
        out: list[Violation] = []
        seat = action.seat
        claim = (action.claim or "").lower()
        if claim not in _CLAIMS:
            out.append(
                self._v(
                    "claim.unknown",
                    f"{self._who(seat)} claimed {action.claim!r}: only 'trull' and 'four_kings' "
                    "can be claimed in Zwanzigerrufen; it is ignored",
                    seat=seat,
                )
            )
            return out
        label = "the Trull" if claim == "trull" else "Four Kings"
        if not 0 <= seat < 4 or not _CLAIMS[claim].issubset(self.dealt[seat]):
            out.append(
                self._v(
                    "claim.false",
                    f"{self._who(seat)} claimed {label} but was not dealt "
                    f"{' '.join(sorted(_CLAIMS[claim]))}",
                    seat=seat,
                )
            )
        if st.phase != _DONE:
            out.append(
                self._v(
                    "claim.early",
                    f"{self._who(seat)} claimed {label} before the end of the play; card bonuses "
                    "are claimed after the play (the claim is kept)",
                    seat=seat,
                )
            )
        if (seat, claim) not in st.claims:
            st.claims += ((seat, claim),)
        return out
