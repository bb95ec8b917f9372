"""The Royal Tarock catalogue of announcements and premiums, as data (royal-tarock.md §5.7).

Royal Tarock has 70 scoring items; only 16 are known completely and 13 more by name. So the
catalogue is a JSON file a user can complete, not code: ``royal-gerots-2023.json`` next to
this module is the built-in one (loaded with :mod:`importlib.resources`). A user's file either
replaces it or, with ``"extends": "royal-gerots-2023"``, changes and adds items by ``id`` field
by field (see ``docs/royal.md``).

The engine itself only ever sees a parsed ``dict`` (:func:`parse_catalogue`); reading files is
the job of the two thin loaders :func:`builtin_catalogue_dict` and :func:`read_catalogue_file`.

Item groups: ``meldung`` (hand declaration: a true statement about one's own dealt hand),
``material`` (bring certain tarocks home), ``silent`` (scored without announcement),
``free_tricks`` (a number of tricks with any cards), ``bound`` (a trick to be won with a
given, "bound" card: *behaltpflichtig*), ``trophy`` (the expensive premiums that may exceed
the 100-point cap) and ``schlemm`` (any other announced premium).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from tarock_logs.cards import PACKS
from tarock_logs.rules.royal import predicates

BUILTIN_ID: Final = "royal-gerots-2023"
GROUPS: Final = ("meldung", "material", "silent", "free_tricks", "bound", "trophy", "schlemm")
STATUSES: Final = ("confirmed", "reconstructed", "unknown", "fixture")
PARAM_KINDS: Final = ("suit", "int", "str", "bool")
_PACK = frozenset(PACKS["royal"])
_NOTHING: frozenset[str] = frozenset()

_FIELDS: Final[dict[str, Any]] = {  # field -> default for items that omit it
    "names": {},
    "group": None,
    "announceable": True,
    "direct_announcement_allowed": True,
    "silent": False,
    "contra_allowed": True,
    "value": None,
    "contra_value": None,
    "raises": [],
    "bindings": [],
    "suppresses": [],
    "disables_obscur": False,
    "replaced_by": [],
    "params": {},
    "distinct_by": [],
    "exclusive": False,
    "condition": None,
    "status": "unknown",
    "source": None,
    "notes": "",
}


@dataclass(frozen=True, slots=True)
class Binding:
    """A bound card: the Schlemm is won only if ``card`` wins trick ``trick`` for the party."""

    card: str
    trick: int


@dataclass(frozen=True, slots=True)
class Item:
    """One catalogue record (field meanings: royal-tarock.md §5.7 and docs/royal.md)."""

    id: str
    names: Mapping[str, str | None]
    group: str
    announceable: bool
    direct_announcement_allowed: bool
    silent: bool
    contra_allowed: bool
    value: int | None  # None = unknown
    contra_value: int | None  # None = same as value
    raises: tuple[str, ...]
    bindings: tuple[Binding, ...]
    suppresses: tuple[str, ...]
    disables_obscur: bool
    replaced_by: tuple[str, ...]  # silent items: not scored for a party that announced one
    params: Mapping[str, str]  # Meldungen: parameter name -> kind
    distinct_by: tuple[str, ...]  # Meldungen: parameters that make a separate declaration
    exclusive: bool  # only one party may announce it (§8.1 item 8)
    condition: Any  # predicate expression, None = unknown
    status: str
    source: str | None
    notes: str

    @property
    def name(self) -> str:
        """A display name: German, else Hungarian, else English, else the id."""
        for lang in ("de", "hu", "en"):
            n = self.names.get(lang)
            if n:
                return n
        return self.id

    @property
    def is_trophy(self) -> bool:
        return self.group == "trophy"

    @property
    def is_meldung(self) -> bool:
        return self.group == "meldung"

    @property
    def effective_contra_value(self) -> int | None:
        return self.value if self.contra_value is None else self.contra_value


@dataclass(frozen=True, slots=True)
class Catalogue:
    """A parsed, validated catalogue: items by id and the raising relation's closure."""

    id: str
    title: str
    items: Mapping[str, Item]
    obscur_item: str | None  # the silent item switched off by ``disables_obscur``
    lauer_item: str | None  # the silent item the option ``lauer_rule`` applies to
    _above: Mapping[str, frozenset[str]]  # id -> ids it contains or hardens (transitively)

    def __deepcopy__(self, memo: dict[int, Any]) -> Catalogue:
        return self  # immutable: engine states share it

    def get(self, item_id: str) -> Item | None:
        return self.items.get(item_id)

    def raises(self, higher: str, lower: str) -> bool:
        """True when ``higher`` contains or hardens ``lower`` (transitive closure)."""
        return lower in self._above.get(higher, _NOTHING)

    def raised_by(self, higher: str) -> frozenset[str]:
        """The ids ``higher`` contains or hardens: ``raises(higher, x)`` for each of them."""
        return self._above.get(higher, _NOTHING)

    def ids(self) -> list[str]:
        return list(self.items)


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"{path}: expects true or false, got {v!r}")
    return v


