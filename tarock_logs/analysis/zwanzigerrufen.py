"""The card-play analysis of Zwanzigerrufen (/work/shared/rules/zwanzigerrufen.md).

* **Cards and tricks**: the legal cards are the engine's ``legal_cards`` (§6.2–§6.3: follow
  suit, tarock compulsion, the Farbensolo lead and its ``farbensolo_tarock_compulsion``
  switch) with the hold obligation of an announced Pagat (§6.6, ``pagat_hold_obligation``)
  as ``ZRHand.legal_actions`` applies it; the trick is closed by the engine's ``close_trick``
  (winner, card points, Märchenstich, Mondfang).
* **Objective**: the declarer side's total as the engine settles it (``score_deal``, §7):
  the sum of its seats' lines (two against two: ±2v per item; a soloist ±3v), which is what
  the defenders lose. The play decides it through four facts, the fold of the tricks: the
  declarer side's card points (the game, won at 45 of 88, and Absolut, ≤ 32 for the losers),
  its number of tricks (Valat: all ten or none), where the Pagat fell (Pagat Ultimo: won
  in the tenth trick by its holder, or beaten there; played earlier) and the Mondfang (whose
  Mond, which Sküs). A finished play is scored by ``score_deal`` on tricks that carry exactly
  these facts, so every option of the ruleset (values, Kontra levels, the Solo and Farbensolo
  factors, ``valat_*``, ``silent_pagat_loss``, ``mondfang_payer``, the double round) counts
  as the engine counts it. Trull and Four Kings come from the deal: constants, except where a
  Valat overrides them (``valat_overrides_bonuses``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tarock_logs.analysis.games import NO_RULES, GameAnalysis, HandPlay, Pack
from tarock_logs.analysis.objective import Objective
from tarock_logs.analysis.position import Position, Setting, Unsupported
from tarock_logs.cards import PACKS
from tarock_logs.rules.base import HandScore, HandState
from tarock_logs.rules.sight import Sight
from tarock_logs.rules.zwanzigerrufen.hand import ZRHand
from tarock_logs.rules.zwanzigerrufen.scoring import score_deal
from tarock_logs.rules.zwanzigerrufen.tricks import (
    MOND,
    PAGAT,
    SKUS,
    TOTAL_POINTS,
    Trick,
    close_trick,
    legal_cards,
    winner_index,
)

__all__ = ["ANALYSIS", "ZRAnalysis", "ZRPlay"]

PACK = Pack(tuple(PACKS["zwanzigerrufen"]))
#: the plain taroks (one point each, no bonus of their own): interchangeable neighbours
PLAIN_TAROKS = PACK.mask([c for c in PACK.cards if c.startswith("T")
                          and c not in (PAGAT, MOND, SKUS)])  # fmt: skip
#: the facts of the tricks played: card points and tricks of the declarer side, the Pagat
#: (0 not played, 1 played before the tenth trick, 2 + seat + 4 × winner in the tenth), the
#: Mondfang (0 none, 1 + owner × 4 + capturer)
ACC_FIELDS = ("cp_d", "tricks_d", "pagat", "mondfang")


class ZRPlay(HandPlay):
    """One Zwanzigerrufen hand's card play (see the module docstring)."""

    equivalence = (PLAIN_TAROKS,)

    def __init__(self, h: ZRHand) -> None:
        super().__init__(PACK)
        a = h.auction
        assert a.contract is not None and a.holder is not None
        self.contract: str = a.contract
        self.opts = h.opts
        self.d_side = a.declarer_side()
        self.keeps_pagat = tuple(self._keeps_pagat(h, s) for s in range(4))
        self._score_args: dict[str, Any] = {
            "opts": h.opts, "contract": a.contract, "declarer": a.holder,
            "declarer_side": self.d_side, "dealt": h.dealt, "game_level": a.game_level,
            "announced": [{"bonus": k[0], **v} for k, v in a.announced.items()],
            "claims": h.claims, "multiplier": h.multiplier,
            "offender": h.offender if h.opts["infraction_policy"] == "penalize" else None,
        }  # fmt: skip
        self._leaves: dict[tuple[int, ...], int] = {}
        self._bounds: dict[tuple[object, ...], tuple[int, int]] = {}
        #: who was dealt the Pagat, the Mond and the Sküs (cards never change hands)
        holder = {c: s for s, cards in enumerate(h.dealt) for c in cards}
        self.holders = (holder.get(PAGAT, -1), holder.get(MOND, -1), holder.get(SKUS, -1))
        self.cid = PACK.cid
        # memos of the engine's answers (a hand's positions repeat them many times)
        self._legal: dict[tuple[int, tuple[int, ...], int, bool], int] = {}
        self._winner: dict[tuple[int, ...], int] = {}
        self._fold: dict[tuple[tuple[int, ...], tuple[int, ...], int, bool], tuple[int, ...]] = {}
        self._points: dict[int, int] = {}

    @staticmethod
    def _keeps_pagat(h: ZRHand, seat: int) -> bool:
        """§6.6 as ``ZRHand.legal_actions`` applies it: a member of a side that announced
        Pagat Ultimo does not get his Pagat offered before the tenth trick."""
        if h.opts["pagat_hold_obligation"] != "report":
            return False
        a = h.auction
        return any(k[0] == "pagat" and seat in a.side_seats(k[1]) for k in a.announced)

    def legal(self, hand: int, trick: Sequence[int], done: int, player: int) -> int:
        key = (hand, tuple(trick), player, done < 9)
        got = self._legal.get(key)
        if got is None:
            got = self._legal[key] = self._legal_cards(hand, trick, done, player)
        return got

    def _legal_cards(self, hand: int, trick: Sequence[int], done: int, player: int) -> int:
        cards = self.pack.cards
        out = legal_cards(self.pack.tokens(hand), [cards[c] for c in trick], self.contract,
                          self.opts["farbensolo_tarock_compulsion"])  # fmt: skip
        if self.keeps_pagat[player] and done < 9 and len(out) > 1 and PAGAT in out:
            out.remove(PAGAT)
        return self.pack.mask(out)

    def winner(self, trick: Sequence[int], leader: int) -> int:
        key = tuple(trick)
        got = self._winner.get(key)
        if got is None:
            cards = self.pack.cards
            got = self._winner[key] = winner_index([cards[c] for c in trick], self.contract,
                                                   str(self.opts["maerchenstich"]))  # fmt: skip
        return got

    def close(self, trick: Sequence[int], leader: int, done: int) -> Trick:
        """The engine's closed trick."""
        cards = self.pack.cards
        return close_trick(done + 1, [((leader + k) % 4, cards[c]) for k, c in enumerate(trick)],
                           self.contract, str(self.opts["maerchenstich"]))  # fmt: skip

    def fold(self, acc: tuple[int, ...], trick: Sequence[int], leader: int, wi: int,
             done: int) -> tuple[int, ...]:  # fmt: skip
        key = (acc, tuple(trick), leader, done == 9)
        got = self._fold.get(key)
        if got is None:
            got = self._fold[key] = self.fold_trick(acc, self.close(trick, leader, done))
        return got

    def fold_trick(self, acc: tuple[int, ...], t: Trick) -> tuple[int, ...]:
        cp_d, tricks_d, pagat, mond = acc
        if t.winner in self.d_side:
            cp_d += t.points
            tricks_d += 1
        for s, c in t.cards:
            if c == PAGAT:
                pagat = 2 + s + 4 * t.winner if t.number == 10 else 1
        if t.mondfang is not None and not mond:
            mond = 1 + 4 * t.mondfang[0] + t.mondfang[1]
        return (cp_d, tricks_d, pagat, mond)

    def leaf(self, acc: tuple[int, ...]) -> int:
        v = self._leaves.get(acc)
        if v is None:
            v = self._leaves[acc] = self.score(acc)
        return v

    def bounds(self, acc: tuple[int, ...], remaining: int) -> tuple[int, int]:
        """The least and greatest :meth:`leaf` over the facts the rest of the play can still
        bring: the score never falls as the declarer side's card points rise (the game at 45,
        Absolut at 32 either way), so the card points are taken at their two ends; the tricks
        at each of "none", "some" and "all" still reachable (Valat); the Pagat's open outcomes
        (played early, won or beaten in the tenth trick by its holder) and the Mondfang's
        (open while the Mond and the Sküs are both in play). Sound, not tight."""
        cp_d, tricks_d, pagat, mond = acc
        pts = self._points.get(remaining)
        if pts is None:
            pts = self._points[remaining] = sum(
                self.points[c] for c in self.pack.tokens_ids(remaining)
            )
        left = remaining.bit_count() // 4
        pl = bool(remaining >> self.cid[PAGAT] & 1)
        ml = not mond and bool(remaining >> self.cid[MOND] & 1 and remaining >> self.cid[SKUS] & 1)
        key = (acc, pts, left, pl, ml)
        got = self._bounds.get(key)
        if got is not None:
            return got
        tricks = {t for t in (tricks_d, tricks_d + left) if 0 <= t <= 10}
        if any(0 < t < 10 for t in range(tricks_d, tricks_d + left + 1)):
            tricks.add(next(t for t in range(tricks_d, tricks_d + left + 1) if 0 < t < 10))
        pagats = {pagat}
        if pl:
            s = self.holders[0]
            others_d = [w for w in range(4) if w != s and w in self.d_side]
            others_f = [w for w in range(4) if w != s and w not in self.d_side]
            pagats = {2 + s + 4 * w for w in [s, *others_d[:1], *others_f[:1]]}
            if left > 1:
                pagats.add(1)
        monds = {mond}
        if ml:
            monds.add(1 + 4 * self.holders[1] + self.holders[2])
        vals = [self.leaf((cp, t, p, m)) for cp in (cp_d, cp_d + pts) for t in tricks
                for p in pagats for m in monds]  # fmt: skip
        got = self._bounds[key] = (min(vals), max(vals))
        return got

    def tricks_of(self, acc: tuple[int, ...]) -> list[Trick]:
        """Ten tricks that carry the facts ``acc`` (what ``score_deal`` reads of the tricks:
        their winners and card points, where the Pagat fell and the Mondfang)."""
        cp_d, tricks_d, pagat, mond = acc
        d = min(self.d_side)
        f = min(s for s in range(4) if s not in self.d_side)
        winners: list[int] = []
        pag: tuple[int, int] | None = None
        if pagat >= 2:
            seat, w = (pagat - 2) % 4, (pagat - 2) // 4
            pag = (seat, w)
        n_d = tricks_d - (1 if pag is not None and pag[1] in self.d_side else 0)
        n_f = 10 - tricks_d - (1 if pag is not None and pag[1] not in self.d_side else 0)
        winners = [d] * n_d + [f] * n_f
        out: list[Trick] = []
        points = {True: cp_d, False: TOTAL_POINTS - cp_d}
        mf = ((mond - 1) // 4, (mond - 1) % 4) if mond else None
        for i, w in enumerate(winners):
            side = w in self.d_side
            cards: tuple[tuple[int, str], ...] = ()
            if pagat == 1 and i == 0:
                cards = ((w, PAGAT),)
            out.append(Trick(i + 1, w, cards, w, points.pop(side, 0), False,
                             mf if i == 0 else None))  # fmt: skip
        if pag is not None:
            seat, w = pag
            out.append(Trick(10, w, ((seat, PAGAT),), w, points.pop(w in self.d_side, 0),
                             False, mf if not out else None))  # fmt: skip
        return out

    def score(self, acc: tuple[int, ...]) -> int:
        """The engine's settlement of a finished play with the facts ``acc``: the declarer
        side's total."""
        res = score_deal(tricks=self.tricks_of(acc), **self._score_args)
        return sum(res.totals[s] for s in self.d_side)


class ZRAnalysis(GameAnalysis):
    """Zwanzigerrufen's analysis plug-in (see the module docstring)."""

    game = "zwanzigerrufen"
    bonus_items = ("valat", "absolut", "pagat", "trull", "four_kings", "mondfang")

    def cards(self, h: HandState) -> tuple[str, ...]:
        return PACK.cards

    def owns(self, h: HandState) -> bool:
        return isinstance(h, ZRHand)

    def sight(self, h: HandState, seat: int, illegal: Sequence[str] = ()) -> Sight:
        """What ``seat`` sees (``rules/zwanzigerrufen/view.py``); the engine's replay on
        each layout's deal says which actions were clean, so ``illegal`` is not needed."""
        from tarock_logs.rules.zwanzigerrufen.view import sight

        return sight(_zr(h), seat)

    def in_play(self, h: HandState) -> bool:
        return isinstance(h, ZRHand) and h.phase == "play" and h.auction.contract is not None

    def tricks_total(self, h: HandState) -> int:
        return 10

    def tricks_done(self, h: HandState) -> int:
        return len(_zr(h).tricks)

    def holds(self, h: HandState, seat: int, card: str) -> bool:
        return 0 <= seat < 4 and card in _zr(h).held(seat)

    def maximiser(self, h: HandState, seat: int) -> bool:
        return seat in _zr(h).auction.declarer_side()

    def contract(self, h: HandState) -> str | None:
        return _zr(h).auction.contract

    def declarer(self, h: HandState) -> int | None:
        return _zr(h).auction.holder

    def score_value(self, h: HandState, score: HandScore, perspective_seat: int | None) -> int:
        side = _zr(h).auction.declarer_side()
        return sum(score.totals[s] for s in side)

    def read_position(self, h: HandState, perspective: int | None = None
                      ) -> tuple[Position, Setting]:  # fmt: skip
        z = _zr(h)
        if not self.in_play(z):
            raise Unsupported(f"the hand is in phase {z.phase}, not in card play")
        a = z.auction
        if a.holder is None:
            raise Unsupported("the hand has no declarer")
        play = ZRPlay(z)
        trick = z.trick
        leader = trick[0][0] if trick else z.leader
        hands = tuple(PACK.mask(z.held(s)) for s in range(4))
        left = 10 - len(z.tricks)
        for s in range(4):
            want = left - (1 if any(t == s for t, _ in trick) else 0)
            if hands[s].bit_count() != want:
                raise Unsupported(f"seat {s} holds {hands[s].bit_count()} cards where {want} "
                                  "are expected: the log's cards do not add up")  # fmt: skip
        for k, (s, _) in enumerate(trick):
            if s != (leader + k) % 4:
                raise Unsupported("the trick in progress was not played in turn")
        acc: tuple[int, ...] = (0, 0, 0, 0)
        for t in z.tricks:
            acc = play.fold_trick(acc, t)
        maxside = tuple(s in play.d_side for s in range(4))
        obj = Objective(kind="game", maxside=maxside, tricks_total=10)
        pos = Position(hands, tuple(PACK.cid[c] for _, c in trick), leader, len(z.tricks), acc)
        return pos, Setting(tuple(range(4)), NO_RULES, obj, play)


def _zr(h: HandState) -> ZRHand:
    if not isinstance(h, ZRHand):
        raise Unsupported(f"not a Zwanzigerrufen hand: {type(h).__name__}")
    return h


ANALYSIS = ZRAnalysis()
