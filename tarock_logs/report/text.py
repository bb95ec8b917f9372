"""The one wording of a hand for people: cards, actions, phases, kontra levels, seats, roles.

Everything a person reads about a hand (the CLI's findings, the dispute dossier, the dashboard's
replay viewer) is worded here, so that the same action reads the same everywhere. Sentences are
in the reader's language (English by default; the catalogues of :mod:`tarock_logs.report.i18n`);
the game's own terms stay in the game's own words, whatever the language of the sentence: each
engine gives them (:meth:`tarock_logs.rules.base.GameEngine.terms`: contracts, bonuses and
premiums, melds, the kontra chain, the trula cards, the word said for a pass), and this module
names no game.

A finding is said by one renderer (:func:`finding_sentence`), from its structured fields,
with a template per language.

Functions that name players take ``players``: the names by seat (``player_names(session)``
gives them from a log session: the name, or the id when there is none). Without names a
player is ``seat N`` (N the 0-based index of the log, the machine's label). Actions may be log
actions (:mod:`tarock_logs.log.models`) or engine actions (:class:`tarock_logs.rules.base.Action`):
only the shared field names are read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from tarock_logs.cards import CARDS
from tarock_logs.report.i18n import findings_catalogue, normalize, number, t, tn
from tarock_logs.rules import games, get_engine
from tarock_logs.rules.base import GameTerms

__all__ = [
    "ROMAN",
    "action_phrase",
    "analysis_not_analysed",
    "analysis_skip_reason",
    "analysis_title",
    "analysis_view_label",
    "bonus_name",
    "card_text",
    "cards_text",
    "claim_name",
    "contract_name",
    "describe_action",
    "kontra_name",
    "meld_name",
    "par_columns",
    "par_contracts_title",
    "par_footer",
    "par_option_name",
    "par_title",
    "par_value_text",
    "phase_name",
    "player_name",
    "player_names",
    "plural",
    "role_name",
    "score_item_name",
    "target_name",
    "tarok_numeral",
    "trula_card_name",
]

#: Roman numerals of the taroks by number (index 0 unused); tarock IV is written IIII, as on
#: the cards.
ROMAN: tuple[str, ...] = (
    "", "I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
    "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII",
)  # fmt: skip

_SUIT_SYMBOL = {"H": "\u2665", "D": "\u2666", "S": "\u2660", "C": "\u2663"}

_PHASES = {
    "deal": "deal",
    "bidding": "bidding",
    "auction": "auction",
    "king_call": "king call",
    "call": "call",
    "talon": "talon",
    "discard": "discard",
    "exchange": "talon exchange",
    "announcements": "announcements",
    "declarations": "declarations",
    "play": "play",
    "claims": "claims",
    "done": "end of the hand",
}

_ROLES = {
    "declarer": "the declarer",
    "partner": "the declarer's partner",
    "defender": "a defender",
    "dealer": "the dealer",
    "sitting_out": "sitting out",
    "player": "a player",
    "attacker": "an attacker",
}


class _Named(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str | None: ...


class _Seated(Protocol):
    @property
    def players(self) -> Sequence[_Named]: ...


# --------------------------------------------------------------------------- small words


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 error"``, ``"2 errors"``, ``"0 errors"`` (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def tarok_numeral(number: int) -> str:
    """The Roman numeral of tarok ``number`` (1 … 22); ``str(number)`` outside that range."""
    return ROMAN[number] if 0 < number < len(ROMAN) else str(number)


def trula_card_name(token: str, game: str | None = None) -> str | None:
    """The name of a trula card in the game's words (``T22`` → ``škis`` / ``Sküs``), else None;
    a game without names (or none given): the first game's."""
    return (game_terms(game).trula or game_terms(None).trula).get(token)


def card_text(token: str, game: str | None = None) -> str:
    """A card as people write it: ``♥K``, ``♣10``, ``XIX``; the trula cards by name
    (``škis``, ``mond``, ``pagat``; in the Austrian games ``Sküs``, ``Mond``, ``Pagat``).
    An unknown token is shown as it is."""
    card = CARDS.get(token)
    if card is None:
        return token
    if card.is_tarok:
        return trula_card_name(token, game) or tarok_numeral(card.strength)
    return _SUIT_SYMBOL[card.suit] + card.rank


def cards_text(tokens: Sequence[str], game: str | None = None, *, lang: str = "en") -> str:
    """Cards separated by spaces; ``none`` for no card."""
    return " ".join(card_text(c, game) for c in tokens) if tokens else t("none", lang)


# --------------------------------------------------------------------------- players


def player_names(session: _Seated) -> list[str]:
    """The names of a session's players by seat (the id where a player has no name)."""
    return [p.name or p.id for p in session.players]


