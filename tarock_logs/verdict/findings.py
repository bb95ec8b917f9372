"""One findings model, from the engine to the page: what the audit found, where, about whom.

Every finding the audit reports, whatever produced it (an engine's violation, a score that
differs from the recomputation, a session total, placement points), is one :class:`Finding`:

* ``level``: ``action`` (one action of a hand), ``hand``, ``session`` or ``tournament``;
* its location: ``file``, ``session``, ``hand`` (``Hand.number``), ``hand_id`` (the content
  hash), ``action_index`` (0-based into the hand's actions), ``tournament``;
* ``players``: the player(s) concerned, each a :class:`PlayerRef` with id, name, seat (the
  0-based index of the log) and **role in that hand** (``declarer``, ``partner``, ``defender``,
  ``attacker`` (Royal Tarock's attacking pair), ``player`` (klop, or nobody declared),
  ``sitting_out`` (the dealer at a table of five)) and whether the player dealt;
* ``code`` (stable, ``area.snake_name``), ``severity`` (``error``, ``warning``, ``info``);
* ``message``: a sentence with the players' names and the facts that make it true, the rule
  cited and the consequence for the score;
* ``rule`` (``"<ruleset id> §<section>"``) and ``rule_text``: the rule's own words, a short
  quotation kept with the ruleset data (``tarock_logs/rules/<game>/quotations.json``), by
  language (the ruleset's own and ``en``);
* ``consequence``: what the finding does to the score (None when the audit does not know);
* for a score finding: ``item``, ``recorded``, ``recomputed``.

Codes of the audit's own findings (the engines' codes are theirs): ``score.item_differs``,
``score.total_differs``, ``score.radelci_before_differs``, ``score.radelci_after_differs``
(hand level), ``session.total_differs``, ``session.total_sum_differs``,
``session.placement_points_differ`` (session level), ``tournament.standing_differs``
(tournament level: the recorded placement points would rank a player differently).

And every hand, session and tournament is in exactly one **verification** state
(:data:`VERIFICATION_STATES`): ``verified`` (every recorded item recomputed and compared),
``partial`` (something could not be checked: each such item is listed, with why, in the
record's ``unverified``) or ``unverified`` (no engine, or the hand could not be scored at all);
with or without findings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any, Literal

from tarock_logs.log import models as m
from tarock_logs.report import text
from tarock_logs.rules.base import Violation

__all__ = [
    "AUDIT_CODES",
    "VERIFICATION_STATES",
    "Finding",
    "HandPeople",
    "Level",
    "PlayerRef",
    "Verification",
    "quotation",
    "worst_state",
]

Level = Literal["action", "hand", "session", "tournament"]
Verification = Literal["verified", "partial", "unverified"]
VERIFICATION_STATES: tuple[Verification, ...] = ("verified", "partial", "unverified")

#: the audit's own finding codes (score and session arithmetic), with what each means
AUDIT_CODES: Mapping[str, str] = {
    "score.item_differs": "a recorded score item differs from the recomputed one",
    "score.total_differs": "a player's recorded hand total differs from the recomputed one",
    "score.radelci_before_differs": "the radelci recorded before the hand differ from the "
    "ones carried from the previous hands",
    "score.radelci_after_differs": "the radelci recorded after the hand differ from the "
    "recomputed ones",
    "score.running_total_differs": "the running total written under a hand is not the "
    "previous running total plus the hand's recorded score (an addition error on the sheet)",
    "score.not_zero_sum": "the scores written for a hand do not sum to 0 in a game where what "
    "one player wins another pays",
    "session.total_differs": "a recorded session total differs from the recomputed hands",
    "session.total_sum_differs": "a recorded session total differs from the sum of the "
    "recorded hands (an addition error on the sheet)",
    "session.placement_points_differ": "recorded placement points differ from the ones the "
    "recomputed round scores earn",
    "tournament.standing_differs": "the recorded placement points would rank a player "
    "differently from the recomputed ones",
    "count.not_supported": "the game's engine cannot count a hand from its piles (a counted "
    "hand): it is scored from its facts as recorded",
}

_ITEM_CODES = {
    "total": "score.total_differs",
    "radelci_before": "score.radelci_before_differs",
    "radelci_after": "score.radelci_after_differs",
    "running_total": "score.running_total_differs",
    "zero_sum": "score.not_zero_sum",
    "session_total": "session.total_differs",
    "session_total_sum": "session.total_sum_differs",
    "placement_points": "session.placement_points_differ",
}


def discrepancy_code(item: str) -> str:
    """The finding code of a score difference on ``item``."""
    return _ITEM_CODES.get(item, "score.item_differs")


def worst_state(states: Iterable[Verification]) -> Verification:
    """The state of a whole made of parts in ``states``: ``verified`` only when every part
    is, ``unverified`` when every part is (or there is none), else ``partial``."""
    seen = set(states)
    if not seen or seen == {"unverified"}:
        return "unverified"
    return "verified" if seen == {"verified"} else "partial"


# --------------------------------------------------------------------------- the rule's words


@cache
def _quotations(game: str) -> Mapping[str, Any]:
    """The quotation table of one game's rulesets (``rules/<game>/quotations.json``)."""
    try:
        raw = resources.files(f"tarock_logs.rules.{game}").joinpath("quotations.json")
        doc: dict[str, Any] = json.loads(raw.read_text("utf-8"))
    except (ModuleNotFoundError, FileNotFoundError, ValueError):
        return {}
    rulesets: Mapping[str, Any] = doc.get("rulesets", {})
    return rulesets


