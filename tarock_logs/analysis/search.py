"""The pure-Python solver: alpha-beta with a transposition table over card masks.

It is the readable reference of the native solver (``tarock_logs/_native/solver.c``, the same
algorithm) and its fallback where no compiler built it; fast enough for endgames.

* **Minimax, two sides.** The maximising side is the declarer's (for klop: the perspective
  player); everybody else minimises. All cards are visible. The legal cards and the trick
  winner are the engine's (``PlayRules.legal``, ``winner_index``, through
  :mod:`~tarock_logs.analysis.cardset`): this solver holds no copy of the card rules.
* **Transposition table** at trick boundaries, keyed by the cards still in play, the leader
  and the accumulated facts (:data:`~tarock_logs.analysis.objective.ACC_FIELDS`); it stores
  a lower and an upper bound of the value and the best card. For a fixed deal the cards in
  play determine every hand, so one table serves a whole hand.
* **Card equivalence.** Two cards of one player that are neighbours in rank among the cards
  still in play, of the same point value and without a role of their own (the plain taroks
  T2 … T20 and the pips of a suit) give the same value: only one of each run is searched.
* **Bounds.** At a trick boundary, :meth:`~.objective.Objective.bounds` brackets the final
  value; a window outside the bracket is cut at once.
* **Move ordering**: the table's best card first, then cheap heuristics (win cheaply, throw
  points on a partner's trick, throw low on an opponent's).

:meth:`PySolver.values` values every legal card (exact values, each by MTD(f) null-window
searches); :meth:`PySolver.line` follows one principal line.
"""

from __future__ import annotations

from collections.abc import Iterator

from tarock_logs.analysis.cardset import (
    KINGS,
    MOND,
    PAGAT,
    PLAIN_TAROKS,
    STR,
    SUIT_MASK,
    THIRDS,
    TRULA,
    bits,
    legal,
    thirds,
    winner,
)
from tarock_logs.analysis.objective import NONE, M, O, Outcome
from tarock_logs.analysis.position import Position, Setting

__all__ = ["EQUIVALENCE_RANGES", "INF", "PySolver", "SearchBudgetExceeded", "representatives"]

INF = 1 << 30
#: the ranks inside which neighbouring cards of one player are interchangeable
EQUIVALENCE_RANGES = (PLAIN_TAROKS, *(SUIT_MASK[s] & ~(0xF << (22 + 8 * (s - 1))) for s in
                                      range(1, 5)))  # fmt: skip
_TT_LIMIT = 1 << 21
#: entries the solver's memos of legal cards, trick winners and move lists keep before they
#: start again (a move list is kept per node, not per trick: a whole hand's search would
#: otherwise hold millions; the suite's seven-trick endgames need up to 55,000 a position)
_MEMO_LIMIT = 1 << 17


class SearchBudgetExceeded(TimeoutError):
    """A public call played more cards than the solver's ``budget`` allows (the native solver
    raises ``TimeoutError`` too); the table stays valid."""


def representatives(own: int, legal_mask: int, outstanding: int,
                    ranges: tuple[int, ...] = EQUIVALENCE_RANGES) -> dict[int, int]:  # fmt: skip
    """Legal cards of one player grouped by equivalence: representative id → mask of the
    cards it stands for (see the module docstring). ``outstanding``: the other players' cards
    and the cards of the trick in progress; ``ranges``: the masks of interchangeable runs
    (Slovenian tarok's by default, a game plug-in's :attr:`~.games.HandPlay.equivalence`)."""
    groups: dict[int, int] = {}
    rest = legal_mask
    for rng in ranges:
        mine = legal_mask & rng
        if mine.bit_count() < 2:
            continue
        rest &= ~mine
        rel = (own | outstanding) & rng
        rep = -1
        for c in bits(rel):
            if mine >> c & 1:
                if rep < 0:
                    rep = c
                    groups[c] = 1 << c
                else:
                    groups[rep] |= 1 << c
            else:
                rep = -1
    for c in bits(rest):
        groups[c] = 1 << c
    return groups


