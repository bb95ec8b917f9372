"""JSON Schema export of log format v1.2 (``schemas/*.schema.json``).

The schemas are generated from the pydantic models with
``TypeAdapter(...).json_schema(mode="validation")`` and stamped with an ``$id``, a title and the
format version. ``tests/log/test_schemas.py`` regenerates them and fails on any drift, so the files
in ``schemas/`` always match :mod:`tarock_logs.log.models`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from pydantic import TypeAdapter

from tarock_logs.log.models import (
    FORMAT_NAME,
    FORMAT_VERSION,
    LATEST_FORMAT_VERSION,
    ActionAdapter,
    HandAdapter,
    SessionAdapter,
)

#: file stem → (adapter, title)
SCHEMAS: Final[dict[str, tuple[TypeAdapter[Any], str]]] = {
    "session": (SessionAdapter, "tarock log session"),
    "hand": (HandAdapter, "tarock log hand"),
    "action": (ActionAdapter, "tarock log action"),
}


def schema_id(name: str) -> str:
    """The ``$id`` of a schema: a URN naming the format, its major version and the schema
    (a minor version adds optional fields only: a 1.0 document validates against it)."""
    return f"urn:{FORMAT_NAME}:v{FORMAT_VERSION}:{name}"


def build_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one exported type, with ``$schema``, ``$id``, title and version."""
    adapter, title = SCHEMAS[name]
    body = adapter.json_schema(mode="validation")
    head = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": schema_id(name),
        "title": f"{title} (format v{LATEST_FORMAT_VERSION})",
        "x-format": FORMAT_NAME,
        "x-format-version": LATEST_FORMAT_VERSION,
    }
    body.pop("title", None)
    return {**head, **body}


def render_schema(name: str) -> str:
    """The exact text written to ``schemas/<name>.schema.json``."""
    return json.dumps(build_schema(name), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write_schemas(out_dir: str | Path) -> list[Path]:
    """Write every schema into ``out_dir``; return the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMAS:
        p = out / f"{name}.schema.json"
        p.write_text(render_schema(name), encoding="utf-8")
        written.append(p)
    return written
