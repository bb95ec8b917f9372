"""Announcements and kontra (spec section 7).

After the discard the declarer **announces** bonuses for his side (trula, kralji, pagat
ultimo, kralj ultimo, valat, or alone barvni valat) and says **"ležim"**; then each other
player in priority order may announce (the partner for the declarer's side, the defenders for
theirs: trula, kralji, pagat ultimo), give **kontra** (doubling the game or an announcement of
the other side) and says "v redu" (``pass``); finally the declarer may double the defenders'
announcements. In klop anyone may give the one kontra on the klop. The first card ends it all.

A mixin of :class:`~tarock_logs.rules.slovenian.hand.SlovenianHand` (its state lives there).
"""

from __future__ import annotations

from typing import Final

from tarock_logs.rules.base import Action, Violation
from tarock_logs.rules.slovenian.contracts import BOTH_SIDES_BONUSES, CONTRACTS, Rules
from tarock_logs.rules.slovenian.state import HandFields, Phase
from tarock_logs.rules.slovenian.tricks import PAGAT

ANN_BONUSES: Final = ("trula", "kralji", "pagat_ultimo", "kralj_ultimo", "valat", "barvni_valat")
_SIDE_WORD: Final = {"M": "the declarer's side", "O": "the defenders"}
#: what ``_kontra_problem(..., explain=False)`` returns for a kontra that may not be given
_DENIED: Final = Violation("kontra.denied", "a kontra that may not be given", "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def opening_stage(r: Rules, contract: str) -> int:
    """How the announcement round of ``contract`` opens under ``r`` (spec 7.5): -1 there is
    none (the play follows), 0 with the declarer's turn (closed by "ležim"), 1 with the other
    seats' (in klop with kontra on the klop: everyone's, for the one kontra)."""
    if CONTRACTS[contract].alone:
        return 1 if r.klop_kontra else -1
    if not (r.announcements or r.kontra_levels > 0):
        return -1
    # the declarer's turn, closed by "ležim", opens the round (spec 7.5): where he may
    # announce, and also in contracts without bonuses under lezim_without_bonuses = said
    # (rulebook point 6a: the kontras start when he says "ležim"); under none the round
    # consists only of the kontras (spec 7.5)
    bonuses = r.announcements and r.has_bonuses(contract)
    return 0 if (bonuses or r.lezim_always) else 1


class AnnouncementsMixin(HandFields):
    """The announcement round of a hand."""

    def _enter_announcements(self) -> None:
        c = self.contract
        self.lezim = False
        self.stage_done = frozenset()
        stage = opening_stage(self.rules, c)  # type: ignore[arg-type]
        if stage < 0:
            self._start_play()
            return
        self.stage = stage
        if stage == 1 and not CONTRACTS[c].alone:  # type: ignore[index]  # only the kontras
            self.lezim = True
        self.phase = Phase.ANNOUNCEMENTS

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        self._pr = None

    def _stage_order(self) -> list[int]:
        return [s for s in self.active if s != self.declarer]

    def _ann_turn(self) -> int | None:
        if self.stage == 0:
            return self.declarer
        if self.stage == 1:
            for s in self._stage_order():
                if s not in self.stage_done:
                    return s
            return None
        if self.stage == 2:
            return self.declarer
        return None

    def _advance_stage(self) -> None:
        if self.stage == 1 and all(s in self.stage_done for s in self._stage_order()):
            # the declarer's reply: kontra on the defenders' announcements (or, with more
            # kontra levels, re-kontra); skipped when he has nothing he could double
            d = self.declarer
            reply = d is not None and any(
                self._kontra_problem(d, t, None, explain=False) is None for t in ("game", *self.ann)
            )
            self.stage = 2 if reply else 3
        if self.stage >= 3 and self.phase == "announcements":
            self._start_play()

    def _ann_pass(self, a: Action) -> list[Violation]:
        seat = a.seat
        out: list[Violation] = []
        if self.phase == "play" or self.stage >= 3:
            return [
                self._v(
                    "ann.order",
                    f"seat {seat} said 'v redu' after the announcement round was over",
                    seat,
                )
            ]
        exp = self._ann_turn()
        if self.stage == 0:
            if seat == self.declarer:
                self.lezim = True
                self.stage = 1
                self._advance_stage()
                return out
            out.append(
                self._v("ann.order", f"seat {seat} passed before the declarer said 'ležim'", seat)
            )
            self.stage_done = self.stage_done | {seat}
            return out
        if self.stage == 1:
            if seat != exp:
                out.append(
                    self._v(
                        "ann.order",
                        f"seat {seat} passed out of turn (seat {exp} was to speak)",
                        seat,
                    )
                )
            if seat != self.declarer:
                self.stage_done = self.stage_done | {seat}
        elif self.stage == 2:
            if seat == self.declarer:
                self.stage = 3
            else:
                out.append(
                    self._v(
                        "ann.order",
                        f"seat {seat} passed out of turn "
                        f"(the declarer, seat {self.declarer}, was to reply)",
                        seat,
                    )
                )
        self._advance_stage()
        return out

    def _ann_problem(self, seat: int, bonus: str) -> Violation | None:
        """The hard error that voids an announcement (None = it may be made)."""
        r = self.rules
        c = self.contract
        side = self.side(seat)
        who = f"seat {seat}"
        if not r.announcements:
            return self._v(
                "ann.not_allowed_in_contract",
                f"{who} announced {bonus}; {r.ruleset.id} has no announcements",
                seat,
                bonus=bonus,
            )
        if bonus not in ANN_BONUSES:
            return self._v(
                "ann.unknown_bonus",
                f"{who} announced {bonus!r}, which is not a bonus of Slovenian tarok",
                seat,
                bonus=bonus,
            )
        if c is None or not r.has_bonuses(c):
            return self._v(
                "ann.not_allowed_in_contract",
                f"{who} announced {bonus}; no bonuses exist in {c}",
                seat,
                bonus=bonus,
            )
        if bonus == "kralj_ultimo" and (not CONTRACTS[c].king_call or self.n_active != 4):
            return self._v(
                "ann.not_allowed_in_contract",
                f"{who} announced kralj ultimo in {c}, where no king is called",
                seat,
                bonus=bonus,
            )
        if bonus == "barvni_valat" and not (CONTRACTS[c].solo or self.n_active == 3):
            return self._v(
                "ann.barvni_valat_not_solo",
                f"{who} announced barvni valat in {c}; only a solo declarer may",
                seat,
                bonus=bonus,
            )
        if bonus in ("valat", "barvni_valat") and seat != self.declarer:
            return self._v(
                "ann.valat_not_declarer",
                f"{who} announced {bonus}; only the declarer may",
                seat,
                bonus=bonus,
            )
        if side == "O" and bonus not in BOTH_SIDES_BONUSES:
            return self._v(
                "ann.not_allowed_for_side",
                f"{who} (a defender) announced {bonus}; only the declarer's side may",
                seat,
                bonus=bonus,
            )
        if "barvni_valat" in self.ann or (bonus == "barvni_valat" and self.ann):
            return self._v(
                "ann.with_barvni_valat",
                f"{who} announced {bonus}; barvni valat must be the only announcement",
                seat,
                bonus=bonus,
            )
        if bonus in self.ann:
            prev_seat, prev_side = self.ann[bonus]
            if prev_side == side:
                return self._v(
                    "ann.duplicate",
                    f"{who} announced {bonus}, already announced by seat {prev_seat}",
                    seat,
                    bonus=bonus,
                )
            return self._v(
                "ann.both_sides",
                f"{who} announced {bonus}, already announced by the other side (seat {prev_seat})",
                seat,
                bonus=bonus,
            )
        return None

    def _kontra_item(self, target: str) -> tuple[str, ...]:
        """The kontra targets that are one item with ``target``: with barvni valat bid or
        announced, the game and ``barvni_valat`` (its value replaces the game's: spec 9.6,
        "only one kontra exists"; rulebook point 6, "Kontra je lahko samo ENA"); otherwise
        ``target`` alone."""
        c = self.contract
        if target in ("game", "barvni_valat") and (
            (c is not None and CONTRACTS[c].colour_valat) or "barvni_valat" in self.ann
        ):
            return ("game", "barvni_valat")
        return (target,)

    def _kontra_problem(
        self, seat: int, target: str, level: int | None, explain: bool = True
    ) -> Violation | None:
        """The hard error that voids this kontra (None = it may be given). With
        ``explain=False`` only the verdict matters (the turn logic): a shared placeholder
        stands for the violation, which is not built."""
        r = self.rules
        c = self.contract
        alone = c is not None and CONTRACTS[c].alone
        who = f"seat {seat}"
        if r.kontra_levels == 0 or (alone and not r.klop_kontra):
            if not explain:
                return _DENIED
            return self._v(
                "kontra.not_allowed",
                f"{who} gave kontra; {r.ruleset.id} has no kontra{' in klop' if alone else ''}",
                seat,
                target=target,
            )
        if target != "game" and target not in self.ann:
            if not explain:
                return _DENIED
            return self._v(
                "kontra.item_not_announced",
                f"{who} gave kontra on {target}, which nobody announced",
                seat,
                target=target,
            )
        joint = self._kontra_item(target)
        cur = max(self.kontra.get(t, 0) for t in joint)
        maxl = 1 if alone else r.kontra_levels
        if level is not None and level <= cur:
            if not explain:
                return _DENIED
            one = (
                " (barvni valat and the game are one item: only one kontra exists, spec 9.6)"
                if len(joint) > 1 and self.kontra.get(target, 0) < cur
                else ""
            )
            return self._v(
                "kontra.duplicate",
                f"{who} gave kontra on {target}, already doubled{one}",
                seat,
                target=target,
                item=list(joint),
            )
        if cur + 1 > maxl:
            if not explain:
                return _DENIED
            return self._v(
                "kontra.second_level",
                f"{who} doubled {target} again; only {_plural(maxl, 'kontra level')} allowed",
                seat,
                target=target,
            )
        if alone:
            return None
        owner = "M" if target == "game" else self.ann[target][1]
        giver_side = owner if (cur + 1) % 2 == 0 else ("O" if owner == "M" else "M")
        ok = self.side(seat) == giver_side and (giver_side == "O" or seat == self.declarer)
        if not ok:
            if not explain:
                return _DENIED
            need = "the declarer" if giver_side == "M" else "a defender"
            return self._v(
                "kontra.not_eligible",
                f"{who} gave kontra on {target}; only {need} may",
                seat,
                target=target,
            )
        return None

    def _announce(self, a: Action) -> list[Violation]:
        seat = a.seat
        t = a.type
        out: list[Violation] = []
        if self._card_played() or self.phase == "done":
            code = "kontra.too_late" if t == "kontra" else "ann.after_first_card"
            return [
                self._v(
                    code,
                    f"seat {seat}: {t} {a.bonus or a.target or ''} after "
                    "the first card was played".replace("  ", " "),
                    seat,
                )
            ]
        if t == "lezim":
            if seat != self.declarer:
                return [
                    self._v("ann.order", f"seat {seat} said 'ležim'; only the declarer does", seat)
                ]
            if self.lezim:
                if not self.rules.lezim_always and not self._declarer_may_announce():
                    return [
                        self._v(
                            "ann.lezim_not_expected",
                            f"seat {seat} said 'ležim' in {self.contract}, which has no "
                            f"ležim under {self.rules.ruleset.id} (lezim_without_bonuses = "
                            "none: the round consists only of the kontras)",
                            seat,
                        )
                    ]
                return [self._v("ann.order", f"seat {seat} said 'ležim' again", seat)]
            self.lezim = True
            if self.stage == 0:
                self.stage = 1
            self._advance_stage()
            return out
        if t == "announce":
            bonus = a.bonus or ""
            bad = self._ann_problem(seat, bonus)
            if bad is not None:
                return [bad]
            if not self.lezim and seat != self.declarer:
                out.append(
                    self._v(
                        "ann.before_lezim",
                        f"seat {seat} announced {bonus} "
                        "before the declarer said 'ležim' (renons: announcing out "
                        "of turn)",
                        seat,
                        bonus=bonus,
                    )
                )
                self.detected.append(("announce_out_of_turn", seat, "ann.before_lezim"))
            elif self.lezim and seat == self.declarer and self.stage != 0:
                out.append(
                    self._v(
                        "ann.order",
                        f"the declarer (seat {seat}) announced {bonus} after 'ležim'",
                        seat,
                    )
                )
            elif self.phase == "announcements" and self._ann_turn() not in (seat, None):
                out.append(self._v("ann.order", f"seat {seat} announced {bonus} out of turn", seat))
            side = self.side(seat)
            if bonus == "pagat_ultimo":
                if not any(PAGAT in self.hands[s] for s in self.active if self.side(s) == side):
                    out.append(
                        self._v(
                            "ann.card_not_held",
                            f"seat {seat} announced "
                            f"pagat ultimo but {_SIDE_WORD[side]} do not hold the "
                            "pagat",
                            seat,
                        )
                    )
            elif bonus == "kralj_ultimo":
                k = self.called_king
                if not any(k in self.hands[s] for s in self.active if self.side(s) == side):
                    out.append(
                        self._v(
                            "ann.card_not_held",
                            f"seat {seat} announced "
                            f"kralj ultimo but {_SIDE_WORD[side]} do not hold {k}",
                            seat,
                        )
                    )
            self.ann = {**self.ann, bonus: (seat, side)}
            self.ann_list += ((seat, bonus),)
            self._pr = None
            return out
        # kontra
        target = a.target or "game"
        bad = self._kontra_problem(seat, target, a.level)
        if bad is not None:
            return [bad]
        if not self.lezim and not (self.contract and CONTRACTS[self.contract].alone):
            out.append(
                self._v(
                    "ann.before_lezim",
                    f"seat {seat} gave kontra on {target} before the declarer said 'ležim'",
                    seat,
                    target=target,
                )
            )
            self.detected.append(("announce_out_of_turn", seat, "ann.before_lezim"))
        elif self.phase == "announcements" and self._ann_turn() not in (seat, None):
            out.append(
                self._v("ann.order", f"seat {seat} gave kontra on {target} out of turn", seat)
            )
        lvl = max(self.kontra.get(t, 0) for t in self._kontra_item(target)) + 1
        self.kontra = {**self.kontra, target: lvl}
        self.kontra_list += ((seat, target, lvl),)
        return out

    def _legal_announcements(self) -> list[Action]:
        seat = self._ann_turn()
        if seat is None:
            return []
        out: list[Action] = []
        if (
            self.stage in (0, 1)
            and self.rules.announcements
            and (self.stage == 0 or seat != self.declarer)
        ):
            for b in ANN_BONUSES:
                if self._ann_problem(seat, b) is None:
                    out.append(Action("announce", seat, bonus=b))
        if self.stage >= 1:
            for tgt in ("game", *self.ann):
                if self._kontra_problem(seat, tgt, None, explain=False) is None:
                    out.append(
                        Action("kontra", seat, target=tgt, level=self.kontra.get(tgt, 0) + 1)
                    )
        if self.stage == 0:  # the declarer closes his turn with "ležim" (or "v redu", read so)
            out += [Action("lezim", seat), Action("pass", seat)]
        else:
            out.append(Action("pass", seat))
        return out

    def _declarer_may_announce(self) -> bool:
        """Whether the contract has announcements (the declarer's turn then ends in "ležim")."""
        c = self.contract
        return (
            c is not None
            and not CONTRACTS[c].alone
            and self.rules.announcements
            and (self.rules.has_bonuses(c))
        )
