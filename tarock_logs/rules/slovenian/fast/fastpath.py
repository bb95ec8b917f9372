"""The Slovenian bulk-audit path: a thin caller of the native engine (``_native/slohand.h``).

Slovenian tarok has two homes (docs/slovenian-engine.md): the **reference**
(:class:`~tarock_logs.rules.slovenian.hand.SlovenianHand` and its phase mixins, with
:mod:`~tarock_logs.rules.slovenian.scoring`: every rule with the section it enforces, every
finding, the itemised score) and the **machine** (the C of ``tarock_logs/_native``:
``slohand.h`` plays a whole clean hand, the deal check, the bidding, the king call, the talon,
the discards, the announcement round and the cards; ``openspiel.h`` gives OpenSpiel's returns;
``sloscore.h`` scores a clean hand for the store's ingest lane). Nothing here is a rule: this
module only marshals the session's rules, the deal and the log's actions into the native
engine and its answer back into what the replay takes (:class:`~tarock_logs.rules.base.FastReplay`).

:func:`fast_replay` gives the native engine's result for a hand it vouches for (one the
reference would find clean, at a table of 3 or 4), or None: the caller then replays the hand
through the reference, whole (a table of 5, anything unusual, or no native core: built without
a compiler, or ``TAROCK_NATIVE=0``). The score of a hand the native engine played is the
reference's (:func:`~tarock_logs.rules.slovenian.scoring.score_hand` over the finished hand's
tricks, with the reasons the audit quotes), or under ``openspiel-2.0`` OpenSpiel's returns from
the C. The differential harness (tests/rules/slovenian/test_native_hand.py and
test_homes.py) holds the two homes equal position by position.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, partial
from types import ModuleType
from typing import Any, Final, Literal, NamedTuple, cast, get_args, get_origin

from tarock_logs import _native
from tarock_logs.rules.base import (
    Action,
    FastReplay,
    HandScore,
    HandState,
    OnRequest,
    ScoreItem,
    TrickRows,
    score_item,
)
from tarock_logs.rules.slovenian.contracts import CONTRACTS, Rules
from tarock_logs.rules.slovenian.fast import codec
from tarock_logs.rules.slovenian.fast.cardbits import CARD, CID, check_native
from tarock_logs.rules.slovenian.hand import SEATING, SlovenianHand
from tarock_logs.rules.slovenian.scoring import score_hand
from tarock_logs.rules.slovenian.state import HandFields
from tarock_logs.rules.slovenian.tricks import PACK_SET, Trick, thirds

__all__ = [
    "CONTRACT_CODES",
    "FinishedHand",
    "HandTricks",
    "fast_replay",
    "native_card_loop",
    "native_config",
    "native_replay",
    "native_score_config",
    "native_whole_hand",
]


def _checked_core() -> ModuleType | None:
    """The native core when it is loaded and numbers the cards as :mod:`.cardbits` does. A
    core whose config fields and the Python rule tables disagree (:mod:`.codec`), or one built
    before the codec, raises :class:`.codec.CodecMismatch`: rebuild the extension."""
    core = _native.core
    if core is None or not check_native(core):
        return None
    codec.check_codec(core)
    return core


#: the native core, or None: built without a C compiler, switched off with
#: ``TAROCK_NATIVE=0`` (or numbering the cards otherwise); then :func:`fast_replay` declines
#: every hand
_CORE: Final = _checked_core()

#: a completed trick as the native engine gives it: (leader seat, card tokens in playing
#: order, winner seat)
TrickRecord = tuple[int, list[str], int]


def native_card_loop() -> bool:
    """Whether the native engine (its card loop included) plays the bulk path's hands."""
    return _CORE is not None


# ---------------------------------------------------------------- the rules, marshalled

