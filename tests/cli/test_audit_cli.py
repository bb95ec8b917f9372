"""``tarock audit``: output formats and their keys, exit codes, input errors, what-if."""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.cli import main
from tarock_logs.cli.common import app
from tarock_logs.rules import get_engine
from tests.support.d1_helpers import APPENDIX_B, ROOT, b1_doc, plant_b1_illegal_card

pytestmark = pytest.mark.skipif(get_engine("slovenian") is None, reason="no Slovenian engine")
runner = CliRunner()

JSONL_KEYS = {
    "file", "session", "hand", "hand_id", "game", "ruleset", "legal", "violations", "recorded",
    "recomputed", "discrepancies", "unverified", "contract", "declarer", "partner", "won",
}  # fmt: skip


def _write(path: Path, *docs: dict) -> Path:  # type: ignore[type-arg]
    path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in docs))
    return path


def test_jsonl_one_object_per_hand_with_the_documented_keys() -> None:
    res = runner.invoke(app, ["audit", str(APPENDIX_B), "--format", "jsonl"])
    assert res.exit_code == 0, res.output
    lines = [orjson.loads(x) for x in res.stdout.splitlines()]
    assert [(x["session"], x["hand"]) for x in lines] == [
        ("si-appendix-b1", 1), ("si-appendix-b2", 2),
    ]  # fmt: skip
    for x in lines:
        assert set(x) == JSONL_KEYS
        assert x["legal"] is True and x["discrepancies"] == [] and x["violations"] == []
        assert set(x["recorded"]) == set(x["recomputed"]) == {"totals", "items", "radelci_after"}
        assert x["file"] == str(APPENDIX_B) and x["game"] == "slovenian"
    assert lines[0]["recomputed"]["totals"] == [135, 135, 0, -20]


def test_illegal_card_exits_1_with_located_violation(tmp_path: Path) -> None:
    doc = b1_doc()
    idx = plant_b1_illegal_card(doc)
    f = _write(tmp_path / "planted.jsonl", doc)
    res = runner.invoke(app, ["audit", str(f), "--format", "jsonl"])
    assert res.exit_code == 1
    (rec,) = [orjson.loads(x) for x in res.stdout.splitlines()]
    assert rec["legal"] is False
    (v,) = [v for v in rec["violations"] if v["severity"] == "error"]
    assert {k: v[k] for k in ("action_index", "seat", "card", "code")} == {
        "action_index": idx, "seat": 1, "card": "C7", "code": "play.illegal_card",
    }  # fmt: skip
    assert v["message"] and v["rule"].startswith("si-tournament-2021 §")


def test_wrong_score_exits_1_with_the_discrepancy(tmp_path: Path) -> None:
    doc = b1_doc()
    doc["hands"][0]["result"]["scores"] = [135, 135, 0, 0]
    f = _write(tmp_path / "wrong.jsonl", doc)
    res = runner.invoke(app, ["audit", str(f), "--format", "jsonl"])
    assert res.exit_code == 1
    rec = orjson.loads(res.stdout)
    assert rec["discrepancies"] == [{"item": "total", "seat": 3, "recorded": 0, "recomputed": -20}]


def test_json_document_and_input_errors_do_not_stop_good_hands(tmp_path: Path) -> None:
    f = tmp_path / "mixed.jsonl"
    f.write_bytes(orjson.dumps(b1_doc()) + b"\n{not json\n")
    res = runner.invoke(app, ["audit", str(f), "--format", "json"])
    assert res.exit_code == 1  # an input error is a finding
    doc = orjson.loads(res.stdout)
    assert set(doc) >= {"hands", "sessions", "tournaments", "summary", "input_errors"}
    assert len(doc["hands"]) == 1 and doc["hands"][0]["legal"] is True
    assert doc["input_errors"][0]["code"] == "json.syntax"
    assert doc["input_errors"][0]["line"] == 2
    assert doc["summary"]["input_errors"] == 1 and doc["summary"]["hands"] == 1
    assert "json.syntax" in res.stderr
    assert doc["sessions"][0]["recomputed_totals"] == [135, 135, 0, -20]
    assert [t["tournament"] for t in doc["tournaments"]] == ["spec-examples"]


