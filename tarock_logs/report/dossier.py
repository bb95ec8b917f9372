"""The dispute dossier: one hand, everything a referee needs, on one self-contained HTML page.

The page holds the event, the players and their seats, the deal (every hand and the talon,
the six cards dealt face down apart from the hands), the bidding, the king call, the talon
exchange and discards, the announcements (bonuses declared in advance) and kontras (doublings
of the game or of an announced bonus), every trick with its leader, cards, winner and card
points, the verdict on every action with the rule it cites (offending actions highlighted), the
recorded and the recomputed score item by item with the differences highlighted, the ruleset
and its options, and a footer with the tool version, the hand's content hash (``hand_id``, see
:mod:`tarock_logs.verdict.audit`) and a signature line for the referee.

Self-contained: inline CSS, cards as inline SVG, no script, no link, no network; it opens from
disk and prints on A4. The whole document is built with :mod:`xml.etree.ElementTree`, so every
text (player names, notes: user input) is escaped by construction.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tarock_logs import __version__
from tarock_logs.cards import CARDS, TAROK
from tarock_logs.log import models as m
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import GameEngine, Violation
from tarock_logs.verdict.audit import HandAudit, audit_hand
from tarock_logs.verdict.replay import HandReplay, replay_in_session

__all__ = ["Dossier", "DossierError", "build_dossier", "find_hand", "render_dossier"]


class DossierError(LookupError):
    """The hand asked for is not in the session."""


# --------------------------------------------------------------------------- cards as SVG

_SUIT_SYMBOL = {"H": "\u2665", "D": "\u2666", "S": "\u2660", "C": "\u2663"}
_SUIT_COLOUR = {"H": "#b71c1c", "D": "#b71c1c", "S": "#212121", "C": "#212121", TAROK: "#1a237e"}
_ROMAN = (
    "", "I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
    "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "Š",
)  # fmt: skip
CARD_W, CARD_H = 34, 48


def card_svg(parent: ET.Element, token: str, *, highlight: bool = False) -> ET.Element:
    """Append one card as an inline ``<svg>`` to ``parent`` (no namespace URL needed in HTML)."""
    card = CARDS.get(token)
    svg = ET.SubElement(
        parent,
        "svg",
        {
            "class": "card" + (" bad" if highlight else ""),
            "viewBox": f"0 0 {CARD_W} {CARD_H}",
            "width": str(CARD_W),
            "height": str(CARD_H),
            "role": "img",
            "aria-label": token,
        },
    )
    ET.SubElement(svg, "title").text = token
    tarok = card is not None and card.is_tarok
    ET.SubElement(
        svg,
        "rect",
        {
            "x": "1", "y": "1", "width": str(CARD_W - 2), "height": str(CARD_H - 2), "rx": "4",
            "fill": "#e8eaf6" if tarok else "#ffffff",
            "stroke": "#d50000" if highlight else "#555555",
            "stroke-width": "3" if highlight else "1",
        },
    )  # fmt: skip
    if card is None:
        rank, sym, colour = token, "", "#000000"
    elif tarok:
        rank, sym, colour = _ROMAN[card.strength], "T", _SUIT_COLOUR[TAROK]
    else:
        rank, sym, colour = card.rank, _SUIT_SYMBOL[card.suit], _SUIT_COLOUR[card.suit]
    size = "15" if len(rank) <= 2 else ("12" if len(rank) <= 3 else "10")
    ET.SubElement(
        svg, "text",
        {"x": str(CARD_W // 2), "y": "22", "text-anchor": "middle", "font-size": size,
         "font-weight": "bold", "fill": colour, "font-family": "sans-serif"},
    ).text = rank  # fmt: skip
    ET.SubElement(
        svg, "text",
        {"x": str(CARD_W // 2), "y": "41", "text-anchor": "middle", "font-size": "14",
         "fill": colour, "font-family": "sans-serif"},
    ).text = sym  # fmt: skip
    return svg


def _cards(parent: ET.Element, tokens: Sequence[str], bad: Sequence[str] = ()) -> ET.Element:
    span = ET.SubElement(parent, "span", {"class": "cards"})
    for t in tokens:
        card_svg(span, t, highlight=t in bad)
    if not tokens:
        span.text = "—"
    return span


# --------------------------------------------------------------------------- html helpers

_CSS = """
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font: 10.5pt/1.35 system-ui, sans-serif; color: #111; margin: 0 auto; max-width: 190mm;
       -webkit-print-color-adjust: exact; print-color-adjust: exact; }
