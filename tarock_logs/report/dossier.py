"""The dispute dossier: one hand, everything a referee needs, on one self-contained HTML page.

It reads in the order a referee asks: first **the verdict** (its first line says in words
whether the hand could be verified: every recorded item recomputed and compared, only partly,
or not at all; then every finding as a sentence with the players' names, the rule and its
own words); then **the facts**: the players with their seats and roles, the deal (every hand
and the talon, the cards dealt face down apart from the hands), the bidding, the king call, the
talon exchange and discards, the announcements (bonuses declared in advance) and kontras
(doublings of the game or of an announced bonus), every action with its verdict, every trick
with its leader, cards, winner and card points (the offending card marked, the cards that were
legal shown beside it), irregularities and notes; then **the score**, recorded against
recomputed item by item with the reason for each (worded by
:mod:`tarock_logs.report.reasons`) and the differences highlighted, and
what could not be checked; and only then the event, the ruleset and its options, and a footer
with the tool version, the hand's content hash (``hand_id``, see
:mod:`tarock_logs.verdict.audit`) and signature lines for the referee.

Each section is drawn by one function from a :class:`_Page` (the hand, its replay and audit
record, the players' names); actions, kontra levels and cards are worded by
:mod:`tarock_logs.report.text` and drawn by :mod:`tarock_logs.report.cards_svg`, the same as on
the dashboard.

Self-contained: inline CSS, cards as inline SVG, no script, no link, no network; it opens from
disk and prints on A4. The whole document is built with :mod:`xml.etree.ElementTree`, so every
text (player names, notes: user input) is escaped by construction.

Every label is in the dossier's language (``lang``: ``en``, ``sl`` or ``de``, the catalogues of
:mod:`tarock_logs.report.i18n`, the same as the dashboard's); the game terms stay in the game's
own words, and the findings are worded by the one renderer of a finding
(:func:`tarock_logs.report.text.finding_sentence`).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tarock_logs import __version__
from tarock_logs.log import models as m
from tarock_logs.report import i18n, text
from tarock_logs.report.cards_svg import card_element
from tarock_logs.report.reasons import HandFacts, ScoreLine, record_facts, score_reason
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import GameEngine, Violation
from tarock_logs.verdict.audit import HandAudit, audit_hand, hand_people
from tarock_logs.verdict.convert import to_engine_action
from tarock_logs.verdict.findings import Finding, HandPeople
from tarock_logs.verdict.replay import HandReplay, replay_in_session

__all__ = ["Dossier", "DossierError", "build_dossier", "find_hand", "render_dossier"]

#: inline cards are drawn at this fraction of the drawing's size (34 × 49 px)
CARD_SCALE = 0.77


class DossierError(LookupError):
    """The hand asked for is not in the session."""


# --------------------------------------------------------------------------- html helpers
# (public: the printable standings, report/standings.py, are drawn with them in the same style)

PRINT_CSS = """
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
td.trick .cards { flex-wrap: nowrap; white-space: nowrap; margin: 0 3px 1px 0; }
.opts { font-size: 8.5pt; columns: 2; margin: 1mm 0; }
svg.card { display: inline-block; }
.meta td:first-child { width: 32%; font-weight: bold; }
.verdict { font-size: 12pt; padding: 2mm; border: 2px solid #999; margin: 2mm 0; }
.verdict.illegal { border-color: #b71c1c; }
.verdict.clean { border-color: #1b5e20; }
.verdict p { margin: 0 0 1mm; }
.verdict p.state { font-weight: bold; }
.verdict p.state.partial, .verdict p.state.unverified { color: #8d5300; }
.verdict ul.findings { font-size: 10pt; margin: 1mm 0 0; padding-left: 5mm; }
li.finding.error b { color: #b71c1c; }
li.finding.warning b { color: #8d5300; }
q.rule { display: block; font-style: italic; font-size: 9pt; color: #333; margin: 0.5mm 0 0 2mm; }
.required { margin-left: 2px; }
.small { font-size: 8.5pt; color: #444; }
.sign { margin-top: 10mm; display: flex; gap: 10mm; }
.sign div { flex: 1; border-top: 1px solid #000; padding-top: 1mm; }
tr, .verdict, .sign { page-break-inside: avoid; break-inside: avoid; }
h2, h3 { page-break-after: avoid; break-after: avoid; }
footer { margin-top: 6mm; border-top: 1px solid #999; padding-top: 2mm; }
tbody.actions td { padding: 0.3mm 1.2mm; font-size: 9pt; }
code { font-family: ui-monospace, monospace; font-size: 9pt; word-break: break-all; }
"""


def html_el(parent: ET.Element, tag: str, inner: Any = None, **attrs: str) -> ET.Element:
    """A child element with text ``inner``; attributes by keyword (``class_`` for ``class``)."""
    e = ET.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items() if v})
    if inner is not None:
        e.text = str(inner)
    return e


def html_table(parent: ET.Element, headers: Sequence[str], num: Sequence[int] = ()) -> ET.Element:
    """A table with these headers (none: a two-column fact table); returns its ``<tbody>``."""
    t = html_el(parent, "table", class_="meta") if not any(headers) else html_el(parent, "table")
    if any(headers):
        tr = html_el(html_el(t, "thead"), "tr")
        for i, h in enumerate(headers):
            html_el(tr, "th", h, class_="num" if i in num else "")
    return html_el(t, "tbody")


def html_row(
    tbody: ET.Element, cells: Sequence[Any], *, cls: str = "", num: Sequence[int] = ()
) -> ET.Element:
    tr = html_el(tbody, "tr", class_=cls) if cls else html_el(tbody, "tr")
    for i, c in enumerate(cells):
        if isinstance(c, ET.Element):
            html_el(tr, "td").append(c)
        else:
            html_el(tr, "td", "—" if c is None else c, class_="num" if i in num else "")
    return tr


def _mark_diff(tr: ET.Element) -> None:
    """Highlight the recorded and recomputed cells (3rd and 4th) of a score row."""
    for td in list(tr)[2:4]:
        td.set("class", "num diff")


def html_section(body: ET.Element, title: str) -> ET.Element:
    sec = html_el(body, "section")
    html_el(sec, "h2", title)
    return sec


def _fmt_num(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:+d}" if v else "0"
    return str(v)


def _thirds(v: Any) -> str:
    """Card points given in thirds of a point, as a mixed number (149 → 49⅔)."""
    if not isinstance(v, int):
        return _plain(v)
    whole, rem = divmod(v, 3)
    return f"{whole}{['', '⅓', '⅔'][rem]}" if whole or not rem else ["", "⅓", "⅔"][rem]


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
        return "; ".join(
            " ".join(_plain(y) for y in x) if isinstance(x, (list, tuple)) else _plain(x) for x in v
        )
    return str(v)


def _line_sum(
    lines: Sequence[tuple[str, int | None, int]], item: str, seat: int | None
) -> int | None:
    """The sum of the score lines ``(item, seat)``, None when there is none."""
    vals = [v for it, st, v in lines if it == item and st == seat]
    return sum(vals) if vals else None


# --------------------------------------------------------------------------- the hand's facts


def _phases(engine: GameEngine | None, actions: Sequence[Any]) -> list[str]:
    """The phase each action belongs to, as the game's engine says
    (:meth:`~tarock_logs.rules.base.GameEngine.action_phases`); unknown (empty) without an
    engine."""
    if engine is None:
        return [""] * len(actions)
    return [str(p) for p in engine.action_phases([to_engine_action(a) for a in actions])]


def _positions(n: int, dealer: int) -> dict[int, str]:
    """P1 … P4 by seat (P1 the forehand, the first active seat after the dealer; at a table of
    five the dealer sits out and has no position)."""
    active = [(dealer + k) % n for k in range(1, n + 1)]
    if n == 5:
        active = [s for s in active if s != dealer]
    return {s: f"P{i}" for i, s in enumerate(active, start=1)}


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


@dataclass(slots=True)
class _Page:
    """What every section of the page reads: the hand, its replay and audit record, and the
    players' names by seat (:func:`tarock_logs.report.text.player_names`)."""

    session: m.Session
    hand: m.Hand
    replay: HandReplay
    audit: HandAudit
    names: list[str] = field(default_factory=list)
    positions: dict[int, str] = field(default_factory=dict)
    view: Mapping[str, Any] = field(default_factory=dict)
    by_action: dict[int, list[Violation]] = field(default_factory=dict)
    phases: list[str] = field(default_factory=list)
    #: the findings about each action (in the players' words), by action index
    said: dict[int, list[Finding]] = field(default_factory=dict)
    #: who is who in the hand: the roles the audit's findings name
    people: HandPeople | None = None
    #: the language of the labels (:data:`tarock_logs.report.i18n.LANGS`)
    lang: str = "en"

    @classmethod
    def of(
        cls,
        session: m.Session,
        hand: m.Hand,
        replay: HandReplay,
        audit: HandAudit,
        engine: GameEngine | None,
        lang: str = "en",
    ) -> _Page:
        by_action: dict[int, list[Violation]] = {}
        for v in audit.violations:
            if v.action_index is not None:
                by_action.setdefault(v.action_index, []).append(v)
        said: dict[int, list[Finding]] = {}
        for f in audit.findings:
            if f.action_index is not None:
                said.setdefault(f.action_index, []).append(f)
        return cls(
            session,
            hand,
            replay,
            audit,
            names=text.player_names(session),
            positions=_positions(len(session.players), hand.dealer),
            view=_final_view(replay),
            by_action=by_action,
            phases=_phases(engine, hand.actions),
            said=said,
            people=hand_people(session, hand, replay),
            lang=i18n.normalize(lang),
        )

    @property
    def game(self) -> str:
        return self.session.game

    def t(self, msgid: str, /, **fields: Any) -> str:
        """The label ``msgid`` (English) in the dossier's language."""
        return i18n.t(msgid, self.lang, **fields)

    def count(self, n: int, one: str, many: str) -> str:
        """``n`` things (``one`` / ``many``: the English forms, with ``{n}``) in the plural
        form of ``n`` in the dossier's language (:func:`tarock_logs.report.i18n.tn`)."""
        return i18n.tn(one, many, n, self.lang)

    @property
    def n(self) -> int:
        return len(self.session.players)

    def name(self, seat: Any) -> str:
        """The player at ``seat`` by name (``—`` for none, ``seat N`` outside the table)."""
        if not isinstance(seat, int):
            return "—" if seat is None else str(seat)
        return text.player_name(self.names, seat)

    def player(self, seat: int | None) -> str:
        """The player with the id as well: ``Ana (p1)`` (the id alone when there is no name)."""
        if seat is None:
            return "—"
        if not 0 <= seat < self.n:
            return self.t("seat {seat} (not at the table)", seat=seat)
        p = self.session.players[seat]
        return f"{p.name} ({p.id})" if p.name else p.id

    def cards(self, tokens: Sequence[str], bad: Sequence[str] = ()) -> ET.Element:
        """A ``<span>`` of inline cards (``—`` for none), ``bad`` ones highlighted."""
        span = ET.Element("span", {"class": "cards"})
        for t in tokens:
            span.append(self.card(t, highlight=t in bad))
        if not tokens:
            span.text = "—"
        return span

    def card(self, token: str, *, highlight: bool = False) -> ET.Element:
        svg = card_element(
            token, highlight=highlight, scale=CARD_SCALE, game=self.game, xmlns=False
        )
        svg.set("class", "card" + (" bad" if highlight else ""))
        return svg

    def verdict(self, i: int) -> tuple[str, str, str]:
        """(text, rule, row class) of action ``i``."""
        vs = self.by_action.get(i, [])
        cls = "bad" if any(v.severity == "error" for v in vs) else ("warn" if vs else "")
        if self.replay.ruleset is None:
            return self.t("not checked"), "", cls
        if vs:
            found = self.said.get(i, [])
            said = " ".join(f"{self.t(f.severity)} {f.code}: {self.finding(f)}" for f in found)
            return said, "; ".join(dict.fromkeys(v.rule for v in vs if v.rule)), cls
        if i >= self.replay.actions_applied:
            return self.t("not replayed"), "", cls
        return self.t("legal"), "", cls

    def finding(self, f: Finding) -> str:
        """A finding in the dossier's language: the one wording of a finding
        (:func:`tarock_logs.report.text.finding_sentence`)."""
        return text.finding_sentence(f, self.lang)

    def describe(self, action: Any, index: int) -> str:
        return text.action_phrase(action, self.game, phase=self.phases[index], lang=self.lang)


# --------------------------------------------------------------------------- the page


def find_hand(session: m.Session, number: int) -> int:
    """The 0-based index of the hand numbered ``number`` in ``session``."""
    for i, h in enumerate(session.hands):
        if h.number == number:
            return i
    nums = ", ".join(str(h.number) for h in session.hands) or "none"
    raise DossierError(f"session {session.id} has no hand {number} (hands: {nums})")


def render_dossier(
    session: m.Session,
    hand: m.Hand | int,
    *,
    ruleset: str | None = None,
    file: str | None = None,
    engine: GameEngine | None = None,
    generated_at: datetime | None = None,
    lang: str = "en",
) -> str:
    """The dossier of one hand of ``session`` as a complete HTML document (a str).

    ``hand`` is the :class:`~tarock_logs.log.models.Hand` or its number (``Hand.number``). The
    whole session is replayed up to and including that hand so that carried state (radelci)
    is right; ``ruleset`` re-scores under another ruleset (what-if); ``lang`` is the language
    of its labels (``en``, ``sl``, ``de``).
    """
    return build_dossier(
        session,
        hand,
        ruleset=ruleset,
        file=file,
        engine=engine,
        generated_at=generated_at,
        lang=lang,
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
    lang: str = "en",
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
    page = _Page.of(session, h, replay, audit, eng, lang)
    html = _render(page, generated_at or datetime.now(UTC))
    return Dossier(html, audit)


def _render(page: _Page, generated_at: datetime) -> str:
    """The whole document: the head, then one function per section, in reading order."""
    html = ET.Element("html", {"lang": page.lang})
    head = html_el(html, "head")
    html_el(head, "meta", charset="utf-8")
    html_el(head, "meta", name="viewport", content="width=device-width, initial-scale=1")
    title = page.t(
        "Dispute dossier: {session}, hand {n}", session=page.session.id, n=page.hand.number
    )
    html_el(head, "title", title)
    html_el(head, "style", PRINT_CSS)
    body = html_el(html, "body")
    html_el(body, "h1", title)
    _verdict(body, page)
    _players(body, page)
    _deal(body, page)
    _auction(body, page)
    _actions(body, page)
    _tricks(body, page)
    _illegal_card_effect(body, page)
    _irregularities(body, page)
    _score(body, page)
    _event(body, page)
    _ruleset(body, page)
    _footer(body, page, generated_at)
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode", method="html") + "\n"


# --------------------------------------------------------------------------- sections


def _verdict(body: ET.Element, page: _Page) -> None:
    """The verdict first: whether the hand could be verified, in words; legality and the
    score in one line each, naming what was found; then every finding as a sentence."""
    audit = page.audit
    errors = [f for f in audit.findings if f.is_error and f.item is None]
    warnings = [f for f in audit.findings if f.severity == "warning"]
    box = html_el(body, "div", class_="verdict" + ("" if audit.has_findings else " clean"))
    if audit.has_findings:
        box.set("class", "verdict illegal")
    html_el(box, "p", _verification_sentence(audit, page), class_="state " + audit.verification)
    if audit.recomputed is None and page.replay.ruleset is None:
        legality = page.t("The actions were not checked.")
    elif errors:
        which = "; ".join(_finding_label(f, page) for f in errors)
        n = page.count(len(errors), "{n} illegal action", "{n} illegal actions")
        legality = f"{n}: {which}."
    else:
        legality = page.t("All actions legal.")
    if warnings:
        which = "; ".join(_finding_label(f, page) for f in warnings)
        legality += f" {page.count(len(warnings), '{n} warning', '{n} warnings')}: {which}."
    html_el(box, "p", legality)
    html_el(box, "p", _score_sentence(audit, page))
    if audit.findings:
        ul = html_el(box, "ul", class_="findings")
        for f in audit.findings:
            li = html_el(ul, "li", class_=f"finding {f.severity}")
            said = page.finding(f)
            html_el(li, "b", f"{page.t(f.severity)}: ").tail = said
            for lang, quote in _quotes(f, page.lang):
                html_el(li, "q", quote, class_="rule", lang=lang)


def _quotes(f: Finding, lang: str) -> list[tuple[str, str]]:
    """The rule's own words to print under a finding: in English every language the
    ruleset's table has; in another language the reader's, else the ruleset's own words
    (never an English translation the reader did not ask for)."""
    if lang == "en":
        return list(f.rule_text.items())
    if lang in f.rule_text:
        return [(lang, f.rule_text[lang])]
    return [(k, q) for k, q in f.rule_text.items() if k != "en"]


def _finding_label(f: Finding, page: _Page) -> str:
    """What was found where, in plain words: the code's meaning and the action's number."""
    said = text.code_meaning(f.code, page.game, lang=page.lang)
    if f.action_index is not None:
        return page.t("{code} at action {n}", code=said, n=f.action_index)
    return page.t("{code} at the whole hand", code=said)


def _verification_sentence(audit: HandAudit, page: _Page) -> str:
    """The dossier's first line: the hand's verification state in words."""
    if audit.verification == "verified":
        return page.t("Verified: every recorded item was recomputed and compared.")
    if audit.verification == "partial":
        n = page.count(len(audit.unverified), "{n} item", "{n} items")
        return page.t(
            "Partly verified: {n} could not be checked (listed under Score): {what}.",
            n=n,
            what="; ".join(audit.unverified),
        )
    what = "; ".join(audit.unverified) or page.t("nothing could be checked")
    return page.t("Not verified: {what}.", what=what)


def _score_sentence(audit: HandAudit, page: _Page) -> str:
    if audit.recorded is None:
        return page.t("No recorded score.")
    if audit.recomputed is None:
        return page.t("The recorded score could not be compared: the hand was not scored.")
    if audit.discrepancies:
        items = ", ".join(dict.fromkeys(d.item for d in audit.discrepancies))
        n = page.count(len(audit.discrepancies), "{n} score difference", "{n} score differences")
        return f"{n} ({items})."
    if audit.verification == "partial":
        return page.t("Recorded score agrees with the recomputation wherever it could be checked.")
    return page.t("Recorded score agrees with the recomputation.")


def _event(body: ET.Element, page: _Page) -> None:
    """Where the hand was played: session, file, game, tournament, event, round and table."""
    tb = html_table(html_section(body, page.t("Event")), ["", ""])
    ev = page.session.event
    hand = page.hand
    facts: list[tuple[str, Any]] = [
        ("Session", page.session.id),
        ("File", page.audit.file),
        ("Game", page.game),
        ("Tournament", ev.tournament if ev else None),
        ("Event", ev.name if ev else None),
        ("Date", ev.date if ev else None),
        ("Site", ev.site if ev else None),
        ("Round / table", f"{ev.round or '—'} / {ev.table or '—'}" if ev else None),
        (
            "Hand",
            page.t("{n} (hand {k} of the session)", n=hand.number, k=page.replay.hand_index + 1),
        ),
        ("Hand id (source)", hand.id),
    ]
    for k, v in facts:
        if v is not None:
            html_row(tb, [page.t(k), v])


def _ruleset(body: ET.Element, page: _Page) -> None:
    """The ruleset used (and the log's, when re-scored under another), with every option."""
    sec = html_section(body, page.t("Ruleset"))
    rs = page.replay.ruleset
    session = page.session
    tb = html_table(sec, ["", ""])
    if rs is not None:
        html_row(tb, [page.t("Ruleset used"), page.audit.ruleset])
        html_row(tb, [page.t("Title"), rs.title])
        if rs.id != session.ruleset and session.ruleset not in rs.aliases:
            said = page.t("{ruleset} (re-scored: what-if)", ruleset=session.ruleset)
            html_row(tb, [page.t("Ruleset of the log"), said])
    else:
        said = page.t("{ruleset} (not resolved: no engine)", ruleset=session.ruleset)
        html_row(tb, [page.t("Ruleset of the log"), said])
    for k, opt in sorted(session.options.items()):
        shown = page.t("yes" if opt else "no") if isinstance(opt, bool) else _plain(opt)
        html_row(tb, [page.t("session option {name}", name=k), shown])
    if rs is not None and rs.options:
        opts = html_el(sec, "div", class_="opts")
        for k, opt in sorted(rs.options.items()):
            line = html_el(opts, "div")
            shown = page.t("yes" if opt else "no") if isinstance(opt, bool) else _plain(opt)
            html_el(line, "b", k).tail = f" = {shown}"


def _players(body: ET.Element, page: _Page) -> None:
    """Every seat: position (P1 = forehand), player, role in this hand, recorded score."""
    sec = html_section(body, page.t("Players and seats"))
    audit = page.audit
    headers = [
        page.t(h) for h in ("Seat", "Position", "Player", "Role in this hand", "Recorded score")
    ]
    tb = html_table(sec, headers, num=(4,))
    roles = page.people.roles if page.people is not None else []
    for s in range(page.n):
        role = (
            [text.role_name(roles[s], lang=page.lang)]
            if s < len(roles) and roles[s] != "player"
            else []
        )
        if s == page.hand.dealer and "sitting_out" not in roles[s : s + 1]:
            role.append(text.role_name("dealer", lang=page.lang))
        totals = audit.recorded.totals if audit.recorded else []
        rec = totals[s] if s < len(totals) else None
        cells = [s, page.positions.get(s, "—"), page.player(s), ", ".join(role) or "—"]
        html_row(tb, [*cells, _fmt_num(rec)], num=(4,))
    if audit.contract is not None:
        won = {True: page.t("won"), False: page.t("lost"), None: ""}[audit.won]
        contract = text.contract_name(audit.contract, page.game, lang=page.lang)
        said = page.t("Contract: {contract} {result}", contract=contract, result=won).strip()
        html_el(sec, "p", said + ".")


def _deal(body: ET.Element, page: _Page) -> None:
    """The cards as dealt, seat by seat, and the talon in dealt order."""
    deal = page.hand.deal
    if deal is None:
        return  # a hand recorded as facts: no cards (its facts are shown instead)
    tb = html_table(
        html_section(body, page.t("The deal")),
        [page.t("Seat"), page.t("Player"), page.t("Cards as dealt")],
    )
    for s in range(page.n):
        cards = deal.hands[s] if s < len(deal.hands) else []
        html_row(tb, [f"{s} {page.positions.get(s, '')}", page.player(s), page.cards(cards)])
    html_row(tb, [page.t("talon"), page.t("in dealt order"), page.cards(deal.talon)])


def _actions(body: ET.Element, page: _Page) -> None:
    """Every action but the card plays, with its verdict and rule; then hand-level findings."""
    sec = html_section(body, page.t("Every action and its verdict"))
    note = page.t("Card plays are listed with their verdicts under Tricks.")
    html_el(sec, "p", note, class_="small")
    headers = ["Phase", "Seat", "Player", "Action", "Verdict", "Rule"]
    tb = html_table(sec, ["#", *(page.t(h) for h in headers)])
    tb.set("class", "actions")
    for i, a in enumerate(page.hand.actions):
        if a.type == "play":
            continue
        said, rule, cls = page.verdict(i)
        phase = text.phase_name(page.phases[i], lang=page.lang) if page.phases[i] else "—"
        cells = [i, phase, a.seat, page.name(a.seat), page.describe(a, i), said, rule]
        html_row(tb, cells, cls=cls)
    hand_level = [
        f
        for f in page.audit.findings
        if f.action_index is None and f.level == "hand" and not f.item
    ]
    if hand_level:
        html_el(sec, "h3", page.t("Findings about the whole hand"))
        headers = ["Seat", "Severity", "Code", "Finding", "Rule"]
        tb = html_table(sec, [page.t(h) for h in headers])
        for f in hand_level:
            cls = "bad" if f.severity == "error" else "warn"
            seat = f.players[0].seat if f.players else None
            html_row(tb, [seat, page.t(f.severity), f.code, page.finding(f), f.rule], cls=cls)


def _auction(body: ET.Element, page: _Page) -> None:
    """From the engine's view at the end: bids, contract, announcements, kontras, the called
    king, the talon (groups, the one taken) and the discards."""
    view = page.view
    if not view:
        return
    tb = html_table(
        html_section(body, page.t("Bidding, king call, talon and announcements")), ["", ""]
    )
    game = page.game
    bids = [b for b in view.get("bids") or [] if isinstance(b, (list, tuple)) and len(b) == 2]
    if bids:
        said = ", ".join(f"{page.name(s)}: {text.contract_name(c, game)}" for s, c in bids)
        html_row(tb, [page.t("Bids"), said])
    if view.get("contract"):
        contract = text.contract_name(view["contract"], game)
        said = page.t(
            "{contract} (declarer {name})", contract=contract, name=page.name(view.get("declarer"))
        )
        html_row(tb, [page.t("Contract"), said])
    anns = [a for a in view.get("announcements") or [] if isinstance(a, Mapping)]
    if anns:
        said = ", ".join(
            f"{page.name(a.get('seat'))}: {text.bonus_name(str(a.get('bonus')), game)}"
            for a in anns
        )
        html_row(tb, [page.t("Announcements"), said])
    kons = [k for k in view.get("kontras") or [] if isinstance(k, Mapping)]
    if kons:
        said = ", ".join(
            f"{page.name(k.get('seat'))}: "
            + page.t(
                "{kontra} on {target}",
                kontra=text.kontra_name(k.get("level"), game),
                target=text.target_name(k.get("target"), game, lang=page.lang),
            )
            for k in kons
        )
        html_row(tb, [page.t("Kontras"), said])
    called = next((a.card for a in page.hand.actions if a.type == "call"), None)
    if called:
        html_row(tb, [page.t("King called"), page.cards([called])])
    groups = view.get("talon_groups")
    if isinstance(groups, list) and groups:
        cell = ET.Element("div")
        for gi, g in enumerate(groups):
            if not isinstance(g, list):
                continue
            mark = " " + page.t("(taken)") if gi == view.get("talon_group") else ""
            html_el(cell, "span", page.t("group {n}", n=gi) + f"{mark}:", class_="small")
            cell.append(page.cards([c for c in g if isinstance(c, str)]))
        html_row(tb, [page.t("Talon groups"), cell])
    else:
        talon = view.get("talon")
        if isinstance(talon, list) and talon and all(isinstance(c, str) for c in talon):
            html_row(tb, [page.t("Talon"), page.cards(talon)])
    disc = view.get("discards")
    if isinstance(disc, list) and disc and all(isinstance(c, str) for c in disc):
        html_row(tb, [page.t("Discards"), page.cards(disc)])


def _tricks(body: ET.Element, page: _Page) -> None:
    """Every trick: leader, cards in playing order (each with its action number and verdict,
    an offending card highlighted), winner and card points; then the cards still on the table
    and any card play outside a trick."""
    sec = html_section(body, page.t("Tricks"))
    view = page.view
    tricks = view.get("tricks") if view else None
    if not isinstance(tricks, list) or not tricks:
        tricks = _tricks_from_actions(page.hand, 4 if page.n == 5 else page.n)
        if tricks:
            note = page.t("Winners not derived (no engine replay): cards in playing order.")
            html_el(sec, "p", note, class_="small")
    plays = [i for i, a in enumerate(page.hand.actions) if a.type == "play"]
    headers = ["Leader", "Cards in playing order (action #)", "Winner", "Card points", "Verdict"]
    tb = html_table(sec, ["#", *(page.t(h) for h in headers)], num=(4,))
    pos = 0
    for tno, t in enumerate(tricks, start=1):
        pairs = t.get("cards", [])
        _trick_row(tb, page, tno, t, plays[pos : pos + len(pairs)])
        pos += len(pairs)
    cur = view.get("trick") if view else None
    if cur:
        html_el(
            sec, "p", page.t("Cards on the table when the log ends: {cards}", cards=_plain(cur))
        )
        pos += len(cur)
    rest = plays[pos:]
    if rest:
        html_el(sec, "h3", page.t("Card plays outside any trick"))
        headers = ["Seat", "Player", "Action", "Verdict", "Rule"]
        tb = html_table(sec, ["#", *(page.t(h) for h in headers)])
        for i in rest:
            a = page.hand.actions[i]
            said, rule, cls = page.verdict(i)
            html_row(tb, [i, a.seat, page.name(a.seat), page.describe(a, i), said, rule], cls=cls)


def _trick_row(
    tb: ET.Element, page: _Page, number: int, trick: Mapping[str, Any], indices: Sequence[int]
) -> None:
    """One trick's row; ``indices`` are the action numbers of its card plays, in order."""
    cards_cell = ET.Element("div")
    said: list[str] = []
    rules: list[str] = []
    cls = ""
    for k, pair in enumerate(trick.get("cards", [])):
        seat, card = pair[0], pair[1]
        idx = indices[k] if k < len(indices) else None
        wrap = html_el(cards_cell, "span", class_="cards")
        html_el(
            wrap, "span", page.name(seat) + (f" #{idx}" if idx is not None else ""), class_="small"
        )
        verdict, rule, c = page.verdict(idx) if idx is not None else ("", "", "")
        wrap.append(page.card(card, highlight=c == "bad"))
        required = _required_cards(page, idx, card) if c == "bad" else []
        if required:
            html_el(wrap, "span", page.t("legal were:"), class_="small required")
            for r in required:
                wrap.append(page.card(r))
        if c:
            said.append(f"#{idx} {verdict}")
            rules.append(rule)
            cls = "bad" if "bad" in (c, cls) else "warn"
    pts, unit = trick.get("points"), trick.get("points_unit")
    # (a game that counts tricks, not card points, has no points to show for a trick)
    pts_txt = "" if unit == "tricks" else _thirds(pts) if unit == "thirds" else _plain(pts)
    verdict_cell = ET.Element("div")
    verdict_cell.text = (
        " ".join(said)
        if said
        else (page.t("not checked") if page.replay.ruleset is None else page.t("legal"))
    )
    if rules:
        html_el(
            verdict_cell, "div", "; ".join(dict.fromkeys(r for r in rules if r)), class_="small"
        )
    cells = [number, page.name(trick.get("leader")), cards_cell, page.name(trick.get("winner"))]
    tr = html_row(tb, [*cells, pts_txt, verdict_cell], num=(4,), cls=cls)
    list(tr)[2].set("class", "trick")


def _required_cards(page: _Page, index: int | None, played: str) -> list[str]:
    """The cards that were legal instead of ``played`` at action ``index``, as the engine's
    violation gives them (``params["legal"]``); none when it does not say."""
    for v in page.by_action.get(index, []) if index is not None else []:
        legal = v.params.get("legal")
        if v.severity == "error" and isinstance(legal, (list, tuple)):
            return [c for c in legal if isinstance(c, str) and c != played]
    return []


def _illegal_card_effect(body: ET.Element, page: _Page) -> None:
    """Did the illegal card change the result: for each illegal card (a held card the rules
    forbade), the value of the position it left against the offender's best legal card, with
    all cards visible (tarock_logs.analysis; docs/analysis.md)."""
    if not any(v.code == "play.illegal_card" for v in page.audit.violations):
        return
    from tarock_logs.analysis.hand import analyse_replay
    from tarock_logs.analysis.native import default_budget

    sec = html_section(body, page.t("Did the illegal card change the result? ({label})",
                                label=page.t("all cards visible")))  # fmt: skip
    # a few seconds per search (default_budget): an early card of a whole hand can need more
    # than that today and is then said to be undecided (docs/analysis.md)
    ha = analyse_replay(
        page.replay,
        page.session.id,
        page.hand,
        last_tricks=0,
        budget=default_budget(game=page.session.game),
    )
    if ha.skipped and not ha.cards:
        html_el(sec, "p", page.t("Not analysed: {reason}.", reason=ha.skipped))
        return
    headers = ["trick", "player", "illegal card", "value it left", "best legal card", "value",
               "effect", "what changed"]  # fmt: skip
    tb = html_table(sec, [page.t(h) for h in headers], num=(3, 5, 6))
    for v in ha.illegal_verdicts():
        html_row(tb, [v["trick"], page.player(v["seat"]), v["card"], v["value"],
                  " ".join(v["best_legal_cards"]), v["best_legal_value"], f"{v['gain']:+d}",
                  "; ".join(v["changed"]) or "—"], num=(3, 5, 6),
             cls="bad" if v["changed_result"] else "")  # fmt: skip
        html_el(sec, "p", f"{page.player(v['seat'])}, {v['card']} in trick {v['trick']}: "
                      f"{v['verdict']}.")  # fmt: skip
    for i, card in ha.undecided:
        html_el(sec, "p", page.t("{card} (action {n}): not decided within the search budget.",
                             card=card, n=i + 1))  # fmt: skip
    html_el(
        sec,
        "p",
        page.t(
            "Values are {values} on the score sheet, with best play by everybody afterwards. "
            "All cards visible: the analysis sees every hand, the players did not.",
            values=text.analysis_values(page.game, lang=page.lang),
        ),
    )


def _irregularities(body: ET.Element, page: _Page) -> None:
    """The irregularities recorded with the hand (renons, misdeal, referee rulings, penalties)
    and its notes."""
    hand = page.hand
    if not (hand.irregularities or hand.notes):
        return
    sec = html_section(body, page.t("Irregularities and notes"))
    for irr in hand.irregularities:
        html_el(sec, "p", _describe_irregularity(page, irr))
    if hand.notes:
        html_el(sec, "p", page.t("Notes: {notes}", notes=hand.notes))


def _describe_irregularity(page: _Page, irr: Any) -> str:
    if irr.type == "renons":
        s = f"Renons ({irr.kind}) by {page.player(irr.offender)}"
        if irr.called_by is not None:
            s += f", called by {page.player(irr.called_by)}"
        if irr.action_index is not None:
            s += f", at action {irr.action_index}"
        if irr.trick is not None:
            s += f", trick {irr.trick}"
        s += "; upheld." if irr.upheld else "; not upheld."
        return s + (f" Note: {irr.note}" if irr.note else "")
    if irr.type == "misdeal":
        pen = f", penalty {irr.penalty}" if irr.penalty is not None else ""
        note = f" Note: {irr.note}" if irr.note else ""
        return f"Misdeal by {page.player(irr.seat)}{pen}.{note}"
    if irr.type == "arbiter":
        adj = "; ".join(
            f"{page.player(a.seat)} {a.points:+d} {a.unit} points" for a in irr.adjustments
        )
        by = f" ({irr.by})" if irr.by else ""
        return f"Referee ruling{by}: {irr.decision}" + (f" Adjustments: {adj}." if adj else "")
    if irr.type == "penalty":
        why = f" ({irr.reason})" if irr.reason else ""
        return f"Penalty: {page.player(irr.seat)} {irr.points:+d} {irr.unit} points{why}"
    return str(irr)


def _score(body: ET.Element, page: _Page) -> None:
    """Recorded and recomputed score line by line (differences highlighted), the differences
    again as a list, what could not be verified, and the card points."""
    sec = html_section(body, page.t("Score: recorded and recomputed"))
    audit = page.audit
    if audit.recomputed is None or audit.recorded is None:
        html_el(sec, "p", "; ".join(audit.unverified) or page.t("Nothing to compare."))
    headers = [page.t(h) for h in ("Item", "Seat", "Recorded", "Recomputed", "Reason")]
    if audit.recorded is not None or audit.recomputed is not None:
        tb = html_table(sec, headers, num=(2, 3))
        _score_items(tb, page)
        _score_totals(tb, page)
        _score_radelci(tb, page)
    if audit.discrepancies:
        html_el(sec, "h3", page.t("Differences"))
        tb = html_table(sec, headers[:4], num=(2, 3))
        for d in audit.discrepancies:
            who = "—" if d.seat is None else f"{d.seat} {page.player(d.seat)}"
            item = text.score_item_name(d.item, page.game, lang=page.lang)
            cells = [item, who, _fmt_num(d.recorded), _fmt_num(d.recomputed)]
            html_row(tb, cells, cls="bad", num=(2, 3))
    if audit.unverified and audit.recomputed is not None:
        html_el(sec, "h3", page.t("Not verified"))
        ul = html_el(sec, "ul")
        for u in audit.unverified:
            html_el(ul, "li", u)
    score = page.replay.score
    if score is not None and score.card_points:
        points = _card_points_text(score.card_points, page)
        if points:
            html_el(sec, "p", page.t("Card points: {points}", points=points), class_="small")


#: the facts of an engine's card count in words (label ids), by key (a ``_thirds`` suffix
#: only says the unit); the facts not listed here are not shown
_CARD_POINT_WORDS = {
    "declarer_side": "the declarer's side",
    "defenders": "the defenders",
    "declarer_side_cards": "cards won by the declarer's side",
    "defenders_cards": "cards won by the defenders",
    "declarer_side_tricks": "tricks of the declarer's side",
    "tricks_attackers": "tricks of the attackers",
    "tricks_defenders": "tricks of the defenders",
    "per_seat": "by player",
    "remainder_to_declarer": "the odd points to the declarer's side",
    "pagat_seat": "pagat played by",
    "pagat_trick": "pagat in trick",
    "pagat_won_last": "pagat won the last trick",
    "mondfang": "mond caught from",
}
#: the facts that name a seat
_SEAT_FACTS = frozenset({"pagat_seat", "mondfang"})


def _card_points_text(facts: Mapping[str, Any], page: _Page) -> str:
    """An engine's card count in words: ``the declarer's side 49⅔, the defenders 20⅓, by
    player Ana 35, …`` (points in thirds as mixed numbers, seats by name, yes/no)."""
    said = []
    for key, value in facts.items():
        thirds = key.endswith("_thirds")
        label = _CARD_POINT_WORDS.get(key.removesuffix("_thirds"))
        if label is None or value is None:
            continue
        if isinstance(value, bool):
            shown = page.t("yes" if value else "no")
        elif key in _SEAT_FACTS and isinstance(value, int):
            shown = page.name(value)
        elif isinstance(value, list | tuple):
            shown = ", ".join(f"{page.name(s)} {_plain(v)}" for s, v in enumerate(value))
        else:
            shown = _thirds(value) if thirds else i18n.number(value, page.lang)
        said.append(f"{page.t(label)} {shown}")
    return ", ".join(said)


def _score_items(tb: ET.Element, page: _Page) -> None:
    """One row per score item and seat, as written on either side, with its reason in the
    reader's language."""
    audit = page.audit
    rec_lines = list(audit.recorded.items) if audit.recorded else []
    cmp_lines = list(audit.recomputed.items) if audit.recomputed else []
    keys = dict.fromkeys([ln[:2] for ln in rec_lines] + [ln[:2] for ln in cmp_lines])
    facts = _reason_facts(page, [(it, st, _line_sum(cmp_lines, it, st)) for it, st in keys])
    for item, seat in keys:
        rv = _line_sum(rec_lines, item, seat)
        cv = _line_sum(cmp_lines, item, seat)
        who = page.t("declarer's side") if seat is None else f"{seat} {page.player(seat)}"
        named = text.score_item_name(item, page.game, lang=page.lang)
        why = score_reason(ScoreLine(item, seat, cv), facts, page.lang) if cv is not None else ""
        cells = [named, who, _fmt_num(rv), _fmt_num(cv), why]
        tr = html_row(tb, cells, num=(2, 3))
        if any(d.item == item and (seat is None or d.seat == seat) for d in audit.discrepancies):
            _mark_diff(tr)


def _reason_facts(page: _Page, lines: Sequence[tuple[str, int | None, int | None]]) -> HandFacts:
    """The hand's facts a score line's reason is said from (:mod:`tarock_logs.report.reasons`)."""
    return record_facts(
        page.session,
        page.hand,
        page.replay.score,
        page.view.get("tricks") or (),
        [ScoreLine(it, st, v) for it, st, v in lines if v is not None],
    )


def _score_totals(tb: ET.Element, page: _Page) -> None:
    """Each seat's hand total, recorded and recomputed."""
    audit = page.audit
    rec = audit.recorded.totals if audit.recorded else []
    cmp = audit.recomputed.totals if audit.recomputed else []
    diff = {(d.item, d.seat) for d in audit.discrepancies}
    for s in range(page.n):
        rv = rec[s] if s < len(rec) else None
        cv = cmp[s] if s < len(cmp) else None
        cells = [page.t("total"), f"{s} {page.player(s)}", _fmt_num(rv), _fmt_num(cv), ""]
        tr = html_row(tb, cells, num=(2, 3))
        if ("total", s) in diff:
            _mark_diff(tr)


def _score_radelci(tb: ET.Element, page: _Page) -> None:
    """Radelci before the hand (the log's and the state the hand was scored with) and after."""
    audit = page.audit
    replay = page.replay
    items = {d.item for d in audit.discrepancies}
    rb = list(page.hand.radelci_before) if page.hand.radelci_before is not None else None
    cb = replay.carry_before.get("radelci") if replay.ruleset is not None else None
    if rb is not None or cb is not None:
        src = " " + page.t("(the log's, applied)") if replay.carry_source == "recorded" else ""
        cells = [page.t("radelci before the hand"), page.t("all"), _plain(rb), _plain(cb)]
        tr = html_row(tb, [*cells, page.t("state the hand was scored with") + src])
        if "radelci_before" in items:
            _mark_diff(tr)
    ra = audit.recorded.radelci_after if audit.recorded else None
    ca = audit.recomputed.radelci_after if audit.recomputed else None
    if ra is not None or ca is not None:
        cells = [page.t("radelci after the hand"), page.t("all"), _plain(ra), _plain(ca), ""]
        tr = html_row(tb, cells)
        if "radelci_after" in items:
            _mark_diff(tr)


def _footer(body: ET.Element, page: _Page, generated_at: datetime) -> None:
    """The referee's signature lines, the tool version, the ruleset and the content hash."""
    foot = html_el(body, "footer")
    sign = html_el(foot, "div", class_="sign")
    for label in ("Referee (name)", "Decision", "Date and signature"):
        html_el(sign, "div", page.t(label))
    p = html_el(foot, "p", class_="small")
    p.text = page.t(
        "tarock-logs {version} · generated {when} UTC · ruleset {ruleset} · hand content hash "
        "(sha256): ",
        version=__version__,
        when=f"{generated_at:%Y-%m-%d %H:%M}",
        ruleset=page.audit.ruleset,
    )
    html_el(p, "code", page.audit.hand_id)
