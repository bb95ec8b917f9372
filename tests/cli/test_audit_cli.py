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
#: the keys issue 11 added to the hand record (the old ones stay)
NEW_HAND_KEYS = {"record", "verification", "findings"}


def _records(stdout: str, kind: str = "hand") -> list[dict]:  # type: ignore[type-arg]
    """The jsonl records of one kind (``hand``, ``session``, ``tournament``, ``summary``)."""
    return [r for r in map(orjson.loads, stdout.splitlines()) if r.get("record") == kind]


def _write(path: Path, *docs: dict) -> Path:  # type: ignore[type-arg]
    path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in docs))
    return path


def test_jsonl_one_object_per_hand_with_the_documented_keys() -> None:
    res = runner.invoke(app, ["audit", str(APPENDIX_B), "--format", "jsonl"])
    assert res.exit_code == 0, res.output
    lines = _records(res.stdout)
    assert [(x["session"], x["hand"]) for x in lines] == [
        ("si-appendix-b1", 1), ("si-appendix-b2", 2),
    ]  # fmt: skip
    for x in lines:
        assert set(x) == JSONL_KEYS | NEW_HAND_KEYS
        assert x["verification"] == "verified" and x["findings"] == []
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
    (rec,) = _records(res.stdout)
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
    (rec,) = _records(res.stdout)
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
    recs = _records(res.stdout)
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


def test_jsonl_carries_the_readers_errors_and_warnings_as_the_json_report_does(
    tmp_path: Path,
) -> None:
    """A reader's error (a line that is no JSON) and warning (hand 1 not dealt by the
    session's ``first_dealer``: ``deal.dealer_rotation``) are ``input_error`` records in jsonl,
    the same objects as ``input_errors`` of ``--format json`` (they were on stderr only)."""
    doc = b1_doc()
    doc["first_dealer"] = (doc["hands"][0]["dealer"] + 1) % len(doc["players"])
    f = tmp_path / "log.jsonl"
    f.write_bytes(b"{oops\n" + orjson.dumps(doc) + b"\n")
    as_json = orjson.loads(runner.invoke(app, ["audit", str(f), "--format", "json"]).stdout)
    res = runner.invoke(app, ["audit", str(f), "--format", "jsonl"])
    records = _records(res.stdout, "input_error")
    assert [{k: v for k, v in r.items() if k != "record"} for r in records] == as_json[
        "input_errors"
    ]
    assert {r["code"] for r in records} == {"json.syntax", "deal.dealer_rotation"}
    assert _records(res.stdout, "summary")[0]["summary"]["input_warnings"] == 1


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
    # (the command imports audit_session when it runs: patch it where it is defined)
    import tarock_logs.verdict.audit as verdict_audit

    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(verdict_audit, "audit_session", boom)
    monkeypatch.setattr(sys, "argv", ["tarock", "audit", str(APPENDIX_B)])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 3


def test_disputed_samples_exit_1_and_clean_samples_exit_0() -> None:
    disputed = ROOT / "sample_logs" / "disputed"
    res = runner.invoke(app, ["audit", str(disputed), "--format", "json", "--summary"])
    assert res.exit_code == 1
    s = orjson.loads(res.stdout)["summary"]
    assert s["illegal_hands"] == 3 and s["hands_with_discrepancies"] == 1
    assert s["input_errors"] == 0


def test_another_game_audits_through_the_same_code() -> None:
    """Zwanzigerrufen's engine plugs into replay/audit unchanged (spec FD1–FD4 samples)."""
    folder = ROOT / "sample_logs" / "zwanzigerrufen"
    res = runner.invoke(app, ["audit", str(folder), "--format", "jsonl"])
    recs = _records(res.stdout)
    assert recs and {r["game"] for r in recs} == {"zwanzigerrufen"}
    assert all(r["recomputed"] is not None and r["legal"] for r in recs)
    assert res.exit_code == 0, [r["discrepancies"] for r in recs]


# --------------------------------------------------------------------------- issue 11


DISPUTED = ROOT / "sample_logs" / "disputed"
ROYAL = ROOT / "sample_logs" / "royal" / "worked-examples.json"


def _royal_without_consolation(tmp_path: Path) -> Path:
    raw = orjson.loads(ROYAL.read_bytes())
    raw = raw[0] if isinstance(raw, list) else raw
    raw["options"] = {k: v for k, v in raw["options"].items() if k != "consolation"}
    return _write(tmp_path / "royal-unknown-consolation.jsonl", raw)


