"""Random card-play positions of every contract, reached through the Slovenian engine, and an
exhaustive minimax over the engine itself (the oracle the solver is tested against).

A position is made the way a table makes it: a shuffled pack is dealt, the bidding is steered
to the wanted contract, the king call, talon, discards, announcements and kontras are chosen
at random among the engine's ``legal_actions()``, and then random legal cards are played until
the wanted number of tricks is left (and a few cards of the next trick, at random).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

import pytest

from tarock_logs import _native
from tarock_logs.analysis.outcome import score_value
from tarock_logs.analysis.position import Position, Setting, read_position
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.tools.simulate import deal_pack

#: a test that values a deep position (the disputed sample's illegal card, 10 tricks left):
#: seconds with the C extension, many minutes in pure Python (a package built without a
#: compiler), where it is skipped (docs/analysis.md, "Build")
needs_native = pytest.mark.skipif(
    not _native.available(),
    reason=f"values a 10-trick position, minutes in pure Python; native core: {_native.why_not}",
)

#: contracts per table size (3 active players: no king call, no solo tri/dva/ena)
CONTRACTS_4 = ("klop", "three", "two", "one", "solo_three", "solo_two", "solo_one", "berac",
               "solo_brez", "odprti_berac", "barvni_valat", "valat")  # fmt: skip
CONTRACTS_3 = ("klop", "three", "two", "one", "berac", "solo_brez", "odprti_berac",
               "barvni_valat", "valat")  # fmt: skip


def start_of_play(rng: Random, table: int, contract: str, *, ruleset: str = "tournament",
                  p_announce: float = 0.3, p_kontra: float = 0.2,
                  announce: str | None = None) -> SlovenianHand | None:  # fmt: skip
    """A hand of ``contract`` at a table of ``table`` at its first card, or None when the
    random choices led elsewhere (the caller draws again). ``announce``: a bonus the declarer
    announces first (``barvni_valat`` turns a solo game into a colour valat)."""
    rs = ENGINE.ruleset(ruleset)
    radelci = [int(rng.random() < 0.3) for _ in range(table)]
    session = ENGINE.new_session(rs, table)
    session.restore({"radelci": radelci})
    dealer = rng.randrange(table)
    hands, talon = deal_pack(ENGINE, rs, rng, dealer, table)
    active = [s for s in range(table) if hands[s]]
    declarer = rng.choice(active) if contract != "klop" else None
    if declarer is not None and (contract in _RIGGED or announce in _RIGGED):
        _rig(rng, hands, declarer, _RIGGED.get(contract) or _RIGGED[str(announce)])
    h = session.new_hand(dealer=dealer, hands=hands, talon=talon)
    assert isinstance(h, SlovenianHand)
    for _ in range(200):
        if h.phase == "play":
            break
        legal = h.legal_actions()
        if not legal:
            return None
        seat = legal[0].seat
        if h.phase == "bidding":
            bids = {a.contract: a for a in legal if a.type == "bid"}
            passes = [a for a in legal if a.type == "pass"]
            if seat == declarer and contract in bids:
                h.push(bids[contract])
            elif passes:
                h.push(passes[0])
            elif contract in bids:
                h.push(bids[contract])
            else:
                return None
            continue
        if h.phase == "announcements":
            quiet = [a for a in legal if a.type in ("pass", "lezim")]
            loud = [a for a in legal if a.type not in ("pass", "lezim")]
            kontras = [a for a in loud if a.type == "kontra"]
            anns = [a for a in loud if a.type == "announce"]
            forced = [a for a in anns if a.bonus == announce and a.seat == declarer]
            if forced and announce not in h.ann:
                h.push(forced[0])
            elif kontras and rng.random() < p_kontra:
                h.push(rng.choice(kontras))
            elif anns and rng.random() < p_announce:
                h.push(rng.choice(anns))
            else:
                h.push(quiet[0] if quiet else rng.choice(legal))
            continue
        h.push(rng.choice(legal))
    if h.phase != "play" or h.contract != contract:
        return None
    return h


#: contracts whose declarer gets a strong (+1) or weak (-1) hand, so that random play does
#: not end them at once
_RIGGED = {"valat": 1, "barvni_valat": 1, "berac": -1, "odprti_berac": -1}


def _power(card: str) -> int:
    if card.startswith("T"):
        return 100 + int(card[1:])
    face = {"K": 60, "Q": 50, "N": 40, "J": 30}
    return face[card[1:]] if card[1:] in face else 10 + int(card[1:]) % 5


def _rig(rng: Random, hands: list[list[str]], seat: int, sign: int) -> None:
    """Give ``seat`` cards drawn from the strongest (weakest) part of the dealt cards."""
    k = len(hands[seat])
    pool = sorted((c for h in hands for c in h), key=lambda c: -sign * _power(c))
    mine = rng.sample(pool[: k + k // 2], k)
    rest = [c for c in pool if c not in mine]
    rng.shuffle(rest)
    for s in range(len(hands)):
        if hands[s]:
            if s == seat:
                hands[s] = mine
            else:
                hands[s], rest = rest[: len(hands[s])], rest[len(hands[s]) :]


def endgame(rng: Random, table: int, contract: str, tricks_left: int,
            **kw: float | str) -> SlovenianHand | None:  # fmt: skip
    """A hand of ``contract`` with ``tricks_left`` tricks (or fewer) to play, and up to a full
    trick's worth of cards already in the trick in progress; None if it ended before."""
    h = start_of_play(rng, table, contract, **kw)  # type: ignore[arg-type]
    if h is None:
        return None
    while h.tricks_total - len(h.tricks) > tricks_left and not h.is_over():
        _random_card(rng, h)
    extra = rng.randrange(h.n_active)
    for _ in range(extra):
        if h.is_over():
            break
        _random_card(rng, h)
    return None if h.is_over() else h


