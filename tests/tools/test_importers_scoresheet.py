"""``tarock import scoresheet``: a tournament score sheet (CSV) becomes a session of hands
recorded as facts; bad cells are reported with their line and column and only their row is left
out; a game that cannot be scored from facts is refused whole; ``tarock import --list``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.log.models import SessionAdapter
from tarock_logs.tools.importers import IMPORTERS
from tarock_logs.tools.importers.scoresheet import CODES, read_sheet
from tarock_logs.verdict.audit import audit_session

HEADER = (
    "hand,dealer,contract,declarer,partner,called,won,points,difference,trula,kralji,"
    "pagat_ultimo,kontra,mondfang,renons,Ana Kos (ana),Bojan,Cene,Dušan,"
    "Ana Kos total,Bojan total,Cene total,Dušan total,Ana Kos radelci,Bojan radelci,"
    "Cene radelci,Dušan radelci"
)
B1 = (
    "1,Dušan,tri,Ana Kos,Bojan,DK,yes,,15,,D+,DA+,pagat_ultimo@Cene,Dušan by Cene,,"
    "135,135,0,-20,135,135,0,-20,0,0,0,0"
)


def sheet(*rows: str, meta: str = "# game: slovenian\n# tournament: t\n# round: 1\n# table: A\n"):
    return meta + HEADER + "\n" + "\n".join(rows) + "\n"


class TestReading:
    def test_appendix_b1_as_a_sheet_row_is_its_facts_and_scores_like_the_played_hand(self):
        res = read_sheet(sheet(B1), name="a.csv")
        assert res.errors == [] and res.imported == 1
        s = res.session
        assert s.format_version == "1.1" and s.id == "t-r1-A"
        assert [p.id for p in s.players] == ["ana", "bojan", "cene", "dusan"]
        assert s.players[0].name == "Ana Kos"
        h = s.hands[0]
        assert h.id == "a.csv:6" and h.dealer == 3 and h.deal is None
        f = h.facts
        assert (f.contract, f.declarer, f.partner, f.called, f.won, f.difference) == (
            "three", 0, 1, "DK", True, 15,
        )  # fmt: skip
        assert [(b.bonus, b.side, b.announced, b.made) for b in f.bonuses] == [
            ("kralji", "declarer", False, True),
            ("pagat_ultimo", "declarer", True, True),
        ]
        assert [(k.target, k.level, k.seat) for k in f.kontras] == [("pagat_ultimo", 1, 2)]
        assert [(mf.seat, mf.captured_by) for mf in f.mondfang] == [(3, 2)]
        assert h.result.totals_after == [135, 135, 0, -20]
        assert h.result.radelci_after == [0, 0, 0, 0]
        a = audit_session(s).hands[0]
        assert a.recomputed.totals == [135, 135, 0, -20] and not a.has_findings
        assert a.verification == "partial"

    def test_the_dealer_rotates_when_the_column_is_left_empty(self):
        rows = [B1.replace("1,Dušan,", "1,,", 1)] + [
            f"{k},,klop,,,,,20;20;15;15,,,,,,,,-20,-20,-15,-15,,,,,,,," for k in (2, 3)
        ]
        s = read_sheet(sheet(*rows)).session
        assert [h.dealer for h in s.hands] == [3, 0, 1]
        assert s.first_dealer == 3
        assert s.hands[1].facts.points_by_seat == [20, 20, 15, 15]

    def test_35_and_a_card_is_written_35_plus(self):
        row = "1,,tri,Ana Kos,Bojan,,,35+,,,,,,,,10,10,0,0,,,,,,,,"
        f = read_sheet(sheet(row)).session.hands[0].facts
        assert (f.card_points, f.won) == (35, True)
        klop = "1,,klop,,,,,35+;35;0;0,,,,,,,,-70,-35,70,70,,,,,,,,"
        f = read_sheet(sheet(klop)).session.hands[0].facts
        assert f.points_by_seat == [35, 35, 0, 0] and f.full == [0]

    def test_placement_points_are_read_from_their_row(self):
        res = read_sheet(sheet(B1, "placement,,,,,,,,,,,,,,,5,4,3,2,,,,,,,,"))
        assert res.session.recorded.placement_points == [5, 4, 3, 2]
        assert res.rows == 1


class TestBadCells:
    ROWS = (
        B1,
        "2,,sedem,Bojan,Cene,,yes,40,,,,,,,,15,0,15,0,150,135,15,-20,0,0,0,0",
        "3,,dva,Marko,Ana Kos,,yes,41,,,,,,,,26,0,0,0,,,,,,,,",
        "4,,ena,Cene,,,no,x30,,,,,,,,0,0,-35,0,,,,,,,,",
        "5,,berač,Dušan,,,yes,,,,,,,,,0,0,0,70,,,,,,,,",
        "6,,tri,Ana Kos,Cene,ZZ,maybe,,5,Q+,,,game:9@Nobody,,,25,0,25,0,,,,,,,,",
    )

    def test_each_bad_cell_is_reported_with_its_line_and_column(self):
        res = read_sheet(sheet(*self.ROWS), name="bad.csv")
        got = [(e.line, e.column, e.code) for e in res.errors]
        assert got == [
            (7, "contract", "sheet.contract"),
            (8, "declarer", "sheet.player"),
            (9, "points", "sheet.number"),
            (11, "called", "sheet.cell"),
            (11, "won", "sheet.cell"),
            (11, "trula", "sheet.cell"),
            (11, "kontra", "sheet.cell"),
        ]
        assert "'sedem' is no slovenian contract" in res.errors[0].message
        assert "'Marko' is not at the table (Ana Kos, Bojan, Cene, Dušan)" in res.errors[1].message
        assert (
            str(res.errors[2]) == "bad.csv:9: column 'points': sheet.number: 'x30' is not a number"
        )
        assert all(e.code in CODES for e in res.errors)

    def test_the_rest_of_the_sheet_is_imported(self):
        res = read_sheet(sheet(*self.ROWS))
        assert res.rows == 6 and res.imported == 2 and res.rejected_lines == [7, 8, 9, 11]
        assert [h.number for h in res.session.hands] == [1, 5]
        assert res.session.hands[1].dealer == 3  # the rotation went on over the rejected rows

    def test_a_misspelt_column_is_not_taken_for_a_player(self):
        text = sheet(B1).replace(",difference,", ",diference,")
        res = read_sheet(text)
        assert [(e.code, e.column) for e in res.errors] == [("sheet.column", "diference")]
        assert "did you mean 'difference'" in res.errors[0].message

    @pytest.mark.parametrize(
        ("meta", "code", "words"),
        [
            ("# game: chess\n", "sheet.game", "unknown game"),
            ("# game: slovenian\n# ruleset: openspiel\n", "sheet.game", "openspiel-2.0"),
            ("# colour: red\n", "sheet.meta", "unknown key 'colour'"),
        ],
    )
    def test_a_sheet_the_engines_cannot_score_is_refused_with_a_clear_error(
        self, meta, code, words
    ):
        res = read_sheet(sheet(B1, meta=meta))
        assert res.errors and res.errors[0].code == code and words in res.errors[0].message
        if code == "sheet.game":
            assert res.session is None

    def test_a_header_without_players_or_the_wrong_number_of_them(self):
        res = read_sheet("hand,contract\n1,tri\n")
        assert [e.code for e in res.errors] == ["sheet.header"]
        two = read_sheet("hand,contract,Ana,Bor\n1,klop,0,0\n")
        assert [e.code for e in two.errors] == ["sheet.table_size"]
        semi = read_sheet("hand;contract;Ana;Bor;Cene;Dani\n")
        assert "comma-separated" in semi.errors[0].message


class TestCommand:
    def test_import_writes_jsonl_and_exits_1_when_rows_were_rejected(self, tmp_path: Path):
        good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
        good.write_text(sheet(B1), encoding="utf-8")
        bad.write_text(sheet(*TestBadCells.ROWS), encoding="utf-8")
        out = tmp_path / "out.jsonl"
        r = CliRunner().invoke(app, ["import", "scoresheet", str(good), "-o", str(out)])
        assert r.exit_code == 0, r.output
        [line] = out.read_text(encoding="utf-8").splitlines()
        assert SessionAdapter.validate_json(line).hands[0].facts.contract == "three"
        r = CliRunner().invoke(app, ["import", "scoresheet", str(bad), "-o", str(out)])
        assert r.exit_code == 1
        assert "bad.csv:7: column 'contract': sheet.contract:" in r.output
        assert "1 sheet(s), 2 hand(s) imported, 4 row(s) rejected" in r.output

    def test_import_to_stdout_with_the_metadata_given_as_options(self, tmp_path: Path):
        f = tmp_path / "s.csv"
        f.write_text(HEADER + "\n" + B1 + "\n", encoding="utf-8")
        r = CliRunner().invoke(
            app,
            ["import", "scoresheet", str(f), "--tournament", "cup", "--round", "2", "--table",
             "C", "-q"],
        )  # fmt: skip
        assert r.exit_code == 0, r.output
        s = SessionAdapter.validate_json(r.stdout.strip())
        assert s.id == "cup-r2-C" and s.event.round == 2

    def test_usage_errors_exit_2(self, tmp_path: Path):
        r = CliRunner().invoke(app, ["import", "scoresheet", str(tmp_path / "none.csv")])
        assert r.exit_code == 2
        f = tmp_path / "s.csv"
        f.write_text(sheet(B1), encoding="utf-8")
        r = CliRunner().invoke(app, ["import", "scoresheet", str(f), "-o", str(tmp_path / "x.txt")])
        assert r.exit_code == 2

    def test_import_list_names_every_importer_with_what_it_reads_and_carries(self):
        r = CliRunner().invoke(app, ["import", "--list"])
        assert r.exit_code == 0
        for imp in IMPORTERS.values():
            assert imp.name in r.output and imp.command in r.output
            assert imp.carries[:40] in r.output.replace("\n", " ")
        assert set(IMPORTERS) == {"openspiel", "scoresheet", "palcka", "scoreboard", "cup"}


def test_every_importer_is_documented_in_docs_importers():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "importers.md").read_text("utf-8")
    for imp in IMPORTERS.values():
        assert f"## {imp.name}" in doc and imp.command in doc
    for code in CODES:
        assert f"`{code}`" in doc, code
    assert json.dumps(sorted(IMPORTERS))  # (the registry is plain data)
