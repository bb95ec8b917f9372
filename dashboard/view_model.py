"""The dashboard's view model: what the pages show, built from the store (no Streamlit here).

The pages (``app_pages/``) only present; everything they show about a hand, a tournament or a
player's name comes from here, as plain dataclasses, dicts and lists, so it is tested without
a browser. Queries are :mod:`tarock_logs.store.read.queries`; a hand's steps are the ones the
ingest stored (:mod:`tarock_logs.store.read.timeline`: the position after each action, the findings
at their step, the radelci carried in), read from rows alone. The engine runs only where the
page asks something new of it (a what-if, the legal alternatives to an action, the dossier):
then the session as logged (:func:`tarock_logs.store.read.rebuild.load_session`, rebuilt from rows
when its file is gone) is replayed through :mod:`tarock_logs.verdict.replay`. A hand stored
before the store kept timelines (schema version 9) is replayed as before.

Glossary: a *step* is the position after one action (step 0 is the deal, before any action;
step ``k`` is after the action with 0-based index ``k - 1``); a *finding* is an illegal action
(a *violation*, citing the rule it breaks), a *discrepancy* (a score item whose recorded value
differs from the recomputed one) or an *unverified* item (something the engine could not
check). A *pseudonym* stands for a player's name when names are masked.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb
import orjson
import polars as pl

from tarock_logs.log import models as m
from tarock_logs.report import standings, text
from tarock_logs.report.dossier import render_dossier
from tarock_logs.report.i18n import date as i18n_date
from tarock_logs.report.i18n import t
from tarock_logs.report.reasons import HandFacts, ScoreLine, score_reason
from tarock_logs.rules import game_title, get_engine
from tarock_logs.rules.base import Action, Violation
from tarock_logs.store.read import queries
from tarock_logs.store.read.rebuild import load_session
from tarock_logs.store.read.timeline import (
    HandTimeline,
    TimelineStep,
    hand_timeline,
    timeline_from_record,
)
from tarock_logs.verdict import replay as rp
from tarock_logs.verdict.audit import audit_session
from tarock_logs.verdict.findings import Finding, HandPeople, violation_finding
from tarock_logs.verdict.tournament import audit_tournaments

#: every ASCII punctuation character (CommonMark reads a backslash before one as the character)
_MD_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
#: WORD JOINER: invisible, not a break
_WJ = "\u2060"


def md_text(text: object) -> str:
    """Text from a log made safe for a place where Streamlit reads Markdown (captions, alerts,
    headers, widget labels): it shows exactly that text and nothing of it is read as Markdown
    or HTML.

    Every ASCII punctuation character is backslash-escaped, which CommonMark reads as the
    character itself: no image, link, emphasis, code, heading, list, HTML or LaTeX. Line
    breaks become spaces. Streamlit's extensions that read the text after the escapes are
    gone (links from bare URLs and e-mail addresses, ``:name:`` emoji, ``:material/…:`` icons,
    ``:red[…]`` colours) are kept from seeing one by an invisible word joiner (U+2060) after
    each ``:`` and ``@`` and inside ``www.``. Tables (``st.dataframe``) and ``st.text`` show
    text as it is and need none of this.
    """
    s = " ".join(str(text).splitlines())
    s = _MD_PUNCTUATION.sub(r"\\\1", s)
    s = s.replace("\\:", "\\:" + _WJ).replace("\\@", "\\@" + _WJ)
    return re.sub(r"(?i)(www)(\\\.)", r"\1" + _WJ + r"\2", s)


# --------------------------------------------------------------------------- the view model


@dataclass(frozen=True)
class HandView:
    """Everything the replay viewer and the audit detail show for one hand."""

    hand_id: str
    session_id: str
    number: int
    game: str
    ruleset: str
    event: dict[str, Any]
    players: list[str]  # names (or ids) by seat
    dealer: int
    deal: list[list[str]]  # cards dealt to each seat
    talon: list[str]
    actions: list[Any]  # the log's actions (models)
    #: the steps (step 0 = the deal): the stored timeline's, or an engine replay's
    steps: list[TimelineStep] | list[rp.Step]
    violations: list[dict[str, Any]]
    score_rows: list[dict[str, Any]]  # item, seat, recorded, recomputed, delta
    totals: dict[str, list[int | None] | None]  # recorded / recomputed per seat
    unverified: list[str]
    contract: str | None
    declarer: int | None
    partner: int | None
    won: bool | None
    #: the stored findings in the players' words (docs/audit.md, "The fields of a finding")
    findings: list[dict[str, Any]] = field(default_factory=list)
    #: verified, partial or unverified
    verification: str = "unverified"
    prev_hand: str | None = None
    next_hand: str | None = None
    #: the engine's phase of each action (``phases[k]``: action ``k``, shown at step ``k + 1``)
    phases: list[str] = field(default_factory=list)
    #: per seat: the player's ``id``, ``name``, ``pair`` and ``role`` as recorded
    seating: list[dict[str, Any]] = field(default_factory=list)
    #: the radelci carried into and out of the hand by seat (None: none recorded)
    radelci_before: list[int] | None = None
    radelci_after: list[int] | None = None
    #: where the steps come from: ``stored`` (the store's timeline) or ``engine`` (a replay)
    source: str = "stored"
    #: the hand's card points as the engine's score counts them (its ``card_points``), as
    #: stored (None: not stored, e.g. a hand the ingest lane took)
    card_points: dict[str, Any] | None = None
    #: the engine's replay and the session as logged: only in a view built ``engine=True``
    #: (or of a hand stored without a timeline)
    replay: rp.HandReplay | None = field(default=None, repr=False)
    session: m.Session | None = field(default=None, repr=False)
    hand: m.Hand | None = field(default=None, repr=False)
    #: the hand's irregularities as recorded, ``(type, seat, kind)`` in order
    #: (:func:`tarock_logs.store.read.queries.hand_irregularities`), when read with the hand
    irregularities: list[tuple[str, int | None, str | None]] | None = None

    @property
    def n_steps(self) -> int:
        """Index of the last step (= number of actions)."""
        return len(self.actions)

    def phase_at(self, step: int) -> str | None:
        """The engine's phase of the action that led to ``step`` (None at the deal)."""
        return self.phases[step - 1] if 0 < step <= len(self.phases) else None

    def people(self) -> HandPeople | None:
        """Who is who in the hand (names by seat, roles from the declarer and partner)."""
        if self.session is None or self.hand is None:
            return None
        return HandPeople.of(self.session, self.hand, declarer=self.declarer, partner=self.partner)

    def finding_of(self, v: Violation) -> Finding | None:
        """A violation of a step as the stored finding it is (its facts, the players' names
        and roles, the rule's words and the consequence), for the one renderer of a finding;
        a violation the store has no finding of (a replay of a hand stored without a
        timeline) worded from the replay."""
        for row in self.findings:
            if row.get("code") == v.code and row.get("action_index") == v.action_index:
                return Finding.from_dict(row, game=self.game, names=self.players)
        return self._engine_finding(v)

    def _engine_finding(self, v: Violation) -> Finding | None:
        """A violation of the engine's replay as a finding, worded with the facts the store
        does not keep (the engine's ``params``)."""
        people = self.people()
        if people is None:
            return None
        return violation_finding(
            v, people, file=None, session=self.session_id, hand=self.number,
            hand_id=self.hand_id, ruleset=self.ruleset,
        )  # fmt: skip

    def stored_finding(self, row: dict[str, Any]) -> Finding:
        """A stored finding of this hand with the facts the store does not keep (the
        engine's ``params``: the cards held, a renons settlement …), taken from the same
        violation of the hand's replay; the players by name as the page shows them."""
        found = Finding.from_dict(row, game=self.game, names=self.players)
        seat = found.players[0].seat if found.players else None
        for v in self.replay.violations if self.replay is not None else ():
            if (
                v.code == found.code
                and v.action_index == found.action_index
                and (found.action_index is not None or v.seat == seat)
            ):
                worded = self._engine_finding(v)
                if worded is not None:
                    return worded
        return found

    def first_problem_step(self) -> int | None:
        """The step right after the first illegal action (where the viewer highlights it)."""
        idx = [v["action_index"] for v in self.violations if v.get("action_index") is not None]
        return min(idx) + 1 if idx else None


