"""A Slovenian session (one table sitting): radelci and misdeal counts carried hand to hand.

Radelci are all 0 at the start of a session (= a tournament round, spec 9.10 and A17) and are
never subtracted at the end. :meth:`SlovenianSession.end_hand` takes them from the score's
``carry_after``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tarock_logs.rules.base import (
    Action,
    CountedCards,
    CountedScore,
    DealInfo,
    FactsNotScored,
    FastReplay,
    HandScore,
    HandState,
    Irregularity,
    RecordedFacts,
    Ruleset,
    SessionState,
)
from tarock_logs.rules.slovenian.contracts import Rules
from tarock_logs.rules.slovenian.counted import score_counted
from tarock_logs.rules.slovenian.fast.fastpath import fast_replay, native_replay
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.rules.slovenian.scoring import facts_from_record, score_facts

#: the :class:`Rules` of a ruleset object, shared by its sessions (a Rules is read, never
#: changed, but for its native set-up, which the sessions of a ruleset share: built once)
_RULES: dict[int, Rules] = {}


def _rules(ruleset: Ruleset) -> Rules:
    got = _RULES.get(id(ruleset))
    if got is None or got.ruleset is not ruleset:  # (the cached Rules keeps its ruleset alive)
        if len(_RULES) >= 64:
            _RULES.clear()
        got = _RULES[id(ruleset)] = Rules(ruleset)
    return got


class SlovenianSession(SessionState):
    """What carries from hand to hand: radelci per seat and misdeal counts per seat."""

    def __init__(
        self, ruleset: Ruleset, table_size: int, radelci: Sequence[int] | None = None
    ) -> None:
        self.ruleset = ruleset
        self.rules = _rules(ruleset)
        self.table_size = table_size
        self.radelci: list[int] = list(radelci) if radelci else [0] * table_size
        self.misdeals: list[int] = [0] * table_size
        self.hands_played = 0

    def new_hand(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        irregularities: Sequence[Irregularity] = (),
        deal: DealInfo | None = None,
    ) -> SlovenianHand:
        """A new hand dealt by ``dealer`` (at a table of 5 the dealer sits out).

        Who deals is not judged here: the deal passes clockwise every hand (spec 3.2,
        :meth:`SlovenianEngine.next_dealer`), and the reader, which sees the whole session,
        reports a dealer out of turn (``deal.dealer_rotation``).
        """
        return SlovenianHand(
            self.rules,
            self.table_size,
            dealer,
            hands,
            talon,
            radelci=self.radelci,
            irregularities=irregularities,
            misdeals_before=self.misdeals,
        )

    def end_hand(self, hand: HandState, score: HandScore) -> None:
        """Take the radelci (and misdeal counts) after the hand from ``score.carry_after``."""
        self._carry_on(score)

    def score_facts(
        self,
        dealer: int,
        facts: RecordedFacts,
        irregularities: Sequence[Irregularity] = (),
    ) -> HandScore:
        """Score a score-sheet hand (:func:`.scoring.facts_from_record`, then the same
        :func:`.scoring.score_facts` as a played hand) with the session's radelci, and carry
        its radelci on. The ``openspiel`` ruleset scores from the tricks only."""
        if self.rules.openspiel_scoring:
            raise FactsNotScored(
                f"{self.ruleset.id} scores from the tricks (OpenSpiel's returns), not from facts"
            )
        f = facts_from_record(self.rules, self.table_size, dealer, facts, radelci=self.radelci,
                              irregularities=irregularities, misdeals=self.misdeals)  # fmt: skip
        score = score_facts(self.rules, f)
        self._carry_on(score)
        return score

    def score_counted(
        self,
        dealer: int,
        facts: RecordedFacts,
        cards: CountedCards,
        irregularities: Sequence[Irregularity] = (),
    ) -> CountedScore:
        """Score a counted hand from its piles (:func:`.counted.score_counted`) with the
        session's radelci, and carry its radelci on."""
        if self.rules.openspiel_scoring:
            raise FactsNotScored(
                f"{self.ruleset.id} scores from the tricks (OpenSpiel's returns), not from piles"
            )
        out = score_counted(self.rules, self.table_size, dealer, facts, cards,
                            radelci=self.radelci, irregularities=irregularities,
                            misdeals=self.misdeals)  # fmt: skip
        self._carry_on(out.score)
        return out

    def _carry_on(self, score: HandScore) -> None:
        carry = score.carry_after
        n = self.table_size
        rad = carry.get("radelci")
        if rad is not None and len(rad) == n:
            self.radelci = [0] * n if not any(rad) else [max(0, int(x)) for x in rad]
        mis = carry.get("misdeals")
        if mis is not None and len(mis) == n:
            self.misdeals = [int(x) for x in mis]
        self.hands_played += 1

    def restore(self, carry: Mapping[str, Any]) -> bool:
        """Set the carried state, e.g. the radelci a log records before a hand."""
        done = False
        if "radelci" in carry:
            self.radelci = [max(0, int(x)) for x in carry["radelci"]]
            done = True
        if "misdeals" in carry:
            self.misdeals = [int(x) for x in carry["misdeals"]]
            done = True
        return done

    def fast_replay(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str],
        actions: Sequence[Any],
        to_action: Callable[[Any], Action],
        deal: DealInfo | None = None,
    ) -> FastReplay | None:
        """The bulk-audit path for an ordinary hand (see :mod:`.fast.fastpath`), or None (session
        untouched) unless every action is proved legal. ``deal`` is not judged here (as in
        :meth:`new_hand`)."""
        return fast_replay(
            self.rules,
            self.table_size,
            self.radelci,
            self.misdeals,
            dealer,
            hands,
            talon,
            actions,
            to_action,
        )

    def native_replay(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str],
        actions: Sequence[Any],
        to_action: Callable[[Any], Action],
        deal: DealInfo | None = None,
    ) -> FastReplay | None:
        """The machine's whole hand and score (``slohand.h`` and ``sloscore.h``, see
        :func:`.fast.fastpath.native_replay`), or None (session untouched)."""
        return native_replay(self.rules, self.table_size, self.radelci, self.misdeals, dealer,
                             hands, talon, actions, to_action)  # fmt: skip

    def carry(self) -> dict[str, Any]:
        return {"radelci": list(self.radelci), "misdeals": list(self.misdeals)}