#: the action kinds of ``_native/slohand.h`` (its ``SH_`` enum); any other kind declines.
#: Keyed by the ``type`` string, and by the classes :func:`_learn_action_class` found to have
#: one type for all their instances (the C then takes the kind from an action's class).
_SH_KINDS: Final[dict[str | type, int]] = {
    "pass": 0, "bid": 1, "call": 2, "talon": 3, "discard": 4, "play": 5, "lezim": 6,
    "announce": 7, "kontra": 8,
}  # fmt: skip
#: the action classes :func:`_learn_action_class` has looked at
_SEEN_CLASSES: Final[set[type]] = set()


def _learn_action_class(cls: type) -> None:
    """Key ``cls`` in :data:`_SH_KINDS` when every instance of it has the same ``type``: a
    frozen pydantic model (its fields cannot be set after validation) whose ``type`` field is
    a ``Literal`` of one of the kinds (the log format's ``Play``, for one). Read by duck
    typing: the engine does not import the log format."""
    _SEEN_CLASSES.add(cls)
    config = getattr(cls, "model_config", None)
    fields = getattr(cls, "model_fields", None)
    if not isinstance(config, dict) or not config.get("frozen") or not isinstance(fields, dict):
        return
    ann = getattr(fields.get("type"), "annotation", None)
    args = get_args(ann) if get_origin(ann) is Literal else ()
    if len(args) == 1 and isinstance(args[0], str) and args[0] in _SH_KINDS:
        _SH_KINDS[cls] = _SH_KINDS[args[0]]


#: the contract codes by the index the native engine (and the ingest lane) gives: the order
#: of ``CONTRACTS``
CONTRACT_CODES: Final = tuple(CONTRACTS)
_CONTRACT_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(CONTRACT_CODES)}


def native_whole_hand(rules: Rules, table_size: int) -> bool:
    """Whether :func:`fast_replay` can play a clean hand of ``rules`` at a table of
    ``table_size`` in the native engine: at tables of 3 and 4 when the native core is there.
    Every other hand is the reference's."""
    return _native_config(rules, table_size) is not None


def native_config(rules: Rules, table_size: int) -> bytes | None:
    """The ruleset's side of the native whole hand for a table of ``table_size`` (the bytes
    ``slovenian_hand`` and the store's ingest lane take), or None where the native whole
    hand does not apply (:func:`native_whole_hand`)."""
    return _native_config(rules, table_size)


def _native_config(rules: Rules, table_size: int) -> bytes | None:
    if _CORE is None:
        return None
    cache = rules.native  # per Rules object (a session's): built once from the options
    if table_size not in cache:
        key = (codec.options_key(rules), table_size)
        if key not in _CONFIGS:
            _CONFIGS[key] = _config(rules, table_size)
        cache[table_size] = _CONFIGS[key]
    cfg: bytes | None = cache[table_size]
    return cfg


#: :func:`_config` by the ruleset's options (:func:`.codec.options_key`) and table size: the
#: sessions of a ruleset share it
_CONFIGS: Final[dict[tuple[Any, ...], bytes | None]] = {}


def _config(rules: Rules, table_size: int) -> bytes | None:
    core = _CORE
    if core is None or table_size not in (3, 4):
        return None
    cfg: bytes = core.slovenian_config(codec.config_fields(core, rules, table_size))
    return cfg


def native_score_config(rules: Rules) -> bytes | None:
    """What the native scoring of a clean hand (``_native/sloscore.h``, the native home of
    the reference's ``hand_facts`` and ``score_facts`` for a hand without irregularities)
    reads of ``rules`` (``slovenian_score_config``, filled by :mod:`.codec`); None without the
    native core. The store's ingest lane scores its hands with it."""
    core = _CORE
    if core is None:
        return None
    cache = rules.native  # per Rules object (a session's), as _native_config's (key 0: no table)
    if 0 not in cache:
        key = ("score", codec.options_key(rules))
        if key not in _CONFIGS:
            _CONFIGS[key] = core.slovenian_score_config(codec.score_config_fields(core, rules))
        cache[0] = _CONFIGS[key]
    cfg: bytes | None = cache[0]
    return cfg


