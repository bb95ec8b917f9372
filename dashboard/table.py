"""The replay viewer's card table: the position at one step as seats around a table (no
Streamlit here).

:func:`position` reads one step of a :class:`~dashboard.view_model.HandView` into a
:class:`Position`: each seat with its name, its roles in this hand (declarer, partner,
defender, dealer; for Royal Tarock the pair and the pair's part, attackers or defenders), the
cards it still holds; the trick in the centre with who led it and who is winning it; the talon
and the discards; at an illegal action the offending card and the card(s) the rules allowed
instead. :func:`table_html` draws it as one HTML block whose cards are the one card drawing
(:mod:`tarock_logs.report.cards_svg`, shared with the dossier), built with ElementTree so that
every name from a log is escaped by construction; the page shows it with ``st.html``.

Seats sit in playing order around the table, counter-clockwise as the games are played: the
first seat (or the seat whose view is shown) at the bottom, the next one on the right, then
across, then on the left; a table of five puts two seats across. The seats at the bottom and
across take the table's whole width. The stylesheet (:data:`TABLE_CSS`) turns the table into
one column on a narrow (phone) screen: the trick first, then the seats, the cards smaller.

A hand is *fanned*: each card covers the next one's right part by at most
:data:`~tarock_logs.report.cards_svg.FAN_OVERLAP` of its width (:data:`FAN_MARGIN_PX` at each
drawn size), so the index in a card's top left corner (a tarok's numeral, a suit card's rank
and suit) is never covered; a hand too wide for its box wraps into a second row.

Where the card-play analysis values the card just played, the value of every legal
alternative is written under that card in the hand and the played card's value under it in
the trick (framed); the best cards are starred.

*Played cards leave the hand*: a seat shows only what it still holds, and a legend under the
table says so, with the rank letters (``K`` king, ``Q`` queen, ``N`` knight, ``J`` jack and,
in Zwanzigerrufen, ``G`` the Glatze) and the marks (red: the illegal card; dashed green: what
the rules allowed; gold: the card winning the trick).
"""

from __future__ import annotations

import base64
import functools
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.report import text
from tarock_logs.report.cards_svg import CARD_W, FAN_OVERLAP, card_element
from tarock_logs.report.i18n import t
from tarock_logs.rules import get_engine

__all__ = [
    "CARD_PX",
    "FAN_MARGIN_PX",
    "TABLE_CSS",
    "Position",
    "SeatView",
    "TrickCard",
    "legend_text",
    "table_html",
    "thirds_text",
    "winning_seat",
]


@dataclass(frozen=True)
class SeatView:
    """One seat at the table at one step."""

    seat: int
    name: str
    #: the seat's roles in this hand, already worded in the page's language
    roles: tuple[str, ...]
    #: the cards the seat still holds (played cards have left the hand)
    held: tuple[str, ...]
    to_move: bool = False
    #: the dealer at a table of five, who is dealt no cards
    sitting_out: bool = False
    #: another seat's hand in one seat's view: only the number of cards is shown
    hidden: bool = False
    #: a short value under some of the held cards (card → text), e.g. what each card would
    #: score if played now: the place for the solver's per-card values (the analysis of a
    #: position); empty, nothing is drawn
    values: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TrickCard:
    """A card of the trick in the centre: who played it and whether it is winning so far."""

    seat: int
    card: str
    led: bool = False
    winning: bool = False
    #: the analysis' value of this card, the card just played (framed under it)
    value: str | None = None


@dataclass(frozen=True)
class Position:
    """What the card table shows at one step (see the module docstring)."""

    game: str
    seats: tuple[SeatView, ...]
    trick: tuple[TrickCard, ...]
    #: the number of the trick in the centre (1-based), None before the play
    trick_no: int | None
    #: the trick in the centre is complete (shown with its winner until the next lead)
    trick_done: bool
    talon_groups: tuple[tuple[str, ...], ...] = ()
    talon_taken: frozenset[str] = frozenset()
    discards: tuple[str, ...] = ()
    #: the card of the illegal action at this step (red), and the cards the rules allowed
    offending: frozenset[str] = frozenset()
    allowed: frozenset[str] = frozenset()
    #: the seat whose view is shown (the other hands hidden), None for all hands open
    viewer: int | None = None
    #: the best cards by the analysis of the card just played (starred under the card)
    best: frozenset[str] = frozenset()
    extra: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------- pure helpers


