"""Bidding (spec section 4): the contract ladder with seat priority, the mandatory three, the
final declaration and klop.

P1 (forehand) holds the **mandatory three** (*obvezna trojka*) implicitly; P2 speaks first. A
player may equal the highest bid only with higher priority (P1 > P2 > P3 > P4); a pass is final.
The last remaining player makes a **final declaration**: the held contract or higher, or, when
everybody passed, **klop** (everyone for himself), three or higher.

A mixin of :class:`~tarock_logs.rules.slovenian.hand.SlovenianHand` (its state lives there).
"""

from __future__ import annotations

from tarock_logs.rules.base import Action, Violation
from tarock_logs.rules.slovenian.contracts import ALONE, CONTRACTS, LADDER
from tarock_logs.rules.slovenian.state import HandFields, Phase


class BiddingMixin(HandFields):
    """The bidding phase of a hand."""

    def _available(self, code: str) -> bool:
        row = CONTRACTS.get(code)
        return row is not None and (self.n_active == 4 or row.at_three)

    def _mandatory_held(self) -> bool:
        """Whether everybody passed: forehand still holds the mandatory three alone (he then
        declares klop, the three or higher)."""
        return CONTRACTS[self.high].forehand_holds and not self.others_bid

    def _legal_bids(self) -> list[str]:
        if self.awaiting_final:
            if self.turn == self.p1 and self._mandatory_held():
                return [ALONE] + [c for c in LADDER if self._available(c)]
            hr = CONTRACTS[self.high].rank
            return [c for c in LADDER if self._available(c) and CONTRACTS[c].rank >= hr]
        out = ["pass"]
        seat = self.turn
        hr = CONTRACTS[self.high].rank
        mine = self.pos[seat] < self.pos[self.holder]
        for c in LADDER:
            if CONTRACTS[c].forehand_holds or not self._available(c):
                continue
            r = CONTRACTS[c].rank
            if r > hr or (r == hr and mine):
                out.append(c)
        return out

    def _bid(self, a: Action) -> list[Violation]:
        seat = a.seat
        code = "pass" if a.type == "pass" else (a.contract or "")
        who = f"{self.p(seat)} (seat {seat})"
        if self.awaiting_final:
            return self._final(a, seat, code, who)
        if (
            not self.bids
            and seat == self.p1
            and code in CONTRACTS
            and CONTRACTS[code].forehand_holds
        ):
            self.bids += ((seat, code),)  # the explicit mandatory three
            return []
        out: list[Violation] = []
        if seat in self.passed:
            return [
                self._v(
                    "bid.after_pass",
                    f"{who} called {code} after passing; a player who passes is out of the auction",
                    seat,
                    contract=code,
                )
            ]
        if seat != self.turn:
            out.append(
                self._v(
                    "bid.out_of_turn",
                    f"{who} called {code} but it was seat {self.turn}'s turn ({self.p(self.turn)})",
                    seat,
                    expected=self.turn,
                )
            )
        self.bids += ((seat, code),)
        if code == "pass":
            self.passed = self.passed | {seat}
        else:
            bad = self._bid_problem(seat, code, who)
            if bad is not None:
                out.append(bad)
            else:
                self.high = code
                self.holder = seat
                if seat != self.p1:
                    self.others_bid = True
        remaining = [s for s in self.active if s not in self.passed]
        if len(remaining) <= 1:
            self.awaiting_final = True
            self.turn = remaining[0] if remaining else self.holder
        else:
            nxt = self._next_active(seat)
            while nxt in self.passed:
                nxt = self._next_active(nxt)
            self.turn = nxt
        return out

    def _bid_problem(self, seat: int, code: str, who: str) -> Violation | None:
        if code not in CONTRACTS:
            return self._v(
                "bid.unknown_contract",
                f"{who} called {code!r}, which is not a contract code",
                seat,
                contract=code,
            )
        row = CONTRACTS[code]
        if row.alone:
            return self._v(
                "bid.klop_not_allowed",
                f"{who} bid klop; klop is never bid, only declared by P1 when everybody passed",
                seat,
            )
        if row.forehand_holds:
            return self._v(
                "bid.three_not_forehand",
                f"{who} bid three; only P1 (forehand) holds the mandatory three",
                seat,
            )
        if not self._available(code):
            return self._v(
                "bid.not_available_for_table",
                f"{who} bid {code}, which does not exist with {self.n_active} active players",
                seat,
                contract=code,
            )
        r, hr = CONTRACTS[code].rank, CONTRACTS[self.high].rank
        if r < hr or (r == hr and self.pos[seat] > self.pos[self.holder]):
            why = (
                "lower than"
                if r < hr
                else f"equal to {self.p(self.holder)}'s bid of higher priority than"
            )
            return self._v(
                "bid.too_low",
                f"{who} bid {code}, {why} the current {self.high}",
                seat,
                contract=code,
                high=self.high,
                holder=self.holder,
            )
        return None

    def _final(self, a: Action, seat: int, code: str, who: str) -> list[Violation]:
        out: list[Violation] = []
        if seat in self.passed and seat != self.turn:
            return [
                self._v(
                    "bid.after_pass",
                    f"{who} called {code} after passing; a player who passes is out of the auction",
                    seat,
                    contract=code,
                )
            ]
        if seat != self.turn:
            return [
                self._v(
                    "bid.out_of_turn",
                    f"{who} called {code}, but seat {self.turn} ({self.p(self.turn)}) "
                    "won the auction and must make the final declaration",
                    seat,
                    expected=self.turn,
                )
            ]
        special = seat == self.p1 and self._mandatory_held()
        if code == "pass":
            # scorers write "naprej" for klop: a warning where the ruleset reads it leniently
            # (tournament), an error where a final pass does not exist (openspiel)
            lenient = self.rules.final_pass_lenient
            if special:
                out.append(
                    self._v(
                        "bid.pass_as_klop" if lenient else "bid.final_pass",
                        f"{who} passed after everybody passed; read as the final declaration klop",
                        seat,
                        read_as=ALONE,
                    )
                )
                code = ALONE
            else:
                out.append(
                    self._v(
                        "bid.pass_as_final" if lenient else "bid.final_pass",
                        f"{who} passed as the final declaration; read as keeping {self.high}",
                        seat,
                        read_as=self.high,
                    )
                )
                code = self.high
        elif code not in CONTRACTS:
            out.append(
                self._v(
                    "bid.unknown_contract",
                    f"{who} declared {code!r}, which is not a contract code; assumed {self.high}",
                    seat,
                )
            )
            code = self.high
        elif CONTRACTS[code].alone and not special:
            out.append(
                self._v(
                    "bid.klop_not_allowed",
                    f"{who} declared klop, but klop is "
                    f"only possible when everybody passed; assumed {self.high}",
                    seat,
                    contract=code,
                    high=self.high,
                )
            )
            code = self.high
        elif not self._available(code):
            out.append(
                self._v(
                    "bid.not_available_for_table",
                    f"{who} declared {code}, which does not exist with "
                    f"{self.n_active} active players",
                    seat,
                    contract=code,
                )
            )
        elif not CONTRACTS[code].alone and CONTRACTS[code].rank < CONTRACTS[self.high].rank:
            out.append(
                self._v(
                    "bid.final_below_high",
                    f"{who} declared {code}, lower than the {self.high} he won the auction with",
                    seat,
                    contract=code,
                    high=self.high,
                )
            )
        self.bids += ((seat, code),)
        self._finish_bidding(seat, code)
        return out

    def _finish_bidding(self, seat: int, code: str) -> None:
        self.awaiting_final = False
        self.contract = code
        self._pr = None
        if CONTRACTS[code].alone:
            self.declarer = None
            self._enter_announcements()
            return
        self.declarer = seat
        row = CONTRACTS[code]
        if row.king_call and self.n_active == 4:
            self.phase = Phase.KING_CALL
        elif row.talon:
            self.phase = Phase.TALON
        else:
            self._enter_announcements()