def hand_view(
    cur: duckdb.DuckDBPyConnection,
    hand_id: str,
    *,
    engine: bool = False,
    hand_key: int | None = None,
    session: Callable[[str], dict[str, Any] | None] | None = None,
) -> HandView | None:
    """Build the viewer's model of one stored hand (None if ``hand_id`` is unknown).

    A hand with a stored timeline is read in two queries: the hand and its rows
    (:func:`tarock_logs.store.read.queries.hand_record`) and its session
    (:func:`~tarock_logs.store.read.queries.session_record`; ``session``: where the caller
    keeps those, cached per session, else read here).

    Its steps are the stored timeline's (:func:`tarock_logs.store.read.timeline.hand_timeline`),
    read from rows alone: the log file may be gone. ``engine``: the session as logged and the
    engine's replay of the hand are kept on the view too (:attr:`HandView.replay`,
    :attr:`~HandView.session`, :attr:`~HandView.hand`: for the legal alternatives, the
    dossier, the findings' engine facts). A hand stored before the store kept timelines is
    replayed by the engine either way. ``hand_key``: the hand's key when the caller knows it
    (:class:`tarock_logs.store.read.queries.HandDirectory`): its rows are then found without
    reading the id column."""
    if not engine:
        rec = queries.hand_record(cur, hand_id, hand_key)
        if rec is not None and rec["timeline"] is not None:
            sess = (session or (lambda sid: queries.session_record(cur, sid)))(rec["session_id"])
            if sess is not None:
                tl = timeline_from_record(rec, sess["seating"])
                if tl is not None:
                    return _recorded_view(hand_id, rec, sess, tl)
    r = queries.hand_facts(cur, hand_id, hand_key)
    if r is None:
        return None
    tl = hand_timeline(cur, hand_id, hand_key)
    if tl is not None and not engine:
        return _stored_view(cur, hand_id, r, tl, hand_key)
    return _engine_view(cur, hand_id, r, tl)


def _seating(cur: duckdb.DuckDBPyConnection, session_id: str) -> list[dict[str, Any]]:
    rows = queries.fetch(
        cur,
        """SELECT sp.player_id, p.name, sp.pair, sp.role FROM session_players sp
           LEFT JOIN players p USING (player_id) WHERE sp.session_id = ? ORDER BY sp.seat""",
        [session_id],
    )
    return [{"id": a, "name": b, "pair": c, "role": d} for a, b, c, d in rows]


def _event(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": r["event_name"],
        "tournament": r["tournament"],
        "round": r["round"],
        "table": r["table_name"],
        "date": str(r["date"]) if r["date"] else None,
    }


def _totals(found: dict[str, Any]) -> dict[str, list[int | None] | None]:
    rec = [t["recorded_total"] for t in found["totals"]]
    reco = [t["recomputed_total"] for t in found["totals"]]
    return {
        "recorded": rec if any(x is not None for x in rec) else None,
        "recomputed": reco if any(x is not None for x in reco) else None,
    }


def _stored_view(
    cur: duckdb.DuckDBPyConnection,
    hand_id: str,
    r: dict[str, Any],
    tl: HandTimeline,
    hand_key: int | None = None,
) -> HandView:
    """The view of a hand from the store's rows alone (no engine replay, no log file)."""
    cond, params = queries.by_hand(hand_id, hand_key)
    head = queries.fetch(
        cur, f"SELECT dealer, deal, card_points FROM hands WHERE {cond} LIMIT 1", params
    )
    dealer, deal_json, points = head[0]
    deal = orjson.loads(deal_json) if isinstance(deal_json, str) else (deal_json or {})
    ids = [str(x[0]) for x in queries.fetch(
        cur, "SELECT hand_id FROM hands WHERE session_id = ? ORDER BY number", [r["session_id"]]
    )]  # fmt: skip
    index = ids.index(hand_id)
    seating = _seating(cur, r["session_id"])
    found = queries.hand_findings(cur, hand_id, hand_key)
    steps = tl.steps
    return HandView(
        hand_id=hand_id,
        session_id=r["session_id"],
        number=int(r["number"]),
        game=r["game"],
        ruleset=r["ruleset"],
        event=_event(r),
        players=[p["name"] or p["id"] for p in seating],
        dealer=int(dealer),
        deal=[list(h) for h in deal.get("hands") or []],
        talon=list(deal.get("talon") or []),
        actions=list(tl.actions),
        steps=steps,
        violations=found["violations"],
        score_rows=found["items"],
        totals=_totals(found),
        unverified=found["unverified"],
        contract=r["contract"],
        declarer=r["declarer"],
        partner=r["partner"],
        won=r["won"],
        findings=found["findings"],
        verification=found["verification"],
        prev_hand=ids[index - 1] if index > 0 else None,
        next_hand=ids[index + 1] if index + 1 < len(ids) else None,
        phases=_phases(r["game"], steps),
        seating=seating,
        radelci_before=tl.radelci_before,
        radelci_after=tl.radelci_after,
        card_points=orjson.loads(points) if isinstance(points, str) else points,
    )