def thirds_text(thirds: int | float | None) -> str:
    """Card points counted in thirds of a point, as people write them: ``16`` → ``5⅓``,
    ``17`` → ``5⅔``, ``15`` → ``5``; an empty string for no value."""
    if thirds is None:
        return ""
    n = int(thirds)
    whole, rest = divmod(abs(n), 3)
    sign = "-" if n < 0 else ""
    frac = {0: "", 1: "⅓", 2: "⅔"}[rest]
    if whole == 0 and frac:
        return sign + frac
    return f"{sign}{whole}{frac}"


def winning_seat(game: str, cards: Sequence[tuple[int, str]], contract: str | None) -> int | None:
    """The seat whose card wins the (possibly unfinished) trick ``cards`` so far, by the game's
    own trick rule (the engine's ``trick_winner``: Slovenian *barvni valat*, Zwanzigerrufen's
    *Farbensolo* and *Märchenstich*, Royal Tarock's plain rule); None for no card or an
    unknown game."""
    engine = get_engine(game)
    return engine.trick_winner(cards, contract) if engine is not None else None


def legend_text(game: str, lang: str) -> str:
    """The one legend of the card faces and marks, in ``lang`` (the ranks in the game's
    terms)."""
    ranks = [
        t("K king", lang),
        t("Q queen", lang),
        t("N knight", lang),
        t("J jack", lang),
    ]
    engine = get_engine(game)
    if engine is not None and any(tok[1:] == "G" for tok in engine.pack()):
        ranks.append(t("G Glatze (the pip card)", lang))
    trula = ", ".join(
        f"{text.tarok_numeral(n)} {text.trula_card_name(tok, game)}"
        for tok, n in (("T22", 22), ("T21", 21), ("T1", 1))
    )
    return " · ".join(
        [
            ", ".join(ranks),
            t("taroks by Roman numeral ({trula})", lang, trula=trula),
            t("played cards leave the hand", lang),
        ]
    )


# --------------------------------------------------------------------------- HTML

#: the table's stylesheet: a 3 × 3 grid of seats around the centre; one column on a phone
#: the drawn width of a card in px: hands and trick, the talon and discards; on a phone
CARD_PX = {"hand": 44, "side": 33, "phone_hand": 36, "phone_side": 30}
#: the negative right margin of a fanned card at each drawn size: the card's
#: :data:`~tarock_logs.report.cards_svg.FAN_OVERLAP` scaled, rounded down (never more)
FAN_MARGIN_PX = {k: int(FAN_OVERLAP * w / CARD_W) for k, w in CARD_PX.items()}

