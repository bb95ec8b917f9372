"""The native engine of Royal Tarock (``_native/royalhand.h``): its codec from the rule tables
(the ruleset's options and the catalogue) by field name, and one whole clean game through it.

The two homes (docs/architecture.md): the reference (:class:`~.hand.RoyalHand`,
:mod:`.bidding`, :mod:`.scoring`, :mod:`.predicates`) is the readable home and produces every
finding; the native engine plays a game the reference would find clean (the deal, the
bidding, the forty cards, the itemised score) and declines (None) on anything else, and the
caller gives the game to the reference, whole. The catalogue is partly unknown: a game that
needs an item whose value or condition is unknown is declined, never guessed (the reference
reports it unverified).

The codec: the core lists the fields of its ``rh_config`` (``royal_config_fields``), and each
takes its value from

* an option of :data:`~.rulesets.DEFAULT_OPTIONS` of the same name: a bool as 0/1, an integer
  as it is, a value of a closed set by its place in the ruleset's choices;
* one of :data:`DERIVED_SCALARS` (the consolation each party starts from, the catalogue's
  Obscur and Lauer items);
* per catalogue item (kind ``items``), an :class:`~.catalogue.Item` field of the same name (a
  bool as 0/1) or one of :data:`DERIVED_PER_ITEM` (the group's code, the value and whether it
  is known, the raising closure and the suppressed, replacing items as bit masks, the
  compiled condition's place, the bindings' place, the parameters' kinds);
* the bindings, the compiled conditions and the conditions' strings (kinds ``bindings``,
  ``code``, ``strings``).

A condition is compiled to the core's stack code (:func:`compile_condition`); one the code
cannot say exactly as :func:`.predicates.evaluate` reads it is left uncompiled, and the
native engine declines every game that needs it. :func:`check_codec` runs at import when the
core is there: a field the core reads that nothing here gives, an option or an Item field
nobody reads that is not declared :data:`REFERENCE_ONLY`, or a group, action kind or opcode
the core numbers otherwise than here raises :class:`CodecMismatch`
(``tests/rules/royal/test_native_hand.py`` pins both directions).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from tarock_logs import _native
from tarock_logs.rules.base import Action, NativeLane, Ruleset, SeatRole
from tarock_logs.rules.royal import predicates
from tarock_logs.rules.royal.catalogue import Catalogue, Item
from tarock_logs.rules.royal.fast import ROYAL_CID
from tarock_logs.rules.royal.hand import PHASE_OF_TYPE
from tarock_logs.rules.royal.rulesets import DEFAULT_OPTIONS, options_of

__all__ = [
    "DERIVED_PER_ITEM",
    "DERIVED_SCALARS",
    "GROUPS",
    "KINDS",
    "OPS",
    "REFERENCE_ONLY",
    "CodecMismatch",
    "NativeGame",
    "available",
    "check_codec",
    "compile_condition",
    "config",
    "config_fields",
    "encode_actions",
    "lane",
    "play_game",
]

_CORE: Final = _native.core


class CodecMismatch(RuntimeError):
    """The native core and the Royal Tarock rule tables name different fields (one side
    changed)."""


#: the catalogue's groups by the core's group code
GROUPS: Final = ("meldung", "material", "silent", "free_tricks", "bound", "trophy", "schlemm")
#: the action kinds by the core's kind code
KINDS: Final = ("pass", "meld", "announce", "kontra", "play", "throw_in")
#: the opcodes of a compiled condition, by code (royalhand.h's RH_OP_)
OPS: Final = ("true", "false", "none", "int", "str", "param", "hand_count", "suit_size",
              "home_all", "home_any", "home_from_opponents", "tricks_at_least",
              "first_to_tricks", "first_n_tricks", "trick_won_with", "hand_all", "hand_any",
              "cmp", "and", "or", "not")  # fmt: skip
_OP: Final = {o: i for i, o in enumerate(OPS)}
#: a Meldung parameter's kind by code ("" none)
PARAM_KINDS: Final = ("", "suit", "int", "bool", "str")
#: a value's tag by code
TAGS: Final = ("none", "int", "bool", "str")
#: the score lines that are no catalogue item, by code -1, -2, -3
LINES: Final = ("consolation", "kontra", "cap")
_CMP: Final = {"eq": 0, "ne": 1, "lt": 2, "le": 3, "gt": 4, "ge": 5}
#: the closed options, each value by its place
_CHOICES: Final[Mapping[str, tuple[Any, ...]]] = {
    "xix_recipient": ("attacking_abfaenger", "defending_abfaenger"),
    "raise_voids_contra": ("always", "carry_over", "keep"),
    "contra_limit_mode": ("net", "separate"),
    "trophy_cap_order": ("cap_then_trophies", "lost_trophies_inside_cap"),
    "lauer_rule": ("capturer", "victims"),
}

#: the options and Item fields the native engine does not read under their own name: the
#: reference's alone (``bidding_opener``: either opener is clean, §4.2, the option only names
#: whom ``to_move`` offers; ``raise_rule``: a raise by its own announcer is a finding under
#: either reading, so the native engine declines it; ``match_length``: the match, not a game
#: (the lane declines a shorter match, :func:`lane`);
#: an Item's names, status, source, notes), or reaching the core through a derived field (the
#: consolations, the catalogue and its path, the Item's bindings, params and condition); an
#: Item field of ids (``raises``, ``suppresses``, ``replaced_by``, ``distinct_by``) reaches it
#: as a bit mask under its own name, ``value`` and ``contra_value`` with a ``_known`` flag
REFERENCE_ONLY: Final = frozenset(
    {"bidding_opener", "raise_rule", "match_length", "consolation", "consolation_attackers",
     "consolation_defenders", "catalogue", "catalogue_path", "id", "names", "status", "source",
     "notes", "bindings", "params", "condition"}
)  # fmt: skip

_ITEM_FIELDS: Final = tuple(f.name for f in dataclasses.fields(Item))
#: the Meldung parameters' slots the core has
_MAX_PARAMS: Final = 4
_MAX_ITEMS: Final = 64


def _consolation(opts: Mapping[str, Any], party: str) -> int | None:
    c = opts[f"consolation_{party}"]
    got = opts["consolation"] if c is None else c
    return None if got is None else int(got)


class _Compiled(NamedTuple):
    """A catalogue compiled for the core: the per-item rows, the bindings, the code and the
    strings (sorted: their order is the core's string order)."""

    items: dict[str, list[int]]
    bind_card: list[int]
    bind_trick: list[int]
    code: list[int]
    strings: tuple[str, ...]


class _Uncompilable(Exception):
    """A condition the core's code cannot say exactly as the reference reads it."""


def _strings_of(expr: Any, out: set[str]) -> None:
    if isinstance(expr, str):
        out.add(expr)
    elif isinstance(expr, list):
        for e in expr:
            _strings_of(e, out)
    elif isinstance(expr, Mapping):
        for v in expr.values():
            _strings_of(v, out)


def compile_condition(expr: Any, params: Sequence[str], strings: Mapping[str, int]) -> list[int]:
    """``expr`` (a validated condition) as the core's code; raises :class:`_Uncompilable`
    when the code cannot say it as :func:`.predicates.evaluate` reads it (a literal or a
    value where a condition belongs, a list inside a comparison)."""
    if expr is None or expr is True:
        return [_OP["true"]]
    if expr is False:
        return [_OP["false"]]
    if not isinstance(expr, Mapping):
        raise _Uncompilable(repr(expr))
    return _cond(expr, params, strings)


def _cards(cards: Sequence[str]) -> list[int]:
    return [len(cards), *(ROYAL_CID[c] for c in cards)]


def _cond(expr: Mapping[str, Any], params: Sequence[str], strings: Mapping[str, int]) -> list[int]:
    ((op, arg),) = expr.items()
    if op in ("and", "or"):
        out: list[int] = []
        for e in arg:
            out += compile_condition(e, params, strings)
        return out + [_OP[op], len(arg)]
    if op == "not":
        return compile_condition(arg, params, strings) + [_OP["not"]]
    if op in _CMP:
        return _value(arg[0], params, strings) + _value(arg[1], params, strings) + [
            _OP["cmp"], _CMP[op]]  # fmt: skip
    if op == "home":
        return [_OP["home_all"], *_cards([arg])]
    if op in ("all_home", "any_home"):
        return [_OP["home_all" if op == "all_home" else "home_any"], *_cards(arg)]
    if op == "home_from_opponents":
        return [_OP[op], ROYAL_CID[arg]]
    if op in ("tricks_at_least", "first_to_tricks", "first_n_tricks"):
        return [_OP[op], int(arg)]
    if op == "trick_won_with":
        return [_OP[op], int(arg["trick"]), ROYAL_CID[arg["card"]]]
    if op == "hand_has":
        return [_OP["hand_any"], *_cards([arg])]
    if op == "hand_has_any":
        return [_OP["hand_any"], *_cards(arg)]
    if op == "hand_has_all_of_suit":  # every card of a suit (the hand holds pack cards once)
        suits = [arg] if arg else ["H", "D", "S", "C"]
        return _any_of([[c for c in ROYAL_CID if c[0] == s] for s in suits])
    if op == "hand_has_four_of_rank":
        ranks = [arg] if arg else list(predicates.RANKS)
        return _any_of([[s + r for s in "HDSC"] for r in ranks])
    raise _Uncompilable(op)  # a value where a condition belongs


def _any_of(groups: Sequence[Sequence[str]]) -> list[int]:
    out: list[int] = []
    for g in groups:
        out += [_OP["hand_all"], *_cards(g)]
    return out + [_OP["or"], len(groups)]


def _value(expr: Any, params: Sequence[str], strings: Mapping[str, int]) -> list[int]:
    if expr is None:
        return [_OP["none"]]
    if isinstance(expr, bool):
        return [_OP["int"], int(expr)]
    if isinstance(expr, int):
        if not -(2**31) <= expr < 2**31:
            raise _Uncompilable(repr(expr))
        return [_OP["int"], expr]
    if isinstance(expr, str):
        return [_OP["str"], strings[expr]]
    if isinstance(expr, Mapping):
        ((op, arg),) = expr.items()
        if op == "param":
            return [_OP["param"], params.index(arg) if arg in params else -1]
        if op in ("hand_count", "suit_size"):
            return _value(arg, params, strings) + [_OP[op]]
        return _cond(expr, params, strings)
    raise _Uncompilable(repr(expr))  # a list inside a comparison


def _mask(ids: Sequence[str], index: Mapping[str, int]) -> int:
    m = 0
    for i in ids:
        if i in index:
            m |= 1 << index[i]
    return m


def compile_catalogue(cat: Catalogue) -> _Compiled | None:
    """The catalogue as the core's tables, or None when the core cannot hold it (more items,
    parameters or bindings than its tables take)."""
    items = list(cat.items.values())
    if len(items) > _MAX_ITEMS:
        return None
    index = {it.id: i for i, it in enumerate(items)}
    found: set[str] = {"T", "H", "D", "S", "C"}
    for it in items:
        _strings_of(it.condition, found)
    strings = tuple(sorted(found))
    sidx = {s: i for i, s in enumerate(strings)}
    lauer = cat.get(cat.lauer_item) if cat.lauer_item else None
    captured = predicates.cards_mentioned(lauer.condition) if lauer is not None else set()
    rows: dict[str, list[int]] = {}
    bind_card: list[int] = []
    bind_trick: list[int] = []
    code: list[int] = []

    def put(name: str, v: int) -> None:
        rows.setdefault(name, []).append(v)

    for it in items:
        if len(it.params) > _MAX_PARAMS:
            return None
        put("group", GROUPS.index(it.group))
        for f in ("announceable", "direct_announcement_allowed", "silent", "contra_allowed",
                  "exclusive", "disables_obscur"):  # fmt: skip
            put(f, int(getattr(it, f)))
        put("value_known", int(it.value is not None))
        put("value", int(it.value or 0))
        cv = it.effective_contra_value
        put("contra_value_known", int(cv is not None))
        put("contra_value", int(cv or 0))
        put("raises", _mask([j.id for j in items if cat.raises(it.id, j.id)], index))
        put("suppresses", _mask(it.suppresses, index))
        put("replaced_by", _mask(it.replaced_by, index))
        named = predicates.cards_mentioned(it.condition) | {b.card for b in it.bindings}
        put("names_lauer_card", int(bool(named & captured)))
        names = list(it.params)
        put("param_kinds", sum(PARAM_KINDS.index(it.params[n]) << (3 * k)
                               for k, n in enumerate(names)))  # fmt: skip
        put("distinct_by", sum(1 << names.index(d) for d in it.distinct_by if d in names))
        try:
            if it.condition is None:
                raise _Uncompilable("unknown")
            cc = compile_condition(it.condition, names, sidx)
            put("cond_start", len(code))
            put("cond_len", len(cc))
            code += cc
        except (_Uncompilable, KeyError, ValueError, TypeError):
            put("cond_start", 0)
            put("cond_len", -1)
        put("bind_start", len(bind_card))
        put("bind_count", len(it.bindings))
        for b in it.bindings:
            bind_card.append(ROYAL_CID[b.card])
            bind_trick.append(b.trick)
    if len(code) > 2048 or len(bind_card) > 64 or len(strings) > 32:
        return None
    return _Compiled(rows, bind_card, bind_trick, code, strings)


def _option(name: str, v: Any) -> int:
    choices = _CHOICES.get(name)
    if choices is not None:
        return choices.index(v)
    return int(v)


def _spec(core: Any) -> Mapping[str, Any]:
    spec: Mapping[str, Any] = core.royal_config_fields()
    return spec


def _place(cat: Catalogue, item: str | None) -> int:
    """An item's index in the catalogue's order, or -1 (none)."""
    return list(cat.items).index(item) if item is not None and item in cat.items else -1


#: the scalars that are no option of the same name, from the options and the catalogue
DERIVED_SCALARS: Final[Mapping[str, Callable[[Mapping[str, Any], Catalogue], int]]] = {
    "consolation_known": lambda o, _c: int(_consolation(o, "attackers") is not None)
    | (int(_consolation(o, "defenders") is not None) << 1),
    "consolation_att_value": lambda o, _c: int(_consolation(o, "attackers") or 0),
    "consolation_def_value": lambda o, _c: int(_consolation(o, "defenders") or 0),
    "obscur_item": lambda _o, c: _place(c, c.obscur_item),
    "lauer_item": lambda _o, c: _place(c, c.lauer_item),
}  # fmt: skip
#: the per-item fields that are no Item field of the same name (compile_catalogue)
DERIVED_PER_ITEM: Final = frozenset(
    {"group", "value_known", "contra_value_known", "names_lauer_card", "param_kinds",
     "cond_start", "cond_len", "bind_start", "bind_count"}
)  # fmt: skip
_TABLES: Final = {"bind_card": "bindings", "bind_trick": "bindings", "code": "code",
                  "str_suit": "strings", "str_size": "strings"}  # fmt: skip
_SUIT_CODE: Final = {"T": 0, "H": 1, "D": 2, "S": 3, "C": 4}


def config_fields(core: Any, options: Mapping[str, Any], cat: Catalogue) -> dict[str, Any] | None:
    """The fields of ``rh_config`` under the checked ``options`` and the catalogue, by the
    names the core lists; None when the catalogue does not fit the core's tables."""
    comp = compile_catalogue(cat)
    if comp is None:
        return None
    tables: dict[str, list[int]] = {
        "bind_card": comp.bind_card,
        "bind_trick": comp.bind_trick,
        "code": comp.code,
        "str_suit": [_SUIT_CODE.get(s, -1) for s in comp.strings],
        "str_size": [predicates.SUIT_SIZE.get(s, -1) for s in comp.strings],
    }
    out: dict[str, Any] = {}
    for name, kind in _spec(core)["config"]:
        if kind == "int":
            derive = DERIVED_SCALARS.get(name)
            out[name] = derive(options, cat) if derive else _option(name, options[name])
        elif kind in ("items", "item_masks"):
            out[name] = comp.items.get(name, [])
        else:
            out[name] = tables[name]
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
        elif kind in ("items", "item_masks"):
            if name not in DERIVED_PER_ITEM and name not in _ITEM_FIELDS:
                out.append(f"config.{name}: no Item field and no derived field")
        elif _TABLES.get(name) != kind:
            out.append(f"config.{name}: unknown table of kind {kind!r}")
    for name in sorted((set(DEFAULT_OPTIONS) | set(_ITEM_FIELDS)) - read - REFERENCE_ONLY):
        out.append(f"{name}: read by no native field and not declared REFERENCE_ONLY")
    for name in sorted(REFERENCE_ONLY & read):
        out.append(f"{name}: declared REFERENCE_ONLY but the core reads it")
    expected = {"groups": GROUPS, "kinds": KINDS, "ops": OPS, "param_kinds": PARAM_KINDS,
                "tags": TAGS, "lines": LINES}  # fmt: skip
    if set(PHASE_OF_TYPE) != set(KINDS):
        out.append(f"the reference's action types {sorted(PHASE_OF_TYPE)} are not {KINDS}")
    for key, names in expected.items():
        if tuple(spec.get(key, ())) != names:
            out.append(f"{key}: the core numbers {spec.get(key)}, the reference {names}")
    return out


def check_codec(core: Any) -> None:
    """Raise :class:`CodecMismatch` when the core's fields and names and the Python rule
    tables disagree."""
    if not hasattr(core, "royal_config_fields"):
        raise CodecMismatch("the native core was built before Royal Tarock's native engine")
    problems = mismatches(_spec(core))
    if problems:
        raise CodecMismatch(
            "the native core and the Royal Tarock rule tables disagree (rebuild the core, or "
            "update rules/royal/native.py): " + "; ".join(problems)
        )


def available() -> bool:
    """Whether the native engine is there (the core is loaded and knows Royal Tarock)."""
    return _CORE is not None and hasattr(_CORE, "royal_hand")


if available():
    check_codec(_CORE)


class Setup(NamedTuple):
    """A ruleset as the native engine reads it: the core's configuration, the catalogue's
    item ids by the core's index (and the index by id), the strings of its conditions, and
    the ingest lane's table (each Meldung's parameter names, then the strings)."""

    config: bytes
    ids: tuple[str, ...]
    by_id: Mapping[str, int]
    strings: Mapping[str, int]
    catalogue: Catalogue
    table: bytes


_CONFIGS: dict[int, tuple[Ruleset, Setup | None]] = {}


def config(ruleset: Ruleset) -> Setup | None:
    """The native engine's configuration of ``ruleset`` (options checked, catalogue
    compiled), or None without the native engine or when the catalogue does not fit it."""
    if not available():
        return None
    hit = _CONFIGS.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    opts = options_of(ruleset)
    cat = opts.catalogue
    assert _CORE is not None
    fields = config_fields(_CORE, opts.values, cat)
    got: Setup | None = None
    if fields is not None:
        comp_strings = tuple(sorted({"T", "H", "D", "S", "C"} | _all_strings(cat)))
        ids = tuple(cat.items)
        got = Setup(_CORE.royal_config(fields), ids, {i: k for k, i in enumerate(ids)},
                    {s: k for k, s in enumerate(comp_strings)}, cat,
                    _lane_table(cat, comp_strings))  # fmt: skip
    if len(_CONFIGS) >= 64:
        _CONFIGS.clear()
    _CONFIGS[id(ruleset)] = (ruleset, got)
    return got


def _lane_table(cat: Catalogue, strings: Sequence[str]) -> bytes:
    """The lane's table (``royal_lane_hands``): per item its parameters' names (0x1f
    between names, 0x1e between items), then 0x1d and the conditions' strings (0x1f between);
    b"" when a name is not plain ASCII without those bytes (no lane then)."""
    items = "\x1e".join("\x1f".join(it.params) for it in cat.items.values())
    text = items + "\x1d" + "\x1f".join(strings)
    if not text.isascii() or any(c in s for s in strings for c in "\x1d\x1e\x1f"):
        return b""
    return text.encode()


def _all_strings(cat: Catalogue) -> set[str]:
    out: set[str] = set()
    for it in cat.items.values():
        _strings_of(it.condition, out)
    return out


_KIND: Final = {k: i for i, k in enumerate(KINDS)}
_NO_PARAMS: Final = (0, 0) * _MAX_PARAMS


def encode_actions(setup: Setup, actions: Sequence[Action]) -> list[tuple[int, ...]] | None:
    """The actions as the core reads them (kind, seat, item, card, raises, level, then a tag
    and a value per parameter slot), or None when one is nothing the native engine reads as
    written (an unknown item, a Meldung's parameters not the item's, a value the core has no
    tag for: the reference takes the game)."""
    out: list[tuple[int, ...]] = []
    index = setup.by_id
    for a in actions:
        kind = _KIND.get(a.type)
        if kind is None:
            return None
        item = card = raises = -1
        level = 0
        params: tuple[int, ...] = _NO_PARAMS
        if a.type == "play":
            if a.card not in ROYAL_CID:
                return None
            card = ROYAL_CID[a.card]
        elif a.type == "meld":
            if a.meld is None or a.meld not in index:
                return None
            item = index[a.meld]
            got = _params(setup, setup.catalogue.items[a.meld], a.params)
            if got is None:
                return None
            params = got
        elif a.type == "announce":
            if a.bonus is None or a.bonus not in index:
                return None
            item = index[a.bonus]
            if a.raises is not None:
                raises = index.get(a.raises, -2)
        elif a.type == "kontra":
            target = a.target or "game"
            if target not in index:
                return None
            item = index[target]
            level = 1 if a.level is None else a.level
        out.append((kind, a.seat, item, card, raises, level, *params))
    return out


def _params(setup: Setup, item: Item, given: Sequence[tuple[str, Any]]) -> tuple[int, ...] | None:
    names = list(item.params)
    have = dict(given)
    if set(have) != set(names) or len(given) != len(have):
        return None
    out: list[int] = []
    for n in names:
        v = have[n]
        if isinstance(v, bool):
            out += [2, int(v)]
        elif isinstance(v, int) and -(2**31) <= v < 2**31:
            out += [1, v]
        elif isinstance(v, str) and v in setup.strings:
            out += [3, setup.strings[v]]
        else:
            return None
    out += [0, 0] * (_MAX_PARAMS - len(names))
    return tuple(out)


class NativeGame(NamedTuple):
    """One game the native engine took: whether it was thrown in, the bidding-opener
    convention the log followed (``dealer`` or ``attacking_eintreiber``; None when thrown in),
    the tricks ``(((seat, card), ...), winner)`` (the reference's trick records), the tricks
    the attackers and the defenders won, the totals per seat and the score lines
    ``(item, seat, value)`` in the reference's order."""

    thrown_in: bool
    opener: str | None
    tricks: tuple[tuple[tuple[tuple[int, str], ...], int], ...]
    tricks_won: tuple[int, int]
    totals: tuple[int, int, int, int]
    lines: tuple[tuple[str, int, int], ...]


_TOKEN: Final = {i: c for c, i in ROYAL_CID.items()}
_OPENERS: Final = ("dealer", "attacking_eintreiber")


def play_game(
    setup: Setup,
    dealer: int,
    parties: tuple[tuple[int, int], tuple[int, int]],
    hands: Sequence[Sequence[str]],
    actions: Sequence[Action],
) -> NativeGame | None:
    """One whole game through the native engine under ``setup`` (:func:`config`), the
    attackers' and the defenders' seats ``parties`` (each Abfänger, Eintreiber), or None: the
    reference takes the game (it would report something, or the native engine does not read
    it). The caller checks what is the session's: the dealer's rotation, the cut, a talon,
    irregularities."""
    if _CORE is None:
        return None
    acts = encode_actions(setup, actions)
    if acts is None or any(c not in ROYAL_CID for h in hands for c in h):
        return None
    ids = [[ROYAL_CID[c] for c in h] for h in hands]
    got = _CORE.royal_hand(setup.config, dealer, parties, ids, acts)
    if got is None:
        return None
    thrown, opener, tricks, won, totals, lines = got
    ids_ = setup.ids
    return NativeGame(
        bool(thrown),
        None if thrown else _OPENERS[opener],
        tuple((tuple((s, _TOKEN[c]) for s, c in zip(seats, cards, strict=True)), w)
              for seats, cards, w in tricks),
        won, totals,
        tuple((LINES[-i - 1] if i < 0 else ids_[i], s, v) for i, s, v in lines),
    )  # fmt: skip


#: the score items by the lane's codes beyond the catalogue's: its three structural lines
_LANE_LINES: Final = LINES
#: the card tokens by the core's card ids (54 of cards.h; "" those not in the Royal pack)
LANE_CARDS: Final = tuple(_TOKEN.get(i, "") for i in range(54))


def _session_args(match_length: int) -> Callable[[Any], tuple[Any, ...]]:
    """What ``royal_lane_hands`` needs of a session: its recorded pairs (as
    :meth:`.session.RoyalSession.set_seats` reads them from the players' pair and role; None
    when they are not both complete), its first dealer (-1: none) and the match's length
    (a shorter match is declined: the reference notes it)."""

    def args(session: Any) -> tuple[Any, ...]:
        from tarock_logs.rules.royal.session import RoyalSession  # (the session imports fast)

        probe = RoyalSession.__new__(RoyalSession)
        probe.pairs = None
        probe.eintreiber_parity = None
        probe.set_seats([SeatRole(pair=p.pair, role=p.role) for p in session.players])
        first = session.first_dealer
        return probe.pairs, -1 if first is None else int(first), match_length

    return args


def lane(ruleset: Ruleset) -> NativeLane | None:
    """The ingest lane's reading of Royal Tarock records under ``ruleset``
    (``royal_lane_hands`` with :func:`config`), or None without the native engine or when the
    catalogue does not fit it."""
    setup = config(ruleset)
    if setup is None or not setup.table or _CORE is None or not hasattr(_CORE, "royal_lane_hands"):
        return None
    names = (*setup.ids, *_LANE_LINES)
    length = int(options_of(ruleset).values["match_length"])
    return NativeLane(setup.config, setup.table, names, LANE_CARDS, reader="royal_lane_hands",
                      items=names, session_args=_session_args(length))  # fmt: skip