def _int_or_none(v: Any, path: str) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{path}: expects an integer or null, got {v!r}")
    return v


def _ids(v: Any, path: str) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
        raise ValueError(f"{path}: expects a list of item ids")
    return tuple(v)


def _item(raw: Mapping[str, Any], idx: int) -> Item:
    if not isinstance(raw, Mapping):
        raise ValueError(f"items[{idx}]: expects an object")
    iid = raw.get("id")
    if not isinstance(iid, str) or not iid:
        raise ValueError(f"items[{idx}]: every item needs a non-empty string id")
    p = f"item {iid}"
    unknown = set(raw) - set(_FIELDS) - {"id"}
    if unknown:
        raise ValueError(f"{p}: unknown field(s) {', '.join(sorted(unknown))}")
    d = {**_FIELDS, **raw}
    if "disables_obscur" not in raw and d["group"] == "free_tricks":
        d["disables_obscur"] = True  # §5.3: any free-tricks announcement switches Obscur off
    if d["group"] in ("meldung", "silent"):  # neither is announced nor contra'd (§4.3, §4.4)
        for key in ("announceable", "contra_allowed"):
            if key not in raw:
                d[key] = False
        if d["group"] == "silent" and "silent" not in raw:
            d["silent"] = True
    if d["group"] not in GROUPS:
        raise ValueError(f"{p}.group: {d['group']!r} is not one of {', '.join(GROUPS)}")
    if d["status"] not in STATUSES:
        raise ValueError(f"{p}.status: {d['status']!r} is not one of {', '.join(STATUSES)}")
    names = d["names"] or {}
    if not isinstance(names, Mapping):
        raise ValueError(f"{p}.names: expects an object of language -> name")
    bindings = []
    if not isinstance(d["bindings"], list):
        raise ValueError(f"{p}.bindings: expects a list of {{card, trick}}")
    for j, b in enumerate(d["bindings"]):
        if not isinstance(b, Mapping) or set(b) != {"card", "trick"}:
            raise ValueError(f'{p}.bindings[{j}]: expects {{"card": c, "trick": k}}')
        if b["card"] not in _PACK:
            raise ValueError(f"{p}.bindings[{j}].card: {b['card']!r} is not a Royal card")
        t = b["trick"]
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= 10:
            raise ValueError(f"{p}.bindings[{j}].trick: expects 1..10")
        bindings.append(Binding(b["card"], t))
    params = d["params"] or {}
    if not isinstance(params, Mapping) or any(k not in PARAM_KINDS for k in params.values()):
        raise ValueError(f"{p}.params: expects an object of name -> {'|'.join(PARAM_KINDS)}")
    distinct = _ids(d["distinct_by"], f"{p}.distinct_by")
    if set(distinct) - set(params):
        raise ValueError(f"{p}.distinct_by: names a parameter not in params")
    predicates.validate(d["condition"], f"{p}.condition")
    src = d["source"]
    if src is not None and not isinstance(src, str):
        raise ValueError(f"{p}.source: expects a string")
    return Item(
        id=iid,
        names=dict(names),
        group=d["group"],
        announceable=_bool(d["announceable"], f"{p}.announceable"),
        direct_announcement_allowed=_bool(
            d["direct_announcement_allowed"], f"{p}.direct_announcement_allowed"
        ),
        silent=_bool(d["silent"], f"{p}.silent"),
        contra_allowed=_bool(d["contra_allowed"], f"{p}.contra_allowed"),
        value=_int_or_none(d["value"], f"{p}.value"),
        contra_value=_int_or_none(d["contra_value"], f"{p}.contra_value"),
        raises=_ids(d["raises"], f"{p}.raises"),
        bindings=tuple(bindings),
        suppresses=_ids(d["suppresses"], f"{p}.suppresses"),
        disables_obscur=_bool(d["disables_obscur"], f"{p}.disables_obscur"),
        replaced_by=_ids(d["replaced_by"], f"{p}.replaced_by"),
        params=dict(params),
        distinct_by=distinct,
        exclusive=_bool(d["exclusive"], f"{p}.exclusive"),
        condition=d["condition"],
        status=d["status"],
        source=src,
        notes=str(d["notes"] or ""),
    )


def _closure(items: Mapping[str, Item]) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}

    def above(iid: str, stack: tuple[str, ...]) -> frozenset[str]:
        if iid in out:
            return out[iid]
        if iid in stack:
            raise ValueError(f"raising relation has a cycle: {' -> '.join(stack + (iid,))}")
        acc: set[str] = set()
        for lower in items[iid].raises:
            acc.add(lower)
            acc |= above(lower, stack + (iid,))
        out[iid] = frozenset(acc)
        return out[iid]

    for iid in items:
        above(iid, ())
    return out