TABLE_CSS = """
.tl-table{{display:grid;gap:6px;grid-template-columns:1fr minmax(200px,1.1fr) 1.2fr;
  grid-template-areas:"top top side" "left centre right" "bottom bottom bottom";
  background:#0b5d3b;border-radius:14px;padding:6px;color:#fff;
  font-family:"DejaVu Sans",Arial,sans-serif}}
.tl-table.tl-n5{{grid-template-areas:"tl side tr" "left centre right" "bottom bottom bottom"}}
.tl-table.tl-n3{{grid-template-areas:"side side side" "left centre right"
  "bottom bottom bottom"}}
.tl-seat{{background:rgba(255,255,255,.08);border-radius:10px;padding:3px 8px;min-width:0}}
.tl-seat.tl-move{{outline:3px solid #ffd54f}}
.tl-seat.tl-out{{opacity:.6}}
.tl-head{{display:flex;flex-wrap:wrap;column-gap:8px;align-items:baseline;margin-bottom:3px}}
.tl-name{{font-weight:bold;font-size:15px;overflow-wrap:anywhere}}
.tl-roles{{font-size:12px;color:#e0f2e9}}
.tl-cards{{display:flex;flex-wrap:wrap;row-gap:4px;align-items:flex-start}}
.tl-cards img{{filter:drop-shadow(0 1px 1px rgba(0,0,0,.35));display:block}}
.tl-seat .tl-cards{{padding-right:{hand}px}}
.tl-cards>*{{margin-right:-{hand}px}}
.tl-cards>*:last-child{{margin-right:0}}
.tl-cards .tl-play{{align-items:flex-start}}
.tl-note{{font-size:12px;color:#e0f2e9}}
.tl-centre{{grid-area:centre;background:rgba(0,0,0,.18);border-radius:10px;padding:6px 8px;
  display:flex;flex-direction:column;align-items:center;gap:6px}}
.tl-trick{{display:flex;flex-wrap:wrap;gap:6px;justify-content:center}}
.tl-trick .tl-play,.tl-trick .tl-play span{{max-width:56px}}
.tl-trick .tl-play span{{white-space:normal;text-align:center;line-height:1.15;
  display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow-wrap:anywhere}}
.tl-play{{display:flex;flex-direction:column;align-items:center;font-size:11px;max-width:72px}}
.tl-play span{{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:72px}}
.tl-side{{grid-area:side;display:flex;flex-wrap:wrap;gap:4px 10px;justify-content:center;
  align-items:flex-start;background:rgba(0,0,0,.18);border-radius:10px;padding:4px 8px}}
.tl-side>div>.tl-note{{width:0;min-width:100%}}
.tl-centre .tl-a-rest{{align-self:stretch;display:flex;flex-wrap:wrap;column-gap:8px;
  align-items:baseline;padding:2px 8px;margin-top:auto}}
.tl-centre .tl-a-rest .tl-head{{margin-bottom:0}}
.tl-centre .tl-a-rest .tl-name{{font-size:13px}}
.tl-seat .tl-short{{display:none}}
.tl-side:empty{{display:none}}
.tl-side>div{{min-width:0}}
.tl-side .tl-note{{font-size:11px;line-height:1.2;margin-bottom:2px}}
.tl-groups{{display:flex;flex-wrap:wrap;gap:8px}}
.tl-side img{{width:{side_w}px;height:auto}}
.tl-side .tl-cards>*{{margin-right:-{side}px}}
.tl-side .tl-cards>*:last-child{{margin-right:0}}
.tl-a-bottom{{grid-area:bottom}}.tl-a-top{{grid-area:top}}.tl-a-left{{grid-area:left}}
.tl-a-right{{grid-area:right}}.tl-a-tl{{grid-area:tl}}.tl-a-tr{{grid-area:tr}}
.tl-legend{{font-size:12px;color:#555;margin:4px 2px 0}}
.tl-value{{font-size:11px;font-weight:bold;color:#ffd54f;padding:0 2px}}
.tl-value.tl-played{{outline:1px solid #ffd54f;border-radius:3px}}
@media (max-width:700px){{
  .tl-table,.tl-table.tl-n5,.tl-table.tl-n3{{grid-template-columns:minmax(0,1fr);
    grid-template-areas:none;padding:6px;gap:5px}}
  .tl-table>*{{grid-area:auto !important}}
  .tl-centre,.tl-side{{order:-1}}
  .tl-cards img{{width:{phone_hand_w}px;height:auto}}
  .tl-seat .tl-cards{{padding-right:{phone_hand}px}}
  .tl-cards>*{{margin-right:-{phone_hand}px}}
  .tl-side img{{width:{phone_side_w}px}}
  .tl-side .tl-cards>*{{margin-right:-{phone_side}px}}
  .tl-trick img{{width:40px;height:auto}}
  .tl-trick .tl-play,.tl-trick .tl-play span{{max-width:80px}}
  .tl-seat{{padding:3px 8px}}
  .tl-seat.tl-out{{display:flex;flex-wrap:wrap;column-gap:8px;align-items:baseline}}
  .tl-side>div>.tl-note{{width:auto;min-width:0}}
  .tl-centre .tl-a-rest{{padding:1px 8px;margin-top:0}}
  .tl-seat .tl-short{{display:block}}
  .tl-seat .tl-long{{display:none}}
  .tl-head{{margin-bottom:2px}}
  .tl-centre{{padding:4px 8px;gap:3px;min-width:0}}
  .tl-centre>.tl-note{{text-align:center}}
}}
""".format(
    **FAN_MARGIN_PX,
    side_w=CARD_PX["side"],
    phone_hand_w=CARD_PX["phone_hand"],
    phone_side_w=CARD_PX["phone_side"],
)

#: where the seats sit, in playing order from the bottom (counter-clockwise)
_PLACES = {
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
    5: ("bottom", "right", "tr", "tl", "left"),
}


