"""Score sheets of Zwanzigerrufen (the club's running sheet) and Royal Tarock (the match
sheet): ``tarock import scoresheet`` then ``tarock audit`` reports exactly the planted mistakes
of ``sample_logs/scoresheets/<game>/`` with their rows; the clean sheets audit with no finding
(every hand ``partial``: facts only); each cell error of these layouts is located (file, line,
column, code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.tools.importers.scoresheet import read_sheet

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "sample_logs" / "scoresheets"
SHEETS = {
    "zwanzigerrufen": ("w16.csv", "club-evening.csv"),
    "royal": ("match-clean.csv", "match-planted.csv"),
}


def _import_and_audit(tmp_path: Path, csv: Path) -> tuple[int, list[dict], Path]:
    out = tmp_path / csv.name.replace(".csv", ".jsonl")
    r = CliRunner().invoke(app, ["import", "scoresheet", str(csv), "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["audit", str(out), "--format", "jsonl"])
    return r.exit_code, [json.loads(line) for line in r.stdout.splitlines()], out


@pytest.mark.parametrize("game", sorted(SHEETS))
def test_the_clean_sheet_audits_with_no_finding_and_every_hand_partial(tmp_path, game):
    clean, _ = SHEETS[game]
    code, records, out = _import_and_audit(tmp_path, FOLDER / game / clean)
    assert out.read_bytes() == (FOLDER / game / clean.replace(".csv", ".jsonl")).read_bytes()
    assert code == 5, records[-1]  # no finding, not everything verified
    hands = [x for x in records if x["record"] == "hand"]
    assert len(hands) == 8
    assert {h["verification"] for h in hands} == {"partial"}
    assert all(h["legal"] and "legality of play not checked" in h["unverified"][0] for h in hands)
    assert [f for x in records for f in x.get("findings", [])] == []


@pytest.mark.parametrize("game", sorted(SHEETS))
def test_import_then_audit_reports_exactly_the_planted_mistakes_with_their_rows(tmp_path, game):
    _, planted = SHEETS[game]
    code, records, out = _import_and_audit(tmp_path, FOLDER / game / planted)
    assert out.read_bytes() == (FOLDER / game / planted.replace(".csv", ".jsonl")).read_bytes()
    assert code == 1
    found = sorted(
        (x.get("hand") if x["record"] == "hand" else 0, f["code"], f["players"][0]["seat"]
         if f["players"] else -1)
        for x in records
        if x["record"] in ("hand", "session", "tournament")
        for f in x["findings"]
    )  # fmt: skip
    manifest = json.loads((FOLDER / game / "planted.manifest").read_text(encoding="utf-8"))
    expected = sorted(
        (p["hand"] or 0, p["code"], seat) for p in manifest for seat in (p["seats"] or [-1])
    )
    assert found == expected, found
    hands = [x for x in records if x["record"] == "hand"]
    assert {h["verification"] for h in hands} == {"partial"}
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    for p in manifest:
        hand = p["hand"] if p["hand"] is not None else "result"
        assert f"| `{p['file']}` | {hand} | `{p['code']}` |" in readme


def test_the_double_round_is_in_the_recomputed_items_of_the_game_written_single(tmp_path):
    _, records, _ = _import_and_audit(tmp_path, FOLDER / "zwanzigerrufen" / "club-evening.csv")
    (h5,) = [x for x in records if x["record"] == "hand" and x["hand"] == 5]
    assert h5["recomputed"]["totals"] == [-4, -4, 4, 4]
    assert h5["recorded"]["totals"] == [-2, -2, 2, 2]
    assert [(i["item"], i["value"]) for i in h5["recomputed"]["items"] if i["seat"] == 2] == [
        ("game", 2), ("trull", 2)]  # fmt: skip


def test_an_item_of_unknown_value_leaves_its_pairs_total_unchecked_and_is_said(tmp_path):
    """royal-tarock.md §1.4 and §8.2: "Never treat unknown values as 0 silently"."""
    _, records, _ = _import_and_audit(tmp_path, FOLDER / "royal" / "match-clean.csv")
    (g7,) = [x for x in records if x["record"] == "hand" and x["hand"] == 7]
    assert any("TR_VALAT" in u and "value unknown" in u for u in g7["unverified"])
    assert any("total of seat 2 (recorded +55) not checked" in u for u in g7["unverified"])
    assert g7["recomputed"]["totals"][2:] == [15, 15]  # the known part: the consolation
    (session,) = [x for x in records if x["record"] == "session"]
    assert any("placement points not checked" in u for u in session["unverified"])


ZR_HEADER = (
    "hand,dealer,contract,declarer,partner,called,won,points,absolut,pagat,kontra,mondfang,"
    "double,Anna,Bert,Cora,Dora,Anna total,Bert total,Cora total,Dora total"
)
ZR_GOOD = "1,Dora,normal,Anna,Cora,T20,,50,,,,,,1,-1,1,-1,1,-1,1,-1"
ROYAL_HEADER = (
    "game,dealer,Anna+Bela items,Cora+Dani items,kontra,Anna+Bela consolation,"
    "Cora+Dani consolation,Anna+Bela,Cora+Dani,Anna+Bela total,Cora+Dani total"
)
ROYAL_GOOD = "1,Bela,M_FLUSH,Spiel+;Engel+,F_SPIEL@Anna,10,10,10,21,10,21"


def _zr(*rows: str, header: str = ZR_HEADER) -> str:
    return "# game: zwanzigerrufen\n" + header + "\n" + "\n".join(rows) + "\n"


def _royal(*rows: str, header: str = ROYAL_HEADER) -> str:
    return "# game: royal\n" + header + "\n" + "\n".join(rows) + "\n"


def test_a_zwanzigerrufen_line_becomes_facts_and_a_royal_line_a_game_of_two_pairs():
    zr = read_sheet(_zr(ZR_GOOD), name="zr.csv")
    assert zr.errors == [] and zr.session is not None
    (h,) = zr.session.hands
    assert (h.facts.contract, h.facts.declarer, h.facts.partner, h.facts.card_points) == (
        "normal", 0, 2, 50)  # fmt: skip
    assert h.result.totals_after == [1, -1, 1, -1]
    ro = read_sheet(_royal(ROYAL_GOOD), name="ro.csv")
    assert ro.errors == [] and ro.session is not None
    roles = [(p.pair, p.role) for p in ro.session.players]
    assert roles == [(x, r) for x in "AB" for r in ("abfaenger", "eintreiber")]
    (g,) = ro.session.hands
    assert g.dealer == 1 and g.facts.contract == "game" and g.facts.consolation == [10, 10, 10, 10]
    assert [(b.bonus, b.side, b.announced, b.made) for b in g.facts.bonuses] == [
        ("M_FLUSH", "defenders", False, True),
        ("F_SPIEL", "declarer", True, True),
        ("S_ENGEL", "declarer", True, True),
    ]
    assert [(k.target, k.seat) for k in g.facts.kontras] == [("F_SPIEL", 0)]
    assert g.result.scores == [10, 10, 21, 21]


@pytest.mark.parametrize(
    ("text", "line", "column", "code"),
    [
        # Zwanzigerrufen
        (
            _zr("1,Dora,sechserrufer,Anna,Cora,T20,,50,,,,,,1,-1,1,-1,1,-1,1,-1"),
            3,
            "contract",
            "sheet.contract",
        ),
        (
            _zr("1,Dora,normal,Anna,Cora,T20,,50,,,,,x3,1,-1,1,-1,1,-1,1,-1"),
            3,
            "double",
            "sheet.cell",
        ),
        (
            _zr("1,Dora,normal,Anna,Cora,T20,,35+,,,,,,1,-1,1,-1,1,-1,1,-1"),
            3,
            "points",
            "sheet.number",
        ),
        (_zr("1,Dora,normal,Anna,Cora,T2,,50,,,,,,1,-1,1,-1,1,-1,1,-1"), 3, "called", "sheet.cell"),
        (
            _zr("1,Dora,normal,Anna,Cora,T20,,50,,,,Eva by Anna,,1,-1,1,-1,1,-1,1,-1"),
            3,
            "mondfang",
            "sheet.player",
        ),
        (
            _zr("x,Dora,normal,Anna,Cora,T20,,50,,,,,,1,-1,1,-1,1,-1,1,-1"),
            3,
            "hand",
            "sheet.number",
        ),
        (_zr(ZR_GOOD, header=ZR_HEADER + ",Anna radelci"), 2, "Anna radelci", "sheet.column"),
        (
            _zr(ZR_GOOD, header=ZR_HEADER.replace("Dora total", "Dora total,Eva")),
            2,
            None,
            "sheet.table_size",
        ),
        (_zr("1,Dora,normal,Anna,Cora,T20,,120,,,,,,1,-1,1,-1,1,-1,1,-1"), 3, None, "sheet.schema"),
        # Royal Tarock
        (
            _royal("1,Bela,M_FLUSH,Spiel+;Gold+,,10,10,20,11,20,11"),
            3,
            "Cora+Dani items",
            "sheet.cell",
        ),
        (
            _royal("1,Bela,M_FLUSH,Spiel+,F_SPIEL@Eva,10,10,20,11,20,11"),
            3,
            "kontra",
            "sheet.player",
        ),
        (
            _royal("1,Bela,M_FLUSH,Spiel+,,ten,10,20,11,20,11"),
            3,
            "Anna+Bela consolation",
            "sheet.number",
        ),
        (
            _royal(ROYAL_GOOD, header=ROYAL_HEADER.replace("Cora+Dani,", "Cora,", 1)),
            2,
            "Cora",
            "sheet.header",
        ),
        (_royal(ROYAL_GOOD, ROYAL_GOOD.replace("1,Bela", "1,Dani")), 4, "game", "sheet.hand"),
        (
            _royal(ROYAL_GOOD, header=ROYAL_HEADER + ",Anna+Bela radelci"),
            2,
            "Anna+Bela radelci",
            "sheet.column",
        ),
    ],
)
def test_each_cell_error_of_these_layouts_is_located_and_rejects_only_its_row(
    text, line, column, code
):
    res = read_sheet(text, name="s.csv")
    assert res.errors, "expected an error"
    e = res.errors[0]
    assert (e.file, e.line, e.column, e.code) == ("s.csv", line, column, code), str(e)
    assert str(e).startswith(f"s.csv:{line}:")
    if line >= 3:  # a row's error: that row alone is left out, never a guessed value
        assert res.rejected_lines == [line]


def test_a_bad_row_is_left_out_and_the_rest_of_a_royal_sheet_is_imported():
    bad = "2,Dani,Q_OBSCUR,Nonsense+,,5,5,10,5,20,26"
    res = read_sheet(_royal(ROYAL_GOOD, bad, "3,Bela,Q_LAUER,,,0,0,15,0,25,21"), name="s.csv")
    assert [(e.line, e.code) for e in res.errors] == [(4, "sheet.cell")]
    assert res.session is not None and [h.number for h in res.session.hands] == [1, 3]