def _recorded_view(
    hand_id: str, rec: dict[str, Any], sess: dict[str, Any], tl: HandTimeline
) -> HandView:
    """The view of a hand from its record and its session's (two queries: no engine replay,
    no log file); the same view :func:`_stored_view` builds from its many."""
    deal = orjson.loads(rec["deal"]) if isinstance(rec["deal"], str) else (rec["deal"] or {})
    ids = [str(h["hand_id"]) for h in sess["hands"]]
    index = ids.index(hand_id) if hand_id in ids else -1
    seating = [dict(p) for p in sess["seating"]]
    points = rec["card_points"]
    found = {"totals": rec["totals"]}
    steps = tl.steps
    return HandView(
        hand_id=hand_id,
        session_id=rec["session_id"],
        number=int(rec["number"]),
        game=rec["game"],
        ruleset=rec["ruleset"] or sess["ruleset"],
        event={
            "name": sess["event_name"],
            "tournament": sess["tournament"],
            "round": sess["round"],
            "table": sess["table_name"],
            "date": str(sess["date"]) if sess["date"] else None,
        },
        players=[p["name"] or p["id"] for p in seating],
        dealer=int(rec["dealer"]),
        deal=[list(h) for h in deal.get("hands") or []],
        talon=list(deal.get("talon") or []),
        actions=list(tl.actions),
        steps=steps,
        violations=list(rec["violations"]),
        score_rows=list(rec["items"]),
        totals=_totals(found),
        unverified=list(rec["unverified"] or []),
        contract=rec["contract"],
        declarer=rec["declarer"],
        partner=rec["partner"],
        won=rec["won"],
        # (the rows as hand_findings reads them: their seats are the timeline's)
        findings=[{k: v for k, v in f.items() if k != "seats"} for f in rec["findings"]],
        verification=str(rec["verification"]),
        prev_hand=ids[index - 1] if index > 0 else None,
        next_hand=ids[index + 1] if 0 <= index < len(ids) - 1 else None,
        phases=_phases(rec["game"], steps),
        seating=seating,
        radelci_before=tl.radelci_before,
        radelci_after=tl.radelci_after,
        card_points=orjson.loads(points) if isinstance(points, str) else points,
        irregularities=[
            (str(r["type"]), int(r["seat"]) if r["seat"] is not None else None, r["kind"])
            for r in rec["irregularities"]
        ],
    )


def _engine_view(
    cur: duckdb.DuckDBPyConnection, hand_id: str, r: dict[str, Any], tl: HandTimeline | None
) -> HandView | None:
    """The view with the engine's replay of the hand (its steps the stored timeline's when
    there is one)."""
    loaded = load_session(cur, r["session_id"])
    if loaded is None:
        return None
    session, ids = loaded
    index = ids.index(hand_id)
    hand = session.hands[index]
    # the session's earlier hands are replayed too (without views): what carries from hand to
    # hand (radelci) is then right
    replay = rp.replay_in_session(session, index)
    found = queries.hand_findings(cur, hand_id)
    players = [p.name or p.id for p in session.players]
    steps: list[TimelineStep] | list[rp.Step] = tl.steps if tl is not None else list(replay.steps)
    before = (replay.carry_before or {}).get("radelci")
    after = (replay.carry_after or {}).get("radelci")
    return HandView(
        hand_id=hand_id,
        session_id=r["session_id"],
        number=int(r["number"]),
        game=r["game"],
        ruleset=replay.ruleset_id or r["ruleset"],
        event=_event(r),
        players=players,
        dealer=hand.dealer,
        deal=[list(h) for h in hand.deal.hands] if hand.deal is not None else [],
        talon=list(hand.deal.talon) if hand.deal is not None else [],
        actions=list(hand.actions),
        steps=steps,
        violations=found["violations"],
        score_rows=found["items"],
        totals=_totals(found),
        unverified=found["unverified"] or list(replay.unverified),
        contract=r["contract"],
        declarer=r["declarer"],
        partner=r["partner"],
        won=r["won"],
        findings=found["findings"],
        verification=found["verification"],
        prev_hand=ids[index - 1] if index > 0 else None,
        next_hand=ids[index + 1] if index + 1 < len(ids) else None,
        phases=_phases(r["game"], steps),
        seating=[
            {"id": p.id, "name": p.name, "pair": p.pair, "role": p.role} for p in session.players
        ],
        radelci_before=tl.radelci_before if tl is not None else _ints(before),
        radelci_after=tl.radelci_after if tl is not None else _ints(after),
        source="stored" if tl is not None else "engine",
        card_points=dict(replay.score.card_points) if replay.score is not None else None,
        replay=replay,
        session=session,
        hand=hand,
    )


def _ints(values: Any) -> list[int] | None:
    return [int(x) for x in values] if values else None


def _phases(game: str, steps: list[TimelineStep] | list[rp.Step]) -> list[str]:
    """The engine's phase of each replayed action (none without an engine)."""
    engine = get_engine(game)
    actions = [s.action for s in steps[1:] if s.action is not None]
    return list(engine.action_phases(actions)) if engine is not None else []


def game_name(game: str, lang: str = "en") -> str:
    """A game by its name in ``lang`` (its engine's title, ``slovenian`` → ``Slovenian
    tarok``; the id of a game without an engine)."""
    return t(game_title(game), lang)


#: the roles of a player in a hand as the Players page names them (label ids)
ROLE_LABELS = {
    "declarer": "declarer",
    "partner": "partner",
    "defender": "defender",
    "attacker": "attacker",
    "klop": "klop",
    "sitting_out": "sitting out",
    "unknown": "unknown",
}


