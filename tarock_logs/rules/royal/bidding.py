"""The Royal Tarock bidding ("Lizitation", royal-tarock.md §4): Meldungen, Schlemme, contras.

Nothing is auctioned. On his turn a player makes any number of **Meldungen** (true statements
about his dealt hand, e.g. "drei Pik"), **Schlemm** announcements (premiums his pair undertakes
to make in the tricks) and **contras** (a bet against one of the opponents' Schlemme; one
level only, no re-contra), then says "Weiter!" (a ``pass`` action).

**Raising** (*Hebung*): a Schlemm that contains or hardens earlier ones of the pair (Köpfe
over Honneur, Trull over both) replaces them; only the partner of whoever announced the last
of the related Schlemme may raise, trophies strictly so. The raised-from Schlemme are no longer
scored, a contra on them becomes void (option ``raise_voids_contra``), and their bound-card
duties stay in force.

:class:`Bidding` keeps the records; each ``meld``/``announce``/``kontra`` method returns the
violations of an action and, with ``apply=True``, records it (lenient: an announcement the
table let stand is recorded even when illegal, except duplicates and no-ops).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.rules.base import Action, Ruleset, Violation
from tarock_logs.rules.royal import predicates
from tarock_logs.rules.royal.catalogue import Catalogue, Item
from tarock_logs.rules.royal.codes import violation

ATT, DEF = 0, 1  # party index: attackers, defenders
PARTY_NAMES = ("attackers", "defenders")


@dataclass(slots=True)
class MeldRecord:
    """One Meldung: ``valid`` True/False, or None when its condition is unknown."""

    seat: int
    item_id: str
    params: dict[str, Any]
    seq: int
    valid: bool | None
    counted: bool = True  # False for a repeated declaration


@dataclass(slots=True)
class Instance:
    """One announced Schlemm of a party (``superseded_by`` set once it is raised)."""

    idx: int
    item_id: str
    party: int
    announcer: int
    seq: int
    raised_from: tuple[int, ...] = ()
    superseded_by: int | None = None

    @property
    def active(self) -> bool:
        return self.superseded_by is None


@dataclass(slots=True)
class Contra:
    """A contra by ``seat`` on instance ``target`` (void once the target is raised)."""

    seat: int
    party: int
    target: int
    seq: int
    void: bool = False


@dataclass(slots=True)
class Bidding:
    """The records of one hand's bidding and the rules that admit them."""

    ruleset: Ruleset
    catalogue: Catalogue
    options: Mapping[str, Any]
    party_of: Callable[[int], int]
    who: Callable[[int], str]
    dealt: Sequence[Sequence[str]]
    melds: list[MeldRecord] = field(default_factory=list)
    instances: list[Instance] = field(default_factory=list)
    contras: list[Contra] = field(default_factory=list)
    #: per seat, the Meldungen its dealt hand bears out (:meth:`meld_candidates`)
    true_melds: dict[int, list[Action]] = field(default_factory=dict)
    #: :meth:`_bears_out`'s answers by (seat, item, parameters): they depend on the dealt
    #: hand alone, and every turn of the bidding asks them again of each true Meldung
    bears_out: dict[tuple[int, str, tuple[tuple[str, Any], ...]], bool | None] = field(
        default_factory=dict
    )
    #: the announcements and kontras offered to a seat, by (seat, Schlemme, contras made):
    #: the hand's ``_schlemm_actions``
    offers: dict[tuple[int, int, int], tuple[Action, ...]] = field(default_factory=dict)

    # ------------------------------------------------------------------ queries

    def active(self, party: int) -> list[Instance]:
        # (``i.active`` read inline: the bidding's offers ask this hundreds of times a game)
        return [i for i in self.instances if i.party == party and i.superseded_by is None]

    def find_active(self, party: int, item_id: str) -> Instance | None:
        return next((i for i in self.active(party) if i.item_id == item_id), None)

    def contra_on(self, idx: int) -> Contra | None:
        return next((c for c in self.contras if c.target == idx and not c.void), None)

    def _v(self, code: str, msg: str, seat: int, **kw: Any) -> Violation:
        return violation(self.ruleset, code, msg, seat=seat, **kw)

    # ------------------------------------------------------------------ Meldungen

    def meld(self, a: Action, seq: int, apply: bool) -> list[Violation]:
        """A Meldung (§4.3): true, about the declarer's own dealt hand, once per player."""
        mid = a.meld or ""
        params = dict(a.params)
        item = self.catalogue.get(mid)
        out: list[Violation] = []
        if item is None:
            out.append(
                self._v(
                    "catalogue.unknown_item",
                    f"{self.who(a.seat)} declared {mid!r}, which the catalogue "
                    f"{self.catalogue.id} does not know: not checked, scored as unverified",
                    a.seat,
                    item=mid,
                )
            )
            if apply:
                self.melds.append(MeldRecord(a.seat, mid, params, seq, None))
            return out
        if not item.is_meldung:
            out.append(
                self._v(
                    "meld.not_a_meldung",
                    f"{self.who(a.seat)} declared {mid} ({item.name}) as a Meldung, but it is a "
                    f"{item.group} item: it is announced, not declared; ignored",
                    a.seat,
                    item=mid,
                )
            )
            return out
        bad = _param_fault(item, params)
        if bad:
            out.append(
                self._v(
                    "meld.false",
                    f"{self.who(a.seat)} declared {mid} ({item.name}) with {bad}: not a valid "
                    "declaration, not scored",
                    a.seat,
                    item=mid,
                )
            )
            if apply:
                self.melds.append(MeldRecord(a.seat, mid, params, seq, False))
            return out
        key = tuple(params.get(k) for k in item.distinct_by)
        dup = any(
            m.seat == a.seat
            and m.item_id == mid
            and m.counted
            and tuple(m.params.get(k) for k in item.distinct_by) == key
            for m in self.melds
        )
        valid = self._bears_out(item, a.seat, params)
        if valid is False:
            out.append(
                self._v(
                    "meld.false",
                    f"{self.who(a.seat)} declared {_meld_text(item, params)}, which his dealt hand "
                    "does not bear out (only the real number may be declared): not scored",
                    a.seat,
                    item=mid,
                )
            )
        if dup and valid is not False:
            out.append(
                self._v(
                    "meld.duplicate",
                    f"{self.who(a.seat)} declared {_meld_text(item, params)} a second time: "
                    "counted once",
                    a.seat,
                    item=mid,
                )
            )
        if apply:
            self.melds.append(
                MeldRecord(
                    a.seat, mid, params, seq, valid, counted=not (dup and valid is not False)
                )
            )
        return out

    # ------------------------------------------------------------------ Schlemme

    def announce(self, a: Action, seq: int, apply: bool) -> list[Violation]:
        """A Schlemm announcement or raise (§4.5's algorithm, reading ``raise_rule``)."""
        sid = a.bonus or ""
        seat = a.seat
        party = self.party_of(seat)
        item = self.catalogue.get(sid)
        out: list[Violation] = []
        act = self.active(party)
        if item is None:
            if any(i.item_id == sid for i in act):
                return [self._dup(seat, sid)]
            out.append(
                self._v(
                    "catalogue.unknown_item",
                    f"{self.who(seat)} announced {sid!r}, which the catalogue {self.catalogue.id} "
                    "does not know: its legality and score are not checked (unverified)",
                    seat,
                    item=sid,
                )
            )
            if apply:
                self._new(sid, party, seat, seq, ())
            return out
        if item.is_meldung or item.silent or not item.announceable:
            kind = "a Meldung (declared with meld)" if item.is_meldung else "not announceable"
            return [
                self._v(
                    "announce.not_announceable",
                    f"{self.who(seat)} announced {sid} ({item.name}), which is {kind}: ignored",
                    seat,
                    item=sid,
                )
            ]
        if any(i.item_id == sid for i in act):
            return [self._dup(seat, sid)]
        other = self.find_active(1 - party, sid)
        if item.exclusive and other is not None:
            return [
                self._v(
                    "announce.exclusive",
                    f"{self.who(seat)} announced {sid} ({item.name}), already announced by the "
                    "other pair; the catalogue marks it exclusive: ignored",
                    seat,
                    item=sid,
                )
            ]
        higher = [i for i in act if self.catalogue.raises(i.item_id, sid)]
        if higher:
            return [
                self._v(
                    "announce.cheaper_after_raise",
                    f"{self.who(seat)} announced {sid} ({item.name}) after his pair's "
                    f"{higher[0].item_id}, which already contains it: no effect",
                    seat,
                    item=sid,
                )
            ]
        related = [i for i in act if self.catalogue.raises(sid, i.item_id)]
        if a.raises and a.raises not in {i.item_id for i in related}:
            out.append(
                self._v(
                    "raise.target_mismatch",
                    f"{self.who(seat)} announced {sid} as a raise of {a.raises}, but {a.raises} is "
                    f"not an active Schlemm of his pair that {sid} raises"
                    + (f" (it raises {', '.join(i.item_id for i in related)})" if related else ""),
                    seat,
                    item=sid,
                )
            )
        if not related:
            if not item.direct_announcement_allowed:
                out.append(
                    self._v(
                        "announce.only_by_raise",
                        f"{self.who(seat)} announced {sid} ({item.name}) directly; the catalogue "
                        "allows it only as a raise",
                        seat,
                        item=sid,
                    )
                )
        else:
            last = max(related, key=lambda i: i.seq)
            if last.announcer == seat:
                out.append(self._same_player_raise(seat, item, last))
        if apply:
            new = self._new(sid, party, seat, seq, tuple(i.idx for i in related))
            mode = self.options["raise_voids_contra"]
            carried = False
            for i in sorted(related, key=lambda i: -i.seq):
                i.superseded_by = new.idx
                c = self.contra_on(i.idx)
                if c is None or mode == "keep":
                    continue
                if mode == "carry_over" and not carried:
                    c.target = new.idx
                    carried = True
                else:
                    c.void = True
        return out

    def _same_player_raise(self, seat: int, item: Item, last: Instance) -> Violation:
        msg = (
            f"{self.who(seat)} raised his own {last.item_id} to {item.id} ({item.name}); "
            "only his partner may raise it"
        )
        if item.is_trophy:
            return self._v(
                "raise.needs_partner",
                msg + " (trophies: only with a change of partner)",
                seat,
                item=item.id,
            )
        if self.options["raise_rule"] == "B":
            return self._v(
                "raise.by_announcer",
                msg + " under reading A of §8.1 item 6; legal under reading B (either member "
                "of the pair may raise an ordinary Schlemm), the ruleset's reading",
                seat,
                item=item.id,
                legal_under="B",
            )
        return self._v(
            "raise.needs_partner",
            msg + " (reading A of §8.1 item 6; reading B, under which either member of the "
            "pair may raise an ordinary Schlemm, would allow it)",
            seat,
            item=item.id,
            legal_under="B",
        )

    def _dup(self, seat: int, sid: str) -> Violation:
        return self._v(
            "announce.duplicate",
            f"{self.who(seat)} announced {sid}, which his pair has already announced: ignored",
            seat,
            item=sid,
        )

    def _new(
        self, sid: str, party: int, seat: int, seq: int, raised_from: tuple[int, ...]
    ) -> Instance:
        inst = Instance(len(self.instances), sid, party, seat, seq, raised_from)
        self.instances.append(inst)
        return inst

    # ------------------------------------------------------------------ contras

    def kontra(self, a: Action, seq: int, apply: bool) -> list[Violation]:
        """A contra (§4.4): one level, by an opponent, on an active Schlemm, once each."""
        seat = a.seat
        party = self.party_of(seat)
        target = a.target or "game"
        if (a.level or 1) != 1:
            return [
                self._v(
                    "kontra.level",
                    f"{self.who(seat)} gave a level-{a.level} contra on {target}: Royal Tarock "
                    "knows one level only (no re-contra): ignored",
                    seat,
                    target=target,
                )
            ]
        item = self.catalogue.get(target)
        if item is not None and (item.is_meldung or item.silent):
            return [
                self._v(
                    "kontra.not_allowed",
                    f"{self.who(seat)} contra'd {target} ({item.name}): Meldungen and silent "
                    "premiums cannot be contra'd: ignored",
                    seat,
                    target=target,
                )
            ]
        inst = self.find_active(1 - party, target)
        if inst is None:
            if self.find_active(party, target) is not None:
                code, why = "kontra.own_schlemm", "his own pair's Schlemm"
            elif any(i.party != party and i.item_id == target for i in self.instances):
                code, why = "kontra.inactive", "a Schlemm the opponents have raised"
            else:
                code, why = "kontra.inactive", "nothing the opponents have announced"
            return [
                self._v(
                    code,
                    f"{self.who(seat)} contra'd {target}: {why}: ignored",
                    seat,
                    target=target,
                )
            ]
        if item is not None and not item.contra_allowed:
            return [
                self._v(
                    "kontra.not_allowed",
                    f"{self.who(seat)} contra'd {target} ({item.name}), which the catalogue marks "
                    "as not contra-able: ignored",
                    seat,
                    target=target,
                )
            ]
        if self.contra_on(inst.idx) is not None:
            return [
                self._v(
                    "kontra.twice",
                    f"{self.who(seat)} contra'd {target} a second time: one contra per Schlemm: "
                    "ignored",
                    seat,
                    target=target,
                )
            ]
        if apply:
            self.contras.append(Contra(seat, party, inst.idx, seq))
        return []

    # ------------------------------------------------------------------ for legal_actions

    def _bears_out(self, item: Item, seat: int, params: Mapping[str, Any]) -> bool | None:
        """Whether ``seat``'s dealt hand bears out the Meldung ``item`` with ``params`` (None:
        the catalogue gives no condition to check)."""
        if item.condition is None:
            return None
        try:
            key = (seat, item.id, tuple(sorted(params.items())))
            known = self.bears_out.get(key)
        except TypeError:  # (a parameter value that cannot key a dict)
            key, known = None, None
        if known is None:
            ctx = predicates.Context(
                party=frozenset(), dealt=self.dealt, player=seat, params=params
            )
            known = predicates.compiled(item.condition)(ctx)
            if key is not None:
                self.bears_out[key] = known
        return known

    def meld_candidates(self, seat: int) -> list[Action]:
        """The true, not yet made Meldungen of ``seat`` (parameters enumerated). Which are true
        depends on the dealt hand alone, so it is worked out once per seat and hand; each call
        then keeps those :meth:`meld` admits now (not made yet)."""
        true = self.true_melds.get(seat)
        if true is None:
            true = self.true_melds[seat] = [
                Action("meld", seat, meld=item.id, params=tuple(sorted(params.items())))
                for item in self.catalogue.items.values()
                if item.is_meldung and item.condition is not None
                for params in _param_choices(item)
                if self._bears_out(item, seat, params)
            ]
        return [a for a in true if not self.meld(a, -1, apply=False)]


