"""Cards and notation shared by the three games.

One token per card, upper-case ASCII (see ``docs/log-format.md``):

* tarocks ``T1`` … ``T22``; ``T22`` is the highest (Slovenian *škis*, Austrian *Sküs*),
  ``T21`` the *mond*, ``T1`` the *pagat*;
* suit cards: suit letter ``H`` hearts, ``D`` diamonds, ``S`` spades, ``C`` clubs, then the
  rank ``K`` king, ``Q`` queen, ``N`` knight (cavall, kaval), ``J`` jack, or the pip: red suits
  ``1``..``4`` (``1`` strongest), black suits ``7``..``10`` (``10`` strongest);
* Zwanzigerrufen keeps one pip card per suit, the *Glatze*, written with rank ``G``.

This module is pure standard library so that the rules engines may import it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

#: The games this toolkit knows, by their log-format name.
GAMES: Final = ("slovenian", "zwanzigerrufen", "royal")

SUITS: Final = ("H", "D", "S", "C")
TAROK: Final = "T"
RED_SUITS: Final = frozenset({"H", "D"})
BLACK_SUITS: Final = frozenset({"S", "C"})
FACE_RANKS: Final = ("K", "Q", "N", "J")
RED_PIPS: Final = ("1", "2", "3", "4")  # strongest first
BLACK_PIPS: Final = ("10", "9", "8", "7")  # strongest first

_FACE_POINTS: Final = {"K": 5, "Q": 4, "N": 3, "J": 2}
TRULA: Final = frozenset({"T1", "T21", "T22"})
KINGS: Final = ("HK", "DK", "SK", "CK")


class CardError(ValueError):
    """A token that is not a card of the game's pack."""

    def __init__(self, token: str, game: str | None, reason: str) -> None:
        super().__init__(reason)
        self.token = token
        self.game = game
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Card:
    """Static facts about one canonical card token.

    ``strength`` orders cards of the same suit (higher wins); taroks use their number.
    ``points`` is the nominal Slovenian/Austrian card-point value (king 5 … pip 1, trula 5,
    other taroks 1); the Glatze is worth 0 in Zwanzigerrufen and Royal Tarock counts none.
    """

    token: str
    suit: str  # "T" for taroks, else H/D/S/C
    rank: str  # tarok number as text, or K/Q/N/J/G or a pip
    strength: int
    points: int

    @property
    def is_tarok(self) -> bool:
        return self.suit == TAROK

    @property
    def is_king(self) -> bool:
        return self.rank == "K" and self.suit != TAROK


def _build_universe() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for n in range(1, 23):
        tok = f"T{n}"
        cards[tok] = Card(tok, TAROK, str(n), n, 5 if tok in TRULA else 1)
    for s in SUITS:
        pips = RED_PIPS if s in RED_SUITS else BLACK_PIPS
        for i, r in enumerate(FACE_RANKS):
            cards[s + r] = Card(s + r, s, r, 8 - i, _FACE_POINTS[r])
        for i, p in enumerate(pips):
            cards[s + p] = Card(s + p, s, p, 4 - i, 1)
        cards[s + "G"] = Card(s + "G", s, "G", 0, 0)  # Zwanzigerrufen's Glatze
    return cards


#: Every token any game uses, mapped to its facts.
CARDS: Final[dict[str, Card]] = _build_universe()


def _pack_slovenian() -> tuple[str, ...]:
    out = [f"T{n}" for n in range(1, 23)]
    for s in SUITS:
        pips = RED_PIPS if s in RED_SUITS else BLACK_PIPS
        out += [s + r for r in FACE_RANKS] + [s + p for p in pips]
    return tuple(out)


def _pack_zwanzigerrufen() -> tuple[str, ...]:
    out = [f"T{n}" for n in range(1, 23) if n not in (2, 3)]
    for s in SUITS:
        out += [s + r for r in FACE_RANKS] + [s + "G"]
    return tuple(out)


def _pack_royal() -> tuple[str, ...]:
    out = [f"T{n}" for n in range(1, 23)]
    for s in SUITS:
        out += [s + r for r in FACE_RANKS]
        if s in BLACK_SUITS:
            out.append(s + "10")
    return tuple(out)


#: The pack of each game, in canonical display order (taroks low to high, then H, D, S, C).
PACKS: Final[dict[str, tuple[str, ...]]] = {
    "slovenian": _pack_slovenian(),
    "zwanzigerrufen": _pack_zwanzigerrufen(),
    "royal": _pack_royal(),
}
_PACK_SETS: Final = {g: frozenset(p) for g, p in PACKS.items()}
_ORDER: Final = {g: {c: i for i, c in enumerate(p)} for g, p in PACKS.items()}

