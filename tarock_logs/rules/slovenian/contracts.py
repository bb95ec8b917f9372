"""The contract ladder as a table of rows (spec sections 4.1 and 5.1), and :class:`Rules`,
the ruleset's options unpacked once into attributes for the engine's hot paths.

Vocabulary: the **talon** is the six cards dealt apart; the declarer of tri/dva/ena and the solo
games takes one group of it and discards as many cards (*zalaganje*). **Klop** is the game
everybody plays alone when all pass; **berač** (beggar) and **odprti berač** (open beggar) are
won by taking no trick; **barvni valat** (colour valat) and **valat** by taking every trick.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from tarock_logs.rules.base import Ruleset


@dataclass(frozen=True, slots=True)
class Contract:
    """One row of the contract table."""

    code: str
    rank: int  # bidding rank; klop 0
    value: int  # tournament value (valat's is a ruleset option)
    talon: int  # talon cards taken (= discarded)
    king_call: bool  # with 4 active players
    declarer_leads: bool
    negative: bool  # must overtake, pagat restriction
    bonuses: bool  # announcements and silent bonuses exist
    radelc: bool  # a game worth 70 or more: every seated player earns a radelc
    solo: bool  # the declarer plays alone whatever the table size (barvni valat announceable)
    at_three: bool  # available with 3 active players
    renons_value: int  # spec 10.3
    name: str


CONTRACTS: Final[dict[str, Contract]] = {
    c.code: c
    for c in (
        Contract("klop", 0, 0, 0, False, False, True, False, True, False, True, 70, "klop"),
        Contract("three", 1, 10, 3, True, False, False, True, False, False, True, 70, "tri"),
        Contract("two", 2, 20, 2, True, False, False, True, False, False, True, 70, "dva"),
        Contract("one", 3, 30, 1, True, False, False, True, False, False, True, 70, "ena"),
        Contract(
            "solo_three", 4, 40, 3, False, False, False, True, False, True, False, 70, "solo tri"
        ),
        Contract(
            "solo_two", 5, 50, 2, False, False, False, True, False, True, False, 70, "solo dva"
        ),
        Contract(
            "solo_one", 6, 60, 1, False, False, False, True, False, True, False, 70, "solo ena"
        ),
        Contract("berac", 7, 70, 0, False, True, True, False, True, True, True, 70, "berač"),
        Contract(
            "solo_brez", 8, 80, 0, False, True, False, True, True, True, True, 80, "solo brez"
        ),
        Contract(
            "odprti_berac", 9, 90, 0, False, True, True, False, True, True, True, 90, "odprti berač"
        ),
        Contract(
            "barvni_valat",
            10,
            125,
            0,
            False,
            True,
            False,
            False,
            True,
            True,
            True,
            125,
            "barvni valat",
        ),
        Contract("valat", 11, 250, 0, False, True, False, False, True, True, True, 250, "valat"),
    )
}

#: Bid codes in ladder order (klop is never bid, only declared).
LADDER: Final = tuple(c for c in CONTRACTS if c != "klop")

#: Bonus values (spec 7.2): silent value; announced counts double.
BONUS_VALUES: Final = {
    "trula": 10,
    "kralji": 10,
    "pagat_ultimo": 25,
    "kralj_ultimo": 10,
    "valat": 250,
    "barvni_valat": 125,
}
BONUSES: Final = tuple(BONUS_VALUES)
#: Bonuses either side may announce.
BOTH_SIDES_BONUSES: Final = frozenset({"trula", "kralji", "pagat_ultimo"})

#: OpenSpiel's bid numbers (spec 4.6).
OPENSPIEL_BID: Final = {"pass": 0, "klop": 1, **{c: i + 2 for i, c in enumerate(LADDER)}}


class Rules:
    """A ruleset's options as plain attributes (read once per hand, not per card)."""

    __slots__ = (
        "announced_valat_leads",
        "announcements",
        "count_remainder",
        "diff_nearest_5",
        "discard_only_if_forced",
        "emperor_always",
        "final_pass_lenient",
        "klop_kontra",
        "klop_kontra_full_and_empty_doubled",
        "klop_nearest_5",
        "kontra_levels",
        "lezim_always",
        "mondfang_value",
        "mondfang_when_valat",
        "native",
        "openspiel_scoring",
        "opts",
        "overtake_by_rank",
        "pagat_in_berac",
        "pagat_last_tarok",
        "protect_either",
        "protection",
        "radelci",
        "radelci_from_silent_valat",
        "redeal_without_taroks",
        "renons_partner_plus",
        "renons_with_bonuses",
        "ruleset",
        "silent_ultimo_failure_counts",
        "solo_brez_bonuses",
        "solo_brez_difference",
        "table_sizes",
        "tie_best_shared",
        "valat_value",
        "win_threshold",
    )

    def __init__(self, ruleset: Ruleset) -> None:
        o: dict[str, Any] = dict(ruleset.options)
        self.ruleset = ruleset
        self.opts = o
        self.table_sizes = tuple(o["table_sizes"])
        #: the bulk path's native set-up of these rules by table size (fastpath fills it)
        self.native: dict[int, Any] = {}
        self.openspiel_scoring = o["scoring"] == "openspiel"
        self.win_threshold = int(o["win_threshold_thirds"])
        self.diff_nearest_5 = o["difference_rounding"] == "nearest_5"
        self.klop_nearest_5 = o["klop_points_rounding"] == "nearest_5"
        self.valat_value = int(o["valat_contract_value"])
        self.solo_brez_difference = bool(o["solo_brez_difference"])
        self.solo_brez_bonuses = bool(o["solo_brez_bonuses"])
        self.discard_only_if_forced = o["tarok_discard"] == "only_if_forced"
        self.announcements = bool(o["announcements"])
        self.kontra_levels = int(o["kontra_levels"])
        self.klop_kontra = bool(o["klop_kontra"]) and self.kontra_levels > 0
        self.klop_kontra_full_and_empty_doubled = bool(o["klop_kontra_full_and_empty_doubled"])
        self.radelci = bool(o["radelci"])
        self.silent_ultimo_failure_counts = bool(o["silent_ultimo_failure_counts"])
        self.count_remainder = bool(o["trula_kralji_count_talon_remainder"])
        self.overtake_by_rank = o["overtake_rule"] == "rank"
        self.pagat_last_tarok = o["pagat_restriction"] == "last_tarok"
        self.pagat_in_berac = bool(o["pagat_restriction_in_berac"])
        self.emperor_always = o["emperor_forcing"] == "always"
        self.mondfang_when_valat = bool(o["mondfang_when_valat"])
        self.mondfang_value = int(o["mondfang_value"])
        self.announced_valat_leads = bool(o["announced_valat_declarer_leads"])
        self.protection = bool(o["announced_card_protection"])
        self.protect_either = o["protected_only_left"] == "either"
        self.lezim_always = o["lezim_without_bonuses"] == "said"
        self.renons_with_bonuses = bool(o["renons_includes_announced_bonuses"])
        self.renons_partner_plus = bool(o["renons_partner_shares_plus"])
        self.radelci_from_silent_valat = bool(o["radelci_from_silent_valat"])
        self.tie_best_shared = o["table_tie_points"] == "best_shared"
        self.redeal_without_taroks = bool(o["redeal_without_taroks"])
        self.final_pass_lenient = bool(o["final_pass_lenient"])

    def contract_value(self, code: str) -> int:
        """The value V of a contract under this ruleset (valat is an option)."""
        return self.valat_value if code == "valat" else CONTRACTS[code].value

    def cite(self, section: str) -> str:
        return self.ruleset.cite(section)

    def has_bonuses(self, code: str) -> bool:
        """Whether announcements and silent bonuses exist in contract ``code``."""
        if code == "solo_brez":
            return self.solo_brez_bonuses
        return CONTRACTS[code].bonuses