def _param_fault(item: Item, params: Mapping[str, Any]) -> str:
    missing = sorted(set(item.params) - set(params))
    extra = sorted(set(params) - set(item.params))
    if missing:
        return f"parameter(s) {', '.join(missing)} missing"
    if extra:
        return f"unexpected parameter(s) {', '.join(extra)}"
    for k, kind in item.params.items():
        v = params[k]
        if kind == "suit" and v not in ("H", "D", "S", "C"):
            return f"{k}={v!r} (not a suit H D S C)"
        if kind == "int" and (isinstance(v, bool) or not isinstance(v, int)):
            return f"{k}={v!r} (not a number)"
        if kind == "bool" and not isinstance(v, bool):
            return f"{k}={v!r} (not true/false)"
        if kind == "str" and not isinstance(v, str):
            return f"{k}={v!r} (not a text)"
    return ""


def _param_choices(item: Item) -> list[dict[str, Any]]:
    choices: list[dict[str, Any]] = [{}]
    for k, kind in item.params.items():
        if kind == "suit":
            values: list[Any] = ["H", "D", "S", "C"]
        elif kind == "int":
            values = list(range(11))
        elif kind == "bool":
            values = [True, False]
        else:
            return []  # free text cannot be enumerated
        choices = [{**c, k: v} for c in choices for v in values]
    return choices


def _meld_text(item: Item, params: Mapping[str, Any]) -> str:
    if params:
        return (
            f"{item.id} ({item.name}, "
            + ", ".join(f"{k} {v}" for k, v in sorted(params.items()))
            + ")"
        )
    return f"{item.id} ({item.name})"