def quotation(game: str, rule: str | None) -> dict[str, str]:
    """The rule's own text for a citation ``"<ruleset id> §<section>"``: ``{language: text}``
    with the ruleset's language and ``en`` (empty when the table has no quotation for it)."""
    if not rule or " §" not in rule:
        return {}
    ruleset, section = rule.split(" §", 1)
    entry = _quotations(game).get(ruleset, {})
    quote = entry.get("sections", {}).get(section)
    return {str(k): str(v) for k, v in quote.items()} if isinstance(quote, Mapping) else {}


def consequence_of(game: str, ruleset: str | None, code: str) -> str | None:
    """What a finding of ``code`` does to the recomputed score, as the table of the game's
    rulesets says (``consequences`` in ``quotations.json``); None when it does not say."""
    entry = _quotations(game).get(ruleset or "", {})
    said = entry.get("consequences", {}).get(code)
    return str(said) if said else None


# --------------------------------------------------------------------------- players


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player concerned by a finding: id, name (the id when the log has none), seat (the
    0-based index of the log; None in a tournament-level finding), role in that hand and
    whether the player dealt it."""

    id: str
    name: str
    seat: int | None
    role: str
    dealer: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "seat": self.seat,
            "role": self.role,
            "dealer": self.dealer,
        }


@dataclass(slots=True)
class HandPeople:
    """Who is who in one hand: names by seat, each seat's role, and the facts that show a
    role (the called king: the partner is whoever holds it)."""

    game: str
    ids: list[str]
    names: list[str]
    roles: list[str]
    dealer: int
    called: str | None = None

    @classmethod
    def of(
        cls,
        session: m.Session,
        hand: m.Hand,
        *,
        declarer: int | None,
        partner: int | None,
        pairs: Mapping[str, Sequence[int]] | None = None,
    ) -> HandPeople:
        """The roles of ``hand``'s players from the engine's declarer and partner (or, for
        a game of fixed pairs, its ``pairs`` of attackers and defenders)."""
        n = len(session.players)
        roles = ["player"] * n
        if declarer is not None:
            roles = ["defender"] * n
            roles[declarer] = "declarer"
            if partner is not None and partner != declarer and 0 <= partner < n:
                roles[partner] = "partner"
        elif pairs:
            for word, seats in (("attacker", pairs.get("attackers", ())), ("defender",
                                pairs.get("defenders", ()))):  # fmt: skip
                for s in seats:
                    if 0 <= s < n:
                        roles[s] = word
        if n == 5 and 0 <= hand.dealer < n:
            roles[hand.dealer] = "sitting_out"
        called = next((a.card for a in hand.actions if a.type == "call"), None)
        return cls(
            session.game,
            [p.id for p in session.players],
            text.player_names(session),
            roles,
            hand.dealer,
            called,
        )

    def ref(self, seat: int) -> PlayerRef | None:
        if not 0 <= seat < len(self.ids):
            return None
        return PlayerRef(
            self.ids[seat], self.names[seat], seat, self.roles[seat], seat == self.dealer
        )

    def name(self, seat: int | None) -> str:
        return text.player_name(self.names, seat)

    def describe(self, seat: int) -> str:
        """``Vid Petek, the declarer's partner (who holds the called ♠K)``: the name with the
        role and the fact behind it (the name alone when the role says nothing)."""
        if not 0 <= seat < len(self.names):
            return f"seat {seat}"
        role = self.roles[seat]
        if role == "player":
            return self.names[seat] + (", the dealer" if seat == self.dealer else "")
        desc = f"{self.names[seat]}, {text.role_name(role)}"
        if role == "partner" and self.called:
            desc += f" (who holds the called {text.card_text(self.called, self.game)})"
        return desc


# --------------------------------------------------------------------------- findings


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding (module docstring: the fields and the codes)."""

    level: Level
    code: str
    severity: str
    message: str
    file: str | None = None
    session: str | None = None
    hand: int | None = None
    hand_id: str | None = None
    action_index: int | None = None
    tournament: str | None = None
    players: tuple[PlayerRef, ...] = ()
    rule: str | None = None
    rule_text: Mapping[str, str] = field(default_factory=dict)
    consequence: str | None = None
    item: str | None = None
    recorded: int | float | None = None
    recomputed: int | float | None = None
    card: str | None = None
    #: the facts the finding is worded from (an engine's ``Violation.params``: the legal
    #: cards, the led suit and the cards of it held, a renons settlement …; an audit
    #: finding's hands or sessions), JSON values
    params: Mapping[str, Any] = field(default_factory=dict)
    #: the hand's players by seat (names, as the sentence says them), for the seats a
    #: finding's facts name (a renons settlement)
    names: tuple[str, ...] = ()
    #: the engine's own English sentence in the players' words (the English wording of a
    #: code without a template of its own)
    detail: str | None = None
    game: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.file,
            "session": self.session,
            "hand": self.hand,
            "hand_id": self.hand_id,
            "action_index": self.action_index,
            "tournament": self.tournament,
            "players": [p.to_dict() for p in self.players],
            "rule": self.rule,
            "rule_text": dict(self.rule_text),
            "consequence": self.consequence,
            "item": self.item,
            "recorded": self.recorded,
            "recomputed": self.recomputed,
            "card": self.card,
            "params": _jsonable(self.params),
        }

    def text(self, lang: str | None = "en") -> str:
        """The finding in ``lang`` (:func:`tarock_logs.report.text.finding_sentence`)."""
        return text.finding_sentence(self, lang)

    @classmethod
    def from_dict(
        cls,
        d: Mapping[str, Any],
        *,
        game: str | None = None,
        names: Sequence[str] = (),
        params: Mapping[str, Any] | None = None,
    ) -> Finding:
        """A finding from its :meth:`to_dict` form or a stored row (``players`` as dicts or
        JSON; missing fields stay empty); ``params`` for a stored row that has none."""
        raw = d.get("players") or []
        if isinstance(raw, str):
            raw = json.loads(raw)
        refs = tuple(
            PlayerRef(str(p.get("id") or p.get("name") or ""), str(p.get("name") or ""),
                      p.get("seat"), str(p.get("role") or "player"), bool(p.get("dealer")))
            for p in raw if isinstance(p, Mapping)
        )  # fmt: skip
        quote = d.get("rule_text") or {}
        if isinstance(quote, str):
            quote = json.loads(quote)
        return cls(
            level=d.get("level") or ("action" if d.get("action_index") is not None else "hand"),
            code=str(d.get("code") or ""),
            severity=str(d.get("severity") or "error"),
            message=str(d.get("message") or ""),
            file=d.get("file"),
            session=d.get("session"),
            hand=d.get("hand"),
            hand_id=d.get("hand_id"),
            action_index=d.get("action_index"),
            tournament=d.get("tournament"),
            players=refs,
            rule=d.get("rule"),
            rule_text=dict(quote),
            consequence=d.get("consequence"),
            item=d.get("item"),
            recorded=d.get("recorded"),
            recomputed=d.get("recomputed"),
            card=d.get("card"),
            params=dict(params if params is not None else d.get("params") or {}),
            names=tuple(names),
            game=game or d.get("game"),
        )


