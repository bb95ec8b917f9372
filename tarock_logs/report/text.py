"""The one wording of a hand for people: cards, actions, phases, kontra levels, seats, roles.

Everything a person reads about a hand (the CLI's findings, the dispute dossier, the dashboard's
replay viewer) is worded here, so that the same action reads the same everywhere. Sentences are
English; the game's own terms stay in the game's own words:

* **Slovenian tarok**: contracts *klop, tri, dva, ena, solo tri … berač, solo brez, odprti
  berač, barvni valat, valat*; bonuses *trula, kralji, pagat ultimo, kralj ultimo*; the kontra
  chain *kontra, rekontra, subkontra, mordkontra*; the trula cards *škis, mond, pagat*; the
  declarer's *ležim* ("I lie": discards and announcements complete).
* **Zwanzigerrufen**: contracts *Farbensolo* (a suit solo) and *Solo*; bonuses *Absolut,
  Pagat Ultimo, Valat*, announced *dazu* (for the declarer side) or *dagegen* (against); the
  Kontra chain *Kontra, Retour, Supra, Resupra*; the card bonuses *Trull* and *Vier Könige*;
  *weiter* (pass); the Trull cards *Sküs, Mond, Pagat*.
* **Royal Tarock**: *Meldungen* (hand declarations) and *Schlemme* (announced premiums) by the
  names of the built-in catalogue (*Vogerl, Honneur, Köpfe, Spiel* …, German first, then
  Hungarian, then English), a *Hebung* (raising the partner's announcement), *Kontra*.

Functions that name players take ``players``: the names by seat (``player_names(session)``
gives them from a log session: the name, or the id when there is none). Without names a
player is ``seat N`` (N the 0-based index of the log, the machine's label). Actions may be log
actions (:mod:`tarock_logs.log.models`) or engine actions (:class:`tarock_logs.rules.base.Action`):
only the shared field names are read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Protocol

from tarock_logs.cards import CARDS
from tarock_logs.report.i18n import t

__all__ = [
    "ROMAN",
    "action_phrase",
    "bonus_name",
    "card_text",
    "cards_text",
    "claim_name",
    "contract_name",
    "describe_action",
    "kontra_name",
    "meld_name",
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

#: the names of the three trula (Trull) cards, in each game's language
_TRULA_NAMES: dict[str, dict[str, str]] = {
    "slovenian": {"T22": "škis", "T21": "mond", "T1": "pagat"},
    "zwanzigerrufen": {"T22": "Sküs", "T21": "Mond", "T1": "Pagat"},
    "royal": {"T22": "Sküs", "T21": "Mond", "T1": "Pagat"},
}

_CONTRACTS: dict[str, dict[str, str]] = {
    "slovenian": {
        "klop": "klop", "three": "tri", "two": "dva", "one": "ena", "solo_three": "solo tri",
        "solo_two": "solo dva", "solo_one": "solo ena", "berac": "berač",
        "solo_brez": "solo brez", "odprti_berac": "odprti berač",
        "barvni_valat": "barvni valat", "valat": "valat",
    },
    "zwanzigerrufen": {"normal": "normal game", "farbensolo": "Farbensolo", "solo": "Solo"},
}  # fmt: skip

_BONUSES: dict[str, dict[str, str]] = {
    "slovenian": {
        "trula": "trula", "kralji": "kralji", "pagat_ultimo": "pagat ultimo",
        "kralj_ultimo": "kralj ultimo", "valat": "valat", "barvni_valat": "barvni valat",
    },
    "zwanzigerrufen": {
        "absolut": "Absolut", "pagat": "Pagat Ultimo", "pagat_ultimo": "Pagat Ultimo",
        "valat": "Valat", "trull": "Trull", "four_kings": "Vier Könige",
        "mondfang": "Mondfang",
    },
}  # fmt: skip

_KONTRA_LEVELS: dict[str, tuple[str, ...]] = {
    "slovenian": ("kontra", "rekontra", "subkontra", "mordkontra"),
    "zwanzigerrufen": ("Kontra", "Retour", "Supra", "Resupra"),
    "royal": ("Kontra", "Rekontra", "Subkontra", "Mordkontra"),
}
_KONTRA_DEFAULT = _KONTRA_LEVELS["slovenian"]

#: the word said for a pass: (game, phase) first, then (game, None)
_PASS_WORD = {
    ("slovenian", "bidding"): "naprej",
    ("slovenian", "announcements"): "v redu",
    ("zwanzigerrufen", None): "weiter",
    ("royal", None): "Weiter",
}

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
    """The name of a trula card in the game's words (``T22`` → ``škis`` / ``Sküs``), else None."""
    return _TRULA_NAMES.get(game or "slovenian", _TRULA_NAMES["slovenian"]).get(token)


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


