"""Shared helpers for the Royal Tarock tests: deals, bidding turns and trick layouts.

Seats in playing order with dealer 3: the attackers (party "A" of the spec's examples) are
seat 0 (Abfänger, dealt XIX) and seat 1 (Eintreiber, dealt XX, leads trick 1); the defenders
(party "B") are seat 2 (Abfänger) and seat 3 (Eintreiber, the dealer).

The worked examples of royal-tarock.md §7.3 give only the facts of the play that matter for
the score (who brought home which card, who was first to five tricks). The trick layouts
below are constructed to produce exactly those facts; the scoring tests push them through the
engine (leniently) and look at the score only. Legal play is covered by the sample log and
the invariant tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tarock_logs.cards import PACKS, sort_cards
from tarock_logs.rules.base import Action, HandScore, Violation
from tarock_logs.rules.royal import ENGINE, RoyalHand

DEALER = 3
A1, A2, B1, B2 = 0, 1, 2, 3

Trick = Sequence[tuple[int, str]]


def deal_of(tricks: Sequence[Trick]) -> list[list[str]]:
    """The dealt hands implied by ten complete tricks (each seat's cards)."""
    hands: list[list[str]] = [[], [], [], []]
    for t in tricks:
        assert sorted(s for s, _ in t) == [0, 1, 2, 3], t
        for s, c in t:
            hands[s].append(c)
    flat = [c for h in hands for c in h]
    assert sorted(flat) == sorted(PACKS["royal"]), "the layout must use the 40-card pack once"
    return [sort_cards(h, "royal") for h in hands]


def T(text: str) -> list[tuple[int, str]]:
    """A trick written as ``"2:T21 3:T6 0:T2 1:T7"`` (seat:card in play order)."""
    out = []
    for tok in text.split():
        s, c = tok.split(":")
        out.append((int(s), c))
    return out


def new_hand(hands: Sequence[Sequence[str]], dealer: int = DEALER, **options: Any) -> RoyalHand:
    rs = ENGINE.ruleset("royal-gerots-2023", options or None)
    return RoyalHand(rs, dealer, hands)


def turns(*spec: Sequence[Action] | int) -> list[Action]:
    """Bidding turns: an int is an empty turn (a pass) by that seat, a list of actions is a
    turn by their seat closed by a pass."""
    out: list[Action] = []
    for t in spec:
        if isinstance(t, int):
            out.append(Action("pass", t))
        else:
            out.extend(t)
            out.append(Action("pass", t[0].seat))
    return out


def meld(seat: int, mid: str, **params: Any) -> Action:
    return Action("meld", seat, meld=mid, params=tuple(sorted(params.items())))


def ann(seat: int, sid: str, raises: str | None = None) -> Action:
    return Action("announce", seat, bonus=sid, raises=raises)


def kontra(seat: int, target: str) -> Action:
    return Action("kontra", seat, target=target, level=1)


def push_all(hand: RoyalHand, actions: Sequence[Action]) -> list[Violation]:
    found: list[Violation] = []
    for a in actions:
        found += hand.push(a)
    return found


def play_layout(hand: RoyalHand, tricks: Sequence[Trick]) -> list[Violation]:
    """Push the cards of a constructed layout (see the module docstring)."""
    return push_all(hand, [Action("play", s, card=c) for t in tricks for s, c in t])


def game(
    tricks: Sequence[Trick], bidding: Sequence[Action], **options: Any
) -> tuple[RoyalHand, HandScore]:
    """A whole game from a trick layout and the bidding; returns the hand and its score."""
    hand = new_hand(deal_of(tricks), **options)
    bid_found = push_all(hand, bidding)
    assert [v for v in bid_found if v.severity == "error"] == [], bid_found
    assert hand.phase == "play", "the bidding must have closed"
    play_layout(hand, tricks)
    assert hand.is_over()
    return hand, hand.score()


def party_items(score: HandScore, seat: int) -> dict[str, int]:
    """The lines one seat writes, summed by item."""
    out: dict[str, int] = {}
    for it in score.items:
        if it.seat == seat:
            out[it.item] = out.get(it.item, 0) + it.value
    return out


def fixture_catalogue(*items: Mapping[str, Any]) -> dict[str, Any]:
    """A user catalogue extending the built-in one with fixture items (test data only)."""
    return {
        "extends": "royal-gerots-2023",
        "catalogue": "test-fixtures",
        "items": [{"status": "fixture", "source": "test", **it} for it in items],
    }


def bound_item(item_id: str, card: str, trick: int, value: int) -> dict[str, Any]:
    """A fixture bound-card Schlemm: ``card`` must win trick ``trick`` (and is bound to it)."""
    return {
        "id": item_id,
        "group": "bound",
        "value": value,
        "bindings": [{"card": card, "trick": trick}],
        "condition": {"trick_won_with": {"trick": trick, "card": card}},
    }


# --------------------------------------------------------------------------- layouts

#: E1: A brings home XX, Sküs, XXI and XVIII and is first to five tricks; B brings home all
#: four kings (and its own Pagat); seat 0 holds all hearts, seat 1 exactly 8 tarocks.
E1_TRICKS = [
    T(x)
    for x in (
        "0:T22 1:T21 2:T18 3:SN",
        "0:T19 1:T20 2:S10 3:C10",
        "0:T5 1:T17 2:SQ 3:CN",
        "0:T4 1:T16 2:CJ 3:CQ",
        "0:T3 1:T15 2:DQ 3:DN",
        "2:T11 3:T6 0:HK 1:T9",
        "2:T10 3:CK 0:HQ 1:T8",
        "2:DK 3:T12 0:HN 1:T7",
        "3:T13 0:HJ 1:DJ 2:SK",
        "3:T14 0:T2 1:SJ 2:T1",
    )
]

#: E2: B (seats 2, 3) takes 3 tricks and not the Pagat; A brings home every king.
E2_TRICKS = [
    T(x)
    for x in (
        "1:T21 2:T1 3:T6 0:T2",
        "1:T20 2:T10 3:C10 0:T19",
        "1:T17 2:T11 3:CN 0:T22",
        "0:HK 1:T16 2:DK 3:CK",
        "0:HQ 1:T15 2:SK 3:CQ",
        "0:HN 1:T9 2:T18 3:T12",
        "2:DQ 3:T13 0:T5 1:DJ",
        "3:T14 0:T4 1:T8 2:SQ",
        "3:DN 0:T3 1:T7 2:S10",
        "0:HJ 1:SJ 2:CJ 3:SN",
    )
]

#: E3 (and E4's mirror), dealt as E5 (B holds XXI): A takes 7 tricks, XIX ends in B's tricks
#: (under B's XXI), DK in A's; no silent premium for anybody.
E3_TRICKS = [
    T(x)
    for x in (
        "2:T21 3:T6 0:T19 1:T7",
        "1:T20 2:T10 3:C10 0:T2",
        "0:T22 1:T8 2:T11 3:CN",
        "2:T1 3:T12 0:HK 1:DJ",
        "3:T13 0:T4 1:T9 2:DQ",
        "3:DN 0:T3 1:T18 2:DK",
        "1:T17 2:SQ 3:T14 0:T5",
        "1:T16 2:SK 3:CK 0:HQ",
        "1:T15 2:S10 3:CQ 0:HN",
        "0:HJ 1:SJ 2:CJ 3:SN",
    )
]

#: E4: A takes only 4 tricks and DK ends in B's tricks; no silent premium for anybody.
E4_LOST_TRICKS = [
    T(x)
    for x in (
        "1:T21 2:T10 3:C10 0:T22",
        "1:T20 2:T11 3:CN 0:T19",
        "1:T17 2:SQ 3:SN 0:T5",
        "1:T16 2:SK 3:CK 0:T4",
        "2:T18 3:T6 0:T3 1:T15",
        "2:T1 3:T12 0:HK 1:T7",
        "3:T13 0:T2 1:T8 2:DQ",
        "2:DK 3:T14 0:HQ 1:T9",
        "3:DN 0:HN 1:DJ 2:S10",
        "3:CQ 0:HJ 1:SJ 2:CJ",
    )
]

#: E5: B holds XXI and wins a trick with it, B is first to five tricks, A brings home the
#: Sküs; no 4 Könige, Lauer or Mondfang.
E5_TRICKS = [
    T(x)
    for x in (
        "2:T21 3:T6 0:T2 1:T7",
        "2:T11 3:T12 0:T3 1:T8",
        "3:T13 0:T4 1:T9 2:T10",
        "3:T14 0:T5 1:DJ 2:T1",
        "3:DN 0:HK 1:SJ 2:DK",
        "0:T22 1:T20 2:DQ 3:CK",
        "0:T19 1:T18 2:SQ 3:CQ",
        "1:T17 2:SK 3:CN 0:HQ",
        "1:T16 2:S10 3:C10 0:HN",
        "1:T15 2:CJ 3:SN 0:HJ",
    )
]

#: E6: seat 0 holds all hearts and the four kings (Flush and Wonok); A takes every trick,
#: brings home XX, Sküs, its own XXI-capturing Sküs takes B's XXI, and all four kings.
E6_TRICKS = [
    T(x)
    for x in (
        "2:T21 3:T2 0:T22 1:T12",
        "1:T20 2:T9 3:T3 0:T19",
        "1:T18 2:T10 3:T4 0:T1",
        "0:HK 1:T17 2:DQ 3:T5",
        "0:DK 1:T16 2:DN 3:T6",
        "0:SK 1:T15 2:SQ 3:T7",
        "0:CK 1:T14 2:CJ 3:T8",
        "0:HQ 1:T13 2:T11 3:CQ",
        "0:HN 1:DJ 2:SN 3:CN",
        "0:HJ 1:SJ 2:S10 3:C10",
    )
]

#: E8: B1 plays its Pagat into A's trick, B2 its XXI under A1's Sküs; B first to five.
E8_TRICKS = [
    T(x)
    for x in (
        "1:T20 2:T1 3:T6 0:T2",
        "0:T22 1:T15 2:SQ 3:T21",
        "2:T14 3:SN 0:T3 1:T7",
        "3:T13 2:S10 0:T4 1:T8",
        "3:T12 2:CJ 0:T5 1:T9",
        "2:T11 3:C10 0:HK 1:DJ",
        "2:T10 3:CN 0:HQ 1:SJ",
        "2:DK 3:DN 0:HN 1:T18",
        "2:DQ 3:CK 0:HJ 1:T17",
        "2:SK 3:CQ 0:T19 1:T16",
    )
]