def _jsonable(value: Any) -> Any:
    """``value`` with tuples as lists and anything else that JSON has no word for as text."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


_SEAT_RE = re.compile(r"\bseat (\d+)(?: \((?:P\d|[^()]*(?:attackers|defenders))\))?")
_CARD_RE = re.compile(r"\b(T(?:2[0-2]|1\d|[1-9])|[HDSC](?:K|Q|N|J|G|10|[1-9]))\b")


def reword(message: str, people: HandPeople, subject: int | None) -> str:
    """An engine's message in the players' words: ``seat N`` (with the engine's position or
    party label) becomes the player's name (the first mention of ``subject`` also says the
    role and the fact behind it), card tokens become cards as people write them, and a kontra
    ``on game`` is ``on the game``."""
    done_subject = False

    def seat(match: re.Match[str]) -> str:
        nonlocal done_subject
        s = int(match.group(1))
        if s == subject and not done_subject:
            done_subject = True
            desc = people.describe(s)
            return desc + "," if desc != people.name(s) else desc
        return people.name(s)

    said = _SEAT_RE.sub(seat, message)
    said = re.sub(r",(?=[;:.,])", "", said)  # "Name, the partner,;" -> "Name, the partner;"
    said = re.sub(r"\bon game\b", "on the game", said)
    said = _CARD_RE.sub(lambda mt: text.card_text(mt.group(1), people.game), said)
    return said[:1].upper() + said[1:]


def violation_finding(
    v: Violation,
    people: HandPeople,
    *,
    file: str | None,
    session: str,
    hand: int,
    hand_id: str,
    ruleset: str | None,
) -> Finding:
    """The finding of one engine violation, in the players' words."""
    concerned = [v.seat] if v.seat is not None else []
    for key in ("partner", "declarer", "offender", "called_by"):
        s = v.params.get(key)
        if isinstance(s, int) and not isinstance(s, bool) and s not in concerned:
            concerned.append(s)
    refs = tuple(r for r in (people.ref(s) for s in concerned) if r is not None)
    consequence = consequence_of(people.game, ruleset, v.code)
    params = _jsonable(v.params)
    if people.called and refs and refs[0].role == "partner":
        params["called"] = people.called
    f = Finding(
        level="action" if v.action_index is not None else "hand",
        code=v.code,
        severity=v.severity,
        message="",
        file=file,
        session=session,
        hand=hand,
        hand_id=hand_id,
        action_index=v.action_index,
        players=refs,
        rule=v.rule or None,
        rule_text=quotation(people.game, v.rule),
        consequence=consequence,
        card=v.card,
        params=params,
        names=tuple(people.names),
        detail=reword(v.message, people, v.seat),
        game=people.game,
    )
    return replace(f, message=f.text("en"))