def player_name(players: Sequence[str] | None, seat: int | None, *, lang: str = "en") -> str:
    """The player at ``seat``: the name from ``players``; ``seat N`` without names or outside
    the table; ``nobody`` for no seat."""
    if seat is None:
        return t("nobody", lang)
    if players is not None and 0 <= seat < len(players):
        return players[seat]
    return t("seat {seat}", lang, seat=seat)


def role_name(role: str, *, lang: str = "en") -> str:
    """A role in a hand, in words: ``declarer`` → ``the declarer``, ``partner`` → ``the
    declarer's partner``, ``defender``, ``dealer``, ``sitting_out`` (the dealer at a table
    of five)."""
    return t(_ROLES[role], lang) if role in _ROLES else role.replace("_", " ")


# --------------------------------------------------------------------------- game terms


def game_terms(game: str | None) -> GameTerms:
    """The game's own words for its terms (its engine's :meth:`~tarock_logs.rules.base.
    GameEngine.terms`); no game (or one without an engine): the first game's."""
    engine = get_engine(game) if game else None
    if engine is None:
        engine = get_engine(games()[0])
    return engine.terms() if engine is not None else GameTerms()


def _term(kind: str, game: str | None, key: str) -> str:
    """``key`` (a contract, bonus or meld id) in the words of ``game``; a game-less caller
    gets the first game that knows the word."""
    own: Mapping[str, str] = getattr(game_terms(game), kind) if game else {}
    if key in own:
        return own[key]
    if game is None:
        for other in games():
            words: Mapping[str, str] = getattr(game_terms(other), kind)
            if key in words:
                return words[key]
    return key.replace("_", " ")


def contract_name(contract: str | None, game: str | None = None, *, lang: str = "en") -> str:
    """A contract in the game's words (``three`` → ``tri``, ``farbensolo`` → ``Farbensolo``)."""
    return _term("contracts", game, contract) if contract else t("no contract", lang)


def analysis_values(game: str | None, *, lang: str = "en") -> str:
    """What the card-play analysis's values of ``game`` are (its objective, docs/analysis.md
    "Objectives"), in ``lang``: the declarer side's points of the score sheet (in a contract
    where everybody plays alone, such as klop, the player's own), or, for a game of fixed pairs,
    the attacking pair's points minus the defenders'. Read off the engine's declarations
    (``features``, ``alone_contracts``), so that each game is worded alike everywhere."""
    engine = get_engine(game) if game else None
    if engine is not None and "fixed_pairs" in engine.features:
        return t("the attacking pair's points minus the defenders'", lang)
    said = t("points for the declarer side", lang)
    alone = sorted(engine.alone_contracts) if engine is not None else []
    if alone:
        said += " " + t(
            "({contracts}: for the player)",
            lang,
            contracts=", ".join(contract_name(c, game, lang=lang) for c in alone),
        )
    return said


def bonus_name(bonus: str, game: str | None = None) -> str:
    """An announced bonus or premium in the game's words (``pagat_ultimo`` → ``pagat ultimo``,
    ``absolut`` → ``Absolut``, ``S_HONNEUR`` → ``Honneur``)."""
    return _term("bonuses", game, bonus)


#: the score items that are no bonus of any game, by their label id
_SCORE_ITEMS = {
    "contract": "contract",
    "difference": "difference",
    "game": "game",
    "consolation": "consolation",
    "cap": "cap",
    "kontra": "kontra",
    "radelc": "radelc",
    "klop": "klop",
    "total": "total",
}


def score_item_name(item: str, game: str | None = None, *, lang: str = "en") -> str:
    """A score item in words: a bonus in the game's own words (``pagat_ultimo`` → ``pagat
    ultimo``, ``S_VISI`` → ``Visi``), the other items in ``lang`` (``difference``)."""
    named = bonus_name(item, game)
    if named != item.replace("_", " "):
        return named
    return t(_SCORE_ITEMS[item], lang) if item in _SCORE_ITEMS else item.replace("_", " ")


def meld_name(meld: str, game: str | None = None) -> str:
    """A Meldung (a hand declaration) by its catalogue name (``M_VOGERL`` → ``Vogerl``): the
    game's own name, else the name of the game that has the declaration."""
    named = _term("melds", game, meld)
    return named if named != meld.replace("_", " ") else _term("melds", None, meld)


def claim_name(claim: str, game: str | None = None, *, lang: str = "en") -> str:
    """A claim: ``rest`` (the remaining tricks) or a card bonus (``trull`` → ``Trull``)."""
    if claim == "rest":
        return t("the remaining tricks", lang)
    return _term("bonuses", game, claim)