def term_label(key: str, game: str, lang: str = "en") -> str:
    """A game term of the statistics (a contract, a bonus, a Schlemm, ``game`` as a kontra's
    target) as the page shows it, in ``lang`` and the game's own words."""
    if key == "game":
        return text.target_name("game", game, lang=lang)
    named = text.contract_name(key, game, lang=lang)
    if named != key.replace("_", " "):
        return named
    return text.bonus_name(key, game)


def role_label(role: str, lang: str = "en") -> str:
    """A player's role in a hand as the page shows it, in ``lang``."""
    return t(ROLE_LABELS.get(role, role), lang)


def csv_labels(game: str, lang: str = "en") -> dict[str, Callable[[str], str]]:
    """How a CSV of hands names its contract and role columns: as the screen does (the ids
    stay in ``contract_id`` and ``role_id``)."""
    return {
        "contract": lambda c: term_label(c, game, lang),
        "role": lambda r: role_label(r, lang),
    }


def game_sections(game: str) -> tuple[str, ...]:
    """The Players page's own sections of ``game``, in order (its engine's
    ``stat_sections``)."""
    engine = get_engine(game)
    return engine.stat_sections if engine is not None else ("contracts", "bonuses")


def has_feature(game: str, feature: str) -> bool:
    """Whether ``game``'s engine declares ``feature`` (``fixed_pairs``, ``schlemm``: see
    :attr:`tarock_logs.rules.base.GameEngine.features`)."""
    engine = get_engine(game)
    return engine is not None and feature in engine.features


def event_line(view: HandView, lang: str = "en") -> str:
    """The hand's event in one line: ``"Club cup · round 2 · table B · Mar 22, 2025"`` (the
    date as the reader's locale writes it)."""
    e = view.event
    day = e.get("date")
    parts = (
        e.get("name") or e.get("tournament"),
        t("round {n}", lang, n=e["round"]) if e.get("round") else None,
        t("table {name}", lang, name=e["table"]) if e.get("table") else None,
        i18n_date(dt.date.fromisoformat(day), lang) if day else None,
    )
    return " · ".join(str(x) for x in parts if x)


def score_lines(view: HandView, players: list[str]) -> list[dict[str, Any]]:
    """The hand's score, item by item: item, who (the player, or the declarer side for an item
    of no one seat), recorded, recomputed, delta and whether the two differ (also when only
    one of them is there); the differing items first."""
    rows = []
    for r in view.score_rows:
        seat = r["seat"]
        who = players[seat] if seat is not None and seat < len(players) else "declarer side"
        differs = (r["delta"] is not None and r["delta"] != 0) or (r["recorded"] is None) != (
            r["recomputed"] is None
        )
        rows.append(
            {
                "item": r["item"],
                "who": who,
                "recorded": r["recorded"],
                "recomputed": r["recomputed"],
                "delta": r["delta"],
                "differs": differs,
            }
        )
    rows.sort(key=lambda r: not r["differs"])
    return rows


def total_lines(view: HandView, players: list[str]) -> list[dict[str, Any]]:
    """The hand's totals per player, recorded and recomputed (empty when neither is stored)."""
    rec = view.totals.get("recorded")
    reco = view.totals.get("recomputed")
    if not rec and not reco:
        return []
    rec = rec or [None] * len(players)
    reco = reco or [None] * len(players)
    return [
        {"player": p, "recorded": a, "recomputed": b, "differs": a != b}
        for p, a, b in zip(players, rec, reco, strict=False)
    ]


# --------------------------------------------------------------------------- replay helpers (pure)


def step_text(
    view: HandView,
    action: Any,
    players: list[str] | None = None,
    *,
    step: int | None = None,
    lang: str = "en",
) -> str:
    """One action of the hand as people read it (:func:`tarock_logs.report.text.describe_action`
    in the hand's game, in the phase of ``step`` when given: a Slovenian pass is *naprej* in
    the bidding, *v redu* in the announcement round): ``"Ana bids tri"``; ``"the deal"`` at
    step 0."""
    phase = view.phase_at(step) if step is not None else None
    return text.describe_action(action, game=view.game, players=players, phase=phase, lang=lang)


def phase_marks(view: HandView) -> list[tuple[str, int]]:
    """Where to jump: the first step of each phase and of each trick, plus the end.

    Returns ``(label, step)`` pairs in step order: ``("bidding", 1)``, ``("trick 1", 23)``…
    The phases are the engine's (:attr:`HandView.phases`), named by
    :func:`tarock_logs.report.text.phase_name`. A trick's step is the one where its first card
    is on the table (read from the engine's view; without views every ``n`` plays start a
    trick, ``n`` the seats dealt cards).
    """
    steps = view.steps
    n_active = sum(1 for h in view.deal if h) or len(view.players) or 1
    marks: list[tuple[str, int]] = [("deal", 0)] if steps else []
    last = None
    plays = 0
    trick_no = 0
    for st in steps[1:]:
        action = st.action
        if action is None:
            continue
        if action.type == "play":
            position = st.view or {}
            starts = (
                (len(position.get("trick") or []) == 1)
                if "trick" in position
                else plays % n_active == 0
            )
            plays += 1
            if starts:
                trick_no += 1
                marks.append((f"trick {trick_no}", st.index))
            last = "play"
            continue
        phase = view.phase_at(st.index)
        label = text.phase_name(phase) if phase is not None else action.type
        if label != last:
            marks.append((label, st.index))
            last = label
    if steps:
        marks.append(("end", len(steps) - 1))
    return marks


def played_by_seat(view: dict[str, Any], n_seats: int) -> list[list[str]]:
    """Cards each seat has played so far (completed tricks and the trick on the table)."""
    out: list[list[str]] = [[] for _ in range(n_seats)]
    for done in view.get("tricks") or []:
        for seat, card in done.get("cards") or []:
            if 0 <= seat < n_seats:
                out[seat].append(card)
    for seat, card in view.get("trick") or []:
        if 0 <= seat < n_seats:
            out[seat].append(card)
    return out


