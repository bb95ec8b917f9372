"""OpenSpiel's ``state.returns()`` for one Slovenian tarok hand, quirks included (pure stdlib).

The ``openspiel-2.0`` ruleset scores a hand exactly as OpenSpiel's ``tarok`` game (open-spiel
2.0.2) does, so that the toolkit can be cross-checked against it. The rules, with their code
defects, are ``../shared/rules/openspiel-tarok.md`` §7–§10 and Appendix A.7 of
``slovenian-tarok.md``. In short:

* card points of a pile are ``round(Σ values − 0.666 × cards)``, taken on a whole pile at once;
* **klop** (everybody passed; each player plays for himself and tries to take few points): the
  first six trick winners also take the next talon card (the six face-down cards); a pile over
  35 points costs −70 and an empty pile wins +70 (then nobody else scores), otherwise each
  player loses his points;
* **three … solo one** (the declarer takes 3/2/1 talon cards, discards as many into his own
  pile, and plays with the partner holding the called king, if any): a pile of exactly 48
  cards is a "valat" (+250 / −250); otherwise ``(P − 35) ± V`` (won iff ``P > 35``), ±10
  if the called king is among the last ``n`` cards of the last trick winner's pile, else ±25
  if the pagat (tarok I) is, and the "kings" defect: +10 if the declarer side's pile has
  exactly 4 cards, else −10 if the opponents' has; the declarer and the partner receive it;
* **berač / odprti berač** (beggar: take no trick) ±70 / ±90, **solo brez** (without the
  talon) ±80 by ``P > 35``, **barvni valat / valat** ±125 / ±500 by a 48-card pile, to the
  declarer alone;
* the **mondfang**: −20 to one player, the last one marked: the declarer when the mond
  (tarok XXI) stays in the talon he did not take (cancelled if the called king taken from the
  talon later brings the talon remainder home), or the player of a mond captured by the škis
  or the pagat (talon contracts and solo brez only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tarock_logs import _native
from tarock_logs.cards import PACKS
from tarock_logs.rules.slovenian.contracts import CONTRACTS

#: OpenSpiel's contract values V.
CONTRACT_VALUES: Final[dict[str, int]] = {
    "klop": 70,
    "three": 10,
    "two": 20,
    "one": 30,
    "solo_three": 40,
    "solo_two": 50,
    "solo_one": 60,
    "berac": 70,
    "solo_brez": 80,
    "odprti_berac": 90,
    "barvni_valat": 125,
    "valat": 500,
}
#: Talon cards taken in each contract (0: no talon exchange).
TALON_CARDS: Final[dict[str, int]] = {
    "klop": 0,
    "three": 3,
    "two": 2,
    "one": 1,
    "solo_three": 3,
    "solo_two": 2,
    "solo_one": 1,
    "berac": 0,
    "solo_brez": 0,
    "odprti_berac": 0,
    "barvni_valat": 0,
    "valat": 0,
}
TALON_CONTRACTS: Final = frozenset(c for c, k in TALON_CARDS.items() if k)
MOND_PENALTY: Final = -20
VALAT_SCORE: Final = 250

#: the contract kinds of the native twin (``_native/openspiel.h``)
_KIND: Final[dict[str, int]] = {
    c: 0 if row.alone else 1 if TALON_CARDS[c] else 2 if row.no_trick
    else 3 if row.every_trick else 4
    for c, row in ((c, CONTRACTS[c]) for c in CONTRACT_VALUES)
}  # fmt: skip


def os_kind(contract: str) -> int:
    """The contract's kind in the native twin (``_native/openspiel.h``), -1 for none."""
    return _KIND.get(contract, -1)


#: the card ids the native twin reads tokens by
_CID: Final[dict[str, int]] = {c: i for i, c in enumerate(PACKS["slovenian"])}
#: the native core, or None (no C compiler at build time, or ``TAROCK_NATIVE=0``)
_CORE: Final = _native.core

_FACE: Final = {"K": 5, "Q": 4, "N": 3, "J": 2}
_TRULA: Final = frozenset({"T1", "T21", "T22"})


def card_value(token: str) -> int:
    """OpenSpiel's card value: trula and kings 5, queens 4, knights 3, jacks 2, others 1."""
    if token in _TRULA:
        return 5
    if token[0] == "T":
        return 1
    return _FACE.get(token[1:], 1)


#: :func:`card_value` of every card of the Slovenian pack
_VALUES: Final[dict[str, int]] = {c: card_value(c) for c in PACKS["slovenian"]}


def _value_sum(cards: Sequence[str]) -> int:
    """Σ :func:`card_value` over ``cards`` (a table look-up per card of the pack)."""
    try:
        return sum(map(_VALUES.__getitem__, cards))
    except KeyError:
        return sum(card_value(c) for c in cards)


def _points(value_sum: int, n_cards: int) -> int:
    return round(value_sum - 0.666 * n_cards)


