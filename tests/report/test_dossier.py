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
    # the offender by name and role, with the fact that makes the role
    assert "Bojan Zupan, the declarer's partner (who holds the called ♦K), played ♣7" in text
    idx = next(v.action_index for v in d.audit.violations if v.severity == "error")
    assert re.search(rf"#{idx} error play\.illegal_card", text)
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
    assert faces["HK"] == ["K", "\u2665", "\u2665"]  # the index (rank, suit), the suit large
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
    assert "Not verified: " in text and "no rules engine for royal" in text
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


ROYAL = Path(__file__).resolve().parents[2] / "sample_logs" / "royal" / "worked-examples.json"


def _headings(html: str) -> list[str]:
    return re.findall(r"<h2>([^<]+)</h2>", html)


def test_dossier_opens_with_the_verification_state_and_the_verdict_sentences() -> None:
    doc = _disputed_b1()
    html = render_dossier(session(doc), 1, generated_at=WHEN)
    first = re.search(r'<p class="state (\w+)">([^<]+)</p>', html)
    assert first is not None and first.group(1) == "verified"
    assert first.group(2).startswith("Verified: every recorded item")
    body = html.split("<body>", 1)[1]
    assert body.index('class="state') < body.index("<h2>")  # before any fact
    words = " ".join(_parse(html).text)
    idx = next(v.action_index for v in build_dossier(session(doc), 1).audit.violations
               if v.severity == "error")  # fmt: skip
    # which illegal action, not just how many, in plain words (not the code)
    illegal = text.code_meaning("play.illegal_card", "slovenian")
    assert f"1 illegal action: {illegal} at action {idx}." in words
    assert "1 warning: a detectable renons nobody called at the whole hand." in words
    assert "play.illegal_card at action" not in words
    assert "score difference" in words and "kralji" in words


def test_facts_come_before_the_score_and_the_ruleset_options_last() -> None:
    html = render_dossier(session(b2_doc()), 2, generated_at=WHEN)
    order = _headings(html)
    assert order.index("Players and seats") < order.index("The deal") < order.index("Tricks")
    assert order.index("Tricks") < order.index("Score: recorded and recomputed")
    assert order[-2:] == ["Event", "Ruleset"]


def test_the_offending_card_is_marked_and_the_legal_cards_are_shown() -> None:
    doc = b1_doc()
    idx = plant_b1_illegal_card(doc)
    d = build_dossier(session(doc), 1, generated_at=WHEN)
    (v,) = [v for v in d.audit.violations if v.action_index == idx and v.severity == "error"]
    legal = [c for c in v.params["legal"] if c != "C7"]
    row = next(tr for tr in d.html.split("<tr") if f"#{idx}<" in tr or f"#{idx} " in tr)
    assert 'class="card bad"' in row and 'aria-label="C7"' in row
    assert "legal were:" in row
    assert all(f'aria-label="{c}"' in row for c in legal)


def test_a_partial_royal_hand_says_which_items_were_not_checked() -> None:
    raw = orjson.loads(ROYAL.read_bytes())
    raw = raw[0] if isinstance(raw, list) else raw
    raw["options"] = {k: v for k, v in raw["options"].items() if k != "consolation"}
    html = render_dossier(session(raw), 1, generated_at=WHEN)
    words = " ".join(_parse(html).text)
    assert "Partly verified:" in words and "consolation" in words
    assert "Recorded score agrees with the recomputation." not in words
    assert "wherever it could be checked" in words
    assert "Not verified" in _headings(html) or "Not verified" in words


def test_dossier_and_audit_use_the_same_names_and_roles(tmp_path: Path) -> None:
    """The dossier's sentences are the audit's findings: the same names and roles the CLI
    prints for the same hand."""
    doc = b1_doc()
    plant_b1_illegal_card(doc)
    f = tmp_path / "planted.jsonl"
    f.write_bytes(orjson.dumps(doc) + b"\n")
    res = runner.invoke(app, ["audit", str(f), "--format", "jsonl"])
    (rec,) = [r for r in map(orjson.loads, res.stdout.splitlines()) if r["record"] == "hand"]
    html = render_dossier(session(doc), 1, generated_at=WHEN)
    words = " ".join(_parse(html).text)
    for finding in rec["findings"]:
        assert finding["message"] in words
        for p in finding["players"]:
            assert p["name"] in words