def trick_rows(
    view: dict[str, Any],
    players: list[str],
    declarer_side: set[int],
    *,
    game: str | None = None,
    lang: str = "en",
) -> list[dict[str, Any]]:
    """The trick list: trick, leader, cards (each with its player), winner, card points and
    the running totals per side. Points the engine counts in thirds (Slovenian tarok) are
    written as fractions (``5⅓``), as on a score sheet; in a game that counts tricks, not
    card points (the engine's ``trick_points_unit`` is ``"tricks"``: Royal Tarock), a trick
    has no points column and the running totals are the tricks each side has taken. The
    column names are in ``lang``."""
    from dashboard.table import thirds_text

    engine = get_engine(game) if game else None
    by_tricks = engine is not None and engine.trick_points_unit == "tricks"
    rows = []
    run_decl: float = 0
    run_opp: float = 0
    in_thirds = False
    for i, done in enumerate(view.get("tricks") or [], start=1):
        pts = 1 if by_tricks else done.get("points")
        winner = done.get("winner")
        in_thirds = in_thirds or done.get("points_unit") == "thirds"
        if isinstance(pts, (int, float)) and winner is not None:
            if winner in declarer_side:
                run_decl += pts
            else:
                run_opp += pts

        def shown(x: float | None, thirds: bool = in_thirds) -> str:
            return thirds_text(x) if thirds else ("" if x is None else f"{x:g}")

        row: dict[str, Any] = {
            t("trick", lang): i,
            t("led by", lang): players[done["leader"]] if done.get("leader") is not None else "",
            t("cards", lang): "  ".join(
                f"{text.card_text(c, game)} {players[s]}" for s, c in done.get("cards") or []
            ),
            t("won by", lang): players[winner] if winner is not None else "",
        }
        if not by_tricks:
            row[t("points", lang)] = shown(pts)
        side = t("attackers" if by_tricks else "declarer side", lang)
        row[side] = shown(run_decl) if declarer_side else ""
        row[t("defenders", lang)] = shown(run_opp) if declarer_side else ""
        rows.append(row)
    return rows


def trick_sides(view: HandView, state: dict[str, Any]) -> set[int]:
    """The seats whose tricks the trick list adds up as one side: the declarer and the
    partner (``state``: the position's view, which knows them once the bidding has named
    them), or in a game of fixed pairs the attacking pair (the pair not the dealer's)."""
    declarer = state.get("declarer", view.declarer)
    if declarer is not None:
        return {declarer} | ({view.partner} if view.partner is not None else set())
    if not has_feature(view.game, "fixed_pairs") or not view.seating:
        return set()
    pairs = [p.get("pair") for p in view.seating]
    if view.dealer >= len(pairs) or pairs[view.dealer] is None:
        return set()
    return {s for s, pr in enumerate(pairs) if pr not in (None, pairs[view.dealer])}


def tournament_report(cur: duckdb.DuckDBPyConnection, tournament: str) -> dict[str, Any] | None:
    """Standings of one tournament recomputed from the logs beside the recorded figures.

    Every session of the tournament is rebuilt from the store and audited
    (:func:`tarock_logs.verdict.audit.audit_session`), then ranked with
    :func:`tarock_logs.verdict.tournament.audit_tournaments`. Returns ``{"tournament":
    <TournamentAudit dict>, "tables": [per session: round, table, players, recorded and
    recomputed round scores and placement points, table average]}``.
    """
    audits = []
    names: dict[str, str] = {}  # as the sessions themselves name their players
    for sid in queries.tournament_sessions(cur, tournament):
        loaded = load_session(cur, sid)
        if loaded is None:
            continue
        session, _ = loaded
        names.update({p.id: p.name or p.id for p in session.players})
        audits.append(audit_session(session))
    found = [t for t in audit_tournaments(audits) if t.tournament == tournament]
    if not found:
        return None
    tables = []
    for sa in audits:
        scores = sa.recomputed_totals
        for seat, pid in enumerate(sa.players):
            rec_pp = sa.recorded_placement_points
            rec_tot = sa.recorded_totals or sa.recorded_hand_sum
            tables.append(
                {
                    "round": sa.round, "table": sa.table, "session": sa.session,
                    "player": names.get(pid, pid), "player_id": pid,
                    "recorded score": rec_tot[seat] if rec_tot and seat < len(rec_tot) else None,
                    "recomputed score": scores[seat] if scores else None,
                    "table average": round(sum(scores) / len(scores), 2) if scores else None,
                    "recorded points": rec_pp[seat] if rec_pp and seat < len(rec_pp) else None,
                    "recomputed points": sa.placement_points[seat] if sa.placement_points else None,
                }
            )  # fmt: skip
    report = found[0].to_dict()
    for s in report["standings"]:
        s["name"] = names.get(s["player"], s["player"])
    return {"tournament": report, "tables": tables}


def dossier_html(
    view: HandView, rename: Callable[[str], str] | None = None, lang: str = "en"
) -> str:
    """The self-contained HTML dispute dossier of the hand (:mod:`tarock_logs.report.dossier`).

    ``rename`` maps each player's name (e.g. to its pseudonym) before rendering; player ids
    (and so the hand's content hash) are kept; ``lang`` is the language of its labels.
    """
    return dossier_builder(view, rename, lang)()


def dossier_builder(
    view: HandView, rename: Callable[[str], str] | None = None, lang: str = "en"
) -> Callable[[], str]:
    """What :func:`dossier_html` renders, checked and prepared now (the names mapped with
    ``rename`` here, in the caller's thread), rendered when the returned function is called:
    the rendering replays the hand and values an illegal card with the solver (seconds), so
    a page offers it as a download built when pressed. Raises ``ValueError`` now for a hand
    without a session to render."""
    session, hand = view.session, view.hand
    if session is None or hand is None:
        raise ValueError(f"hand {view.hand_id} has no session to render")
    if rename is not None:
        players = [p.model_copy(update={"name": rename(p.name or p.id)}) for p in session.players]
        session = session.model_copy(update={"players": players})
    return functools.partial(render_dossier, session, hand, lang=lang)


def alternatives(view: HandView, step: int) -> list[Action]:
    """The engine's legal actions in the position of ``step`` (after ``step`` actions): a
    question for the engine (none in a view without its replay: build the view with
    ``engine=True``).

    Uses :func:`tarock_logs.verdict.replay.legal_alternatives`; if that fails, replays the
    hand's first ``step`` actions afresh (the carry from earlier hands does not change what is
    legal).
    """
    try:
        if view.replay is not None:
            return list(rp.legal_alternatives(view.replay, step))
    except Exception:  # noqa: BLE001 - fall back to a fresh partial replay
        pass
    if view.session is None or view.hand is None or not 0 <= step <= len(view.actions):
        return []
    partial = view.hand.model_copy(update={"actions": list(view.hand.actions[:step])})
    r = rp.replay_hand(view.session, partial, with_views=False)
    state = r.state
    if state is None or r.actions_applied != step:
        return []
    try:
        return list(state.legal_actions())
    except Exception:  # noqa: BLE001
        return []


