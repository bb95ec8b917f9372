"""A card-play position for the solver, and how to read one off the Slovenian engine.

Players are numbered ``0 … n-1`` in playing order from P1 (the engine's ``active`` seats);
``hands`` are card masks (:mod:`tarock_logs.analysis.cardset`), ``trick`` the card ids of the
trick in progress led by ``leader``, ``acc`` the facts of the tricks played so far
(:mod:`tarock_logs.analysis.objective`). :func:`read_position` builds the position, the
card rules and the objective from a :class:`~tarock_logs.rules.slovenian.hand.SlovenianHand`
in its play phase, or says in an :class:`Unsupported` why it cannot.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tarock_logs.analysis.cardset import (
    CID,
    KINGS,
    PAGAT,
    TRULA,
    CardRules,
    mask_of,
    thirds,
)
from tarock_logs.analysis.objective import NONE, Kind, M, O, Objective
from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.rules.slovenian.hand import SlovenianHand, make_play_rules

if TYPE_CHECKING:
    from tarock_logs.analysis.games import HandPlay

__all__ = ["Position", "Setting", "Unsupported", "read_position"]


class Unsupported(ValueError):
    """The position cannot be analysed (the message says why: the phase, the ruleset's
    scoring, a hand whose cards do not add up)."""


@dataclass(frozen=True, slots=True)
class Position:
    """One card-play position (see the module docstring)."""

    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    tricks_done: int
    acc: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    def key(self) -> tuple[tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...]]:
        return (self.hands, self.trick, self.leader, self.tricks_done, self.acc)


@dataclass(frozen=True, slots=True)
class Setting:
    """What stays fixed through a hand's card play: the seats, the card rules and the
    objective (for klop: of one perspective player)."""

    seats: tuple[int, ...]
    rules: CardRules
    objective: Objective
    #: another game's card play (:mod:`~tarock_logs.analysis.games`): its legal cards, trick
    #: winner and objective; None for Slovenian tarok (``rules`` and ``objective``)
    play: HandPlay | None = None

    def for_perspective(self, player: int) -> Setting:
        """Klop: the same hand valued for ``player``."""
        o = self.objective
        if o.kind != "klop":
            return self
        ob = replace(o, perspective=player, radelc=o.klop_radelc[player],
                     maxside=tuple(i == player for i in range(len(o.maxside))))  # fmt: skip
        return Setting(self.seats, self.rules, ob, self.play)


def _side_of(h: SlovenianHand, seat: int) -> int:
    return M if h.side(seat) == "M" else O


def _kontra(h: SlovenianHand, target: str) -> int:
    return int(2 ** h.kontra.get(target, 0))


def _ann(h: SlovenianHand, bonus: str) -> tuple[int, int]:
    got = h.ann.get(bonus)
    if got is None:
        return NONE, 1
    return (M if got[1] == "M" else O), _kontra(h, bonus)


def read_position(h: SlovenianHand, perspective: int | None = None) -> tuple[Position, Setting]:
    """The position of ``h`` (in its play phase) and its setting. ``perspective``: the klop
    player (playing-order index) to value the hand for; by default the player to move."""
    if h.phase != "play" or h.contract is None:
        raise Unsupported(f"the hand is in phase {h.phase}, not in card play")
    r = h.rules
    if r.openspiel_scoring:
        raise Unsupported("the analysis values hands under the tournament scoring; this "
                          "ruleset scores as OpenSpiel does")  # fmt: skip
    if any(i.type == "renons" and i.upheld for i in h.irregularities):
        raise Unsupported("a renons settles this hand: its card play does not decide the score")
    seats = tuple(h.active)
    n = len(seats)
    index = {s: i for i, s in enumerate(seats)}
    c = h.contract
    row = CONTRACTS[c]
    # ---- cards and the trick in progress
    hands = tuple(mask_of(h.hands[s]) for s in seats)
    trick_seats = [s for s, _ in h.trick]
    trick = tuple(CID[x] for _, x in h.trick)
    to_move = h.to_move()
    if to_move is None:
        raise Unsupported("nobody is to play")
    leader = index[trick_seats[0]] if trick_seats else index[to_move]
    left = h.tricks_total - len(h.tricks)
    for i, s in enumerate(seats):
        played = s in trick_seats
        want = left - 1 if played else left
        if hands[i].bit_count() != want:
            raise Unsupported(f"seat {s} holds {hands[i].bit_count()} cards where {want} "
                              "are expected: the log's cards do not add up")  # fmt: skip
    for k, s in enumerate(trick_seats):
        if index[s] != (leader + k) % n:
            raise Unsupported("the trick in progress was not played in turn")
    # ---- rules
    cv = h.colour_valat()
    pr = make_play_rules(r, c, cv)
    prot: list[int] = []
    if r.protection and not row.negative:
        if "pagat_ultimo" in h.ann:
            prot.append(PAGAT)
        if "kralj_ultimo" in h.ann and h.called_king:
            prot.append(CID[h.called_king])
    rules = CardRules(pr.negative, pr.pagat_restricted, pr.pagat_last_tarok, pr.by_rank,
                      pr.emperor_always, pr.colour_valat, tuple(prot),
                      pr.protect_either)  # fmt: skip
    radelc = [2 if r.radelci and h.radelci_before[s] >= 1 else 1 for s in seats]
    # ---- objective
    d = h.declarer
    if row.alone:
        p = to_move if perspective is None else seats[perspective]
        pi = index[p]
        gifts = tuple(CID[x] for x in h.talon[:6]) if len(h.talon) >= 6 else ()
        obj = Objective(
            kind="klop", maxside=tuple(i == pi for i in range(n)), tricks_total=h.tricks_total,
            radelc=radelc[pi], win_threshold=r.win_threshold, gifts=gifts,
            klop_kontra=bool(h.kontra.get("game")),
            klop_full_empty_doubled=r.klop_kontra_full_and_empty_doubled,
            klop_nearest_5=r.klop_nearest_5, perspective=pi, klop_radelc=tuple(radelc),
        )  # fmt: skip
        th = [0] * 4
        has = [0] * 4
        for t in h.tricks:
            w = index[t.winner]
            th[w] += thirds(mask_of(t.pile))
            has[w] = 1
        acc = (*th, *has, 0)
        return Position(hands, trick, leader, len(h.tricks), acc), Setting(seats, rules, obj)
    assert d is not None
    maxside = tuple(h.side(s) == "M" for s in seats)
    kg = _kontra(h, "game")
    fd = radelc[index[d]]
    if row.fixed or "barvni_valat" in h.ann:
        if "barvni_valat" in h.ann:
            value = 125 * max(_kontra(h, "barvni_valat"), kg)
        else:
            value = r.contract_value(c) * kg
        kind: Kind = "no_trick" if row.no_trick else "all_tricks"
        obj = Objective(kind=kind, maxside=maxside, tricks_total=h.tricks_total,
                        value=value * fd, radelc=fd)  # fmt: skip
        return (Position(hands, trick, leader, len(h.tricks), (0,) * 9),
                Setting(seats, rules, obj))  # fmt: skip
    remainder = [x for x in h.talon if x not in h.taken] if row.talon else list(h.talon)
    rem_mask = mask_of(remainder)
    disc_mask = mask_of(h.discards)
    king = CID[h.called_king] if h.called_king else -1
    rem_possible = bool(row.talon and h.king_in_talon and h.called_king in h.taken
                        and not h.self_call)  # fmt: skip
    ta, tk = _ann(h, "trula")
    ka, kk = _ann(h, "kralji")
    pa, pk = _ann(h, "pagat_ultimo")
    ra, rk = _ann(h, "kralj_ultimo")
    obj = Objective(
        kind="normal", maxside=maxside, tricks_total=h.tricks_total,
        value=r.contract_value(c), kontra_game=kg, radelc=fd, win_threshold=r.win_threshold,
        diff_nearest_5=r.diff_nearest_5,
        no_difference=row.brez_options and not r.solo_brez_difference,
        discard_thirds=thirds(disc_mask), remainder_thirds=thirds(rem_mask),
        remainder_if_king_wins=rem_possible, king=king, bonuses=r.has_bonuses(c),
        count_remainder=r.count_remainder,
        trula_discarded=(disc_mask & TRULA).bit_count(),
        trula_in_remainder=(rem_mask & TRULA).bit_count(),
        kings_discarded=(disc_mask & KINGS).bit_count(),
        kings_in_remainder=(rem_mask & KINGS).bit_count(),
        trula_ann=ta, trula_k=tk, kralji_ann=ka, kralji_k=kk, pagat_ann=pa, pagat_k=pk,
        kralj_exists=king >= 0 and row.king_call and h.n_active == 4,
        kralj_ann=ra if "kralj_ultimo" in h.ann else NONE, kralj_k=rk,
        silent_ultimo_failure_counts=r.silent_ultimo_failure_counts,
        valat_announced="valat" in h.ann, valat_k=_kontra(h, "valat"),
        mondfang=r.mondfang_value, mondfang_when_valat=r.mondfang_when_valat,
        mond_in_talon=bool(row.talon and "T21" in h.talon and "T21" not in h.taken),
    )  # fmt: skip
    tm = m_trick = o_trick = king_won = tr_m = tr_o = kg_m = kg_o = mond = 0
    for t in h.tricks:
        pile = mask_of(t.pile)
        if maxside[index[t.winner]]:
            tm += thirds(pile)
            m_trick = 1
            tr_m |= bool(pile & TRULA)
            kg_m |= bool(pile & KINGS)
        else:
            o_trick = 1
            tr_o |= bool(pile & TRULA)
            kg_o |= bool(pile & KINGS)
        if t.winning_card == h.called_king:
            king_won = 1
        for s, x in t.cards:
            if x == "T21" and t.winning_card != "T21":
                mond = M if maxside[index[s]] else O
    acc = (tm, m_trick, o_trick, king_won, int(tr_m), int(tr_o), int(kg_m), int(kg_o), mond)
    return Position(hands, trick, leader, len(h.tricks), acc), Setting(seats, rules, obj)
