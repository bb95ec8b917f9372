"""Validating one parsed session record: schema-error wording, normalising, structural checks.

* **Lenient import, one canonical form**: card tokens go through
  :func:`tarock_logs.cards.parse_card` (aliases, case, whitespace, diacritics); the cards of each
  dealt hand are put in canonical order; the talon keeps its dealt order (it defines the talon
  groups). Normalisation happens before the strict pydantic validation.
* **One bad hand never sinks its session**: the session envelope (everything but ``hands``) is
  validated first, then every hand on its own. Good hands land in ``session.hands``; bad ones in
  :attr:`SessionRecord.rejected_hands` with their errors. A session whose envelope is invalid is
  yielded with ``session=None``.
* **Structural checks** beyond the schema: every card in the game's pack, no card dealt twice,
  hand and talon sizes for the game and table, seats at the table (and not the sitting-out
  dealer of a table of five), per-seat result lists of the right length, unique hand numbers,
  and (a warning) the dealer rotation. The legality of actions is the engines' business.

Where errors live: :attr:`SessionRecord.errors` holds the errors of the session itself (file,
JSON and envelope errors) and the warnings of accepted hands; each rejected hand carries its own
errors. :meth:`SessionRecord.all_errors` gives both.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

import orjson
from pydantic import ValidationError

from tarock_logs import _native
from tarock_logs.cards import PACKS, CardError, normalize_token, sort_cards
from tarock_logs.log.decode import NO_DEFECTS, JsonDefect
from tarock_logs.log.errors import LogError, schema_code, severity_of
from tarock_logs.log.models import (
    ACTION_TYPES,
    FORMAT_NAME,
    FORMAT_VERSIONS,
    ActionAdapter,
    Hand,
    HandAdapter,
    Play,
    Session,
    SessionAdapter,
)
from tarock_logs.log.options import CATALOGUE_OPTION, catalogue_file
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import DealShape, GameEngine, Ruleset

#: Validated plain card plays by (seat, card): at most 5 seats × 54 cards (per pack).
_PLAYS: dict[tuple[int, str], Play] = {}
_T = TypeVar("_T")

#: Validated small actions with scalar fields only (a pass, a bid, a king call, a talon pick,
#: ležim, a kontra) by their ``(key, value)`` pairs, as :data:`_PLAYS` for card plays: a few
#: hundred distinct ones in any archive; capped at :data:`_ACTIONS_MAX` entries all the same.
_ACTIONS: dict[tuple[tuple[str, Any], ...], Any] = {}
_ACTIONS_MAX: Final = 50_000
#: the action types :data:`_ACTIONS` holds (their validated models have no list or dict field)
_SCALAR_ACTIONS: Final = frozenset({"pass", "bid", "call", "talon", "lezim", "kontra"})

_UNION_TAGS: Final = frozenset(ACTION_TYPES) | {"renons", "misdeal", "arbiter", "penalty"}
_TAGGED_LISTS: Final = frozenset({"actions", "irregularities"})
_SCALAR_UNION_TAGS: Final = frozenset({"str", "int", "bool", "float"})


@dataclass
class RejectedHand:
    """A hand that failed validation: its number (if readable), its 0-based position in the
    session's ``hands`` array, its JSON text and its errors."""

    number: int | None
    index: int
    raw: bytes
    errors: list[LogError]


@dataclass
class SessionRecord:
    """One session as read from a file.

    ``line`` is the 1-based line where the record starts (JSONL: its line; ``.json``: where the
    session object starts) or None; ``index`` is the record's 0-based position in the file;
    ``raw`` is the original text of the session. ``session`` is None when the record could not
    be read as a session at all (then ``errors`` says why).
    """

    file: str
    line: int | None
    index: int
    session: Session | None
    errors: list[LogError] = field(default_factory=list)
    raw: bytes = b""
    rejected_hands: list[RejectedHand] = field(default_factory=list)

    def all_errors(self) -> list[LogError]:
        """Session errors and warnings, then every rejected hand's errors, in file order."""
        out = list(self.errors)
        for rh in self.rejected_hands:
            out.extend(rh.errors)
        return out

    @property
    def ok(self) -> bool:
        """True when the whole record was accepted (warnings allowed)."""
        return (
            self.session is not None
            and not self.rejected_hands
            and not any(e.is_error for e in self.errors)
        )


def record_from_obj(
    obj: Any, raw: bytes, file: str, line: int | None, index: int, pending: list[LogError],
    defects: list[JsonDefect],
) -> SessionRecord:  # fmt: skip
    """The record of one parsed session value ``obj`` (``raw`` its text, ``defects`` what the
    decoder found wrong in it, ``pending`` errors found before it, such as a byte-order mark,
    that go first in its errors). A defect inside a hand rejects that hand; one elsewhere
    rejects the session."""
    v = _Validator(file, line)
    v.surrogates = _SURROGATE_ESCAPE.search(raw) is not None
    session, rejected = v.session(obj, defects)
    return SessionRecord(file, line, index, session, pending + v.errors, raw, rejected)


def envelope_only(
    obj: dict[str, Any], file: str, line: int | None
) -> tuple[Session, GameRules] | None:
    """The session of a record with its hands set aside (``obj["hands"]`` is ``[]``) and the
    game knowledge of it, when the reader has nothing to say of the record (no error, no
    warning: what :func:`record_from_obj` checks of a session besides its hands); else None.

    The store's ingest lane (:mod:`tarock_logs.store.write.lane`) reads the hands of a record
    itself and the rest of the record here, the way the reader does."""
    v = _Validator(file, line)
    session, rejected = v.session(obj, NO_DEFECTS)
    if session is None or rejected or v.errors:
        return None
    return session, v.rules