def test_cli_finds_the_hand_by_the_hand_id_audit_prints_without_session(tmp_path: Path) -> None:
    res = runner.invoke(app, ["audit", str(APPENDIX_B), "--format", "jsonl"])
    hands = [r for r in map(orjson.loads, res.stdout.splitlines()) if r["record"] == "hand"]
    b2 = next(h for h in hands if h["session"] == "si-appendix-b2")
    out = tmp_path / "b2.html"
    for hid in (b2["hand_id"], b2["hand_id"][:12]):  # the id, or a unique prefix of it
        res = runner.invoke(app, ["dossier", "--hand-id", hid, str(APPENDIX_B), "-o", str(out)])
        assert res.exit_code == 0, res.stderr  # two sessions in the file: no --session needed
        assert "si-appendix-b2, hand 2" in out.read_text(encoding="utf-8")
    res = runner.invoke(app, ["dossier", "--hand-id", "0" * 64, str(APPENDIX_B)])
    assert res.exit_code == 2 and "no hand with id" in res.stderr
    res = runner.invoke(app, ["dossier", str(APPENDIX_B)])  # neither --hand nor --hand-id
    assert res.exit_code == 2


def test_cli_exits_5_for_a_hand_that_is_only_partly_verified(tmp_path: Path) -> None:
    raw = orjson.loads(ROYAL.read_bytes())
    raw = raw[0] if isinstance(raw, list) else raw
    raw["options"] = {k: v for k, v in raw["options"].items() if k != "consolation"}
    f = tmp_path / "royal.jsonl"
    f.write_bytes(orjson.dumps(raw) + b"\n")
    res = runner.invoke(app, ["dossier", str(f), "--hand", "1", "-o", "-"])
    assert res.exit_code == 5 and "Partly verified" in res.stdout


def test_the_phase_of_each_action_is_the_engines() -> None:
    from tarock_logs.verdict.convert import to_engine_action

    s = session(b1_doc())  # tri: bidding, king call, talon, announcements
    hand = s.hands[0]
    engine = get_engine("slovenian")
    assert engine is not None
    want = engine.action_phases([to_engine_action(a) for a in hand.actions])
    html = render_dossier(s, hand.number, generated_at=WHEN)
    body = html.split("Every action and its verdict", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr[^>]*><td>(\d+)</td><td>([^<]*)</td>", body)
    assert 'class=""' not in html  # no empty attributes
    assert rows, "the actions table lists every non-play action"
    for idx, phase in rows:
        assert phase == text.phase_name(want[int(idx)])
    assert "announcements" in {p for _, p in rows} and "bidding" in {p for _, p in rows}


@pytest.mark.parametrize("lang", ["sl", "de"])
def test_the_dossier_in_slovenian_and_german_leaves_no_english_label(lang: str) -> None:
    from tarock_logs.report import i18n

    doc = _disputed_b1()
    html = render_dossier(session(doc), 1, generated_at=WHEN, lang=lang)
    assert f'<html lang="{lang}">' in html
    # the ruleset's option names (``announcements = yes``) are identifiers, like the codes
    words = _parse(re.sub(r"<b>[a-z_]+</b> =", "", html)).text
    english = {
        msgid
        for msgid, translated in i18n.catalogue(lang).items()
        if translated != msgid and "{" not in msgid and len(msgid) > 3
    }
    left = sorted({w.strip() for w in words} & english)
    assert not left, left
    joined = " ".join(words)
    assert "tri" in joined and "pagat ultimo" in joined  # the game's own terms stay
    assert i18n.t("Every action and its verdict", lang) in joined
    # the finding in the language, worded by the one renderer: the player, the card, the rule
    # and its consequence; the rule's words in the reader's language or the ruleset's own
    f = next(
        f for f in build_dossier(session(doc), 1).audit.findings if f.code == "play.illegal_card"
    )
    said = f.text(lang)
    assert said in joined and f.players[0].name in said
    assert f.rule_text["en"] not in joined
    assert f.rule_text.get(lang, f.rule_text["sl"]) in joined
    # the card points in words, not the engine's field names
    assert "_thirds" not in joined and i18n.t("the defenders", lang) in joined


def test_tarock_dossier_lang_writes_the_labels_in_that_language(tmp_path: Path) -> None:
    log = tmp_path / "b1.json"
    log.write_bytes(orjson.dumps([_disputed_b1()]))
    res = CliRunner().invoke(app, ["dossier", str(log), "--hand", "1", "--lang", "de"])
    assert '<html lang="de">' in res.output and "Streitakte" in res.output
    bad = CliRunner().invoke(app, ["dossier", str(log), "--hand", "1", "--lang", "fr"])
    assert bad.exit_code == 2
