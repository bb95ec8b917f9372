"""The dispute dossier: one self-contained, escaped HTML page with every finding."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs import rules as rules_registry
from tarock_logs.cli.common import app
from tarock_logs.report import text
from tarock_logs.report.cards_svg import card_svg
from tarock_logs.report.dossier import DossierError, build_dossier, render_dossier
from tarock_logs.rules import get_engine
from tarock_logs.verdict.audit import hand_content_hash
from tests.support.d1_helpers import APPENDIX_B, b1_doc, b2_doc, plant_b1_illegal_card, session

pytestmark = pytest.mark.skipif(get_engine("slovenian") is None, reason="no Slovenian engine")
WHEN = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
NS = "{http://www.w3.org/2000/svg}"


class _Collect(HTMLParser):
    """Tags, attributes and text of a document (checks it parses and what it references)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self.highlighted_rows = 0
        #: the texts drawn on each inline card, by its token (aria-label)
        self.card_faces: dict[str, list[str]] = {}
        self._card: str | None = None
        self._in_text = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(attrs)
        if tag == "tr" and ("class", "bad") in attrs:
            self.highlighted_rows += 1
        if tag == "svg":
            self._card = dict(attrs).get("aria-label")
            if self._card is not None:
                self.card_faces[self._card] = []
        self._in_text = tag == "text"

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self._card = None
        if tag == "text":
            self._in_text = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in_text and self._card is not None:
            self.card_faces[self._card].append(data)


def _parse(html: str) -> _Collect:
    p = _Collect()
    p.feed(html)
    return p


def _disputed_b1() -> dict:  # type: ignore[type-arg]
    doc = b1_doc()
    plant_b1_illegal_card(doc)
    kralji = next(i for i in doc["hands"][0]["result"]["items"] if i["item"] == "kralji")
    kralji["value"] = 20
    doc["players"][0]["name"] = "<script>alert('x')</script> Ana & Co"
    doc["event"]["site"] = '<img src="x.png" onerror="alert(1)">'
    return doc


def test_dossier_shows_every_finding_with_its_rule_and_both_score_values() -> None:
    doc = _disputed_b1()
    d = build_dossier(session(doc), 1, file="planted.json", generated_at=WHEN)
    html = d.html
    assert html.startswith("<!DOCTYPE html>")
    assert d.audit.legal is False and d.audit.discrepancies
    for v in d.audit.violations:
        assert v.code in html and v.rule in html
    text = " ".join(_parse(html).text)
    assert "seat 1 played C7" in text  # the engine's message
    idx = next(v.action_index for v in d.audit.violations if v.severity == "error")
    assert re.search(rf"#{idx} ERROR play\.illegal_card", text)
    assert "si-tournament-2021 §8.3" in text
    # the wrong item, recorded and recomputed, highlighted
    assert re.search(r"kralji.*?\+20.*?\+10", text, re.S)
    assert 'class="num diff"' in html
    assert _parse(html).highlighted_rows >= 1  # the illegal action's row (and differences)
    # the ruleset with its options, the content hash and the signature line
    assert "si-tournament-2021" in text and "win_threshold_thirds" in text
    assert hand_content_hash(session(doc), session(doc).hands[0]) in html
    assert "Referee (name)" in text and "tarock-logs" in text


def test_dossier_is_self_contained_and_escapes_user_text() -> None:
    html = render_dossier(session(_disputed_b1()), 1, generated_at=WHEN)
    assert "http" not in html  # no URL at all: no network, no namespace links
    p = _parse(html)
    assert "script" not in p.tags and "img" not in p.tags and "link" not in p.tags
    assert not any(k in ("src", "href") for k, _ in p.attrs)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<script>alert('x')</script> Ana & Co" in " ".join(p.text)  # shown as text
    assert "style" in p.tags and p.tags.count("svg") >= 54  # cards drawn inline
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_dossier_draws_cards_with_the_one_card_face_and_words_actions_with_report_text() -> None:
    doc = b2_doc()
    html = render_dossier(session(doc), 2, generated_at=WHEN)
    faces = _parse(html).card_faces
    drawn = ET.fromstring(card_svg("T22", game="slovenian"))
    assert faces["T22"] == [t.text for t in drawn.iter(f"{NS}text")] == ["XXII", "škis"]
    assert faces["HK"] == ["K", "\u2665"]
    words = " ".join(_parse(html).text)
    names = text.player_names(session(doc))
    hand = next(h for h in session(doc).hands if h.number == 2)
    for a in hand.actions:
        if a.type != "play":
            assert text.action_phrase(a, "slovenian") in words
    assert all(name in words for name in names)


def test_dossier_of_a_clean_hand_has_tricks_deal_and_agreeing_score() -> None:
    html = render_dossier(session(b2_doc()), 2, generated_at=WHEN)
    text = " ".join(_parse(html).text)
    assert "All actions legal." in text
    assert "Recorded score agrees with the recomputation." in text
    assert 'class="num diff"' not in html and 'class="bad"' not in html
    for section in ("The deal", "Every action and its verdict", "Tricks", "Score: recorded"):
        assert section in text
    assert "Every action and its verdict" in text
    assert all(f"#{i}" in text for i in range(4, 52))  # each of the 48 card plays, located
    assert "+140" in text  # W9 with the recorded radelci before the hand


def test_unknown_hand_is_an_error() -> None:
    with pytest.raises(DossierError, match="no hand 7"):
        render_dossier(session(b1_doc()), 7)


def test_game_without_engine_still_renders_as_not_verified(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(rules_registry._ENGINES, "royal")  # every game has an engine now
    doc = b1_doc()
    doc["game"] = "royal"
    html = render_dossier(session(doc), 1, generated_at=WHEN)
    text = " ".join(_parse(html).text)
    assert "NOT VERIFIED" in text and "no rules engine for royal" in text
    assert "Winners not derived" in text


runner = CliRunner()


def test_cli_writes_the_file_and_exits_by_findings(tmp_path: Path) -> None:
    out = tmp_path / "hand.html"
    res = runner.invoke(app, ["dossier", str(APPENDIX_B), "--hand", "1", "--session",
                              "si-appendix-b1", "-o", str(out)])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    f = tmp_path / "planted.jsonl"
    f.write_bytes(orjson.dumps(_disputed_b1()) + b"\n")
    res = runner.invoke(app, ["dossier", str(f), "--hand", "1", "-o", str(out)])
    assert res.exit_code == 1
    assert "play.illegal_card" in out.read_text(encoding="utf-8")


def test_cli_usage_errors(tmp_path: Path) -> None:
    # two sessions in the file: --session is needed
    res = runner.invoke(app, ["dossier", str(APPENDIX_B), "--hand", "1"])
    assert res.exit_code == 2 and "--session" in res.stderr
    res = runner.invoke(app, ["dossier", str(APPENDIX_B), "--hand", "9", "--session",
                              "si-appendix-b1"])  # fmt: skip
    assert res.exit_code == 2
    res = runner.invoke(app, ["dossier", str(tmp_path / "none.json"), "--hand", "1"])
    assert res.exit_code == 2


def test_cli_what_if_ruleset_is_shown(tmp_path: Path) -> None:
    out = tmp_path / "w.html"
    args = ["--session", "si-appendix-b1", "--ruleset", "openspiel", "-o", str(out)]
    res = runner.invoke(app, ["dossier", str(APPENDIX_B), "--hand", "1", *args])
    assert res.exit_code == 1  # recorded tournament scores differ from openspiel's
    text = out.read_text(encoding="utf-8")
    assert "openspiel-2.0" in text and "what-if" in text