def score_finding(
    item: str,
    seat: int | None,
    recorded: int | float | None,
    recomputed: int | float | None,
    people: HandPeople,
    *,
    file: str | None,
    session: str,
    hand: int,
    hand_id: str,
    ruleset: str | None,
    reason: str = "",
) -> Finding:
    """The finding of one hand-level score difference (item, total or radelci)."""
    refs = (people.ref(seat),) if seat is not None else ()
    players = tuple(r for r in refs if r is not None)
    params: dict[str, Any] = {"reason": reason} if reason else {}
    if people.called and players and players[0].role == "partner":
        params["called"] = people.called
    f = Finding(
        level="hand",
        code=discrepancy_code(item),
        severity="error",
        message="",
        file=file,
        session=session,
        hand=hand,
        hand_id=hand_id,
        players=players,
        rule=ruleset,
        item=item,
        recorded=recorded,
        recomputed=recomputed,
        params=params,
        names=tuple(people.names),
        game=people.game,
    )
    return _worded(f)


def _worded(f: Finding) -> Finding:
    """``f`` with its English message and consequence, from the one renderer."""
    _, consequence = text.finding_parts(f, "en")
    return replace(f, message=f.text("en"), consequence=consequence)


def session_finding(
    item: str,
    seat: int | None,
    recorded: int | float | None,
    recomputed: int | float | None,
    *,
    player: PlayerRef | None,
    file: str | None,
    session: str,
    ruleset: str | None,
    tournament: str | None,
    knock_on: Sequence[tuple[int, int | float]] = (),
    game: str | None = None,
) -> Finding:
    """The finding of one session-level difference: the session total against the
    recomputed hands (``knock_on``: the hands whose own total of that seat differs, with by
    how much) or against the recorded hands, or the placement points."""
    f = Finding(
        level="session",
        code=discrepancy_code(item),
        severity="error",
        message="",
        file=file,
        session=session,
        tournament=tournament,
        players=(player,) if player is not None else (),
        rule=ruleset,
        item=item,
        recorded=recorded,
        recomputed=recomputed,
        params={"seat": seat, **({"knock_on": [[h, d] for h, d in knock_on]} if knock_on else {})},
        game=game,
    )
    return _worded(f)


def standing_finding(
    player: str,
    name: str,
    rank: int,
    recorded_rank: int,
    *,
    tournament: str,
    ruleset: str | None,
    sessions: Sequence[str],
    game: str | None = None,
) -> Finding:
    """A tournament-level finding: with the recorded placement points ``player`` would be
    ranked ``recorded_rank``; the recomputed ones rank the player ``rank``."""
    f = Finding(
        level="tournament",
        code="tournament.standing_differs",
        severity="error",
        message="",
        tournament=tournament,
        players=(PlayerRef(player, name, None, "player"),),
        rule=ruleset,
        item="rank",
        recorded=recorded_rank,
        recomputed=rank,
        params={"sessions": list(sessions)},
        game=game,
    )
    return _worded(f)
