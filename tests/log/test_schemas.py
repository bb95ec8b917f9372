"""schemas/ must match the models: regenerate and compare (no drift allowed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarock_logs.log.models import LATEST_FORMAT_VERSION
from tarock_logs.log.schema import SCHEMAS, render_schema, schema_id

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schema_matches_the_models(name):
    path = SCHEMA_DIR / f"{name}.schema.json"
    assert path.exists(), "run `tarock schema` to export the schemas"
    assert path.read_text(encoding="utf-8") == render_schema(name), (
        f"{path} drifted from tarock_logs/log/models.py: run `tarock schema` and commit the result"
    )


def test_session_schema_names_its_id_title_and_version():
    d = json.loads((SCHEMA_DIR / "session.schema.json").read_text())
    assert d["$id"] == schema_id("session")
    assert d["x-format-version"] == LATEST_FORMAT_VERSION
    assert "format v1.2" in d["title"]
    assert d["additionalProperties"] is False
    assert set(d["required"]) >= {"format", "format_version", "id", "game", "ruleset", "players"}
