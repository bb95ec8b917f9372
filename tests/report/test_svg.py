"""The card SVGs: well-formed, sized, escaped, and showing the state they are asked to show."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tarock_logs.report.cards_svg import (
    CAPTION_CHARS,
    CARD_H,
    CARD_W,
    GAP,
    card_element,
    card_label,
    card_svg,
    cards_svg,
)

NS = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_every_svg_has_viewbox_width_and_height() -> None:
    for svg in (card_svg("HK"), cards_svg(["T22", "T21", "T1"]), cards_svg([])):
        root = _parse(svg)
        assert root.tag == f"{NS}svg"
        assert root.get("viewBox", "").startswith("0 0 ")
        assert int(root.get("width", "0")) > 0 and int(root.get("height", "0")) > 0


def test_row_width_grows_with_the_number_of_cards() -> None:
    root = _parse(cards_svg(["HK", "HQ", "HN"]))
    assert root.get("viewBox") == f"0 0 {3 * (CARD_W + GAP) + GAP} {CARD_H + 2 * GAP}"


def test_tarocks_show_roman_numerals_and_suits_show_rank_and_symbol() -> None:
    assert card_label("T19") == ("XIX", "tarok")
    assert card_label("T4") == ("IIII", "tarok")
    assert card_label("HK") == ("K", "\u2665")
    assert card_label("C10") == ("10", "\u2663")
    assert card_label("XX?") == ("XX?", "")  # an unknown token, verbatim


def test_skis_mond_and_pagat_show_their_numeral_and_their_name_in_the_games_words() -> None:
    assert card_label("T22") == ("XXII", "škis")
    assert card_label("T21") == ("XXI", "mond")
    assert card_label("T1") == ("I", "pagat")
    assert card_label("T22", game="zwanzigerrufen") == ("XXII", "Sküs")
    texts = [t.text for t in _parse(card_svg("T22")).iter(f"{NS}text")]
    assert texts == ["XXII", "škis"]
    row = [t.text for t in _parse(cards_svg(["T1"], game="royal")).iter(f"{NS}text")]
    assert row == ["I", "Pagat"]


def test_inline_card_element_has_no_namespace_url_but_the_same_face() -> None:
    inline = card_element("SK", xmlns=False, scale=0.75)
    assert inline.get("xmlns") is None and "http" not in ET.tostring(inline, encoding="unicode")
    assert (inline.get("width"), inline.get("height")) == ("33", "48")
    standalone = _parse(card_svg("SK"))
    assert [t.text for t in inline.iter("text")] == [t.text for t in standalone.iter(f"{NS}text")]


def test_played_cards_are_greyed_and_the_offending_card_has_a_red_border() -> None:
    root = _parse(cards_svg(["HK", "D1"], greyed=["D1"], highlight=["HK"]))
    groups = list(root.iter(f"{NS}g"))
    by_card = {g.find(f"{NS}title").text: g for g in groups}  # type: ignore[union-attr]
    assert by_card["D1"].get("opacity") == "0.3"
    assert by_card["HK"].get("opacity") is None
    assert by_card["HK"].find(f"{NS}rect").get("stroke") == "#d50000"  # type: ignore[union-attr]
    assert by_card["D1"].find(f"{NS}rect").get("stroke") != "#d50000"  # type: ignore[union-attr]


def test_captions_are_escaped_text_not_markup() -> None:
    svg = cards_svg(["HK"], captions=["<script>x</script>"])
    assert "<script>" not in svg
    root = _parse(svg)
    assert "<script>"[:CAPTION_CHARS] in [t.text for t in root.iter(f"{NS}text")]  # text, cut


def test_every_index_text_stays_in_the_strip_a_fanned_card_leaves_uncovered() -> None:
    """A card's index (rank and suit, a tarok's numeral, a trula card's name) lies within
    INDEX_RIGHT units from its left edge, and a fan covers at most FAN_OVERLAP of the card:
    XVIII, XIII and XVI keep every letter (a wide numeral is squeezed with textLength)."""
    from tarock_logs.cards import CARDS
    from tarock_logs.report.cards_svg import FAN_OVERLAP, INDEX_RIGHT, text_width

    assert CARD_W - FAN_OVERLAP >= INDEX_RIGHT
    for game in ("slovenian", "zwanzigerrufen", "royal"):
        for token in CARDS:
            root = _parse(card_svg(token, game=game))
            index = [t for t in root.iter(f"{NS}text") if t.get("class") == "idx"]
            assert index, token
            for t in index:
                x = float(t.get("x", "0"))
                assert t.get("text-anchor") == "start"
                size = float(str(t.get("style")).rsplit("font-size:", 1)[1].removesuffix("px"))
                drawn = float(t.get("textLength") or text_width(t.text or "", size))
                assert x + drawn <= INDEX_RIGHT + 1e-9, (game, token, t.text, x, drawn)
    xviii = next(_parse(card_svg("T18")).iter(f"{NS}text"), None)
    assert xviii is not None and xviii.text == "XVIII" and xviii.get("textLength")


def test_the_table_fans_cards_by_no_more_than_the_cards_allow() -> None:
    """The card table's negative margins, at every drawn size, cover at most FAN_OVERLAP of
    the card's width; each is in the stylesheet."""
    from dashboard.table import CARD_PX, FAN_MARGIN_PX, TABLE_CSS
    from tarock_logs.report.cards_svg import FAN_OVERLAP

    for size, width in CARD_PX.items():
        margin = FAN_MARGIN_PX[size]
        assert 0 < margin <= FAN_OVERLAP * width / CARD_W, size
        assert f"margin-right:-{margin}px" in TABLE_CSS
