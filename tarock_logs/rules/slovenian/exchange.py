"""King call, talon exchange and discards (spec section 6).

In tri/dva/ena with 4 active players the declarer calls a king; its holder is his secret
partner (none when he calls his own king, *samoruf*, or the king lies in the **talon**, the six
cards dealt apart). In the talon games he takes one group of the talon and lays away as many
cards (*zalaganje*): never a king or a trula card (pagat, mond, škis); other taroks only shown
(tournament) or only when nothing else is left (openspiel).

A mixin of :class:`~tarock_logs.rules.slovenian.hand.SlovenianHand` (its state lives there).
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock_logs.rules.base import Action, Violation
from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.rules.slovenian.state import HandFields, Phase
from tarock_logs.rules.slovenian.tricks import KINGS, PACK_SET, SUIT, TRULA, sort_cards


class ExchangeMixin(HandFields):
    """The king call, talon and discard phases of a hand."""

    def _call(self, a: Action) -> list[Violation]:
        out: list[Violation] = []
        if self.phase != "king_call":
            return [
                self._v(
                    "call.not_expected",
                    f"seat {a.seat} called {a.card}, but no king is called now "
                    f"(contract {self.contract}, phase {self.phase})",
                    a.seat,
                    a.card,
                )
            ]
        if a.seat != self.declarer:
            out.append(
                self._v(
                    "call.out_of_turn",
                    f"seat {a.seat} called a king, but seat {self.declarer} is the declarer",
                    a.seat,
                    a.card,
                )
            )
        king = a.card
        if king not in KINGS:
            out.append(
                self._v(
                    "call.not_a_king",
                    f"seat {a.seat} called {king}; only a king (HK DK SK CK) may be called",
                    a.seat,
                    king,
                )
            )
            return out
        d = self.declarer
        self.called_king = king
        self.partner = None
        self.king_in_talon = king in self.talon
        self.self_call = king in self.dealt[d]  # type: ignore[index]
        for s in self.active:
            if s != d and king in self.hands[s]:
                self.partner = s
        self.phase = Phase.TALON
        return out

    def _talon(self, a: Action) -> list[Violation]:
        if self.phase != "talon":
            return [
                self._v(
                    "talon.not_expected",
                    f"seat {a.seat} took a talon group, "
                    f"but contract {self.contract} has no talon exchange now",
                    a.seat,
                )
            ]
        out: list[Violation] = []
        if a.seat != self.declarer:
            out.append(
                self._v(
                    "talon.out_of_turn",
                    f"seat {a.seat} took a talon group, but seat {self.declarer} is the declarer",
                    a.seat,
                )
            )
        k = CONTRACTS[self.contract].talon  # type: ignore[index]
        g = a.group
        if g is None or not 0 <= g < 6 // k:
            out.append(
                self._v(
                    "talon.bad_group",
                    f"talon group {g} does not exist: {self.contract} splits the talon "
                    f"into {6 // k} groups of {k} (0..{6 // k - 1})",
                    a.seat,
                    group=g,
                    groups=6 // k,
                )
            )
            return out
        self.talon_group = g
        self.taken = self.talon[g * k : (g + 1) * k]
        self.hands[self.declarer].update(c for c in self.taken if c in PACK_SET)  # type: ignore[index]
        self.phase = Phase.DISCARD
        return out

    def _discard_ok(self, hand: set[str], card: str, others: Sequence[str] = ()) -> str | None:
        """Why the declarer may not discard ``card`` (None = allowed), spec 6.2."""
        if card in KINGS:
            return "king"
        if card in TRULA:
            return "trula"
        if self.rules.discard_only_if_forced and SUIT.get(card) == "T":
            rest = [
                c
                for c in hand
                if c != card and c not in others and SUIT.get(c) != "T" and c not in KINGS
            ]
            if rest:
                return "tarok_not_forced"
        return None

    def _legal_discards(self) -> list[Action]:
        d = self.declarer
        hand = self.hands[d]  # type: ignore[index]
        out = []
        for c in sort_cards(hand):
            if self._discard_ok(hand, c) is None:
                shown = (c,) if SUIT[c] == "T" else ()
                out.append(Action("discard", d, cards=(c,), shown=shown))  # type: ignore[arg-type]
        return out

    def _discard(self, a: Action) -> list[Violation]:
        if self.phase != "discard":
            return [
                self._v(
                    "discard.count",
                    f"seat {a.seat} discarded {' '.join(a.cards)} but no (further) discard is due",
                    a.seat,
                    discarded=list(a.cards),
                )
            ]
        d = self.declarer
        out: list[Violation] = []
        if a.seat != d:
            out.append(
                self._v(
                    "discard.out_of_turn",
                    f"seat {a.seat} discarded, but seat {d} is the declarer",
                    a.seat,
                )
            )
        k = CONTRACTS[self.contract].talon  # type: ignore[index]
        hand = self.hands[d]  # type: ignore[index]
        cards = list(a.cards)
        if len(self.discards) + len(cards) > k:
            out.append(
                self._v(
                    "discard.count",
                    f"seat {d} discarded {len(self.discards) + len(cards)} cards; "
                    f"{self.contract} lays away exactly {k}",
                    d,
                    discarded=len(self.discards) + len(cards),
                    required=k,
                )
            )
            self.detected.append(("wrong_discard", d, "discard.count"))
        wrong = False
        for c in cards:
            if c not in hand:
                out.append(
                    self._v(
                        "discard.not_in_hand",
                        f"seat {d} discarded {c}, which he does not hold",
                        d,
                        c,
                    )
                )
                continue
            why = self._discard_ok(hand, c, cards)
            if why == "king":
                out.append(
                    self._v(
                        "discard.king",
                        f"seat {d} discarded the king {c}; kings may never be laid away",
                        d,
                        c,
                    )
                )
                wrong = True
            elif why == "trula":
                out.append(
                    self._v(
                        "discard.trula",
                        f"seat {d} discarded {c}; pagat, mond and škis may never be laid away",
                        d,
                        c,
                    )
                )
                wrong = True
            elif why == "tarok_not_forced":
                out.append(
                    self._v(
                        "discard.tarok_not_forced",
                        f"seat {d} discarded the tarok {c} while holding cards that "
                        "are neither taroks nor kings",
                        d,
                        c,
                    )
                )
                wrong = True
            elif SUIT[c] == "T" and c not in a.shown and not self.rules.discard_only_if_forced:
                out.append(
                    self._v(
                        "discard.tarok_not_shown",
                        f"seat {d} discarded the tarok {c} without showing it",
                        d,
                        c,
                    )
                )
                wrong = True
            hand.discard(c)
            self.discards += (c,)
            if SUIT[c] == "T":
                self.shown += (c,)
        if wrong:
            self.detected.append(("wrong_discard", d, out[-1].code))
        if len(self.discards) >= k:
            self._enter_announcements()
        return out
