"""The one card drawing: pure functions from card tokens to SVG (ElementTree, so every text is
escaped by construction).

Used by the dispute dossier (cards inline in its HTML) and by the dashboard's replay viewer
(shown with ``st.image``). Every ``<svg>`` has an explicit ``viewBox``, ``width`` and ``height``
(an SVG without them gets cropped or scaled oddly by browsers); every option is keyword-only.

The face of a card: a rounded rectangle with its *index* in the top left corner, as on a
real card: the rank over a small suit symbol (suit cards: ``K`` king, ``Q`` queen, ``N``
knight/kaval/Cavall, ``J`` jack, ``G`` the Austrian games' Glatze, or the pip; red suits red,
black suits black) and a large suit symbol below, or, for a tarok (trump), its Roman numeral
and at the bottom, also from the left, the name of the three trula cards (*škis* XXII, *mond*
XXI, *pagat* I; *Sküs, Mond, Pagat* in the Austrian games) or the word ``tarok``. Every text
of the index and the name stays within the left :data:`INDEX_RIGHT` units of the card (a long
numeral such as XVIII is drawn narrower with ``textLength``), so a fanned hand whose cards
overlap by at most ``CARD_W - INDEX_RIGHT`` (:data:`FAN_OVERLAP`) hides no glyph of them.
A *greyed* card is one already played (faded);
a *highlighted* card is an offending (illegal) card, drawn with a thick red border; a *marked*
card carries a thick border of its mark's colour (:data:`MARKS`: ``allowed``, green and dashed,
a card the rules allowed instead of an illegal one; ``winning``, gold, the card that takes the
trick so far).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Collection, Sequence

from tarock_logs.cards import CARDS, TAROK
from tarock_logs.report.text import tarok_numeral, trula_card_name

__all__ = [
    "CAPTION_CHARS",
    "CARD_H",
    "CARD_W",
    "FAN_OVERLAP",
    "GAP",
    "INDEX_RIGHT",
    "MARKS",
    "card_element",
    "card_label",
    "card_svg",
    "cards_element",
    "cards_svg",
    "text_width",
]

CARD_W = 44
CARD_H = 64
GAP = 4
CAPTION_CHARS = 8  # what fits under one card at 10 px
#: the index (rank, numeral, suit symbol, trula name) starts here, from the card's left edge
INDEX_X = 3
#: ... and ends at most here: the left strip of a card that a fan must leave uncovered
INDEX_RIGHT = 29
#: the most a card of a fanned row may be covered by the next one (in card units)
FAN_OVERLAP = CARD_W - INDEX_RIGHT - 1
#: advance widths of DejaVu Sans Bold, in em, of the letters an index uses (the rest: 0.7)
_EM = {"I": 0.372, "V": 0.774, "X": 0.771, "K": 0.775, "Q": 0.85, "N": 0.837, "J": 0.372}

_SUIT_SYMBOL = {"H": "\u2665", "D": "\u2666", "S": "\u2660", "C": "\u2663"}
_SUIT_COLOUR = {"H": "#c62828", "D": "#c62828", "S": "#212121", "C": "#212121", TAROK: "#1a237e"}
_SVG_NS = "http://www.w3.org/2000/svg"
_FONT = "font-family:DejaVu Sans,Arial,sans-serif;font-weight:bold"
_HIGHLIGHT = "#d50000"
#: the marks a card can carry besides the red border of an offending card: (colour, dashes)
MARKS: dict[str, tuple[str, str | None]] = {
    "allowed": ("#2e7d32", "6 3"),
    "winning": ("#f9a825", None),
}


def card_label(token: str, *, game: str | None = None) -> tuple[str, str]:
    """(top text, bottom text) of a card's face: ``("K", "♥")``, ``("XXII", "škis")``,
    ``("XIX", "tarok")``; an unknown token is shown verbatim with no bottom text."""
    card = CARDS.get(token)
    if card is None:
        return token, ""
    if card.is_tarok:
        return tarok_numeral(card.strength), trula_card_name(token, game) or "tarok"
    return card.rank, _SUIT_SYMBOL[card.suit]


def _root(width: int, height: int, *, scale: float, title: str | None, xmlns: bool) -> ET.Element:
    attrs = {
        "viewBox": f"0 0 {width} {height}",
        "width": str(round(width * scale)),
        "height": str(round(height * scale)),
        "role": "img",
    }
    if xmlns:
        attrs = {"xmlns": _SVG_NS, **attrs}
    root = ET.Element("svg", attrs)
    if title:
        ET.SubElement(root, "title").text = title
        root.set("aria-label", title)
    return root


def text_width(text: str, size: float) -> float:
    """The width of ``text`` at ``size`` px in DejaVu Sans Bold (an estimate from its advance
    widths, a little wide for the glyphs it does not list)."""
    return sum(_EM.get(c, 0.7) for c in text) * size


def _text(
    parent: ET.Element,
    text: str,
    *,
    y: int,
    size: int,
    colour: str,
    index: bool = False,
    font: str = _FONT,
) -> None:
    """A text of the face: centred, or (``index``) from :data:`INDEX_X`, squeezed with
    ``textLength`` to end by :data:`INDEX_RIGHT` when it would be wider."""
    attrs = {
        "x": str(CARD_W / 2),
        "y": str(y),
        "text-anchor": "middle",
        "fill": colour,
        "style": f"{font};font-size:{size}px",
    }
    if index:
        attrs["x"], attrs["text-anchor"], attrs["class"] = str(INDEX_X), "start", "idx"
        room = INDEX_RIGHT - INDEX_X
        if text_width(text, size) > room:
            attrs["textLength"], attrs["lengthAdjust"] = str(room), "spacingAndGlyphs"
    ET.SubElement(parent, "text", attrs).text = text


def _draw_card(
    parent: ET.Element,
    token: str,
    x: float,
    y: float,
    *,
    greyed: bool,
    highlight: bool,
    game: str | None,
    mark: str | None = None,
) -> None:
    """The face of one card as a ``<g>`` at (x, y) in ``parent``: the one drawing of a card."""
    card = CARDS.get(token)
    suit = card.suit if card else TAROK
    colour = _SUIT_COLOUR.get(suit, "#000000") if card else "#000000"
    g = ET.SubElement(parent, "g", {"transform": f"translate({x},{y})"})
    if greyed:
        g.set("opacity", "0.3")
    rect = {
        "x": "1",
        "y": "1",
        "width": str(CARD_W - 2),
        "height": str(CARD_H - 2),
        "rx": "5",
        "ry": "5",
        "fill": "#eef0fb" if card is not None and card.is_tarok else "#ffffff",
        "stroke": _HIGHLIGHT if highlight else "#757575",
        "stroke-width": "3" if highlight else "1",
    }
    if mark in MARKS and not highlight:
        colour_of_mark, dashes = MARKS[mark]
        rect["stroke"] = colour_of_mark
        rect["stroke-width"] = "4"
        if dashes:
            rect["stroke-dasharray"] = dashes
    ET.SubElement(g, "rect", rect)
    top, bottom = card_label(token, game=game)
    if bottom in _SUIT_SYMBOL.values():
        _text(g, top, y=16, size=14, colour=colour, index=True)
        _text(g, bottom, y=29, size=12, colour=colour, index=True)
        _text(g, bottom, y=55, size=22, colour=colour)
    else:
        _text(g, top, y=17, size=14 if len(top) <= 3 else 13, colour=colour, index=True)
        if bottom:
            _text(g, bottom, y=56, size=10, colour=colour, index=True)
    ET.SubElement(g, "title").text = token


def card_element(
    token: str,
    *,
    greyed: bool = False,
    highlight: bool = False,
    scale: float = 1.0,
    game: str | None = None,
    xmlns: bool = True,
    mark: str | None = None,
    title: str | None = None,
) -> ET.Element:
    """One card as an ``<svg>`` element. ``xmlns=False`` leaves out the namespace attribute,
    for an SVG inline in HTML (the HTML parser puts ``<svg>`` in its namespace by itself).
    ``mark`` is one of :data:`MARKS`; ``title`` the card's tooltip (its token by default)."""
    root = _root(CARD_W, CARD_H, scale=scale, title=title or token, xmlns=xmlns)
    _draw_card(root, token, 0, 0, greyed=greyed, highlight=highlight, game=game, mark=mark)
    return root