def kontra_name(level: int | None, game: str | None = None) -> str:
    """A kontra level in the game's words: 1 ``kontra``, 2 ``rekontra``, 3 ``subkontra``,
    4 ``mordkontra``; or ``Kontra, Retour, Supra, Resupra``: the game's own chain."""
    names = game_terms(game).kontra_levels or game_terms(None).kontra_levels
    lvl = 1 if level is None else level
    return names[lvl - 1] if 1 <= lvl <= len(names) else f"kontra level {lvl}"


def target_name(target: str | None, game: str | None = None, *, lang: str = "en") -> str:
    """What a kontra doubles: ``the game``, or the announced bonus by name."""
    if target in (None, "", "game"):
        return t("the game", lang)
    return bonus_name(target, game)


def phase_name(phase: Any, *, lang: str = "en") -> str:
    """A phase of the hand in words (``king_call`` → ``king call``, ``done`` → ``end of the
    hand``); engines' phase enums are strings, so either is accepted."""
    key = str(getattr(phase, "value", phase))
    return t(_PHASES[key], lang) if key in _PHASES else key.replace("_", " ")


# --------------------------------------------------------------------------- actions


def _params_text(params: Any, lang: str = "en") -> str:
    items = params.items() if isinstance(params, Mapping) else (params or ())
    return ", ".join(f"{t(str(k), lang)} {v}" for k, v in sorted(items))


def action_phrase(
    action: Any, game: str | None = None, *, phase: Any = None, lang: str = "en"
) -> str:
    """What an action does, as a verb phrase without its subject: ``bids tri``, ``passes``,
    ``calls ♥K``, ``takes talon group 1``, ``announces Pagat Ultimo dagegen``, ``gives rekontra
    on the game``, ``plays XXI``, ``declares Tarockanzahl (count 8)``.

    ``phase`` (the phase the action belongs to) picks the word said for a pass: a
    pass is *naprej* in the bidding and *v redu* in the announcement round. ``lang`` is the
    language of the sentence (:data:`tarock_logs.report.i18n.LANGS`); the game's terms stay in
    the game's own words."""
    kind = action.type
    card = getattr(action, "card", None)
    if kind == "bid":
        return t("bids {contract}", lang, contract=contract_name(action.contract, game, lang=lang))
    if kind == "pass":
        key = str(getattr(phase, "value", phase)) if phase is not None else None
        word = game_terms(game).pass_word(key) if game else None
        return t("passes ({word})", lang, word=word) if word else t("passes", lang)
    if kind == "call":
        return t("calls {card}", lang, card=card_text(card or "?", game))
    if kind == "talon":
        return t("takes talon group {group}", lang, group=action.group)
    if kind == "discard":
        said = t("discards {cards}", lang, cards=cards_text(action.cards, game, lang=lang))
        shown = getattr(action, "shown", ())
        if shown:
            said += " " + t("(shows {cards})", lang, cards=cards_text(shown, game, lang=lang))
        return said
    if kind == "announce":
        said = t("announces {bonus}", lang, bonus=bonus_name(action.bonus, game))
        if getattr(action, "side", None):
            said += f" {action.side}"
        params = _params_text(getattr(action, "params", None), lang)
        if params:
            said += f" ({params})"
        raises = getattr(action, "raises", None)
        if raises:
            said += ", " + t("raising {bonus}", lang, bonus=bonus_name(raises, game))
        return said
    if kind == "kontra":
        level = getattr(action, "level", None)
        return t(
            "gives {kontra} on {target}",
            lang,
            kontra=kontra_name(level, game),
            target=target_name(action.target, game, lang=lang),
        )
    if kind == "lezim":
        return t("says ležim (discards and announcements complete)", lang)
    if kind == "play":
        return t("plays {card}", lang, card=card_text(card or "?", game))
    if kind == "claim":
        cards = getattr(action, "cards", ())
        said = t("claims {claim}", lang, claim=claim_name(action.claim, game, lang=lang))
        return said + (f" ({cards_text(cards, game, lang=lang)})" if cards else "")
    if kind == "meld":
        params = _params_text(getattr(action, "params", None), lang)
        said = t("declares {meld}", lang, meld=meld_name(action.meld, game))
        return said + (f" ({params})" if params else "")
    if kind == "throw_in":
        return t("throws the deal in", lang)
    return str(kind).replace("_", " ")


def describe_action(
    action: Any,
    *,
    game: str | None = None,
    players: Sequence[str] | None = None,
    phase: Any = None,
    lang: str = "en",
) -> str:
    """One action as a sentence with its player: ``Ana bids tri``, ``seat 2 plays ♥K``
    (``seat N`` when ``players`` gives no name); ``the deal`` for no action (step 0). In
    ``lang`` (English by default), the game's terms in the game's own words."""
    if action is None:
        return t("the deal", lang)
    who = player_name(players, action.seat, lang=lang)
    return f"{who} {action_phrase(action, game, phase=phase, lang=lang)}"