@pytest.mark.skipif(not (DISPUTED / "disputes.manifest").exists(), reason="no disputed samples")
def test_each_planted_dispute_appears_in_jsonl_hand_session_and_tournament_records() -> None:
    expected = orjson.loads((DISPUTED / "disputes.manifest").read_bytes())
    res = runner.invoke(app, ["audit", str(DISPUTED), "--format", "jsonl"])
    assert res.exit_code == 1
    hands = _records(res.stdout)
    sessions = {r["session"]: r for r in _records(res.stdout, "session")}
    (tournament,) = _records(res.stdout, "tournament")
    (summary,) = _records(res.stdout, "summary")
    assert len(sessions) == 5 and tournament["tournament"] == "sim-slovenian-2027"
    for e in expected:
        if e["hand"] is None:  # placement points: a session finding, and the standings move
            codes = [f["code"] for f in sessions[e["session"]]["findings"]]
            assert codes == ["session.placement_points_differ"] * 2
            assert {f["code"] for f in tournament["findings"]} == {"tournament.standing_differs"}
            continue
        (h,) = [h for h in hands if h["session"] == e["session"] and h["hand"] == e["hand"]]
        errors = [f for f in h["findings"] if f["severity"] == "error"]
        assert errors, e["description"]
        for f in errors:
            assert f["level"] in ("action", "hand") and f["players"], f
            assert f["players"][0]["name"] in f["message"]
        if e["action_index"] is not None:
            assert errors[0]["action_index"] == e["action_index"]
            assert errors[0]["players"][0]["seat"] == e["seat"]
    # dispute 2's knock-on: the session total differs because hand 4 does
    b = sessions["sim-slovenian-2027-r1-B"]["findings"]
    assert [f["code"] for f in b] == ["session.total_differs"] and "hand 4" in b[0]["message"]
    assert summary["summary"]["verification"]["hands"] == {
        "verified": 42, "partial": 0, "unverified": 0,
    }  # fmt: skip
    assert all(r["record"] for r in map(orjson.loads, res.stdout.splitlines()))


def test_kontra_by_the_partner_names_the_partner_and_the_called_king() -> None:
    res = runner.invoke(app, ["audit", str(DISPUTED), "--format", "jsonl", "--code",
                              "kontra.not_eligible"])  # fmt: skip
    assert res.exit_code == 1
    (h,) = _records(res.stdout)
    (f,) = [f for f in h["findings"] if f["code"] == "kontra.not_eligible"]
    assert f["players"][0]["role"] == "partner"
    assert "the declarer's partner (who holds the called" in f["message"]
    assert f["rule"] in f["message"]


def test_a_partial_royal_audit_is_never_clean(tmp_path: Path) -> None:
    f = _royal_without_consolation(tmp_path)
    res = runner.invoke(app, ["audit", str(f), "--format", "jsonl"])
    assert res.exit_code == 5
    hands = _records(res.stdout)
    assert hands and {h["verification"] for h in hands} == {"partial"}
    assert all(any("consolation" in u for u in h["unverified"]) for h in hands)
    (session,) = _records(res.stdout, "session")
    assert session["verification"] == "partial"
    (summary,) = _records(res.stdout, "summary")
    assert summary["summary"]["partial_hands"] == len(hands)
    assert summary["summary"]["everything_verified"] is False
    table = runner.invoke(app, ["audit", str(f)])
    assert table.exit_code == 5
    assert "No findings." not in table.stdout
    assert "not everything could be verified" in table.stdout
    assert "consolation" in table.stdout and "partial" in table.stdout


def test_exit_0_only_when_everything_is_verified_and_clean(tmp_path: Path) -> None:
    f = _write(tmp_path / "b1.jsonl", b1_doc())
    res = runner.invoke(app, ["audit", str(f)])
    assert res.exit_code == 0, res.stdout
    assert "No findings; everything verified: 1 hand (1 verified)" in res.stdout


def test_table_marks_warnings_as_warnings_and_counts_errors_only(tmp_path: Path) -> None:
    doc = b1_doc()
    plant_b1_illegal_card(doc)
    f = _write(tmp_path / "planted.jsonl", doc)
    res = runner.invoke(app, ["audit", str(f)])
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert any("✖ error" in ln and "play.illegal_card" in ln for ln in lines)
    assert any("▲ warning" in ln and "renons.unclaimed" in ln for ln in lines)
    assert "1 illegal action, 1 warning, 0 score differences" in res.stdout
    # not a terminal: each finding on one line, however long
    (row,) = [ln for ln in lines if "play.illegal_card" in ln and "✖" in ln]
    assert "must be followed" in row and "si-tournament-2021 §" in row