def pile_points(cards: Sequence[str]) -> int:
    """``round(Σ values − 0.666 × len)`` as OpenSpiel computes it (no pile size gives a tie)."""
    return round(_value_sum(cards) - 0.666 * len(cards))


@dataclass(frozen=True, slots=True)
class OpenSpielScore:
    """OpenSpiel's result of one hand, with how it came about.

    ``returns`` = ``base`` + the −20 of ``mond_loser`` (OpenSpiel's
    ``scores_without_captured_mond_penalties()`` and ``captured_mond_penalties()``);
    ``piles`` are the cards each seat collected (tricks, the declarer's discards, klop talon
    gifts, the called-king talon remainder); ``flags`` name the scoring branches taken (e.g.
    ``mond_in_talon``, ``mond_captured``, ``mond_cancelled``, ``valat_for``,
    ``valat_against``, ``king_ultimo``, ``pagat_ultimo``, ``kings_for``, ``kings_against``,
    ``klop_full``, ``klop_empty``, ``won``, ``lost``).
    """

    returns: list[int]
    base: list[int]
    mond_loser: int | None
    piles: tuple[tuple[str, ...], ...]
    flags: frozenset[str]


def openspiel_returns(
    *,
    num_players: int,
    forehand: int,
    contract: str,
    declarer: int | None,
    partner: int | None,
    called_king: str | None,
    talon: Sequence[str],
    talon_group: int | None,
    discards: Sequence[str],
    tricks: Sequence[tuple[int, Sequence[str], int]],
) -> list[int]:
    """OpenSpiel's ``returns()`` per seat for a finished hand.

    ``talon`` is the talon as dealt (6 cards, dealt order), ``talon_group`` the 0-based group
    the declarer took (None without a talon exchange), ``discards`` the declarer's discards,
    ``tricks`` every trick played: (leader seat, card tokens in playing order, winner seat).
    Seats are ``0..num_players-1``; ``forehand`` is OpenSpiel's player 0 (only checked: the
    score depends on the tricks, not on who led). The piles, the talon gifts of klop and the
    called-king talon remainder are rebuilt from these facts. With the native core the hand is
    scored by its C twin (``_native/openspiel.h``), which declines anything unusual (a card
    outside the pack or twice, a seat outside the table) for this reference to score.
    """
    kind = _KIND.get(contract)
    if _CORE is not None and kind is not None and 0 <= forehand < num_players:
        got: list[int] | None = _CORE.openspiel_returns(
            num_players,
            kind,
            CONTRACT_VALUES[contract],
            TALON_CARDS[contract],
            -1 if declarer is None else declarer,
            -1 if partner is None else partner,
            called_king,
            talon,
            -1 if talon_group is None else talon_group,
            discards,
            tricks,
            _CID,
        )
        if got is not None:
            return got
    return _play_out(
        num_players,
        forehand,
        contract,
        declarer,
        partner,
        called_king,
        talon,
        talon_group,
        discards,
        tricks,
    )[0]


def openspiel_score(
    *,
    num_players: int,
    forehand: int,
    contract: str,
    declarer: int | None,
    partner: int | None,
    called_king: str | None,
    talon: Sequence[str],
    talon_group: int | None,
    discards: Sequence[str],
    tricks: Sequence[tuple[int, Sequence[str], int]],
) -> OpenSpielScore:
    """:func:`openspiel_returns` with the mondfang, the piles and the branches taken."""
    returns, base, mond_loser, piles, flags = _play_out(
        num_players,
        forehand,
        contract,
        declarer,
        partner,
        called_king,
        talon,
        talon_group,
        discards,
        tricks,
    )
    return OpenSpielScore(
        returns=returns,
        base=base,
        mond_loser=mond_loser,
        piles=tuple(tuple(p) for p in piles),
        flags=frozenset(flags),
    )


