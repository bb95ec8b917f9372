"""``tarock rulesets`` and the generated tables in docs/rulesets.md."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.cli.rulesets import DOC_BEGIN, DOC_END, render_markdown, ruleset_catalogue

DOC = Path(__file__).resolve().parents[2] / "docs" / "rulesets.md"


def test_every_game_has_a_dated_ruleset_and_its_aliases_resolve() -> None:
    from tarock_logs.rules import get_engine

    cat = ruleset_catalogue()
    assert {r["game"] for r in cat} == {"slovenian", "zwanzigerrufen", "royal"}
    assert {"si-tournament-2021", "openspiel-2.0", "zr-std-2026", "royal-gerots-2023"} <= {
        r["id"] for r in cat
    }
    for r in cat:
        engine = get_engine(r["game"])
        assert engine is not None
        for alias in r["aliases"]:
            assert engine.ruleset(alias).id == r["id"]


def test_docs_option_tables_match_the_engines() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(DOC_BEGIN), text.index(DOC_END) + len(DOC_END)
    assert text[start:end] + "\n" == render_markdown(ruleset_catalogue()), (
        "docs/rulesets.md is stale: regenerate its tables with `tarock rulesets --format markdown`"
    )


def test_cli_json_and_usage_errors() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["rulesets", "--game", "slovenian", "--format", "json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    tournament = next(r for r in data if r["id"] == "si-tournament-2021")
    assert tournament["options"]["valat_contract_value"] == 250
    assert runner.invoke(app, ["rulesets", "--game", "bridge"]).exit_code == 2
    assert runner.invoke(app, ["rulesets", "--format", "xml"]).exit_code == 2