# ---------------------------------------------------------------- the answer, marshalled

_NO_ANN: Final[dict[str, tuple[int, str]]] = {}
_NO_KONTRA: Final[dict[str, int]] = {}


class FinishedHand(HandFields):
    """A hand the native engine played, as the reference's scorer and the session read a
    finished hand (:class:`~tarock_logs.rules.slovenian.state.HandFields`): the seats, the
    contract with its declarer, partner and called king, the talon taken and the discards,
    the announcements and kontras of the round, the completed tricks (the reference's
    :class:`~tarock_logs.rules.slovenian.tricks.Trick` records), the radelci and misdeal
    counts before the hand (set for a hand the reference scores). Nothing was claimed or
    recorded as irregular (the native engine takes no such hand). Its own record, filled by
    :func:`native_score`: the reference hand's state is rebuilt only when asked for
    (``FastReplay.rebuild``)."""

    __slots__ = ("_order", "active", "ann", "called_king", "claim", "contract", "dealer",
                 "declarer", "discards", "ended_early", "irregularities", "king_in_talon",
                 "kontra", "kontra_list", "misdeals_before", "n_active", "partner",
                 "radelci_before", "rules", "self_call", "table_size", "taken", "talon",
                 "talon_group", "tricks", "tricks_total")  # fmt: skip

    def __init__(self, rules: Rules, table_size: int, dealer: int, contract: str,
                 talon: tuple[str, ...]) -> None:  # fmt: skip
        seating = SEATING[(table_size, dealer)]
        self.rules = rules
        self.table_size = table_size
        self.dealer = dealer
        self.active = seating.active
        self.n_active = seating.n_active
        self.tricks_total = seating.tricks_total
        self._order: dict[int, tuple[int, ...]] = seating.order
        self.contract = contract
        self.talon = talon
        self.tricks = []
        self.declarer = None
        self.partner = None
        self.called_king = None
        self.king_in_talon = False
        self.self_call = False
        self.talon_group = None
        self.taken = ()
        self.discards = ()
        self.ended_early = False
        self.ann = _NO_ANN
        self.kontra = _NO_KONTRA
        self.kontra_list = ()
        self.claim = None
        self.irregularities = ()
        self.radelci_before = ()
        self.misdeals_before = ()

    def side(self, seat: int) -> str:
        """``M`` for the declarer and his partner, ``O`` for the others (the reference's)."""
        if self.declarer is not None and (seat == self.declarer or seat == self.partner):
            return "M"
        return "O"


def _decode_tricks(packed: bytes) -> tuple[list[TrickRecord], list[int]]:
    """The trick records of slohand.h's packed tricks (7 bytes each: leader, winner, the
    winning card's index, four card ids, 255 for none)."""
    card = CARD
    recs: list[TrickRecord] = []
    wins: list[int] = []
    for i in range(0, len(packed), 7):
        leader, winner, wi, *ids = packed[i : i + 7]
        recs.append((leader, [card[x] for x in ids if x != 255], winner))
        wins.append(wi)
    return recs, wins


def _talon_gifts(h: HandFields) -> bool:
    """Whether the first six tricks of the hand each take a talon card (klop)."""
    return h.contract is not None and CONTRACTS[h.contract].talon_gifts


def _tricks(h: FinishedHand, recs: Sequence[TrickRecord], wins: Sequence[int]) -> list[Trick]:
    """The reference's Trick records of the native engine's tricks (klop gifts from the
    talon included), through the record's constructor."""
    out = []
    gifts = _talon_gifts(h)
    talon = h.talon
    order = h._order
    for i, (leader, cards, winner) in enumerate(recs):
        seats = order[leader]
        pairs = tuple([(seats[j], c) for j, c in enumerate(cards)])
        if gifts and i < 6 and i < len(talon):
            gift: str | None = talon[i]
            pile = (*cards, talon[i])
        else:
            gift = None
            pile = tuple(cards)
        out.append(Trick(leader, pairs, winner, cards[wins[i]], gift, pile))
    return out