def _play_out(
    n: int,
    forehand: int,
    contract: str,
    declarer: int | None,
    partner: int | None,
    called_king: str | None,
    talon: Sequence[str],
    talon_group: int | None,
    discards: Sequence[str],
    tricks: Sequence[tuple[int, Sequence[str], int]],
) -> tuple[list[int], list[int], int | None, list[list[str]], set[str]]:
    """The piles rebuilt from the hand's facts and scored: (returns, base, mond loser, piles,
    flags), see :class:`OpenSpielScore`."""
    if n not in (3, 4):
        raise ValueError(f"OpenSpiel tarok has 3 or 4 players, not {n}")
    if not 0 <= forehand < n:
        raise ValueError(f"forehand seat {forehand} is not at a table of {n}")
    if contract not in CONTRACT_VALUES:
        raise ValueError(f"unknown contract {contract!r}")
    row = CONTRACTS[contract]
    if not row.alone and (declarer is None or not 0 <= declarer < n):
        raise ValueError(f"contract {contract} needs a declarer seat, got {declarer!r}")

    flags: set[str] = set()
    piles: list[list[str]] = [[] for _ in range(n)]
    remaining_talon = list(talon)
    mond_loser: int | None = None
    king_from_talon = False
    k = TALON_CARDS[contract]
    if contract in TALON_CONTRACTS:
        assert declarer is not None
        group: list[str] = []
        if talon_group is not None and 0 <= talon_group < len(talon) // k:
            start = talon_group * k
            group = list(talon[start : start + k])
            remaining_talon = [*talon[:start], *talon[start + k :]]
        if "T21" in talon and "T21" not in group:
            mond_loser = declarer  # the mond left in the talon
            flags.add("mond_in_talon")
        king_from_talon = called_king is not None and called_king in group
        piles[declarer].extend(discards)

    gifts = row.talon_gifts
    mond_rule = row.by_points  # the games by card points: the talon games and solo brez
    for leader, cards, winner in tricks:
        pile = piles[winner]
        pile.extend(cards)
        # the card of the winner's seat (seats follow the leader in order: leader + i mod n)
        i = (winner - leader) % n
        winning_card = cards[i] if 0 <= winner < n and i < len(cards) else None
        if gifts:
            if remaining_talon:  # klop: each of the first six tricks takes a talon card
                pile.append(remaining_talon.pop(0))
        elif king_from_talon and winning_card == called_king:
            # the called king came from the talon: its trick takes the talon remainder
            flags.add("king_takes_talon")
            if "T21" in remaining_talon:
                mond_loser = None
                flags.add("mond_cancelled")
            pile.extend(remaining_talon)
            remaining_talon = []
        elif mond_rule and "T21" in cards:
            if winning_card in ("T22", "T1"):
                mond_loser = (leader + list(cards).index("T21")) % n
                flags.add("mond_captured")

    base = _scores(n, contract, declarer, partner, called_king, piles, tricks, flags)
    returns = list(base)
    if mond_loser is not None:
        returns[mond_loser] += MOND_PENALTY
    return returns, base, mond_loser, piles, flags


def _scores(
    n: int,
    contract: str,
    declarer: int | None,
    partner: int | None,
    called_king: str | None,
    piles: list[list[str]],
    tricks: Sequence[tuple[int, Sequence[str], int]],
    flags: set[str],
) -> list[int]:
    scores = [0] * n
    value = CONTRACT_VALUES[contract]
    row = CONTRACTS[contract]
    if row.alone:
        pts = [_points(_value_sum(p), len(p)) for p in piles]
        if any(p > 35 or p == 0 for p in pts):
            flags.update(["klop_full"] if any(p > 35 for p in pts) else [])
            flags.update(["klop_empty"] if any(p == 0 for p in pts) else [])
            return [-70 if p > 35 else 70 if p == 0 else 0 for p in pts]
        return [-p for p in pts]
    assert declarer is not None
    if row.no_trick:
        won = not piles[declarer]
    elif row.every_trick:
        won = len(piles[declarer]) == 48
    elif not TALON_CARDS[contract]:  # solo brez: by card points, without the talon
        won = pile_points(piles[declarer]) > 35
    else:
        return _talon_contract_scores(
            n, value, declarer, partner, called_king, piles, tricks, flags
        )
    flags.add("won" if won else "lost")
    scores[declarer] = value if won else -value
    return scores


def _talon_contract_scores(
    n: int,
    value: int,
    declarer: int,
    partner: int | None,
    called_king: str | None,
    piles: list[list[str]],
    tricks: Sequence[tuple[int, Sequence[str], int]],
    flags: set[str],
) -> list[int]:
    side = {declarer} if partner is None or partner == declarer else {declarer, partner}
    # the side's and the opponents' piles, counted without joining them
    n_t = sum(len(piles[s]) for s in side)
    n_o = sum(len(piles[s]) for s in range(n) if s not in side)
    if n_t == 48:  # OpenSpiel's valat test counts cards (see the module docstring)
        score = VALAT_SCORE
        flags.add("valat_for")
    elif n_o == 48:
        score = -VALAT_SCORE
        flags.add("valat_against")
    else:
        pts = _points(sum(_value_sum(piles[s]) for s in side), n_t)
        score = (pts - 35) + (value if pts > 35 else -value)
        flags.add("won" if pts > 35 else "lost")
        if tricks:
            last_winner = tricks[-1][2]
            last_cards = piles[last_winner][-n:]
            sign = 1 if last_winner in side else -1
            if called_king is not None and called_king in last_cards:
                score += 10 * sign
                flags.add("king_ultimo")
            elif "T1" in last_cards:
                score += 25 * sign
                flags.add("pagat_ultimo")
        if n_t == 4:  # OpenSpiel's "kings" bonus: a defect counts cards, not kings
            score += 10
            flags.add("kings_for")
        elif n_o == 4:
            score -= 10
            flags.add("kings_against")
    return [score if s in side else 0 for s in range(n)]