@cache
def _royal_names() -> Mapping[str, str]:
    """Royal Tarock's item names from the built-in catalogue (German, Hungarian, English)."""
    from tarock_logs.rules.royal import builtin_catalogue

    out: dict[str, str] = {}
    for item_id, item in builtin_catalogue().items.items():
        names = item.names
        out[item_id] = names.get("de") or names.get("hu") or names.get("en") or item_id
    return out


def _term(table: Mapping[str, Mapping[str, str]], game: str | None, key: str) -> str:
    if game == "royal":
        return _royal_names().get(key, key)
    words = table.get(game or "", {})
    if key in words:
        return words[key]
    for other in table.values():  # a game-less caller: the first game that knows the word
        if game is None and key in other:
            return other[key]
    return key.replace("_", " ")


def contract_name(contract: str | None, game: str | None = None, *, lang: str = "en") -> str:
    """A contract in the game's words (``three`` → ``tri``, ``farbensolo`` → ``Farbensolo``)."""
    return _term(_CONTRACTS, game, contract) if contract else t("no contract", lang)


def bonus_name(bonus: str, game: str | None = None) -> str:
    """An announced bonus or premium in the game's words (``pagat_ultimo`` → ``pagat ultimo``,
    ``absolut`` → ``Absolut``, Royal ``S_HONNEUR`` → ``Honneur``)."""
    return _term(_BONUSES, game, bonus)


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
    ultimo``, Royal ``S_VISI`` → ``Visi``), the other items in ``lang`` (``difference``)."""
    named = bonus_name(item, game)
    if named != item.replace("_", " "):
        return named
    return t(_SCORE_ITEMS[item], lang) if item in _SCORE_ITEMS else item.replace("_", " ")


def meld_name(meld: str, game: str | None = None) -> str:
    """A Meldung (a Royal Tarock hand declaration) by its catalogue name (``M_VOGERL`` →
    ``Vogerl``): only Royal Tarock has them, so its names serve every game."""
    return _term({}, "royal", meld)


def claim_name(claim: str, game: str | None = None, *, lang: str = "en") -> str:
    """A claim: ``rest`` (the remaining tricks) or a card bonus (``trull`` → ``Trull``)."""
    if claim == "rest":
        return t("the remaining tricks", lang)
    return _term(_BONUSES, game, claim)


def kontra_name(level: int | None, game: str | None = None) -> str:
    """A kontra level in the game's words: 1 ``kontra``, 2 ``rekontra``, 3 ``subkontra``,
    4 ``mordkontra`` (Slovenian); ``Kontra, Retour, Supra, Resupra`` (Zwanzigerrufen)."""
    names = _KONTRA_LEVELS.get(game or "", _KONTRA_DEFAULT)
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

    ``phase`` (the phase the action belongs to) picks the word said for a pass: a Slovenian
    pass is *naprej* in the bidding and *v redu* in the announcement round. ``lang`` is the
    language of the sentence (:data:`tarock_logs.report.i18n.LANGS`); the game's terms stay in
    the game's own words."""
    kind = action.type
    card = getattr(action, "card", None)
    if kind == "bid":
        return t("bids {contract}", lang, contract=contract_name(action.contract, game, lang=lang))
    if kind == "pass":
        key = str(getattr(phase, "value", phase)) if phase is not None else None
        word = _PASS_WORD.get((game or "", key)) or _PASS_WORD.get((game or "", None))
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
