"""The native engine of Zwanzigerrufen (``_native/zrhand.h``): its codec from the rule tables
by field name, and one whole clean hand through it.

The two homes (docs/architecture.md): the reference (:class:`~.hand.ZRHand`, the auction,
the scoring, the session) is the readable home and produces every finding; the native engine
runs a hand the reference would find clean (the deal, the auction, the forty cards, the
claims, the itemised score and the double-round multiplier) and declines (None) on anything
else, and the caller gives the hand to the reference, whole.

The codec: the core lists the fields of its ``zr_config`` (``zwanzigerrufen_config_fields``),
and each takes its value from

* an option of :data:`~.rulesets.DEFAULT_OPTIONS` of the same name: a bool as 0/1, an integer
  as it is (``max_kontra_level = "unlimited"`` as a number no chain reaches), a value of a
  closed set by its place in :data:`~.rulesets.OPTION_CHOICES`;
* a :class:`~.contracts.Contract` field of the same name (one int per row of
  :data:`~.contracts.CONTRACTS`), or one of :data:`DERIVED_PER_CONTRACT` (the contract's value
  and bonus factor under the options);
* one of :data:`DERIVED_SCALARS` (the card-point constants of :mod:`.tricks`).

:func:`check_codec` runs at import when the core is there: a field the core reads that nothing
here gives, an option or a Contract field nobody reads that is not declared
:data:`REFERENCE_ONLY`, or a bonus, score item, claim or action kind the core numbers in
another order than the reference, raises :class:`CodecMismatch`
(``tests/rules/zwanzigerrufen/test_native_hand.py`` pins both directions).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NamedTuple, cast

from tarock_logs import _native
from tarock_logs.rules.base import (
    Action,
    DealInfo,
    FastReplay,
    HandScore,
    HandState,
    OnRequest,
    Ruleset,
    score_item,
)
from tarock_logs.rules.zwanzigerrufen.auction import BONUSES
from tarock_logs.rules.zwanzigerrufen.contracts import CONTRACTS, Contract, bonus_factor, value
from tarock_logs.rules.zwanzigerrufen.fast import ZR_CID
from tarock_logs.rules.zwanzigerrufen.hand import PHASE_OF_TYPE, ZRHand
from tarock_logs.rules.zwanzigerrufen.rulesets import (
    DEFAULT_OPTIONS,
    OPTION_CHOICES,
    normalize_options,
)
from tarock_logs.rules.zwanzigerrufen.scoring import ITEM_ORDER
from tarock_logs.rules.zwanzigerrufen.tricks import (
    ABSOLUT_LIMIT,
    GAME_THRESHOLD,
    TOTAL_POINTS,
    TRULL_CARDS,
)

__all__ = [
    "CLAIMS",
    "CONTRACT_CODES",
    "DERIVED_PER_CONTRACT",
    "DERIVED_SCALARS",
    "LANE_CARDS",
    "REFERENCE_ONLY",
    "CodecMismatch",
    "NativeHand",
    "available",
    "check_codec",
    "config",
    "config_fields",
    "encode_actions",
    "lane_carry",
    "play_hand",
    "reference_carry",
]

_CORE: Final = _native.core


class CodecMismatch(RuntimeError):
    """The native core and the Zwanzigerrufen rule tables name different fields (one side
    changed)."""


#: the contract codes by the native engine's contract index (the table's order)
CONTRACT_CODES: Final = tuple(CONTRACTS)
#: the card bonuses claimed after the play, by the native engine's claim index
CLAIMS: Final = ("trull", "four_kings")
#: a Kontra chain no hand reaches (``max_kontra_level = "unlimited"``)
_UNLIMITED: Final = 1_000_000

#: the options the native engine does not read under their own name: the reference's alone
#: (``direction``, ``glatzen``, ``knocking``: the table and the reader; ``infraction_policy``:
#: a clean hand has no infraction) or reaching the core through a derived per-contract field
#: (the values and bonus factors of the solos: ``value``, ``bonus_factor``)
REFERENCE_ONLY: Final = frozenset(
    {"direction", "glatzen", "knocking", "infraction_policy", "solo_value", "farbensolo_value",
     "solo_bonus_factor", "farbensolo_bonus_factor", "code", "value_option",
     "bonus_factor_option"}
)  # fmt: skip

#: the scalars that are no option: the card-point constants of the play (§7.1, §7.2)
DERIVED_SCALARS: Final[Mapping[str, int]] = {
    "game_threshold": GAME_THRESHOLD,
    "absolut_limit": ABSOLUT_LIMIT,
    "total_points": TOTAL_POINTS,
}

#: the per-contract fields that are no Contract field of the same name, from the options
DERIVED_PER_CONTRACT: Final[Mapping[str, Callable[[str, Mapping[str, Any]], int]]] = {
    "value": value,
    "bonus_factor": bonus_factor,
}

_CONTRACT_FIELDS: Final = tuple(f.name for f in dataclasses.fields(Contract))


def _option(name: str, v: Any) -> int:
    """An option's value as the core's int (see the module docstring)."""
    choices = OPTION_CHOICES.get(name)
    if choices is not None:
        for i, c in enumerate(choices):  # (True == 1: compare types too)
            if c == v and type(c) is type(v):
                return i
        raise ValueError(f"option {name}: {v!r} is not one of {choices}")
    if v == "unlimited":
        return _UNLIMITED
    return int(v)


def _spec(core: Any) -> Mapping[str, Any]:
    spec: Mapping[str, Any] = core.zwanzigerrufen_config_fields()
    return spec


def config_fields(core: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``zr_config`` under the checked ``options``, by the names the core
    lists."""
    out: dict[str, Any] = {}
    for name, kind in _spec(core)["config"]:
        if kind == "int":
            out[name] = (
                DERIVED_SCALARS[name] if name in DERIVED_SCALARS else _option(name, options[name])
            )
        else:
            derive = DERIVED_PER_CONTRACT.get(name)
            out[name] = [
                int(derive(code, options)) if derive else int(getattr(row, name))
                for code, row in CONTRACTS.items()
            ]
    return out


