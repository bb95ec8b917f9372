"""A toy rules engine for the store and statistics tests (registered for one test at a time).

The store is game-agnostic, so its tests need hands whose verdicts and scores are known
exactly without hand-computing Slovenian scores. This engine reads the outcome from the log:

* the declarer is the seat of the last ``bid``, the contract its ``contract``; a ``call`` names
  a card and its holder is the partner (none when the declarer holds it: a self-call);
* ``meld`` ``won`` / ``lost`` says whether the declarer's side won; ``meld`` ``made:<bonus>``
  says an announced bonus was made;
* plays are grouped into tricks of the active seats; a trick's winner is the highest tarok,
  else the highest card of the led suit; playing a card not held is ``toy.not_held``
  (rule ``toy-1 §1``), applied anyway.

Score (``toy-1``): contract values three 10, two 20, one 30, solo_three 40, solo_two 50,
solo_one 60, berac 70; × 2^level of a kontra on the game; ``contract`` ± value (seat null,
i.e. declarer and partner each). Each announced bonus: ``<bonus>`` ±10 from the declarer side's
view (+10 when the announcing side made it or the other side failed). ``mondfang`` −20 to a
seat whose T21 was won by the other side. Klop: ``klop`` −5 per trick taken, per seat, and every
seat earns a radelc.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tarock_logs.cards import CARDS
from tarock_logs.rules import slovenian
from tarock_logs.rules.base import (
    Action,
    DealInfo,
    DealShape,
    GameEngine,
    HandScore,
    HandState,
    Irregularity,
    Ruleset,
    RulesetRegistry,
    ScoreItem,
    SessionState,
    Violation,
)

_SLOVENIAN = slovenian.ENGINE

RULESET = Ruleset("toy-1", "slovenian", "Toy rules for store tests", {}, aliases=("toy",))
VALUES = {
    "three": 10,
    "two": 20,
    "one": 30,
    "solo_three": 40,
    "solo_two": 50,
    "solo_one": 60,
    "berac": 70,
}


def _beats(card: str, best: str, led: str) -> bool:
    c, b = CARDS[card], CARDS[best]
    if c.is_tarok != b.is_tarok:
        return c.is_tarok
    if c.suit != b.suit:
        return False
    return c.strength > b.strength


class ToyHand(HandState):
    phase = "play"

    def __init__(self, hands: Sequence[Sequence[str]], radelci: list[int]) -> None:
        self.deal = [list(h) for h in hands]
        self.hands = [list(h) for h in hands]
        self.table_size = len(hands)
        self.active = sum(1 for h in hands if h)
        self.radelci = radelci
        self.declarer: int | None = None
        self.contract: str | None = None
        self.called: str | None = None
        self.outcome: bool | None = None
        self.made: set[str] = set()
        self.announced: list[tuple[int, str]] = []
        self.kontra_game = 0
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[dict[str, Any]] = []

    def to_move(self) -> int | None:
        return None

    def legal_actions(self) -> list[Action]:
        return []

    def check(self, action: Action) -> list[Violation]:
        if action.type == "play" and action.card not in self.hands[action.seat]:
            return [
                Violation(
                    "toy.not_held",
                    f"seat {action.seat} does not hold {action.card}",
                    RULESET.cite("1"),
                    seat=action.seat,
                    card=action.card,
                )
            ]
        return []

    def push(self, a: Action) -> list[Violation]:
        found = self.check(a)
        if a.type == "bid":
            self.declarer, self.contract = a.seat, a.contract
        elif a.type == "call":
            self.called = a.card
        elif a.type == "meld" and a.meld in ("won", "lost"):
            self.outcome = a.meld == "won"
        elif a.type == "meld" and a.meld and a.meld.startswith("made:"):
            self.made.add(a.meld[5:])
        elif a.type == "announce" and a.bonus:
            self.announced.append((a.seat, a.bonus))
        elif a.type == "kontra" and a.target == "game":
            self.kontra_game = max(self.kontra_game, a.level or 1)
        elif a.type == "play" and a.card:
            if a.card in self.hands[a.seat]:
                self.hands[a.seat].remove(a.card)
            self.trick.append((a.seat, a.card))
            if len(self.trick) == self.active:
                led = self.trick[0][1]
                win = self.trick[0]
                for p in self.trick[1:]:
                    if _beats(p[1], win[1], led):
                        win = p
                self.tricks.append(
                    {
                        "leader": self.trick[0][0],
                        "cards": [list(p) for p in self.trick],
                        "winner": win[0],
                        "points": 0,
                    }
                )
                self.trick = []
        return found

    def pop(self) -> Action:
        raise NotImplementedError

    def is_over(self) -> bool:
        return True

    def partner(self) -> int | None:
        if self.called is None:
            return None
        for s, h in enumerate(self.deal):
            if self.called in h:
                return None if s == self.declarer else s
        return None

    def score(self) -> HandScore:
        n = self.table_size
        items: list[ScoreItem] = []
        if self.contract == "klop":
            taken = [0] * n
            for t in self.tricks:
                taken[t["winner"]] += 1
            items = [ScoreItem("klop", -5 * taken[s], s) for s in range(n) if self.deal[s]]
            totals = [sum(i.value for i in items if i.seat == s) for s in range(n)]
            rad = [r + 1 if self.deal[s] else r for s, r in enumerate(self.radelci)]
            return HandScore(
                tuple(totals), tuple(items), "klop", None, None, None, carry_after={"radelci": rad}
            )
        d = self.declarer if self.declarer is not None else 0
        p = self.partner()
        side = {d} | ({p} if p is not None else set())
        won = bool(self.outcome)
        v = VALUES.get(self.contract or "", 0) * 2**self.kontra_game
        items.append(ScoreItem("contract", v if won else -v))
        for seat, bonus in self.announced:
            good_for_side = (bonus in self.made) == (seat in side)
            items.append(ScoreItem(bonus, 10 if good_for_side else -10))
        for t in self.tricks:
            for s, c in t["cards"]:
                if c == "T21" and ((s in side) != (t["winner"] in side)):
                    items.append(ScoreItem("mondfang", -20, s))
        totals = [0] * n
        for i in items:
            for s in side if i.seat is None else {i.seat}:
                totals[s] += i.value
        return HandScore(
            tuple(totals),
            tuple(items),
            self.contract,
            d,
            p,
            won,
            carry_after={"radelci": list(self.radelci)},
        )

    def view(self) -> dict[str, Any]:
        return {
            "phase": "done",
            "to_move": None,
            "hands": self.hands,
            "trick": [],
            "tricks": list(self.tricks),
            "talon": [],
            "discards": [],
            "contract": self.contract,
            "declarer": self.declarer,
            "partner": self.partner(),
            "bids": [],
            "announcements": [],
            "kontras": [],
        }


class ToySession(SessionState):
    def __init__(self, n: int) -> None:
        self.radelci = [0] * n

    def new_hand(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        irregularities: Sequence[Irregularity] = (),
        deal: DealInfo | None = None,
    ) -> ToyHand:
        return ToyHand(hands, list(self.radelci))

    def end_hand(self, hand: HandState, score: HandScore) -> None:
        self.radelci = list(score.carry_after["radelci"])

    def restore(self, carry: Mapping[str, Any]) -> bool:
        if "radelci" not in carry:
            return False
        self.radelci = list(carry["radelci"])
        return True

    def carry(self) -> dict[str, Any]:
        return {"radelci": list(self.radelci)}


class ToyEngine(GameEngine):
    game = "slovenian"
    rulesets = RulesetRegistry("slovenian", [RULESET])
    default_ruleset = "toy-1"
    #: klop is played alone, as in the game the toy stands in for (the store's per-seat role
    #: ``klop``; without it the role would depend on which engine a cached look-up saw first)
    alone_contracts = frozenset({"klop"})

    def ruleset(self, ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
        """The toy ruleset by id or alias; the session's options are ignored."""
        return self.rulesets.find(ruleset_id)

    # the deal is Slovenian tarok's (the logs it scores are Slovenian): the reader asks
    def pack(self, ruleset: Ruleset | None = None) -> tuple[str, ...]:
        return _SLOVENIAN.pack()

    def table_sizes(self, ruleset: Ruleset | None = None) -> tuple[int, ...]:
        return _SLOVENIAN.table_sizes()

    def deal_shape(
        self, table_size: int, dealer: int, ruleset: Ruleset | None = None
    ) -> DealShape | None:
        return _SLOVENIAN.deal_shape(table_size, dealer)

    def new_session(self, ruleset: Ruleset, table_size: int) -> ToySession:
        return ToySession(table_size)

    def placement_points(
        self, ruleset: Ruleset, round_scores: Sequence[int], all_tables_of_five: bool = False
    ) -> list[float]:
        order = sorted(range(len(round_scores)), key=lambda s: -round_scores[s])
        pts = [0.0] * len(round_scores)
        for place, s in enumerate(order):
            pts[s] = float(len(round_scores) - place)
        return pts


ENGINE = ToyEngine()