def test_table_and_summary_outputs() -> None:
    res = runner.invoke(app, ["audit", str(APPENDIX_B)])
    assert res.exit_code == 0
    assert "No findings." in res.stdout and "Audit summary" in res.stdout
    res = runner.invoke(app, ["audit", str(APPENDIX_B), "--summary"])
    assert res.exit_code == 0
    assert "Audit summary" in res.stdout and "Findings" not in res.stdout
    res = runner.invoke(app, ["audit", str(APPENDIX_B), "--summary", "--format", "json"])
    assert orjson.loads(res.stdout)["summary"]["legal_hands"] == 2


def test_table_lists_each_finding(tmp_path: Path) -> None:
    doc = b1_doc()
    plant_b1_illegal_card(doc)
    f = _write(tmp_path / "planted.jsonl", doc)
    res = runner.invoke(app, ["audit", str(f)])
    assert res.exit_code == 1
    assert "play.illegal_card" in res.stdout and "si-tournament-2021" in res.stdout


def test_what_if_ruleset_is_named_in_every_record() -> None:
    res = runner.invoke(app, ["audit", str(APPENDIX_B), "--ruleset", "openspiel", "--format",
                              "jsonl"])  # fmt: skip
    recs = [orjson.loads(x) for x in res.stdout.splitlines()]
    assert {r["ruleset"] for r in recs} == {"openspiel-2.0"}
    assert recs[0]["recomputed"]["totals"] == [50, 50, 0, -20]  # spec B.1 item 8
    assert res.exit_code == 1  # the recorded scores are tournament scores


def test_exclude_skips_a_folder(tmp_path: Path) -> None:
    bad = tmp_path / "malformed"
    bad.mkdir()
    (bad / "x.jsonl").write_bytes(b"{oops\n")
    _write(tmp_path / "good.jsonl", b1_doc())
    assert runner.invoke(app, ["audit", str(tmp_path)]).exit_code == 1
    res = runner.invoke(app, ["audit", str(tmp_path), "--exclude", "malformed"])
    assert res.exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "xml"],
        ["--ruleset", "no-such-ruleset"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    res = runner.invoke(app, ["audit", str(APPENDIX_B), *args])
    assert res.exit_code == 2
    assert res.stdout == ""


def test_missing_path_exits_2(tmp_path: Path) -> None:
    assert runner.invoke(app, ["audit", str(tmp_path / "nope.jsonl")]).exit_code == 2


def test_internal_error_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    import tarock_logs.cli.audit as cli_audit

    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(cli_audit, "audit_session", boom)
    monkeypatch.setattr(sys, "argv", ["tarock", "audit", str(APPENDIX_B)])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 3


def test_disputed_samples_exit_1_and_clean_samples_exit_0() -> None:
    disputed = ROOT / "sample_logs" / "disputed"
    if not (disputed / "round-1.jsonl").exists():
        pytest.skip("no disputed samples")
    res = runner.invoke(app, ["audit", str(disputed), "--format", "json", "--summary"])
    assert res.exit_code == 1
    s = orjson.loads(res.stdout)["summary"]
    assert s["illegal_hands"] == 3 and s["hands_with_discrepancies"] == 1
    assert s["input_errors"] == 0


def test_another_game_audits_through_the_same_code() -> None:
    """Zwanzigerrufen's engine plugs into replay/audit unchanged (spec FD1–FD4 samples)."""
    folder = ROOT / "sample_logs" / "zwanzigerrufen"
    if get_engine("zwanzigerrufen") is None or not folder.exists():
        pytest.skip("no Zwanzigerrufen engine or samples")
    res = runner.invoke(app, ["audit", str(folder), "--format", "jsonl"])
    recs = [orjson.loads(x) for x in res.stdout.splitlines()]
    assert recs and {r["game"] for r in recs} == {"zwanzigerrufen"}
    assert all(r["recomputed"] is not None and r["legal"] for r in recs)
    assert res.exit_code == 0, [r["discrepancies"] for r in recs]
