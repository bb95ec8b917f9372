"""Entering a counted hand on ``/enter`` (log format 1.2): the referee chooses the contract,
taps the cards of the talon, of the declarer's take and discards and of one side's pile (the
other side's pile is the rest of the pack), writes the table's count, and the page says what
the piles show: Appendix B.1 of slovenian-tarok.md with the planted miscount of
``sample_logs/counted/`` (48 counted, 149 thirds in the pile), in English, Slovenian and
German."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.entry_model import CountEntry, Entry
from tarock_logs.log.reader import read_bytes

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboard" / "app.py"
SAMPLE = ROOT / "sample_logs" / "counted" / "counted.json"
PLAYERS = ["Ana Kos", "Bojan Zupan", "Cene Novak", "Dušan Horvat"]


def _b1() -> dict[str, list[str]]:
    counted: dict[str, list[str]] = json.loads(SAMPLE.read_text(encoding="utf-8"))[0]["hands"][0][
        "counted"
    ]
    return counted


def _filled(table: Entry) -> CountEntry:
    """B.1's piles tapped in, as the referee would (the defenders' pile is the rest)."""
    ce = CountEntry(table)
    ce.set_contract("three", 0, 1, "DK")
    c = _b1()
    for place, key in (("talon", "talon"), ("taken", "talon_taken"), ("discards", "discards"),
                       ("pile:0", "declarer")):  # fmt: skip
        for card in c[key]:
            assert ce.tap(card, place) is None, card
    ce.announced = {"pagat_ultimo": "declarer"}
    ce.kontras = ["pagat_ultimo"]
    ce.mondfang = 3
    return ce


class TestTheModel:
    def test_the_tapped_piles_make_the_sample_hand(self) -> None:
        table = Entry(game="slovenian", players=PLAYERS, dealer=3)
        ce = _filled(table)
        ce.count, ce.scores = 50, [135, 135, 0, -20]
        assert sorted(ce.rest()) == sorted(_b1()["defenders"])
        [rec] = read_bytes(ce.log_text().encode(), kind="json")
        assert rec.ok and rec.session is not None
        assert rec.session.hands[0].counted is not None and rec.session.format_version == "1.2"
        a = ce.audit()
        assert a is not None and a.findings == [] and a.verification == "partial"

    def test_a_card_is_in_one_place_and_a_second_tap_takes_it_back(self) -> None:
        ce = _filled(Entry(game="slovenian", players=PLAYERS, dealer=3))
        assert ce.tap("SK", "discards") is not None  # it is in the declarer's pile
        assert ce.tap("SK", "pile:0") is None and "SK" not in ce.piles[0]
        assert ce.tap("SK", "taken") is not None  # not a talon card
        assert ce.tap("T10", "talon") is None  # the talon card goes, and with it its take
        assert "T10" not in ce.taken and "T10" not in ce.piles[0]

    def test_klop_piles_are_per_player_and_the_last_players_is_the_rest(self) -> None:
        ce = CountEntry(Entry(game="slovenian", players=PLAYERS, dealer=3))
        ce.set_contract("klop")
        assert ce.form() == "seats" and ce.places() == ["pile:0", "pile:1", "pile:2"]
        assert ce.rest_owner() == "3"  # the last active seat's pile is the rest
        for card in _b1()["declarer"][:4]:
            ce.tap(card, "pile:1")
        by_seat = ce.counted_doc()["by_seat"]
        assert by_seat[0] == [] and len(by_seat[1]) == 4 and len(by_seat[3]) == 50
        ce.count_by_seat = [0, 7, 30, 33]
        assert ce.read()[1] == []  # a valid log: the piles hold the pack


#: per language: the mode's label, the contract's words, what the miscount finding says
WORDS = {
    "en": ("Counted (the cards each side took)", "the difference in thirds: +5",
           "Counted from the piles: the declarer's side has 149 thirds (50 points)."),
    "sl": ("Prešteto (karte, ki jih je pobrala vsaka stran)", "razlika v tretjinah: +5",
           "Prešteto iz kupov: igralčeva stran ima 149 tretjin (50 točk)."),
    "de": ("Gezählt (die Karten, die jede Seite genommen hat)", "Unterschied in Dritteln: +5",
           "Aus den Stapeln gezählt: die Seite des Spielers hat 149 Drittel (50 Punkte)."),
}  # fmt: skip


def _plain(md: str) -> str:
    return md.replace("\\", "").replace("\u2060", "")


@pytest.mark.parametrize("lang", ["en", "sl", "de"])
def test_a_counted_hand_is_entered_by_tapping_one_sides_cards(
    lang: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TAROCK_DB", str(tmp_path / "no.duckdb"))
    monkeypatch.setenv("TAROCK_ENTRY_DIR", str(tmp_path / "entered"))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("app_pages/enter.py")
    at.run()
    mode, finding_words, counted = WORDS[lang]
    toggle = at.toggle(key="e_mode")
    assert toggle.label == mode
    toggle.set_value(True).run()
    for s, name in enumerate(PLAYERS):
        at.text_input(key=f"e_player_{s}").input(name).run()
    at.selectbox(key="e_c_contract").select("three").run()
    at.selectbox(key="e_c_declarer").select(0).run()
    at.selectbox(key="e_c_partner").select(1).run()
    at.selectbox(key="e_c_called").select("DK").run()
    assert not at.exception
    # two talon cards tapped on the page; the rest of B.1's piles as the referee taps them
    at.button(key="e_c_place__talon").click().run()
    for card in _b1()["talon"][:2]:
        at.button(key=f"e_c_pack_{card[0]}__{card}").click().run()
    ce = at.session_state["count_entry"]
    assert isinstance(ce, CountEntry) and ce.talon == _b1()["talon"][:2]
    filled = _filled(ce.table)
    ce.talon, ce.taken, ce.discards, ce.piles = (
        filled.talon, filled.taken, filled.discards, filled.piles,
    )  # fmt: skip
    ce.announced, ce.kontras, ce.mondfang = filled.announced, filled.kontras, filled.mondfang
    at.number_input(key="e_c_count").set_value(48).run()
    assert not at.exception
    said = [_plain(m.value) for m in at.markdown if m.value.startswith("- ")]
    assert any(counted in s for s in said), said
    warnings = [_plain(w.value) for w in at.warning]  # a miscount: the record, not the play
    assert any("Ana Kos" in w and finding_words in w for w in warnings), warnings
    assert at.button(key="e_c_save") is not None