class PySolver:
    """Alpha-beta search of one hand's card play under a :class:`Setting` (see the module
    docstring). One solver serves one deal: its table is keyed by the cards in play."""

    def __init__(self, setting: Setting) -> None:
        self.setting = setting
        self.rules = setting.rules
        self.obj = setting.objective
        self.maxside = self.obj.maxside
        self.n = len(self.maxside)
        self.kind = self.obj.kind
        self.tt: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}
        self.nodes = 0
        #: cards a public call may play before it raises SearchBudgetExceeded (0: no limit)
        self.budget = 0
        self._start = 0
        # the search state (set by _load)
        self.hands: list[int] = []
        self.trick: list[int] = []
        self.leader = 0
        self.done = 0
        self.acc: tuple[int, ...] = ()
        #: a game plug-in's card play (None: Slovenian tarok, its own rules and objective)
        self.play = setting.play
        self.ranges = EQUIVALENCE_RANGES if self.play is None else self.play.equivalence
        self.strength = STR if self.play is None else self.play.strength
        self.worth = THIRDS if self.play is None else self.play.points
        # the Slovenian legal cards and trick winners asked again and again in one search
        # (the engine's answers, kept: a pure function of the hand and the trick)
        self._legal_memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._winner_memo: dict[tuple[int, ...], int] = {}
        self._moves_memo: dict[tuple[object, ...], tuple[dict[int, int], tuple[int, ...]]] = {}

    # ------------------------------------------------------------------ public

    def search(self, pos: Position, alpha: int = -INF, beta: int = INF) -> int:
        """The value of ``pos`` (fail-soft: exact inside the window, a bound outside)."""
        self._start = self.nodes
        self._load(pos)
        return self._ab(alpha, beta)

    def value(self, pos: Position, card: int | None = None) -> int:
        """The exact value of ``pos`` (after ``card`` if given), by MTD(f) from a guess of 0."""
        self._start = self.nodes
        return self._mtdf(pos, card, 0)

    def values(self, pos: Position) -> dict[int, int]:
        """The exact value of every legal card of the player to move."""
        self._start = self.nodes
        self._load(pos)
        p = pos.to_move
        lm = self._legal(p)
        groups = representatives(self.hands[p], lm, self._outstanding(p), self.ranges)
        out: dict[int, int] = {}
        guess = 0
        for rep, members in groups.items():
            v = self._mtdf(pos, rep, guess)
            guess = v
            for c in bits(members):
                out[c] = v
        return out

    def line(self, pos: Position, card: int | None = None) -> list[int]:
        """A principal line from ``pos``: ``card`` (if given) then best play by both sides to
        the end of the hand, as card ids."""
        self._start = self.nodes
        out: list[int] = []
        cur = pos
        if card is not None:
            nxt = self._after(cur, card)
            out.append(card)
            if nxt is None:
                return out
            cur = nxt
        # every position along a principal line has the value of its first one: valued once,
        # then each step plays the first card that keeps it (the last card left, if no other)
        v: int | None = None
        while True:
            self._load(cur)
            p = cur.to_move
            lm = self._legal(p)
            if not lm:
                return out
            if v is None:
                v = self._mtdf(cur, None, 0)
            best = None
            order = list(self._ordered(p, representatives(self.hands[p], lm,
                                                          self._outstanding(p),
                                                          self.ranges)))  # fmt: skip
            for i, rep in enumerate(order):
                if i == len(order) - 1 or self._mtdf_bound(cur, rep, v, self.maxside[p]):
                    best = rep
                    break
            assert best is not None, "no card reaches the position's value"
            out.append(best)
            nxt = self._after(cur, best)
            if nxt is None:
                return out
            cur = nxt

    # ------------------------------------------------------------------ positions

    def _load(self, pos: Position) -> None:
        self.hands = list(pos.hands)
        self.trick = list(pos.trick)
        self.leader = pos.leader
        self.done = pos.tricks_done
        self.acc = pos.acc

    def _snapshot(self) -> Position:
        return Position(tuple(self.hands), tuple(self.trick), self.leader, self.done, self.acc)

    def _after(self, pos: Position, card: int) -> Position | None:
        """The position after ``card``; None when the hand is over."""
        self._load(pos)
        p = pos.to_move
        self.hands[p] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == self.n:
            v, acc, w = self._complete()
            if v is not None:
                return None
            self.trick = []
            self.leader = w
            self.done += 1
            self.acc = acc
        return self._snapshot()

    def _legal(self, p: int) -> int:
        """The legal cards of player ``p`` (to move) in the loaded state."""
        if self.play is not None:
            return self.play.legal(self.hands[p], self.trick, self.done, p)
        key = (self.hands[p], tuple(self.trick))
        lm = self._legal_memo.get(key)
        if lm is None:
            if len(self._legal_memo) > _MEMO_LIMIT:
                self._legal_memo.clear()
            lm = self._legal_memo[key] = legal(self.hands[p], self.trick, self.rules)
        return lm

    def _winner(self, trick: list[int]) -> int:
        """Index of the card that wins ``trick`` so far (a partial trick: the card ahead)."""
        if self.play is not None:
            return self.play.winner(trick, self.leader)
        key = tuple(trick)
        w = self._winner_memo.get(key)
        if w is None:
            if len(self._winner_memo) > _MEMO_LIMIT:
                self._winner_memo.clear()
            w = self._winner_memo[key] = winner(trick, self.rules.colour_valat)
        return w

    def _outstanding(self, p: int) -> int:
        o = 0
        for i, h in enumerate(self.hands):
            if i != p:
                o |= h
        for c in self.trick:
            o |= 1 << c
        return o

    # ------------------------------------------------------------------ MTD(f)

    def _mtdf(self, pos: Position, card: int | None, guess: int) -> int:
        """Exact value of ``pos`` (after ``card`` if given) by null-window tests "value ≥ t?".

        Each test returns a fail-soft bound (an upper bound when it fails low, a lower bound
        when it fails high); the next ``t`` is that bound moved on by a step that doubles while
        the tests keep failing the same way (a far first guess costs a few tests, not one per
        point) and halves when they turn; ``t`` stays within (lo, hi] until lo == hi."""
        lo, hi = -INF, INF
        t, step, direction = guess, 1, 0
        while lo < hi:
            t = min(max(t, lo + 1), hi)
            g = self._probe(pos, card, t - 1, t)
            d = -1 if g < t else 1
            if d < 0:
                hi = g
            else:
                lo = g
            step = 2 * step if d == direction else max(step // 2, 1)
            direction = d
            t = g - step + 1 if d < 0 else g + step
        return lo

    def _mtdf_bound(self, pos: Position, card: int, v: int, maximising: bool) -> bool:
        """Whether ``card`` reaches the value ``v`` of ``pos`` (≥ v for the maximiser, ≤ v for
        the minimiser)."""
        if maximising:
            return self._probe(pos, card, v - 1, v) >= v
        return self._probe(pos, card, v, v + 1) <= v

    def _probe(self, pos: Position, card: int | None, alpha: int, beta: int) -> int:
        self._load(pos)
        if card is None:
            return self._ab(alpha, beta)
        return self._play(card, alpha, beta)

    # ------------------------------------------------------------------ the search

    def _complete(self) -> tuple[int | None, tuple[int, ...], int]:
        """Score the full trick: (the final value if the hand ends, the new facts, winner)."""
        trick = self.trick
        n = self.n
        if self.play is not None:
            gi = self.play.winner(trick, self.leader)
            acc_g = self.play.fold(self.acc, trick, self.leader, gi, self.done)
            fin = self.play.leaf(acc_g) if self.done + 1 == self.obj.tricks_total else None
            return fin, acc_g, (self.leader + gi) % n
        wi = self._winner(trick)
        w = (self.leader + wi) % n
        win_card = trick[wi]
        pile = 0
        for c in trick:
            pile |= 1 << c
        last = self.done + 1 == self.obj.tricks_total
        kind = self.kind
        acc = self.acc
        mx = self.maxside[w]
        if kind == "normal":
            tm, mt, ot, kw, trm, tro, kgm, kgo, mond = acc
            if mx:
                tm += thirds(pile)
                mt = 1
                trm |= int(bool(pile & TRULA))
                kgm |= int(bool(pile & KINGS))
            else:
                ot = 1
                tro |= int(bool(pile & TRULA))
                kgo |= int(bool(pile & KINGS))
            if win_card == self.obj.king:
                kw = 1
            if pile >> MOND & 1 and win_card != MOND:
                mond = M if self.maxside[(self.leader + trick.index(MOND)) % n] else O
            acc = (tm, mt, ot, kw, trm, tro, kgm, kgo, mond)
            if not last:
                return None, acc, w
            side = M if mx else O
            pag = fail = NONE
            if win_card == PAGAT:
                pag = side
            elif pile >> PAGAT & 1:
                fail = M if self.maxside[(self.leader + trick.index(PAGAT)) % n] else O
            k = self.obj.king
            in_last = k >= 0 and bool(pile >> k & 1)
            out = Outcome(pag, fail, in_last and mx, in_last and not mx)
            return self.obj.leaf(acc, out), acc, w
        if kind == "klop":
            g = self.obj.gifts
            if self.done < len(g) and g[self.done] >= 0:
                pile |= 1 << g[self.done]
            th = list(acc)
            th[w] += thirds(pile)
            th[4 + w] = 1
            acc = tuple(th)
            return (self.obj.leaf(acc) if last else None), acc, w
        if kind == "no_trick":
            if mx:
                return self.obj.fixed(False), acc, w
            return (self.obj.fixed(True) if last else None), acc, w
        # all_tricks
        if not mx:
            return self.obj.fixed(False), acc, w
        return (self.obj.fixed(True) if last else None), acc, w

    def _remaining(self) -> int:
        r = 0
        for h in self.hands:
            r |= h
        return r

    def _ordered(self, p: int, groups: dict[int, int]) -> Iterator[int]:
        """Representatives in search order: cheap heuristics of tarok play."""
        trick = self.trick
        strength, worth = self.strength, self.worth
        if not trick:
            # lead: strong cards first, then weak ones
            yield from sorted(groups, key=lambda c: (-strength[c], c))
            return
        mx = self.maxside[p]
        wi = self._winner(trick)
        ally = self.maxside[(self.leader + wi) % self.n] == mx
        last = len(trick) == self.n - 1

        def key(c: int) -> tuple[int, int]:
            wins = self._winner([*trick, c]) == len(trick)
            if ally and not wins:
                return (0, -worth[c])  # throw points on the partner's trick
            if wins:
                return (1, worth[c] if last else -strength[c])
            return (2, worth[c])  # cannot win: throw low

        yield from sorted(groups, key=key)

    def _play(self, c: int, alpha: int, beta: int) -> int:
        """Play card ``c`` for the player to move and search on; the state is restored."""
        self.nodes += 1
        if self.budget and self.nodes - self._start > self.budget:
            raise SearchBudgetExceeded(f"the search budget of {self.budget} cards was spent")
        p = (self.leader + len(self.trick)) % self.n
        bit = 1 << c
        self.hands[p] &= ~bit
        self.trick.append(c)
        if len(self.trick) < self.n:
            v = self._ab(alpha, beta)
            self.trick.pop()
            self.hands[p] |= bit
            return v
        final, acc, w = self._complete()
        if final is not None:
            self.trick.pop()
            self.hands[p] |= bit
            return final
        saved = (self.trick, self.leader, self.done, self.acc)
        self.trick, self.leader, self.done, self.acc = [], w, self.done + 1, acc
        v = self._ab(alpha, beta)
        self.trick, self.leader, self.done, self.acc = saved
        self.trick.pop()
        self.hands[p] |= bit
        return v

    def _ab(self, alpha: int, beta: int) -> int:
        trick = self.trick
        key = None
        entry = None
        if not trick:
            remaining = self._remaining()
            key = (remaining, self.leader, self.acc)
            entry = self.tt.get(key)
            if entry is not None:
                lo, hi = entry[0], entry[1]
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha, beta = max(alpha, lo), min(beta, hi)
            else:
                lo, hi = (self.obj.bounds(self.acc, remaining) if self.play is None
                          else self.play.bounds(self.acc, remaining))  # fmt: skip
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
        a0, b0 = alpha, beta
        p = (self.leader + len(trick)) % self.n
        # the cards to search and their order: a pure function of the hands, the trick, the
        # leader and the tricks done, asked again by every null-window test of MTD(f)
        mkey = (tuple(self.hands), tuple(trick), self.leader, self.done)
        moves = self._moves_memo.get(mkey)
        if moves is None:
            if len(self._moves_memo) > _MEMO_LIMIT:
                self._moves_memo.clear()
            lm = self._legal(p)
            groups = representatives(self.hands[p], lm, self._outstanding(p), self.ranges)
            moves = self._moves_memo[mkey] = (groups, tuple(self._ordered(p, groups)))
        groups = moves[0]
        order = list(moves[1])
        if entry is not None and entry[2] in groups:
            order.remove(entry[2])
            order.insert(0, entry[2])
        mx = self.maxside[p]
        best = -INF if mx else INF
        best_card = order[0]
        for c in order:
            v = self._play(c, alpha, beta)
            if mx:
                if v > best:
                    best, best_card = v, c
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_card = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            if len(self.tt) > _TT_LIMIT:
                self.tt.clear()
            # classified against the window searched (narrowed by the entry), then merged
            lo, hi = (entry[0], entry[1]) if entry is not None else (-INF, INF)
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = [lo, hi, best_card]
        return best