# --------------------------------------------------------------------------- navigation (pure)


@dataclass(frozen=True)
class ActionEntry:
    """One line of the replay's action list: the step it leads to, its phase (the engine's),
    the trick it belongs to (plays only), the action in words and whether it was illegal."""

    step: int
    phase: str | None
    trick: int | None
    text: str
    illegal: bool


def action_entries(view: HandView, players: list[str], lang: str = "en") -> list[ActionEntry]:
    """Every action of the hand in words (:func:`tarock_logs.report.text.describe_action` in
    the hand's game and ``lang``), each with the step it leads to; step 0 is the deal."""
    bad = {v["action_index"] for v in view.violations if v.get("severity", "error") == "error"}
    out = [ActionEntry(0, None, None, text.describe_action(None, lang=lang), False)]
    for st in view.steps[1:]:
        action = st.action
        if action is None:
            continue
        trick = None
        if action.type == "play":
            before = view.steps[st.index - 1].view or {}
            trick = len(before.get("tricks") or []) + 1
        phase = view.phase_at(st.index)
        said = text.describe_action(action, game=view.game, players=players, phase=phase, lang=lang)
        illegal = st.action_index in bad or any(v.severity == "error" for v in st.violations)
        out.append(ActionEntry(st.index, phase, trick, said, illegal))
    return out


def trick_stops(view: HandView) -> list[int]:
    """The positions ↑/↓ (PageUp/PageDown) move between: the deal, the first step of each
    phase before the play, every step that completes a trick, and the last step."""
    stops = {0, max(len(view.steps) - 1, 0)}
    last_phase = None
    prev_tricks = 0
    for st in view.steps[1:]:
        if st.action is None:
            continue
        n_tricks = len((st.view or {}).get("tricks") or [])
        if st.action.type == "play":
            if n_tricks > prev_tricks:
                stops.add(st.index)
        else:
            phase = view.phase_at(st.index)
            if phase != last_phase:
                stops.add(st.index)
                last_phase = phase
        prev_tricks = n_tricks
    return sorted(stops)


def next_stop(stops: list[int], step: int, forward: bool) -> int:
    """The next (or previous) of ``stops`` after (before) ``step``; ``step`` at either end."""
    if forward:
        return next((s for s in stops if s > step), step)
    return next((s for s in reversed(stops) if s < step), step)


def phase_jumps(view: HandView, lang: str = "en") -> list[tuple[str, int]]:
    """The phase jumps in hand order: each phase once, at its first step (the engine's
    phases, so Royal Tarock's bidding comes before its announcements as played), then each
    trick and the end; labels in ``lang``."""
    out: list[tuple[str, int]] = [(t("the deal", lang), 0)] if view.steps else []
    seen: set[str] = set()
    prev_tricks = 0
    for st in view.steps[1:]:
        if st.action is None:
            continue
        if st.action.type == "play":
            before = view.steps[st.index - 1].view or {}
            n_before = len(before.get("tricks") or [])
            if not (before.get("trick") or []) and (n_before >= prev_tricks):
                out.append((t("trick {n}", lang, n=n_before + 1), st.index))
            prev_tricks = n_before + 1
            continue
        phase = view.phase_at(st.index) or st.action.type
        if phase not in seen:
            seen.add(phase)
            out.append((text.phase_name(phase, lang=lang), st.index))
    if view.steps:
        out.append((t("end of the hand", lang), len(view.steps) - 1))
    return out


def parse_step(raw: str | None, last: int) -> tuple[int | None, bool]:
    """A ``step=`` URL value read against a hand of ``last`` steps: ``(step, ok)``; ``(None,
    True)`` for no value; ``ok`` False for a value that is no step of this hand (then the step
    is the nearest one that is)."""
    if raw is None or raw == "":
        return None, True
    try:
        n = int(raw)
    except ValueError:
        return 0, False
    if 0 <= n <= last:
        return n, True
    return (0 if n < 0 else last), False


def allowed_cards(view: HandView, step: int) -> list[str]:
    """At a step whose action is an illegal card: the cards the rules allowed that seat to
    play instead (the engine's legal plays in the position before it, as the ingest stored
    them; replayed for a hand stored without a timeline); empty otherwise."""
    if not 0 < step < len(view.steps):
        return []
    st = view.steps[step]
    action = st.action
    if action is None or action.type != "play" or not st.violations:
        return []
    if isinstance(st, TimelineStep):
        return list(st.view.get("allowed") or [])
    return [
        a.card
        for a in alternatives(view, step - 1)
        if a.type == "play" and a.seat == action.seat and a.card
    ]


def reason_facts(
    view: HandView,
    players: list[str],
    irregularities: Sequence[tuple[str, int | None, str | None]] = (),
) -> HandFacts:
    """The facts a score line's reason is said from (:mod:`tarock_logs.report.reasons`):
    the stored hand, its record and its tricks."""
    final = (view.steps[-1].view or {}) if view.steps else {}
    return HandFacts(
        game=view.game,
        players=players,
        contract=view.contract,
        declarer=view.declarer,
        partner=view.partner,
        won=view.won,
        card_points=dict(view.card_points or {}),
        actions=list(view.actions),
        pairs=[p.get("pair") for p in view.seating]
        if has_feature(view.game, "fixed_pairs")
        else [],
        tricks=list(final.get("tricks") or ()),
        irregularities=list(irregularities),
        lines=[
            ScoreLine(str(r["item"]), r["seat"], r["recomputed"])
            for r in view.score_rows
            if r["recomputed"] is not None
        ],
    )


