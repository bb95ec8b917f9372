"""One game of Royal Tarock as a state machine (royal-tarock.md §3–§7).

Seats are in counter-clockwise playing order. The dealer is always the Eintreiber of the
defending pair, and in playing order each pair's Abfänger (the partner on the left) comes just
before its Eintreiber, so the dealer ``d`` fixes everything: the defenders are seats ``d-1``
(Abfänger) and ``d`` (Eintreiber), the attackers ``d+1`` (Abfänger, dealt XIX) and ``d+2``
(Eintreiber, dealt XX, leads the first trick).

Phases: ``bidding`` (turns of Meldungen, announcements and contras, each closed by a ``pass``
"Weiter!"; over after three empty turns in a row following the last non-empty one, or four
empty turns if nobody said anything), ``play`` (ten tricks) and ``done``. A ``throw_in`` before
the bidding annuls the deal (a player with fewer than three tarocks, or a misdeal).

Push is lenient: an illegal but possible action is applied and reported. Physically impossible
actions (a card the player does not hold, a second card to one trick) raise ``ValueError``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from copy import deepcopy
from dataclasses import replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from tarock_logs.cards import PACKS, sort_cards
from tarock_logs.rules.base import (
    Action,
    DealInfo,
    HandScore,
    HandState,
    Irregularity,
    Ruleset,
    Violation,
)
from tarock_logs.rules.royal.bidding import ATT, DEF, PARTY_NAMES, Bidding
from tarock_logs.rules.royal.codes import violation
from tarock_logs.rules.royal.rulesets import options_of
from tarock_logs.rules.royal.scoring import score_game
from tarock_logs.rules.royal.tricks import Bound, follows_suit_rules, judge, trick_winner

_PACK = PACKS["royal"]
_PACK_SET = frozenset(_PACK)
_BIDDING_TYPES = frozenset({"meld", "announce", "kontra", "pass"})
_SUIT_NAMES = {"T": "tarock", "H": "hearts", "D": "diamonds", "S": "spades", "C": "clubs"}


#: each seat's card plays (actions are frozen, so :meth:`RoyalHand.legal_actions` hands out
#: these rather than new ones at every card)
_PLAY_ACTIONS: Final[tuple[dict[str, Action], ...]] = tuple(
    {c: Action("play", s, card=c) for c in sorted(_PACK_SET)} for s in range(4)
)


class Phase(StrEnum):
    """The phases of a game (a ``StrEnum``: ``Phase.PLAY == "play"``). A hand is in
    ``bidding``, ``play`` or ``done``; ``deal`` is where a throw-in belongs (before the first
    turn of the bidding: the hand reads ``bidding`` then)."""

    DEAL = "deal"
    BIDDING = "bidding"
    PLAY = "play"
    DONE = "done"


#: the phase each action type belongs to
PHASE_OF_TYPE: Final[Mapping[str, Phase]] = MappingProxyType(
    {
        "throw_in": Phase.DEAL,
        **dict.fromkeys(sorted(_BIDDING_TYPES), Phase.BIDDING),
        "play": Phase.PLAY,
    }
)


def bidding_over(nonempty: Sequence[bool]) -> bool:
    """§4.2's end condition over the turns so far (True = something was said)."""
    if not any(nonempty):
        return len(nonempty) >= 4
    k = 0
    for t in reversed(nonempty):
        if t:
            break
        k += 1
    return k >= 3


def trick_views(
    tricks: Sequence[tuple[tuple[tuple[int, str], ...], int]],
) -> list[dict[str, Any]]:
    """The completed tricks ``(((seat, card), ...), winner)`` as ``view()["tricks"]`` gives
    them (Royal Tarock counts tricks, not card points: ``points`` is 0, in the unit
    ``"tricks"`` of :attr:`RoyalEngine.trick_points_unit`)."""
    return [
        {
            "leader": cards[0][0],
            "cards": [[s, c] for s, c in cards],
            "winner": w,
            "points": 0,
            "points_unit": "tricks",
        }
        for cards, w in tricks
    ]