def mismatches(spec: Mapping[str, Any]) -> list[str]:
    """What the core's lists ``spec`` and the Python tables disagree on (empty: none)."""
    out = []
    read: set[str] = set()
    for name, kind in spec.get("config", ()):
        read.add(name)
        if kind == "int":
            if name not in DERIVED_SCALARS and name not in DEFAULT_OPTIONS:
                out.append(f"config.{name}: no option and no derived scalar")
        elif kind == "contracts":
            if name not in DERIVED_PER_CONTRACT and name not in _CONTRACT_FIELDS:
                out.append(f"config.{name}: no Contract field and no derived field")
        else:
            out.append(f"config.{name}: unknown kind {kind!r}")
    for name in sorted((set(DEFAULT_OPTIONS) | set(_CONTRACT_FIELDS)) - read - REFERENCE_ONLY):
        out.append(f"{name}: read by no native field and not declared REFERENCE_ONLY")
    for name in sorted(REFERENCE_ONLY & read):
        out.append(f"{name}: declared REFERENCE_ONLY but the core reads it")
    expected = {
        "bonuses": tuple(BONUSES),
        "items": tuple(ITEM_ORDER),
        "claims": CLAIMS,
        "kinds": _KIND_ORDER[:-1],
    }
    if set(PHASE_OF_TYPE) != set(_KIND_ORDER):
        out.append(f"the reference's action types {sorted(PHASE_OF_TYPE)} are not {_KIND_ORDER}")
    for key, names in expected.items():
        if tuple(spec.get(key, ())) != names:
            out.append(f"{key}: the core numbers {spec.get(key)}, the reference {names}")
    return out


#: the action kinds the native engine reads, in its order (a throw-in is the reference's)
_KIND_ORDER: Final = ("pass", "call", "bid", "announce", "kontra", "play", "claim", "throw_in")
_KINDS: Final = {k: i for i, k in enumerate(_KIND_ORDER[:-1])}


def check_codec(core: Any) -> None:
    """Raise :class:`CodecMismatch` when the core's fields and names and the Python rule
    tables disagree."""
    if not hasattr(core, "zwanzigerrufen_config_fields"):
        raise CodecMismatch(
            "the native core was built before Zwanzigerrufen's native engine: rebuild it"
        )
    problems = mismatches(_spec(core))
    problems += [] if TRULL_CARDS == frozenset({"T1", "T21", "T22"}) else ["the Trull cards"]
    if problems:
        raise CodecMismatch(
            "the native core and the Zwanzigerrufen rule tables disagree (rebuild the core, "
            "or update rules/zwanzigerrufen/native.py): " + "; ".join(problems)
        )