# --------------------------------------------------------------------------- findings


class _PlayerRefLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def role(self) -> str: ...
    @property
    def dealer(self) -> bool: ...


class FindingLike(Protocol):
    """What the finding renderer reads of a finding (:class:`tarock_logs.verdict.findings.
    Finding` has it all): its structured fields, never its English message's text (except
    as the last resort of a finding that carries nothing else)."""

    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def players(self) -> Sequence[_PlayerRefLike]: ...
    @property
    def card(self) -> str | None: ...
    @property
    def params(self) -> Mapping[str, Any]: ...
    @property
    def rule(self) -> str | None: ...
    @property
    def rule_text(self) -> Mapping[str, str]: ...
    @property
    def consequence(self) -> str | None: ...
    @property
    def item(self) -> str | None: ...
    @property
    def recorded(self) -> int | float | None: ...
    @property
    def recomputed(self) -> int | float | None: ...
    @property
    def names(self) -> Sequence[str]: ...
    @property
    def detail(self) -> str | None: ...
    @property
    def game(self) -> str | None: ...


#: the suits by the letter of their tokens, in words (the led suit of a finding)
_SUITS = {"H": "hearts", "D": "diamonds", "S": "spades", "C": "clubs", "T": "taroks"}

#: the finding codes of the audit's own score and session arithmetic, by the item compared
_SCORE_CODES = frozenset(
    {
        "score.item_differs",
        "score.total_differs",
        "score.radelci_before_differs",
        "score.radelci_after_differs",
        "score.running_total_differs",
        "score.not_zero_sum",
        "session.total_differs",
        "session.total_sum_differs",
        "session.placement_points_differ",
        "tournament.standing_differs",
    }
)


def suit_name(letter: str, *, lang: str = "en") -> str:
    """A suit in words by the letter of its tokens (``C`` → ``clubs``; ``T``: the taroks)."""
    return t(_SUITS[letter], lang) if letter in _SUITS else letter


def points_text(value: float | None, *, lang: str = "en", signed: bool = True) -> str:
    """A score as written on a sheet, in the reader's locale (``+10``, ``-20``, ``0``;
    ``signed=False`` for points that are never negative: ``4.5``, ``4,5``); ``nothing``
    for no value."""
    if value is None:
        return t("nothing", lang)
    return number(value, lang, signed=signed and value != 0)


def ordinal(n: int, *, lang: str = "en") -> str:
    """A rank: ``1st``, ``2nd``, ``11th`` in English; ``1.`` in Slovenian and German."""
    if normalize(lang) != "en":
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def code_meaning(code: str, game: str | None, *, lang: str = "en") -> str:
    """What a finding code means, in ``lang``: the engine's (``codes.py``) or the audit's
    own meaning, without its notes for developers (``params: …``)."""
    said = findings_catalogue(normalize(lang)).get(f"{game}:{code}") or findings_catalogue(
        normalize(lang)
    ).get(f"audit:{code}")
    if said:
        return said
    engine = get_engine(game) if game else None
    known = engine.codes().get(code) if engine is not None else None
    meaning = known.meaning if known is not None else code
    return meaning.split("; params:")[0]


def _who_parts(f: FindingLike, lang: str, game: str | None) -> tuple[str, str]:
    """The name of the finding's first player and the role said after it (``", a
    defender,"`` in English, ``" (branilec)"`` elsewhere; empty when the role says
    nothing); two empty strings for a finding about nobody."""
    if not f.players:
        return "", ""
    p = f.players[0]
    role = p.role
    if role == "player" and not p.dealer:
        return p.name, ""
    words = role_name(role, lang=lang) if role != "player" else t("the dealer", lang)
    called = f.params.get("called")
    if role == "partner" and isinstance(called, str):
        words = t(
            "{role} (who holds the called {card})",
            lang,
            role=words,
            card=card_text(called, game),
        )
    return p.name, t(", {role},", lang, role=words)


def _subject(name: str, role: str, lang: str) -> str:
    """The player with the role, as the subject before a colon (no trailing comma)."""
    return t("{name}{role}", lang, name=name, role=role).rstrip(",")


def _seat_name(f: FindingLike, seat: int, lang: str) -> str:
    return f.names[seat] if 0 <= seat < len(f.names) else t("seat {seat}", lang, seat=seat)


