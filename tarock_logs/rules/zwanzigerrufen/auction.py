"""The Zwanzigerrufen auction (spec §4, ``auction_model`` = ``merged``).

One sequence of **turns** in playing order starting with forehand (P1, the seat after the
dealer). In a turn a player makes zero or more *declarations* and then says **weiter**
("next"), which ends the turn; in the log a turn is its declaration actions followed by one
``pass``. Declarations:

* ``call`` of tarock XX (or the highest lower one XIX…XVI forehand lacks): the *normal game*,
  forehand with the holder of the called tarock as her secret partner; only forehand, first;
* ``bid`` ``farbensolo`` (suit solo, tarocks are not trumps) or ``solo`` (one against three
  with tarocks as trumps): overcalls, ranked Normal < Farbensolo < Solo;
* ``announce`` of a bonus (``absolut``, ``pagat`` = Pagat Ultimo, ``valat``) **dazu** (for the
  declarer side) or **dagegen** (for the defenders);
* ``kontra`` on the game or an announced bonus: level 1 Kontra ×2, 2 Retour ×4, 3 Supra ×8,
  4 Resupra ×16.

The auction ends after four consecutive empty turns. :class:`Auction` is mutable and cheap
to :meth:`copy` (the hand keeps a copy per action for ``pop``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tarock_logs.rules.base import Action, Ruleset, Violation
from tarock_logs.rules.zwanzigerrufen.codes import violation
from tarock_logs.rules.zwanzigerrufen.contracts import CONTRACTS
from tarock_logs.rules.zwanzigerrufen.tricks import (
    CALLABLE,
    FARBENSOLO,
    NORMAL,
    PAGAT,
    SOLO,
    suit_cards,
)

CONTRACT_RANK: Final = {code: row.rank for code, row in CONTRACTS.items()}
BONUSES: Final = ("absolut", "pagat", "valat")
NOT_ANNOUNCEABLE: Final = ("trull", "four_kings", "mondfang")
SIDES: Final = ("dazu", "dagegen")
KONTRA_NAMES: Final = {1: "Kontra", 2: "Retour", 3: "Supra", 4: "Resupra"}
LABELS: Final = {"absolut": "Absolut", "pagat": "Pagat Ultimo", "valat": "Valat", "game": "game"}
AUCTION_TYPES: Final = frozenset({"call", "bid", "announce", "kontra", "pass"})


class Auction:
    """State of the merged auction; every method returns the findings it produced."""

    __slots__ = (
        "announced",
        "called",
        "changed_turn",
        "contract",
        "cur_decls",
        "cur_had_contract",
        "cur_pending",
        "cur_seat",
        "dealer",
        "dealt",
        "empty_run",
        "expected",
        "game_level",
        "history",
        "holder",
        "last_change",
        "last_turn",
        "open",
        "opts",
        "over",
        "p1",
        "p1_opened",
        "partner",
        "passed",
        "quiet",
        "rs",
        "stage",
        "turns_done",
    )

    def __init__(
        self, ruleset: Ruleset, opts: dict[str, Any], dealer: int, dealt: Sequence[frozenset[str]]
    ) -> None:
        self.rs = ruleset
        self.opts = opts
        self.dealer = dealer
        self.p1 = (dealer + 1) % 4
        self.dealt = dealt
        self.contract: str | None = None
        self.holder: int | None = None
        self.called: str | None = None
        self.partner: int | None = None
        self.passed: set[int] = set()  # seats that passed on the contract (C5c)
        self.open = True  # the contract may still be overcalled
        self.quiet = 0  # completed turns without a contract declaration since the last one
        self.game_level = 0
        # announced bonus -> {"side", "seat", "level", "turn"}; key (bonus, side)
        self.announced: dict[tuple[str, str], dict[str, Any]] = {}
        self.history: list[dict[str, Any]] = []  # every applied declaration, for view()
        self.turns_done = 0
        self.expected = self.p1
        self.cur_seat: int | None = None
        self.cur_decls = 0
        self.cur_had_contract = False
        self.cur_pending: list[str] = []  # dagegen bonuses that need a Kontra on the game
        self.empty_run = 0
        self.over = False
        self.last_turn: dict[int, int] = {}  # seat -> index of its last completed turn
        self.last_change: dict[str, int] = {}  # target -> turn it was announced/raised in
        #: the turn of the last change of game (an overcall, C5), after which everybody may
        #: declare again (C7), also under late_declarations = responses_only
        self.changed_turn = -1
        self.p1_opened = False  # forehand's first turn has started
        # "merged" (one rotation); two_phase: "contract" (ascending auction), then "announce"
        self.stage = "contract" if opts["auction_model"] == "two_phase" else "merged"

    def copy(self) -> Auction:
        new = Auction.__new__(Auction)
        new.rs, new.opts, new.dealer, new.p1, new.dealt = (
            self.rs,
            self.opts,
            self.dealer,
            self.p1,
            self.dealt,
        )
        new.contract, new.holder, new.called, new.partner = (
            self.contract,
            self.holder,
            self.called,
            self.partner,
        )
        new.open, new.quiet, new.game_level, new.turns_done = (
            self.open,
            self.quiet,
            self.game_level,
            self.turns_done,
        )
        new.expected, new.cur_seat, new.cur_decls, new.cur_had_contract = (
            self.expected,
            self.cur_seat,
            self.cur_decls,
            self.cur_had_contract,
        )
        new.empty_run, new.over, new.p1_opened = self.empty_run, self.over, self.p1_opened
        new.stage = self.stage
        new.passed = set(self.passed)
        new.announced = {k: dict(v) for k, v in self.announced.items()}
        new.history = list(self.history)
        new.cur_pending = list(self.cur_pending)
        new.last_turn = dict(self.last_turn)
        new.last_change = dict(self.last_change)
        new.changed_turn = self.changed_turn
        return new

    # ------------------------------------------------------------------ helpers

    def role(self, seat: int) -> str:
        return f"P{(seat - self.dealer - 1) % 4 + 1}"

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.role(seat)})"

    def declarer_side(self) -> frozenset[int]:
        """The declarer side as known from the hands (A38): holder and called partner."""
        if self.holder is None:
            return frozenset({self.p1})
        if self.partner is not None:
            return frozenset({self.holder, self.partner})
        return frozenset({self.holder})

    def side_of(self, seat: int) -> str:
        return "dazu" if seat in self.declarer_side() else "dagegen"

    def side_seats(self, side: str) -> frozenset[int]:
        d = self.declarer_side()
        return d if side == "dazu" else frozenset(range(4)) - d

    def holder_of(self, card: str) -> int | None:
        for seat, hand in enumerate(self.dealt):
            if card in hand:
                return seat
        return None

    def required_call(self) -> str | None:
        """The highest of XX…XVI forehand lacks (None if she holds all five)."""
        hand = self.dealt[self.p1]
        for card in CALLABLE:
            if card not in hand:
                return card
        return None

    def max_level(self) -> int:
        m = self.opts["max_kontra_level"]
        return 10**6 if m == "unlimited" else int(m)

    def find_announced(
        self, bonus: str, seat: int | None = None, level: int | None = None
    ) -> tuple[str, str] | None:
        """The announcement a Kontra on ``bonus`` refers to (two may exist when
        ``one_announcement_per_bonus`` is false: pick the one this seat may raise)."""
        keys = [k for k in self.announced if k[0] == bonus]
        if not keys:
            return None
        if len(keys) > 1 and seat is not None:
            for k in keys:
                nxt = self.announced[k]["level"] + 1 if level is None else level
                own = seat in self.side_seats(k[1])
                if (nxt % 2 == 0) == own:
                    return k
        return keys[0]

    def target_level(self, target: str) -> int:
        if target == "game":
            return self.game_level
        key = self.find_announced(target)
        return self.announced[key]["level"] if key else 0

    def _v(
        self,
        code: str,
        message: str,
        seat: int | None = None,
        card: str | None = None,
        **params: Any,
    ) -> Violation:
        return violation(self.rs, code, message, seat=seat, card=card, **params)

    # ------------------------------------------------------------------ turns

    def _start_turn(self, seat: int, out: list[Violation]) -> None:
        if seat != self.expected:
            out.append(
                self._v(
                    "auction.turn_order",
                    f"{self.who(seat)} spoke out of turn: it was {self.who(self.expected)}'s turn "
                    "in the auction (turns go round in playing order from forehand)",
                    seat=seat,
                    expected=self.expected,
                )
            )
        self.cur_seat = seat
        self.cur_decls = 0
        self.cur_had_contract = False
        self.cur_pending = []

    def end_turn(self, out: list[Violation]) -> None:
        """Close the current turn (its ``pass`` = weiter, or an implicit end)."""
        seat = self.cur_seat
        if seat is None:
            return
        turn = self.turns_done
        if seat == self.p1 and not self.p1_opened:
            self.p1_opened = True
            if not self.cur_had_contract and self.contract is None:
                out.append(
                    self._v(
                        "auction.forehand_must_declare",
                        f"forehand {self.who(seat)} must open the auction with a call of a "
                        "tarock (XX, or the highest of XIX…XVI she lacks) or a solo; she cannot "
                        "say weiter",
                        seat=seat,
                    )
                )
        if self.cur_pending and self.game_level == 0:
            for bonus in self.cur_pending:
                code = (
                    "announce.pagat_dagegen_without_kontra"
                    if bonus == "pagat"
                    else ("announce.dagegen_without_kontra")
                )
                out.append(
                    self._v(
                        code,
                        f"{self.who(seat)} announced {LABELS.get(bonus, bonus)} dagegen, but the "
                        "game did not stand at Kontra by the end of his turn: a dagegen "
                        "announcement of it requires a Kontra on the game",
                        seat=seat,
                        bonus=bonus,
                    )
                )
        if self.stage == "contract":
            self._end_contract_turn(seat)
            return
        if not self.cur_had_contract and self.open and self.contract is not None:
            if seat != self.holder:
                self.passed.add(seat)
            self.quiet += 1
            if self.quiet >= 3:
                self.open = False
        self.empty_run = self.empty_run + 1 if self.cur_decls == 0 else 0
        self.last_turn[seat] = turn
        self.turns_done += 1
        self.expected = (seat + 1) % 4
        self._reset_turn()
        if self.empty_run >= 4:
            self.over = True

    def _reset_turn(self) -> None:
        self.cur_seat = None
        self.cur_decls = 0
        self.cur_had_contract = False
        self.cur_pending = []

    def _end_contract_turn(self, seat: int) -> None:
        """``two_phase``: a turn of the ascending contract auction. A turn without a contract
        declaration is a final pass; the auction moves to the next player who has neither
        passed nor holds the contract, and ends when there is none or when Solo is declared.
        Then the announcement rotation starts with forehand."""
        if not self.cur_had_contract and self.contract is not None and seat != self.holder:
            self.passed.add(seat)
        self.turns_done += 1
        self._reset_turn()
        nxt = None
        if self.contract != SOLO:
            for k in range(1, 5):
                cand = (seat + k) % 4
                if cand not in self.passed and cand != self.holder:
                    nxt = cand
                    break
        if nxt is not None and self.contract is not None:
            self.expected = nxt
            return
        if self.contract is None and not self.passed >= {0, 1, 2, 3} - {self.p1}:
            self.expected = (seat + 1) % 4  # nobody holds a contract yet (forehand failed)
            return
        self.stage = "announce"
        self.open = False
        self.expected = self.p1
        self.empty_run = 0

    def apply(self, action: Action) -> list[Violation]:
        """Apply one auction action (declaration or ``pass``); lenient, returns findings."""
        out: list[Violation] = []
        seat = action.seat
        if self.over:
            out.append(
                self._v(
                    "auction.over",
                    f"{self.who(seat)} made a declaration ({action.type}) after the auction had "
                    "ended with four consecutive weiter; it is ignored",
                    seat=seat,
                    card=action.card,
                )
            )
            return out
        if self.cur_seat is not None and seat != self.cur_seat:
            out.append(
                self._v(
                    "auction.turn_order",
                    f"{self.who(seat)} spoke during {self.who(self.cur_seat)}'s turn, which had "
                    "not ended with weiter",
                    seat=seat,
                    expected=self.cur_seat,
                )
            )
            self.end_turn(out)
            self.expected = seat  # reported once
        if self.cur_seat is None:
            self._start_turn(seat, out)
        if action.type == "pass":
            self.end_turn(out)
            return out
        first = self.cur_decls == 0
        opening = seat == self.p1 and not self.p1_opened and first and self.contract is None
        if self.stage == "contract" and action.type in ("announce", "kontra"):
            out.append(
                self._v(
                    "auction.wrong_phase",
                    f"{self.who(seat)} made an announcement or Kontra during the contract auction "
                    "(two_phase model: they come in the announcement rotation); it is ignored",
                    seat=seat,
                )
            )
            self.cur_decls += 1
            return out
        if action.type == "call":
            self._call(action, opening, out)
        elif action.type == "bid":
            self._bid(action, opening, first, out)
        elif action.type == "announce":
            if opening:
                self._forehand_must_declare(seat, out)
            self._announce(action, out)
        elif action.type == "kontra":
            if opening:
                self._forehand_must_declare(seat, out)
            self._kontra(action, out)
        self.cur_decls += 1
        return out

    def _forehand_must_declare(self, seat: int, out: list[Violation]) -> None:
        out.append(
            self._v(
                "auction.forehand_must_declare",
                f"forehand {self.who(seat)} must begin her first turn with a contract "
                "declaration (a call or a solo)",
                seat=seat,
            )
        )
        self.p1_opened = True

    # ------------------------------------------------------------------ contracts

    def _call(self, action: Action, opening: bool, out: list[Violation]) -> None:
        seat, card = action.seat, action.card or ""
        if seat != self.p1 or (self.contract is not None) or (self.p1_opened and not opening):
            out.append(
                self._v(
                    "call.not_forehand",
                    f"{self.who(seat)} called {card}: only forehand may call, as the first "
                    "declaration of her first turn; the call is ignored",
                    seat=seat,
                    card=card,
                )
            )
            return
        if not opening:
            out.append(
                self._v(
                    "auction.declaration_position",
                    f"forehand {self.who(seat)} called {card} after another declaration; the call "
                    "must come first",
                    seat=seat,
                    card=card,
                )
            )
        required = self.required_call()
        if card not in CALLABLE:
            out.append(
                self._v(
                    "call.wrong_tarock",
                    f"forehand {self.who(seat)} called {card}: only tarocks XX…XVI (T20…T16) can "
                    "be called",
                    seat=seat,
                    card=card,
                    required=required,
                )
            )
        elif card in self.dealt[seat]:
            out.append(
                self._v(
                    "call.self_call",
                    f"forehand {self.who(seat)} called {card}, which she holds herself; she must "
                    f"call a tarock she lacks ({required or 'none: she must play a solo'})",
                    seat=seat,
                    card=card,
                    required=required,
                )
            )
        elif (
            required is not None
            and card != required
            and (self.opts["call_rule"] == "highest_missing")
        ):
            out.append(
                self._v(
                    "call.wrong_tarock",
                    f"forehand {self.who(seat)} called {card} but must call {required}, the "
                    "highest of XX…XVI she lacks",
                    seat=seat,
                    card=card,
                    required=required,
                )
            )
        if required is None:
            out.append(
                self._v(
                    "auction.solo_required",
                    f"forehand {self.who(seat)} holds XX…XVI and cannot call: she must declare "
                    "Solo",
                    seat=seat,
                    card=card,
                )
            )
        self.p1_opened = True
        self.contract = NORMAL
        self.holder = seat
        self.called = card
        partner = self.holder_of(card)
        self.partner = None if partner is None or partner == seat else partner
        self.quiet = 0
        self.cur_had_contract = True
        self.history.append({"seat": seat, "type": "call", "card": card, "contract": NORMAL})

    def _bid(self, action: Action, opening: bool, first: bool, out: list[Violation]) -> None:
        seat = action.seat
        contract = (action.contract or "").lower()
        if contract not in (FARBENSOLO, SOLO):
            out.append(
                self._v(
                    "auction.unknown_contract",
                    f"{self.who(seat)} declared {action.contract!r}, which is not a Zwanzigerrufen "
                    "contract (farbensolo or solo; the normal game is a call); it is ignored",
                    seat=seat,
                    contract=action.contract,
                )
            )
            return
        name = "Farbensolo" if contract == FARBENSOLO else "Solo"
        not_higher = False
        if opening:
            self.p1_opened = True
            if (
                self.required_call() is None
                and contract == FARBENSOLO
                and (self.opts["forehand_all_five"] == "solo_only")
            ):
                out.append(
                    self._v(
                        "auction.solo_required",
                        f"forehand {self.who(seat)} holds XX…XVI and must declare Solo, not "
                        "Farbensolo",
                        seat=seat,
                        contract=contract,
                    )
                )
        else:
            if seat == self.p1 and not self.p1_opened:
                self.p1_opened = True
            current = CONTRACT_RANK.get(self.contract or "", 0)
            not_higher = CONTRACT_RANK[contract] <= current
            if not_higher:
                out.append(
                    self._v(
                        "auction.not_higher",
                        f"{self.who(seat)} declared {name}, which does not overcall the current "
                        f"contract ({self.contract}); it is ignored",
                        seat=seat,
                        contract=contract,
                        current=self.contract,
                    )
                )
            # C5 (a)-(d): every condition that fails is reported, in that order; an overcall
            # that is higher is still applied, because the table evidently played it.
            if not self.open:
                out.append(
                    self._v(
                        "auction.contract_closed",
                        f"{self.who(seat)} declared {name} after the contract had closed (three "
                        "turns without a contract declaration)",
                        seat=seat,
                        contract=contract,
                    )
                )
            if not first:
                out.append(
                    self._v(
                        "auction.declaration_position",
                        f"{self.who(seat)} declared {name} after another declaration in the same "
                        "turn; an overcall must be the first declaration of a turn",
                        seat=seat,
                        contract=contract,
                    )
                )
            if seat in self.passed:
                out.append(
                    self._v(
                        "auction.already_passed",
                        f"{self.who(seat)} declared {name} but had already passed on the contract "
                        "in an earlier turn",
                        seat=seat,
                        contract=contract,
                    )
                )
            if seat == self.holder:
                out.append(
                    self._v(
                        "auction.own_contract",
                        f"{self.who(seat)} overcalled his own contract ({self.contract})",
                        seat=seat,
                        contract=contract,
                    )
                )
        if contract == FARBENSOLO:
            n = len(suit_cards(self.dealt[seat]))
            need = int(self.opts["farbensolo_min_suit_cards"])
            if n < need:
                out.append(
                    self._v(
                        "auction.farbensolo_ineligible",
                        f"{self.who(seat)} declared Farbensolo with {n} suit cards; at least "
                        f"{need} are required",
                        seat=seat,
                        suit_cards=n,
                        required=need,
                    )
                )
        if not opening and not_higher:
            return
        if self.game_level > 0 or self.announced:
            out.append(
                self._v(
                    "announce.voided_by_overcall",
                    f"{self.who(seat)}'s {name} voids the announcements and Kontras made so far "
                    "(they referred to another contract)",
                    seat=seat,
                )
            )
            self.history.append({"seat": seat, "type": "voided"})
        self.contract = contract
        self.holder = seat
        self.called = None
        self.partner = None
        self.game_level = 0
        self.announced = {}
        self.last_change = {}
        if self.history:  # an overcall (not the opening declaration): the game changed (C7)
            self.changed_turn = self.turns_done
        self.quiet = 0
        self.cur_had_contract = True
        self.cur_pending = []
        self.history.append({"seat": seat, "type": "bid", "contract": contract})

    # ------------------------------------------------------------------ announcements

    def _late(self, seat: int, target: str | None) -> bool:
        """True when ``responses_only`` forbids this declaration in a later turn (T3). A change
        of game since the seat's previous turn (an overcall) reopens everything to him: "after
        a change of game everybody may announce again" (C7)."""
        if self.opts["late_declarations"] != "responses_only" or seat not in self.last_turn:
            return False
        if self.changed_turn > self.last_turn[seat]:
            return False
        if target is None:
            return True
        return self.last_change.get(target, -1) <= self.last_turn[seat]

    def _announce(self, action: Action, out: list[Violation]) -> None:
        seat = action.seat
        bonus = (action.bonus or "").lower()
        if bonus == "pagat_ultimo":
            bonus = "pagat"
        if bonus not in BONUSES:
            why = (
                "card and event bonuses are claimed or scored, never announced"
                if bonus in NOT_ANNOUNCEABLE
                else "it is not a Zwanzigerrufen bonus"
            )
            out.append(
                self._v(
                    "announce.not_announceable",
                    f"{self.who(seat)} announced {action.bonus!r}: only Absolut, Pagat Ultimo and "
                    f"Valat can be announced ({why}); it is ignored",
                    seat=seat,
                    bonus=action.bonus,
                )
            )
            return
        own = self.side_of(seat)
        side = (action.side or "").lower()
        if side not in SIDES:
            out.append(
                self._v(
                    "announce.side_missing",
                    f"{self.who(seat)} announced {bonus} without saying dazu or dagegen; taken as "
                    f"{own}, his own side",
                    seat=seat,
                    bonus=bonus,
                    side=action.side,
                )
            )
            side = own
        elif side != own:
            out.append(
                self._v(
                    "announce.wrong_side",
                    f"{self.who(seat)} announced {LABELS[bonus]} {side} but plays for the "
                    f"{'declarer side' if own == 'dazu' else 'defenders'} ({own})",
                    seat=seat,
                    bonus=bonus,
                    side=side,
                )
            )
        ignored = False  # every rule broken is reported (N2, N3, N4, T3), then it is ignored
        if bonus == "pagat":
            if self.contract == FARBENSOLO:
                out.append(
                    self._v(
                        "announce.not_in_contract",
                        f"{self.who(seat)} announced Pagat Ultimo in a Farbensolo, where it does "
                        "not count; it is ignored",
                        seat=seat,
                        bonus=bonus,
                    )
                )
                ignored = True
            t1 = self.holder_of(PAGAT)
            if self.opts["pagat_announcer"] == "holder_only":
                if t1 != seat:
                    out.append(
                        self._v(
                            "announce.pagat_not_held",
                            f"{self.who(seat)} announced Pagat Ultimo without holding the Pagat "
                            "(only its holder may announce it); it is ignored",
                            seat=seat,
                            bonus=bonus,
                        )
                    )
                    ignored = True
            elif t1 is None or t1 not in self.side_seats(side):
                out.append(
                    self._v(
                        "announce.pagat_not_held",
                        f"{self.who(seat)} announced Pagat Ultimo {side}, but that side does not "
                        "hold the Pagat; it is ignored",
                        seat=seat,
                        bonus=bonus,
                    )
                )
                ignored = True
        existing = [k for k in self.announced if k[0] == bonus]
        if (bonus, side) in self.announced or (
            existing and self.opts["one_announcement_per_bonus"]
        ):
            out.append(
                self._v(
                    "announce.duplicate",
                    f"{self.who(seat)} announced {bonus}, which is already announced in this deal; "
                    "the other side can only Kontra it; it is ignored",
                    seat=seat,
                    bonus=bonus,
                )
            )
            ignored = True
        if self._late(seat, None):
            out.append(
                self._v(
                    "auction.late_declaration",
                    f"{self.who(seat)} announced {bonus} in a later turn; under responses_only he "
                    "may only raise what was announced or raised since his previous turn",
                    seat=seat,
                    bonus=bonus,
                )
            )
        if ignored:
            return
        turn = self.turns_done
        self.announced[(bonus, side)] = {"side": side, "seat": seat, "level": 0, "turn": turn}
        self.last_change[bonus] = turn
        self.history.append({"seat": seat, "type": "announce", "bonus": bonus, "side": side})
        if side == "dagegen":
            mode = self.opts["dagegen_kontra"]
            implied = (mode == "wiki" and bonus in ("absolut", "valat")) or mode == "auto_all"
            explicit = (mode == "wiki" and bonus == "pagat") or mode == "explicit_all"
            if implied and self.game_level == 0:
                self.game_level = 1
                self.last_change["game"] = turn
                self.history.append(
                    {"seat": seat, "type": "kontra", "target": "game", "level": 1, "implied": True}
                )
                out.append(
                    self._v(
                        "kontra.implied",
                        f"{self.who(seat)}'s {LABELS[bonus]} dagegen puts the game at Kontra (×2)",
                        seat=seat,
                        bonus=bonus,
                    )
                )
            elif explicit:
                self.cur_pending.append(bonus)

    def _kontra(self, action: Action, out: list[Violation]) -> None:
        seat = action.seat
        target = (action.target or "game").lower()
        if target == "pagat_ultimo":
            target = "pagat"
        if target == "game":
            current = self.game_level
            owner = self.declarer_side()
            key = None
        else:
            key = self.find_announced(target, seat, action.level)
            if key is None:
                out.append(
                    self._v(
                        "kontra.bad_target",
                        f"{self.who(seat)} gave Kontra on {target!r}, which is not an announced "
                        "bonus (only the game and announced bonuses can be doubled); it is ignored",
                        seat=seat,
                        target=target,
                    )
                )
                return
            current = self.announced[key]["level"]
            owner = self.side_seats(key[1])
        level = action.level if action.level is not None else current + 1
        ignored = False
        if level > self.max_level() or level <= current:
            out.append(
                self._v(
                    "kontra.level",
                    f"{self.who(seat)} declared level {level} on {target}, which stands at level "
                    f"{current}: each declaration raises it by exactly one level, up to "
                    f"{self.opts['max_kontra_level']}; it is ignored",
                    seat=seat,
                    target=target,
                    level=level,
                    current=current,
                )
            )
            ignored = True  # K4 and T3 are still judged (every rule it breaks is reported)
        elif level != current + 1:
            out.append(
                self._v(
                    "kontra.level",
                    f"{self.who(seat)} declared level {level} on {target}, which stands at level "
                    f"{current}: each declaration raises it by exactly one level",
                    seat=seat,
                    target=target,
                    level=level,
                    current=current,
                )
            )
        owner_side = seat in owner
        if (level % 2 == 1) == owner_side:
            name = KONTRA_NAMES.get(level, f"level {level}")
            label = "the game" if key is None else f"the {LABELS[target]} ({key[1]})"
            owner_desc = (
                "the declarer side"
                if key is None
                else f"the side that announced the {LABELS[target]}"
            )
            if level % 2 == 1:
                why = f"a {name} must come from the opponents of {owner_desc}, and he is on it"
            else:
                why = f"a {name} must come from {owner_desc}, and he is not on it"
            out.append(
                self._v(
                    "kontra.wrong_side",
                    f"{self.who(seat)} said {name} on {label}: {why}",
                    seat=seat,
                    target=target,
                    level=level,
                )
            )
        if self._late(seat, target):
            out.append(
                self._v(
                    "auction.late_declaration",
                    f"{self.who(seat)} raised {target} in a later turn although it was not "
                    "announced or raised since his previous turn (responses_only)",
                    seat=seat,
                    target=target,
                )
            )
        if ignored:
            return
        if key is None:
            self.game_level = level
        else:
            self.announced[key]["level"] = level
        self.last_change[target] = self.turns_done
        self.history.append({"seat": seat, "type": "kontra", "target": target, "level": level})
