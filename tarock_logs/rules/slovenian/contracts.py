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
    """One row of the contract table: what the contract is, and every way the rules treat it
    differently (the engines read these flags and never name a contract; ``docs/architecture.md``
    says how to add one). The native engine reads the rows by field name
    (:mod:`tarock_logs.rules.slovenian.fast.codec`)."""

    #: the log's contract code
    code: str
    #: the contract in the game's words
    name: str
    #: bidding rank; klop 0
    rank: int
    #: tournament value (valat's is a ruleset option: :meth:`Rules.contract_value`)
    value: int
    #: talon cards the declarer takes (and lays away as many): 3, 2, 1 or none
    talon: int = 0
    #: with four active players the declarer calls a king (his partner holds it)
    king_call: bool = False
    #: the declarer leads to the first trick (else forehand does)
    declarer_leads: bool = False
    #: a negative game (klop, berač, odprti berač): a player must overtake the trick when he
    #: can, and the pagat is held back (always in klop; in berač by ruleset option)
    negative: bool = False
    #: announcements and silent bonuses exist (solo brez: :attr:`brez_options`)
    bonuses: bool = False
    #: a game worth 70 or more: every seated player earns a radelc
    radelc: bool = False
    #: the declarer plays alone whatever the table size (so barvni valat may be announced)
    solo: bool = False
    #: available with three active players
    at_three: bool = True
    #: the value a renonce costs (spec 10.3)
    renons_value: int = 70
    #: klop: nobody declares, everyone plays alone for his own card points; never bid, only
    #: declared by forehand when everybody passed; at most one kontra, on the game
    alone: bool = False
    #: klop: each of the first six tricks takes one talon card (a gift) to its winner's pile
    talon_gifts: bool = False
    #: tri (three): the mandatory three (obvezna trojka) forehand holds without bidding; no other
    #: player may bid it
    forehand_holds: bool = False
    #: berač, odprti berač: won by taking no trick, so the play ends at the declarer's first
    #: trick; scored by its value alone (no difference)
    no_trick: bool = False
    #: valat, barvni valat: won by taking every trick, so the play ends at the first trick the
    #: declarer loses; scored by its value alone (no difference)
    every_trick: bool = False
    #: barvni valat: the colour-valat trick rule (spec 8.2: taroks win a trick only when led),
    #: as when a barvni valat is announced in a solo
    colour_valat: bool = False
    #: solo brez (without the talon): whether its difference counts (``solo_brez_difference``)
    #: and whether it has bonuses (``solo_brez_bonuses``) are ruleset options
    brez_options: bool = False
    #: valat: its value is the ruleset's ``valat_contract_value`` (not :attr:`value`)
    value_option: bool = False
    #: odprti berač (open beggar): the declarer's cards lie face up after the first trick, so
    #: every player sees them (what the player knew, :mod:`tarock_logs.rules.slovenian.view`)
    open_hand: bool = False

    @property
    def fixed(self) -> bool:
        """Won or lost whole by the tricks taken (berač, valat): no card points, no difference."""
        return self.no_trick or self.every_trick

    @property
    def by_points(self) -> bool:
        """A declarer's game won by card points (tri to solo brez): the difference counts."""
        return not (self.alone or self.fixed)


CONTRACTS: Final[dict[str, Contract]] = {
    c.code: c
    for c in (
        Contract("klop", "klop", rank=0, value=0, negative=True, radelc=True, alone=True,
                 talon_gifts=True),
        Contract("three", "tri", rank=1, value=10, talon=3, king_call=True, bonuses=True,
                 forehand_holds=True),
        Contract("two", "dva", rank=2, value=20, talon=2, king_call=True, bonuses=True),
        Contract("one", "ena", rank=3, value=30, talon=1, king_call=True, bonuses=True),
        Contract("solo_three", "solo tri", rank=4, value=40, talon=3, bonuses=True, solo=True,
                 at_three=False),
        Contract("solo_two", "solo dva", rank=5, value=50, talon=2, bonuses=True, solo=True,
                 at_three=False),
        Contract("solo_one", "solo ena", rank=6, value=60, talon=1, bonuses=True, solo=True,
                 at_three=False),
        Contract("berac", "berač", rank=7, value=70, declarer_leads=True, negative=True,
                 radelc=True, solo=True, no_trick=True),
        Contract("solo_brez", "solo brez", rank=8, value=80, declarer_leads=True, bonuses=True,
                 radelc=True, solo=True, renons_value=80, brez_options=True),
        Contract("odprti_berac", "odprti berač", rank=9, value=90, declarer_leads=True,
                 negative=True, radelc=True, solo=True, renons_value=90, no_trick=True,
                 open_hand=True),
        Contract("barvni_valat", "barvni valat", rank=10, value=125, declarer_leads=True,
                 radelc=True, solo=True, renons_value=125, every_trick=True, colour_valat=True),
        Contract("valat", "valat", rank=11, value=250, declarer_leads=True, radelc=True,
                 solo=True, renons_value=250, every_trick=True, value_option=True),
    )
}  # fmt: skip


def _only(flag: str) -> str:
    """The code of the one contract with ``flag`` set (the table has exactly one)."""
    (code,) = (c.code for c in CONTRACTS.values() if getattr(c, flag))
    return code


#: klop's code: the contract of a hand nobody declares (:attr:`Contract.alone`)
ALONE: Final = _only("alone")
#: the mandatory three's code (:attr:`Contract.forehand_holds`): the bidding's starting high bid
MANDATORY: Final = _only("forehand_holds")

#: Bid codes in ladder order (klop is never bid, only declared).
LADDER: Final = tuple(c for c, row in CONTRACTS.items() if not row.alone)

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
        row = CONTRACTS[code]
        return self.valat_value if row.value_option else row.value

    def cite(self, section: str) -> str:
        return self.ruleset.cite(section)

    def has_bonuses(self, code: str) -> bool:
        """Whether announcements and silent bonuses exist in contract ``code``."""
        row = CONTRACTS[code]
        return self.solo_brez_bonuses if row.brez_options else row.bonuses
