"""``tarock import cup``: Austrian tarock cup results (TSV) → sessions of recorded round totals.

A results list holds per player his round scores (and the draw of the tables): each round's
table becomes a session of its players' recorded totals, without hands. ``sample_logs/cup``:
the import reports exactly the planted sum error, then the audit finds nothing it could check
(every session: no hands); bad cells are located rejects (line, column); a Königrufen list is
refused whole; mutated lists give only sessions or located rejects, never an exception."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.log.models import SessionAdapter
from tarock_logs.tools.importers.cup import CODES, convert

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "sample_logs" / "cup"
LIST = FOLDER / "graz-2026.tsv"


def test_import_reports_exactly_the_planted_sum_and_audit_checks_no_hand() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["import", "cup", str(LIST), "-o", "-"])
    assert r.exit_code == 1
    assert r.stdout.encode() == (FOLDER / "graz-2026.jsonl").read_bytes()
    planted = json.loads((FOLDER / "planted.manifest").read_text(encoding="utf-8"))
    shown = [line for line in r.stderr.splitlines() if ": cup." in line]
    assert shown == [
        f"{LIST}:{p['line']}: field '{p['column']}': {p['code']}: {p['players']}: the sum 52 is "
        "not the rounds' 42"
        for p in planted
    ]
    assert "cup: 1 file(s), 6 session(s) imported, 1 record(s) rejected" in r.stderr
    a = runner.invoke(app, ["audit", str(FOLDER / "graz-2026.jsonl"), "--format", "jsonl"])
    records = [json.loads(line) for line in a.stdout.splitlines()]
    sessions = [x for x in records if x["record"] == "session"]
    assert len(sessions) == 6 and all(not s["findings"] for s in sessions)
    assert all(s["verification"] == "unverified" for s in sessions)
    assert not [x for x in records if x["record"] == "hand"]


def test_each_round_and_table_is_a_session_of_its_players_round_scores() -> None:
    res = convert([LIST])
    by_id = {s["id"]: SessionAdapter.validate_python(s) for s in res.sessions}
    assert sorted(by_id) == [
        f"cup-tarockcup.graz.2026-r{r}-t{t}" for r in (1, 2, 3) for t in (1, 2)
    ]
    s = by_id["cup-tarockcup.graz.2026-r2-t1"]
    assert [p.name for p in s.players] == [
        "Anna Huber",
        "Cora Wagner",
        "Emil Steiner",
        "Gerda Hofer",
    ]
    assert s.recorded is not None and s.recorded.totals == [-6, 10, 2, -6]
    assert s.hands == [] and s.game == "zwanzigerrufen"
    assert s.event is not None and (s.event.round, s.event.table) == (2, "1")
    assert str(s.event.date) == "2026-10-03" and s.event.tournament == "tarockcup-graz-2026"
    assert s.source is not None and s.source.importer == "cup"
    assert s.source.original_id == "graz-2026.tsv:R2:T1"
    # a player keeps his id from round to round
    ids = {p.name: p.id for x in by_id.values() for p in x.players}
    assert len(ids) == 8 and ids["Anna Huber"] == "anna.huber"


def test_bad_cells_are_located_and_their_rows_left_out() -> None:
    bad = FOLDER / "malformed" / "bad-cells.tsv"
    res = convert([bad])
    assert [(r.record, r.field, r.code) for r in res.rejects] == [
        (3, None, "cup.meta"),
        (6, "Runde 1", "cup.number"),
        (7, "Nr", "cup.player"),
        (8, "Name", "cup.player"),
        (11, "Nr", "cup.number"),
        (4, "T1", "cup.table_size"),
        (4, "T1", "cup.table_size"),
        (4, "T2", "cup.table_size"),
        (4, "T2", "cup.table_size"),
    ]
    assert res.sessions == []


def test_a_koenigrufen_list_is_refused_whole_and_a_list_without_tables_says_why(
    tmp_path: Path,
) -> None:
    res = convert([FOLDER / "malformed" / "koenigrufen.tsv"])
    assert [r.code for r in res.rejects] == ["cup.game"] and res.sessions == []
    f = tmp_path / "plain.tsv"
    f.write_text("Nr\tName\tR1\tR2\tR3\n1\tAnna\t1\t2\t3\n", encoding="utf-8")
    res = convert([f])
    assert [(r.record, r.code) for r in res.rejects] == [(1, "cup.tables")] * 3
    assert res.sessions == []


def test_mutated_lists_give_sessions_or_located_rejects_never_an_exception(
    tmp_path: Path,
) -> None:
    rng = random.Random(35)
    lines = LIST.read_text(encoding="utf-8").splitlines()
    junk = ["", "x", "-", "−5", "1.5", "999999999", "\t", "Nr", "R1", "T9", "# game: royal", "ü"]
    for i in range(200):
        cells = [line.split("\t") for line in lines]
        for _ in range(rng.randint(1, 4)):
            row = rng.randrange(len(cells))
            what = rng.random()
            if what < 0.15:
                del cells[row]
            elif cells[row]:
                cells[row][rng.randrange(len(cells[row]))] = rng.choice(junk)
        f = tmp_path / f"m{i}.tsv"
        f.write_text("\n".join("\t".join(c) for c in cells) + "\n", encoding="utf-8")
        res = convert([f])
        for s in res.sessions:
            SessionAdapter.validate_python(s)
        for r in res.rejects:
            assert r.code in CODES and r.record >= 1 and r.file == str(f)


def test_the_readme_lists_the_planted_mistake() -> None:
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    planted = json.loads((FOLDER / "planted.manifest").read_text(encoding="utf-8"))
    for i, p in enumerate(planted, start=1):
        assert f"| {i} | `{p['file']}` | {p['line']} | {p['column']} | `{p['code']}` |" in readme