def _card_body(f: FindingLike, lang: str, game: str | None) -> str | None:
    """A card the rules forbid, worded from its facts (``need``: follow, trump, suit)."""
    p = f.params
    need, led, held = p.get("need"), p.get("led"), p.get("held")
    if need not in ("follow", "trump", "suit") or not isinstance(led, str) or not f.card:
        return None
    name, role = _who_parts(f, lang, game)
    fields = {
        "name": name or t("a player", lang),
        "role": role,
        "card": card_text(f.card, game),
        "held": cards_text(held if isinstance(held, list | tuple) else (), game, lang=lang),
        "suit": suit_name(led, lang=lang),
        "tarok": game_terms(game).tarok,
    }
    if need == "follow":
        return t(
            "{name}{role} played {card} while holding {held}: {suit} must be followed",
            lang,
            **fields,
        )
    if need == "trump":
        return t(
            "{name}{role} played {card} while void in {suit} and holding {held}: a {tarok} "
            "must be played",
            lang,
            **fields,
        )
    return t(
        "{name}{role} played {card} while void in {suit}: a card of another suit must be "
        "played ({held})",
        lang,
        **fields,
    )


def _terms_of(f: FindingLike, game: str | None, lang: str) -> str:
    """The game terms a finding's facts name (its contract, bonus or premium, what a kontra
    doubles), in the game's own words."""
    p = f.params
    said = []
    if isinstance(p.get("contract"), str):
        said.append(contract_name(p["contract"], game, lang=lang))
    for key in ("bonus", "item"):
        if isinstance(p.get(key), str):
            said.append(bonus_name(p[key], game))
    if isinstance(p.get("target"), str):
        said.append(t("on {target}", lang, target=target_name(p["target"], game, lang=lang)))
    return ", ".join(dict.fromkeys(s for s in said if s))


def _settlement(f: FindingLike, totals: Sequence[Any], lang: str) -> str:
    return ", ".join(
        f"{_seat_name(f, s, lang)} {points_text(v, lang=lang)}" for s, v in enumerate(totals)
    )


def _renons_body(f: FindingLike, lang: str, game: str | None) -> str:
    name, role = _who_parts(f, lang, game)
    offence = f.params.get("violation")
    said = t(
        "{name}{role} committed a detectable renons ({offence}) that nobody called; the hand "
        "is scored as played",
        lang,
        name=name or t("a player", lang),
        role=role,
        offence=code_meaning(str(offence), game, lang=lang) if offence else t("renons", lang),
    )
    alt = f.params.get("settlement_if_called")
    if isinstance(alt, list | tuple) and alt:
        said += t(
            "; called, it would settle as {settlement}", lang, settlement=_settlement(f, alt, lang)
        )
    return said


