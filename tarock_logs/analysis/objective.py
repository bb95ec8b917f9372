"""What the solver maximises: one integer per finished play, in points of the score sheet.

Each contract family has its own **objective** (docs/analysis.md, "Objectives"):

``normal`` (tri, dva, ena, solo tri/dva/ena, solo brez)
    the declarer side's result as :mod:`tarock_logs.rules.slovenian.scoring` writes it: the
    game (contract value and the difference, won with ``win_threshold`` thirds), the bonuses
    (trula, kralji, pagat ultimo, kralj ultimo: announced, silent, kontra'd), valat (silent or
    announced), the radelc doubling, and mondfang made zero-sum: a mond lost by a member of the
    declarer's side counts −20, one lost by a defender +20 (the defenders write nothing else,
    so the search treats the hand as a two-sided game whose stake is the difference).
``no_trick`` (berač, odprti berač)
    ±value: does the declarer take no trick.
``all_tricks`` (barvni valat and valat as contracts, barvni valat announced)
    ±value: does the declarer take every trick.
``klop``
    each player for himself: the value for one player (the **perspective**) is his own klop
    result (−points, −70 full, +70 empty, 0 when another player is full or empty), and the
    others are taken to play against him (a *paranoid* search: what a card guarantees).

The accumulated facts of the tricks played so far travel with a position as a tuple of nine
ints, :data:`ACC_FIELDS` (``normal``), or per player thirds and "has a trick" flags (``klop``).
:meth:`Objective.leaf` is the value of a finished play; :meth:`Objective.bounds` brackets the
value of an unfinished one (what the search prunes with). The native solver receives
:meth:`Objective.native_params` and computes the same numbers (a differential test pins it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from tarock_logs.analysis.cardset import KINGS, MOND, PAGAT, TRULA, thirds

__all__ = ["ACC_FIELDS", "KINDS", "Kind", "Objective", "Outcome"]

Kind = Literal["normal", "no_trick", "all_tricks", "klop", "game"]
#: ``game``: another game's objective, carried by its plug-in (``Setting.play``:
#: :class:`~tarock_logs.analysis.games.HandPlay`); the native solver knows the first four
KINDS: Final[tuple[Kind, ...]] = ("normal", "no_trick", "all_tricks", "klop", "game")
#: the ``normal`` accumulator: M's thirds from tricks, "M / O took a trick", "the called king
#: won a trick", "M / O took a trula card", "M / O took a king", mond lost (0 no, 1 by M, 2 by O)
ACC_FIELDS: Final = ("tm", "m_trick", "o_trick", "king_won", "trula_m", "trula_o", "kings_m",
                     "kings_o", "mond")  # fmt: skip
#: side codes of an announcement or an outcome
NONE, M, O = 0, 1, 2  # noqa: E741 - the spec's names of the two sides


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the last trick decided the ultimo bonuses (``normal`` only): the side whose pagat
    won it (0 none), the side whose pagat was in it and lost, whether the declarer side won it
    with the called king in it, and whether the called king was in it and lost."""

    pagat: int = NONE
    pagat_failed: int = NONE
    kralj: bool = False
    kralj_failed: bool = False