_ROMAN: Final = {
    "I": 1, "II": 2, "III": 3, "IIII": 4, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8,
    "IX": 9, "X": 10, "XI": 11, "XII": 12, "XIII": 13, "XIV": 14, "XV": 15, "XVI": 16,
    "XVII": 17, "XVIII": 18, "XIX": 19, "XX": 20, "XXI": 21, "XXII": 22,
}  # fmt: skip
_NAMED: Final = {
    "PAGAT": "T1", "PALCKA": "T1", "SPICA": "T1", "MOND": "T21", "SKIS": "T22", "SKUS": "T22",
    "SKUES": "T22", "GSTIESS": "T22", "EXCUSE": "T22", "FOOL": "T22", "UHU": "T2",
    "KAKADU": "T3", "MARABU": "T4",
}  # fmt: skip
#: The red aces as players write them: the strongest red pip (``1``).
_ACES: Final = {"HA": "H1", "DA": "D1"}


def _fold(token: str) -> str:
    """Upper-case, strip whitespace and diacritics (ŠKIS → SKIS, SKÜS → SKUS)."""
    t = "".join(token.split()).upper()
    if t.isascii():
        return t
    t = t.replace("Ü", "U").replace("ß", "SS")
    return "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))


def normalize_token(
    token: str, game: str | None = None, names: Mapping[str, str] | None = None
) -> str:
    """Map an input token (any alias, case, whitespace) to a canonical token, or raise.

    ``names`` are the physical card names a ruleset maps onto its pack (Zwanzigerrufen's
    Glatzen: ``GameEngine.card_names(ruleset)``, the one home of that knowledge): a physical
    card of the set, written any way (``HA``, ``h1``), becomes its pack token (``HG``); any
    other physical card stays itself, so that the pack check rejects it (§2.2 of the
    Zwanzigerrufen rules). The result is canonical but not yet checked against a pack; see
    :func:`parse_card`.
    """
    t = _fold(token)
    if names and t in names:
        return names[t]
    canon = _canonical(t, token, game)
    if names and canon in names:
        return names[canon]
    return canon


def _canonical(t: str, token: str, game: str | None) -> str:
    if t in CARDS:
        return t
    if t in _ACES:
        return _ACES[t]
    if t in _NAMED:
        return _NAMED[t]
    if t.startswith("T") and t[1:] in _ROMAN:
        return f"T{_ROMAN[t[1:]]}"
    if t in _ROMAN:
        return f"T{_ROMAN[t]}"
    if len(t) >= 2 and t[0] in SUITS:
        s, r = t[0], t[1:]
        # OpenSpiel's short names: KI king, KN knight; German Dame/Bube/Reiter/Cavall.
        alias = {"KI": "K", "KN": "N", "KNIGHT": "N", "KING": "K", "QUEEN": "Q", "JACK": "J"}
        if game == "zwanzigerrufen":
            alias |= {"D": "Q", "B": "J", "C": "N", "R": "N"}
        if r in alias:
            return s + alias[r]
    raise CardError(token, game, f"{token!r} is not a card token")


def parse_card(token: str, game: str, names: Mapping[str, str] | None = None) -> str:
    """Canonical token of ``token`` in ``game``'s pack, physical ``names`` mapped as
    :func:`normalize_token` maps them; raises :class:`CardError`."""
    canon = normalize_token(token, game, names)
    if canon not in _PACK_SETS[game]:
        raise CardError(token, game, f"{canon} is not in the {game} pack")
    return canon


def in_pack(token: str, game: str) -> bool:
    """True when ``token`` is already canonical and belongs to ``game``'s pack."""
    return token in _PACK_SETS[game]


def sort_key(token: str, game: str) -> int:
    """Canonical position of a card in its game's pack (used to write hands in one order)."""
    return _ORDER[game][token]


def sort_cards(tokens: list[str] | tuple[str, ...], game: str) -> list[str]:
    """Cards in canonical order (taroks low to high, then hearts, diamonds, spades, clubs)."""
    order = _ORDER[game]
    return sorted(tokens, key=order.__getitem__)


def card_points(token: str, game: str) -> int:
    """Nominal card points of a card in ``game`` (Royal Tarock counts none)."""
    if game == "royal":
        return 0
    return CARDS[token].points


def thirds(pile: list[str] | tuple[str, ...]) -> int:
    """Slovenian card points of a pile in thirds of a point: 3·Σv − 2·n (70 points = 210)."""
    return 3 * sum(CARDS[c].points for c in pile) - 2 * len(pile)
