"""What a Slovenian tarok player sees at a card of the play (the shape of
:mod:`tarock_logs.rules.sight`; /work/shared/rules/slovenian-tarok.md).

**The places.** A card's place is known to the viewer when it is in his own hand, was
played, lies in the talon of a contract with a talon exchange (the talon is turned up for
everyone), was shown when laid away (taroks), was laid away by the viewer himself (the
declarer), is a klop talon card already added to a trick, or is in the declarer's hand of an
odprti berač after the first trick. Every other card is **hidden**; its places are the other
players' hands, the declarer's discards (to everyone else), the talon of a contract without
an exchange (unseen until the end), the klop talon cards still to come (one place each, in
order). What the viewer saw restricts them:

* a player who did not follow the suit led holds none of it; one who played neither the suit
  led nor a tarock holds no tarok either (follow suit and tarok compulsion hold in every
  contract; only plays the engine judged legal count, an illegal card tells nothing);
* the talon group the declarer took (everyone saw it) is in his hand or his discards;
* the discards hold no king and no trula card, and no unshown tarok (unless the ruleset lets
  taroks be laid away unshown when forced);
* announcements constrain through the protection rule only (an announced pagat or ultimo
  king is not played early unless forced: the play check below); the rulebook lets any member
  of a side announce an ultimo without holding the card, so its holder is not inferred;
* the called king: its holder is the declarer's partner (the declarer himself on a self-call),
  so every layout fixes the sides.

**The play check**: every earlier legal card of a hidden hand must be legal again when that
hand is rebuilt from the layout (the cards it holds now plus those it played since): this
adds what the overtaking rules of klop and berač, the pagat rule and the protected ultimo
cards reveal.
"""

from __future__ import annotations

from collections.abc import Iterable

from tarock_logs.cards import KINGS, PACKS, TRULA
from tarock_logs.rules.sight import Layout, Restriction, Sight, in_order, played_cards
from tarock_logs.rules.slovenian.contracts import ALONE, CONTRACTS
from tarock_logs.rules.slovenian.hand import SlovenianHand, make_play_rules
from tarock_logs.rules.slovenian.tricks import SUIT

__all__ = ["apply_layout", "sight"]

ORDER = tuple(PACKS["slovenian"])


def _sorted(cards: Iterable[str]) -> tuple[str, ...]:
    return in_order(cards, ORDER)


def _played(h: SlovenianHand) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every card played so far: (seat, card, the cards of its trick before it)."""
    return played_cards([*(t.cards for t in h.tricks), tuple(h.trick)])


def sight(h: SlovenianHand, seat: int, illegal: Iterable[str] = ()) -> Sight:
    """What ``seat`` sees in the card play of ``h`` (the engine at that moment, with every
    hand); ``illegal``: cards played so far that the engine judged illegal (they tell
    nothing about the hand they came from)."""
    bad = set(illegal)
    row = CONTRACTS[h.contract] if h.contract else CONTRACTS[ALONE]
    d = h.declarer
    klop = row.alone
    exchange = bool(row.talon) and d is not None and not klop
    places: dict[str, tuple[str, ...]] = {}
    for s in h.active:
        if s == seat or (row.open_hand and s == d and h.tricks):
            continue
        places[f"seat {s}"] = _sorted(h.hands[s])
    if exchange and seat != d:
        places["discards"] = _sorted(x for x in h.discards if x not in h.shown)
    if klop:
        for i in range(len(h.tricks), len(h.talon)):
            places[f"talon {i}"] = (h.talon[i],)
    elif not exchange:
        places["talon"] = _sorted(h.talon)
    places = {k: v for k, v in places.items() if v}
    hidden = [x for v in places.values() for x in v]
    rs: list[Restriction] = []
    played = _played(h)
    # voids shown by failing to follow suit (and failing to play a tarock)
    for s, card, before in played:
        if not before or card in bad or f"seat {s}" not in places:
            continue
        led = SUIT[before[0]]
        if SUIT[card] != led:
            me = frozenset({f"seat {s}"})
            rs.append(Restriction(tuple(x for x in hidden if SUIT[x] == led), me,
                                  f"seat {s} is void in {led}", exclude=True))  # fmt: skip
            if SUIT[card] != "T":
                rs.append(Restriction(tuple(x for x in hidden if SUIT[x] == "T"), me,
                                      f"seat {s} holds no tarok", exclude=True))  # fmt: skip
    # the talon group taken, and what the discards can hold
    if "discards" in places:
        rs.append(Restriction(tuple(h.taken), frozenset({f"seat {d}", "discards"}),
                              "the talon group taken is the declarer's"))  # fmt: skip
        never = tuple(x for x in hidden if x in KINGS or x in TRULA
                      or (SUIT[x] == "T" and not h.rules.discard_only_if_forced))  # fmt: skip
        rs.append(Restriction(never, frozenset({"discards"}),
                              "kings, trula and unshown taroks are never laid away",
                              exclude=True))  # fmt: skip
    # the play check: earlier legal cards of hidden hands (follow suit and tarok compulsion
    # are the voids above; only the overtaking and pagat rules of the negative contracts and
    # the protected ultimo cards say more)
    rules = make_play_rules(h.rules, row.code, h.colour_valat())
    prot: list[str] = []
    if h.rules.protection and not row.negative:
        if "pagat_ultimo" in h.ann:
            prot.append("T1")
        if "kralj_ultimo" in h.ann and h.called_king:
            prot.append(h.called_king)
    checks: list[tuple[int, str, tuple[str, ...], tuple[str, ...]]] = []
    if rules.negative or rules.pagat_restricted or prot:
        for k, (s, card, before) in enumerate(played):
            if card in bad or f"seat {s}" not in places:
                continue
            since = tuple(x for s2, x, _ in played[k:] if s2 == s)
            checks.append((s, card, before, since))

    def check(layout: Layout) -> bool:
        for s, card, before, since in checks:
            held = layout.get(f"seat {s}")
            if held is None:
                continue
            legal, _ = rules.legal(set(held) | set(since), list(before), tuple(prot))
            if card not in legal:
                return False
        return True

    def deal(layout: Layout) -> SlovenianHand:
        hc = h.copy()
        apply_layout(hc, layout)
        return hc

    return Sight(seat, tuple(places.items()), tuple(rs), check if checks else None, deal,
                 ORDER)  # fmt: skip


def apply_layout(h: SlovenianHand, layout: Layout) -> None:
    """Put ``layout`` into ``h`` (changed in place): the hidden hands, discards and talon
    cards, and the partner (the holder of the called king) with it."""
    talon = list(h.talon)
    for name, cards in layout.items():
        if name.startswith("seat "):
            h.hands[int(name[5:])] = set(cards)
        elif name == "discards":
            h.discards = (*(x for x in h.discards if x in h.shown), *cards)
        elif name == "talon":
            talon = list(cards)
        else:
            talon[int(name[6:])] = cards[0]
    h.talon = tuple(talon)
    king = h.called_king
    if king and not h.king_in_talon and h.declarer is not None:
        for s in h.active:
            if king in h.hands[s]:
                h.partner = None if s == h.declarer else s
                h.self_call = s == h.declarer
                break
