"""Cards drawn as SVG: pure functions over card tokens (ElementTree, so every text is escaped).

Used by the dashboard's replay viewer (shown with ``st.image``). Each function returns one
complete ``<svg>`` document with an explicit ``viewBox``, ``width`` and ``height`` (an SVG
without them gets cropped or scaled oddly by browsers).

A card is drawn as a rounded rectangle with its rank and suit: taroks (trumps) show their
number in Roman numerals (``XXI`` is the *mond*, ``XXII`` the *škis*, ``I`` the *pagat*),
suit cards show the rank letter (K king, Q queen, N knight/kaval, J jack, or the pip) and a
suit symbol. A *greyed* card is one already played (shown faded); a *highlighted* card is an
offending (illegal) card, drawn with a thick red border.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Collection, Sequence

from tarock_logs.cards import CARDS, TAROK

CARD_W = 44
CARD_H = 64
GAP = 4
CAPTION_CHARS = 8  # what fits under one card at 10 px

_SUIT_SYMBOL = {"H": "\u2665", "D": "\u2666", "S": "\u2660", "C": "\u2663"}
_SUIT_COLOUR = {"H": "#c62828", "D": "#c62828", "S": "#212121", "C": "#212121", TAROK: "#1a237e"}
_ROMAN = (
    "", "I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
    "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII",
)  # fmt: skip
_SVG_NS = "http://www.w3.org/2000/svg"


def card_label(token: str) -> tuple[str, str]:
    """(rank text, suit symbol) for a card token; unknown tokens are shown verbatim."""
    card = CARDS.get(token)
    if card is None:
        return token, ""
    if card.is_tarok:
        return _ROMAN[card.strength], ""
    return card.rank, _SUIT_SYMBOL[card.suit]


def _root(width: int, height: int, *, scale: float, title: str | None) -> ET.Element:
    root = ET.Element(
        "svg",
        {
            "xmlns": _SVG_NS,
            "viewBox": f"0 0 {width} {height}",
            "width": str(round(width * scale)),
            "height": str(round(height * scale)),
            "role": "img",
        },
    )
    if title:
        ET.SubElement(root, "title").text = title
    return root


def _draw_card(
    parent: ET.Element, token: str, x: float, y: float, *, greyed: bool, highlight: bool
) -> None:
    card = CARDS.get(token)
    suit = card.suit if card else TAROK
    colour = _SUIT_COLOUR.get(suit, "#000")
    g = ET.SubElement(parent, "g", {"transform": f"translate({x},{y})"})
    if greyed:
        g.set("opacity", "0.3")
    fill = "#eef0fb" if suit == TAROK else "#ffffff"
    ET.SubElement(
        g,
        "rect",
        {
            "x": "1", "y": "1", "width": str(CARD_W - 2), "height": str(CARD_H - 2),
            "rx": "5", "ry": "5", "fill": fill,
            "stroke": "#d50000" if highlight else "#757575",
            "stroke-width": "3" if highlight else "1",
        },
    )  # fmt: skip
    rank, sym = card_label(token)
    font = "font-family:DejaVu Sans,Arial,sans-serif;font-weight:bold"
    size = 15 if len(rank) <= 2 else (12 if len(rank) <= 4 else 10)
    top = ET.SubElement(
        g,
        "text",
        {"x": str(CARD_W / 2), "y": "24", "text-anchor": "middle", "fill": colour,
         "style": f"{font};font-size:{size}px"},
    )  # fmt: skip
    top.text = rank
    if sym:
        s = ET.SubElement(
            g,
            "text",
            {"x": str(CARD_W / 2), "y": "52", "text-anchor": "middle", "fill": colour,
             "style": f"{font};font-size:22px"},
        )  # fmt: skip
        s.text = sym
    else:
        t = ET.SubElement(
            g,
            "text",
            {"x": str(CARD_W / 2), "y": "50", "text-anchor": "middle", "fill": colour,
             "style": f"{font};font-size:10px"},
        )  # fmt: skip
        t.text = "tarok"
    ET.SubElement(g, "title").text = token


def card_svg(
    token: str, *, greyed: bool = False, highlight: bool = False, scale: float = 1.0
) -> str:
    """One card as an SVG document."""
    root = _root(CARD_W, CARD_H, scale=scale, title=token)
    _draw_card(root, token, 0, 0, greyed=greyed, highlight=highlight)
    return ET.tostring(root, encoding="unicode")


def cards_svg(
    tokens: Sequence[str],
    *,
    greyed: Collection[str] = (),
    highlight: Collection[str] = (),
    captions: Sequence[str] | None = None,
    scale: float = 1.0,
    title: str | None = None,
) -> str:
    """A row of cards as one SVG document.

    ``greyed`` cards are drawn faded (already played), ``highlight`` cards with a red border
    (an offending card). ``captions`` (same length as ``tokens``) are written under each card
    (cut to :data:`CAPTION_CHARS`), e.g. who played it in a trick. An empty row draws a dashed placeholder.
    """
    n = len(tokens)
    cap_h = 16 if captions else 0
    width = max(n, 1) * (CARD_W + GAP) + GAP
    height = CARD_H + 2 * GAP + cap_h
    root = _root(width, height, scale=scale, title=title or " ".join(tokens) or "no cards")
    if n == 0:
        ET.SubElement(
            root,
            "rect",
            {"x": str(GAP), "y": str(GAP), "width": str(CARD_W), "height": str(CARD_H),
             "rx": "5", "fill": "none", "stroke": "#bdbdbd", "stroke-dasharray": "4 3"},
        )  # fmt: skip
    greyed_set, high_set = set(greyed), set(highlight)
    for i, tok in enumerate(tokens):
        x = GAP + i * (CARD_W + GAP)
        _draw_card(root, tok, x, GAP, greyed=tok in greyed_set, highlight=tok in high_set)
        if captions:
            cap = ET.SubElement(
                root,
                "text",
                {"x": str(x + CARD_W / 2), "y": str(GAP + CARD_H + 13), "text-anchor": "middle",
                 "style": "font-family:DejaVu Sans,Arial,sans-serif;font-size:10px",
                 "fill": "#424242"},
            )  # fmt: skip
            cap.text = captions[i][:CAPTION_CHARS]
    return ET.tostring(root, encoding="unicode")