def hand_only(
    obj: Any, index: int, session: Session, rules: GameRules, file: str, line: int | None
) -> Hand | None:
    """Hand ``index`` of a record (``obj``: its JSON value) as the reader makes it, when the
    reader has nothing to say of it (no error, no warning); else None. ``session`` and
    ``rules`` are :func:`envelope_only`'s. The checks across hands (a number twice, the
    dealer's rotation) are the caller's.

    The ingest lane reads a hand its native engine declines here (the reference audits it)."""
    v = _Validator(file, line)
    v.sid = session.id
    v.rules = rules
    number = obj.get("number") if isinstance(obj, dict) else None
    herrs: list[LogError] = []
    hand = v.hand(obj, index, session, number if type(number) is int else None, herrs)
    if hand is None or herrs or v.errors:
        return None
    return hand


#: an escaped surrogate code unit in a record's text (``\\ud800`` .. ``\\udfff``): only then
#: can a decoded string hold a lone surrogate (orjson refuses them; the careful decoder keeps them)
_SURROGATE_ESCAPE: Final = re.compile(rb"\\u[dD][89a-fA-F]")
_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")
#: the message of a string that is not Unicode text
_SURROGATE_MESSAGE: Final = (
    "a string with a lone surrogate (an escape from \\ud800 to \\udfff without its pair) "
    "is not Unicode text"
)


def _lone_surrogate_paths(obj: Any, path: tuple[Any, ...] = ()) -> Iterable[tuple[Any, ...]]:
    """The paths of the strings (values and keys) in ``obj`` that hold a lone surrogate. A
    field the schema constrains rejects them itself; a free-form one (a source's
    ``importer``, an option's value, a note) would carry one into the canonical text, which
    UTF-8 cannot write."""
    if isinstance(obj, str):
        if _LONE_SURROGATE.search(obj):
            yield path
    elif isinstance(obj, dict):
        for k, val in obj.items():
            if isinstance(k, str) and _LONE_SURROGATE.search(k):
                yield (*path, k)
            else:
                yield from _lone_surrogate_paths(val, (*path, k))
    elif isinstance(obj, list):
        for i, val in enumerate(obj):
            yield from _lone_surrogate_paths(val, (*path, i))


