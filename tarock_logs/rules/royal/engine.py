"""The Royal Tarock :class:`~tarock_logs.rules.base.GameEngine`: the ruleset, matches, the deal
(ten cards each, no talon, §3.3), the dealer rotation (§3.2) and the match arithmetic (§7.2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import Any

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import (
    Action,
    Code,
    FactTerms,
    GameEngine,
    GameTerms,
    HandScore,
    NativeLane,
    Ruleset,
    SeatRole,
)
from tarock_logs.rules.royal import native
from tarock_logs.rules.royal.bidding import PARTY_NAMES
from tarock_logs.rules.royal.catalogue import Catalogue, builtin_catalogue
from tarock_logs.rules.royal.codes import CODE_ALIASES, CODES
from tarock_logs.rules.royal.hand import PHASE_OF_TYPE, Phase, RoyalHand
from tarock_logs.rules.royal.rulesets import (
    GAME,
    REGISTRY,
    RULESET_ID,
    check_ruleset,
    load_catalogue_path,
    normalize_options,
    options_of,
)
from tarock_logs.rules.royal.scoring import implied_consolation
from tarock_logs.rules.royal.session import RoyalSession, match_result
from tarock_logs.rules.royal.tricks import trick_winner as royal_trick_winner


@cache
def _terms() -> GameTerms:
    """The game's terms, the item names from the built-in catalogue (built on first use)."""
    names: dict[str, str] = {}
    for item_id, item in builtin_catalogue().items.items():
        n = item.names
        names[item_id] = n.get("de") or n.get("hu") or n.get("en") or item_id
    return GameTerms(
        language="de",
        tarok="Tarock",
        trula={"T22": "Sküs", "T21": "Mond", "T1": "Pagat"},
        contracts=names,
        bonuses=names,
        melds=names,
        kontra_levels=("Kontra", "Rekontra", "Subkontra", "Mordkontra"),
        pass_words={"": "Weiter"},
    )


#: item names of the score that are no catalogue item
STRUCTURAL_ITEMS = ("consolation", "kontra", "cap")


def known_items(ruleset: Ruleset) -> frozenset[str]:
    """The catalogue items of known value under ``ruleset``, and the structural items (one
    object per catalogue: a catalogue is immutable, and the audit asks once a hand)."""
    cat: Catalogue = options_of(ruleset).catalogue
    kept = _KNOWN.get(id(cat))
    if kept is not None and kept[0] is cat:
        return kept[1]
    known = {i.id for i in cat.items.values() if i.value is not None}
    out = frozenset(known | set(STRUCTURAL_ITEMS))
    if len(_KNOWN) >= 64:
        _KNOWN.clear()
    _KNOWN[id(cat)] = (cat, out)
    return out


#: :func:`known_items` by catalogue (the catalogue kept alive beside its answer)
_KNOWN: dict[int, tuple[Catalogue, frozenset[str]]] = {}


