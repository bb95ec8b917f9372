"""A tiny engine for tests of the game-agnostic layers (replay, audit, dossier).

It knows one rule, "follow suit" (cited as ``fake-1 §1``), and one score: the declarer (the
seat of the last ``bid``) writes ``contract`` +10 for itself if it took at least half the
tricks, else −10. It subclasses the :mod:`tarock_logs.rules.base` contract and overrides only
what it must (every other hook keeps its declared default): ``push`` applies an illegal card and
reports it, ``view`` returns the common keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tarock_logs.rules.base import (
    Action,
    DealInfo,
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

RULESET = Ruleset("fake-1", "fake", "Fake rules", {"bonus": 0}, aliases=("fake",))


def _suit(card: str) -> str:
    return card[0]


class FakeHand(HandState):
    def __init__(self, rs: Ruleset, hands: Sequence[Sequence[str]]) -> None:
        self.rs = rs
        self.hands = [list(h) for h in hands]
        self.table_size = len(hands)
        self.phase = "play"
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[dict[str, Any]] = []
        self.declarer: int | None = None
        self.history: list[Action] = []

    def to_move(self) -> int | None:
        if self.is_over():
            return None
        if self.trick:
            return (self.trick[-1][0] + 1) % self.table_size
        return self.tricks[-1]["winner"] if self.tricks else 0

    def legal_actions(self) -> list[Action]:
        seat = self.to_move()
        if seat is None:
            return []
        held = self.hands[seat]
        if self.trick:
            led = _suit(self.trick[0][1])
            follow = [c for c in held if _suit(c) == led]
            if follow:
                held = follow
        return [Action("play", seat, card=c) for c in held]

    def check(self, action: Action) -> list[Violation]:
        if action.type != "play":
            return []
        if action.card not in self.hands[action.seat]:
            raise ValueError(f"seat {action.seat} does not hold {action.card}")
        if action not in self.legal_actions():
            return [
                Violation(
                    "play.must_follow",
                    f"seat {action.seat} played {action.card}: must follow suit",
                    self.rs.cite("1"),
                    seat=action.seat,
                    card=action.card,
                )
            ]
        return []

    def push(self, action: Action) -> list[Violation]:
        if action.type == "bid":
            self.declarer = action.seat
            self.history.append(action)
            return []
        found = self.check(action)
        assert action.card is not None
        self.hands[action.seat].remove(action.card)
        self.trick.append((action.seat, action.card))
        if len(self.trick) == self.table_size:
            led = _suit(self.trick[0][1])
            winner = max((p for p in self.trick if _suit(p[1]) == led), key=lambda p: p[1])[0]
            self.tricks.append(
                {
                    "leader": self.trick[0][0],
                    "cards": [list(p) for p in self.trick],
                    "winner": winner,
                    "points": 0,
                }
            )
            self.trick = []
        self.history.append(action)
        if self.is_over():
            self.phase = "done"
        return found

    def pop(self) -> Action:
        raise NotImplementedError

    def is_over(self) -> bool:
        return all(not h for h in self.hands) and not self.trick

    def score(self) -> HandScore:
        d = self.declarer if self.declarer is not None else 0
        won = sum(1 for t in self.tricks if t["winner"] == d) * 2 >= len(self.tricks)
        value = 10 if won else -10
        totals = [0] * self.table_size
        totals[d] = value
        return HandScore(
            tuple(totals),
            (ScoreItem("contract", value, None),),
            "fake",
            d,
            None,
            won,
            carry_after={"radelci": [0] * self.table_size},
        )

    def view(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "to_move": self.to_move(),
            "hands": [list(h) for h in self.hands],
            "trick": [list(p) for p in self.trick],
            "tricks": list(self.tricks),
            "talon": [],
            "discards": [],
            "contract": "fake",
            "declarer": self.declarer,
            "partner": None,
            "bids": [],
            "announcements": [],
            "kontras": [],
        }


class FakeSession(SessionState):
    def __init__(self, rs: Ruleset, n: int) -> None:
        self.rs = rs
        self.n = n

    def new_hand(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        irregularities: Sequence[Irregularity] = (),
        deal: DealInfo | None = None,
    ) -> FakeHand:
        return FakeHand(self.rs, hands)

    def end_hand(self, hand: HandState, score: HandScore) -> None:
        pass

    def carry(self) -> dict[str, Any]:
        return {}


class FakeEngine(GameEngine):
    game = "fake"
    rulesets = RulesetRegistry("fake", [RULESET])
    default_ruleset = "fake-1"
    score_items = frozenset({"contract"})

    def pack(self, ruleset: Ruleset | None = None) -> tuple[str, ...]:
        return tuple(f"{s}{r}" for s in "HDSC" for r in "23456789")

    def new_session(self, ruleset: Ruleset, table_size: int) -> FakeSession:
        return FakeSession(ruleset, table_size)

    def placement_points(
        self, ruleset: Ruleset, round_scores: Sequence[int], all_tables_of_five: bool = False
    ) -> list[float]:
        order = sorted(range(len(round_scores)), key=lambda s: -round_scores[s])
        pts = [0.0] * len(round_scores)
        for place, s in enumerate(order):
            pts[s] = float(len(round_scores) - place)
        return pts


ENGINE = FakeEngine()
