"""A Zwanzigerrufen session: dealer rotation, game counter, running totals and the double
rounds after a Mondfang (spec §3.2, §3.5, §7.5), the engine object is in :mod:`.engine`.

**Double round** (Doppelrunde): a Mondfang (the Mond captured by the Sküs) opens a *window*
over the next ``double_round_length`` games (4); every item of a game inside a window counts
double. Thrown-in deals are not games: they neither use up nor receive doubling. Overlapping
windows multiply (``multiply``, ×4 under two windows), or count once (``cap``), or queue up one
after the other (``extend``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
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
    ScoreItem,
    SessionState,
    Violation,
)
from tarock_logs.rules.zwanzigerrufen import native
from tarock_logs.rules.zwanzigerrufen.codes import violation
from tarock_logs.rules.zwanzigerrufen.counted import NOT_CHECKED as COUNT_NOT_CHECKED
from tarock_logs.rules.zwanzigerrufen.counted import count_findings, counted_facts
from tarock_logs.rules.zwanzigerrufen.fast import fast_replay as zr_fast_replay
from tarock_logs.rules.zwanzigerrufen.hand import ZRHand
from tarock_logs.rules.zwanzigerrufen.rulesets import normalize_options
from tarock_logs.rules.zwanzigerrufen.scoring import FactsError, ScoreResult, score_from_facts
from tarock_logs.rules.zwanzigerrufen.tricks import NORMAL


class ZRSession(SessionState):
    """What carries from deal to deal in one Zwanzigerrufen session."""

    def __init__(
        self, ruleset: Ruleset, table_size: int = 4, initial: Mapping[str, Any] | None = None
    ) -> None:
        """``initial`` resumes a session in its middle (§3.5): the keys of :meth:`carry`
        (``games``, ``double_round_windows``, ``totals``, ``next_dealer``), all optional."""
        if table_size != 4:
            raise ValueError(f"Zwanzigerrufen is played by four players, not {table_size}")
        self.ruleset = ruleset
        self.opts = normalize_options(ruleset.options)
        self.table_size = 4
        self.games = 0  # scored deals so far
        self.windows: list[int] = []  # remaining games of each open double-round window
        self.totals = [0, 0, 0, 0]
        self.next_dealer: int | None = None
        self.irregularities: tuple[Irregularity, ...] = ()
        if initial:
            self.restore(initial)

    def restore(self, carry: Mapping[str, Any]) -> bool:
        """Set the carried state from a :meth:`carry` mapping (keys optional)."""
        known = ("games", "double_round_windows", "totals", "next_dealer")
        if "games" in carry:
            self.games = int(carry["games"])
        if "double_round_windows" in carry:
            self.windows = [int(w) for w in carry["double_round_windows"] if int(w) > 0]
        if "totals" in carry:
            self.totals = [int(t) for t in carry["totals"]]
        if "next_dealer" in carry:
            nd = carry["next_dealer"]
            self.next_dealer = None if nd is None else int(nd)
        return any(k in carry for k in known)

    def multiplier(self) -> int:
        """r of §7.5 for the next game."""
        open_windows = [w for w in self.windows if w > 0]
        mode = self.opts["double_round_stacking"]
        if not open_windows:
            return 1
        if mode == "multiply":
            return int(2 ** len(open_windows))
        return 2

    def new_hand(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        irregularities: Sequence[Irregularity] = (),
        deal: DealInfo | None = None,
    ) -> HandState:
        findings: list[Violation] = []
        if self.next_dealer is not None and dealer != self.next_dealer:
            findings.append(
                violation(
                    self.ruleset,
                    "deal.dealer_order",
                    f"seat {dealer} dealt, but seat {self.next_dealer} was due (the deal passes "
                    "to the previous forehand after a scored game and stays after a throw-in)",
                    seat=dealer,
                    expected=self.next_dealer,
                )
            )
        if talon:
            findings.append(
                violation(
                    self.ruleset,
                    "deal.not_the_pack",
                    f"Zwanzigerrufen has no talon, but {len(talon)} talon card(s) were recorded",
                )
            )
        findings += self._deal_method(dealer, deal or DealInfo())
        # Renonce records are kept for the referee; the engine reports infractions itself and
        # (under infraction_policy = penalize) scores them (A36).
        self.irregularities = tuple(irregularities)
        return ZRHand(
            self.ruleset,
            self.opts,
            dealer,
            hands,
            multiplier=self.multiplier(),
            game_number=self.games + 1,
            deal_violations=findings,
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
        """The bulk path: a clean hand's forty cards played by the native card loop (see
        :mod:`.fast`), or None when it declines or the native core is not loaded (the caller
        replays the hand through :meth:`new_hand` and ``push``)."""
        return zr_fast_replay(self, dealer, hands, talon, actions, to_action, deal)

    def native_replay(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str],
        actions: Sequence[Any],
        to_action: Callable[[Any], Action],
        deal: DealInfo | None = None,
    ) -> FastReplay | None:
        """The machine's whole hand and score (``zrhand.h``, see :func:`.native.native_replay`),
        or None (session untouched)."""
        return native.native_replay(self, dealer, hands, talon, actions, to_action, deal)

    def _deal_method(self, dealer: int, deal: DealInfo) -> list[Violation]:
        """§3.3: the cutter (P3) cuts or, where ``knocking`` allows it, knocks; after a knock
        P1, P2, P3 and P4 each take one whole stack, so four different stacks are taken."""
        out: list[Violation] = []
        if deal.method == "knocked" and self.opts["knocking"] == "forbidden":
            out.append(
                violation(
                    self.ruleset,
                    "deal.knock_forbidden",
                    "the cutter knocked, which this ruleset does not allow (knocking = "
                    "forbidden): the pack must be cut and dealt",
                    seat=(dealer + 3) % 4,
                )
            )
        if deal.stacks is not None:
            if deal.method != "knocked":
                out.append(
                    violation(
                        self.ruleset,
                        "deal.stacks",
                        "stacks are recorded for a deal that was not knocked (only after a "
                        "knock does each player take a stack)",
                        stacks=list(deal.stacks),
                    )
                )
            elif len(deal.stacks) != 4 or len(set(deal.stacks)) != 4:
                out.append(
                    violation(
                        self.ruleset,
                        "deal.stacks",
                        f"after a knock each player takes one of the four stacks, but the log "
                        f"records the stacks {list(deal.stacks)}",
                        stacks=list(deal.stacks),
                    )
                )
        return out

    def _facts_result(self, facts: RecordedFacts) -> ScoreResult:
        """The items of a deal recorded as facts under the current multiplier (the session
        is left as it is)."""
        if facts.declarer is None:
            raise FactsNotScored("the declarer (the holder of the contract) is not recorded")
        partner = facts.partner
        if facts.contract != NORMAL and partner is not None:
            raise FactsNotScored(f"a {facts.contract} is played alone: no partner")
        if partner == facts.declarer:
            raise FactsNotScored("the partner is the declarer")
        r = self.multiplier()
        try:
            res = score_from_facts(
                opts=self.opts,
                contract=facts.contract,
                declarer=facts.declarer,
                partner=partner,
                won=facts.won,
                card_points=facts.card_points,
                bonuses=[(b.bonus, b.side, b.announced, b.made) for b in facts.bonuses],
                kontras=facts.kontras,
                mondfang=facts.mondfang,
                multiplier=r,
            )
        except FactsError as exc:
            raise FactsNotScored(str(exc)) from None
        return res

    def score_counted(
        self,
        dealer: int,
        facts: RecordedFacts,
        cards: CountedCards,
        irregularities: Sequence[Irregularity] = (),
    ) -> CountedScore:
        """Score a counted deal from its two piles (:mod:`.counted`), carried on as
        :meth:`score_facts` does, with the findings of the table's count."""
        notes = list(COUNT_NOT_CHECKED)
        counted, cp_d = counted_facts(facts, cards, notes)

        def score_of(f: RecordedFacts) -> tuple[list[ScoreItem], tuple[int, ...]]:
            res = self._facts_result(f)
            return res.per_seat, res.totals

        findings = count_findings(self.ruleset, facts, counted, cp_d,
                                  self._facts_result(counted).won, score_of)  # fmt: skip
        score = self.score_facts(dealer, counted, irregularities)
        return CountedScore(replace(score, unverified=(*score.unverified, *notes)),
                            tuple(findings))  # fmt: skip

    def score_facts(
        self,
        dealer: int,
        facts: RecordedFacts,
        irregularities: Sequence[Irregularity] = (),
    ) -> HandScore:
        """Score a deal recorded as facts (a line of the club's running sheet) with this
        game's double-round multiplier (§7.5), and carry it on as :meth:`end_hand` does: the
        game counter, the double-round windows a recorded Mondfang opens, the totals."""
        res = self._facts_result(facts)
        r = self.multiplier()
        partner = facts.partner
        score = HandScore(
            totals=res.totals,
            items=tuple(res.per_seat),
            contract=facts.contract,
            declarer=facts.declarer,
            partner=partner,
            won=res.won,
            card_points=res.card_points,
            carry_after={
                "thrown_in": False,
                "multiplier": r,
                "mondfang": res.mondfang_counts,
                "game_number": self.games + 1,
            },
        )
        self._advance(dealer, score)
        return score

    def end_hand(self, hand: HandState, score: HandScore) -> None:
        # (native.Played: a hand the native engine played)
        dealer = hand.dealer if isinstance(hand, ZRHand | native.Played) else None
        self._advance(dealer, score)

    def _advance(self, dealer: int | None, score: HandScore) -> None:
        if score.carry_after.get("thrown_in"):
            self.next_dealer = dealer  # the same dealer deals again; not a game
            return
        self.games += 1
        for i, value in enumerate(score.totals[:4]):
            self.totals[i] += value
        self.windows = [w - 1 for w in self.windows if w - 1 > 0]
        length = int(self.opts["double_round_length"])
        if score.carry_after.get("mondfang") and length > 0:
            if self.opts["double_round_stacking"] == "extend" and self.windows:
                self.windows = [self.windows[0] + length]
            else:
                self.windows.append(length)
        if dealer is not None:
            self.next_dealer = (dealer + 1) % 4

    def carry(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "double_round_windows": list(self.windows),
            "next_multiplier": self.multiplier(),
            "totals": list(self.totals),
            "next_dealer": self.next_dealer,
        }
