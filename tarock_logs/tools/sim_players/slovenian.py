"""Simple heuristic players for Slovenian tarok.

Good enough to produce games that look like club play (mostly *tri*, *dva*, *ena* and *klop*,
sometimes a solo, rarely *berač* or valat), not to play well. Every decision is a choice among
the engine's legal actions:

* **Bidding**: a hand-strength score (taroks, high taroks, škis T22 and mond T21, kings, queens,
  voids and singletons) maps to the contract a player is prepared to play; he bids up one step
  at a time towards it, jumps directly to solos and higher, and passes otherwise. Forehand (P1,
  who holds the "mandatory three") chooses *klop* (everybody for himself, take as few points as
  possible) with a weak hand when everybody else passed.
* **King call**: a king the declarer does not hold, of the suit where he holds most cards.
* **Talon** (the 6 cards dealt apart): the group with most value (taroks, points, the mond);
  **discards** (*zalaganje*): low cards that void a short suit.
* **Announcements** (*napovedi*) and **kontra** (doubling by the other side): trula (T1, T21, T22)
  or kralji (all four kings) when held, an occasional pagat ultimo with many taroks; a kontra on
  the game by an opponent with a strong hand, now and then.
* **Card play**: win a trick that carries points with the cheapest winning card, smear points
  onto a trick the own side is winning (*šmir*), otherwise throw the least valuable card; in
  negative games (klop, berač) keep under the trick.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any, Final

from tarock_logs.cards import CARDS, KINGS, SUITS
from tarock_logs.rules.base import Action, HandState
from tarock_logs.rules.slovenian.contracts import ALONE, CONTRACTS, LADDER, MANDATORY
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.rules.slovenian.state import Phase
from tarock_logs.rules.slovenian.tricks import sort_cards

#: Contract codes by bidding rank (klop is never bid, only declared by forehand).
RANK = {c: i for i, c in enumerate(LADDER)}


def _negative(contract: str | None) -> bool:
    """A negative game (klop, berač): keep under the trick."""
    return contract is not None and contract in CONTRACTS and CONTRACTS[contract].negative


# --------------------------------------------------------------------------- card helpers


#: each card's suit, strength, points and :func:`power` (looked up at every card of a simulation)
_SUIT: Final = {t: c.suit for t, c in CARDS.items()}
_STRENGTH: Final = {t: c.strength for t, c in CARDS.items()}
POINTS: Final = {t: c.points for t, c in CARDS.items()}
POWER: Final = {t: 100 + c.strength if c.suit == "T" else c.strength for t, c in CARDS.items()}


def is_tarok(card: str) -> bool:
    return card[0] == "T"


def power(card: str) -> int:
    """A single ordering for "how high is this card": taroks above every suit card."""
    return POWER[card]


def trick_winner_index(cards: Sequence[str], colour_valat: bool = False) -> int:
    """Index of the winning card in a (possibly incomplete) trick, per the rules' §8.2."""
    has_trula = "T1" in cards and "T21" in cards and "T22" in cards
    led = _SUIT[cards[0]]
    if has_trula and (not colour_valat or led == "T"):
        return cards.index("T1")
    best = 0
    best_suit, best_strength = led, _STRENGTH[cards[0]]  # (the best card's so far)
    for i in range(1, len(cards)):
        suit, strength = _SUIT[cards[i]], _STRENGTH[cards[i]]
        if colour_valat:
            better = suit == led and strength > best_strength
        elif suit == "T":
            better = best_suit != "T" or strength > best_strength
        else:
            better = best_suit != "T" and suit == led and strength > best_strength
        if better:
            best, best_suit, best_strength = i, suit, strength
    return best


def taking_cards(
    trick: Sequence[str], cards: Sequence[str], colour_valat: bool = False
) -> list[str]:
    """The cards of ``cards`` that would take the trick so far if played next."""
    on_table = [*trick, ""]  # (each card in turn, as the next one)
    n = len(trick)
    out = []
    for c in cards:
        on_table[n] = c
        if trick_winner_index(on_table, colour_valat) == n:
            out.append(c)
    return out


