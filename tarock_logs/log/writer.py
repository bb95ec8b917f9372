"""The canonical writer: one deterministic text for a session.

Canonical form (what ``tarock fmt`` writes and what :func:`dumps_session` returns):

* keys in the order the models declare them, except that ``type`` comes first in actions and
  irregularities (``{"type": "play", "seat": 0, "card": "T1"}``);
* fields whose value equals the model default are left out (an absent field reads back as the
  default, so nothing is lost: ``read(write(s)) == s``);
* canonical card tokens (the reader has already normalised aliases and sorted dealt hands);
* JSONL: one compact line per session; ``.json``: two-space indentation, with every array or
  object that fits in :data:`WIDTH` columns kept on one line (a dealt hand, an action).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import orjson

from tarock_logs.log.models import Session

#: Line width under which a nested array or object is written on one line (``.json``).
WIDTH: Final = 100


def session_to_dict(session: Session) -> dict[str, Any]:
    """The canonical JSON-able dict of a session (defaults left out, ``type`` first)."""
    d = session.model_dump(mode="json", exclude_defaults=True)
    for h in d.get("hands", ()):
        if "actions" in h:
            h["actions"] = [_type_first(a) for a in h["actions"]]
        if "irregularities" in h:
            h["irregularities"] = [_type_first(a) for a in h["irregularities"]]
    # format/format_version have no default but are always written first by the model order.
    return d


def _type_first(d: dict[str, Any]) -> dict[str, Any]:
    return {"type": d["type"], **{k: v for k, v in d.items() if k != "type"}}


def dumps_session(session: Session, *, pretty: bool = False) -> str:
    """The canonical text of one session: one compact line, or indented when ``pretty``."""
    d = session_to_dict(session)
    if not pretty:
        return orjson.dumps(d).decode()
    return _pretty(d, 0)


def dumps_sessions(
    sessions: Iterable[Session], *, kind: str = "jsonl", as_list: bool | None = None
) -> str:
    """The canonical text of a file of sessions.

    ``kind="jsonl"``: one line per session. ``kind="json"``: one indented session object, or an
    indented array of them (``as_list`` None: an array unless there is exactly one session).
    """
    items = list(sessions)
    if kind == "jsonl":
        return "".join(dumps_session(s) + "\n" for s in items)
    if as_list is None:
        as_list = len(items) != 1
    if not as_list:
        return _pretty(session_to_dict(items[0]), 0) + "\n"
    return _pretty([session_to_dict(s) for s in items], 0) + "\n"


def write_sessions(
    path: str | Path, sessions: Iterable[Session], *, as_list: bool | None = None
) -> None:
    """Write sessions to ``path`` in canonical form; the suffix chooses the kind
    (``.json``/``.jsonl``, optionally ``.gz``). Gzip output is deterministic (no timestamp)."""
    name = str(path).lower()
    kind = "jsonl" if name.endswith((".jsonl", ".jsonl.gz")) else "json"
    data = dumps_sessions(sessions, kind=kind, as_list=as_list).encode()
    if name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    Path(path).write_bytes(data)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _pretty(value: Any, indent: int) -> str:
    flat = _compact(value)
    if not isinstance(value, (dict, list)) or len(flat) + indent <= WIDTH or not value:
        return flat
    pad = "  " * (indent + 1)
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return _wrap_scalars(value, indent)
        inner = [pad + _pretty(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(inner) + "\n" + "  " * indent + "]"
    inner = [
        pad + json.dumps(k, ensure_ascii=False) + ": " + _pretty(v, indent + 1)
        for k, v in value.items()
    ]
    return "{\n" + ",\n".join(inner) + "\n" + "  " * indent + "}"


def _wrap_scalars(values: list[Any], indent: int) -> str:
    """A long list of scalars, filled line by line."""
    pad = "  " * (indent + 1)
    lines: list[str] = []
    cur = ""
    for v in values:
        tok = _compact(v)
        if cur and len(pad) + len(cur) + len(tok) + 2 > WIDTH:
            lines.append(cur + ",")
            cur = tok
        else:
            cur = f"{cur}, {tok}" if cur else tok
    lines.append(cur)
    return "[\n" + "\n".join(pad + ln for ln in lines) + "\n" + "  " * indent + "]"