class HandTricks:
    """The completed tricks of a hand the native engine played, from its trick records.

    Calling it gives the reference's :class:`~tarock_logs.rules.slovenian.tricks.Trick`
    records (built once, kept on the finished hand's ``tricks``); :meth:`views` gives the
    tricks as :meth:`SlovenianHand.view` does (``view()["tricks"]``, what the store keeps),
    :meth:`rows` as columns."""

    __slots__ = ("_packed", "_recs", "_wins", "h")

    def __init__(
        self,
        h: FinishedHand,
        recs: Sequence[TrickRecord] = (),
        wins: Sequence[int] = (),
        packed: bytes | None = None,
    ) -> None:
        self.h = h
        self._recs = recs
        self._wins = wins
        #: the native whole hand's packed tricks, decoded into records on first use
        self._packed = packed

    def _decode(self) -> None:
        packed, self._packed = self._packed, None
        if packed is not None:
            self._recs, self._wins = _decode_tricks(packed)

    @property
    def recs(self) -> Sequence[TrickRecord]:
        """The trick records ``(leader, cards, winner)``."""
        if self._packed is not None:
            self._decode()
        return self._recs

    @property
    def wins(self) -> Sequence[int]:
        """Each trick's winning card's index."""
        if self._packed is not None:
            self._decode()
        return self._wins

    def __call__(self) -> list[Trick]:
        h = self.h
        if not h.tricks:
            h.tricks.extend(_tricks(h, self.recs, self.wins))
        return h.tricks

    def rows(self) -> TrickRows:
        """The tricks as columns (:class:`~tarock_logs.rules.base.TrickRows`): the same
        leaders, winners, seats, cards and points as :meth:`views`."""
        h = self.h
        order = h._order
        gifts = h.talon if _talon_gifts(h) else ()
        pack = PACK_SET
        leaders: list[int] = []
        winners: list[int] = []
        seats: list[tuple[int, ...]] = []
        cards_col: list[tuple[str, ...]] = []
        points: list[int | None] = []
        for i, (leader, cards, winner) in enumerate(self.recs):
            gift = gifts[i] if i < 6 and i < len(gifts) else None
            ok = pack.issuperset(cards) and (gift is None or gift in pack)
            leaders.append(leader)
            winners.append(winner)
            seats.append(order[leader][: len(cards)])
            cards_col.append(tuple(cards))
            points.append((thirds(cards) + (thirds((gift,)) if gift else 0)) if ok else None)
        return TrickRows(leaders, winners, seats, cards_col, points)

    def views(self) -> list[dict[str, Any]]:
        h = self.h
        order = h._order
        wins = self.wins
        gifts = h.talon if _talon_gifts(h) else ()  # the first six tricks
        pack = PACK_SET
        out = []
        for i, (leader, cards, winner) in enumerate(self.recs):
            seats = order[leader]
            gift = gifts[i] if i < 6 and i < len(gifts) else None
            ok = pack.issuperset(cards) and (gift is None or gift in pack)
            out.append(
                {
                    "leader": leader,
                    "cards": [[seats[j], c] for j, c in enumerate(cards)],
                    "winner": winner,
                    "winning_card": cards[wins[i]],
                    "gift": gift,
                    "points": (thirds(cards) + (thirds((gift,)) if gift else 0)) if ok else None,
                    "points_unit": "thirds",
                }
            )
        return out


@lru_cache(maxsize=4096)
def _returns_items(
    item: str, returns: tuple[int, ...], active: tuple[int, ...]
) -> tuple[ScoreItem, ...]:
    """The score items of OpenSpiel's ``returns`` (one ``item`` line per active seat, as the
    reference's ``openspiel_hand_score`` writes them): frozen values, shared by the hands
    with the same returns."""
    return tuple([score_item(item, returns[s], s, "OpenSpiel returns") for s in active])