def test_code_filter_keeps_only_those_findings(tmp_path: Path) -> None:
    doc = b1_doc()
    plant_b1_illegal_card(doc)
    f = _write(tmp_path / "planted.jsonl", doc)
    res = runner.invoke(app, ["audit", str(f), "--code", "renons.unclaimed", "--format", "json"])
    assert res.exit_code == 0  # a warning alone is no finding, and the hand is verified
    doc_out = orjson.loads(res.stdout)
    (h,) = doc_out["hands"]
    assert {x["code"] for x in h["findings"]} >= {"renons.unclaimed"}
    assert doc_out["summary"]["violations"] == 0 and doc_out["summary"]["warnings"] == 1
    res = runner.invoke(app, ["audit", str(f), "--code", "play.illegal_card,discard.king"])
    assert res.exit_code == 1 and "renons.unclaimed" not in res.stdout


def test_version_and_exit_codes_in_help() -> None:
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout.startswith("tarock-logs ")
    res = runner.invoke(app, ["audit", "--help"])
    assert "5 no finding, but not" in " ".join(res.stdout.split())


def test_empty_or_mistyped_paths_warn_and_exit_2(tmp_path: Path) -> None:
    res = runner.invoke(app, ["audit", ""])
    assert res.exit_code == 2 and "empty path" in res.stderr
    res = runner.invoke(app, ["audit", str(tmp_path)])  # a folder without logs
    assert res.exit_code == 2 and "no log files" in res.stderr
    res = runner.invoke(app, ["audit", str(tmp_path / "typo.jsonl")])
    assert res.exit_code == 2 and "no such file" in res.stderr


def test_code_filter_accepts_the_readers_old_codes(tmp_path: Path) -> None:
    f = tmp_path / "mixed.jsonl"
    f.write_bytes(orjson.dumps(b1_doc()) + b"\n{not json\n")
    for code in ("E-JSON-SYNTAX", "json.syntax"):
        res = runner.invoke(app, ["audit", str(f), "--format", "json", "--code", code])
        doc = orjson.loads(res.stdout)
        assert [e["code"] for e in doc["input_errors"]] == ["json.syntax"], code
        assert res.exit_code == 1
    res = runner.invoke(app, ["audit", str(f), "--format", "json", "--code", "E-FILE-EMPTY"])
    assert orjson.loads(res.stdout)["input_errors"] == [] and res.exit_code == 0


def test_code_filter_accepts_an_engines_retired_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An engine lists its retired codes (``code_aliases``: old -> new); ``--code OLD`` then
    selects the findings of the new code."""
    engine = get_engine("slovenian")
    assert engine is not None
    aliases = {**engine.code_aliases, "E_ILLEGAL_CARD": "play.illegal_card"}
    monkeypatch.setattr(engine, "code_aliases", aliases)
    doc = b1_doc()
    plant_b1_illegal_card(doc)
    f = _write(tmp_path / "planted.jsonl", doc)
    res = runner.invoke(app, ["audit", str(f), "--code", "E_ILLEGAL_CARD", "--format", "json"])
    assert res.exit_code == 1
    out = orjson.loads(res.stdout)
    assert out["summary"]["codes"] == ["play.illegal_card"]
    assert out["summary"]["violations"] == 1 and out["summary"]["warnings"] == 0


def test_names_from_a_log_cannot_forge_output_or_markup(tmp_path: Path) -> None:
    doc = b1_doc()
    plant_b1_illegal_card(doc)
    doc["players"][1]["name"] = "[bold red]Evil[/] \x1b[2J\nFORGED LINE"
    f = _write(tmp_path / "hostile.jsonl", doc)
    res = runner.invoke(app, ["audit", str(f)])
    assert res.exit_code == 1
    assert "\x1b" not in res.stdout
    assert not any(ln.startswith("FORGED LINE") for ln in res.stdout.splitlines())
    assert "[bold red]Evil[/]" in res.stdout  # shown as text, not as markup
    assert "\\x1b" in res.stdout and "\\n" in res.stdout
