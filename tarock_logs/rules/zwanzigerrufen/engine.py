"""The Zwanzigerrufen :class:`~tarock_logs.rules.base.GameEngine`: the ruleset, sessions, the
deal (ten cards each, no talon, §3.3) and the project's placement points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import (
    Action,
    Code,
    FactTerms,
    GameEngine,
    GameTerms,
    NativeLane,
    Ruleset,
    SeatRole,
)
from tarock_logs.rules.zwanzigerrufen import native
from tarock_logs.rules.zwanzigerrufen.codes import CODE_ALIASES, CODES
from tarock_logs.rules.zwanzigerrufen.hand import PHASE_OF_TYPE, Phase
from tarock_logs.rules.zwanzigerrufen.rulesets import (
    GAME,
    REGISTRY,
    RULESET_ID,
    check_ruleset,
    glatzen_names,
    normalize_options,
)
from tarock_logs.rules.zwanzigerrufen.scoring import FACT_BONUSES, ITEM_ORDER, KONTRA_TARGETS
from tarock_logs.rules.zwanzigerrufen.session import ZRSession
from tarock_logs.rules.zwanzigerrufen.tricks import FARBENSOLO, NORMAL, SOLO
from tarock_logs.rules.zwanzigerrufen.tricks import winner_index as zr_winner_index

_TERMS = GameTerms(
    language="de",
    tarok="Tarock",
    trula={"T22": "Sküs", "T21": "Mond", "T1": "Pagat"},
    contracts={"normal": "Normalspiel", "farbensolo": "Farbensolo", "solo": "Solo"},
    bonuses={
        "absolut": "Absolut", "pagat": "Pagat Ultimo", "pagat_ultimo": "Pagat Ultimo",
        "valat": "Valat", "trull": "Trull", "four_kings": "Vier Könige",
        "mondfang": "Mondfang",
    },
    kontra_levels=("Kontra", "Retour", "Supra", "Resupra"),
    pass_words={"": "weiter"},
)  # fmt: skip


class ZwanzigerrufenEngine(GameEngine):
    """The Zwanzigerrufen :class:`~tarock_logs.rules.base.GameEngine` (four players, 40 cards,
    no talon; the deal passes to the next seat after a game and stays after a throw-in)."""

    game = GAME
    rulesets = REGISTRY
    default_ruleset = RULESET_ID
    phase_of_type: Mapping[str, str] = PHASE_OF_TYPE
    first_phase = Phase.AUCTION
    #: the spec's E_…/I_… codes -> the codes that replaced them
    code_aliases: Mapping[str, str] = CODE_ALIASES
    stop_codes: frozenset[str] = frozenset({"auction.incomplete", "play.missing_tricks"})
    title = "Zwanzigerrufen"

    def codes(self) -> Mapping[str, Code]:
        return CODES

    def native_lane(self, ruleset: Ruleset, table_size: int) -> NativeLane | None:
        """The native engine (``zrhand.h``, :mod:`.native`) reading ordinary records through
        the ingest lane (``zwanzigerrufen_lane_hands``): four players, the merged auction
        (``two_phase`` is the reference's alone); hand by hand (a hand ``zrhand.h`` declines is
        the reference's, with the carry passed both ways)."""
        if table_size != 4 or ruleset.options.get("auction_model") == "two_phase":
            return None
        cfg = native.config(ruleset)
        if cfg is None:
            return None
        return NativeLane(cfg, b"", native.CONTRACT_CODES, native.LANE_CARDS,
                          reader="zwanzigerrufen_lane_hands", items=ITEM_ORDER,
                          to_reference=native.reference_carry,
                          from_reference=native.lane_carry)  # fmt: skip

    def clean_states(
        self,
        actions: Sequence[Action],
        hands: Sequence[Sequence[str]],
        dealer: int,
        seats: Sequence[SeatRole],
        final: tuple[str | None, int | None, int | None],
    ) -> list[tuple[int, str, Any]]:
        """The auction (§4): the call names the normal game, the caller holds it and the
        holder of the called tarock is the partner (none when the caller holds it); each
        higher game overcalls it, its bidder holding it alone."""
        out: list[tuple[int, str, Any]] = []
        now: dict[str, Any] = {"contract": None, "declarer": None, "partner": None}
        for i, a in enumerate(actions):
            if a.type == "call":
                holder = next((s for s, h in enumerate(hands) if a.card in h), None)
                new = {"contract": NORMAL, "declarer": a.seat,
                       "partner": None if holder == a.seat else holder}  # fmt: skip
            elif a.type == "bid" and a.contract:
                new = {"contract": a.contract, "declarer": a.seat, "partner": None}
            else:
                continue
            out += [(i + 1, k, v) for k, v in new.items() if v != now[k]]
            now = new
        return out

    def terms(self) -> GameTerms:
        """Zwanzigerrufen's terms in German: *Farbensolo, Solo*; *Absolut, Pagat Ultimo,
        Valat, Trull, Vier Könige*; *Kontra, Retour, Supra, Resupra*; *Sküs, Mond, Pagat*;
        a pass is *weiter*."""
        return _TERMS

    def trick_winner(self, cards: Sequence[tuple[int, str]], contract: str | None) -> int | None:
        """Spec 6: the Märchenstich, else the strongest tarock or card of the led suit; in a
        Farbensolo tarocks are no trumps."""
        if not cards:
            return None
        try:
            i = zr_winner_index([c for _, c in cards], contract)
        except (KeyError, IndexError, ValueError):
            return None
        return cards[i][0]

    def check_ruleset(self, ruleset: Ruleset) -> None:
        check_ruleset(ruleset)

    def new_session(
        self, ruleset: Ruleset, table_size: int = 4, initial: Mapping[str, Any] | None = None
    ) -> ZRSession:
        """A fresh session, or one resumed from ``initial`` (a previous ``carry()``)."""
        return ZRSession(ruleset, table_size, initial)

    def zero_sum(self, ruleset: Ruleset) -> bool:
        """§7.6 invariant 1: the four deal scores sum to 0 (each player settles with the
        others, §7.4), under every option."""
        return True

    def counted_piles(self, ruleset: Ruleset, contract: str) -> str | None:
        """A counted deal (log format 1.2): the two sides' piles."""
        return "sides"

    def fact_terms(self, ruleset: Ruleset) -> FactTerms:
        """A deal recorded as facts (the club's running sheet): the three contracts, the five
        bonuses of §7.2 (the Mondfang is its own fact) and Kontra on the game or a bonus that
        can be announced."""
        return FactTerms(
            contracts=(NORMAL, FARBENSOLO, SOLO),
            bonuses=FACT_BONUSES,
            kontra_targets=KONTRA_TARGETS,
        )

    def pack(self, ruleset: Ruleset | None = None) -> tuple[str, ...]:
        """The 40 cards (§2.1): tarocks I and IIII–Sküs, and K Q N J and the Glatze (``G``)
        of each suit. The Glatze's physical card depends on ``glatzen``: :meth:`card_names`."""
        return PACKS[GAME]

    def card_names(self, ruleset: Ruleset | None = None) -> Mapping[str, str]:
        """The physical Glatze cards of the ruleset's ``glatzen`` set (O2, §2.2) -> ``HG DG SG
        CG``; any other physical pip card is not in the pack."""
        value = ruleset.options["glatzen"] if ruleset is not None else "red_ace_black_ten"
        if ruleset is not None:
            value = normalize_options({"glatzen": value})["glatzen"]
        return MappingProxyType(glatzen_names(value))

    def placement_points(
        self, ruleset: Ruleset, round_scores: Sequence[int], all_tables_of_five: bool = False
    ) -> list[float]:
        """Simple ranking points: n + 1 − place (4, 3, 2, 1 at a table of four), ties share
        the average of the places they cover.

        Zwanzigerrufen has no official placement table; this is the project's choice
        (docs/zwanzigerrufen.md).
        """
        n = len(round_scores)
        order = sorted(range(n), key=lambda i: -round_scores[i])
        out = [0.0] * n
        i = 0
        while i < n:
            j = i
            while j + 1 < n and round_scores[order[j + 1]] == round_scores[order[i]]:
                j += 1
            pts = [n - place for place in range(i, j + 1)]
            avg = sum(pts) / len(pts)
            for k in range(i, j + 1):
                out[order[k]] = avg
            i = j + 1
        return out


ENGINE = ZwanzigerrufenEngine()