def native_score(
    rules: Rules,
    n: int,
    dealer: int,
    talon: tuple[str, ...],
    self_call: bool,
    radelci: Sequence[int],
    misdeals: Sequence[int],
    res: tuple[Any, ...],
) -> tuple[HandScore, FinishedHand, HandTricks] | None:
    """The score of a hand the native whole hand played (``res``: what ``slovenian_hand``
    returns, called with the card tokens), the finished hand and its tricks; None when the
    score leaves anything unverified (the reference then replays the hand). Under
    ``openspiel-2.0`` OpenSpiel's returns from the C; otherwise the reference's
    :func:`~tarock_logs.rules.slovenian.scoring.score_hand` of the finished hand, with
    ``radelci`` and ``misdeals`` the counts before the hand. ``self_call``: the declarer
    called a king of his own hand."""
    (ci, declarer, partner, king, group, discards, packed, early, _masks, returns, _, recs,
     anns, kontras) = res  # fmt: skip
    contract = CONTRACT_CODES[ci]
    info = FinishedHand(rules, n, dealer, contract, talon)
    if returns is not None:  # OpenSpiel's returns, from the C
        klop = CONTRACTS[contract].alone
        item = "klop" if klop else "contract"  # klop's score item is "klop"
        score = HandScore(
            totals=returns,
            items=_returns_items(item, returns, info.active),
            contract=contract,
            declarer=None if declarer < 0 else declarer,
            partner=None if partner < 0 else partner,
            won=None if klop else returns[declarer] > 0,
            carry_after={"radelci": [0] * n},
        )
        return score, info, HandTricks(info, packed=packed)
    if declarer >= 0:
        info.declarer = declarer
        info.partner = None if partner < 0 else partner
        if king >= 0:
            k = info.called_king = CARD[king]
            info.king_in_talon = k in talon
            info.self_call = self_call
        if group >= 0:
            take = CONTRACTS[contract].talon
            info.talon_group = group
            info.taken = talon[group * take : (group + 1) * take]
        info.discards = tuple([CARD[x] for x in discards])
    info.ended_early = early
    # the counts before the hand, as the reference hand keeps them
    info.radelci_before = (tuple([max(0, int(x)) for x in radelci]) + (0,) * n)[:n]
    info.misdeals_before = (tuple(misdeals) + (0,) * n)[:n]
    if anns:  # the announcements and kontras of the round, as the reference keeps them
        info.ann = {bonus: (seat, side) for seat, bonus, side in anns}
    if kontras:
        info.kontra = {target: level for _, target, level in kontras}
        info.kontra_list = kontras
    tricks = HandTricks(info, *recs)  # the trick records, made by the C from CARD's tokens
    tricks()
    score = score_hand(info)
    if score.unverified:
        return None
    return score, info, tricks


class HandInputs(NamedTuple):
    """What :func:`fast_replay` is given for one hand (the session's rules, table size,
    radelci and misdeal counts; the deal; the log's actions and their converter)."""

    rules: Rules
    table_size: int
    radelci: list[int]
    misdeals: list[int]
    dealer: int
    hands: Sequence[Sequence[str]]
    talon: Sequence[str]
    actions: Sequence[Any]
    to_action: Callable[[Any], Action]


def _reference_hand(i: HandInputs) -> SlovenianHand:
    """The hand replayed through the reference engine (a fast replay's ``rebuild``)."""
    ref = SlovenianHand(i.rules, i.table_size, i.dealer, i.hands, i.talon, radelci=i.radelci,
                        misdeals_before=i.misdeals)  # fmt: skip
    for a in i.actions:
        ref.push(i.to_action(a))
    return ref