def card_svg(
    token: str,
    *,
    greyed: bool = False,
    highlight: bool = False,
    scale: float = 1.0,
    game: str | None = None,
) -> str:
    """One card as an SVG document."""
    root = card_element(token, greyed=greyed, highlight=highlight, scale=scale, game=game)
    return ET.tostring(root, encoding="unicode")


def cards_element(
    tokens: Sequence[str],
    *,
    greyed: Collection[str] = (),
    highlight: Collection[str] = (),
    captions: Sequence[str] | None = None,
    scale: float = 1.0,
    title: str | None = None,
    game: str | None = None,
    xmlns: bool = True,
) -> ET.Element:
    """A row of cards as one ``<svg>`` element (see :func:`cards_svg`)."""
    n = len(tokens)
    cap_h = 16 if captions else 0
    width = max(n, 1) * (CARD_W + GAP) + GAP
    height = CARD_H + 2 * GAP + cap_h
    root = _root(
        width, height, scale=scale, title=title or " ".join(tokens) or "no cards", xmlns=xmlns
    )
    if n == 0:
        empty = {
            "x": str(GAP),
            "y": str(GAP),
            "width": str(CARD_W),
            "height": str(CARD_H),
            "rx": "5",
            "fill": "none",
            "stroke": "#bdbdbd",
            "stroke-dasharray": "4 3",
        }
        ET.SubElement(root, "rect", empty)
    greyed_set, high_set = set(greyed), set(highlight)
    for i, tok in enumerate(tokens):
        x = GAP + i * (CARD_W + GAP)
        _draw_card(
            root, tok, x, GAP, greyed=tok in greyed_set, highlight=tok in high_set, game=game
        )
        if captions:
            cap = {
                "x": str(x + CARD_W / 2),
                "y": str(GAP + CARD_H + 13),
                "text-anchor": "middle",
                "style": "font-family:DejaVu Sans,Arial,sans-serif;font-size:10px",
                "fill": "#424242",
            }
            ET.SubElement(root, "text", cap).text = captions[i][:CAPTION_CHARS]
    return root


def cards_svg(
    tokens: Sequence[str],
    *,
    greyed: Collection[str] = (),
    highlight: Collection[str] = (),
    captions: Sequence[str] | None = None,
    scale: float = 1.0,
    title: str | None = None,
    game: str | None = None,
) -> str:
    """A row of cards as one SVG document.

    ``greyed`` cards are drawn faded (already played), ``highlight`` cards with a red border
    (an offending card). ``captions`` (same length as ``tokens``) are written under each card
    (cut to :data:`CAPTION_CHARS`), e.g. who played it in a trick. An empty row draws a
    dashed placeholder. ``game`` names the trula cards in that game's words.
    """
    root = cards_element(
        tokens,
        greyed=greyed,
        highlight=highlight,
        captions=captions,
        scale=scale,
        title=title,
        game=game,
    )
    return ET.tostring(root, encoding="unicode")
