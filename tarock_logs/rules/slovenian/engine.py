"""The Slovenian :class:`GameEngine`: rulesets, sessions, the deal and placement points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import (
    Action,
    Code,
    DealShape,
    FactTerms,
    GameEngine,
    GameTerms,
    NativeLane,
    Ruleset,
    SeatRole,
)
from tarock_logs.rules.slovenian import tournament
from tarock_logs.rules.slovenian.codes import CODE_ALIASES, CODES
from tarock_logs.rules.slovenian.contracts import CONTRACTS, Rules
from tarock_logs.rules.slovenian.fast import fastpath
from tarock_logs.rules.slovenian.fast.cardbits import CARD
from tarock_logs.rules.slovenian.fast.codec import LANE_ITEMS
from tarock_logs.rules.slovenian.hand import PHASE_OF_TYPE, Phase
from tarock_logs.rules.slovenian.rulesets import REGISTRY, TOURNAMENT_ID, validate
from tarock_logs.rules.slovenian.scoring import fact_terms
from tarock_logs.rules.slovenian.session import SlovenianSession
from tarock_logs.rules.slovenian.tricks import winner_index

#: the talon: six cards at every table (spec 3.4)
TALON_SIZE = 6

_TERMS = GameTerms(
    language="sl",
    trula={"T22": "škis", "T21": "mond", "T1": "pagat"},
    contracts={code: row.name for code, row in CONTRACTS.items()},
    bonuses={
        "trula": "trula", "kralji": "kralji", "pagat_ultimo": "pagat ultimo",
        "kralj_ultimo": "kralj ultimo", "valat": "valat", "barvni_valat": "barvni valat",
    },
    kontra_levels=("kontra", "rekontra", "subkontra", "mordkontra"),
    pass_words={"bidding": "naprej", "announcements": "v redu"},
)  # fmt: skip


class SlovenianEngine(GameEngine):
    """Slovenian tarok (``game = "slovenian"``); default ruleset ``si-tournament-2021``."""

    game = "slovenian"
    rulesets = REGISTRY
    default_ruleset = TOURNAMENT_ID
    #: every score item this engine writes (docs/architecture.md, "Score items"); a recorded
    #: item outside this set is reported by the audit as not checked rather than as wrong
    score_items: frozenset[str] | None = frozenset(
        {
            "contract",
            "difference",
            "trula",
            "kralji",
            "pagat_ultimo",
            "kralj_ultimo",
            "valat",
            "barvni_valat",
            "radelc",
            "mondfang",
            "klop",
            "renons",
            "penalty",
        }
    )
    stop_codes: frozenset[str] = frozenset({"play.missing_tricks"})
    alone_contracts: frozenset[str] = frozenset(c for c, row in CONTRACTS.items() if row.alone)
    title = "Slovenian tarok"
    phase_of_type: Mapping[str, str] = PHASE_OF_TYPE
    first_phase = Phase.BIDDING
    #: retired codes -> their replacements (``tarock audit --code OLD``)
    code_aliases: Mapping[str, str] = CODE_ALIASES
    #: the replay page's own keys: the king called and the talon group taken (spec 6)
    timeline_keys = ("contract", "declarer", "partner", "called_king", "talon_group")
    #: card points are counted in thirds (spec 9.1)
    trick_points_unit = "thirds"

    def native_lane(self, ruleset: Ruleset, table_size: int) -> NativeLane | None:
        """The native whole hand (``slohand.h``) and score (``sloscore.h``) of ``ruleset`` at a
        table of 3 or 4 (a table of five, whose dealer sits out, is the reference's), their
        configurations built from the rule tables (:func:`~.fast.fastpath.native_config`);
        hand by hand, the radelci passed to and from the reference."""
        if table_size not in (3, 4):
            return None
        rules = Rules(ruleset)
        config = fastpath.native_config(rules, table_size)
        scoring = fastpath.native_score_config(rules)
        if config is None or scoring is None:
            return None
        n = table_size

        def to_reference(rad: Sequence[int]) -> dict[str, Any]:
            return {"radelci": list(rad[:n])}

        def from_reference(carry: Mapping[str, Any]) -> tuple[int, ...] | None:
            if any(carry.get("misdeals") or ()):  # (the native whole hand keeps none)
                return None
            rad = [int(x) for x in carry.get("radelci") or ()][:n]
            return (*rad, *[0] * (4 - len(rad)))

        return NativeLane(config, scoring, fastpath.CONTRACT_CODES, CARD, items=LANE_ITEMS,
                          to_reference=to_reference, from_reference=from_reference)  # fmt: skip

    def codes(self) -> Mapping[str, Code]:
        return CODES

    def clean_states(
        self,
        actions: Sequence[Action],
        hands: Sequence[Sequence[str]],
        dealer: int,
        seats: Sequence[SeatRole],
        final: tuple[str | None, int | None, int | None],
    ) -> list[tuple[int, str, Any]]:
        """The default (the final bid ends the bidding, the call names the partner), the king
        called and the talon group taken as recorded, and the announcement round (spec 7)
        entered at the final bid when a pass of that round follows it."""
        out = super().clean_states(actions, hands, dealer, seats, final)
        bid = max((i for i, a in enumerate(actions) if a.type == "bid"), default=None)
        if bid is not None and bid + 1 < len(actions) and actions[bid + 1].type == "pass":
            out.append((bid + 1, "phase", str(Phase.ANNOUNCEMENTS)))
        for i, a in enumerate(actions):
            if a.type == "call" and a.card:
                out.append((i + 1, "called_king", a.card))
            elif a.type == "talon" and a.group is not None:
                out.append((i + 1, "talon_group", a.group))
        return out

    def talon_groups(self, contract: str | None, talon: Sequence[str]) -> list[list[str]]:
        """Spec 6.1: the talon in groups of the contract's size (three, two or one card);
        none in a contract without a talon exchange."""
        c = CONTRACTS.get(contract) if contract else None
        k = c.talon if c is not None else 0
        return [list(talon[i : i + k]) for i in range(0, len(talon), k)] if k else []

    def terms(self) -> GameTerms:
        """Slovenian tarok's terms in Slovenian: *klop, tri … berač, valat*; *trula, kralji,
        pagat ultimo*; *kontra, rekontra, subkontra, mordkontra*; *škis, mond, pagat*; a pass
        is *naprej* in the bidding and *v redu* in the announcement round."""
        return _TERMS

    def trick_winner(self, cards: Sequence[tuple[int, str]], contract: str | None) -> int | None:
        """Spec 8.2: the emperor's trick, else the strongest tarok or card of the led suit; in
        barvni valat (colour valat) taroks win only when led."""
        if not cards:
            return None
        try:
            row = CONTRACTS.get(contract) if contract is not None else None
            i = winner_index(
                [c for _, c in cards], colour_valat=row is not None and row.colour_valat
            )
        except (KeyError, IndexError):
            return None
        return cards[i][0]

    def check_ruleset(self, ruleset: Ruleset) -> None:
        validate(ruleset)

    def fact_terms(self, ruleset: Ruleset) -> FactTerms | None:
        """Score-sheet hands are scored under every ruleset but ``openspiel`` (which scores
        from the tricks)."""
        return None if Rules(ruleset).openspiel_scoring else fact_terms()

    def counted_piles(self, ruleset: Ruleset, contract: str) -> str | None:
        """A counted hand (log format 1.2): klop by each player's pile, every other contract
        by the two sides' piles; not under ``openspiel`` (it scores from the tricks)."""
        if Rules(ruleset).openspiel_scoring:
            return None
        row = CONTRACTS.get(contract)
        return "seats" if row is not None and row.alone else "sides"

    def new_session(self, ruleset: Ruleset, table_size: int) -> SlovenianSession:
        if table_size not in (3, 4, 5):
            raise ValueError(f"Slovenian tarok is played at tables of 3, 4 or 5, not {table_size}")
        return SlovenianSession(ruleset, table_size)

    # ---------------------------------------------------------------- the deal (spec 3)

    def table_sizes(self, ruleset: Ruleset | None = None) -> tuple[int, ...]:
        """3, 4 or 5 (at 5 the dealer sits out); ``openspiel-2.0`` only 3 and 4 (spec 1.5)."""
        if ruleset is None:
            return (3, 4, 5)
        return tuple(ruleset.options["table_sizes"])

    def deal_shape(
        self, table_size: int, dealer: int, ruleset: Ruleset | None = None
    ) -> DealShape | None:
        """Spec 3.4: a talon of 6 and 16 cards each at a table of 3, 12 each at 4 and 5 (at 5
        the dealer sits out with none). Whether the ruleset allows the table is reported by
        the deal check (``deal.table_size``), so a table of 5 has its shape under every
        ruleset."""
        if table_size == 3:
            return DealShape((16, 16, 16), TALON_SIZE)
        if table_size == 4:
            return DealShape((12, 12, 12, 12), TALON_SIZE)
        if table_size == 5:
            return DealShape(tuple(0 if s == dealer else 12 for s in range(5)), TALON_SIZE)
        return None

    def pack(self, ruleset: Ruleset | None = None) -> tuple[str, ...]:
        """The 54 cards: 22 taroks and 8 cards in each suit (spec 2.1)."""
        return PACKS["slovenian"]

    # ---------------------------------------------------------------- presentation

    def action_phases(self, actions: Sequence[Action]) -> list[str]:
        """The phase of each action: by its type, and a ``pass`` is a bidding call until the
        first action after the bidding, then an announcement-round "v redu" (spec 7.5)."""
        out: list[str] = []
        after_bidding = False
        for a in actions:
            ph = PHASE_OF_TYPE.get(a.type)
            if ph is None:
                ph = Phase.ANNOUNCEMENTS if a.type == "pass" and after_bidding else Phase.BIDDING
            elif ph is not Phase.BIDDING:
                after_bidding = True
            out.append(ph)
        return out

    # ---------------------------------------------------------------- tournaments (spec 11)

    def placement_points(
        self, ruleset: Ruleset, round_scores: Sequence[int], all_tables_of_five: bool = False
    ) -> list[float]:
        """Placement points of one table's round scores (spec 11.2, ties per ruleset)."""
        return tournament.placement_points(
            list(round_scores),
            len(round_scores),
            all_tables_of_five,
            str(ruleset.options.get("table_tie_points", "average")),
        )


ENGINE = SlovenianEngine()