def fast_replay(
    rules: Rules,
    table_size: int,
    radelci: Sequence[int],
    misdeals: Sequence[int],
    dealer: int,
    hands: Sequence[Sequence[str]],
    talon: Sequence[str],
    actions: Sequence[Any],
    to_action: Callable[[Any], Action],
) -> FastReplay | None:
    """The native engine's replay of one ordinary hand, or ``None`` (the reference replays it).

    ``rules``, ``table_size``, ``radelci`` and ``misdeals`` are the session's (nothing of it
    is changed: the caller ends the hand with ``SlovenianSession.end_hand``). ``actions`` are
    the log's actions (any objects with ``type``, ``seat`` and the fields of their kind);
    ``to_action`` converts one into an engine :class:`~tarock_logs.rules.base.Action` for the
    reference (``rebuild``). On success returns the reference score, the finished hand, a
    ``rebuild()`` of the hand through the reference engine, and the completed tricks from a
    :class:`HandTricks` (``tricks``: as ``view()["tricks"]``; ``trick_rows``: as
    :class:`~tarock_logs.rules.base.TrickRows`).
    """
    cfg = _native_config(rules, table_size)
    if cfg is None:
        return None
    inputs = HandInputs(rules, table_size, list(radelci), list(misdeals), dealer, hands, talon,
                        actions, to_action)  # fmt: skip
    return _native_hand(cfg, inputs)


def _native_hand(
    cfg: bytes, inputs: HandInputs, res: tuple[Any, ...] | None = None
) -> FastReplay | None:
    """The whole clean hand in one native call (``_native/slohand.h``; ``res``: its answer,
    when already asked), or None."""
    assert _CORE is not None
    dealer, talon = inputs.dealer, inputs.talon
    acts = inputs.actions
    if acts and type(acts[-1]) not in _SEEN_CLASSES:  # a hand ends with a card: its class
        _learn_action_class(type(acts[-1]))
    if res is None:
        res = _CORE.slovenian_hand(cfg, dealer, inputs.hands, talon, acts, _SH_KINDS,
                                   _CONTRACT_INDEX, CID, CARD)  # fmt: skip
    if res is None:
        return None
    king = res[3]
    declarer = res[1]
    self_call = declarer >= 0 and king >= 0 and CARD[king] in inputs.hands[declarer]
    done = native_score(inputs.rules, inputs.table_size, dealer, tuple(talon), self_call,
                        inputs.radelci, inputs.misdeals, res)  # fmt: skip
    if done is None:
        return None
    score, info, tricks = done
    rebuild = partial(_reference_hand, inputs)
    return FastReplay(score, cast(HandState, info), rebuild, tricks.views, trick_rows=tricks.rows)