h1 { font-size: 17pt; margin: 0 0 2mm; }
h2 { font-size: 12.5pt; margin: 5mm 0 2mm; border-bottom: 1px solid #999; }
table { border-collapse: collapse; width: 100%; margin: 1mm 0 2mm; }
th, td { border: 1px solid #bbb; padding: 1mm 1.5mm; text-align: left; vertical-align: middle; }
th { background: #eee; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.bad td { background: #ffebee; }
tr.warn td { background: #fff8e1; }
td.diff { background: #ffcdd2; font-weight: bold; }
.ok { color: #1b5e20; }
.badtxt { color: #b71c1c; font-weight: bold; }
.cards { display: inline-flex; flex-wrap: wrap; gap: 2px; align-items: center; }
td.trick { white-space: nowrap; }
td.trick .cards { flex-wrap: nowrap; margin-right: 3px; }
.opts { font-size: 8.5pt; columns: 2; margin: 1mm 0; }
svg.card { display: inline-block; }
.meta td:first-child { width: 32%; font-weight: bold; }
.verdict { font-size: 12pt; padding: 2mm; border: 2px solid #999; margin: 2mm 0; }
.verdict.illegal { border-color: #b71c1c; }
.small { font-size: 8.5pt; color: #444; }
.sign { margin-top: 10mm; display: flex; gap: 10mm; }
.sign div { flex: 1; border-top: 1px solid #000; padding-top: 1mm; }
tr, .verdict, .sign { page-break-inside: avoid; break-inside: avoid; }
h2, h3 { page-break-after: avoid; break-after: avoid; }
footer { margin-top: 6mm; border-top: 1px solid #999; padding-top: 2mm; }
tbody.actions td { padding: 0.3mm 1.2mm; font-size: 9pt; }
code { font-family: ui-monospace, monospace; font-size: 9pt; word-break: break-all; }
"""


def _el(parent: ET.Element, tag: str, text: Any = None, **attrs: str) -> ET.Element:
    e = ET.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items()})
    if text is not None:
        e.text = str(text)
    return e


def _table(parent: ET.Element, headers: Sequence[str], num: Sequence[int] = ()) -> ET.Element:
    t = _el(parent, "table", class_="meta") if not any(headers) else _el(parent, "table")
    if any(headers):
        tr = _el(_el(t, "thead"), "tr")
        for i, h in enumerate(headers):
            _el(tr, "th", h, class_="num" if i in num else "")
    return _el(t, "tbody")


def _row(
    tbody: ET.Element, cells: Sequence[Any], *, cls: str = "", num: Sequence[int] = ()
) -> ET.Element:
    tr = _el(tbody, "tr", class_=cls) if cls else _el(tbody, "tr")
    for i, c in enumerate(cells):
        if isinstance(c, ET.Element):
            td = _el(tr, "td")
            td.append(c)
        else:
            _el(tr, "td", "—" if c is None else c, class_="num" if i in num else "")
    return tr


def _fmt_num(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:+d}" if v else "0"
    return str(v)


# --------------------------------------------------------------------------- describing


def _player(session: m.Session, seat: int | None) -> str:
    if seat is None:
        return "—"
    if not 0 <= seat < len(session.players):
        return f"seat {seat} (not at the table)"
    p = session.players[seat]
    return f"{p.name} ({p.id})" if p.name else p.id


def _short(session: m.Session, seat: Any, roles: Mapping[int, str] | None = None) -> str:
    """``P1 Ana``: the position in this hand and the player's name (or id)."""
    if not isinstance(seat, int) or not 0 <= seat < len(session.players):
        return "—" if seat is None else str(seat)
    p = session.players[seat]
    label = p.name or p.id
    pos = roles.get(seat) if roles else None
    return f"{pos} {label}" if pos else label


def _thirds(v: Any) -> str:
    """Card points given in thirds of a point, as a mixed number (149 → 49⅔)."""
    if not isinstance(v, int):
        return _plain(v)
    whole, rem = divmod(v, 3)
    return f"{whole}{['', '⅓', '⅔'][rem]}" if whole or not rem else ["", "⅓", "⅔"][rem]


def _role_names(session: m.Session, dealer: int) -> dict[int, str]:
    """P1 … P4 by seat (P1 the forehand, first active seat after the dealer)."""
    n = len(session.players)
    active = list(((dealer + k) % n for k in range(1, n + 1)))
    if n == 5:
        active = [s for s in active if s != dealer]
    return {s: f"P{i}" for i, s in enumerate(active, start=1)}


def describe_action(a: Any) -> str:
    """A short English sentence for a log action ("bids three", "plays SK")."""
    t = a.type
    if t == "bid":
        return f"bids {a.contract}"
    if t == "pass":
        return "passes"
    if t == "call":
        return f"calls {a.card}"
    if t == "talon":
        return f"takes talon group {a.group}"
    if t == "discard":
        s = f"discards {' '.join(a.cards)}"
        return s + (f" (shows {' '.join(a.shown)})" if a.shown else "")
    if t == "announce":
        s = f"announces {a.bonus}"
        if a.side:
            s += f" ({a.side})"
        if a.params:
            s += " " + ", ".join(f"{k}={v}" for k, v in sorted(a.params.items()))
        return s
    if t == "kontra":
        names = {1: "kontra", 2: "re", 3: "sub", 4: "mord"}
        return f"{names.get(a.level, 'kontra')} on {a.target}"
    if t == "lezim":
        return "says ležim (discards and announcements complete)"
    if t == "play":
        return f"plays {a.card}"
    if t == "claim":
        return f"claims {a.claim}" + (f" {' '.join(a.cards)}" if a.cards else "")
    if t == "meld":
        return f"declares {a.meld}"
    if t == "throw_in":
        return "throws the deal in"
    return str(t)


_PHASE = {
    "bid": "bidding", "pass": "bidding", "call": "king call", "talon": "talon", "discard": "talon",
    "announce": "announcements", "kontra": "announcements", "lezim": "announcements",
    "play": "play", "claim": "play", "meld": "declarations", "throw_in": "deal",
}  # fmt: skip


def _phases(actions: Sequence[Any]) -> list[str]:
    """The phase of each action; ``pass`` after the bidding counts as an announcement-round ok."""
    out: list[str] = []
    seen_after_bidding = False
    for a in actions:
        ph = _PHASE.get(a.type, a.type)
        if a.type in ("call", "talon", "discard", "announce", "kontra", "lezim", "play"):
            seen_after_bidding = True
        if a.type == "pass" and seen_after_bidding:
            ph = "announcements"
        out.append(ph)
    return out


# --------------------------------------------------------------------------- the page


def find_hand(session: m.Session, number: int) -> int:
    """The 0-based index of the hand numbered ``number`` in ``session``."""
    for i, h in enumerate(session.hands):
        if h.number == number:
            return i
    nums = ", ".join(str(h.number) for h in session.hands) or "none"
    raise DossierError(f"session {session.id} has no hand {number} (hands: {nums})")


def _final_view(replay: HandReplay) -> Mapping[str, Any]:
    for st in reversed(replay.steps):
        if st.view is not None and "error" not in st.view:
            return st.view
    return {}


def _tricks_from_actions(hand: m.Hand, n_active: int) -> list[dict[str, Any]]:
    """Tricks split from the play actions when no engine view is available (no winner)."""
    out: list[dict[str, Any]] = []
    cur: list[list[Any]] = []
    for a in hand.actions:
        if a.type == "play":
            cur.append([a.seat, a.card])
            if len(cur) == n_active:
                out.append({"leader": cur[0][0], "cards": cur, "winner": None, "points": None})
                cur = []
    if cur:
        out.append({"leader": cur[0][0], "cards": cur, "winner": None, "points": None})
    return out


def render_dossier(
    session: m.Session,
    hand: m.Hand | int,
    *,
    ruleset: str | None = None,
    file: str | None = None,
    engine: GameEngine | None = None,
    generated_at: datetime | None = None,
) -> str:
    """The dossier of one hand of ``session`` as a complete HTML document (a str).

    ``hand`` is the :class:`~tarock_logs.log.models.Hand` or its number (``Hand.number``). The
    whole session is replayed up to and including that hand so that carried state (radelci)
    is right; ``ruleset`` re-scores under another ruleset (what-if).
    """
    return build_dossier(
        session, hand, ruleset=ruleset, file=file, engine=engine, generated_at=generated_at
    ).html


@dataclass(frozen=True, slots=True)
class Dossier:
    """A rendered dossier with the audit record it shows."""

    html: str
    audit: HandAudit


def build_dossier(
    session: m.Session,
    hand: m.Hand | int,
    *,
    ruleset: str | None = None,
    file: str | None = None,
    engine: GameEngine | None = None,
    generated_at: datetime | None = None,
) -> Dossier:
    """Like :func:`render_dossier`, also returning the hand's :class:`HandAudit`."""
    if isinstance(hand, int):
        idx = find_hand(session, hand)
    else:
        idx = next((i for i, h in enumerate(session.hands) if h is hand or h == hand), -1)
        if idx < 0:
            raise DossierError("the hand is not part of this session")
    h = session.hands[idx]
    eng = engine if engine is not None else get_engine(session.game)
    replay = replay_in_session(session, idx, ruleset, engine=eng)
    audit = audit_hand(session, h, replay, file=file, engine=eng, keep_replay=True)
    html = _render(session, h, replay, audit, generated_at or datetime.now(UTC))
    return Dossier(html, audit)


def _render(
    session: m.Session,
    hand: m.Hand,
    replay: HandReplay,
    audit: HandAudit,
    generated_at: datetime,
) -> str:
    n = len(session.players)
    roles = _role_names(session, hand.dealer)
    view = _final_view(replay)
    by_action: dict[int, list[Violation]] = {}
    for v in audit.violations:
        if v.action_index is not None:
            by_action.setdefault(v.action_index, []).append(v)

    html = ET.Element("html", {"lang": "en"})
    head = _el(html, "head")
    _el(head, "meta", charset="utf-8")
    _el(head, "meta", name="viewport", content="width=device-width, initial-scale=1")
    title = f"Dispute dossier: {session.id}, hand {hand.number}"
    _el(head, "title", title)
    _el(head, "style", _CSS)
    body = _el(html, "body")

    # ---- header and verdict
    _el(body, "h1", title)
    n_err = sum(1 for v in audit.violations if v.severity == "error")
    n_warn = len(audit.violations) - n_err
    verdict_div = _el(body, "div", class_="verdict" + ("" if audit.legal else " illegal"))
    parts = []
    if audit.recomputed is None:
        parts.append("NOT VERIFIED: " + "; ".join(audit.unverified))
    else:
        parts.append("All actions legal." if audit.legal else f"{n_err} illegal action(s).")
    if n_warn:
        parts.append(f"{n_warn} warning(s).")
    if audit.recorded is None:
        parts.append("No recorded score.")
    elif audit.recomputed is not None:
        parts.append(
            "Recorded score agrees with the recomputation."
            if not audit.discrepancies
            else f"{len(audit.discrepancies)} score difference(s)."
        )
    verdict_div.text = " ".join(parts)

    # ---- event and ruleset
    sec = _el(body, "section")
    _el(sec, "h2", "Event")
    tb = _table(sec, ["", ""])
    ev = session.event
    meta: list[tuple[str, Any]] = [
        ("Session", session.id),
        ("File", audit.file),
        ("Game", session.game),
        ("Tournament", ev.tournament if ev else None),
        ("Event", ev.name if ev else None),
        ("Date", ev.date if ev else None),
        ("Site", ev.site if ev else None),
        ("Round / table", f"{ev.round or '—'} / {ev.table or '—'}" if ev else None),
        ("Hand", f"{hand.number} (hand {replay.hand_index + 1} of the session)"),
        ("Hand id (source)", hand.id),
    ]
    for k, v in meta:
        if v is not None:
            _row(tb, [k, v])

    sec = _el(body, "section")
    _el(sec, "h2", "Ruleset")
    rs = replay.ruleset
    tb = _table(sec, ["", ""])
    if rs is not None:
        _row(tb, ["Ruleset used", audit.ruleset])
        _row(tb, ["Title", rs.title])
        if (
            rs.id != session.ruleset
            and rs.id not in (session.ruleset,)
            and (session.ruleset not in rs.aliases)
        ):
            _row(tb, ["Ruleset of the log", f"{session.ruleset} (re-scored: what-if)"])
    else:
        _row(tb, ["Ruleset of the log", f"{session.ruleset} (not resolved: no engine)"])
    for k, opt in sorted(session.options.items()):
        _row(tb, [f"session option {k}", _plain(opt)])
    if rs is not None and rs.options:
        opts = _el(sec, "div", class_="opts")
        for k, opt in sorted(rs.options.items()):
            line = _el(opts, "div")
            _el(line, "b", k)
            line[-1].tail = f" = {_plain(opt)}"

    # ---- players
    sec = _el(body, "section")
    _el(sec, "h2", "Players and seats")
    tb = _table(
        sec, ["Seat", "Position", "Player", "Role in this hand", "Recorded score"], num=(4,)
    )
    for s in range(n):
        role = []
        if s == hand.dealer:
            role.append("dealer" + (" (sits out)" if n == 5 else ""))
        if audit.declarer == s:
            role.append("declarer")
        if audit.partner == s and audit.partner != audit.declarer:
            role.append("partner")
        rec = (
            audit.recorded.totals[s] if audit.recorded and s < len(audit.recorded.totals) else None
        )
        _row(
            tb,
            [s, roles.get(s, "—"), _player(session, s), ", ".join(role) or "—",
             _fmt_num(rec)],
            num=(4,),
        )  # fmt: skip
    if audit.contract is not None:
        won = {True: "won", False: "lost", None: ""}[audit.won]
        _el(sec, "p", f"Contract: {audit.contract} {won}".strip() + ".")

    # ---- deal
    sec = _el(body, "section")
    _el(sec, "h2", "The deal")
    tb = _table(sec, ["Seat", "Player", "Cards as dealt"])
    for s in range(n):
        cards = hand.deal.hands[s] if s < len(hand.deal.hands) else []
        _row(tb, [f"{s} {roles.get(s, '')}", _player(session, s), _cards(ET.Element("div"), cards)])
    _row(tb, ["talon", "in dealt order", _cards(ET.Element("div"), hand.deal.talon)])

    # ---- actions with verdicts (card plays are judged in the trick table below)
    def verdict(i: int) -> tuple[str, str, str]:
        """(text, rule, row class) of action ``i``."""
        vs = by_action.get(i, [])
        cls = "bad" if any(v.severity == "error" for v in vs) else ("warn" if vs else "")
        if replay.ruleset is None:
            return "not checked", "", cls
        if vs:
            text = " ".join(f"{v.severity.upper()} {v.code}: {v.message}" for v in vs)
            return text, "; ".join(dict.fromkeys(v.rule for v in vs if v.rule)), cls
        if i >= replay.actions_applied:
            return "not replayed", "", cls
        return "legal", "", cls

    sec = _el(body, "section")
    _el(sec, "h2", "Every action and its verdict")
    _el(sec, "p", "Card plays are listed with their verdicts under Tricks.", class_="small")
    tb = _table(sec, ["#", "Phase", "Seat", "Player", "Action", "Verdict", "Rule"])
    tb.set("class", "actions")
    phases = _phases(hand.actions)
    for i, a in enumerate(hand.actions):
        if a.type == "play":
            continue
        text, rule, cls = verdict(i)
        _row(
            tb,
            [i, phases[i], a.seat, _short(session, a.seat, roles), describe_action(a), text,
             rule],
            cls=cls,
        )  # fmt: skip
    hand_level = [v for v in audit.violations if v.action_index is None]
    if hand_level:
        _el(sec, "h3", "Findings about the whole hand")
        tb = _table(sec, ["Seat", "Severity", "Code", "Finding", "Rule"])
        for v in hand_level:
            _row(tb, [v.seat, v.severity, v.code, v.message, v.rule],
                 cls="bad" if v.severity == "error" else "warn")  # fmt: skip

    # ---- summaries from the engine's view: bids, announcements, kontras, talon, discards
    if view:
        sec = _el(body, "section")
        _el(sec, "h2", "Bidding, king call, talon and announcements")
        tb = _table(sec, ["", ""])
        bids = view.get("bids") or []
        if bids:
            _row(tb, ["Bids", ", ".join(
                f"{_short(session, b[0], roles)}: {b[1]}" for b in bids
                if isinstance(b, (list, tuple)) and len(b) == 2)])  # fmt: skip
        if view.get("contract"):
            who = _short(session, view.get("declarer"), roles)
            _row(tb, ["Contract", f"{view['contract']} (declarer {who})"])
        anns = view.get("announcements") or []
        if anns:
            _row(tb, ["Announcements", ", ".join(
                f"{_short(session, a.get('seat'), roles)}: {a.get('bonus')}"
                for a in anns if isinstance(a, Mapping))])  # fmt: skip
        kons = view.get("kontras") or []
        if kons:
            names = {1: "kontra", 2: "re", 3: "sub", 4: "mord"}
            _row(tb, ["Kontras", ", ".join(
                f"{_short(session, k.get('seat'), roles)}: "
                f"{names.get(k.get('level') or 1, 'kontra')} on {k.get('target')}"
                for k in kons if isinstance(k, Mapping))])  # fmt: skip
        called = next((a.card for a in hand.actions if a.type == "call"), None)
        if called:
            _row(tb, ["King called", _cards(ET.Element("div"), [called])])
        groups = view.get("talon_groups")
        taken = view.get("talon_group")
        if isinstance(groups, list) and groups:
            cell = ET.Element("div")
            for gi, g in enumerate(groups):
                if not isinstance(g, list):
                    continue
                mark = " (taken)" if gi == taken else ""
                _el(cell, "span", f"group {gi}{mark}:", class_="small")
                _cards(cell, [c for c in g if isinstance(c, str)])
            _row(tb, ["Talon groups", cell])
        else:
            talon = view.get("talon")
            if isinstance(talon, list) and talon and all(isinstance(c, str) for c in talon):
                _row(tb, ["Talon", _cards(ET.Element("div"), talon)])
        disc = view.get("discards")
        if isinstance(disc, list) and disc and all(isinstance(c, str) for c in disc):
            _row(tb, ["Discards", _cards(ET.Element("div"), disc)])

    # ---- tricks, each card play with its action index and verdict
    sec = _el(body, "section")
    _el(sec, "h2", "Tricks")
    tricks = view.get("tricks") if view else None
    if not isinstance(tricks, list) or not tricks:
        n_active = 4 if n == 5 else n
        tricks = _tricks_from_actions(hand, n_active)
        if tricks:
            _el(sec, "p", "Winners not derived (no engine replay): cards in playing order.",
                class_="small")  # fmt: skip
    plays = [i for i, a in enumerate(hand.actions) if a.type == "play"]
    tb = _table(
        sec, ["#", "Leader", "Cards in playing order (action #)", "Winner", "Card points",
              "Verdict"], num=(4,),
    )  # fmt: skip
    pos = 0
    for tno, t in enumerate(tricks, start=1):
        cards_cell = ET.Element("div")
        texts: list[str] = []
        rules: list[str] = []
        cls = ""
        for pair in t.get("cards", []):
            seat, card = pair[0], pair[1]
            idx = plays[pos] if pos < len(plays) else None
            pos += 1
            wrap = _el(cards_cell, "span", class_="cards")
            label = f"{roles.get(seat, seat)}" + (f" #{idx}" if idx is not None else "")
            _el(wrap, "span", label, class_="small")
            text, rule, c = verdict(idx) if idx is not None else ("", "", "")
            card_svg(wrap, card, highlight=c == "bad")
            if c:
                texts.append(f"#{idx} {text}")
                rules.append(rule)
                cls = "bad" if "bad" in (c, cls) else "warn"
        pts = t.get("points")
        pts_txt = _thirds(pts) if t.get("points_unit") == "thirds" else _plain(pts)
        ok = "not checked" if replay.ruleset is None else "legal"
        verdict_cell = ET.Element("div")
        verdict_cell.text = " ".join(texts) if texts else ok
        if rules:
            _el(verdict_cell, "div", "; ".join(dict.fromkeys(r for r in rules if r)),
                class_="small")  # fmt: skip
        tr = _row(
            tb,
            [tno, _short(session, t.get("leader"), roles), cards_cell,
             _short(session, t.get("winner"), roles), pts_txt, verdict_cell],
            num=(4,), cls=cls,
        )  # fmt: skip
        list(tr)[2].set("class", "trick")
    cur = view.get("trick") if view else None
    if cur:
        _el(sec, "p", "Cards on the table when the log ends: " + _plain(cur))
        pos += len(cur)
    rest = plays[pos:]
    if rest:
        _el(sec, "h3", "Card plays outside any trick")
        tb = _table(sec, ["#", "Seat", "Player", "Action", "Verdict", "Rule"])
        for i in rest:
            a = hand.actions[i]
            text, rule, cls = verdict(i)
            _row(tb, [i, a.seat, _short(session, a.seat, roles), describe_action(a), text, rule],
                 cls=cls)  # fmt: skip

    # ---- irregularities and notes
    if hand.irregularities or hand.notes:
        sec = _el(body, "section")
        _el(sec, "h2", "Irregularities and notes")
        for irr in hand.irregularities:
            _el(sec, "p", _describe_irregularity(session, irr))
        if hand.notes:
            _el(sec, "p", f"Notes: {hand.notes}")

    # ---- score
    sec = _el(body, "section")
    _el(sec, "h2", "Score: recorded and recomputed")
    if audit.recomputed is None or audit.recorded is None:
        _el(sec, "p", "; ".join(audit.unverified) or "Nothing to compare.")
    diff_keys = {(d.item, d.seat) for d in audit.discrepancies}
    if audit.recorded is not None or audit.recomputed is not None:
        tb = _table(sec, ["Item", "Seat", "Recorded", "Recomputed", "Reason"], num=(2, 3))
        rec_lines = list(audit.recorded.items) if audit.recorded else []
        reasons: dict[tuple[str, int | None], str] = {}
        if replay.score is not None:
            for it in replay.score.items:
                reasons.setdefault((it.item, it.seat), it.reason)
        cmp_lines = list(audit.recomputed.items) if audit.recomputed else []
        keys = list(dict.fromkeys([ln[:2] for ln in rec_lines] + [ln[:2] for ln in cmp_lines]))
        for item, seat in keys:
            rv = _line_sum(rec_lines, item, seat)
            cv = _line_sum(cmp_lines, item, seat)
            who = "declarer's side" if seat is None else f"{seat} {_player(session, seat)}"
            tr = _row(tb, [item, who, _fmt_num(rv), _fmt_num(cv), reasons.get((item, seat), "")],
                      num=(2, 3))  # fmt: skip
            if any(
                d.item == item and (seat is None or d.seat == seat) for d in audit.discrepancies
            ):
                for td in list(tr)[2:4]:
                    td.set("class", "num diff")
        for s in range(n):
            rv = (
                audit.recorded.totals[s]
                if audit.recorded and s < len(audit.recorded.totals)
                else None
            )
            cv = (
                audit.recomputed.totals[s]
                if audit.recomputed and s < len(audit.recomputed.totals)
                else None
            )
            tr = _row(tb, ["total", f"{s} {_player(session, s)}", _fmt_num(rv), _fmt_num(cv), ""],
                      num=(2, 3))  # fmt: skip
            if ("total", s) in diff_keys:
                for td in list(tr)[2:4]:
                    td.set("class", "num diff")
        rb = list(hand.radelci_before) if hand.radelci_before is not None else None
        cb = replay.carry_before.get("radelci") if replay.ruleset is not None else None
        if rb is not None or cb is not None:
            src = " (the log's, applied)" if replay.carry_source == "recorded" else ""
            tr = _row(tb, ["radelci before the hand", "all", _plain(rb), _plain(cb),
                           f"state the hand was scored with{src}"])  # fmt: skip
            if any(d.item == "radelci_before" for d in audit.discrepancies):
                for td in list(tr)[2:4]:
                    td.set("class", "num diff")
        ra = audit.recorded.radelci_after if audit.recorded else None
        ca = audit.recomputed.radelci_after if audit.recomputed else None
        if ra is not None or ca is not None:
            tr = _row(tb, ["radelci after the hand", "all", _plain(ra), _plain(ca), ""])
            if any(d.item == "radelci_after" for d in audit.discrepancies):
                for td in list(tr)[2:4]:
                    td.set("class", "num diff")
    if audit.discrepancies:
        _el(sec, "h3", "Differences")
        tb = _table(sec, ["Item", "Seat", "Recorded", "Recomputed"], num=(2, 3))
        for d in audit.discrepancies:
            who = "—" if d.seat is None else f"{d.seat} {_player(session, d.seat)}"
            cells = [d.item, who, _fmt_num(d.recorded), _fmt_num(d.recomputed)]
            _row(tb, cells, cls="bad", num=(2, 3))
    if audit.unverified and audit.recomputed is not None:
        _el(sec, "h3", "Not verified")
        ul = _el(sec, "ul")
        for u in audit.unverified:
            _el(ul, "li", u)
    if replay.score is not None and replay.score.card_points:
        _el(sec, "p", "Card points: " + _plain(dict(replay.score.card_points)), class_="small")

    # ---- footer and signature
    foot = _el(body, "footer")
    sign = _el(foot, "div", class_="sign")
    _el(sign, "div", "Referee (name)")
    _el(sign, "div", "Decision")
    _el(sign, "div", "Date and signature")
    p = _el(foot, "p", class_="small")
    p.text = (
        f"tarock-logs {__version__} · generated {generated_at:%Y-%m-%d %H:%M} UTC · "
        f"ruleset {audit.ruleset} · hand content hash (sha256): "
    )
    _el(p, "code", audit.hand_id)
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode", method="html") + "\n"


def _line_sum(
    lines: Sequence[tuple[str, int | None, int]], item: str, seat: int | None
) -> int | None:
    """The sum of the score lines ``(item, seat)``, None when there is none."""
    vals = [v for it, st, v in lines if it == item and st == seat]
    return sum(vals) if vals else None


def _plain(v: Any) -> str:
    """A compact text rendering of a JSON-able value from an engine view."""
    if v is None:
        return "—"
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        return _fmt_num(v) if isinstance(v, float) else str(v)
    if isinstance(v, Mapping):
        return ", ".join(f"{k}: {_plain(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)) and all(not isinstance(x, (list, tuple, Mapping)) for x in v):
        return ", ".join(_plain(x) for x in v)
    if isinstance(v, (list, tuple)):
        return "; ".join(_plain(x) if not isinstance(x, (list, tuple)) else " ".join(
            _plain(y) for y in x) for x in v)  # fmt: skip
    return str(v)


def _describe_irregularity(session: m.Session, irr: Any) -> str:
    if irr.type == "renons":
        s = f"Renons ({irr.kind}) by {_player(session, irr.offender)}"
        if irr.called_by is not None:
            s += f", called by {_player(session, irr.called_by)}"
        if irr.action_index is not None:
            s += f", at action {irr.action_index}"
        if irr.trick is not None:
            s += f", trick {irr.trick}"
        s += "; upheld." if irr.upheld else "; not upheld."
        return s + (f" Note: {irr.note}" if irr.note else "")
    if irr.type == "misdeal":
        pen = f", penalty {irr.penalty}" if irr.penalty is not None else ""
        return f"Misdeal by {_player(session, irr.seat)}{pen}." + (
            f" Note: {irr.note}" if irr.note else ""
        )
    if irr.type == "arbiter":
        adj = "; ".join(
            f"{_player(session, a.seat)} {a.points:+d} {a.unit} points" for a in irr.adjustments
        )
        by = f" ({irr.by})" if irr.by else ""
        return f"Referee ruling{by}: {irr.decision}" + (f" Adjustments: {adj}." if adj else "")
    if irr.type == "penalty":
        return f"Penalty: {_player(session, irr.seat)} {irr.points:+d} {irr.unit} points" + (
            f" ({irr.reason})" if irr.reason else ""
        )
    return str(irr)