def available() -> bool:
    """Whether the native engine is there (the core is loaded and knows Zwanzigerrufen)."""
    return _CORE is not None and hasattr(_CORE, "zwanzigerrufen_hand")


if available():
    check_codec(_CORE)


_CONFIGS: dict[str, bytes] = {}


def config(ruleset: Ruleset) -> bytes | None:
    """The native engine's configuration of ``ruleset`` (its options checked), or None
    without the native engine."""
    if not available():
        return None
    opts = normalize_options(ruleset.options)
    key = repr(sorted(opts.items(), key=lambda kv: kv[0]))
    got = _CONFIGS.get(key)
    if got is None:
        assert _CORE is not None
        got = _CORE.zwanzigerrufen_config(config_fields(_CORE, opts))
        _CONFIGS[key] = got
    return got


_BONUS: Final = {b: i for i, b in enumerate(BONUSES)}
_SIDES: Final = {"dazu": 0, "dagegen": 1}
_CONTRACT: Final = {c: i for i, c in enumerate(CONTRACT_CODES)}
_CLAIM: Final = {c: i for i, c in enumerate(CLAIMS)}


def encode_actions(actions: Sequence[Action]) -> list[tuple[int, ...]] | None:
    """The actions as the core reads them (kind, seat, card, contract, bonus, side, target,
    level), or None when one is nothing the native engine reads as written (an unknown name,
    a spelling the reference normalises: the reference takes the hand)."""
    out: list[tuple[int, ...]] = []
    for a in actions:
        kind = _KINDS.get(a.type)
        if kind is None:
            return None
        card = contract = bonus = side = target = -1
        level = 0
        if a.type in ("call", "play"):
            if a.card not in ZR_CID:
                return None
            card = ZR_CID[a.card]
        elif a.type == "bid":
            if a.contract not in _CONTRACT:
                return None
            contract = _CONTRACT[a.contract]
        elif a.type == "announce":
            if a.bonus not in _BONUS or a.side not in _SIDES or a.params or a.raises:
                return None
            bonus, side = _BONUS[a.bonus], _SIDES[a.side]
        elif a.type == "kontra":
            if a.target is not None and a.target != "game":
                if a.target not in _BONUS:
                    return None
                target = _BONUS[a.target]
            level = a.level if a.level is not None else 0
        elif a.type == "claim":
            if a.claim not in _CLAIM:
                return None
            bonus = _CLAIM[a.claim]
        out.append((kind, a.seat, card, contract, bonus, side, target, level))
    return out


class NativeHand(NamedTuple):
    """One hand the native engine took: the contract's code, the declarer and partner seats,
    whether the declarer side won the game, the double-round multiplier it was scored with,
    the per-seat score lines ``(item, seat, value)`` in the reference's order, the tricks
    ``(leader, seats, card tokens, winner, card points, Mond's owner or None)``, the totals,
    the declarer side's card points, whether a Mondfang counted (a double round opens), the
    called tarock, and the session's carry after it (``games``, double-round windows, the next
    dealer)."""

    contract: str
    declarer: int
    partner: int | None
    won: bool
    multiplier: int
    lines: tuple[tuple[str, int, int], ...]
    tricks: tuple[tuple[int, tuple[int, ...], tuple[str, ...], int, int, int | None], ...]
    totals: tuple[int, int, int, int]
    card_points: int
    mondfang: bool
    called: str | None
    carry: tuple[int, tuple[int, ...], int]


_TOKEN: Final = {i: c for c, i in ZR_CID.items()}
#: the card tokens by the native engine's card ids (54 of cards.h: those not in the pack "")
LANE_CARDS: Final = tuple(_TOKEN.get(i, "") for i in range(54))


