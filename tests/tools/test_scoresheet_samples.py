"""``sample_logs/scoresheets``: exactly what its script builds; importing the sheets and auditing
them reports exactly the planted mistakes, each on its hand (the sheet's row), and nothing
else; every hand is ``partial``; a played hand and its score-sheet line score the same."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.log.models import SessionAdapter
from tarock_logs.log.reader import read_paths
from tarock_logs.rules import get_engine
from tarock_logs.verdict.convert import to_engine_irregularity
from tarock_logs.verdict.replay import replay_session

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "sample_logs" / "scoresheets"


def _script():
    spec = importlib.util.spec_from_file_location(
        "make_scoresheets", ROOT / "scripts" / "make_scoresheet_samples.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_the_folder_is_exactly_what_its_script_builds(tmp_path: Path) -> None:
    _script().build(tmp_path)
    assert _files(FOLDER) == _files(tmp_path)
    for name in _files(tmp_path):
        assert (FOLDER / name).read_bytes() == (tmp_path / name).read_bytes(), name


def test_import_then_audit_reports_exactly_the_planted_mistakes(tmp_path: Path) -> None:
    sheets = sorted(FOLDER.glob("round-1-table-*.csv"))
    assert len(sheets) == 4
    out = tmp_path / "round-1.jsonl"
    r = CliRunner().invoke(app, ["import", "scoresheet", *map(str, sheets), "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == (FOLDER / "round-1.jsonl").read_bytes()
    r = CliRunner().invoke(app, ["audit", str(out), "--format", "jsonl"])
    assert r.exit_code == 1, r.output  # findings
    records = [json.loads(line) for line in r.stdout.splitlines()]
    hands = [x for x in records if x["record"] == "hand"]
    assert len(hands) == 16 * 3 + 20
    assert {h["verification"] for h in hands} == {"partial"}
    assert all("legality of play not checked" in h["unverified"][0] and h["legal"] for h in hands)
    found = sorted(
        (f"round-1-table-{h['session'][-1]}.csv", h["hand"], f["code"], f["players"][0]["seat"])
        for h in hands
        for f in h["findings"]
    )
    planted = json.loads((FOLDER / "planted.manifest").read_text(encoding="utf-8"))
    expected = sorted(
        (p["file"], p["hand"], p["code"], seat) for p in planted for seat in p["seats"]
    )
    assert found == expected
    assert {p["code"] for p in planted} == {
        "score.total_differs", "score.running_total_differs", "score.radelci_after_differs",
    }  # fmt: skip
    others = [x for x in records if x["record"] in ("session", "tournament") and x["findings"]]
    assert others == []
    (summary,) = [x["summary"] for x in records if x["record"] == "summary"]
    assert summary["verification"]["hands"] == {"verified": 0, "partial": 68, "unverified": 0}


def test_the_readme_lists_each_planted_mistake_and_each_sheet() -> None:
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    planted = json.loads((FOLDER / "planted.manifest").read_text(encoding="utf-8"))
    for i, p in enumerate(planted, start=1):
        assert f"| {i} | `{p['file']}` | {p['hand']} | `{p['code']}` |" in readme
    for sheet in FOLDER.glob("*.csv"):
        assert f"`{sheet.name}`" in readme


def test_the_bad_cells_sheet_reports_each_bad_cell_and_imports_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "bad.jsonl"
    bad = FOLDER / "malformed" / "bad-cells.csv"
    r = CliRunner().invoke(app, ["import", "scoresheet", str(bad), "-o", str(out)])
    assert r.exit_code == 1
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    for line in r.output.splitlines():
        if ": sheet." in line:
            shown = line.replace(str(FOLDER) + "/", "").split(" (")[0]
            assert shown in readme, shown
    assert r.output.count(": sheet.") == 4
    (s,) = (SessionAdapter.validate_json(x) for x in out.read_text().splitlines())
    assert [h.number for h in s.hands] == [1, 5]


def test_a_played_hand_and_its_score_sheet_line_score_the_same() -> None:
    """The engine's score-sheet line of every played Slovenian sample hand, scored from its
    facts with the same radelci, gives the same items, totals and radelci as the play."""
    engine = get_engine("slovenian")
    assert engine is not None
    checked = 0
    for rec in read_paths(
        [ROOT / "sample_logs" / "tournament", ROOT / "sample_logs" / "slovenian"]
    ):
        s = rec.session
        assert s is not None
        ss = engine.new_session(engine.ruleset(s.ruleset, s.options or None), len(s.players))
        for h, r in zip(s.hands, replay_session(s), strict=True):
            facts = r.state.recorded_facts() if r.state is not None else None
            assert facts is not None and r.score is not None
            ss.restore(dict(r.carry_before))
            got = ss.score_facts(
                h.dealer, facts, [to_engine_irregularity(i) for i in h.irregularities]
            )
            key = lambda sc: (sc.totals, [(i.item, i.seat, i.value) for i in sc.items],  # noqa: E731
                              sc.carry_after.get("radelci"))  # fmt: skip
            assert key(got) == key(r.score), (s.id, h.number)
            checked += 1
    assert checked >= 150