def _score_body(f: FindingLike, lang: str, game: str | None) -> tuple[str, str | None]:
    """The sentence and the consequence of a score, session or standing difference."""
    item = f.item or ""
    rec = f.recorded
    reco = f.recomputed
    under = f.rule
    if f.players:
        name, role = _who_parts(f, lang, game)
        who = _subject(name, role, lang)
    else:
        who = t("the declarer's side", lang)
    consequence: str | None = None
    if f.code == "tournament.standing_differs":
        sessions = ", ".join(str(s) for s in f.params.get("sessions", ()))
        said = t(
            "{name} is ranked {rank} with the recomputed placement points; the recorded ones "
            "would rank {name} {recorded_rank}",
            lang,
            name=f.players[0].name if f.players else "",
            rank=ordinal(int(reco or 0), lang=lang),
            recorded_rank=ordinal(int(rec or 0), lang=lang),
        )
        return said, t(
            "the final ranking changes (placement points differ in {sessions})",
            lang,
            sessions=sessions,
        )
    seat = f.params.get("seat")
    name_only = f.players[0].name if f.players else player_name(None, seat, lang=lang)
    if item == "placement_points":
        fields = {
            "who": name_only,
            "recorded": points_text(rec, lang=lang, signed=False),
            "recomputed": points_text(reco, lang=lang, signed=False),
            "ruleset": under,
        }
        said = (
            t(
                "The placement points of {who} are recorded as {recorded}; the recomputed round "
                "scores under {ruleset} give {recomputed}",
                lang,
                **fields,
            )
            if under
            else t(
                "The placement points of {who} are recorded as {recorded}; the recomputed round "
                "scores give {recomputed}",
                lang,
                **fields,
            )
        )
        return said, t("the tournament standings use the recomputed placement points", lang)
    fields = {
        "who": who,
        "recorded": points_text(rec, lang=lang),
        "recomputed": points_text(reco, lang=lang),
        "ruleset": under,
        "item": score_item_name(item, game, lang=lang),
    }
    if item == "session_total_sum":
        fields["who"] = name_only
        return t(
            "The session total of {who} is recorded as {recorded}, but the recorded hands add "
            "up to {recomputed} (an addition error on the score sheet)",
            lang,
            **fields,
        ), None
    if item == "session_total":
        fields["who"] = name_only
        said = (
            t(
                "The session total of {who} is recorded as {recorded}; the hands recomputed "
                "under {ruleset} add up to {recomputed}",
                lang,
                **fields,
            )
            if under
            else t(
                "The session total of {who} is recorded as {recorded}; the recomputed hands add "
                "up to {recomputed}",
                lang,
                **fields,
            )
        )
        knock_on = f.params.get("knock_on") or ()
        if knock_on:
            hands = ", ".join(
                t("hand {n} ({points})", lang, n=h, points=points_text(d, lang=lang))
                for h, d in knock_on
            )
            consequence = t("it follows from the differing hand totals: {hands}", lang, hands=hands)
        return said, consequence
    if item == "zero_sum":
        return t(
            "the scores written for the hand sum to {recorded}; what one player wins another "
            "pays, so they must sum to 0 (an error on the score sheet)",
            lang,
            **fields,
        ), t("at least one player's hand score is written wrong", lang)
    if item == "running_total":
        return t(
            "{who}: the running total after the hand is recorded as {recorded}; the previous "
            "running total plus the recorded hand score is {recomputed} (an addition error on "
            "the score sheet)",
            lang,
            **fields,
        ), None
    if item == "total":
        said = t("{who}: the hand total is recorded as {recorded}", lang, **fields)
        off = (rec or 0) - (reco or 0)
        n = abs(off)
        consequence = (
            tn(
                "the recorded hand total is {n} point too high",
                "the recorded hand total is {n} points too high",
                n,
                lang,
            )
            if off > 0
            else tn(
                "the recorded hand total is {n} point too low",
                "the recorded hand total is {n} points too low",
                n,
                lang,
            )
        )
    elif item in ("radelci_before", "radelci_after"):
        fields["recorded"] = str(rec)  # radelci are a count, not points
        fields["recomputed"] = str(reco)
        if item == "radelci_before":
            said = t(
                "{who}: the radelci before the hand are recorded as {recorded}", lang, **fields
            )
        else:
            said = t("{who}: the radelci after the hand are recorded as {recorded}", lang, **fields)
            consequence = t(
                "the next hands are checked from the radelci as recorded; correct this line "
                "and audit again to see what it changes in them",
                lang,
            )
    else:
        said = t("{who}: the {item} line is recorded as {recorded}", lang, **fields)
    said += (
        t("; the recomputation under {ruleset} gives {recomputed}", lang, **fields)
        if under
        else t("; the recomputation gives {recomputed}", lang, **fields)
    )
    reason = f.params.get("reason")
    if reason and normalize(lang) == "en":  # the engine's own note, in English
        said += f" ({reason})"
    return said, consequence


#: the finding codes of a counted hand's recorded count against its piles (log format 1.2)
_COUNT_CODES = frozenset({"count.card_points_differ", "count.result_differs"})


def _count_body(f: FindingLike, lang: str, game: str | None) -> tuple[str, str]:
    """A counted hand's recorded count against the count of its piles (the card points in
    thirds, or a berač's or valat's result), and the score items the difference changes."""
    p = f.params
    name, role = _who_parts(f, lang, game)
    who = _subject(name, role, lang) if name else t("the declarer's side", lang)
    if f.code == "count.result_differs":
        contract = contract_name(f.params.get("contract"), game, lang=lang)
        said = (
            t("{who}: the {contract} is recorded as won, but the piles show it lost", lang,
              who=who, contract=contract)
            if p.get("recorded_won")
            else t("{who}: the {contract} is recorded as lost, but the piles show it won", lang,
                   who=who, contract=contract)
        )  # fmt: skip
    else:
        fields = {
            "who": who,
            "recorded": p.get("recorded_points"),
            "recorded_thirds": p.get("recorded_thirds"),
            "counted": p.get("counted_points"),
            "counted_thirds": p.get("counted_thirds"),
            "thirds": number(int(p.get("thirds") or 0), lang, signed=True),
        }
        if p.get("unit") == "points":  # a game that counts whole card points
            fields["thirds"] = number(int(p.get("points") or 0), lang, signed=True)
        said = (
            t(
                "{who}: the declarer's side counted {recorded} card points, but its pile "
                "holds {counted} points; the difference in card points: {thirds}",
                lang,
                **fields,
            )
            if p.get("unit") == "points"
            else t(
                "{who}: the declarer's side counted {recorded} card points ({recorded_thirds} "
                "thirds), but its pile holds {counted_thirds} thirds ({counted} points); the "
                "difference in thirds: {thirds}",
                lang,
                **fields,
            )
            if p.get("side") != "seat"
            else t(
                "{who} counted {recorded} card points ({recorded_thirds} thirds), but the pile "
                "holds {counted_thirds} thirds ({counted} points); the difference in thirds: "
                "{thirds}",
                lang,
                **{**fields, "who": t("{name}{role}", lang, name=name, role=role)},
            )
        )
    if f.rule:
        said += f" ({f.rule})"
    items = [str(i) for i in p.get("items") or ()]
    consequence = (
        t("the count changes {items}", lang,
          items=", ".join(score_item_name(i, game, lang=lang) for i in items))
        if items
        else t("the count changes no score item", lang)
    )  # fmt: skip
    return said, consequence