@functools.lru_cache(maxsize=4096)
def _card_uri(
    card: str, game: str, mark: str | None, highlight: bool, greyed: bool, scale: float
) -> tuple[str, str, str]:
    """The data URI, width and height of one drawn card face (the same card is drawn the same
    way every time: kept, as a replay step redraws some fifty of them)."""
    svg = card_element(card, game=game, mark=mark, highlight=highlight, greyed=greyed, scale=scale)
    uri = "data:image/svg+xml;base64," + base64.b64encode(
        ET.tostring(svg, encoding="utf-8")
    ).decode("ascii")
    return uri, svg.get("width", "44"), svg.get("height", "64")


def _card(
    card: str,
    pos: Position,
    *,
    label: str,
    mark: str | None = None,
    highlight: bool = False,
    greyed: bool = False,
    scale: float = 1.0,
) -> ET.Element:
    """One card face of the one card drawing as an ``<img>`` (an SVG data URI: the page's HTML
    is sanitised to HTML elements, which keeps images but not inline SVG). ``data-card`` and
    ``data-mark`` (``illegal``, ``allowed``, ``winning``) say what it shows."""
    uri, width, height = _card_uri(card, pos.game, mark, highlight, greyed, scale)
    attrs = {
        "src": uri,
        "alt": label,
        "title": label,
        "width": width,
        "height": height,
        "data-card": card,
    }
    if highlight or mark:
        attrs["data-mark"] = "illegal" if highlight else str(mark)
    return ET.Element("img", attrs)


def _div(parent: ET.Element, cls: str, text_: str | None = None) -> ET.Element:
    el = ET.SubElement(parent, "div", {"class": cls})
    if text_ is not None:
        el.text = text_
    return el


def _seat_box(parent: ET.Element, sv: SeatView, pos: Position, place: str, lang: str) -> None:
    cls = f"tl-seat tl-a-{place}"
    if sv.to_move:
        cls += " tl-move"
    if sv.sitting_out:
        cls += " tl-out"
    box = ET.SubElement(parent, "div", {"class": cls, "data-seat": str(sv.seat)})
    head = _div(box, "tl-head")
    _div(head, "tl-name", sv.name)
    roles = list(sv.roles)
    if sv.to_move:
        roles.append(t("to move", lang))
    if roles:
        _div(head, "tl-roles", " · ".join(roles))
    if sv.sitting_out:  # said short beside the roles on a phone, in full below them elsewhere
        _div(head, "tl-roles tl-short", t("sits out", lang))
        _div(box, "tl-note tl-long", t("sits out this hand (no cards)", lang))
        return
    if sv.hidden:
        _div(box, "tl-note", t("{n} cards, hidden", lang, n=len(sv.held)))
        return
    if not sv.held:
        _div(box, "tl-note", t("no cards left", lang))
        return
    row = _div(box, "tl-cards")
    for card in sv.held:
        mark = "allowed" if card in pos.allowed else None
        label = text.card_text(card, pos.game)
        if mark:
            label += " — " + t("allowed by the rules", lang)
        img = _card(card, pos, label=label, mark=mark)
        value = sv.values.get(card)
        if value is None:
            row.append(img)
            continue
        cell = _div(row, "tl-play")
        cell.append(img)
        attrs = {"class": "tl-value", "data-value": card}
        if card in pos.best:
            attrs["data-best"] = "1"
            value += "★"
        ET.SubElement(cell, "span", attrs).text = value


def _centre(parent: ET.Element, pos: Position, names: dict[int, str], lang: str) -> ET.Element:
    box = _div(parent, "tl-centre")
    if pos.trick:
        head = t("Trick {n}", lang, n=pos.trick_no) if pos.trick_no else t("The trick", lang)
        leader = next((c.seat for c in pos.trick if c.led), pos.trick[0].seat)
        winner = next((c.seat for c in pos.trick if c.winning), None)
        bits = [head, t("led by {name}", lang, name=names.get(leader, "?"))]
        if winner is not None and pos.trick_done:
            bits.append(t("won by {name}", lang, name=names.get(winner, "?")))
        elif winner is not None:
            bits.append(t("{name} is winning", lang, name=names.get(winner, "?")))
        _div(box, "tl-note", " · ".join(bits))
        row = _div(box, "tl-trick")
        for c in pos.trick:
            cell = _div(row, "tl-play")
            mark = "winning" if c.winning else None
            label = f"{names.get(c.seat, '?')}: {text.card_text(c.card, pos.game)}"
            if c.card in pos.offending:
                label += " — " + t("illegal", lang)
            cell.append(
                _card(c.card, pos, label=label, mark=mark, highlight=c.card in pos.offending)
            )
            ET.SubElement(cell, "span").text = names.get(c.seat, "?")
            if c.value is not None:
                attrs = {"class": "tl-value tl-played", "data-value": c.card, "data-played": "1"}
                if c.card in pos.best:
                    attrs["data-best"] = "1"
                star = "★" if c.card in pos.best else ""
                ET.SubElement(cell, "span", attrs).text = c.value + star
    else:
        _div(box, "tl-note", t("no trick on the table", lang))
    return box


