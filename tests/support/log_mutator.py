"""A structure-aware mutator of tarock logs, and the reader's invariants it is checked against.

Shared by the property and fuzz tests (``tests/log/test_reader_properties.py``) and the long run
(``benchmarks/fuzz.py``). A mutant starts from a **seed**: a valid session of ``sample_logs/``
or of ``tests/log/fuzz_corpus/``, or the bytes of a malformed sample. Then:

* **values** are changed where they are, picked from what breaks readers: integers at and
  beyond the 64-bit limits, huge and odd floats, lone surrogates, control and bidirectional
  characters, card aliases and non-cards, empty and long strings, other types, nested copies;
  keys are deleted, added (fields of the format) or written twice; lists are cut, doubled,
  reordered; a value is nested deeper than the limit;
* the session is **written** one of many ways (ASCII escapes or UTF-8, compact or indented, one
  JSONL line or several, a session or an array of them, with a byte-order mark);
* **bytes** are then sometimes flipped, cut, doubled or spliced with brackets and quotes.

:func:`check` reads a mutant and asserts every invariant; a broken one raises
:class:`InvariantBroken` (a crash of the reader is any other exception).
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from tarock_logs.log.errors import CODES, SCHEMA_PREFIX, severity_of
from tarock_logs.log.reader import Kind, SessionRecord, read_bytes
from tarock_logs.log.writer import dumps_sessions
from tarock_logs.verdict.audit import audit_session

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"
CORPUS = ROOT / "tests" / "log" / "fuzz_corpus"

#: Values that break readers, written as JSON text (so a lone surrogate stays an escape).
HOSTILE_TEXT: tuple[str, ...] = (
    "null", "true", "false", "0", "-0", "-1", "4", "5", "99", "100001",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "1" + "0" * 30, "-" + "9" * 25, "1" * 4400, "1.5", "-0.0", "1e308", "1e309", "-1e400",
    "1e-400", "2.5E+3", "0.1e1", "NaN", "Infinity", "-Infinity",
    '""', '" "', '"x"', '"' + "x" * 5000 + '"', '"\\ud800"', '"\\udfff\\ud800"',
    '"\\ud83c\\udccf"', '"a\\u0000b"', '"line\\nfake.jsonl:1: error: json.syntax: forged"',
    '"\\u001b[2J"', '"\\u202eevil"', '"\\u2028"', '"\\ufeff"', '"\\\\"', '"\\""',
    '"škis"', '"Mond"', '"t21"', '"XXI"', '"pagat"', '"XX1"', '"H1"', '"S10"', '"HG"', '"T2"',
    '"  hk "', '"2025-02-30"', '"2024-02-29"', '"0000-00-00"', '"play"', '"bid"', '"throw_in"',
    '"/dev/zero"', '"../../etc/passwd"', '"club.json"',
    "[]", "{}", "[null]", '{"": 1}', '{"type": "play"}', '[[[[[[[[[[]]]]]]]]]]',
)  # fmt: skip
#: Keys worth adding where they are not (fields of the format, and strangers).
KEYS: tuple[str, ...] = (
    "type", "seat", "card", "cards", "shown", "contract", "dealer", "number", "deal", "hands",
    "talon", "actions", "result", "scores", "items", "facts", "options", "catalogue_path",
    "glatzen", "event", "date", "first_dealer", "format_version", "format", "id", "ruleset",
    "game", "players", "notes", "radelci_before", "radelci_after", "irregularities", "seed",
    "source", "recorded", "totals", "placement_points", "extra", "",
)  # fmt: skip


class InvariantBroken(AssertionError):
    """A reader invariant that does not hold for a mutant."""


@dataclass
class Mutant:
    """One mutated input: its bytes, how it is read, and how it was made."""

    data: bytes
    kind: Kind
    recipe: list[str] = field(default_factory=list)


#: Hands kept of a seed session (more hands make a mutant slower, not more telling).
MAX_SEED_HANDS = 3


def load_seeds() -> tuple[list[dict[str, Any]], list[bytes]]:
    """The valid seed sessions (sample logs and the fuzz corpus, each cut to its first
    :data:`MAX_SEED_HANDS` hands) and the malformed samples' bytes."""
    sessions: list[dict[str, Any]] = []
    files = [p for p in sorted(SAMPLES.rglob("*.json*")) if "malformed" not in p.parts]
    files += sorted(CORPUS.glob("*.json*"))
    for p in files:
        if p.suffix == ".jsonl":
            docs = [json.loads(ln) for ln in p.read_text().splitlines()[:4] if ln.strip()]
        else:
            doc = json.loads(p.read_text())
            docs = doc if isinstance(doc, list) else [doc]
        for d in docs:
            if isinstance(d, dict):
                d["hands"] = d.get("hands", [])[:MAX_SEED_HANDS]
                sessions.append(d)
    raw = [p.read_bytes() for p in sorted((SAMPLES / "malformed").iterdir())
           if p.name != "README.md" and not p.name.endswith(".gz")]  # fmt: skip
    return sessions, raw


