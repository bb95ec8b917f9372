"""The card-play analysis of Royal Tarock (/work/shared/rules/royal-tarock.md).

* **Cards and tricks**: the legal cards are the engine's ``judge`` (§6.1–§6.3: follow suit,
  else a tarock, else anything; the duties of the cards bound by an announced Schlemm, from
  ``RoyalHand.bindings``), the trick winner its ``trick_winner`` (§6.3).
* **Objective**: pair against pair. Each party scores only its own items (§7.1), so the
  two-sided search takes the **difference** of the two parties' scores as its stake: the
  attacking pair's score minus the defending pair's, each as the engine writes it
  (``score_game``: the Schlemme announced and their contras, made or failed by the tricks;
  the silent premiums the tricks decide; the trophies; the floor 0 and the cap). The play
  decides them through what the catalogue's conditions read of the tricks: the cards each
  pair brought home and each trick's winner and winning card, the facts of the fold; a
  finished play is scored by ``score_game`` on tricks that carry exactly these facts.
* **Unknown items**: a catalogue item whose value or condition is unknown is left out by the
  engine and named in its score's ``unverified``; the analysis reports those names with the
  hand (:meth:`RoyalAnalysis.unknown`) and never guesses them.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock_logs.analysis.games import NO_RULES, GameAnalysis, HandPlay, Pack
from tarock_logs.analysis.objective import Objective
from tarock_logs.analysis.position import Position, Setting, Unsupported
from tarock_logs.cards import PACKS
from tarock_logs.rules.base import HandScore, HandState
from tarock_logs.rules.royal.hand import RoyalHand
from tarock_logs.rules.royal.scoring import score_game
from tarock_logs.rules.royal.tricks import judge, trick_winner
from tarock_logs.rules.sight import Sight

__all__ = ["ANALYSIS", "RoyalAnalysis", "RoyalPlay"]

PACK = Pack(tuple(PACKS["royal"]))


class RoyalPlay(HandPlay):
    """One Royal Tarock game's card play (see the module docstring). ``acc`` is what the
    catalogue's conditions read of the tricks played: the cards the attackers brought home (a
    mask), then per trick its winner and the card that won it."""

    def __init__(self, h: RoyalHand) -> None:
        super().__init__(PACK)
        self.bindings = tuple(h.bindings(s) for s in range(4))
        self.attackers = frozenset(h.parties[0])
        self._args = {"catalogue": h.catalogue, "options": h.opts, "parties": h.parties,
                      "dealt": h.dealt, "bidding": h.bidding}  # fmt: skip
        self._parties = h.parties
        self._leaves: dict[tuple[int, ...], int] = {}
        # memos of the engine's answers (a hand's positions repeat them many times)
        self._legal: dict[tuple[int, tuple[int, ...], int, int], int] = {}
        self._winner: dict[tuple[int, ...], int] = {}

    def legal(self, hand: int, trick: Sequence[int], done: int, player: int) -> int:
        key = (hand, tuple(trick), player, done)
        got = self._legal.get(key)
        if got is None:
            got = self._legal[key] = self._judge(hand, trick, done, player)
        return got

    def _judge(self, hand: int, trick: Sequence[int], done: int, player: int) -> int:
        cards = self.pack.cards
        n = len(trick)
        on_table = [((player - n + k) % 4, cards[c]) for k, c in enumerate(trick)]
        j = judge(self.pack.tokens(hand), on_table, done + 1, self.bindings[player])
        return self.pack.mask(sorted(j.legal))

    def winner(self, trick: Sequence[int], leader: int) -> int:
        key = tuple(trick)
        got = self._winner.get(key)
        if got is None:
            cards = self.pack.cards
            seat = trick_winner([(k, cards[c]) for k, c in enumerate(trick)])
            got = self._winner[key] = seat
        return got

    def fold(self, acc: tuple[int, ...], trick: Sequence[int], leader: int, wi: int,
             done: int) -> tuple[int, ...]:  # fmt: skip
        w = (leader + wi) % 4
        home = acc[0]
        if w in self.attackers:
            for c in trick:
                home |= 1 << c
        return (home, *acc[1:], w, trick[wi])

    def leaf(self, acc: tuple[int, ...]) -> int:
        v = self._leaves.get(acc)
        if v is None:
            v = self._leaves[acc] = self.score(acc)
        return v

    def tricks(self, acc: tuple[int, ...]) -> list[tuple[tuple[tuple[int, str], ...], int]]:
        """Tricks that carry the facts ``acc``: each trick's winner and the card that won it,
        the other cards each pair brought home added to its first trick under no seat (seat
        -1: the catalogue's conditions read a card's seat only for the card that won)."""
        cards = self.pack.cards
        home = acc[0]
        seq = [(acc[i], acc[i + 1]) for i in range(1, len(acc), 2)]
        won = 0
        for _w, c in seq:
            won |= 1 << c
        # a finished play: the defenders brought home every card the attackers did not
        full = (1 << len(cards)) - 1
        out: list[tuple[tuple[tuple[int, str], ...], int]] = []
        extra = {True: self.pack.tokens(home & ~won),
                 False: self.pack.tokens(full & ~home & ~won)}  # fmt: skip
        for w, c in seq:
            side = w in self.attackers
            t = ((w, cards[c]), *((-1, x) for x in extra.pop(side, [])))
            out.append((t, w))
        return out

    def score(self, acc: tuple[int, ...]) -> int:
        """The engine's score of a finished play: attackers' score − defenders' score."""
        sc = score_game(tricks=self.tricks(acc), **self._args)  # type: ignore[arg-type]
        return _difference(self._parties, sc)