def _side(parent: ET.Element, pos: Position, lang: str) -> ET.Element:
    """The talon (its groups apart) and the discards: beside the seat across the table."""
    side = _div(parent, "tl-side")
    if pos.talon_groups:
        tb = _div(side, "")
        label = t("Talon", lang)
        if pos.talon_taken:
            label += " (" + t("faded: the group taken", lang) + ")"
        _div(tb, "tl-note", label)
        groups = _div(tb, "tl-groups")
        for g in pos.talon_groups:
            row = _div(groups, "tl-cards")
            for card in g:
                label = text.card_text(card, pos.game)
                row.append(
                    _card(card, pos, label=label, greyed=card in pos.talon_taken, scale=0.75)
                )
    if pos.discards:
        db = _div(side, "")
        _div(db, "tl-note", t("Discards", lang))
        row = _div(db, "tl-cards")
        for card in pos.discards:
            label = text.card_text(card, pos.game)
            row.append(_card(card, pos, label=label, highlight=card in pos.offending, scale=0.75))
    return side


def table_html(pos: Position, lang: str = "en", player_view: bool = False) -> str:
    """The card table of ``pos`` as one HTML block (a ``<style>`` and a ``<div>``), every text
    escaped by ElementTree. ``player_view``: the values under the cards are means on what the
    player knew (the legend says so), not values with all cards visible."""
    n = len(pos.seats)
    # the viewer's seat (or the first) at the bottom, the others in playing order after it
    first = pos.viewer if pos.viewer is not None else 0
    order = [(first + i) % n for i in range(n)]
    # a seat dealt no cards (the dealer at a table of five) takes no place at the table: a
    # line under the trick, and the four who play sit as at a table of four
    resting = [s for s in order if pos.seats[s].sitting_out]
    seated = [s for s in order if not pos.seats[s].sitting_out]
    k = len(seated)
    places = _PLACES.get(k) or tuple(["bottom", "right", "top", "left", "tl", "tr"][:k])
    names = {sv.seat: sv.name for sv in pos.seats}
    root = ET.Element("div", {"class": "tl-wrap"})
    table = ET.SubElement(
        root,
        "div",
        {"class": f"tl-table tl-n{k}", "role": "group", "aria-label": t("Card table", lang)},
    )
    centre = _centre(table, pos, names, lang)
    _side(table, pos, lang)
    for seat in resting:
        _seat_box(centre, pos.seats[seat], pos, "rest", lang)
    for seat, place in zip(seated, places, strict=False):
        _seat_box(table, pos.seats[seat], pos, place, lang)
    legend = legend_text(pos.game, lang)
    if any(sv.values for sv in pos.seats) or any(c.value is not None for c in pos.trick):
        legend += " · " + (
            t(
                "under a card: its mean value on what the player knew (★ best; framed: the "
                "card played)",
                lang,
            )
            if player_view
            else t(
                "under a card: its value with all cards visible (★ best; framed: the card played)",
                lang,
            )
        )
    _div(root, "tl-legend", legend)
    style = ET.Element("style")
    style.text = TABLE_CSS
    return ET.tostring(style, encoding="unicode", method="html") + ET.tostring(
        root, encoding="unicode", method="html"
    )


# --------------------------------------------------------------------------- the model