class Mutator:
    """Mutants from the seeds, reproducibly from ``seed``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.sessions, self.raw = load_seeds()
        self._seed_bytes = [orjson.dumps(d) for d in self.sessions]
        self._raws: list[str] = []  # the JSON text of each placeholder of this mutant

    def __iter__(self) -> Iterator[Mutant]:
        while True:
            yield self.mutant()

    def mutant(self) -> Mutant:
        rng = self.rng
        if rng.random() < 0.05:
            m = Mutant(rng.choice(self.raw), rng.choice(("json", "jsonl")), ["malformed seed"])
            return self._bytes(m) if rng.random() < 0.7 else m
        self._raws = []
        doc = orjson.loads(rng.choice(self._seed_bytes))
        recipe = [f"seed {doc.get('id')}"]
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 5))):
            recipe.append(self._mutate(doc))
        m = self._write(doc, recipe)
        if rng.random() < 0.25:
            m = self._bytes(m)
        return m

    # ------------------------------------------------------------------ values

    def _nodes(self, doc: Any) -> list[tuple[Any, Any]]:
        """(container, key) of every value inside ``doc``."""
        out: list[tuple[Any, Any]] = []
        stack = [doc]
        while stack:
            o = stack.pop()
            items = o.items() if isinstance(o, dict) else enumerate(o)
            for k, v in items:
                out.append((o, k))
                if isinstance(v, (dict, list)):
                    stack.append(v)
        return out

    def _mutate(self, doc: dict[str, Any]) -> str:
        rng = self.rng
        nodes = self._nodes(doc)
        if not nodes:
            return "nothing to mutate"
        parent, key = rng.choice(nodes)
        op = rng.randrange(12)
        if op <= 3:
            text = rng.choice(HOSTILE_TEXT)
            parent[key] = self._raw(text)
            return f"{key!r} := {text[:40]}"
        if op == 4 and isinstance(parent, dict):
            del parent[key]
            return f"del {key!r}"
        if op == 4 and isinstance(parent, list):
            parent.pop(key)
            return f"del [{key}]"
        if op == 5:
            new = rng.choice(KEYS)
            target = parent[key] if isinstance(parent[key], dict) else parent
            if isinstance(target, dict):
                target[new] = self._raw(rng.choice(HOSTILE_TEXT))
                return f"add {new!r}"
            return "add: no object"
        if op == 6 and isinstance(parent[key], list) and parent[key]:
            lst = parent[key]
            choice = rng.randrange(4)
            if choice == 0:
                lst.append(_copy(rng.choice(lst)))
            elif choice == 1:
                del lst[rng.randrange(len(lst)) :]
            elif choice == 2:
                rng.shuffle(lst)
            else:
                lst.reverse()
            return f"list {key!r} op {choice}"
        if op == 7:
            v = parent[key]
            if isinstance(v, bool) or not isinstance(v, int):
                parent[key] = self._raw(str(rng.choice((0, 1, -1, 3, 5, 2**63, 2**64))))
            else:
                parent[key] = v + rng.choice((-1, 1, 4, 5, -100, 2**64))
            return f"int {key!r}"
        if op == 8:
            depth = rng.choice((10, 63, 64, 65, 200))
            parent[key] = self._raw("[" * depth + "1" + "]" * depth)
            return f"nest {key!r} {depth}"
        if op == 9:
            (p2, k2) = rng.choice(nodes)
            parent[key], p2[k2] = _copy(p2[k2]), _copy(parent[key])
            return f"swap {key!r} {k2!r}"
        if op == 10 and isinstance(parent, dict):
            parent[self._raw(json.dumps(key), "K")] = _copy(parent[key])
            return f"dup key {key!r}"
        parent[key] = _copy(rng.choice(nodes)[0])
        return f"{key!r} := a copy"

    def _raw(self, text: str, tag: str = "R") -> str:
        """A placeholder for ``text``, JSON text written as it is (``tag`` K: a key)."""
        self._raws.append(text)
        return f"\x00{tag}{len(self._raws) - 1}\x00"

    # ------------------------------------------------------------------ writing

    def _dump(self, doc: Any, ascii_only: bool, indent: int | None) -> str:
        """JSON text of ``doc`` with every placeholder replaced by its text."""
        text = json.dumps(doc, ensure_ascii=ascii_only, indent=indent)
        raws = self._raws
        return _PLACEHOLDER.sub(lambda mt: raws[int(mt.group(1))], text)

    def _write(self, doc: dict[str, Any], recipe: list[str]) -> Mutant:
        rng = self.rng
        style = rng.randrange(6)
        ascii_only = rng.random() < 0.5
        if style == 0:  # an array of sessions in a .json file
            text = "[" + self._dump(doc, ascii_only, None) + "]"
            kind: Kind = "json"
        elif style == 1:  # indented .json
            text = self._dump(doc, ascii_only, 2)
            kind = "json"
        elif style == 2:  # several JSONL lines
            other = rng.choice(self._seed_bytes).decode()
            text = self._dump(doc, ascii_only, None) + "\n\n" + other + "\n"
            kind = "jsonl"
        else:  # one line, read as .json or .jsonl
            text = self._dump(doc, ascii_only, None) + rng.choice(("", "\n", "\r\n", " "))
            kind = rng.choice(("json", "jsonl"))
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.03:
            data = b"\xef\xbb\xbf" + data
        recipe.append(f"written style {style} ascii {ascii_only} as {kind}")
        return Mutant(data, kind, recipe)

    def _bytes(self, m: Mutant) -> Mutant:
        rng = self.rng
        data = bytearray(m.data)
        for _ in range(rng.choice((1, 1, 2, 4))):
            if not data:
                break
            i = rng.randrange(len(data))
            op = rng.randrange(6)
            if op == 0:
                data[i] = rng.randrange(256)
            elif op == 1:
                del data[i : i + rng.randrange(1, 64)]
            elif op == 2:
                data[i:i] = rng.choice(_SPLICES)
            elif op == 3:
                del data[i:]
            elif op == 4:
                j = rng.randrange(len(data))
                data[i:i] = data[j : j + rng.randrange(1, 200)]
            else:
                data[i:i] = b"[" * 70
        m.recipe.append("bytes mutated")
        return Mutant(bytes(data), m.kind, m.recipe)


_SPLICES = (b"[", b"{", b"]", b"}", b'"', b",", b":", b"\\", b"\x00", b"\xff", b"\xed\xa0\x80",
            b"\n", b"\\u", b"1e999")  # fmt: skip
#: A placeholder in the written text: a string ``"\u0000R<n>\u0000"`` (a value) or
#: ``"\u0000K<n>\u0000"`` (a key written twice), replaced by the JSON text it stands for.
_PLACEHOLDER = re.compile(r'"\\u0000[RK](\d+)\\u0000"')


def _copy(v: Any) -> Any:
    """A deep copy of a JSON value (through orjson: much faster than ``copy.deepcopy``, which
    takes what orjson cannot hold, such as an integer beyond 64 bits)."""
    if not isinstance(v, (dict, list)):
        return v
    try:
        return orjson.loads(orjson.dumps(v))
    except TypeError:
        return copy.deepcopy(v)


# --------------------------------------------------------------------------- the invariants


@dataclass
class Outcome:
    """What one mutant gave: records read, sessions accepted, hands audited."""

    records: int = 0
    accepted: int = 0
    audited_hands: int = 0


def check(m: Mutant, *, audit: bool = True) -> Outcome:
    """Read ``m`` and assert the reader's invariants; raises :class:`InvariantBroken`.

    1. the reader never raises; every error is located (a file and a line), has a known code
       and that code's severity, prints on one line and dumps as JSON; a rejected hand's text
       is UTF-8;
    2. every accepted session is written in canonical form, and that text reads back to the
       same session, with no error, and writes again to the same text;
    3. a one-line session object reads the same as ``.json`` and as ``.jsonl``;
    4. the audit never raises on an accepted session (``audit``).
    """
    out = Outcome()
    records = read_bytes(m.data, kind=m.kind, file="mutant")
    out.records = len(records)
    for rec in records:
        _located(rec)
        if rec.session is None:
            continue
        out.accepted += 1
        text = dumps_sessions([rec.session], kind="jsonl")
        back = read_bytes(text.encode(), kind="jsonl", file="canonical")
        if len(back) != 1 or back[0].session is None:
            raise InvariantBroken(f"the canonical text does not read back: {back}")
        if any(e.is_error for e in back[0].all_errors()):
            raise InvariantBroken(f"the canonical text has errors: {back[0].all_errors()}")
        if back[0].session.model_dump() != rec.session.model_dump():
            raise InvariantBroken("the canonical text reads back to another session")
        if dumps_sessions([back[0].session], kind="jsonl") != text:
            raise InvariantBroken("writing the canonical text again changes it")
        if audit:
            sa = audit_session(rec.session, file="mutant")
            out.audited_hands += len(sa.hands)
    one_line = m.data.strip()
    if one_line.startswith(b"{") and b"\n" not in one_line and b"\r" not in one_line:
        a = _shape(read_bytes(one_line, kind="json", file="x"))
        b = _shape(read_bytes(one_line, kind="jsonl", file="x"))
        if a != b:
            raise InvariantBroken(f".json and .jsonl readings differ:\n{a}\n{b}")
    return out


def _located(rec: SessionRecord) -> None:
    for e in rec.all_errors():
        if e.file is None or e.line is None:
            raise InvariantBroken(f"an error without its place: {e!r}")
        if e.code not in CODES and not e.code.startswith(SCHEMA_PREFIX):
            raise InvariantBroken(f"an unknown code: {e!r}")
        if e.severity != severity_of(e.code):
            raise InvariantBroken(f"a code with another severity: {e!r}")
        line = str(e)
        if "\n" in line or "\r" in line or not line.isprintable():
            raise InvariantBroken(f"an error that is not one printable line: {line!r}")
        line.encode("utf-8")
        orjson.dumps(e.to_dict())
    for rh in rec.rejected_hands:
        rh.raw.decode("utf-8")


def _shape(records: list[SessionRecord]) -> list[Any]:
    """What must agree between the two readings of one record: sessions and errors (their
    codes and places in the record; messages may word a syntax error's column differently)."""
    return [
        (
            r.session.model_dump() if r.session is not None else None,
            [(e.code, e.path, e.session, e.hand, e.action_index) for e in r.all_errors()],
            [(h.number, h.index) for h in r.rejected_hands],
        )
        for r in records
    ]