def _sentences(*parts: str | None) -> str:
    """Sentences from parts: each capitalised and closed with a full stop."""
    out = []
    for p in parts:
        if p:
            p = p.strip()
            p = p[:1].upper() + p[1:]
            out.append(p if p.endswith((".", "!", "?")) else p + ".")
    return " ".join(out)


def finding_sentence(f: FindingLike, lang: str | None = "en", *, game: str | None = None) -> str:
    """A finding as one sentence (or two: what happened, with the rule cited, and what it
    does to the score), in ``lang``, from its structured fields: the players by name and
    role, cards as the game names them, the cards held or required, the rule, the
    consequence, a renons settlement with names. The one wording of a finding: the CLI
    table, the JSON ``message`` (English), the Audit page, the replay's and the entry's
    banners and the dossier all say it with this (:func:`finding_parts`)."""
    said, consequence = finding_parts(f, lang, game=game)
    return _sentences(said, consequence)


def finding_parts(
    f: FindingLike, lang: str | None = "en", *, game: str | None = None
) -> tuple[str, str | None]:
    """What a finding says (with the rule cited) and its consequence for the score, in
    ``lang``. A code without a template of its own is said in English in the engine's words
    (the finding's ``detail``), in the other languages by the code's meaning, said of the
    player and the card with the legal cards."""
    code_lang = normalize(lang)
    game = game or f.game
    if f.code in _SCORE_CODES and f.item is not None:
        return _score_body(f, code_lang, game)
    p = f.params
    if f.code in _COUNT_CODES and ("counted_points" in p or "recorded_won" in p):
        return _count_body(f, code_lang, game)
    body: str | None
    if f.code == "renons.unclaimed":
        body = _renons_body(f, code_lang, game)
    else:
        body = _card_body(f, code_lang, game) if f.code.endswith("illegal_card") else None
    if body is None and code_lang == "en":
        if f.detail is None:  # nothing but the message (a finding from before the fields)
            return f.message, None
        body = f.detail
        name, role = _who_parts(f, code_lang, game)
        if name and name not in body:  # the engine's words do not say whose it is
            named = any(body.startswith(n) for n in f.names if n)  # another player first
            said = body if named else body[:1].lower() + body[1:]
            body = t("{subject}: {meaning}", code_lang, subject=_subject(name, role, code_lang),
                     meaning=said)  # fmt: skip
        if f.card and card_text(f.card, game) not in body:
            body += f" ({card_text(f.card, game)})"
    if body is None:
        name, role = _who_parts(f, code_lang, game)
        meaning = code_meaning(f.code, game, lang=code_lang)
        body = (
            t(
                "{subject}: {meaning}",
                code_lang,
                subject=_subject(name, role, code_lang),
                meaning=meaning,
            )
            if name
            else meaning
        )
        terms = _terms_of(f, game, code_lang)
        if terms:
            body += f" ({terms})"
        if f.card:
            body += f" ({card_text(f.card, game)})"
        legal = f.params.get("legal")
        if isinstance(legal, list | tuple) and legal and f.code.startswith("play."):
            body += t("; legal: {cards}", code_lang, cards=cards_text(legal, game, lang=code_lang))
    cited = f"{body} ({f.rule})" if f.rule else body
    return cited, (t(f.consequence, code_lang) if f.consequence else None)


def rule_quote(f: FindingLike, lang: str | None = "en") -> str | None:
    """The rule's own words in the reader's language, where the ruleset's quotation has it."""
    return f.rule_text.get(normalize(lang)) or None


# --------------------------------------------------------------------------- card-play analysis


def _played_contract(contract: str, game: str | None) -> str:
    """A hand's contract in the game's words; a game that plays announced items instead
    (several ids) names each."""
    if contract in game_terms(game).contracts or " " not in contract:
        return contract_name(contract, game)
    return ", ".join(bonus_name(x, game) for x in contract.split())


