"""The deal as :class:`SlovenianHand` takes it (seating from a fixed table, the deal check with
its shortcut for the usual 54 distinct cards) against a plain statement of the same rules
(spec 1.5, 3.2, 3.4), on clean deals and planted faults at tables of 3, 4 and 5 under both
rulesets: the same findings (codes, seats, parameters, order), the same seats, hands and
carried values."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.tricks import PACK, PACK_SET, SUIT, sort_cards
from tests.rules.slovenian.randomgame import random_deal


def _plain_deal_check(h: Any) -> list[tuple[Any, ...]]:
    """Spec 3.4 in plain words (what the check reported before its shortcuts)."""
    r = h.rules
    n = h.table_size
    out: list[tuple[Any, ...]] = []
    if n not in r.table_sizes:
        out.append(("deal.table_size", None, {"allowed": list(r.table_sizes)}))
    allcards = list(h.talon)
    for s in range(n):
        allcards += h.dealt[s]
    seen: dict[str, int] = {}
    for c in allcards:
        if c not in PACK_SET:
            out.append(("deal.unknown_card", None, {"token": c}))
        seen[c] = seen.get(c, 0) + 1
    dups = sorted(c for c, k in seen.items() if k > 1)
    if dups:
        out.append(("deal.duplicate_card", None, {"cards": dups}))
    missing = sort_cards(PACK_SET - set(seen))
    if missing:
        out.append(("deal.missing_card", None, {"cards": missing}))
    if len(h.talon) != 6:
        out.append(("deal.talon_size", None, {"size": len(h.talon)}))
    want = 48 // (4 if n == 5 else n) if n in (3, 4, 5) else 12
    for s in range(n):
        size = len(h.dealt[s])
        if n == 5 and s == h.dealer:
            if size:
                out.append(("deal.sitting_out_has_cards", s, {}))
        elif size != want:
            out.append(("deal.hand_size", s, {"size": size, "expected": want}))
    if r.redeal_without_taroks:
        for s in h.active:
            if not any(SUIT.get(c) == "T" for c in h.dealt[s]):
                out.append(("deal.no_tarok", s, {}))
    return out


def _plant(
    rng: random.Random, hands: list[list[str]], talon: list[str], n: int, dealer: int
) -> tuple[list[list[str]], list[str]]:
    hands = [list(x) for x in hands]
    talon = list(talon)
    active = [s for s in range(n) if not (n == 5 and s == dealer)]
    kind = rng.randrange(9)
    s = rng.choice(active)
    if kind == 0:  # a card dealt twice (and one missing)
        hands[s][0] = rng.choice(hands[rng.choice(active)][1:] or talon)
    elif kind == 1:  # a token outside the pack
        hands[s][rng.randrange(len(hands[s]))] = rng.choice(["XX", "T23", "H9", ""])
    elif kind == 2:  # the talon one card short or long
        talon = talon[:5] if rng.random() < 0.5 else [*talon, hands[s].pop()]
    elif kind == 3:  # a hand one card short
        hands[s].pop()
    elif kind == 4 and n == 5:  # the sitting-out dealer holds a card
        hands[dealer].append(hands[s].pop())
    elif kind == 5:  # a hand without a tarok (void under openspiel-2.0)
        taroks = [c for c in hands[s] if c.startswith("T")]
        others = [c for x in active if x != s for c in hands[x] if not c.startswith("T")]
        for c in taroks[: len(others)]:
            o = others.pop()
            x = next(x for x in active if o in hands[x])
            i, j = hands[s].index(c), hands[x].index(o)
            hands[s][i], hands[x][j] = o, c
    elif kind == 6:  # the log lists fewer hands than seats
        hands = hands[:-1]
    elif kind == 7:  # ... or more
        hands = [*hands, []]
    return hands, talon


@pytest.mark.parametrize("ruleset", ["tournament", "openspiel"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_deal_check_and_seating_equal_the_plain_rules(ruleset: str, n: int) -> None:
    rng = random.Random(f"deal:{ruleset}:{n}")
    found: set[str] = set()
    for i in range(400):
        dealer = rng.randrange(n)
        hands, talon = random_deal(rng, n, dealer)
        if i % 4:
            hands, talon = _plant(rng, hands, talon, n, dealer)
        radelci = [rng.randrange(3) for _ in range(rng.choice((n - 1, n, n + 1)))]
        ss = ENGINE.new_session(ENGINE.ruleset(ruleset), n)
        ss.radelci = radelci  # a log may record a list of another length
        h = ss.new_hand(dealer, hands, talon)
        got = [(v.code, v.seat, {k: v.params[k] for k in v.params}) for v in h.deal_violations]
        want = _plain_deal_check(h)
        assert [(c, s) for c, s, _ in got] == [(c, s) for c, s, _ in want], (hands, talon)
        for (_, _, gp), (_, _, wp) in zip(got, want, strict=True):
            assert all(gp.get(k) == v for k, v in wp.items())
        found.update(c for c, _, _ in got)
        # the seats, hands and carried values the hand starts from
        active = tuple((dealer + k) % n for k in range(1, 5 if n == 5 else n + 1))
        assert h.active == active and h.p1 == active[0] and h.n_active == len(active)
        assert h.pos == {s: k for k, s in enumerate(active)}
        assert h._next_seat == {s: active[(k + 1) % len(active)] for k, s in enumerate(active)}
        assert h._order == {s: active[k:] + active[:k] for k, s in enumerate(active)}
        assert h.tricks_total == 48 // len(active)
        assert h.dealt == tuple(tuple(hands[s]) if s < len(hands) else () for s in range(n))
        assert h.hands == [{c for c in x if c in PACK_SET} for x in h.dealt]
        assert h.radelci_before == (tuple(radelci) + (0,) * n)[:n]
    assert {
        "deal.duplicate_card",
        "deal.missing_card",
        "deal.unknown_card",
        "deal.talon_size",
        "deal.hand_size",
    } <= found
    if n == 5:
        assert "deal.sitting_out_has_cards" in found
    if ruleset == "openspiel":
        assert "deal.no_tarok" in found
        assert (n == 5) == ("deal.table_size" in found)


def test_the_pack_order_is_the_card_id_order() -> None:
    from tarock_logs.rules.slovenian.fast.cardbits import CARD

    assert CARD == tuple(PACK) and len(set(CARD)) == 54