def strength(hand: Sequence[str]) -> float:
    """A rough hand-strength score (about 10 for an average 12-card hand, 25+ for a solo)."""
    taroks = [CARDS[c].strength for c in hand if is_tarok(c)]
    s = 1.0 * len(taroks) + 0.6 * sum(1 for t in taroks if t >= 15)
    s += 2.5 * ("T22" in hand) + 2.0 * ("T21" in hand) + 0.5 * ("T1" in hand and len(taroks) >= 7)
    for suit in SUITS:
        n = sum(1 for c in hand if c[0] == suit)
        s += 2.0 * (suit + "K" in hand) + 0.7 * (suit + "Q" in hand)
        if n == 0:
            s += 1.5 * (len(taroks) >= 4)
        elif n == 1:
            s += 0.6
    return s * 12.0 / max(len(hand), 1)


def beggar_hand(hand: Sequence[str]) -> bool:
    """A hand fit for *berač* (take no trick): few, low taroks and low suit cards."""
    taroks = [CARDS[c].strength for c in hand if is_tarok(c)]
    high_suit = sum(1 for c in hand if not is_tarok(c) and CARDS[c].strength >= 6)
    return len(taroks) <= 2 and all(t <= 9 for t in taroks) and high_suit <= 2 and "T1" not in hand


def desired_contract(hand: Sequence[str], active: int, rng: Random) -> str | None:
    """The highest contract this hand is prepared to play (None: would rather pass / klop)."""
    s = strength(hand) + rng.uniform(-1.5, 1.5)
    if beggar_hand(hand) and rng.random() < 0.9:
        return "berac"
    if s >= 28.5:
        return "valat"
    if s >= 24:
        return "solo_brez"
    if active == 4:
        if s >= 21.5:
            return "solo_one"
        if s >= 20.3:
            return "solo_two"
        if s >= 19:
            return "solo_three"
    if s >= 17:
        return "one"
    if s >= 15.2:
        return "two"
    if s >= 9.8:
        return "three"
    return None


# --------------------------------------------------------------------------- the policy


def _view_of(state: HandState, play: bool = False) -> dict[str, Any]:
    """What the players read of ``state.view()``: its ``hands``, ``trick``, ``talon``,
    ``contract``, ``declarer`` and ``partner``. A :class:`SlovenianHand`'s are read off the
    hand instead of building the whole view at every decision (a third of a simulated hand's
    time went into views); in the play (``play``) the hands are the hand's own sets, of which
    the players count the seats alone. Another state (a test's stand-in) gives its view."""
    if type(state) is not SlovenianHand:
        return state.view()
    hands = state.hands
    return {
        "hands": hands if play else [sort_cards(h) for h in hands],
        "trick": state.trick,
        "talon": state.talon,
        "contract": state.contract,
        "declarer": state.declarer,
        "partner": state.partner,
    }