def _roles(view: Any, seat: int, state: dict[str, Any], lang: str) -> tuple[str, ...]:
    """The roles of ``seat`` in the hand at this step, worded in ``lang``."""
    out: list[str] = []
    game = view.game
    pairs = state.get("pairs") if isinstance(state.get("pairs"), dict) else None
    engine = get_engine(game)
    seating = getattr(view, "seating", None) or []
    if engine is not None and "fixed_pairs" in engine.features and seat < len(seating):
        pair = seating[seat].get("pair")
        part = seating[seat].get("role")
        if pair:
            out.append(t("pair {pair}", lang, pair=pair))
        if part:
            out.append(engine.player_role_names.get(part, part))
    if pairs:
        if seat in (pairs.get("attackers") or ()):
            out.append(t("attackers", lang))
        elif seat in (pairs.get("defenders") or ()):
            out.append(t("defenders", lang))
    else:
        declarer = state.get("declarer", view.declarer)
        partner = state.get("partner")
        deal = getattr(view, "deal", None) or []
        if seat < len(deal) and not deal[seat]:
            pass  # dealt no cards: no side (the seat's box says it sits out)
        elif declarer is not None:
            if seat == declarer:
                out.append(text.role_name("declarer", lang=lang))
            elif partner is not None and seat == partner:
                out.append(text.role_name("partner", lang=lang))
            elif state.get("phase") not in ("bidding", "auction"):
                out.append(text.role_name("defender", lang=lang))
    if seat == view.dealer:
        out.append(text.role_name("dealer", lang=lang))
    return tuple(out)


def position(
    view: Any,
    step: int,
    *,
    players: Sequence[str],
    lang: str = "en",
    viewer: int | None = None,
    allowed: Sequence[str] = (),
    card_values: Mapping[int, Mapping[str, str]] | None = None,
    trick_values: Mapping[str, str] | None = None,
    best: Sequence[str] = (),
) -> Position:
    """The card table at ``step`` of the hand ``view`` (a
    :class:`~dashboard.view_model.HandView`); ``players`` the names to show by seat (masked or
    not), ``viewer`` a seat whose view is shown (the other hands hidden), ``allowed`` the cards
    the rules allowed in place of this step's illegal card, ``card_values`` a short text to
    draw under held cards, by seat and card (the solver's per-card values, when an analysis
    gives them), ``trick_values`` the same under cards of the trick (the card just played),
    ``best`` the cards the analysis finds best (starred)."""
    cur = view.steps[step]
    state: dict[str, Any] = cur.view or {}
    n = len(players)
    hands = state.get("hands") or view.deal
    to_move = state.get("to_move")
    seats = []
    for s in range(n):
        held = tuple(hands[s]) if s < len(hands) else ()
        dealt = s < len(view.deal) and bool(view.deal[s])
        seats.append(
            SeatView(
                seat=s,
                name=players[s],
                roles=_roles(view, s, state, lang),
                held=held,
                to_move=to_move == s,
                sitting_out=not dealt,
                hidden=viewer is not None and s != viewer and dealt,
                values=dict((card_values or {}).get(s, {})),
            )
        )
    trick = list(state.get("trick") or [])
    tricks = state.get("tricks") or []
    done = False
    if not trick and tricks and cur.action is not None and cur.action.type == "play":
        trick = list(tricks[-1].get("cards") or [])  # the trick just completed
        done = True
    trick_no = (len(tricks) if done else len(tricks) + 1) if trick else None
    contract = state.get("contract", view.contract)
    win = tricks[-1].get("winner") if done else winning_seat(view.game, trick, contract)
    cards = tuple(
        TrickCard(seat=s, card=c, led=i == 0, winning=s == win, value=(trick_values or {}).get(c))
        for i, (s, c) in enumerate(trick)
    )
    offending = frozenset(v.card for v in cur.violations if v.card)
    groups = state.get("talon_groups") or ([state["talon"]] if state.get("talon") else [])
    discards = state.get("discards") or ()
    declarer = state.get("declarer", view.declarer)
    if viewer is not None and viewer != declarer:
        discards = ()  # another seat's discards stay hidden in one seat's view
    return Position(
        game=view.game,
        seats=tuple(seats),
        trick=cards,
        trick_no=trick_no,
        trick_done=done,
        talon_groups=tuple(tuple(g) for g in groups),
        talon_taken=frozenset(state.get("talon_taken") or ()),
        discards=tuple(discards),
        offending=offending,
        allowed=frozenset(allowed) - offending,
        viewer=viewer,
        best=frozenset(best),
    )