def play_hand(
    cfg: bytes,
    dealer: int,
    hands: Sequence[Sequence[str]],
    actions: Sequence[Action],
    carry: tuple[int, Sequence[int], int | None] = (0, (), None),
) -> NativeHand | None:
    """One whole hand through the native engine under the configuration ``cfg`` (:func:`config`)
    with the session's ``carry`` (games so far, open double-round windows, the dealer due or
    None) before it, or None:
    the reference takes the hand (it would report something, or the native engine does not
    read it)."""
    if _CORE is None or not available():
        return None
    acts = encode_actions(actions)
    if acts is None or any(c not in ZR_CID for h in hands for c in h):
        return None
    ids = [[ZR_CID[c] for c in h] for h in hands]
    got = _CORE.zwanzigerrufen_hand(
        cfg, dealer, ids, acts, (carry[0], tuple(carry[1]), -1 if carry[2] is None else carry[2])
    )
    if got is None:
        return None
    contract, decl, partner, won, mult, lines, tricks, totals, cp, mond, called, after = got
    return NativeHand(
        CONTRACT_CODES[contract], decl, partner, won, mult,
        tuple((ITEM_ORDER[i], s, v) for i, s, v in lines),
        tuple((ld, seats, tuple(_TOKEN[c] for c in cards), w, p, None if mo < 0 else mo)
              for ld, seats, cards, w, p, mo in tricks),
        totals, cp, bool(mond), None if called is None else _TOKEN[called], after,
    )  # fmt: skip


def reference_carry(carry: tuple[int, Sequence[int], int]) -> dict[str, Any]:
    """The native engine's carry (``zr_carry``: games so far, the open double-round windows,
    the dealer due or -1) as :meth:`ZRSession.restore <.session.ZRSession.restore>` takes it
    (the ingest lane's hand-by-hand reading: ``NativeLane.to_reference``)."""
    games, windows, due = carry
    return {"games": games, "double_round_windows": list(windows),
            "next_dealer": None if due < 0 else due}  # fmt: skip


def lane_carry(carry: Mapping[str, Any]) -> tuple[int, tuple[int, ...], int]:
    """The reference session's carry (:meth:`ZRSession.carry <.session.ZRSession.carry>`) as
    the native engine's (``NativeLane.from_reference``; :func:`reference_carry`'s inverse)."""
    due = carry.get("next_dealer")
    windows = tuple(int(w) for w in carry.get("double_round_windows", ()))
    return int(carry.get("games", 0)), windows, -1 if due is None else int(due)


class Played(NamedTuple):
    """A hand the native engine played, as the session's ``end_hand`` takes it back (its
    dealer: the deal passes on from it) and the reference's on request: ``later()`` replays it
    through the reference (:class:`~.hand.ZRHand`) once."""

    dealer: int
    later: Callable[[], ZRHand]


def native_replay(
    session: Any,
    dealer: int,
    hands: Sequence[Sequence[str]],
    talon: Sequence[str],
    actions: Sequence[Any],
    to_action: Callable[[Any], Action],
    deal: DealInfo | None = None,
) -> FastReplay | None:
    """The machine's whole hand and score (``ZRSession.native_replay``): :func:`play_hand`
    under the session's ruleset and carry (games so far, open double-round windows, the
    dealer due), or None (the session untouched: the bulk path or the reference takes the
    hand). A talon or a deal recorded otherwise than cut and dealt goes to the reference (it
    judges them). The score's lines are the reference's without their reasons, its card
    points come on request; ``reference_score`` and ``rebuild`` replay the hand through the
    reference (once)."""
    if talon or (deal is not None and deal != DealInfo()):
        return None
    cfg = config(session.ruleset)
    if cfg is None:
        return None
    got = play_hand(cfg, dealer, hands, [to_action(a) for a in actions],
                    (session.games, session.windows, session.next_dealer))  # fmt: skip
    if got is None:
        return None
    ref: list[ZRHand] = []
    multiplier, game_number = session.multiplier(), session.games + 1

    def later() -> ZRHand:
        if not ref:
            h = ZRHand(session.ruleset, session.opts, dealer, hands, multiplier=multiplier,
                       game_number=game_number)  # fmt: skip
            for a in actions:
                h.push(to_action(a))
            ref.append(h)
        return ref[0]

    def reference_score() -> HandScore:
        return later().score()

    def card_points() -> Mapping[str, Any]:
        return reference_score().card_points

    def views() -> list[Mapping[str, Any]]:
        return [t.to_view() for t in later().tricks]

    score = HandScore(
        totals=got.totals,
        items=tuple([score_item(item, value, seat) for item, seat, value in got.lines]),
        contract=got.contract,
        declarer=got.declarer,
        partner=got.partner,
        won=got.won,
        card_points=OnRequest(card_points),
        carry_after={"thrown_in": False, "multiplier": got.multiplier, "mondfang": got.mondfang,
                     "game_number": game_number},
    )  # fmt: skip
    session.irregularities = ()
    played = Played(dealer, later)
    return FastReplay(score, cast(HandState, played), later, views,
                      reference_score=reference_score)  # fmt: skip