class SlovenianPolicy:
    """Heuristic choices for every phase of a Slovenian hand (see the module docstring)."""

    def choose(
        self, state: HandState, legal: Sequence[Action], rng: Random, memo: dict[str, Any]
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = legal[0].seat
        if legal[0].type == "play" or any(a.type == "play" for a in legal):
            view = _view_of(state, play=True)
            return self._play(view, seat, [a for a in legal if a.type == "play"], memo, rng)
        types = {a.type for a in legal}
        view = _view_of(state)
        if "bid" in types and state.phase == Phase.BIDDING:
            return self._bid(view, seat, legal, memo, rng)
        if types == {"call"}:
            return self._call(view, seat, legal)
        if types == {"talon"}:
            return self._talon(view, legal)
        if "discard" in types:
            return self._discard(view, seat, [a for a in legal if a.type == "discard"])
        if types & {"announce", "kontra", "lezim", "pass"}:
            return self._announce(view, seat, legal, memo, rng)
        return legal[0]

    # ------------------------------------------------------------------ bidding

    def _bid(
        self,
        view: dict[str, Any],
        seat: int,
        legal: Sequence[Action],
        memo: dict[str, Any],
        rng: Random,
    ) -> Action:
        hand = view["hands"][seat]
        active = sum(1 for h in view["hands"] if h)
        key = f"desire{seat}"
        if key not in memo:
            memo[key] = desired_contract(hand, active, rng)
        want: str | None = memo[key]
        bids = {a.contract: a for a in legal if a.type == "bid" and a.contract}
        passes = [a for a in legal if a.type == "pass"]
        if ALONE in bids:  # forehand after everybody passed: klop is on offer
            if want is None:
                return bids[ALONE]
            if want in bids and rng.random() < 0.85:
                return bids[want]
            if _negative(want):  # a beggar hand without berač on offer: klop suits it
                return bids[ALONE]
            return bids.get(MANDATORY, bids[ALONE])
        if not passes:  # final declaration: keep the held bid, or raise to a solo/higher
            lowest = min(bids, key=lambda c: RANK.get(c, 99))
            if (
                want in bids
                and RANK[want] > RANK[lowest]
                and (CONTRACTS[want].solo or rng.random() < 0.5)
            ):
                return bids[want]
            return bids[lowest]
        if want is None:
            return passes[0]
        wanted_rank = RANK[want]
        affordable = sorted(
            (c for c in bids if RANK.get(c, 99) <= wanted_rank), key=RANK.__getitem__
        )
        if not affordable:
            return passes[0]
        if CONTRACTS[want].solo and want in bids:  # a solo (berač too): bid it straight away
            return bids[want]
        return bids[affordable[0]]

    # ------------------------------------------------------------------ king call, talon

    def _call(self, view: dict[str, Any], seat: int, legal: Sequence[Action]) -> Action:
        hand = view["hands"][seat]
        options = [a for a in legal if a.card not in hand] or list(legal)
        return max(
            options,
            key=lambda a: (
                sum(1 for c in hand if c[0] == (a.card or "H")[0]),
                -KINGS.index(a.card) if a.card in KINGS else 0,
            ),
        )

    def _talon(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        talon: list[str] = list(view.get("talon") or [])
        if len(talon) != 6:
            return legal[0]
        k = 6 // len(legal)

        def value(a: Action) -> float:
            g = talon[(a.group or 0) * k : ((a.group or 0) + 1) * k]
            v = sum(CARDS[c].points + (2.0 if is_tarok(c) else 0.0) for c in g)
            return v + 30.0 * ("T21" in g) + 5.0 * any(c in KINGS for c in g)

        return max(legal, key=lambda a: (value(a), -(a.group or 0)))

    def _discard(self, view: dict[str, Any], seat: int, legal: Sequence[Action]) -> Action:
        hand: list[str] = list(view["hands"][seat])
        held = Counter(hand)
        per_suit = Counter(c[0] for c in hand)

        def cost(a: Action) -> float:
            lost = 0.0
            for c in a.cards:
                card = CARDS[c]
                lost += 20.0 + card.strength if card.suit == "T" else 2.0 * card.points
            gone: dict[str, int] = {}  # the held cards of each suit that ``a`` lays away
            for c in set(a.cards):
                gone[c[0]] = gone.get(c[0], 0) + held[c]
            voids = sum(1 for s in SUITS if per_suit[s] == gone.get(s, 0))  # (none of s left)
            return lost - 6.0 * voids

        return min(legal, key=lambda a: (cost(a), a.cards))

    # ------------------------------------------------------------------ announcements, kontra

    def _announce(
        self,
        view: dict[str, Any],
        seat: int,
        legal: Sequence[Action],
        memo: dict[str, Any],
        rng: Random,
    ) -> Action:
        hand = view["hands"][seat]
        declarer, partner = view.get("declarer"), view.get("partner")
        main_side = seat == declarer or (partner is not None and seat == partner)
        done: set[str] = memo.setdefault(f"said{seat}", set())
        finish = [a for a in legal if a.type in ("lezim", "pass")]
        for a in legal:
            key = f"{a.type}:{a.bonus or a.target}"
            if key in done or a.type not in ("announce", "kontra"):
                continue
            if a.type == "announce" and main_side and a.bonus in ("trula", "kralji"):
                need = ("T1", "T21", "T22") if a.bonus == "trula" else KINGS
                if all(c in hand for c in need) and rng.random() < 0.7:
                    done.add(key)
                    return a
            if a.type == "announce" and seat == declarer and a.bonus == "pagat_ultimo":
                taroks = sum(1 for c in hand if is_tarok(c))
                if "T1" in hand and taroks >= 8 and rng.random() < 0.5:
                    done.add(key)
                    return a
            if a.type == "kontra" and not main_side and a.target == "game" and (a.level or 1) == 1:
                if strength(hand) >= 14.5 and rng.random() < 0.4:
                    done.add(key)
                    return a
            if a.type == "kontra" and seat == declarer and a.target not in (None, "game"):
                if rng.random() < 0.15:
                    done.add(key)
                    return a
        if finish:
            return finish[0]
        return next((a for a in legal if a.type not in ("announce", "kontra")), legal[0])

    # ------------------------------------------------------------------ card play

    def _play(
        self,
        view: dict[str, Any],
        seat: int,
        legal: Sequence[Action],
        memo: dict[str, Any],
        rng: Random,
    ) -> Action:
        contract = view.get("contract")
        declarer, partner = view.get("declarer"), view.get("partner")
        trick: list[tuple[int, str]] = [(int(s), str(c)) for s, c in (view.get("trick") or [])]
        row = CONTRACTS.get(contract) if contract is not None else None
        colour_valat = row is not None and row.colour_valat
        cards = [a.card for a in legal if a.card]
        by_card = {a.card: a for a in legal}
        if row is None or row.alone:
            team = {seat}
        elif seat == declarer or seat == partner:
            team = {s for s in (declarer, partner) if s is not None}
        else:
            team = {s for s in range(len(view["hands"])) if s not in (declarer, partner)}

        def lowest(cs: list[str]) -> str:
            return min(cs, key=lambda c: (POINTS[c], POWER[c], c == "T1", c))

        if not trick:
            return by_card[self._lead(cards, contract, seat == declarer, team, rng)]

        last = len(trick) >= self._active_count(view, trick) - 1
        on_table = [c for _, c in trick]
        winners = taking_cards(on_table, cards, colour_valat)
        trick_points = sum(POINTS[c] for c in on_table)
        current = trick[trick_winner_index(on_table, colour_valat)]
        if _negative(contract):
            if (row is not None and row.alone) or seat == declarer:
                safe = [c for c in cards if c not in winners]
                if safe:
                    return by_card[max(safe, key=lambda c: (power(c), CARDS[c].points))]
                return by_card[max(cards, key=lambda c: (power(c), -CARDS[c].points))]
            return by_card[lowest(cards)]
        if current[0] in team and (
            last or power(current[1]) >= 115 or (not is_tarok(current[1]) and current[1][1] == "K")
        ):
            # the own side is winning: smear points (but not a trula tarok)
            non_honours = [c for c in cards if c not in ("T1", "T21", "T22") and c not in winners]
            pool = non_honours or cards
            return by_card[max(pool, key=lambda c: (CARDS[c].points, -power(c)))]
        if winners and (trick_points >= 3 or last or rng.random() < 0.35):
            cheap = [c for c in winners if c != "T21" or last] or winners
            return by_card[min(cheap, key=lambda c: (power(c), c))]
        non_pagat = [c for c in cards if c != "T1"] or cards
        return by_card[lowest(non_pagat)]

    @staticmethod
    def _active_count(view: dict[str, Any], trick: list[tuple[int, str]]) -> int:
        n = len(view["hands"])
        return 4 if n == 5 else n

    @staticmethod
    def _lead(
        cards: list[str], contract: str | None, is_declarer: bool, team: set[int], rng: Random
    ) -> str:
        if _negative(contract):
            return min(cards, key=lambda c: (power(c), c))
        non_pagat = [c for c in cards if c != "T1"] or cards
        taroks = [c for c in non_pagat if is_tarok(c)]
        if is_declarer and len(taroks) >= 4 and rng.random() < 0.6:
            return max(taroks, key=power) if "T22" in taroks else min(taroks, key=power)
        suits = [c for c in non_pagat if not is_tarok(c)]
        if suits:
            kings = [c for c in suits if c[1] == "K"]
            if kings and rng.random() < 0.4:
                return kings[0]
            return min(suits, key=lambda c: (CARDS[c].points, power(c), c))
        return min(non_pagat, key=power)