def native_replay(
    rules: Rules,
    table_size: int,
    radelci: Sequence[int],
    misdeals: Sequence[int],
    dealer: int,
    hands: Sequence[Sequence[str]],
    talon: Sequence[str],
    actions: Sequence[Any],
    to_action: Callable[[Any], Action],
) -> FastReplay | None:
    """The machine's whole hand and score (``SlovenianSession.native_replay``), or None.

    As :func:`fast_replay`, but the score is the native engine's too (``sloscore.h``, the
    ingest lane's: the reference's lines, totals, verdict and radelci after, held equal by
    tests/rules/slovenian/test_native_hand.py), with no reasons on its lines; the reference's
    score (its reasons) and card points, the finished hand's tricks come on request from
    :func:`fast_replay`'s path. Under ``openspiel-2.0`` it is :func:`fast_replay` (OpenSpiel's
    returns come from the C there)."""
    cache = rules.native  # (_native_config's answer, without the call: a hand's hot path)
    cfg = cache[table_size] if table_size in cache else _native_config(rules, table_size)
    if cfg is None:
        return None
    core = _CORE
    assert core is not None
    if actions and type(actions[-1]) not in _SEEN_CLASSES:
        _learn_action_class(type(actions[-1]))
    if rules.openspiel_scoring:  # OpenSpiel's returns, from the C (openspiel.h)
        got = core.slovenian_hand(cfg, dealer, hands, talon, actions, _SH_KINDS, _CONTRACT_INDEX,
                                  CID, CARD)  # fmt: skip
        if got is None:
            return None
        later = _Later(cfg, HandInputs(rules, table_size, list(radelci), list(misdeals), dealer,
                                       hands, talon, actions, to_action), got)  # fmt: skip
        score = _returns_score(got[0], got[1], got[2], got[9], table_size, dealer)
        # (positional: the frozen record's keywords cost more than its fields)
        return FastReplay(score, cast(HandState, later), later.rebuild, later.views, (),
                          later.rows)  # fmt: skip
    scoring = cache[0] if 0 in cache else native_score_config(rules)
    assert scoring is not None
    rad = list(radelci)
    res = core.slovenian_score(cfg, scoring, dealer, hands, talon, actions, _SH_KINDS,
                               _CONTRACT_INDEX, CID, CONTRACT_CODES, rad)  # fmt: skip
    if res is None:
        return None
    contract, declarer, partner, won, lines, totals, after = res
    later = _Later(cfg, HandInputs(rules, table_size, rad, list(misdeals), dealer, hands, talon,
                                   actions, to_action))  # fmt: skip
    score = HandScore(
        totals,
        tuple([score_item(item, value, seat) for item, seat, value in lines]),
        contract,
        declarer,
        partner,
        won,
        OnRequest(later.card_points),
        (),
        (),
        {"radelci": list(after)},
    )
    # (the session's end_hand reads only the score: the stand-in is no hand state)
    return FastReplay(score, cast(HandState, later), later.rebuild, later.views, (), later.rows,
                      later.score)  # fmt: skip


@lru_cache(maxsize=4096)
def _returns_score(
    ci: int, declarer: int, partner: int, returns: tuple[int, ...], n: int, dealer: int
) -> HandScore:
    """The score of OpenSpiel's ``returns`` as :func:`native_score` makes it: a frozen value,
    shared by the hands with the same contract, seats and returns (its carry is all zeros:
    read it, never change it)."""
    contract = CONTRACT_CODES[ci]
    klop = CONTRACTS[contract].alone
    return HandScore(
        totals=returns,
        items=_returns_items("klop" if klop else "contract", returns, SEATING[(n, dealer)].active),
        contract=contract,
        declarer=None if declarer < 0 else declarer,
        partner=None if partner < 0 else partner,
        won=None if klop else returns[declarer] > 0,
        carry_after={"radelci": [0] * n},
    )


class _Later:
    """What a hand the machine played gives on request: :func:`fast_replay`'s result of the
    same hand (from ``got``, what ``slovenian_hand`` gave, or the native whole hand again;
    scored by the reference from its tricks, or by OpenSpiel's returns), and the reference's
    replay of it (``rebuild``)."""

    __slots__ = ("_cfg", "_done", "_got", "_inputs")

    def __init__(self, cfg: bytes, inputs: HandInputs, got: tuple[Any, ...] | None = None) -> None:
        self._cfg = cfg
        self._inputs = inputs
        self._got = got
        self._done: FastReplay | None = None

    def _get(self) -> FastReplay:
        done = self._done
        if done is None:
            done = self._done = _native_hand(self._cfg, self._inputs, self._got)
            if done is None:  # (the machine took the hand once: it takes it again)
                raise RuntimeError("the native engine declined a hand it had played")
        return done

    def rebuild(self) -> HandState:
        return _reference_hand(self._inputs)

    def score(self) -> HandScore:
        return self._get().score

    def card_points(self) -> Mapping[str, Any]:
        return self._get().score.card_points

    def views(self) -> Sequence[Mapping[str, Any]]:
        t = self._get().tricks
        return t() if callable(t) else t

    def rows(self) -> TrickRows:
        rows = self._get().trick_rows
        assert rows is not None
        return rows()