@dataclass(frozen=True, slots=True)
class Objective:
    """The objective of one hand (see the module docstring); every field is fixed before the
    first card. Values are in points as the score sheet writes them (kontra and radelc
    included)."""

    kind: Kind
    #: players (in playing order from P1) on the maximising side: the declarer side, or the
    #: klop perspective
    maxside: tuple[bool, ...]
    tricks_total: int
    #: the contract value (no_trick/all_tricks: the fixed value) times the kontra and radelc
    #: factors that apply to it
    value: int = 0
    kontra_game: int = 1
    radelc: int = 1
    win_threshold: int = 106
    diff_nearest_5: bool = False
    no_difference: bool = False
    #: thirds of the declarer's discards, and of the talon remainder
    discard_thirds: int = 0
    remainder_thirds: int = 0
    #: the remainder becomes the declarer's if the called king (taken from the talon) wins a
    #: trick (spec 6.3); the called king's id or -1
    remainder_if_king_wins: bool = False
    king: int = -1
    bonuses: bool = False
    count_remainder: bool = True
    #: trula and kralji: cards of the set in the discards and in the remainder
    trula_discarded: int = 0
    trula_in_remainder: int = 0
    kings_discarded: int = 0
    kings_in_remainder: int = 0
    #: announcements: side (0 none, 1 M, 2 O) and kontra factor per bonus
    trula_ann: int = NONE
    trula_k: int = 1
    kralji_ann: int = NONE
    kralji_k: int = 1
    pagat_ann: int = NONE
    pagat_k: int = 1
    kralj_exists: bool = False
    kralj_ann: int = NONE
    kralj_k: int = 1
    silent_ultimo_failure_counts: bool = False
    valat_announced: bool = False
    valat_k: int = 1
    mondfang: int = 20
    mondfang_when_valat: bool = False
    #: the mond was left in the talon (the declarer's −20 unless the remainder becomes his)
    mond_in_talon: bool = False
    #: klop: the talon card added to each of the first tricks (id or -1), kontra on the klop,
    #: whether it doubles a full-and-empty result, and the nearest-5 rounding
    gifts: tuple[int, ...] = ()
    klop_kontra: bool = False
    klop_full_empty_doubled: bool = False
    klop_nearest_5: bool = False
    perspective: int = 0
    #: klop: each player's radelc factor (the perspective's is ``radelc``)
    klop_radelc: tuple[int, ...] = ()

    # ------------------------------------------------------------------ leaf values

    def leaf(self, acc: tuple[int, ...], last: Outcome | None = None) -> int:
        """The value of a finished play whose accumulated facts are ``acc``."""
        if self.kind == "klop":
            return self._klop(acc)
        if self.kind == "normal":
            return self._normal(acc, last or Outcome())
        raise ValueError("no_trick and all_tricks end by the trick, not by a leaf")

    def game_value(self, tm: int) -> int:
        """The game component G (value and difference) for the declarer side's ``tm`` thirds
        (before the radelc factor): non-decreasing in ``tm``."""
        won = tm >= self.win_threshold
        diff = abs((tm + 1) // 3 - 35)
        if self.diff_nearest_5:
            diff = 5 * ((diff + 2) // 5)
        if self.no_difference:
            diff = 0
        return (1 if won else -1) * (self.value + diff) * self.kontra_game

    def _bonus(self, ann: int, k: int, v: int, outcome: int, failed: int) -> int:
        """One bonus line (scoring._bonus): announced by ``ann``, achieved by ``outcome``."""
        if ann == M:
            return (2 * v if outcome == M else -2 * v) * k
        if ann == O:
            return (-2 * v if outcome == O else 2 * v) * k
        if outcome == M:
            return v
        if outcome == O:
            return -v
        if failed and self.silent_ultimo_failure_counts:
            return -v if failed == M else v
        return 0

    def _set_outcome(self, took_m: int, took_o: int, discarded: int, in_rem: int,
                     rem_to_m: bool) -> int:  # fmt: skip
        """Which side holds a whole bonus set (trula, kralji) at the end (spec 7.1)."""
        rem_m = in_rem == 0 or (self.count_remainder and rem_to_m)
        rem_o = in_rem == 0 or (self.count_remainder and not rem_to_m)
        if not took_o and rem_m:
            return M
        if not took_m and not discarded and rem_o:
            return O
        return NONE

    def _normal(self, acc: tuple[int, ...], last: Outcome) -> int:
        tm, m_trick, o_trick, king_won, trula_m, trula_o, kings_m, kings_o, mond = acc
        rem_to_m = self.remainder_if_king_wins and bool(king_won)
        t_m = tm + self.discard_thirds + (self.remainder_thirds if rem_to_m else 0)
        valat = M if not o_trick else O if not m_trick else NONE
        r = 0
        if valat == NONE or self.valat_announced:
            r = self.game_value(t_m)
            if self.bonuses:
                tr = self._set_outcome(trula_m, trula_o, self.trula_discarded,
                                       self.trula_in_remainder, rem_to_m)  # fmt: skip
                kg = self._set_outcome(kings_m, kings_o, self.kings_discarded,
                                       self.kings_in_remainder, rem_to_m)  # fmt: skip
                r += self._bonus(self.trula_ann, self.trula_k, 10, tr, NONE)
                r += self._bonus(self.kralji_ann, self.kralji_k, 10, kg, NONE)
                r += self._bonus(self.pagat_ann, self.pagat_k, 25, last.pagat, last.pagat_failed)
                if self.kralj_exists or self.kralj_ann:
                    r += self._bonus(self.kralj_ann, self.kralj_k, 10, M if last.kralj else NONE,
                                     M if last.kralj_failed else NONE)  # fmt: skip
        if self.valat_announced:
            kv = self.valat_k
            if valat == M:
                r = 500 * kv
            elif valat == O:
                r = -250 * self.kontra_game - 500 * kv
            else:
                r -= 500 * kv
        elif valat == M:
            r = 250 * self.kontra_game
        elif valat == O:
            r = -250 * self.kontra_game
        r *= self.radelc
        if valat == NONE or self.mondfang_when_valat:
            if mond == M:
                r -= self.mondfang
            elif mond == O:
                r += self.mondfang
            if self.mond_in_talon and not rem_to_m:
                r -= self.mondfang
        return r

    def _klop(self, acc: tuple[int, ...]) -> int:
        n = len(self.maxside)
        th, has = acc[:n], acc[4 : 4 + n]
        p = self.perspective
        full = [t >= self.win_threshold for t in th]
        empty = [not h for h in has]
        if any(full) or any(empty):
            base = -70 if full[p] else 70 if empty[p] else 0
        else:
            base = -((th[p] + 1) // 3)
            if self.klop_nearest_5:
                base = -(5 * ((-base + 2) // 5))
        if self.klop_kontra and (not (any(full) and any(empty)) or self.klop_full_empty_doubled):
            base *= 2
        return base * self.radelc

    def fixed(self, won: bool) -> int:
        """``no_trick`` and ``all_tricks``: the value when the declarer wins / loses."""
        return self.value if won else -self.value

    # ------------------------------------------------------------------ bounds

    def _bonus_range(self, ann: int, k: int, v: int, outcomes: tuple[int, ...],
                     failed: tuple[int, ...]) -> tuple[int, int]:  # fmt: skip
        vals = [self._bonus(ann, k, v, o, f) for o in outcomes for f in failed]
        return min(vals), max(vals)

    def bounds(self, acc: tuple[int, ...], remaining: int) -> tuple[int, int]:
        """A (low, high) bracket of the final value from a trick boundary where the cards of
        ``remaining`` (a mask) are still to be played. Sound, not tight: every open fact is
        taken at its extremes independently."""
        if self.kind != "normal":
            big = (70 * 2 if self.kind == "klop" else self.value) * self.radelc
            return -big, big
        tm, m_trick, o_trick, king_won, trula_m, trula_o, kings_m, kings_o, mond = acc
        rest = thirds(remaining)
        king_live = self.king >= 0 and bool(remaining >> self.king & 1)
        kw_open = self.remainder_if_king_wins and not king_won and king_live
        rem_sure = self.remainder_if_king_wins and bool(king_won)
        base = tm + self.discard_thirds
        t_lo = base + (self.remainder_thirds if rem_sure else 0)
        t_hi = base + rest + (self.remainder_thirds if rem_sure or kw_open else 0)
        lo = self.game_value(t_lo)
        hi = self.game_value(t_hi)
        if self.bonuses:
            rems = (True, False) if kw_open else (rem_sure,)
            for took_m, took_o, disc, in_rem, cards, ann, k in (
                (trula_m, trula_o, self.trula_discarded, self.trula_in_remainder, TRULA,
                 self.trula_ann, self.trula_k),
                (kings_m, kings_o, self.kings_discarded, self.kings_in_remainder, KINGS,
                 self.kralji_ann, self.kralji_k),
            ):  # fmt: skip
                live = bool(remaining & cards)
                outs = {NONE}
                for rm in rems:
                    outs.add(self._set_outcome(took_m, took_o, disc, in_rem, rm))
                    if live:
                        outs.add(self._set_outcome(1, took_o, disc, in_rem, rm))
                        outs.add(self._set_outcome(took_m, 1, disc, in_rem, rm))
                b = self._bonus_range(ann, k, 10, tuple(outs), (NONE,))
                lo, hi = lo + b[0], hi + b[1]
            pl = bool(remaining >> PAGAT & 1)
            sides = (NONE, M, O) if pl else (NONE,)
            b = self._bonus_range(self.pagat_ann, self.pagat_k, 25, sides, sides)
            lo, hi = lo + b[0], hi + b[1]
            if self.kralj_exists or self.kralj_ann:
                ks = (NONE, M) if king_live else (NONE,)
                b = self._bonus_range(self.kralj_ann, self.kralj_k, 10, ks, ks)
                lo, hi = lo + b[0], hi + b[1]
        if self.valat_announced:
            lo -= 500 * self.valat_k
            hi -= 500 * self.valat_k
        f = self.radelc
        lo, hi = lo * f, hi * f
        mond_live = bool(remaining >> MOND & 1)
        md: tuple[int, ...] = (-self.mondfang if mond == M else self.mondfang if mond == O else 0,)
        if mond_live:
            md = (-self.mondfang, 0, self.mondfang)
        tal = 0
        if self.mond_in_talon:
            tal = 0 if rem_sure else -self.mondfang
        lo += min(md) + tal
        hi += max(md) + (0 if kw_open and self.mond_in_talon else tal)
        cases = [(lo, hi)]
        if self.valat_announced:
            kv = self.valat_k
            if not o_trick:
                cases.append((500 * kv * f, 500 * kv * f))
            if not m_trick:
                v = (-250 * self.kontra_game - 500 * kv) * f
                cases.append((v, v))
        else:
            if not o_trick:
                cases.append((250 * self.kontra_game * f, 250 * self.kontra_game * f))
            if not m_trick:
                cases.append((-250 * self.kontra_game * f, -250 * self.kontra_game * f))
        if self.mondfang_when_valat and len(cases) > 1:
            spread = self.mondfang * (2 if self.mond_in_talon else 1)
            cases = [cases[0]] + [(a - spread, b + spread) for a, b in cases[1:]]
        return min(a for a, _ in cases), max(b for _, b in cases)

    # ------------------------------------------------------------------ native

    def native_params(self) -> tuple[int, ...]:
        """The objective as the flat tuple of ints the native solver reads (order fixed by
        ``_native/solver.h``, ``tk_objective``)."""
        kind = KINDS.index(self.kind)
        gifts = (tuple(self.gifts) + (-1,) * 16)[:16]
        return (
            kind, self.tricks_total, self.value, self.kontra_game, self.radelc,
            self.win_threshold, int(self.diff_nearest_5), int(self.no_difference),
            self.discard_thirds, self.remainder_thirds, int(self.remainder_if_king_wins),
            self.king, int(self.bonuses), int(self.count_remainder), self.trula_discarded,
            self.trula_in_remainder, self.kings_discarded, self.kings_in_remainder,
            self.trula_ann, self.trula_k, self.kralji_ann, self.kralji_k, self.pagat_ann,
            self.pagat_k, int(self.kralj_exists), self.kralj_ann, self.kralj_k,
            int(self.silent_ultimo_failure_counts), int(self.valat_announced), self.valat_k,
            self.mondfang, int(self.mondfang_when_valat), int(self.mond_in_talon),
            int(self.klop_kontra), int(self.klop_full_empty_doubled), int(self.klop_nearest_5),
            self.perspective, *gifts,
        )  # fmt: skip