class RoyalEngine(GameEngine):
    """The Royal Tarock engine: rulesets, matches, the match arithmetic."""

    game = GAME
    rulesets = REGISTRY
    default_ruleset = RULESET_ID
    phase_of_type: Mapping[str, str] = PHASE_OF_TYPE
    first_phase = Phase.BIDDING
    #: the spec's upper-case codes -> the codes that replaced them
    code_aliases: Mapping[str, str] = CODE_ALIASES
    #: the items of the built-in catalogue (the default ruleset's); see :meth:`score_items_for`
    score_items: frozenset[str] | None = known_items(REGISTRY[RULESET_ID])
    title = "Royal Tarock"
    features = frozenset({"fixed_pairs", "schlemm"})
    #: the tricks count, not their card points (the replay's trick list adds up tricks)
    trick_points_unit = "tricks"
    #: the replay page's own keys: the attacking and the defending pair (§3.1); Royal Tarock
    #: has no contract, declarer or partner
    timeline_keys = ("pairs",)
    #: the Players page's Royal sections: Schlemme, then matches and pairs
    stat_sections = ("schlemm", "matches")
    player_role_names: Mapping[str, str] = MappingProxyType(
        {"abfaenger": "Abfänger", "eintreiber": "Eintreiber"}
    )
    seating_error = (
        "table.royal_pairs",
        "Royal Tarock needs two fixed pairs A and B, each with one 'abfaenger' and one "
        "'eintreiber' (set pair and role of every player)",
    )

    def seating(self, table_size: int) -> tuple[tuple[str, str], ...] | None:
        """Two fixed pairs A and B, each with an Abfänger followed by its Eintreiber (the
        seat order of the rules' §3.1: partners sit next to each other)."""
        if table_size != 4:
            return None
        return (("A", "abfaenger"), ("A", "eintreiber"), ("B", "abfaenger"), ("B", "eintreiber"))

    def ruleset(self, ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
        """The ruleset (id or alias) with ``options``; a ``catalogue`` option takes a parsed
        catalogue document, ``catalogue_path`` the path of a JSON file (read here)."""
        return super().ruleset(ruleset_id, load_catalogue_path(options) if options else None)

    def native_lane(self, ruleset: Ruleset, table_size: int) -> NativeLane | None:
        """The native engine (``royalhand.h``, :mod:`.native`) reading ordinary records
        through the ingest lane (``royal_lane_hands``): two pairs at a table of four."""
        if table_size != 4:
            return None
        return native.lane(ruleset)

    def check_ruleset(self, ruleset: Ruleset) -> None:
        check_ruleset(ruleset)

    def clean_states(
        self,
        actions: Sequence[Action],
        hands: Sequence[Sequence[str]],
        dealer: int,
        seats: Sequence[SeatRole],
        final: tuple[str | None, int | None, int | None],
    ) -> list[tuple[int, str, Any]]:
        """The attacking and the defending pair from the deal (§3.1: the dealer's pair
        defends; the recorded pairs, else by the dealer), as the session decides them; Royal
        Tarock has no contract, declarer or partner."""
        session = RoyalSession(self.ruleset(self.default_ruleset), 4)
        session.set_seats(seats)
        parties = session.parties(dealer)
        return [(0, "pairs", {PARTY_NAMES[p]: list(s) for p, s in enumerate(parties)})]

    def codes(self) -> Mapping[str, Code]:
        return CODES

    def terms(self) -> GameTerms:
        """Royal Tarock's terms: the items (*Meldungen*, *Schlemme*) by the names of the
        built-in catalogue (German first, then Hungarian, then English); *Kontra, Rekontra,
        Subkontra, Mordkontra*; *Sküs, Mond, Pagat*; a pass is *Weiter*."""
        return _terms()

    def trick_winner(self, cards: Sequence[tuple[int, str]], contract: str | None) -> int | None:
        """The strongest tarock, else the strongest card of the led suit (no contract changes
        the rule)."""
        if not cards:
            return None
        try:
            return royal_trick_winner(list(cards))
        except (KeyError, IndexError, ValueError):
            return None

    def new_session(self, ruleset: Ruleset, table_size: int = 4) -> RoyalSession:
        return RoyalSession(ruleset, table_size)

    def new_hand(self, ruleset: Ruleset, dealer: int, hands: Sequence[Sequence[str]]) -> RoyalHand:
        """A single game outside a match (tests, what-if)."""
        return RoyalHand(ruleset, dealer, hands)

    # ---------------------------------------------------------------- the deal

    def pack(self, ruleset: Ruleset | None = None) -> tuple[str, ...]:
        """The 40 cards (§2): all 22 tarocks, K Q Cavall J of every suit and the Ten of the
        black suits."""
        return PACKS[GAME]

    def next_dealer(self, dealer: int, table_size: int, *, thrown_in: bool = False) -> int:
        """§3.2: the defending pair's Eintreiber deals and attack and defence alternate, so
        the deal passes two seats on (to the other pair's Eintreiber); a thrown-in deal is
        dealt again by the same dealer."""
        return dealer if thrown_in else (dealer + 2) % table_size

    # ---------------------------------------------------------------- the match (§7.2)

    def session_totals(self, ruleset: Ruleset, rows: Sequence[Sequence[int]]) -> list[int]:
        """The match result from the per-game totals (§7.2)."""
        n = max((len(r) for r in rows), default=4)
        sums = [sum(r[s] for r in rows if s < len(r)) for s in range(n)]
        return match_result(sums, normalize_options(ruleset.options)["match_length"])

    def placement_points(
        self, ruleset: Ruleset, round_scores: Sequence[int], all_tables_of_five: bool = False
    ) -> list[float]:
        """The match result itself: tournament aggregation beyond one match is unknown
        (royal-tarock.md §8.1 item 18), so no further placement table is applied."""
        return [float(x) for x in round_scores]

    def implied_claims(
        self, ruleset: Ruleset, score: HandScore, recorded_totals: Sequence[int]
    ) -> Mapping[str, tuple[int | None, ...]]:
        """The consolation each party's recorded score implies (§7.1), when it is unknown."""
        if "consolation" not in score.claimed:
            return {}
        options = normalize_options(ruleset.options)
        return {"consolation": implied_consolation(score, recorded_totals, options)}

    def fact_terms(self, ruleset: Ruleset) -> FactTerms:
        """A game recorded as facts (the match sheet): no contracts (every game is ``game``),
        the catalogue's items as the bonuses (Meldungen, Schlemme, silent premiums, trophies;
        a user catalogue's too), and contras on the items that may be contra'd."""
        cat: Catalogue = options_of(ruleset).catalogue
        return FactTerms(
            contracts=("game",),
            bonuses=tuple(cat.items),
            kontra_targets=tuple(i.id for i in cat.items.values() if i.contra_allowed),
        )

    def session_notes(self, ruleset: Ruleset, carry: Mapping[str, Any]) -> list[str]:
        """§7.2: the match result divides the sum by the match length; a match of fewer games
        (a one-game "match": floor(15 / 8) = 1) is not a match result yet."""
        games = carry.get("games")
        length = int(normalize_options(ruleset.options)["match_length"])
        if isinstance(games, int) and games < length:
            return [
                f"the match is incomplete: {games} of {length} games were played, and the "
                f"match result (each total divided by {length}, §7.2) counts the missing "
                "games as 0"
            ]
        return []

    def score_items_for(self, ruleset: Ruleset) -> frozenset[str]:
        """Item names the engine checks under ``ruleset``'s catalogue: those of items whose
        value is known (a recorded line for an item of unknown value is 'not checked')."""
        return known_items(ruleset)


ENGINE = RoyalEngine()