def merge_catalogues(base: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """``overlay`` applied to ``base``: items with a known id are updated field by field, new
    ids are appended, ``{"id": X, "remove": true}`` drops X; top-level keys are replaced."""
    items = {it["id"]: dict(it) for it in base.get("items", [])}
    for it in overlay.get("items", []):
        if not isinstance(it, Mapping) or not isinstance(it.get("id"), str):
            raise ValueError("extending catalogue: every item needs a string id")
        if it.get("remove") is True:
            items.pop(it["id"], None)
            continue
        items[it["id"]] = {**items.get(it["id"], {}), **it}
    top = {k: v for k, v in base.items() if k != "items"}
    top.update({k: v for k, v in overlay.items() if k not in ("items", "extends")})
    top["items"] = list(items.values())
    return top


def parse_catalogue(doc: Mapping[str, Any]) -> Catalogue:
    """Validate a catalogue document (already parsed JSON) and build a :class:`Catalogue`.

    A document with ``"extends": "<built-in id>"`` is merged onto the built-in catalogue
    first. Raises ``ValueError`` with the path of the first fault.
    """
    if not isinstance(doc, Mapping):
        raise ValueError("a catalogue is a JSON object with an 'items' list")
    ext = doc.get("extends")
    if ext is not None:
        if ext != BUILTIN_ID:
            raise ValueError(f"extends: only the built-in catalogue {BUILTIN_ID!r} can be extended")
        doc = merge_catalogues(builtin_catalogue_dict(), doc)
    raw_items = doc.get("items")
    if not isinstance(raw_items, list):
        raise ValueError("a catalogue needs an 'items' list")
    items: dict[str, Item] = {}
    for i, raw in enumerate(raw_items):
        it = _item(raw, i)
        if it.id in items:
            raise ValueError(f"item {it.id}: defined twice")
        items[it.id] = it
    for it in items.values():
        for field_name in ("raises", "suppresses", "replaced_by"):
            for ref in getattr(it, field_name):
                if ref not in items:
                    raise ValueError(f"item {it.id}.{field_name}: unknown item {ref!r}")
    obscur = doc.get("obscur_item")
    if obscur is not None and obscur not in items:
        raise ValueError(f"obscur_item: unknown item {obscur!r}")
    lauer = doc.get("lauer_item")
    if lauer is not None and lauer not in items:
        raise ValueError(f"lauer_item: unknown item {lauer!r}")
    cid = doc.get("catalogue") or "user"
    return Catalogue(
        id=str(cid),
        title=str(doc.get("title") or cid),
        items=items,
        obscur_item=obscur,
        lauer_item=lauer,
        _above=_closure(items),
    )


# --------------------------------------------------------------------------- thin loaders

_BUILTIN_CACHE: dict[str, Any] = {}


def builtin_catalogue_dict() -> dict[str, Any]:
    """The built-in catalogue document (a fresh copy each call)."""
    if "doc" not in _BUILTIN_CACHE:
        text = resources.files(__name__).joinpath(f"{BUILTIN_ID}.json").read_text("utf-8")
        _BUILTIN_CACHE["doc"] = json.loads(text)
    doc: dict[str, Any] = json.loads(json.dumps(_BUILTIN_CACHE["doc"]))
    return doc


def builtin_catalogue() -> Catalogue:
    """The built-in catalogue, parsed once."""
    if "parsed" not in _BUILTIN_CACHE:
        _BUILTIN_CACHE["parsed"] = parse_catalogue(builtin_catalogue_dict())
    cat: Catalogue = _BUILTIN_CACHE["parsed"]
    return cat


#: Largest catalogue file read (the built-in catalogue is about 17 KB).
MAX_CATALOGUE_BYTES: Final = 1024 * 1024


def read_catalogue_file(path: str | Path) -> dict[str, Any]:
    """Read a user's catalogue file (JSON) into a document for :func:`parse_catalogue`.

    Only a regular file of at most :data:`MAX_CATALOGUE_BYTES` is read (a device such as
    ``/dev/zero``, a pipe or a folder is refused without waiting on it)."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise ValueError(f"catalogue file {p}: not a regular file")
            data = fh.read(MAX_CATALOGUE_BYTES + 1)
        if len(data) > MAX_CATALOGUE_BYTES:
            raise ValueError(f"catalogue file {p}: over {MAX_CATALOGUE_BYTES} bytes")
        doc = json.loads(data.decode("utf-8"))
    except OSError as exc:
        raise ValueError(f"catalogue file {p}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ValueError(f"catalogue file {p}: not UTF-8 text ({exc.reason})") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"catalogue file {p}: not valid JSON ({exc})") from exc
    if not isinstance(doc, dict):
        raise ValueError(f"catalogue file {p}: expects a JSON object")
    return doc