def _json_path(loc: Iterable[Any], base: str = "$") -> str:
    out = [base]
    for el in loc:
        if isinstance(el, int):
            out.append(f"[{el}]")
        elif isinstance(el, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", el):
            out.append("." + el)
        else:
            out.append(f"[{json.dumps(el, ensure_ascii=False)}]")
    return "".join(out)


def _clean_loc(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """Drop pydantic's union tags from an error location (``actions, 3, play, card``)."""
    out: list[Any] = []
    for k, el in enumerate(loc):
        if (
            k >= 2
            and isinstance(loc[k - 1], int)
            and loc[k - 2] in _TAGGED_LISTS
            and el in _UNION_TAGS
        ):
            continue
        if k >= 2 and loc[k - 2] in ("options", "params") and el in _SCALAR_UNION_TAGS:
            continue
        out.append(el)
    return tuple(out)


def _dump_raw(obj: Any) -> bytes:
    """The JSON text of a rejected hand. A lone surrogate (which orjson refuses and UTF-8
    cannot hold) is written as its escape, ``\\ud800``, as it was in the log."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        return json.dumps(obj, ensure_ascii=False).encode("utf-8", "backslashreplace")


def _short(value: Any) -> str:
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    r = repr(value)
    return r if len(r) <= 40 else r[:37] + "..."


# --------------------------------------------------------------------------- game knowledge


@dataclass(eq=False, slots=True)
class GameRules:
    """What the structural checks need to know of a game under one session's ruleset and
    options, asked of the game's engine (:func:`tarock_logs.rules.get_engine`): the table
    sizes, the pack, the physical card names the ruleset maps onto it (Zwanzigerrufen's
    Glatzen), the deal's shape per table and dealer, and who deals next.

    ``engine`` None is a game without an engine: then only generic checks apply (the pack of
    :mod:`tarock_logs.cards`, any table size, no deal sizes, the deal passing to the next
    seat). Build it with :func:`game_rules`.
    """

    game: str
    engine: GameEngine | None
    ruleset: Ruleset | None
    #: the table sizes the game is played at under *any* of its rulesets (whether the
    #: session's ruleset allows its table is the engine's finding, ``deal.table_size``)
    table_sizes: tuple[int, ...]
    pack: tuple[str, ...]
    pack_set: frozenset[str]
    #: physical card name (upper case) -> pack token, for names that are not tokens
    card_names: Mapping[str, str]
    _shapes: dict[tuple[int, int], DealShape | None] = field(default_factory=dict)

    def deal_shape(self, table_size: int, dealer: int) -> DealShape | None:
        """Cards per seat (0: the seat sits out) and talon size of a hand dealt by ``dealer``
        at a table of ``table_size``; None when the game says nothing (no size check)."""
        key = (table_size, dealer)
        if key not in self._shapes:
            shape = None
            if self.engine is not None:
                shape = _ask(self.engine.deal_shape, table_size, dealer, self.ruleset)
            self._shapes[key] = shape
        return self._shapes[key]

    def next_dealer(self, dealer: int, table_size: int, thrown_in: bool) -> int:
        """Who deals after ``dealer`` (a thrown-in deal is dealt again by the same dealer)."""
        if self.engine is None:
            return dealer if thrown_in else (dealer + 1) % table_size
        return self.engine.next_dealer(dealer, table_size, thrown_in=thrown_in)


def _ask(hook: Callable[..., _T], *args: Any) -> _T:
    """``hook(*args)``; under a ruleset whose options the engine refuses, the same question
    without the ruleset (the audit reports the bad options; the reader checks structure)."""
    try:
        return hook(*args)
    except (KeyError, ValueError, TypeError):
        if args and args[-1] is None:
            raise
        return hook(*args[:-1], None)


_RULES_CACHE: dict[tuple[Any, ...], GameRules] = {}
_RULES_CACHE_MAX: Final = 256


def game_rules(game: str, ruleset_id: str, options: Mapping[str, Any]) -> GameRules:
    """The :class:`GameRules` of ``game`` under ``ruleset_id`` (an id or alias) and the
    session's ``options`` (those the ruleset knows; an unknown ruleset is the game's default
    knowledge, ``ruleset=None``). Options are taken as values only: nothing is read from a
    file here (a Royal ``catalogue_path`` is not loaded). Cached per engine, ruleset and
    options."""
    engine = get_engine(game)
    key = (game, id(engine), ruleset_id, tuple(sorted(options.items())))
    rules = _RULES_CACHE.get(key)
    if rules is None or rules.engine is not engine:
        rules = _build_rules(game, engine, ruleset_id, options)
        if len(_RULES_CACHE) >= _RULES_CACHE_MAX:
            _RULES_CACHE.pop(next(iter(_RULES_CACHE)))
        _RULES_CACHE[key] = rules
    return rules


def _build_rules(
    game: str, engine: GameEngine | None, ruleset_id: str, options: Mapping[str, Any]
) -> GameRules:
    if engine is None:
        pack = PACKS.get(game, ())
        return GameRules(game, None, None, (), pack, frozenset(pack), {})
    ruleset: Ruleset | None = None
    try:
        base = engine.rulesets.find(ruleset_id)
        kept = {k: v for k, v in options.items() if k in base.options}
        ruleset = base.with_options(kept) if kept else base
    except (KeyError, ValueError, LookupError):
        ruleset = None
    pack = tuple(_ask(engine.pack, ruleset))
    names = {k.upper(): v for k, v in _ask(engine.card_names, ruleset).items() if v in pack}
    return GameRules(
        game, engine, ruleset, tuple(engine.table_sizes(None)), pack, frozenset(pack), names
    )


def _all_pack(pack: frozenset[str], tokens: list[Any]) -> bool:
    """Every element is a card token of ``pack`` (which holds only strings, so a number or
    any other value is not in it; an unhashable one is not a card either)."""
    try:
        return pack.issuperset(tokens)
    except TypeError:
        return False


def prepare_actions_py(
    actions: list[Any],
    pack: frozenset[str],
    plays: dict[tuple[int, str], Any],
    shared: dict[tuple[tuple[str, Any], ...], Any],
    scalar: frozenset[str],
) -> tuple[list[Any], list[int]] | None:
    """A hand's actions as the reader's caches already know them, or None.

    None when any action needs the careful normalisation (:meth:`_Validator.normalise`): it
    is not a JSON object, or a card token of it (``card``, ``cards``, ``shown``) is not one
    of ``pack`` as written. Otherwise a new list: each plain card play ``{type, seat, card}``
    found in ``plays`` (by ``(seat, card)``) and each small action of a ``scalar`` type found
    in ``shared`` (by its ``(key, value)`` pairs, every value an exact int or str, no note)
    replaced by its validated model; every other action left as it is, its place in the
    second list (to be validated one by one). This is the readable definition;
    ``_native._core.prepare_actions`` is its C twin (``tests/log/test_reader_fast_hand.py``
    compares the two).
    """
    out: list[Any] = []
    todo: list[int] = []
    for j, a in enumerate(actions):
        if type(a) is not dict:
            return None
        c = a.get("card")
        if c is not None and not (type(c) is str and c in pack):
            return None
        for key in ("cards", "shown"):
            v = a.get(key)
            if v is not None and not (
                type(v) is list and all(type(x) is str and x in pack for x in v)
            ):
                return None
        t = a.get("type")
        hit = None
        if c is not None and len(a) == 3 and type(t) is str and t == "play":
            seat = a.get("seat")
            if type(seat) is int:
                hit = plays.get((seat, c))
        else:
            small = _scalar_key(a, scalar)
            if small is not None:
                hit = shared.get(small)
        if hit is None:
            todo.append(j)
            out.append(a)
        else:
            out.append(hit)
    return out, todo


def _prepare_actions(
    actions: list[Any], pack: frozenset[str]
) -> tuple[list[Any], list[int]] | None:
    """:func:`prepare_actions_py` over the reader's caches, in C when the native core is
    loaded."""
    native = _native.core
    if native is not None:
        out: tuple[list[Any], list[int]] | None = native.prepare_actions(
            actions, pack, _PLAYS, _ACTIONS, _SCALAR_ACTIONS
        )
        return out
    return prepare_actions_py(actions, pack, _PLAYS, _ACTIONS, _SCALAR_ACTIONS)


def _scalar_key(a: dict[str, Any], scalar: frozenset[str]) -> tuple[tuple[str, Any], ...] | None:
    """The key of a small action in :data:`_ACTIONS`: its ``(key, value)`` pairs, for an
    action of a ``scalar`` type without a note whose every value is an exact int or str
    (``True == 1`` and ``1.0 == 1`` as dict keys, but strict validation refuses a bool or a
    float for an integer field); else None."""
    t = a.get("type")
    if type(t) is not str or t not in scalar or "note" in a:
        return None
    items = tuple(a.items())
    if all(type(x) is int or type(x) is str for _, x in items):
        return items
    return None


def _validated_action(a: dict[str, Any]) -> Any:
    """The model of one action (from :data:`_ACTIONS` when known, then remembered there, or
    in :data:`_PLAYS` for a plain card play), or None when it does not validate."""
    key = _scalar_key(a, _SCALAR_ACTIONS)
    if key is not None:
        v = _ACTIONS.get(key)
        if v is not None:
            return v
    try:
        v = ActionAdapter.validate_python(a)
    except ValidationError:
        return None
    if key is not None:
        if len(_ACTIONS) < _ACTIONS_MAX:
            _ACTIONS[key] = v
    elif type(v) is Play and len(a) == 3:
        seat, card = a.get("seat"), a.get("card")
        if type(seat) is int and type(card) is str:
            _PLAYS[(seat, card)] = v
    return v


def _hand_from_valid_actions(norm: dict[str, Any], todo: list[int] | None = None) -> Hand | None:
    """``HandAdapter.validate_python(norm)`` for a hand recorded with its cards, made cheaper,
    or None (then the caller validates ``norm`` itself, and reports what is wrong).

    Validating a hand's list of some sixty actions is most of the cost of its model, even when
    the card plays are already validated (:data:`_PLAYS`): so each action is validated on its
    own (or taken from :data:`_PLAYS` and :data:`_ACTIONS`), the hand without its actions, and
    the two put together with ``model_copy``. That is the same model: an action's validation
    does not depend on the hand around it, and the hand's own check (:func:`_hand_record`)
    reads the actions only for a hand recorded as facts, which never comes here. Any doubt
    (an action that does not validate, a facts hand) returns None.

    ``todo``: the places of the actions still to validate (:func:`_prepare_actions`; the
    list is then the prepared one, changed in place); None: every action that is not a
    validated card play.
    """
    acts = norm.get("actions")
    if type(acts) is not list or not acts or norm.get("facts") is not None:
        return None
    if todo is None:
        acts = list(acts)
        todo = [j for j, a in enumerate(acts) if type(a) is not Play]
    for j in todo:
        a = acts[j]
        if type(a) is not dict:
            return None
        v = _validated_action(a)
        if v is None:
            return None
        acts[j] = v
    try:
        bare = HandAdapter.validate_python({**norm, "actions": []})
    except ValidationError:
        return None
    return bare.model_copy(update={"actions": acts})


class _Validator:
    """Validates one session record, collecting located errors."""

    def __init__(self, file: str, line: int | None) -> None:
        self.file = file
        self.line = line
        self.sid: str | None = None
        self.errors: list[LogError] = []
        #: the game knowledge of the session (set once its envelope is valid)
        self.rules: GameRules
        #: the folder of the log, when the session's options name a file in it
        self.source: Path | None = None
        #: the record's text has an escaped surrogate: strings are checked for lone ones
        self.surrogates = False

    def err(
        self, code: str, message: str, path: str | None = None, *, hand: int | None = None,
        action: int | None = None, into: list[LogError] | None = None,
    ) -> None:  # fmt: skip
        """Note a located error (or warning: the severity is the code's) in ``into``, by
        default in the session's own errors."""
        e = LogError(code, message, self.file, self.line, self.sid, hand, action, path,
                     severity_of(code))  # fmt: skip
        (self.errors if into is None else into).append(e)

    def schema_errors(
        self, exc: ValidationError, base: str, hand: int | None, into: list[LogError]
    ) -> None:
        seen: set[str] = set()
        for e in exc.errors(include_url=False):
            loc = _clean_loc(tuple(e["loc"]))
            path = _json_path(loc, base)
            if path in seen and e["type"] != "missing":
                continue
            seen.add(path)
            action = (
                loc[1] if len(loc) > 1 and loc[0] == "actions" and isinstance(loc[1], int) else None
            )
            t = e["type"]
            field_name = next((x for x in reversed(loc) if isinstance(x, str)), "record")
            if t == "missing":
                msg = f"the required field {field_name!r} is missing"
            elif t == "extra_forbidden":
                msg = f"{field_name!r} is not a field of log format v1 here"
            elif t == "union_tag_invalid":
                ctx = e.get("ctx", {})
                msg = (f"unknown type {ctx.get('tag')!r}; expected one of "
                       f"{ctx.get('expected_tags', '?')}")  # fmt: skip
            elif t == "union_tag_not_found":
                msg = "the entry has no 'type' field"
            else:
                msg = f"{field_name}: {e['msg']} (found {_short(e.get('input'))})"
            self.err(schema_code(t), msg, path, hand=hand, action=action, into=into)

    # ------------------------------------------------------------------ session envelope

    def session(
        self, obj: Any, defects: list[JsonDefect]
    ) -> tuple[Session | None, list[RejectedHand]]:
        if not isinstance(obj, dict):
            kind = type(obj).__name__ if obj is not None else "null"
            self.err("schema.model_type", f"a session must be a JSON object, found {kind}", "$")
            return None, []
        sid = obj.get("id")
        self.sid = sid if isinstance(sid, str) else None
        hand_defects: dict[int, list[JsonDefect]] = {}
        for d in defects:
            p = d.path
            if len(p) >= 2 and p[0] == "hands" and isinstance(p[1], int):
                hand_defects.setdefault(p[1], []).append(d._replace(path=p[2:]))
            else:
                self.err(d.code, d.message, _json_path(p))
        if "format" in obj and obj["format"] != FORMAT_NAME:
            self.err("format.unsupported", f"format {_short(obj['format'])} is not a tarock log "
                     f"(expected {FORMAT_NAME!r})", "$.format")  # fmt: skip
            return None, []
        fv = obj.get("format_version")
        if "format_version" in obj and (type(fv) not in (int, str) or fv not in FORMAT_VERSIONS):
            known = " and ".join(repr(v) for v in FORMAT_VERSIONS)
            self.err("format.unsupported", f"format_version {_short(fv)} is not supported: this "
                     f"reader reads versions {known}", "$.format_version")  # fmt: skip
            return None, []
        hands_raw = obj.get("hands", [])
        envelope = dict(obj)
        if isinstance(hands_raw, list):
            envelope["hands"] = []
        try:
            env = SessionAdapter.validate_python(envelope)
        except ValidationError as exc:
            self.schema_errors(exc, "$", None, self.errors)
            return None, []
        if self.surrogates:
            for p in _lone_surrogate_paths(envelope):
                self.err("schema.string_unicode", _SURROGATE_MESSAGE, _json_path(p))
            if any(e.is_error for e in self.errors):
                return None, []
        self.rules = game_rules(env.game, env.ruleset, env.options)
        self.envelope_checks(env)
        if any(e.is_error for e in self.errors):
            return None, []
        good: list[Hand] = []
        good_at: list[int] = []  # the position of each good hand in ``hands``
        rejected: list[RejectedHand] = []
        numbers: set[int] = set()
        for i, h in enumerate(hands_raw):
            herrs: list[LogError] = []
            number = h.get("number") if isinstance(h, dict) else None
            number = number if type(number) is int else None
            for d in hand_defects.get(i, ()):
                p = d.path
                act = p[1] if len(p) > 1 and p[0] == "actions" and isinstance(p[1], int) else None
                self.err(d.code, d.message, _json_path(p, f"$.hands[{i}]"), hand=number,
                         action=act, into=herrs)  # fmt: skip
            hand = self.hand(h, i, env, number, herrs)
            if self.surrogates and hand is not None and not any(e.is_error for e in herrs):
                for p in _lone_surrogate_paths(h):
                    self.err("schema.string_unicode", _SURROGATE_MESSAGE,
                             _json_path(p, f"$.hands[{i}]"), hand=number, into=herrs)  # fmt: skip
            if hand is not None and hand.number in numbers:
                self.err("hand.duplicate_number", f"hand number {hand.number} is used by an "
                         "earlier hand of this session", f"$.hands[{i}].number",
                         hand=number, into=herrs)  # fmt: skip
            if hand is None or any(e.is_error for e in herrs):
                rejected.append(RejectedHand(number, i, _dump_raw(h), herrs))
            else:
                numbers.add(hand.number)
                good.append(hand)
                good_at.append(i)
                self.errors.extend(herrs)
        self.rotation_checks(env, good, good_at)
        session = env.model_copy(update={"hands": good})
        if self.source is not None:
            session._source_dir = str(self.source.absolute())
        return session, rejected

    def envelope_checks(self, env: Session) -> None:
        n = len(env.players)
        catalogue = env.options.get(CATALOGUE_OPTION)
        if isinstance(catalogue, str) and catalogue:
            folder = Path(self.file).parent if Path(self.file).is_file() else None
            try:
                catalogue_file(catalogue, folder)
            except ValueError as exc:
                self.err("options.catalogue_path", str(exc), f"$.options.{CATALOGUE_OPTION}")
            self.source = folder
        sizes = self.rules.table_sizes
        if sizes and n not in sizes:
            told = " or ".join(map(str, sizes))
            self.err("table.size", f"{env.game} is played by {told} players; this session "
                     f"seats {n}", "$.players")  # fmt: skip
        if env.first_dealer is not None and env.first_dealer >= n:
            self.err("seat.range", f"first_dealer {env.first_dealer} is not a seat at this "
                     f"table of {n} (seats 0..{n - 1})", "$.first_dealer")  # fmt: skip
        if env.recorded is not None:
            for name in ("totals", "placement_points"):
                vals = getattr(env.recorded, name)
                if vals is not None and len(vals) != n:
                    self.err("result.size", f"recorded {name} has {len(vals)} entries for "
                             f"{n} seats", f"$.recorded.{name}")  # fmt: skip
        start = env.start
        if start is not None and start.totals is not None and len(start.totals) != n:
            self.err("result.size", f"start.totals has {len(start.totals)} entries for {n} "
                     "seats", "$.start.totals")  # fmt: skip
        engine = self.rules.engine
        seating = engine.seating(n) if engine is not None else None
        if seating is not None and engine is not None:
            self.seating_checks(env, seating, engine.seating_error)

    def seating_checks(
        self, env: Session, seating: tuple[tuple[str, str], ...], error: tuple[str, str]
    ) -> None:
        """The players' ``(pair, role)`` make the game's required ``seating`` (each once),
        and each partner sits right after the one the seating puts before them (Royal
        Tarock's Eintreiber after the Abfänger of the pair)."""
        code, sentence = error
        seats: dict[tuple[str | None, str | None], list[int]] = {}
        for s, p in enumerate(env.players):
            seats.setdefault((p.pair, p.role), []).append(s)
        if any(len(seats.get(place, [])) != 1 for place in seating):
            self.err(code, sentence, "$.players")
            return
        n = len(env.players)
        for (pr, first), (pr2, then) in itertools.pairwise(seating):
            if pr != pr2:
                continue
            a, b = seats[(pr, first)][0], seats[(pr, then)][0]
            if b != (a + 1) % n:
                self.err(code, f"pair {pr}: the {then} (seat {b}) must sit right after the "
                         f"{first} (seat {a}) in playing order", "$.players")  # fmt: skip

    def rotation_checks(self, env: Session, good: list[Hand], good_at: list[int]) -> None:
        """Warn (``deal.dealer_rotation``) where a hand is not dealt by the seat the game's
        rotation gives after the hand before it (checked between hands numbered in a row,
        and for hand 1 against ``first_dealer``). One pass over the good hands, whose
        positions in ``hands`` are ``good_at``."""
        n = len(env.players)
        rules = self.rules
        prev: Hand | None = None
        for h, idx in zip(good, good_at, strict=True):
            expected: int | None = None
            if prev is None:
                if env.first_dealer is not None and h.number == 1:
                    expected = env.first_dealer
            elif h.number == prev.number + 1:
                thrown = any(a.type == "throw_in" for a in prev.actions)
                expected = rules.next_dealer(prev.dealer, n, thrown)
            if expected is not None and h.dealer != expected and h.dealer < n:
                why = ("the first dealer" if prev is None else
                       f"hand {prev.number} was dealt by seat {prev.dealer}")  # fmt: skip
                self.err(
                    "deal.dealer_rotation",
                    f"hand {h.number} is dealt by seat {h.dealer}, but "
                    f"the rotation gives seat {expected} ({why})",
                    f"$.hands[{idx}].dealer",
                    hand=h.number,
                )
            prev = h

    # ------------------------------------------------------------------ one hand

    def hand(
        self, h: Any, i: int, env: Session, number: int | None, herrs: list[LogError]
    ) -> Hand | None:
        base = f"$.hands[{i}]"
        if not isinstance(h, dict):
            self.err("schema.model_type", f"a hand must be a JSON object, found "
                     f"{type(h).__name__}", base, into=herrs)  # fmt: skip
            return None
        game = env.game
        card_errs: list[LogError] = []
        norm, todo = self.normalise(h, game, base, number, card_errs)
        fast = None if card_errs else _hand_from_valid_actions(norm, todo)
        if fast is not None:
            self.structure(fast, env, base, herrs)
            return fast
        try:
            hand = HandAdapter.validate_python(norm)
        except ValidationError as exc:
            herrs.extend(card_errs)
            self.schema_errors(exc, base, number, herrs)
            return None
        if card_errs:
            herrs.extend(card_errs)
            return None
        self.structure(hand, env, base, herrs)
        return hand

    def normalise(
        self, h: dict[str, Any], game: str, base: str, number: int | None, errs: list[LogError]
    ) -> tuple[dict[str, Any], list[int] | None]:
        """The hand with its card tokens in canonical form (``errs`` gets what is not a card
        of the pack), and the places of the actions :func:`_prepare_actions` left to
        validate (None: its actions went through the careful loop here)."""
        pack = self.rules.pack_set
        todo: list[int] | None = None
        out = dict(h)
        deal = h.get("deal")
        if isinstance(deal, dict):
            d = dict(deal)
            hands = deal.get("hands")
            if isinstance(hands, list):
                d["hands"] = [
                    sort_cards(cs, game)
                    if type(cs) is list and _all_pack(pack, cs)
                    else self.cards(cs, game, f"{base}.deal.hands[{k}]", number, None, errs, True)
                    for k, cs in enumerate(hands)
                ]
            talon = deal.get("talon")
            if talon is not None and not (type(talon) is list and _all_pack(pack, talon)):
                d["talon"] = self.cards(talon, game, f"{base}.deal.talon", number, None, errs,
                                        False)  # fmt: skip
            out["deal"] = d
        facts = h.get("facts")
        if isinstance(facts, dict) and isinstance(facts.get("called"), str):
            called = facts["called"]
            if called not in pack:
                out["facts"] = {**facts, "called": self.card(called, game, f"{base}.facts.called",
                                                             number, None, errs)}  # fmt: skip
        counted = h.get("counted")
        if isinstance(counted, dict):
            piles = dict(counted)
            cp = f"{base}.counted"
            for key in ("talon", "talon_taken", "discards", "declarer", "defenders"):
                lst = counted.get(key)
                if lst is not None and not (type(lst) is list and _all_pack(pack, lst)):
                    piles[key] = self.cards(lst, game, f"{cp}.{key}", number, None, errs, False)
            by_seat = counted.get("by_seat")
            if isinstance(by_seat, list):
                piles["by_seat"] = [
                    cs
                    if type(cs) is list and _all_pack(pack, cs)
                    else self.cards(cs, game, f"{cp}.by_seat[{k}]", number, None, errs, False)
                    for k, cs in enumerate(by_seat)
                ]
            out["counted"] = piles
        actions = h.get("actions")
        prepared = _prepare_actions(actions, pack) if type(actions) is list else None
        if prepared is not None:
            out["actions"], todo = prepared
        elif isinstance(actions, list):
            new_actions = actions
            plays = _PLAYS
            for j, a in enumerate(actions):
                if type(a) is not dict:
                    continue
                c = a.get("card")
                if len(a) == 3 and type(c) is str and c in pack:
                    # a plain card play {type, seat, card}: the same validated (frozen,
                    # immutable) Play for every hand that has it; validated the first time
                    # and only kept when valid, so any defect is still reported in place
                    seat = a.get("seat")
                    if type(seat) is int and a.get("type") == "play":
                        p = plays.get((seat, c)) or _validated_action(a)  # (which remembers it)
                        if p is None:
                            continue
                        if new_actions is actions:
                            new_actions = list(actions)
                        new_actions[j] = p
                        continue
                cs = a.get("cards")
                sh = a.get("shown")
                if (
                    (c is None or (type(c) is str and c in pack))
                    and (
                        cs is None
                        or (type(cs) is list and all(type(x) is str and x in pack for x in cs))
                    )
                    and (
                        sh is None
                        or (type(sh) is list and all(type(x) is str and x in pack for x in sh))
                    )
                ):
                    continue
                if new_actions is actions:
                    new_actions = list(actions)
                a = dict(a)
                ap = f"{base}.actions[{j}]"
                if isinstance(c, str):
                    a["card"] = self.card(c, game, ap + ".card", number, j, errs)
                for key in ("cards", "shown"):
                    if key in a:
                        a[key] = self.cards(a[key], game, f"{ap}.{key}", number, j, errs,
                                            False)  # fmt: skip
                new_actions[j] = a
            out["actions"] = new_actions
        return out, todo

    def card(
        self, tok: str, game: str, path: str, number: int | None, action: int | None,
        errs: list[LogError],
    ) -> str:  # fmt: skip
        """The pack token of ``tok`` (any alias, case, whitespace, or a physical name the
        ruleset maps onto the pack, such as a Glatze), or ``tok`` itself and an error."""
        rules = self.rules
        key = "".join(tok.split()).upper()
        mapped = rules.card_names.get(key)
        if mapped is not None:
            return mapped
        try:  # a physical card outside the ruleset's named cards stays itself: not in the pack
            canon = normalize_token(tok, game, rules.card_names)
        except CardError:
            self.err("card.unknown", f"{tok!r} is not a card of the {game} pack", path,
                     hand=number, action=action, into=errs)  # fmt: skip
            return tok
        if canon in rules.pack_set:
            return canon
        self.err("card.not_in_pack", f"{tok!r} ({canon}) is a card, but the {game} pack "
                 "does not have it", path, hand=number, action=action, into=errs)  # fmt: skip
        return tok

    def cards(
        self, lst: Any, game: str, path: str, number: int | None, action: int | None,
        errs: list[LogError], sort: bool,
    ) -> Any:  # fmt: skip
        if not isinstance(lst, list):
            return lst
        before = len(errs)
        out = [
            self.card(t, game, f"{path}[{k}]", number, action, errs) if isinstance(t, str) else t
            for k, t in enumerate(lst)
        ]
        if sort and len(errs) == before and all(isinstance(t, str) for t in out):
            out = sort_cards(out, game)
        return out

    def structure(self, hand: Hand, env: Session, base: str, errs: list[LogError]) -> None:
        n = len(env.players)
        num = hand.number
        game = env.game

        def seat_ok(seat: int | None, path: str, what: str, action: int | None = None) -> bool:
            if seat is not None and seat >= n:
                self.err("seat.range", f"{what} seat {seat} is not at this table of {n} "
                         f"(seats 0..{n - 1})", path, hand=num, action=action,
                         into=errs)  # fmt: skip
                return False
            return True

        dealer_ok = seat_ok(hand.dealer, f"{base}.dealer", "the dealer")
        shape = self.rules.deal_shape(n, hand.dealer) if dealer_ok else None
        if hand.deal is not None:
            seat_ok(hand.deal.cut_by, f"{base}.deal.cut_by", "the cutter")
            if dealer_ok:
                self.deal_checks(hand, game, n, shape, base, errs)
        if hand.facts is not None:
            self.facts_checks(hand, n, base, errs, seat_ok)
        if hand.counted is not None:
            self.counted_checks(hand, n, shape, base, errs)
        # the seats dealt no cards sit the hand out (the dealer at a table of five)
        idle = [s for s, k in enumerate(shape.hands) if k == 0] if shape is not None else []
        sits_out = idle[0] if len(idle) == 1 else -1
        acts = hand.actions
        odd = [j for j, a in enumerate(acts) if a.seat >= n or a.seat == sits_out]
        if len(idle) > 1:
            odd = [j for j, a in enumerate(acts) if a.seat >= n or a.seat in idle]
        for j in odd:  # (usually none: one pass above instead of a branch per action)
            a = acts[j]
            if seat_ok(a.seat, f"{base}.actions[{j}].seat", "the acting", j):
                who = "deals and sits out" if a.seat == hand.dealer else "sits out"
                self.err("seat.inactive", f"seat {a.seat} {who} at a table of {n} (it is "
                         f"dealt no cards), but makes a {a.type!r} action",
                         f"{base}.actions[{j}].seat", hand=num, action=j,
                         into=errs)  # fmt: skip
        for j, irr in enumerate(hand.irregularities):
            ip = f"{base}.irregularities[{j}]"
            for attr in ("offender", "called_by", "seat"):
                seat_ok(getattr(irr, attr, None), f"{ip}.{attr}", f"the {attr.replace('_', ' ')}")
            for k, adj in enumerate(getattr(irr, "adjustments", ())):
                seat_ok(adj.seat, f"{ip}.adjustments[{k}].seat", "the adjusted")
        r = hand.result
        if r is not None:
            if len(r.scores) != n:
                self.err("result.size", f"the result has {len(r.scores)} scores for {n} seats",
                         f"{base}.result.scores", hand=num, into=errs)  # fmt: skip
            if r.radelci_after is not None and len(r.radelci_after) != n:
                self.err("result.size", f"radelci_after has {len(r.radelci_after)} entries "
                         f"for {n} seats", f"{base}.result.radelci_after", hand=num,
                         into=errs)  # fmt: skip
            for k, it in enumerate(r.items):
                seat_ok(it.seat, f"{base}.result.items[{k}].seat", f"the {it.item!r} item's")
            if r.totals_after is not None and len(r.totals_after) != n:
                self.err("result.size", f"totals_after has {len(r.totals_after)} entries "
                         f"for {n} seats", f"{base}.result.totals_after", hand=num,
                         into=errs)  # fmt: skip
        rb = hand.radelci_before
        if rb is not None and len(rb) != n:
            self.err("result.size", f"radelci_before has {len(rb)} entries for {n} seats",
                     f"{base}.radelci_before", hand=num, into=errs)  # fmt: skip

    def facts_checks(
        self, hand: Hand, n: int, base: str, errs: list[LogError],
        seat_ok: Callable[[int | None, str, str], bool],
    ) -> None:  # fmt: skip
        """The seats a hand recorded as facts names are at the table; klop's points per seat
        are one per seat. (What the facts mean is the engines' business.)"""
        f = hand.facts
        assert f is not None
        fp = f"{base}.facts"
        seat_ok(f.declarer, f"{fp}.declarer", "the declarer")
        seat_ok(f.partner, f"{fp}.partner", "the partner")
        for k, kf in enumerate(f.kontras):
            seat_ok(kf.seat, f"{fp}.kontras[{k}].seat", "the kontra giver")
        for k, s in enumerate(f.full):
            seat_ok(s, f"{fp}.full[{k}]", "the full")
        for k, mf in enumerate(f.mondfang):
            seat_ok(mf.seat, f"{fp}.mondfang[{k}].seat", "the mond's")
            seat_ok(mf.captured_by, f"{fp}.mondfang[{k}].captured_by", "the capturer")
        if f.points_by_seat is not None and len(f.points_by_seat) != n:
            self.err("result.size", f"points_by_seat has {len(f.points_by_seat)} entries for "
                     f"{n} seats", f"{fp}.points_by_seat", hand=hand.number,
                     into=errs)  # fmt: skip

    def counted_checks(
        self, hand: Hand, n: int, shape: DealShape | None, base: str, errs: list[LogError]
    ) -> None:
        """A counted hand's cards (format 1.2): the piles, the discards and the talon not
        taken hold every card of the pack exactly once (a doubled card is named with where it
        is; the missing ones are named), and their sizes fit the table: a pile of tricks holds
        one card per active player and trick, the talon has the size the game deals, the
        declarer lays away as many cards as he took. (What the piles mean is the engines'.)"""
        c = hand.counted
        assert c is not None
        num = hand.number
        cp = f"{base}.counted"
        places: list[tuple[str, list[str]]] = []
        if c.by_seat is not None:
            if len(c.by_seat) != n:
                self.err("counted.count", f"by_seat lists {len(c.by_seat)} piles for a table of "
                         f"{n} (one per seat)", f"{cp}.by_seat", hand=num, into=errs)  # fmt: skip
            places += [(f"{cp}.by_seat[{s}]", cs) for s, cs in enumerate(c.by_seat)]
            given = set(c.talon)  # klop: the talon's cards went to the tricks, into the piles
        else:
            places += [(f"{cp}.declarer", c.declarer or []), (f"{cp}.defenders", c.defenders or [])]
            given = set()
        for k, x in enumerate(c.talon_taken):
            if x not in c.talon:
                self.err("counted.talon_taken", f"{x} is taken from the talon, but the talon "
                         f"recorded is {', '.join(c.talon) or 'empty'}",
                         f"{cp}.talon_taken[{k}]", hand=num, into=errs)  # fmt: skip
        taken = set(c.talon_taken)
        places.append((f"{cp}.discards", c.discards))
        remainder = [x for x in c.talon if x not in taken and x not in given]
        where: dict[str, list[str]] = {}
        for path, cs in places:
            for k, x in enumerate(cs):
                where.setdefault(x, []).append(f"{path}[{k}]")
        for k, x in enumerate(c.talon):
            if x in remainder:
                where.setdefault(x, []).append(f"{cp}.talon[{k}]")
        dups = [x for x, at in where.items() if len(at) > 1]
        for x in dups:
            at = where[x]
            self.err("counted.duplicate_card", f"{x} is counted {len(at)} times ({', '.join(at)})",
                     at[1], hand=num, into=errs)  # fmt: skip
        missing = [x for x in self.rules.pack if x not in where]
        if missing:
            self.err("counted.missing_card", f"the counted cards lack {', '.join(missing)} (in "
                     "no pile, nor the discards, nor the talon not taken)", cp, hand=num,
                     into=errs)  # fmt: skip
        if dups or missing or shape is None:
            return
        active = sum(1 for k in shape.hands if k)
        if (c.talon or c.by_seat is None) and len(c.talon) != shape.talon:
            self.err("counted.count", f"the talon has {len(c.talon)} cards; the game deals "
                     f"{shape.talon} at this table", f"{cp}.talon", hand=num,
                     into=errs)  # fmt: skip
        if len(c.discards) != len(c.talon_taken):
            self.err("counted.count", f"{len(c.discards)} cards laid away for "
                     f"{len(c.talon_taken)} taken from the talon", f"{cp}.discards", hand=num,
                     into=errs)  # fmt: skip
        if c.by_seat is None and active:
            for side, pile_of in (("declarer", "declarer's side"), ("defenders", "defenders'")):
                pile = getattr(c, side) or []
                if len(pile) % active:
                    self.err("counted.count", f"the {pile_of} pile has {len(pile)} cards, not a "
                             f"whole number of tricks of {active} cards", f"{cp}.{side}",
                             hand=num, into=errs)  # fmt: skip
        elif c.by_seat is not None:
            for s, cs in enumerate(c.by_seat):
                if s < len(shape.hands) and shape.hands[s] == 0 and cs:
                    self.err("counted.count", f"seat {s} sits out at a table of {n}, but takes "
                             f"{len(cs)} cards", f"{cp}.by_seat[{s}]", hand=num,
                             into=errs)  # fmt: skip

    def deal_checks(
        self, hand: Hand, game: str, n: int, shape: DealShape | None, base: str,
        errs: list[LogError],
    ) -> None:  # fmt: skip
        """The deal against the pack (each card once) and against ``shape``, the cards per
        seat and talon size the game deals at this table (None: sizes not checked)."""
        num = hand.number
        deal = hand.deal
        assert deal is not None  # (only called for a hand recorded with its cards)
        if len(deal.hands) != n:
            self.err("deal.count", f"the deal lists {len(deal.hands)} hands for a table of {n} "
                     "(one list per seat, empty for a seat that sits out)",
                     f"{base}.deal.hands", hand=num, into=errs)  # fmt: skip
            return
        pack = self.rules.pack
        dealt = [*deal.talon, *(c for cs in deal.hands for c in cs)]
        if (shape is not None and len(dealt) == len(pack)
                and self.rules.pack_set.issuperset(dealt) and len(set(dealt)) == len(dealt)
                and len(deal.talon) == shape.talon
                and tuple(len(cs) for cs in deal.hands) == shape.hands):  # fmt: skip
            return  # the whole pack, each card once, the right sizes: nothing to report
        counts = Counter(deal.talon)
        for cs in deal.hands:
            counts.update(cs)
        dups = [c for c, cnt in counts.items() if cnt > 1]
        for c in dups:
            where = [f"{base}.deal.hands[{s}][{k}]" for s, cs in enumerate(deal.hands)
                     for k, x in enumerate(cs) if x == c]  # fmt: skip
            where += [f"{base}.deal.talon[{k}]" for k, x in enumerate(deal.talon) if x == c]
            self.err("deal.duplicate_card", f"{c} is dealt {counts[c]} times", where[1],
                     hand=num, into=errs)  # fmt: skip
        if dups:  # a card dealt twice explains the missing card and the odd sizes: one defect
            return
        missing = [c for c in pack if c not in counts]
        if missing:
            n_dealt = sum(counts.values())
            self.err("deal.missing_card", f"the deal lacks {', '.join(missing)} ({len(pack)} "
                     f"cards expected, {n_dealt} dealt)", f"{base}.deal", hand=num,
                     into=errs)  # fmt: skip
            return
        if shape is None:
            return
        per_seat, talon = shape
        # a deal recorded as a misdeal (thrown in, or a misdeal irregularity) keeps its wrong
        # counts: they are what the engine judges (Royal Tarock §3.4: "wenn falsch gegeben
        # wurde ... muss er das zeigen"), so they are warnings here
        misdeal = any(a.type == "throw_in" for a in hand.actions) or any(
            i.type == "misdeal" for i in hand.irregularities
        )
        for s, cs in enumerate(deal.hands):
            if len(cs) != per_seat[s]:
                why = (
                    f"seat {s} sits out at a table of {n}"
                    if per_seat[s] == 0
                    else f"{game} at a table of {n} deals {per_seat[s]} to each active player"
                )
                code = "deal.misdeal_count" if misdeal else "deal.count"
                self.err(code, f"seat {s} was dealt {len(cs)} cards; {why}"
                         + ("; recorded as a misdeal, for the rules to judge" if misdeal else ""),
                         f"{base}.deal.hands[{s}]", hand=num, into=errs)  # fmt: skip
        if len(deal.talon) != talon:
            self.err("deal.count", f"the talon has {len(deal.talon)} cards; {game} deals "
                     f"{talon}", f"{base}.deal.talon", hand=num, into=errs)  # fmt: skip