def endgame_positions(
    rng: Random, table: int, contract: str, tricks_left: int, every: int = 2,
    **kw: float | str,
) -> list[tuple[Position, Setting]]:  # fmt: skip
    """Several positions of one random hand: from ``tricks_left`` tricks to the end, one every
    ``every`` cards, read with :func:`~tarock_logs.analysis.position.read_position` (cheaper
    than one hand per position; the positions of a hand share its deal)."""
    h = start_of_play(rng, table, contract, **kw)  # type: ignore[arg-type]
    if h is None:
        return []
    out = []
    k = 0
    while not h.is_over():
        if h.tricks_total - len(h.tricks) <= tricks_left:
            if k % every == 0:
                out.append(read_position(h))
            k += 1
        _random_card(rng, h)
    return out


def _random_card(rng: Random, h: SlovenianHand) -> None:
    """A random legal card, avoiding one that ends the hand early (berač, valat) if any can."""
    legal = h.legal_actions()
    rng.shuffle(legal)
    strong = h.contract in ("valat", "barvni_valat") or "barvni_valat" in h.ann
    if strong and legal[0].seat == h.declarer:
        legal.sort(key=lambda a: -_power(str(a.card)))  # the declarer plays his strongest
    for a in legal:
        h.push(a)
        if not h.is_over() or len(h.tricks) == h.tricks_total:
            return
        h.pop()
    h.push(legal[0])


def engine_minimax(h: SlovenianHand, maximiser: Callable[[int], bool],
                   perspective_seat: int | None) -> int:  # fmt: skip
    """Exhaustive minimax over the engine (no pruning, no table): every legal card by
    ``legal_actions()``, every finished hand scored by ``score()``."""
    if h.is_over():
        return score_value(h, h.score(), perspective_seat)
    legal = h.legal_actions()
    vals = []
    for a in legal:
        h.push(a)
        vals.append(engine_minimax(h, maximiser, perspective_seat))
        h.pop()
    return max(vals) if maximiser(legal[0].seat) else min(vals)


def engine_card_values(h: SlovenianHand) -> dict[str, int]:
    """The exhaustive value of every legal card of the player to move (klop: for him)."""
    seat = h.to_move()
    assert seat is not None
    if h.contract == "klop":
        persp: int | None = seat

        def maximiser(s: int) -> bool:
            return s == seat
    else:
        persp = None

        def maximiser(s: int) -> bool:
            return h.side(s) == "M"

    out = {}
    for a in h.legal_actions():
        h.push(a)
        out[str(a.card)] = engine_minimax(h, maximiser, persp)
        h.pop()
    return out