def end_summary(
    view: HandView,
    players: list[str],
    lang: str = "en",
    irregularities: Sequence[tuple[str, int | None, str | None]] = (),
) -> dict[str, Any]:
    """The end-of-hand panel: the contract and its result, the card points (thirds as
    fractions), the recomputed score item by item with its reason (names, not seats; in
    ``lang``), the radelci before and after, and the cards each player still held when the
    hand ended early (none when every card was played). ``irregularities`` are the hand's as
    stored (:func:`tarock_logs.store.read.queries.hand_irregularities`: a renons or a penalty's
    reason names its player).

    Returns ``{"headline": str, "card_points": str | None, "items": [rows], "radelci":
    [rows], "remaining": [(name, cards)]}``.
    """
    from dashboard.table import thirds_text

    contract, declarer, partner, won = view.contract, view.declarer, view.partner, view.won
    sides = _fixed_pair_sides(view, players)
    bits = [text.contract_name(contract, view.game, lang=lang)] if contract or not sides else []
    if sides is not None:  # a game of fixed pairs: the dealer's pair defends
        attackers, defenders = sides
        bits.append(t("attackers {names}", lang, names=" + ".join(attackers)))
        bits.append(t("defenders {names}", lang, names=" + ".join(defenders)))
    if declarer is not None and declarer < len(players):
        who = players[declarer]
        if partner is not None and partner < len(players) and partner != declarer:
            who += " + " + players[partner]
        bits.append(who)
    if won is not None:
        bits.append(t("won", lang) if won else t("lost", lang))
    cp = dict(view.card_points or {})
    card_points = None
    if "declarer_side_thirds" in cp:
        card_points = t(
            "card points: declarer side {a}, defenders {b}",
            lang,
            a=thirds_text(cp.get("declarer_side_thirds")),
            b=thirds_text(cp.get("defenders_thirds")),
        )
    elif "declarer_side" in cp and "defenders" in cp:
        card_points = t(
            "card points: declarer side {a}, defenders {b}",
            lang,
            a=cp["declarer_side"],
            b=cp["defenders"],
        )
    elif "declarer_side" in cp:
        card_points = t("card points: declarer side {a}", lang, a=cp["declarer_side"])
    if "tricks_attackers" in cp and "tricks_defenders" in cp:
        tricks = t(
            "tricks: attackers {a}, defenders {b}",
            lang,
            a=cp["tricks_attackers"],
            b=cp["tricks_defenders"],
        )
        card_points = f"{card_points} · {tricks}" if card_points else tricks
    items = []
    facts = reason_facts(view, players, irregularities)
    for line in facts.lines:  # the stored recomputation, line by line
        seat = line.seat
        who = (
            players[seat] if seat is not None and seat < len(players) else t("declarer side", lang)
        )
        items.append(
            {
                t("item", lang): _item_name(line.item, view.game, lang),
                t("who", lang): who,
                t("points", lang): line.value,
                t("reason", lang): score_reason(line, facts, lang),
            }
        )
    radelci = []
    before, after = view.radelci_before, view.radelci_after
    if (before and any(before)) or (after and any(after)):
        for s, name in enumerate(players):
            radelci.append(
                {
                    t("player", lang): name,
                    t("radelci before", lang): before[s] if before and s < len(before) else 0,
                    t("radelci after", lang): after[s] if after and s < len(after) else 0,
                }
            )
    final = view.steps[-1].view or {} if view.steps else {}
    remaining = [
        (players[s], list(h))
        for s, h in enumerate(final.get("hands") or [])
        if h and s < len(players)
    ]
    return {
        "headline": " · ".join(bits),
        "card_points": card_points,
        "items": items,
        "radelci": radelci,
        "remaining": remaining,
    }


def _fixed_pair_sides(view: HandView, players: list[str]) -> tuple[list[str], list[str]] | None:
    """In a game of fixed pairs (the ``fixed_pairs`` feature), the names of the attacking pair
    and of the defending pair (the dealer's); None in other games or without pairs."""
    if not has_feature(view.game, "fixed_pairs") or not view.seating:
        return None
    pairs = [p.get("pair") for p in view.seating]
    if view.dealer >= len(pairs) or pairs[view.dealer] is None:
        return None
    mine = pairs[view.dealer]
    defenders = [players[s] for s, pr in enumerate(pairs) if pr == mine and s < len(players)]
    attackers = [players[s] for s, pr in enumerate(pairs) if pr not in (None, mine)]
    return attackers, defenders


def _item_name(item: str, game: str, lang: str) -> str:
    """A score item in the game's words (a bonus), else translated
    (:func:`tarock_logs.report.text.score_item_name`)."""
    return text.score_item_name(item, game, lang=lang)


# ------------------------------------------------------------------- a session's score sheet


def score_sheet(
    sheet: dict[str, Any], players: list[str], lang: str = "en"
) -> tuple[pl.DataFrame, set[tuple[int, str]]]:
    """A session's score sheet (:func:`tarock_logs.store.read.queries.session_sheet`) as a table:
    one row per hand (the recorded totals by player), then the session total as recorded,
    the recorded hands added up, the recomputed total and the placement points. A cell that
    differs from the recomputation reads ``✖ recorded → recomputed``; the second value is the
    set of those cells as (row index, column) for highlighting. Its words in ``lang``."""
    cols = [p or t("seat {n}", lang, n=i) for i, p in enumerate(players)]
    differs = {(str(a), int(b)) for a, b in sheet["differs"]}
    rows: list[dict[str, Any]] = []
    marked: set[tuple[int, str]] = set()

    def cell(row: int, seat: int, key: str, recorded: Any, recomputed: Any) -> str:
        if (key, seat) in differs:
            marked.add((row, cols[seat]))
            return f"✖ {_num(recorded)} → {_num(recomputed)}"
        return _num(recorded)

    by_hand: dict[int, dict[int, dict[str, Any]]] = {}
    for h in sheet["hands"]:
        by_hand.setdefault(int(h["number"]), {})[int(h["seat"])] = h
    for number, seats in by_hand.items():
        r = len(rows)
        row: dict[str, Any] = {"": t("hand {n}", lang, n=number)}
        for s, c in enumerate(cols):
            h = seats.get(s, {})
            row[c] = cell(r, s, str(number), h.get("recorded_total"), h.get("recomputed_total"))
        rows.append(row)
    totals = {int(x["seat"]): x for x in sheet["totals"]}
    lines = (
        (t("session total (recorded)", lang), "session_total", "recorded_session_total",
         "recomputed_total"),
        (t("recorded hands added up", lang), "session_total_sum", "recorded_total",
         "recorded_session_total"),
        (t("session total (recomputed)", lang), "", "recomputed_total", "recomputed_total"),
        (t("placement points", lang), "placement_points", "placement_points",
         "placement_points_recomputed"),
    )  # fmt: skip
    for label, key, rec_col, cmp_col in lines:
        r = len(rows)
        row = {"": label}
        for s, c in enumerate(cols):
            tot = totals.get(s, {})
            if key == "session_total_sum":  # the sheet's total against its own hands
                row[c] = _num(tot.get(rec_col))
                if (key, s) in differs:
                    marked.add((r, c))
                    row[c] = "✖ " + t(
                        "{value} (the sheet says {total})",
                        lang,
                        value=row[c],
                        total=_num(tot.get(cmp_col)),
                    )
            else:
                row[c] = cell(r, s, key, tot.get(rec_col), tot.get(cmp_col))
        rows.append(row)
    return pl.DataFrame(rows), marked


