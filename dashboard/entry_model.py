"""The hand entry of the ``enter`` page: a hand built click by click and judged as it grows.

No Streamlit here: the page (``app_pages/enter.py``) only presents an :class:`Entry` and calls
its methods, so everything it does is tested without a browser. An entry holds what a referee
reconstructs at the table: the game, ruleset and seating, the deal (each seat's cards and the
talon, clicked in or pasted as tokens), then the actions in order, the irregularities ruled on
and the score as written. At every moment it can replay itself through the game's engine
(:func:`tarock_logs.verdict.replay.replay_hand`): the seat to move, the legal choices there, the
verdict of every action entered so far, and the audit of the whole hand with a statement of what
can and cannot be concluded from what was entered.

The result is a valid log file (:meth:`Entry.log_text`, one session with one hand, format
1.0 unless something of 1.1 is used) and its dispute dossier (:meth:`Entry.dossier_html`);
:meth:`Entry.save` writes the log into a folder for ``tarock ingest`` (the dashboard never
writes the store).

Words: a *target* is where the next clicked card goes while dealing (a seat's hand or the
talon); the *remaining* cards are those of the pack not dealt yet; a *choice* is an action
offered for the seat to move, legal (the engine's ``legal_actions``) or, to record what
happened at the table, illegal (a card the rules forbid): the engine judges it at once.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from dashboard.entries import EntryBox
from tarock_logs.cards import CARDS, CardError, parse_card
from tarock_logs.log import models as m
from tarock_logs.log.reader import read_bytes
from tarock_logs.log.writer import dumps_sessions
from tarock_logs.report import text
from tarock_logs.report.dossier import render_dossier
from tarock_logs.report.i18n import LANGS, t, tn
from tarock_logs.rules import games, get_engine
from tarock_logs.rules.base import Action, GameEngine, Ruleset, Violation
from tarock_logs.verdict.audit import HandAudit, audit_hand, hand_people
from tarock_logs.verdict.convert import action_to_log
from tarock_logs.verdict.findings import Finding, violation_finding
from tarock_logs.verdict.replay import HandReplay, replay_hand

__all__ = ["COUNT_SENTENCES", "GAMES", "SENTENCES", "Choice", "CountEntry", "Entry", "Verdict"]

#: the games a hand can be entered for (those with an engine)
#: the games a hand can be entered for: every registered game, in the registry's order
GAMES: tuple[str, ...] = games()

#: the sentences of :meth:`Entry.statement` (English; the page translates them)
SENTENCES: dict[str, str] = {
    "deal_open": "The deal is not complete ({n} cards to place): nothing can be judged yet, "
    "because whether a card was legal depends on every player's cards.",
    "invalid": "The entry is not a valid log yet.",
    "checked": "Checked: the deal, and the legality of {n} entered actions against it ({bad} "
    "illegal).",
    "stopped": "The engine could not apply action {i}: the actions after it are not judged.",
    "partial": "The hand was entered only up to the {phase} ({tricks}): the "
    "rest of the play, the card points, the bonuses and the score are not known, so they are "
    "not checked; nothing about the entered actions depends on what came later.",
    "no_score": "The hand is complete and the engine scored it; no written score was entered, "
    "so there is nothing to compare it with.",
    "differs": "The written score differs from the engine's in {n} lines.",
    "agrees": "The written score agrees with the engine's, line by line.",
    "verified": "Verification: verified.",
    "partial_state": "Verification: partly verified.",
    "unverified": "Verification: not verified.",
}
_STATE_SENTENCE = {"verified": "verified", "partial": "partial_state", "unverified": "unverified"}


def default_name(seat: int, lang: str = "en") -> str:
    """The name a seat has until the player's is entered: ``Player 1``, ``Igralec 1``,
    ``Spieler 1`` (1-based, in the page's language)."""
    return t("Player {n}", lang, n=seat + 1)


def is_default_name(name: str, seat: int) -> bool:
    """Whether ``name`` is the default name of ``seat`` in any language of the interface."""
    return any(name == default_name(seat, lang) for lang in LANGS)


@dataclass(frozen=True, slots=True)
class Choice:
    """An action offered for the seat to move: its log-format dict, its words, and whether the
    engine finds it legal (an illegal choice records what happened; the verdict follows)."""

    action: dict[str, Any]
    label: str
    legal: bool = True


class Counted(NamedTuple):
    """A field of a sentence that counts (``{n} trick complete`` / ``{n} tricks complete``):
    said in the reader's language with its plural form (:func:`said_fields`)."""

    one: str
    many: str
    n: int


def said_fields(fields: dict[str, Any], lang: str) -> dict[str, Any]:
    """A sentence's fields with each :class:`Counted` said in ``lang``."""
    return {
        k: tn(v.one, v.many, v.n, lang) if isinstance(v, Counted) else v for k, v in fields.items()
    }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The engine's verdict on one entered action: its violations (empty: legal)."""

    index: int
    label: str
    violations: tuple[Violation, ...]

    @property
    def legal(self) -> bool:
        return not any(v.severity == "error" for v in self.violations)


def _canonical(action: dict[str, Any]) -> dict[str, Any]:
    """A log action as the canonical writer has it: validated, defaults left out, ``type``
    first (raises ``ValidationError`` for a malformed action)."""
    d = m.ActionAdapter.validate_python(action).model_dump(mode="json", exclude_defaults=True)
    return {"type": d["type"], **{k: v for k, v in d.items() if k != "type"}}


def _slug(name: str) -> str:
    import unicodedata

    t = "".join(
        c for c in unicodedata.normalize("NFKD", name.lower()) if not unicodedata.combining(c)
    )
    return re.sub(r"[^a-z0-9]+", ".", t).strip(".") or "player"


@dataclass
class Entry:
    """One hand being entered (see the module docstring). Seats are 0-based in playing order;
    target ``n`` (the table size) is the talon."""

    game: str = GAMES[0]
    ruleset: str = ""
    players: list[str] = field(default_factory=list)
    dealer: int = -1
    hands: list[list[str]] = field(default_factory=list)
    talon: list[str] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    irregularities: list[dict[str, Any]] = field(default_factory=list)
    scores: list[int] | None = None
    radelci_before: list[int] | None = None
    radelci_after: list[int] | None = None
    event: dict[str, Any] = field(default_factory=dict)
    notes: str = ""
    session_id: str = ""
    target: int = 0
    #: the language of the default names (``Player 1``) of the seats without a name
    lang: str = "en"
    #: what was read, replayed and audited for the entry as it last stood (keyed by its log)
    _memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.ruleset:
            self.ruleset = self.engine.default_ruleset
        if not self.players:
            sizes = self.engine.table_sizes(self.ruleset_obj)
            n = 4 if 4 in sizes else sizes[0]
            self.players = [default_name(s, self.lang) for s in range(n)]
        if self.dealer < 0 or self.dealer >= len(self.players):
            self.dealer = len(self.players) - 1  # then P1 (the forehand) is the first seat
        if not self.session_id:
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            self.session_id = f"entry-{stamp}-{secrets.token_hex(2)}"
        self._fit_deal()

    def relabel(self, lang: str) -> bool:
        """The page's language is ``lang``: the seats still without a player's name take
        their default name in it. True when a name changed."""
        self.lang = lang
        new = [
            default_name(s, lang) if is_default_name(p, s) else p
            for s, p in enumerate(self.players)
        ]
        changed = new != self.players
        self.players = new
        return changed

    # ------------------------------------------------------------------ the table

    @property
    def engine(self) -> GameEngine:
        eng = get_engine(self.game)
        if eng is None:
            raise ValueError(f"no rules engine for {self.game}")
        return eng

    @property
    def ruleset_obj(self) -> Ruleset:
        return self.engine.ruleset(self.ruleset)

    @property
    def n(self) -> int:
        return len(self.players)

    def table_sizes(self) -> tuple[int, ...]:
        return self.engine.table_sizes(self.ruleset_obj)

    def rulesets(self) -> list[str]:
        return sorted(self.engine.rulesets)

    def set_table(self, *, game: str, ruleset: str, players: Sequence[str], dealer: int) -> None:
        """Change the game, ruleset, seating or dealer. A new game or table size starts the
        deal and the actions afresh; renaming players or another dealer keeps the cards (the
        actions are kept too and judged again)."""
        names = [
            default_name(s, self.lang) if not p.strip() or is_default_name(p.strip(), s) else p
            for s, p in enumerate(players)
        ]
        reset = game != self.game or len(names) != self.n
        self.game = game
        self.ruleset = ruleset if ruleset in self.engine.rulesets else self.engine.default_ruleset
        self.players = names
        self.dealer = dealer if 0 <= dealer < self.n else self.n - 1
        if reset:
            self.hands, self.talon, self.actions = [], [], []
            self.irregularities, self.scores = [], None
            self.radelci_before = self.radelci_after = None
            self.target = 0
        self._fit_deal()

    def _fit_deal(self) -> None:
        while len(self.hands) < self.n:
            self.hands.append([])
        del self.hands[self.n :]
        if self.target > self.n:
            self.target = 0
        self._advance()

    # ------------------------------------------------------------------ the deal

    def pack(self) -> tuple[str, ...]:
        return self.engine.pack(self.ruleset_obj)

    def shape(self) -> tuple[tuple[int, ...], int]:
        """Cards each seat is dealt (0: sits out) and the talon size."""
        s = self.engine.deal_shape(self.n, self.dealer, self.ruleset_obj)
        if s is None:
            return tuple([0] * self.n), 0
        return tuple(s.hands), s.talon

    def targets(self) -> list[tuple[int, str, int, int]]:
        """Every target (index, name, cards it takes, cards it has)."""
        sizes, talon = self.shape()
        out = [(s, self.players[s], sizes[s], len(self.hands[s])) for s in range(self.n)]
        if talon:
            out.append((self.n, "talon", talon, len(self.talon)))
        return out

    def dealt(self) -> set[str]:
        return {c for h in self.hands for c in h} | set(self.talon)

    def remaining(self) -> list[str]:
        """The pack's cards not dealt yet, in the pack's order."""
        dealt = self.dealt()
        return [c for c in self.pack() if c not in dealt]

    def _cards_of(self, target: int) -> list[str]:
        return self.talon if target == self.n else self.hands[target]

    def _advance(self) -> None:
        """Move the target on to the first target with room, from the current one."""
        ts = self.targets()
        order = [t for t in ts if t[0] >= self.target] + [t for t in ts if t[0] < self.target]
        for idx, _, need, have in order:
            if have < need:
                self.target = idx
                return

    def deal_card(self, card: str, target: int | None = None) -> str | None:
        """Put ``card`` into ``target`` (default: the current target); the problem, if any.
        The target moves on when it is full."""
        t = self.target if target is None else target
        if card not in self.pack():
            return f"{card} is not a card of the {self.game} pack"
        if card in self.dealt():
            return f"{text.card_text(card, self.game)} is dealt already"
        need = {i: nd for i, _, nd, _ in self.targets()}.get(t)
        if need is None:
            return "no such place for a card"
        cards = self._cards_of(t)
        if len(cards) >= need:
            return f"{self.target_name(t)} has all {need} cards"
        cards.append(card)
        self.target = t
        self._advance()
        return None

    def undeal(self, target: int, card: str) -> None:
        """Take ``card`` back out of ``target`` (it returns to the remaining cards)."""
        cards = self._cards_of(target)
        if card in cards:
            cards.remove(card)
            self.target = target

    def paste(self, target: int, tokens: str) -> list[str]:
        """Deal the cards written in ``tokens`` (any of the log format's aliases, separated by
        spaces or commas) into ``target``, in order; the problems, one per bad token."""
        problems: list[str] = []
        for tok in re.split(r"[\s,;]+", tokens.strip()):
            if not tok:
                continue
            try:
                card = parse_card(tok, self.game, self.engine.card_names(self.ruleset_obj))
            except CardError:
                problems.append(f"{tok!r} is not a card of the {self.game} pack")
                continue
            why = self.deal_card(card, target)
            if why:
                problems.append(why)
        return problems

    def fill_last(self) -> int | None:
        """When one seat's hand alone lacks cards and the remaining cards are just enough, the
        seat that takes them all (None otherwise; the talon is never filled this way: its
        order is part of the deal)."""
        open_ = [t for t in self.targets() if t[3] < t[2]]
        if (
            len(open_) == 1
            and open_[0][0] < self.n
            and open_[0][2] - open_[0][3] == len(self.remaining())
        ):
            return open_[0][0]
        return None

    def deal_rest(self) -> None:
        """Deal the remaining cards to the one seat that lacks them (:meth:`fill_last`)."""
        seat = self.fill_last()
        if seat is not None:
            for c in self.remaining():
                self.hands[seat].append(c)
            self._advance()

    def target_name(self, target: int) -> str:
        return "the talon" if target == self.n else self.players[target]

    @property
    def deal_complete(self) -> bool:
        return all(have == need for _, _, need, have in self.targets())

    # ------------------------------------------------------------------ the log

    def players_doc(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        ids: set[str] = set()
        seating = self.engine.seating(self.n)
        for s, name in enumerate(self.players):
            pid = _slug(name)
            while pid in ids:
                pid += f".{s + 1}"
            ids.add(pid)
            p: dict[str, Any] = {"id": pid, "name": name}
            if seating is not None:
                p["pair"], p["role"] = seating[s]
            out.append(p)
        return out

    def hand_doc(self) -> dict[str, Any]:
        deal: dict[str, Any] = {"hands": [list(h) for h in self.hands]}
        if self.talon:
            deal["talon"] = list(self.talon)
        hand: dict[str, Any] = {"number": 1, "dealer": self.dealer, "deal": deal}
        if self.radelci_before is not None:
            hand["radelci_before"] = list(self.radelci_before)
        hand["actions"] = [dict(a) for a in self.actions]
        if self.irregularities:
            hand["irregularities"] = [dict(i) for i in self.irregularities]
        if self.scores is not None:
            result: dict[str, Any] = {"scores": list(self.scores)}
            if self.radelci_after is not None:
                result["radelci_after"] = list(self.radelci_after)
            hand["result"] = result
        if self.notes.strip():
            hand["notes"] = self.notes.strip()
        return hand

    def session_doc(self) -> dict[str, Any]:
        """The log session of the entry. A hand whose play is not over is marked recorded in
        part (``extent: partial``): entering it only up to the disputed trick is on purpose."""
        doc = self._session_doc()
        if self.deal_complete and self._stops_early(doc):
            doc["hands"][0]["extent"] = "partial"
            doc["format_version"] = m.VERSION_1_1
        return doc

    def _stops_early(self, doc: dict[str, Any]) -> bool:
        raw = json.dumps(doc, ensure_ascii=False).encode()
        memo = self._memo
        if memo.get("whole_key") != raw:
            s, _ = self._read(raw)
            st = replay_hand(s, 0, with_views=False).state if s is not None else None
            memo["whole_key"], memo["stops"] = raw, st is not None and not st.is_over()
        stops: bool = memo["stops"]
        return stops

    def _session_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format": m.FORMAT_NAME,
            "format_version": m.FORMAT_VERSION,
            "id": self.session_id,
            "game": self.game,
            "ruleset": self.ruleset,
        }
        ev = {k: v for k, v in self.event.items() if v not in (None, "")}
        if ev:
            doc["event"] = ev
        doc["players"] = self.players_doc()
        doc["first_dealer"] = self.dealer
        doc["hands"] = [self.hand_doc()]
        doc["source"] = {"software": "tarock-logs hand entry (dashboard /enter)"}
        return doc

    def read(self) -> tuple[m.Session | None, list[str]]:
        """The entry read back as a log (by the reader: canonical cards, every structural
        check): the session, or None with the reader's errors."""
        raw = json.dumps(self.session_doc(), ensure_ascii=False).encode()
        memo = self._memo
        if memo.get("key") != raw:
            memo.clear()
            memo["key"] = raw
        if "read" not in memo:
            memo["read"] = self._read(raw)
        out: tuple[m.Session | None, list[str]] = memo["read"]
        return out

    def _read(self, raw: bytes) -> tuple[m.Session | None, list[str]]:
        recs = read_bytes(raw, file=f"{self.session_id}.json", kind="json")
        errors = [f"{e.code}: {e.message}" for r in recs for e in r.all_errors() if e.is_error]
        s = recs[0].session if recs else None
        if s is None or not s.hands or errors:
            return None, errors or ["the hand could not be read"]
        return s, []

    def log_text(self) -> str:
        """The log file: the entry as one session in canonical JSON (raises ``ValueError``
        while the entry is not a valid log, e.g. the deal is incomplete)."""
        s, errors = self.read()
        if s is None:
            raise ValueError("; ".join(errors))
        return dumps_sessions([s], kind="json")

    def file_name(self) -> str:
        return re.sub(r"[^A-Za-z0-9._-]+", "-", self.session_id).strip("-") + ".json"

    def save(self, folder: Path) -> Path:
        """Save the log as a new file of the entry box at ``folder``
        (:class:`dashboard.entries.EntryBox`): it waits in ``.pending/``, never ingested,
        until a referee accepts it; saving again makes another file (nothing is replaced).
        Raises :class:`~dashboard.entries.EntryRefused` over the box's quota."""
        box = EntryBox(folder)
        return box.pending_dir / box.save(self.session_id, self.log_text())

    def dossier_html(self, lang: str = "en") -> str:
        """The hand's dispute dossier (HTML) in ``lang``."""
        s, errors = self.read()
        if s is None:
            raise ValueError("; ".join(errors))
        return render_dossier(s, 1, lang=lang)

    # ------------------------------------------------------------------ judging

    def replay(self) -> HandReplay | None:
        """The entry replayed with views (None while it is not a valid log)."""
        s, _ = self.read()
        if s is None:
            return None
        if "replay" not in self._memo:
            self._memo["replay"] = replay_hand(s, 0, with_views=True)
        r: HandReplay = self._memo["replay"]
        return r

    def audit(self) -> HandAudit | None:
        s, _ = self.read()
        if s is None:
            return None
        if "audit" not in self._memo:
            r = self.replay()
            assert r is not None
            self._memo["audit"] = audit_hand(
                s, s.hands[0], r, file=self.file_name(), engine=self.engine
            )
        a: HandAudit = self._memo["audit"]
        return a

    def finding_of(self, v: Violation) -> Finding | None:
        """An engine's violation in the entered hand as a finding (the players' names and
        roles, the facts, the rule and the consequence), for the one renderer of a finding;
        None while the entry is no valid log."""
        s, _ = self.read()
        r = self.replay()
        if s is None or r is None:
            return None
        return violation_finding(
            v, hand_people(s, s.hands[0], r), file=None, session=s.id,
            hand=s.hands[0].number, hand_id="", ruleset=r.ruleset_id,
        )  # fmt: skip

    def state_view(self, r: HandReplay | None = None) -> dict[str, Any]:
        r = r if r is not None else self.replay()
        st = r.state if r is not None else None
        return st.view() if st is not None else {}

    def to_move(self, r: HandReplay | None = None) -> int | None:
        r = r if r is not None else self.replay()
        if r is None or r.state is None or r.actions_applied < len(self.actions):
            return None
        return r.state.to_move()

    def phase(self, r: HandReplay | None = None) -> str | None:
        r = r if r is not None else self.replay()
        st = r.state if r is not None else None
        return str(st.phase) if st is not None else None

    def label(self, action: dict[str, Any] | Action) -> str:
        a = m.ActionAdapter.validate_python(action) if isinstance(action, dict) else action
        return text.describe_action(a, game=self.game, players=self.players)

    def choices(self, r: HandReplay | None = None) -> list[Choice]:
        """What the seat to move may do now (the engine's legal actions), and in the play
        the other cards that seat holds, offered as illegal choices. A discard is chosen card
        by card (:meth:`discard_choices`)."""
        r = r if r is not None else self.replay()
        st = r.state if r is not None else None
        if r is None or st is None or st.is_over() or r.actions_applied < len(self.actions):
            return []
        legal = st.legal_actions()
        if str(st.phase) == "discard":
            return []
        out = [Choice(_canonical(action_to_log(a)), self._phrase(a)) for a in legal]
        seat = st.to_move()
        if str(st.phase) == "play" and seat is not None:
            held = self.held(seat, st.view())
            ok = {a.card for a in legal if a.type == "play"}
            out += [
                Choice(
                    {"type": "play", "seat": seat, "card": c},
                    self._phrase(Action("play", seat, card=c)),
                    legal=False,
                )
                for c in held
                if c not in ok
            ]
        return out

    def _phrase(self, a: Action) -> str:
        return text.action_phrase(a, self.game)

    def held(self, seat: int | None, view: dict[str, Any]) -> list[str]:
        """The cards ``seat`` holds now (the engine's view)."""
        if seat is None:
            return []
        hands = view.get("hands") or []
        return list(hands[seat]) if seat < len(hands) else []

    def discard_choices(self, r: HandReplay | None = None) -> tuple[int, list[str], set[str]]:
        """In the discard phase: the declarer, his cards, and those he may lay away."""
        r = r if r is not None else self.replay()
        st = r.state if r is not None else None
        if st is None or str(st.phase) != "discard":
            return -1, [], set()
        seat = st.to_move()
        if seat is None:
            return -1, [], set()
        ok = {c for a in st.legal_actions() for c in a.cards}
        return seat, self.held(seat, st.view()), ok

    def discard_count(self, seat: int, r: HandReplay | None = None) -> int:
        """How many cards the declarer lays away: what he holds beyond a full hand."""
        view = self.state_view(r)
        sizes, _ = self.shape()
        return max(0, len(self.held(seat, view)) - sizes[seat])

    def discard(self, seat: int, cards: Sequence[str]) -> dict[str, Any]:
        """Record the discard of ``cards`` by ``seat`` (taroks laid away are shown)."""
        a: dict[str, Any] = {"type": "discard", "seat": seat, "cards": list(cards)}
        shown = [c for c in cards if CARDS[c].is_tarok]
        if shown:
            a["shown"] = shown
        return self.push(a)

    def push(self, action: dict[str, Any]) -> dict[str, Any]:
        """Record ``action`` (a log-format dict, legal or not) and return it as validated."""
        d = _canonical(action)
        self.actions.append(d)
        return d

    def undo(self) -> dict[str, Any] | None:
        return self.actions.pop() if self.actions else None

    def verdicts(self, r: HandReplay | None = None) -> list[Verdict]:
        """The engine's verdict on every entered action, in order."""
        r = r if r is not None else self.replay()
        if r is None:
            return []
        by: dict[int, list[Violation]] = {}
        for v in r.violations:
            if v.action_index is not None:
                by.setdefault(v.action_index, []).append(v)
        return [Verdict(i, self.label(a), tuple(by.get(i, ()))) for i, a in enumerate(self.actions)]

    def hand_findings(self, r: HandReplay | None = None) -> list[Violation]:
        r = r if r is not None else self.replay()
        return [v for v in (r.violations if r else []) if v.action_index is None]

    # ------------------------------------------------------------------ what can be concluded

    def statement(
        self, r: HandReplay | None = None, audit: HandAudit | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        """What the audit can and cannot conclude from what was entered: sentences of
        :data:`SENTENCES` with their fields (English text, fields), so that the page says them
        in its language (:meth:`statement_text` in English)."""
        if not self.deal_complete:
            missing = sum(need - have for _, _, need, have in self.targets())
            return [(SENTENCES["deal_open"], {"n": missing})]
        r = r if r is not None else self.replay()
        if r is None:
            return [(SENTENCES["invalid"], {})]
        a = audit if audit is not None else self.audit()
        bad = sum(1 for v in self.verdicts(r) if not v.legal)
        out: list[tuple[str, dict[str, Any]]] = [
            (SENTENCES["checked"], {"n": r.actions_applied, "bad": bad})
        ]
        if r.actions_applied < len(self.actions):
            out.append((SENTENCES["stopped"], {"i": r.actions_applied}))
        st = r.state
        if st is not None and not st.is_over():
            tricks = len(self.state_view(r).get("tricks") or [])
            fields = {
                "phase": text.phase_name(st.phase),
                "tricks": Counted("{n} trick complete", "{n} tricks complete", tricks),
            }
            out.append((SENTENCES["partial"], fields))
        elif a is not None and a.recomputed is not None:
            if a.recorded is None:
                out.append((SENTENCES["no_score"], {}))
            elif a.discrepancies:
                out.append((SENTENCES["differs"], {"n": len(a.discrepancies)}))
            else:
                out.append((SENTENCES["agrees"], {}))
        if a is not None:
            out.append((SENTENCES[_STATE_SENTENCE[a.verification]], {}))
        return out

    def statement_text(self) -> list[str]:
        """:meth:`statement` in English."""
        return [msg.format(**said_fields(fields, "en")) for msg, fields in self.statement()]


# ---------------------------------------------------------------------- a counted hand

#: the sentences of :meth:`CountEntry.statement` (English; the page translates them)
COUNT_SENTENCES: dict[str, str] = {
    "no_contract": "Choose the contract and who played it.",
    "not_supported": "This game's engine cannot count a hand from its piles.",
    "rest_defenders": "The defenders' pile is the rest of the pack: {n} cards.",
    "rest_seat": "The pile of {player} is the rest of the pack: {n} cards.",
    "invalid": "The entry is not a valid log yet.",
    "counted": "Counted from the piles: the declarer's side has {thirds} thirds ({points} points).",
    "counted_seats": "Counted from the piles, in thirds: {piles}.",
    "counted_won": "Counted from the piles: the declarer won the contract.",
    "counted_lost": "Counted from the piles: the declarer lost the contract.",
    "no_score": "No written score was entered, so there is nothing to compare it with.",
    "differs": "The written score differs from the count in {n} lines.",
    "agrees": "The written score agrees with the count, line by line.",
    "partial_state": "Verification: partly verified (the order of the tricks is not known).",
    "unverified": "Verification: not verified.",
}


@dataclass
class CountEntry:
    """A **counted** hand being entered (log format 1.2, ``extent: counted``): the contract
    and its announcements, the talon, the cards the declarer took and laid away, and the cards
    each side took, tapped in; the other side's pile is the rest of the pack (in klop, where
    each player keeps his own pile, the last player's). The table (game, ruleset, players,
    dealer, session id, event) is the :class:`Entry`'s. Places for a tapped card
    (:attr:`place`): ``talon``, ``taken`` (a talon card the declarer took), ``discards``, or
    ``pile:<k>`` (pile ``k``: 0 the declarer's side, or klop's seat ``k``)."""

    table: Entry
    contract: str | None = None
    declarer: int | None = None
    partner: int | None = None
    called: str | None = None
    #: announced bonus -> the side that announced it (``declarer`` / ``defenders``)
    announced: dict[str, str] = field(default_factory=dict)
    #: an announced bonus the table recorded failed (the piles decide some; not the ultimos)
    failed: set[str] = field(default_factory=set)
    kontras: list[str] = field(default_factory=list)
    #: the seat that lost the mond, as the table recorded it (the piles decide it unless the
    #: mond and the škis end in one pile)
    mondfang: int | None = None
    #: the card points the table counted: the declarer's side's, or in klop each seat's
    count: int | None = None
    count_by_seat: list[int | None] = field(default_factory=list)
    talon: list[str] = field(default_factory=list)
    taken: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    piles: list[list[str]] = field(default_factory=list)
    scores: list[int] | None = None
    place: str = "talon"
    #: the replay behind the last :meth:`audit` (its score's card points)
    _replay: HandReplay | None = field(default=None, repr=False, compare=False)

    # ------------------------------------------------------------------ what the game says

    @property
    def terms(self) -> Any:
        """The contracts, bonuses and kontra targets of a hand recorded as facts."""
        return self.table.engine.fact_terms(self.table.ruleset_obj)

    def contracts(self) -> list[str]:
        t = self.terms
        return list(t.contracts) if t is not None else []

    def form(self) -> str | None:
        """``sides``, ``seats`` (klop) or None (no contract yet, or the engine cannot count
        piles: :meth:`~tarock_logs.rules.base.GameEngine.counted_piles`)."""
        if self.contract is None:
            return None
        return self.table.engine.counted_piles(self.table.ruleset_obj, self.contract)

    def talon_size(self) -> int:
        return self.table.shape()[1]

    def pile_count(self) -> int:
        """The piles tapped in (the last one is the rest): 1 with sides, the active seats
        but one in klop."""
        if self.form() == "seats":
            return max(0, self.n_active() - 1)
        return 1

    def n_active(self) -> int:
        return sum(1 for k in self.table.shape()[0] if k)

    def active_seats(self) -> list[int]:
        sizes = self.table.shape()[0]
        return [s for s in range(self.table.n) if sizes[s]]

    def places(self) -> list[str]:
        """Where a tapped card may go, in the order the page offers them."""
        out = ["talon", "taken", "discards"] if self.form() == "sides" and self.talon_size() else []
        out += [f"pile:{k}" for k in range(self.pile_count())]
        return out

    def _fit(self) -> None:
        while len(self.piles) < self.pile_count():
            self.piles.append([])
        del self.piles[self.pile_count() :]
        if self.place not in self.places():
            self.place = self.places()[0] if self.places() else "talon"

    def set_contract(
        self,
        contract: str | None,
        declarer: int | None = None,
        partner: int | None = None,
        called: str | None = None,
    ) -> None:
        """The contract and who played it; a change of form (klop's piles per seat, the
        sides' piles) starts the piles afresh."""
        before = self.form()
        self.contract = contract
        self.declarer, self.partner, self.called = declarer, partner, called
        if self.form() != before:
            self.piles, self.taken, self.discards = [], [], []
            if self.form() == "seats":  # klop's talon goes with the tricks, into the piles
                self.talon = []
        self._fit()

    # ------------------------------------------------------------------ the cards

    def placed(self) -> set[str]:
        """The cards in a place: the talon cards not taken, the discards, the piles (a card
        the declarer took from the talon is placed again where it ended)."""
        taken = set(self.taken)
        return {
            *(c for c in self.talon if c not in taken),
            *self.discards,
            *(c for p in self.piles for c in p),
        }

    def rest(self) -> list[str]:
        """The pack's cards in no place: the last pile (the defenders', or klop's last
        player's)."""
        placed = self.placed()
        return [c for c in self.table.pack() if c not in placed]

    def rest_owner(self) -> str:
        """Who takes the rest: ``defenders`` or the seat number of klop's last player."""
        if self.form() == "seats":
            seats = self.active_seats()
            return str(seats[-1]) if seats else "defenders"
        return "defenders"

    def cards_of(self, place: str) -> list[str]:
        if place == "talon":
            return self.talon
        if place == "taken":
            return self.taken
        if place == "discards":
            return self.discards
        k = int(place.partition(":")[2])
        self._fit()
        return self.piles[k]

    def tap(self, card: str, place: str | None = None) -> str | None:
        """A tap on ``card`` with ``place`` chosen (default :attr:`place`): it goes there, or
        comes back out if it is there already; the problem, if any. A card taken must be one
        of the talon; every other card is in one place at most."""
        where = place or self.place
        if card not in self.table.pack():
            return f"{card} is not a card of the {self.table.game} pack"
        cards = self.cards_of(where)
        if card in cards:
            cards.remove(card)
            if where in ("talon", "taken"):  # a card taken and placed again goes back too
                for other in (self.taken, self.discards, *self.piles):
                    if card in other and other is not cards:
                        other.remove(card)
            return None
        if where == "taken":
            if card not in self.talon:
                return f"{text.card_text(card, self.table.game)} is not in the talon"
            cards.append(card)
            return None
        elsewhere = {*self.discards, *(c for p in self.piles for c in p)}
        if card in elsewhere or (card in self.talon and card not in self.taken):
            return f"{text.card_text(card, self.table.game)} is placed already"
        if where == "talon" and len(self.talon) >= self.talon_size():
            return f"the talon has all {self.talon_size()} cards"
        cards.append(card)
        return None

    # ------------------------------------------------------------------ the log

    def facts_doc(self) -> dict[str, Any]:
        f: dict[str, Any] = {"contract": self.contract or ""}
        if self.form() == "sides":
            if self.declarer is not None:
                f["declarer"] = self.declarer
            if self.partner is not None:
                f["partner"] = self.partner
            if self.called:
                f["called"] = self.called
            if self.count is not None:
                f["card_points"] = self.count
        elif any(p is not None for p in self.count_by_seat):
            f["points_by_seat"] = [int(p or 0) for p in self.count_by_seat[: self.table.n]]
        bonuses = [
            {"bonus": b, "side": side, "announced": True, "made": b not in self.failed}
            for b, side in self.announced.items()
        ]
        if bonuses:
            f["bonuses"] = bonuses
        if self.kontras:
            f["kontras"] = [{"target": t} for t in self.kontras]
        if self.mondfang is not None and self.form() == "sides":
            f["mondfang"] = [{"seat": self.mondfang}]
        return f

    def counted_doc(self) -> dict[str, Any]:
        c: dict[str, Any] = {}
        if self.talon and self.form() == "sides":
            c["talon"] = list(self.talon)
        if self.form() == "seats":
            seats = self.active_seats()
            by_seat: list[list[str]] = [[] for _ in range(self.table.n)]
            for k, s in enumerate(seats[:-1]):
                by_seat[s] = list(self.piles[k]) if k < len(self.piles) else []
            if seats:  # the last player's pile is the rest (klop: the talon went with the tricks)
                by_seat[seats[-1]] = self.rest()
            c["by_seat"] = by_seat
            return c
        if self.taken:
            c["talon_taken"] = list(self.taken)
        if self.discards:
            c["discards"] = list(self.discards)
        c["declarer"] = list(self.piles[0]) if self.piles else []
        c["defenders"] = self.rest()
        return c

    def session_doc(self) -> dict[str, Any]:
        doc = self.table._session_doc()
        hand: dict[str, Any] = {
            "number": 1,
            "dealer": self.table.dealer,
            "extent": "counted",
            "facts": self.facts_doc(),
            "counted": self.counted_doc(),
        }
        scores = self.scores if self.scores is not None else self.table.scores
        if scores is not None:
            hand["result"] = {"scores": list(scores)}
        doc["hands"] = [hand]
        doc["format_version"] = m.VERSION_1_2
        doc["source"] = {"software": "tarock-logs hand entry (dashboard /enter, counted)"}
        return doc

    def read(self) -> tuple[m.Session | None, list[str]]:
        """The entry read back as a log: the session, or None with the reader's errors."""
        raw = json.dumps(self.session_doc(), ensure_ascii=False).encode()
        return self.table._read(raw)

    def log_text(self) -> str:
        s, errors = self.read()
        if s is None:
            raise ValueError("; ".join(errors))
        return dumps_sessions([s], kind="json")

    def save(self, folder: Path) -> Path:
        """Save the log as a new file of the entry box at ``folder``, waiting for a referee's
        acceptance, as :meth:`Entry.save` does."""
        box = EntryBox(folder)
        return box.pending_dir / box.save(self.table.session_id, self.log_text())

    def audit(self) -> HandAudit | None:
        s, _ = self.read()
        if s is None:
            return None
        r = self._replay = replay_hand(s, 0, with_views=False)
        return audit_hand(s, s.hands[0], r, file=self.table.file_name(), engine=self.table.engine)

    # ------------------------------------------------------------------ what can be concluded

    def statement(self, audit: HandAudit | None = None) -> list[tuple[str, dict[str, Any]]]:
        """What can be concluded from what was entered (:data:`COUNT_SENTENCES`, English text
        and fields)."""
        if self.contract is None:
            return [(COUNT_SENTENCES["no_contract"], {})]
        if self.form() is None:
            return [(COUNT_SENTENCES["not_supported"], {})]
        out: list[tuple[str, dict[str, Any]]] = []
        owner = self.rest_owner()
        n_rest = len(self.rest())
        if owner.isdigit():
            player = self.table.players[int(owner)]
            out.append((COUNT_SENTENCES["rest_seat"], {"n": n_rest, "player": player}))
        else:
            out.append((COUNT_SENTENCES["rest_defenders"], {"n": n_rest}))
        a = audit if audit is not None else self.audit()
        r = self._replay
        if a is None or a.recomputed is None or r is None or r.score is None:
            out.append((COUNT_SENTENCES["invalid"], {}))
            return out
        pts = r.score.card_points
        if "declarer_side_thirds" in pts:
            th = int(pts["declarer_side_thirds"])
            out.append((COUNT_SENTENCES["counted"], {"thirds": th, "points": (th + 1) // 3}))
        elif "thirds" in pts:
            piles = ", ".join(
                f"{self.table.players[s]} {t}" for s, t in enumerate(pts["thirds"]) if t is not None
            )
            out.append((COUNT_SENTENCES["counted_seats"], {"piles": piles}))
        elif r.score.won is not None:
            out.append((COUNT_SENTENCES["counted_won" if r.score.won else "counted_lost"], {}))
        if a.recorded is None:
            out.append((COUNT_SENTENCES["no_score"], {}))
        elif a.discrepancies:
            out.append((COUNT_SENTENCES["differs"], {"n": len(a.discrepancies)}))
        else:
            out.append((COUNT_SENTENCES["agrees"], {}))
        state = "partial_state" if a.verification != "unverified" else "unverified"
        out.append((COUNT_SENTENCES[state], {}))
        return out