class RoyalHand(HandState):
    """One Royal Tarock game (see the module docstring)."""

    table_size = 4

    def __init__(
        self,
        ruleset: Ruleset,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        irregularities: Sequence[Irregularity] = (),
        *,
        session_findings: Sequence[Violation] = (),
        pairs: tuple[tuple[int, int], tuple[int, int]] | None = None,
        deal: DealInfo | None = None,
    ) -> None:
        """``pairs``: the two fixed pairs as recorded, each (Abfänger, Eintreiber); the dealer's
        pair defends. Without them the dealer is taken to be the defending Eintreiber (§3.2)
        and the pairs are derived from his seat. ``deal``: how the hand was dealt (the cut)."""
        if len(hands) != 4:
            raise ValueError(f"Royal Tarock is played by four players, not {len(hands)}")
        if not 0 <= dealer < 4:
            raise ValueError(f"dealer seat {dealer} is not at the table")
        for s, h in enumerate(hands):
            bad = [c for c in h if c not in _PACK_SET]
            if bad:
                raise ValueError(f"seat {s} holds {', '.join(bad)}: not in the Royal Tarock pack")
        self._init = (
            ruleset,
            dealer,
            tuple(tuple(h) for h in hands),
            tuple(talon),
            tuple(irregularities),
            tuple(session_findings),
            pairs,
            deal,
        )
        self.ruleset = ruleset
        opts = options_of(ruleset)
        self.opts = opts.values
        self.catalogue = opts.catalogue
        self.dealer = dealer
        self.dealt: tuple[tuple[str, ...], ...] = self._init[2]
        self.talon = tuple(talon)
        self.irregularities = tuple(irregularities)
        self.session_findings = list(session_findings)
        d = dealer
        self.deal = deal or DealInfo()
        self.recorded_pairs = pairs
        #: (Abfänger, Eintreiber) of the attackers and of the defenders
        self.parties: tuple[tuple[int, int], tuple[int, int]]
        if pairs is not None:
            defending = next(p for p in pairs if d in p)
            attacking = next(p for p in pairs if d not in p)
            self.parties = (attacking, defending)
        else:
            self.parties = (((d + 1) % 4, (d + 2) % 4), ((d - 1) % 4, d))
        self._party = {s: p for p, seats in enumerate(self.parties) for s in seats}
        self.phase = Phase.BIDDING
        self.actions: list[Action] = []
        self.thrown_in = False
        self.throwin_seat: int | None = None
        self._started = False  # a non-throw-in action has been pushed
        self.bidding = Bidding(
            ruleset, self.catalogue, self.opts, self.party_of, self.who, self.dealt
        )
        self.turns: list[tuple[int, bool]] = []
        self.cur_seat: int | None = None
        self.cur_items: list[str] = []
        self.opener_convention: str | None = None
        self.held: list[list[str]] = [list(h) for h in self.dealt]
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[tuple[tuple[tuple[int, str], ...], int]] = []
        self.leader = self.ein_att
        self._bind_cache: dict[tuple[int, int], dict[str, list[Bound]]] = {}

    # ------------------------------------------------------------------ who is who

    @property
    def ein_att(self) -> int:
        """The attackers' Eintreiber: receives XX, cuts, leads trick 1."""
        return self.parties[ATT][1]

    def party_of(self, seat: int) -> int:
        return self._party[seat]

    def who(self, seat: int) -> str:
        p = self._party.get(seat)
        if p is None:
            return f"seat {seat}"
        role = "Abfänger" if self.parties[p][0] == seat else "Eintreiber"
        return f"seat {seat} ({role}, {PARTY_NAMES[p]})"

    # ------------------------------------------------------------------ deal facts

    def short_hands(self) -> list[int]:
        """Seats whose dealt hand forces a throw-in: not 10 cards or fewer than 3 tarocks."""
        return [
            s
            for s, h in enumerate(self.dealt)
            if len(h) != 10 or sum(1 for c in h if c[0] == "T") < 3
        ]

    def deal_is_a_pack(self) -> bool:
        return Counter(c for h in self.dealt for c in h) == Counter(_PACK) and not self.talon

    def throwin_required(self) -> bool:
        return bool(self.short_hands()) or not self.deal_is_a_pack()

    # ------------------------------------------------------------------ protocol

    def to_move(self) -> int | None:
        if self.phase == Phase.DONE:
            return None
        if self.phase == Phase.BIDDING:
            return self.cur_seat if self.cur_seat is not None else self.expected_opener()
        return self._next_player()

    def expected_opener(self) -> int:
        return self.dealer if self.opts["bidding_opener"] == "dealer" else self.ein_att

    def _next_player(self) -> int:
        if not self.trick:
            return self.leader
        played = {s for s, _ in self.trick}
        s = self.trick[-1][0]
        for k in range(1, 5):
            n = (s + k) % 4
            if n not in played:
                return n
        return self.leader

    def check(self, action: Action) -> list[Violation]:
        return self._process(action, apply=False)

    def push(self, action: Action) -> list[Violation]:
        found = self._process(action, apply=True)
        self.actions.append(action)
        if action.type != "throw_in":
            self._started = True
        return found

    def copy(self) -> RoyalHand:
        """An independent copy (its pushes and pops leave this hand alone); the ruleset, its
        options and the catalogue, which never change, are shared."""
        shared = (self.ruleset, self.opts, self.catalogue)
        return deepcopy(self, {id(x): x for x in shared})

    def pop(self) -> Action:
        if not self.actions:
            raise IndexError("pop from a hand with no actions")
        last = self.actions[-1]
        fresh = RoyalHand(
            *self._init[:5], session_findings=self._init[5], pairs=self._init[6], deal=self._init[7]
        )
        for a in self.actions[:-1]:
            fresh.push(a)
        self.__dict__.update(fresh.__dict__)
        self.bidding.party_of, self.bidding.who = self.party_of, self.who
        return last

    def is_over(self) -> bool:
        return self.phase == Phase.DONE

    # ------------------------------------------------------------------ dispatch

    def _v(self, code: str, msg: str, seat: int | None = None, **kw: Any) -> Violation:
        return violation(self.ruleset, code, msg, seat=seat, **kw)

    def _process(self, a: Action, apply: bool) -> list[Violation]:
        if not 0 <= a.seat < 4:
            raise ValueError(f"seat {a.seat} is not at the table")
        t = a.type
        if t == "throw_in":
            return self._throw_in(a, apply)
        if self.phase == Phase.DONE:
            if t == "play" and apply:
                raise ValueError(f"{a}: the game is over, no card can be played")
            why = "the deal was thrown in" if self.thrown_in else "all ten tricks are played"
            return [
                self._v(
                    "action.after_end",
                    f"{self.who(a.seat)}: {t} after the end of the game ({why}): ignored",
                    a.seat,
                    card=a.card,
                )
            ]
        out: list[Violation] = []
        if not self._started:
            short = self.short_hands()
            if short or not self.deal_is_a_pack():
                why = (
                    ", ".join(
                        f"{self.who(s)} holds {len(self.dealt[s])} cards with "
                        f"{sum(1 for c in self.dealt[s] if c[0] == 'T')} tarocks"
                        for s in short
                    )
                    or "the deal is not the 40-card pack in four hands of ten"
                )
                out.append(
                    self._v(
                        "throw_in.required",
                        f"the game was played although it had to be thrown in: {why}",
                        a.seat,
                        short_seats=short,
                    )
                )
        if t in _BIDDING_TYPES:
            if self.phase != Phase.BIDDING:
                out.append(
                    self._v(
                        "bidding.after_close",
                        f"{self.who(a.seat)}: {t} after the bidding had closed (three passes in a "
                        "row): ignored",
                        a.seat,
                    )
                )
                return out
            out += self._turn(a, apply)
            if t == "pass":
                if apply:
                    self._close_turn(a.seat)
            else:
                seq = len(self.actions)
                handler = {
                    "meld": self.bidding.meld,
                    "announce": self.bidding.announce,
                    "kontra": self.bidding.kontra,
                }[t]
                out += handler(a, seq, apply)
                if apply:
                    self.cur_items.append(t)
            return out
        if t == "play":
            return out + self._play(a, apply)
        out.append(
            self._v(
                "action.unknown",
                f"{self.who(a.seat)}: {t!r} is not an action of Royal Tarock (no "
                "auction, talon or king call): ignored",
                a.seat,
            )
        )
        return out

    # ------------------------------------------------------------------ throw-in

    def _throw_in(self, a: Action, apply: bool) -> list[Violation]:
        out: list[Violation] = []
        if self.phase == Phase.DONE:
            return [
                self._v(
                    "throw_in.after_end",
                    f"{self.who(a.seat)}: throw-in after the end of the game: ignored",
                    a.seat,
                )
            ]
        h = self.dealt[a.seat]
        taroks = sum(1 for c in h if c[0] == "T")
        own = len(h) != 10 or taroks < 3
        if self._started or self.actions:
            out.append(
                self._v(
                    "throw_in.unjustified",
                    f"{self.who(a.seat)} threw in after the bidding had begun; a deal is checked "
                    "and annulled right after it is picked up",
                    a.seat,
                )
            )
        elif not own and self.deal_is_a_pack():
            out.append(
                self._v(
                    "throw_in.unjustified",
                    f"{self.who(a.seat)} threw in holding 10 cards with {taroks} tarocks: only a "
                    "player with fewer than 3 tarocks or a faulty deal annuls the game",
                    a.seat,
                    tarocks=taroks,
                )
            )
        if apply:
            self.thrown_in = True
            self.throwin_seat = a.seat
            self.phase = Phase.DONE
        return out

    # ------------------------------------------------------------------ bidding turns

    def _turn(self, a: Action, apply: bool) -> list[Violation]:
        seat = a.seat
        if self.cur_seat is None:
            conv = {self.dealer: "dealer", self.ein_att: "attacking_eintreiber"}.get(seat)
            if apply:
                self.cur_seat = seat
                self.opener_convention = conv or "neither"
            if conv is None:
                return [
                    self._v(
                        "bidding.wrong_opener",
                        f"{self.who(seat)} opened the bidding; it is opened by the dealer (seat "
                        f"{self.dealer}) or, by the other reading of the seed, by the attackers' "
                        f"Eintreiber (seat {self.ein_att})",
                        seat,
                    )
                ]
            return []
        if seat == self.cur_seat:
            return []
        v = self._v(
            "bidding.out_of_turn",
            f"{self.who(seat)} spoke when it was the turn of {self.who(self.cur_seat)}",
            seat,
        )
        if apply:
            if self.cur_items:
                self._record_turn(self.cur_seat)
            self.cur_seat = seat
        return [v]

    def _record_turn(self, seat: int) -> None:
        said = bool(self.cur_items) and (
            self.opts["meld_only_turn_resets"] or any(t != "meld" for t in self.cur_items)
        )
        self.turns.append((seat, said))
        self.cur_items = []

    def _close_turn(self, seat: int) -> None:
        self._record_turn(seat)
        self.cur_seat = (seat + 1) % 4
        if bidding_over([s for _, s in self.turns]):
            self.phase = Phase.PLAY
            self.leader = self.ein_att

    # ------------------------------------------------------------------ play

    def bindings(self, seat: int) -> dict[str, list[Bound]]:
        """Bound cards of ``seat``: from every Schlemm his pair announced (raised-from ones
        included: their duties stay in force, §6.2), for the cards he was dealt."""
        key = (seat, len(self.bidding.instances))
        hit = self._bind_cache.get(key)
        if hit is not None:
            return hit
        out: dict[str, list[Bound]] = {}
        p = self.party_of(seat)
        for inst in self.bidding.instances:
            if inst.party != p:
                continue
            item = self.catalogue.get(inst.item_id)
            for b in item.bindings if item is not None else ():
                if b.card in self.dealt[seat]:
                    out.setdefault(b.card, []).append(Bound(b.trick, inst.seq))
        self._bind_cache[key] = out
        return out

    def _play(self, a: Action, apply: bool) -> list[Violation]:
        out: list[Violation] = []
        seat, card = a.seat, a.card or ""
        closing = self.phase == Phase.BIDDING
        if closing:
            out.append(
                self._v(
                    "bidding.not_closed",
                    f"{self.who(seat)} played {card} before the bidding had closed (it needs "
                    "three passes in a row, four if nobody spoke)",
                    seat,
                    card=card,
                )
            )
            trick: list[tuple[int, str]] = []
            expected = self.ein_att
        else:
            trick = self.trick
            expected = self._next_player()
        if card not in self.held[seat]:
            v = self._v(
                "play.not_in_hand",
                f"{self.who(seat)} played {card}, which he does not hold",
                seat,
                card=card,
            )
            if apply:
                raise ValueError(v.message)
            return out + [v]
        if any(s == seat for s, _ in trick):
            v = self._v(
                "play.second_card",
                f"{self.who(seat)} played a second card ({card}) to trick {len(self.tricks) + 1}",
                seat,
                card=card,
            )
            if apply:
                raise ValueError(v.message)
            return out + [v]
        if seat != expected:
            why = (
                "leads trick 1"
                if not self.tricks and not trick
                else ("leads (won the last trick)" if not trick else "is next")
            )
            out.append(
                self._v(
                    "play.out_of_turn",
                    f"{self.who(seat)} played {card}, but {self.who(expected)} {why}",
                    seat,
                    card=card,
                )
            )
        trick_no = len(self.tricks) + 1
        bound = self.bindings(seat)
        if bound or not follows_suit_rules(self.held[seat], trick, card):
            j = judge(self.held[seat], trick, trick_no, bound)
            if card not in j.legal:
                out.append(self._card_violation(seat, card, trick, trick_no, j))
        if apply:
            if closing:
                self.phase = Phase.PLAY
                self.leader = self.ein_att
            self.held[seat].remove(card)
            self.trick.append((seat, card))
            if len(self.trick) == 4:
                w = trick_winner(self.trick)
                self.tricks.append((tuple(self.trick), w))
                self.trick = []
                self.leader = w
                if not any(self.held):
                    self.phase = Phase.DONE
        return out

    def _card_violation(
        self, seat: int, card: str, trick: Sequence[tuple[int, str]], trick_no: int, j: Any
    ) -> Violation:
        legal = ", ".join(sort_cards(list(j.legal), "royal"))
        if card not in j.suit_legal:
            led = trick[0][1][0]
            same = sort_cards([c for c in self.held[seat] if c[0] == led], "royal")
            if same:
                need = f"{_SUIT_NAMES[led]} must be followed"
                facts = {"need": "follow", "led": led, "held": same}
            else:
                need = f"void in {_SUIT_NAMES[led]}, he must play a tarock"
                taroks = sort_cards([c for c in self.held[seat] if c[0] == "T"], "royal")
                facts = {"need": "trump", "led": led, "held": taroks}
            return self._v(
                "play.illegal_card",
                f"{self.who(seat)} played {card} in trick {trick_no}: {need} (legal: {legal})",
                seat,
                card=card,
                legal=sort_cards(list(j.legal), "royal"),
                **facts,
            )
        if j.due_now:
            return self._v(
                "play.bound_card_held_back",
                f"{self.who(seat)} played {card} in trick {trick_no}, the trick his bound "
                f"card {legal} is bound to: it must be played there (legal: {legal})",
                seat,
                card=card,
            )
        if j.free:
            return self._v(
                "play.bound_card_early",
                f"{self.who(seat)} played the bound card {card} early in trick {trick_no} "
                f"although he had another choice (legal: {legal})",
                seat,
                card=card,
            )
        return self._v(
            "play.bound_order",
            f"{self.who(seat)} could play only bound cards in trick {trick_no} and played "
            f"{card}; he must play the one bound most recently (legal: {legal})",
            seat,
            card=card,
        )

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        if self.phase == Phase.DONE:
            return []
        if not self.actions and self.throwin_required():
            seats = self.short_hands() if self.deal_is_a_pack() else list(range(4))
            return [Action("throw_in", s) for s in seats]
        seat = self.to_move()
        assert seat is not None
        if self.phase == Phase.PLAY:
            j = judge(self.held[seat], self.trick, len(self.tricks) + 1, self.bindings(seat))
            plays = _PLAY_ACTIONS[seat]
            return [
                plays.get(c) or Action("play", seat, card=c)
                for c in sort_cards(list(j.legal), "royal")
            ]
        out = self._bidding_actions(seat)
        if self.cur_seat is None:  # the opening turn: §3.5's two readings of the seed
            other = self.ein_att if seat == self.dealer else self.dealer
            out += self._bidding_actions(other)
        return out

    def _bidding_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may say in his turn of the bidding (a pass, melds, announcements,
        kontras). Before the bidding is opened both the dealer and the attackers' Eintreiber
        may open it (the ruleset's ``bidding_opener`` is the one :meth:`to_move` names; the
        other reading is taken without a finding), so both are offered."""
        out = [Action("pass", seat)]
        out += self.bidding.meld_candidates(seat)
        out += self._schlemm_actions(seat)
        return out

    def _schlemm_actions(self, seat: int) -> tuple[Action, ...]:
        """The announcements and kontras ``seat`` may make. They depend on the seat and on
        the Schlemme and contras made so far, which are only ever added to (a raise
        supersedes the Schlemme it raises, and voids or moves their contras, as it is
        added): worked out once per seat and number of each (:attr:`Bidding.offers`), and
        taken from there in the seat's later turns while nobody announced or contra'd."""
        b = self.bidding
        key = (seat, len(b.instances), len(b.contras))
        known = b.offers.get(key)
        if known is not None:
            return known
        out: list[Action] = []
        seq = len(self.actions)
        act = b.active(self.party_of(seat))  # (asking changes nothing)
        for item in self.catalogue.items.values():
            if item.is_meldung or item.silent or not item.announceable:
                continue
            below = self.catalogue.raised_by(item.id)
            related = [i for i in act if i.item_id in below]
            # a raise may name any active item of the pair that it raises (each is a form the
            # rules accept, the latest one first); a direct announcement names none
            targets = sorted({i.item_id: i.seq for i in related}.items(), key=lambda t: -t[1])
            names: list[str | None] = [t[0] for t in targets]
            for raises in names or [None]:
                a = Action("announce", seat, bonus=item.id, raises=raises)
                if not b.announce(a, seq, apply=False):
                    out.append(a)
        for inst in b.active(1 - self.party_of(seat)):
            a = Action("kontra", seat, target=inst.item_id, level=1)
            if not b.kontra(a, seq, apply=False):
                out.append(a)
        known = b.offers[key] = tuple(out)
        return known

    # ------------------------------------------------------------------ results

    def tricks_won(self) -> tuple[int, int]:
        att = sum(1 for _, w in self.tricks if self.party_of(w) == ATT)
        return att, len(self.tricks) - att

    def score(self) -> HandScore:
        if self.phase != Phase.DONE:
            raise ValueError(f"the game is not over (phase {self.phase})")
        if self.thrown_in:
            return HandScore(totals=(0, 0, 0, 0), items=(), card_points={"thrown_in": True})
        att, dfn = self.tricks_won()
        info = {
            "tricks_attackers": att,
            "tricks_defenders": dfn,
            "bidding_opener": self.opener_convention,
        }
        score = score_game(
            catalogue=self.catalogue,
            options=self.opts,
            parties=self.parties,
            dealt=self.dealt,
            tricks=self.tricks,
            bidding=self.bidding,
            card_info=info,
        )
        if self.irregularities:
            kinds = ", ".join(sorted({i.type for i in self.irregularities}))
            note = (
                f"recorded irregularities ({kinds}) are not applied: Royal Tarock's penalties "
                "are unknown (royal-tarock.md §8.1 item 16)"
            )
            score = replace(score, unverified=(*score.unverified, note))
        return score

    def hand_findings(self) -> list[Violation]:
        """Hand-level findings: the dealer and the cut (§3.2, §3.3; by the recorded pairs, or
        from the session) and the deal (§3.3)."""
        out = list(self.session_findings)
        ein_def = self.parties[DEF][1]
        if self.recorded_pairs is not None and self.dealer != ein_def:
            out.append(
                self._v(
                    "deal.dealer_not_eintreiber",
                    f"{self.who(self.dealer)} dealt: the cards must always be dealt by the "
                    f"defending pair's Eintreiber, {self.who(ein_def)} (§3.2)",
                    self.dealer,
                    expected=ein_def,
                )
            )
        cut = self.deal.cut_by
        if cut is not None and cut != self.ein_att:
            out.append(
                self._v(
                    "deal.wrong_cutter",
                    f"{self.who(cut)} cut the pack: the attacking pair's Eintreiber, "
                    f"{self.who(self.ein_att)}, cuts (§3.3)",
                    cut,
                    expected=self.ein_att,
                )
            )
        if self.thrown_in:
            return out
        if self.talon:
            out.append(
                self._v(
                    "deal.not_the_pack",
                    f"a talon of {len(self.talon)} cards was dealt: Royal Tarock has none",
                )
            )
        counts = Counter(c for h in self.dealt for c in h)
        dup = sorted(c for c, n in counts.items() if n > 1)
        missing = [c for c in _PACK if c not in counts]
        if dup or missing:
            out.append(
                self._v(
                    "deal.not_the_pack",
                    "the deal is not the 40-card pack: "
                    + "; ".join(
                        x
                        for x in (
                            f"dealt twice: {', '.join(dup)}" if dup else "",
                            f"missing: {', '.join(missing)}" if missing else "",
                        )
                        if x
                    ),
                )
            )
        abf_att, ein_att = self.parties[ATT]
        xix_to = (
            abf_att
            if self.opts["xix_recipient"] == "attacking_abfaenger"
            else (self.parties[DEF][0])
        )
        for card, to in (("T19", xix_to), ("T20", ein_att)):
            if card not in self.dealt[to]:
                holder = next((s for s, h in enumerate(self.dealt) if card in h), None)
                out.append(
                    self._v(
                        "deal.honours",
                        f"{card} belongs to {self.who(to)} before the deal, but "
                        + (
                            f"{self.who(holder)} holds it"
                            if holder is not None
                            else "nobody holds it"
                        ),
                        to,
                        card=card,
                    )
                )
        return out

    # ------------------------------------------------------------------ view

    def timeline_state(self, keys: Sequence[str]) -> dict[str, Any]:
        """:meth:`view`'s values under ``keys``; the trick on the table alone (which the
        simulated players look at before every card) read without building the whole view."""
        if tuple(keys) == ("trick",):
            return {"trick": [[s, c] for s, c in self.trick]}
        return super().timeline_state(keys)

    def view(self) -> dict[str, Any]:
        b = self.bidding
        bids: list[list[Any]] = []
        turn: list[str] = []
        for a in self.actions:
            if a.type in ("meld", "announce", "kontra"):
                label = a.meld or a.bonus or f"kontra {a.target}"
                if a.type == "announce" and a.raises:
                    label += f" (raises {a.raises})"
                turn.append(label)
            elif a.type == "pass":
                bids.append([a.seat, ", ".join(turn + ["weiter"]) if turn else "pass"])
                turn = []
        return {
            "phase": self.phase,
            "to_move": self.to_move(),
            "hands": [sort_cards(h, "royal") for h in self.held],
            "trick": [[s, c] for s, c in self.trick],
            "tricks": trick_views(self.tricks),
            "talon": [],
            "discards": [],
            "contract": None,
            "declarer": None,
            "partner": None,
            "bids": bids,
            "announcements": [
                {
                    "seat": m.seat,
                    "bonus": m.item_id,
                    "kind": "meld",
                    "params": dict(m.params),
                    "valid": m.valid,
                }
                for m in b.melds
            ]
            + [
                {
                    "seat": i.announcer,
                    "bonus": i.item_id,
                    "kind": "schlemm",
                    "party": PARTY_NAMES[i.party],
                    "active": i.active,
                    "raises": [b.instances[j].item_id for j in i.raised_from],
                }
                for i in b.instances
            ],
            "kontras": [
                {
                    "seat": c.seat,
                    "target": b.instances[c.target].item_id,
                    "level": 1,
                    "void": c.void,
                }
                for c in b.contras
            ],
            "dealer": self.dealer,
            "pairs": {PARTY_NAMES[p]: list(seats) for p, seats in enumerate(self.parties)},
            "tricks_won": dict(zip(PARTY_NAMES, self.tricks_won(), strict=True)),
            "thrown_in": self.thrown_in,
            "bidding_opener": self.opener_convention,
        }