def _num(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)


# ------------------------------------------------------------------- tournament: cross-table


def points_shown(v: Any, lang: str = "en") -> str:
    """Placement points (or a total of them) as people write them: ``12``, ``4.5``
    (``4,5`` in Slovenian and German); ``—`` for none."""
    if v is None or (isinstance(v, float) and v != v):
        return "—"
    return text.points_text(float(v), lang=lang, signed=False)


def ranking(
    report: dict[str, Any], rename: Callable[[str], str] | None = None
) -> list[Mapping[str, Any]]:
    """The final ranking of the tournament of ``report``; with ``rename`` (names masked)
    players sharing a rank in the order of the names shown
    (:func:`tarock_logs.report.standings.ranking_order`)."""
    return standings.ranking_order(report["tournament"]["standings"], rename)


def cross_table(
    report: dict[str, Any], rename: Callable[[str], str] | None = None
) -> list[dict[str, Any]]:
    """Who met whom in the tournament of ``report`` (:func:`tournament_report`): per player and
    round, the table, the opponents met there and the placement points, in :func:`ranking`'s
    order (:func:`tarock_logs.report.standings.cross_table`)."""
    return standings.cross_table(report["tournament"], rename)


def standings_html(
    report: dict[str, Any], rename: Callable[[str], str] | None = None, lang: str = "en"
) -> str:
    """The printable standings of the tournament of ``report``: a self-contained HTML page of
    the final ranking and the cross-table in ``lang`` (names through ``rename``, escaped)."""
    return standings.render_standings(report["tournament"], lang=lang, rename=rename)


# ------------------------------------------------------------------- what-if re-score


def what_if_rulesets(game: str) -> list[str]:
    """The ids of the rulesets ``game``'s engine knows (none without an engine)."""
    engine = get_engine(game)
    return list(engine.rulesets) if engine is not None else []


def what_if_options(game: str, ruleset: str) -> dict[str, Any]:
    """The options of ``ruleset`` a what-if can change one at a time (yes/no, numbers and
    words; not lists or paths), by name, with their value in that ruleset."""
    engine = get_engine(game)
    if engine is None or ruleset not in engine.rulesets:
        return {}
    return {
        k: v
        for k, v in engine.rulesets[ruleset].options.items()
        if isinstance(v, (bool, int, float, str)) and not k.endswith("_path")
    }


def what_if_values(game: str, option: str) -> list[Any]:
    """The values ``option`` takes in the rulesets of ``game`` (in order, once each)."""
    engine = get_engine(game)
    seen: dict[Any, None] = {}
    for rs in engine.rulesets.values() if engine is not None else ():
        if option in rs.options:
            seen.setdefault(rs.options[option], None)
    return list(seen)


def what_if(
    cur: duckdb.DuckDBPyConnection,
    hand_id: str,
    ruleset: str,
    option: str | None = None,
    value: Any = None,
) -> dict[str, Any] | None:
    """The hand ``hand_id`` and its session re-scored under ``ruleset`` (with ``option`` set
    to ``value`` when one is given) beside the stored score: the engine runs here, the store
    is only read. Returns ``{"items": [item, seat, recorded, stored, what_if, change,
    differs], "totals": [seat, stored, what_if, change, differs], "session": [seat, stored,
    what_if, change, differs], "notes": [what the engine could not check]}`` (None for an
    unknown hand). ``stored`` is the stored recomputation, ``change`` = what-if − stored."""
    facts = queries.hand_facts(cur, hand_id)
    if facts is None:
        return None
    loaded = load_session(cur, facts["session_id"])
    if loaded is None:
        return None
    session, ids = loaded
    index = ids.index(hand_id)
    if option is not None:
        session = session.model_copy(update={"options": {**session.options, option: value}})
    sa = audit_session(session, ruleset=ruleset)
    hand = sa.hands[index]
    stored = queries.hand_findings(cur, hand_id)
    # a line of the declarer's side counts for each of its seats (as the store keeps it)
    side = list(dict.fromkeys(s for s in (hand.declarer, hand.partner) if s is not None))
    new: dict[tuple[str, int | None], int] = {}
    for item, seat, v in hand.recomputed.items if hand.recomputed is not None else ():
        for key in [(item, s) for s in side] if seat is None and side else [(item, seat)]:
            new[key] = new.get(key, 0) + v
    items = []
    seen: set[tuple[str, int | None]] = set()
    for r in stored["items"]:
        key = (str(r["item"]), r["seat"])
        seen.add(key)
        items.append(_change({"item": key[0], "seat": key[1], "recorded": r["recorded"]},
                             r["recomputed"], new.get(key)))  # fmt: skip
    for key, v in new.items():
        if key not in seen:
            items.append(_change({"item": key[0], "seat": key[1], "recorded": None}, None, v))
    items.sort(key=lambda r: not r["differs"])
    totals = [
        _change({"seat": int(t["seat"])}, t["recomputed_total"], _at(hand.recomputed.totals, i))
        for i, t in enumerate(stored["totals"])
    ] if hand.recomputed is not None else []  # fmt: skip
    sheet = queries.session_sheet(cur, facts["session_id"])
    sess = [
        _change({"seat": int(t["seat"])}, t["recomputed_total"], _at(sa.recomputed_totals, i))
        for i, t in enumerate(sheet["totals"] if sheet is not None else [])
    ]
    return {
        "ruleset": sa.ruleset,
        "items": items,
        "totals": totals,
        "session": sess,
        "notes": list(hand.unverified),
    }


def _at(values: Any, i: int) -> Any:
    return values[i] if values is not None and i < len(values) else None


def _change(row: dict[str, Any], stored: Any, new: Any) -> dict[str, Any]:
    """A line of the what-if: no line and a line of 0 are the same."""
    change = (new or 0) - (stored or 0) if stored is not None or new is not None else None
    differs = bool(change)
    return {**row, "stored": stored, "what_if": new, "change": change, "differs": differs}