def analysis_title(session: str, hand: int, contract: str | None, declarer: int | None,
                   game: str | None, lang: str | None = "en") -> str:  # fmt: skip
    """The heading of one hand of ``tarock analyse``: the session, the hand, its contract in
    the game's words (or "no contract") and the declarer's seat where it has one."""
    named = _played_contract(contract, game) if contract else t("no contract", lang)
    if declarer is None:
        return t("{session} hand {hand} ({contract})", lang, session=session, hand=hand,
                 contract=named)  # fmt: skip
    return t("{session} hand {hand} ({contract}, declarer seat {seat})", lang, session=session,
             hand=hand, contract=named, seat=declarer)  # fmt: skip


def analysis_view_label(samples: int | None = None, seed: int | None = None,
                        lang: str | None = "en") -> str:  # fmt: skip
    """Which view a hand's values are in: all cards visible, or (with ``samples`` and
    ``seed``) what the player knew."""
    if samples is None:
        return t("all cards visible", lang)
    return t("what the player knew, {samples} samples per card, seed {seed}", lang,
             samples=samples, seed=seed)  # fmt: skip


def par_title(session: str, hand: int, contract: str | None, declarer: int | None,
              game: str | None, lang: str | None = "en") -> str:  # fmt: skip
    """The heading of one hand's par (``tarock analyse --par``)."""
    return (analysis_title(session, hand, contract, declarer, game, lang) + " — "
            + t("before the first trick (par), all cards visible", lang))  # fmt: skip


def par_value_text(value: int | None, low: int | None, high: int | None,
                   lang: str | None = "en") -> str:  # fmt: skip
    """A par value: the number, the bound a search budget left, or undecided."""
    if value is not None:
        return str(value)
    if low is not None:
        return t("at least {low}", lang, low=low)
    if high is not None:
        return t("at most {high}", lang, high=high)
    return t("undecided", lang)


def par_columns(lang: str | None = "en") -> dict[str, str]:
    """The column headings of the par tables."""
    return {
        "option": t("choice", lang), "cards": t("cards", lang), "value": t("value", lang),
        "recorded": t("recorded", lang), "equivalent": t("equivalent discards", lang),
        "decided": t("discards decided", lang), "contract": t("contract", lang),
        "best line": t("best king, group and discard", lang),
        "lines": t("lines decided", lang),
    }  # fmt: skip


def par_contracts_title(lang: str | None = "en") -> str:
    """The heading of the contracts' par."""
    return t("each contract the declarer could have declared, its best king, group and discard, "
             "nothing announced", lang)  # fmt: skip


def par_option_name(kind: str, group: int, lang: str | None = "en") -> str:
    """A par row's choice: a talon group (by its number) or a discard after one."""
    if kind == "group":
        return t("talon group {n}", lang, n=group)
    return t("discard after group {n}", lang, n=group)


def par_footer(budget: int, hand_budget: int, hit: bool, seconds: float,
               lang: str | None = "en") -> list[str]:  # fmt: skip
    """The lines under a hand's par: what the values are and the budget (and whether it bit)."""
    out = [t("a discard's value: the whole hand from its first card with the recorded "
             "announcements and kontras, best play by everybody; a talon group's value: the "
             "best of its discards", lang),
           t("≤ N: no better than the best option, shown by one quick test (its exact value "
             "was not searched)", lang)]  # fmt: skip
    words = t("search budget: {budget} cards a search, {hand} for the hand ({seconds} s)",
              lang, budget=number(budget, lang) if budget else t("no limit", lang),
              hand=number(hand_budget, lang) if hand_budget else t("no limit", lang),
              seconds=round(seconds, 1))  # fmt: skip
    if hit:
        words += "; " + t("the budget left the values marked undecided or bounded", lang)
    out.append(words)
    return out


def analysis_not_analysed(reason: str, lang: str | None = "en") -> str:
    """A hand that is not analysed, and why."""
    return t("not analysed: {reason}", lang, reason=reason)


def analysis_skip_reason(key: str, fields: Mapping[str, str], lang: str | None = "en") -> str:
    """Why a hand is not analysed (``PlayerHand.skip`` of the analysis: a key and its
    fields), in the reader's language."""
    f = dict(fields)
    if key == "no_plugin":
        return t("{game} has no analysis of the card play", lang, **f)
    if key == "no_view":
        return t("{game} has no player view", lang, **f)
    if key == "not_replayed":
        return t("the hand was not replayed: there is no card play to analyse", lang)
    if key == "no_play":
        return t("the hand never reached the card play (no contract was played)", lang)
    if key == "no_native":
        return t("{game} has no native solver; --backend python or auto analyses it", lang, **f)
    if key == "position":
        return t("the position cannot be read: {reason}", lang, **f)
    return key
