"""A Royal Tarock match (royal-tarock.md §3.2, §7.2); the engine object is in :mod:`.engine`.

A match is (usually) eight games between two fixed pairs. The dealer is always the defending
pair's Eintreiber and attack and defence alternate, so the two Eintreibers deal in turn; a
thrown-in deal is dealt again by the same dealer and is not a game. Both parties' game scores
are added up, and the match result is each total divided by the number of games and rounded
down (760 : 759 → 95 : 94).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tarock_logs.rules.base import (
    Action,
    DealInfo,
    FactsNotScored,
    FastReplay,
    HandScore,
    HandState,
    Irregularity,
    RecordedFacts,
    Ruleset,
    SeatRole,
    SessionState,
    Violation,
)
from tarock_logs.rules.royal.codes import violation
from tarock_logs.rules.royal.fast import fast_replay as royal_fast_replay
from tarock_logs.rules.royal.hand import RoyalHand
from tarock_logs.rules.royal.rulesets import normalize_options, options_of
from tarock_logs.rules.royal.scoring import FactsError
from tarock_logs.rules.royal.scoring import score_facts as royal_score_facts


def match_result(totals: Sequence[int], match_length: int = 8) -> list[int]:
    """§7.2: each total divided by the match length, rounded down (scores are ≥ 0)."""
    return [t // match_length for t in totals]


class RoyalSession(SessionState):
    """What carries from game to game in one Royal Tarock match."""

    def __init__(self, ruleset: Ruleset, table_size: int = 4) -> None:
        if table_size != 4:
            raise ValueError(f"Royal Tarock is played by two pairs (4 seats), not {table_size}")
        self.ruleset = ruleset
        self.opts = normalize_options(ruleset.options)
        options_of(ruleset)  # a bad catalogue fails here, not in the middle of a match
        self.games = 0  # games scored (thrown-in deals are not games)
        self.sums = [0, 0, 0, 0]
        self.next_dealer: int | None = None
        self.eintreiber_parity: int | None = None  # the seats of the two Eintreibers, mod 2
        #: the two pairs as recorded, each (Abfänger, Eintreiber); None: not recorded
        self.pairs: tuple[tuple[int, int], tuple[int, int]] | None = None

    def set_seats(self, seats: Sequence[SeatRole]) -> None:
        """The fixed pairs and roles the log records (§3.1): with both pairs complete, every
        game's parties come from them (the dealer's pair defends), not from the dealer."""
        found: dict[tuple[str | None, str | None], list[int]] = {}
        for s, sr in enumerate(seats):
            found.setdefault((sr.pair, sr.role), []).append(s)
        pairs = []
        for pr in ("A", "B"):
            abf, ein = found.get((pr, "abfaenger"), []), found.get((pr, "eintreiber"), [])
            if len(abf) != 1 or len(ein) != 1:
                return
            pairs.append((abf[0], ein[0]))
        self.pairs = (pairs[0], pairs[1])
        self.eintreiber_parity = pairs[0][1] % 2

    def restore(self, carry: Mapping[str, Any]) -> bool:
        """Resume a match in its middle from a :meth:`carry` mapping (keys optional;
        ``totals``, the running totals a log records before its first game, is the match sum)."""
        if "games" in carry:
            self.games = int(carry["games"])
        if "match_sum" in carry:
            self.sums = [int(x) for x in carry["match_sum"]]
        elif "totals" in carry:
            self.sums = [int(x) for x in carry["totals"]]
        if "next_dealer" in carry:
            nd = carry["next_dealer"]
            self.next_dealer = None if nd is None else int(nd)
            if self.next_dealer is not None:
                self.eintreiber_parity = self.next_dealer % 2
        return any(k in carry for k in ("games", "match_sum", "totals", "next_dealer"))

    def carry(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "match_sum": list(self.sums),
            "next_dealer": self.next_dealer,
            "match_result": match_result(self.sums, self.opts["match_length"]),
        }

    def new_hand(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        irregularities: Sequence[Irregularity] = (),
        deal: DealInfo | None = None,
    ) -> HandState:
        # who deals next (§3.2, ``RoyalEngine.next_dealer``) is judged by the reader, which
        # sees the whole match (``deal.dealer_rotation``); the engine checks the pairs
        found: list[Violation] = []
        # with the pairs recorded the hand itself judges its dealer (deal.dealer_not_eintreiber)
        if (
            self.pairs is None
            and self.eintreiber_parity is not None
            and dealer % 2 != self.eintreiber_parity
        ):
            found.append(
                violation(
                    self.ruleset,
                    "deal.dealer_not_eintreiber",
                    f"seat {dealer} dealt game {self.games + 1}, but the Eintreibers of this "
                    f"match sit at seats {self.eintreiber_parity} and {self.eintreiber_parity + 2}"
                    ": the dealer is always the defending pair's Eintreiber",
                    seat=dealer,
                )
            )
        if self.eintreiber_parity is None:
            self.eintreiber_parity = dealer % 2
        return RoyalHand(
            self.ruleset,
            dealer,
            hands,
            talon,
            irregularities,
            session_findings=found,
            pairs=self.pairs,
            deal=deal,
        )

    def fast_replay(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str],
        actions: Sequence[Any],
        to_action: Callable[[Any], Action],
        deal: DealInfo | None = None,
    ) -> FastReplay | None:
        """The bulk path: a clean game's forty cards played by the native card loop (see
        :mod:`.fast`), or None when it declines or the native core is not loaded (the caller
        replays the game through :meth:`new_hand` and ``push``)."""
        return royal_fast_replay(self, dealer, hands, talon, actions, to_action, deal)

    def parties(self, dealer: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """(Abfänger, Eintreiber) of the attackers and of the defenders of a game dealt by
        ``dealer``: from the recorded pairs (the dealer's pair defends), else from the dealer
        (§3.1: the dealer is the defending Eintreiber, his Abfänger sits just before him)."""
        d = dealer
        if self.pairs is not None:
            defending = next((p for p in self.pairs if d in p), None)
            attacking = next((p for p in self.pairs if d not in p), None)
            if defending is not None and attacking is not None:
                return attacking, defending
        return ((d + 1) % 4, (d + 2) % 4), ((d - 1) % 4, d)

    def score_facts(
        self,
        dealer: int,
        facts: RecordedFacts,
        irregularities: Sequence[Irregularity] = (),
    ) -> HandScore:
        """Score a game recorded as facts (a line of the match sheet: each pair's Meldungen,
        Schlemme made or lost, silent premiums, trophies, contras and the consolation written)
        and add it to the match sums as :meth:`end_hand` does. Items of unknown value leave
        their party's total unchecked; nothing is guessed."""
        if facts.contract != "game":
            raise FactsNotScored(
                f"{facts.contract!r}: Royal Tarock has no contracts (a game recorded as facts "
                "is 'game')"
            )
        parties = self.parties(dealer)
        try:
            score = royal_score_facts(
                catalogue=options_of(self.ruleset).catalogue,
                options=self.opts,
                parties=parties,
                bonuses=[(b.bonus, b.side, b.announced, b.made) for b in facts.bonuses],
                kontras=facts.kontras,
                consolation=facts.consolation,
            )
        except FactsError as exc:
            raise FactsNotScored(str(exc)) from None
        notes = list(score.unverified)
        if irregularities:
            notes.append("irregularities are recorded, but Royal Tarock's penalties are unknown")
        score = HandScore(
            totals=score.totals,
            items=score.items,
            card_points={**score.card_points, "parties": [list(p) for p in parties]},
            unverified=tuple(notes),
            incomplete_seats=score.incomplete_seats,
            carry_after={"game_number": self.games + 1},
            claimed=score.claimed,
        )
        self.games += 1
        self.sums = [a + b for a, b in zip(self.sums, score.totals, strict=True)]
        self.next_dealer = (dealer + 2) % 4
        if self.eintreiber_parity is None:
            self.eintreiber_parity = dealer % 2
        return score

    def end_hand(self, hand: HandState, score: HandScore) -> None:
        if not isinstance(hand, RoyalHand):
            raise TypeError("not a Royal Tarock hand")
        if hand.thrown_in:
            self.next_dealer = hand.dealer
            return
        self.games += 1
        self.sums = [a + b for a, b in zip(self.sums, score.totals, strict=True)]
        self.next_dealer = (hand.dealer + 2) % 4

    def match_result(self) -> list[int]:
        return match_result(self.sums, self.opts["match_length"])