def _difference(parties: Sequence[tuple[int, int]], score: HandScore) -> int:
    return score.totals[parties[0][0]] - score.totals[parties[1][0]]


class RoyalAnalysis(GameAnalysis):
    """Royal Tarock's analysis plug-in (see the module docstring)."""

    game = "royal"

    def cards(self, h: HandState) -> tuple[str, ...]:
        return PACK.cards

    def owns(self, h: HandState) -> bool:
        return isinstance(h, RoyalHand)

    def sight(self, h: HandState, seat: int, illegal: Sequence[str] = ()) -> Sight:
        """What ``seat`` sees (``rules/royal/view.py``); the engine's replay on each layout's
        deal says which actions were clean, so ``illegal`` is not needed."""
        from tarock_logs.rules.royal.view import sight

        return sight(_royal(h), seat)

    def in_play(self, h: HandState) -> bool:
        return isinstance(h, RoyalHand) and h.phase == "play"

    def tricks_total(self, h: HandState) -> int:
        return 10

    def tricks_done(self, h: HandState) -> int:
        return len(_royal(h).tricks)

    def holds(self, h: HandState, seat: int, card: str) -> bool:
        return 0 <= seat < 4 and card in _royal(h).held[seat]

    def maximiser(self, h: HandState, seat: int) -> bool:
        return _royal(h).party_of(seat) == 0

    def contract(self, h: HandState) -> str | None:
        """The Schlemme announced (the catalogue ids), or None."""
        ids = [i.item_id for i in _royal(h).bidding.instances]
        return " ".join(dict.fromkeys(ids)) or None

    def play_item(self, item: str) -> bool:
        return item not in ("consolation", "cap")

    def score_value(self, h: HandState, score: HandScore, perspective_seat: int | None) -> int:
        return _difference(_royal(h).parties, score)

    def unknown(self, h: HandState) -> tuple[str, ...]:
        r = _royal(h)
        if not r.is_over():
            return ()
        return tuple(r.score().unverified)

    def read_position(self, h: HandState, perspective: int | None = None
                      ) -> tuple[Position, Setting]:  # fmt: skip
        r = _royal(h)
        if not self.in_play(r):
            raise Unsupported(f"the hand is in phase {r.phase}, not in card play")
        trick = list(r.trick)
        leader = trick[0][0] if trick else r.leader
        hands = tuple(PACK.mask(r.held[s]) for s in range(4))
        left = 10 - len(r.tricks)
        for s in range(4):
            want = left - (1 if any(t == s for t, _ in trick) else 0)
            if hands[s].bit_count() != want:
                raise Unsupported(f"seat {s} holds {hands[s].bit_count()} cards where {want} "
                                  "are expected: the log's cards do not add up")  # fmt: skip
        for k, (s, _) in enumerate(trick):
            if s != (leader + k) % 4:
                raise Unsupported("the trick in progress was not played in turn")
        cid = PACK.cid
        play = RoyalPlay(r)
        acc: tuple[int, ...] = (0,)
        for cards, w in r.tricks:
            ids = [cid[c] for _, c in cards]
            led = cards[0][0]
            acc = play.fold(acc, ids, led, (w - led) % 4, len(acc) // 2)
        maxside = tuple(r.party_of(s) == 0 for s in range(4))
        obj = Objective(kind="game", maxside=maxside, tricks_total=10)
        pos = Position(hands, tuple(cid[c] for _, c in trick), leader, len(r.tricks), acc)
        return pos, Setting(tuple(range(4)), NO_RULES, obj, play)


def _royal(h: HandState) -> RoyalHand:
    if not isinstance(h, RoyalHand):
        raise Unsupported(f"not a Royal Tarock hand: {type(h).__name__}")
    return h


ANALYSIS = RoyalAnalysis()
