"""A Slovenian session (one table sitting): radelci and misdeal counts carried hand to hand.

Radelci are all 0 at the start of a session (= a tournament round, spec 9.10 and A17) and are
never subtracted at the end. :meth:`SlovenianSession.end_hand` takes them from the score's
``carry_after``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tarock_logs.rules.base import HandScore, HandState, Irregularity, Ruleset, Violation
from tarock_logs.rules.slovenian.contracts import Rules
from tarock_logs.rules.slovenian.fastpath import fast_replay, trick_views
from tarock_logs.rules.slovenian.hand import SlovenianHand


class SlovenianSession:
    """What carries from hand to hand: radelci per seat and misdeal counts per seat."""

    def __init__(self, ruleset: Ruleset, table_size: int,
                 radelci: Sequence[int] | None = None) -> None:  # fmt: skip
        self.ruleset = ruleset
        self.rules = Rules(ruleset)
        self.table_size = table_size
        self.radelci: list[int] = list(radelci) if radelci else [0] * table_size
        self.misdeals: list[int] = [0] * table_size
        self.hands_played = 0
        self.last_dealer: int | None = None

    def new_hand(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        irregularities: Sequence[Irregularity] = (),
    ) -> SlovenianHand:
        """A new hand dealt by ``dealer`` (at a table of 5 the dealer sits out).

        The deal passes clockwise every hand (spec 3.2): a dealer other than the seat after the
        previous hand's dealer is reported as the warning ``deal.dealer_order``.
        """
        hand = SlovenianHand(self.rules, self.table_size, dealer, hands, talon,
                             radelci=self.radelci, irregularities=irregularities,
                             misdeals_before=self.misdeals)  # fmt: skip
        last = self.last_dealer
        if last is not None and dealer != (last + 1) % self.table_size:
            hand.deal_violations.append(Violation(
                "deal.dealer_order", f"seat {dealer} deals, but the deal passes from seat {last} "
                f"to seat {(last + 1) % self.table_size}", self.ruleset.cite("3.2"),
                seat=dealer, severity="warning"))  # fmt: skip
        self.last_dealer = dealer
        return hand

    def end_hand(self, hand: HandState, score: HandScore) -> None:
        """Take the radelci (and misdeal counts) after the hand from ``score.carry_after``."""
        rad = score.carry_after.get("radelci")
        if rad is not None and len(rad) == self.table_size:
            self.radelci = [max(0, int(x)) for x in rad]
        mis = score.carry_after.get("misdeals")
        if mis is not None and len(mis) == self.table_size:
            self.misdeals = [int(x) for x in mis]
        self.hands_played += 1

    def restore(self, carry: dict[str, Any]) -> None:
        """Set the carried state, e.g. the radelci a log records before a hand."""
        if "radelci" in carry:
            self.radelci = [max(0, int(x)) for x in carry["radelci"]]
        if "misdeals" in carry:
            self.misdeals = [int(x) for x in carry["misdeals"]]

    def fast_replay(self, dealer: int, hands: Sequence[Sequence[str]], talon: Sequence[str],
                    actions: Sequence[Any], to_action: Any) -> Any:  # fmt: skip
        """The bulk-audit path for an ordinary hand (see :mod:`.fastpath`): ``(score, tricks,
        state, rebuild, findings, trick_rows)`` when every action is proved legal, else None (session
        untouched); ``findings`` are the hand-level warnings; ``tricks()`` gives the completed
        tricks as ``view()["tricks"]`` does (built on the first call). ``rebuild()`` replays
        the hand through the reference engine (for the viewer)."""
        radelci, misdeals = list(self.radelci), list(self.misdeals)
        res = fast_replay(self, dealer, hands, talon, actions, to_action)
        if res is None:
            return None

        def rebuild() -> SlovenianHand:
            h = SlovenianHand(self.rules, self.table_size, dealer, hands, talon,
                              radelci=radelci, misdeals_before=misdeals)  # fmt: skip
            h.deal_violations = list(findings)
            for a in actions:
                h.push(to_action(a))
            return h

        score, tricks, state, findings = res
        views = getattr(tricks, "views", None) or (lambda: trick_views(tricks()))
        return score, views, state, rebuild, findings, getattr(tricks, "rows", None)

    def carry(self) -> dict[str, Any]:
        return {"radelci": list(self.radelci), "misdeals": list(self.misdeals)}
