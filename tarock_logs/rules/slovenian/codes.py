"""Every finding code the Slovenian engine reports, with the spec section it enforces, its
severity and what it means.

Codes are stable (scripts and the store key on them) and written ``area.snake_name``. A few
codes are warnings by nature (turn order inside the announcement round, an announced ultimo
whose card the side does not hold, anything recorded after the end of the hand). Each code
cites one section: a card the rules forbid is ``play.illegal_card`` under the base rule (8.3)
and has its own code under each additional rule of 8.4 (a), (b) and (c). A call site passes
only the code, its message and the machine facts (:func:`violation`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from tarock_logs.rules.base import Code, Ruleset, Violation, code_table, retired_codes

CODES: Final[Mapping[str, Code]] = code_table(
    # deal (1.5, 3.4)
    Code("deal.table_size", "1.5", "error", "a table size the ruleset does not allow"),
    Code("deal.unknown_card", "3.4", "error", "a dealt token that is no card of the pack"),
    Code("deal.duplicate_card", "3.4", "error", "a card dealt more than once"),
    Code("deal.missing_card", "3.4", "error", "a card not dealt at all"),
    Code("deal.talon_size", "3.4", "error", "the talon does not have 6 cards"),
    Code("deal.hand_size", "3.4", "error", "an active player does not have 12 (16) cards"),
    Code(
        "deal.sitting_out_has_cards",
        "3.4",
        "error",
        "the sitting-out dealer (table of 5) has cards",
    ),
    Code("deal.no_tarok", "3.4", "error", "an active player has no tarok (openspiel redraws)"),
    # bidding (4)
    Code("bid.out_of_turn", "4.3", "error", "a call by a seat whose turn it is not"),
    Code("bid.after_pass", "4.2", "error", "a call by a seat that already passed"),
    Code(
        "bid.too_low", "4.2", "error", "a bid not above the current one (or equal without priority)"
    ),
    Code("bid.three_not_forehand", "4.2", "error", "three bid by someone other than P1"),
    Code(
        "bid.klop_not_allowed",
        "4.4",
        "error",
        "klop declared when someone bid (during the "
        "auction or as the final declaration): klop is only P1's choice after everybody "
        "passed",
    ),
    Code("bid.not_available_for_table", "4.1", "error", "a solo game with 3 active players"),
    Code("bid.unknown_contract", "4.1", "error", "a call that is no contract code"),
    Code("bid.missing_final", "4.3", "error", "P1 won with everybody passing but declared nothing"),
    Code("bid.final_below_high", "4.3", "error", "a final declaration below the winning bid"),
    Code("bid.incomplete", "4.3", "error", "the auction had not finished when play went on"),
    Code("bid.after_bidding", "4.3", "error", "a bid after the auction was over"),
    Code(
        "bid.pass_as_klop",
        "4.4",
        "warning",
        "P1's pass as final declaration after everybody passed, read as klop (final_pass_lenient)",
    ),
    Code(
        "bid.pass_as_final",
        "4.4",
        "warning",
        "a pass as final declaration, read as keeping the winning bid (final_pass_lenient)",
    ),
    Code(
        "bid.final_pass",
        "4.4",
        "error",
        "a pass as final declaration where the ruleset has "
        "none (openspiel; read as klop or as keeping the winning bid)",
    ),
    # king call, talon, discards (6)
    Code("call.not_a_king", "6.1", "error", "a call of a card that is not a king"),
    Code("call.not_expected", "6.1", "error", "a king call where none is made"),
    Code("call.out_of_turn", "6.1", "error", "a king call by someone other than the declarer"),
    Code("call.missing", "6.1", "error", "no king called in tri/dva/ena with 4 players"),
    Code("talon.bad_group", "6.2", "error", "a talon group index that does not exist"),
    Code("talon.not_expected", "6.2", "error", "a talon pick in a contract without exchange"),
    Code("talon.out_of_turn", "6.2", "error", "a talon pick by someone other than the declarer"),
    Code("talon.missing", "6.2", "error", "no talon group taken"),
    Code("discard.king", "6.2", "error", "a king laid away (wrong discard)"),
    Code("discard.trula", "6.2", "error", "pagat, mond or škis laid away (wrong discard)"),
    Code("discard.tarok_not_shown", "6.2", "error", "a tarok laid away without showing it"),
    Code("discard.tarok_not_forced", "6.2", "error", "openspiel: a tarok laid away needlessly"),
    Code("discard.count", "6.2", "error", "not exactly as many discards as talon cards taken"),
    Code("discard.not_in_hand", "6.2", "error", "a discarded card the declarer does not hold"),
    Code("discard.out_of_turn", "6.2", "error", "a discard by someone other than the declarer"),
    # announcements and kontra (7)
    Code("ann.not_allowed_in_contract", "7.3", "error", "a bonus that does not exist in the game"),
    Code("ann.not_allowed_for_side", "7.3", "error", "a bonus the defenders may not announce"),
    Code("ann.valat_not_declarer", "7.3", "error", "valat or barvni valat not by the declarer"),
    Code("ann.barvni_valat_not_solo", "7.3", "error", "barvni valat announced outside a solo"),
    Code("ann.duplicate", "7.3", "error", "a bonus announced twice by one side"),
    Code("ann.both_sides", "7.3", "error", "a bonus announced by both sides"),
    Code("ann.with_barvni_valat", "7.3", "error", "another announcement with barvni valat"),
    Code("ann.unknown_bonus", "7.1", "error", "an announcement that is no bonus"),
    Code("ann.before_lezim", "7.5", "error", "an announcement or kontra before 'ležim' (renons)"),
    Code("ann.after_first_card", "7.5", "error", "an announcement after the first card"),
    Code("ann.card_not_held", "7.3", "warning", "an ultimo announced without holding its card"),
    Code("ann.order", "7.5", "warning", "a turn-order deviation inside the announcement round"),
    Code(
        "ann.lezim_not_expected",
        "7.5",
        "warning",
        "'ležim' in a contract without bonuses "
        "where the ruleset has none (lezim_without_bonuses = none)",
    ),
    Code("kontra.not_allowed", "7.6", "error", "kontra where the ruleset has none"),
    Code("kontra.not_eligible", "7.6", "error", "kontra by a player who may not give it"),
    Code("kontra.item_not_announced", "7.6", "error", "kontra on a bonus nobody announced"),
    Code("kontra.duplicate", "7.6", "error", "kontra on an item already doubled"),
    Code("kontra.second_level", "7.6", "error", "re-kontra beyond the ruleset's levels"),
    Code("kontra.too_late", "7.5", "error", "kontra after the first card"),
    # play (8)
    Code("play.not_in_hand", "8.3", "error", "a card the seat does not hold (applied)"),
    Code("play.unknown_card", "2.1", "error", "a token that is no card (skipped)"),
    Code("play.out_of_turn", "8.1", "error", "a card by a seat whose turn it is not"),
    Code(
        "play.illegal_card",
        "8.3",
        "error",
        "a card the base rule forbids: the led suit not "
        "followed, or no tarok when void (renons); params: legal, required",
    ),
    Code(
        "play.must_overtake",
        "8.4(a)",
        "error",
        "klop, berač: a card that does not win the "
        "trick although one that wins is held (the pagat forced by škis and mond included; "
        "renons); params: legal",
    ),
    Code(
        "play.pagat_restricted",
        "8.4(b)",
        "error",
        "klop, berač: the pagat played while another card was legal (renons); params: legal",
    ),
    Code(
        "play.protected_card",
        "8.4(c)",
        "error",
        "an announced pagat or called king (ultimo) "
        "played before it was forced (renons); params: legal",
    ),
    Code("play.after_end", "8.7", "warning", "a card after the hand ended (ignored)"),
    Code("play.missing_tricks", "8.7", "error", "the log stops before the hand ended"),
    Code("claim.not_expected", "8.7", "error", "a claim outside trick play"),
    # renons (10)
    Code("renons.unclaimed", "10.7", "warning", "a detectable renons nobody called"),
    Code("renons.partial_king_ultimo", "10.4", "warning", "a claim with kralj ultimo announced"),
    # a counted hand (log format 1.2): the record's count against the piles (9.2, 9.3, 9.7, 9.8)
    Code(
        "count.card_points_differ",
        "9.2",
        "warning",
        "a counted hand's recorded card points differ from the count of its piles; params: "
        "recorded_points, recorded_thirds, counted_thirds, counted_points, thirds (counted − "
        "recorded), items (the score items the difference changes)",
    ),
    Code(
        "count.result_differs",
        "9.7",
        "warning",
        "a counted berač or valat is recorded won (lost), but the piles show it lost (won); "
        "params: recorded_won, counted_won, items",
    ),
    # other
    Code("action.seat_not_active", "0.1", "error", "an action by the sitting-out dealer"),
    Code("action.unknown", "0.1", "error", "an action type Slovenian tarok does not have"),
    Code("action.out_of_phase", "7.5", "warning", "a pass outside bidding and announcements"),
)

#: retired codes -> their replacements: ``deal.dealer_order`` (a dealer out of turn) is
#: reported by the reader, which sees the whole session, as ``deal.dealer_rotation``
CODE_ALIASES: Final[Mapping[str, str]] = MappingProxyType(
    {**retired_codes(CODES), "deal.dealer_order": "deal.dealer_rotation"}
)


def violation(
    ruleset: Ruleset,
    code: str,
    message: str,
    *,
    seat: int | None = None,
    card: str | None = None,
    **params: Any,
) -> Violation:
    """A finding of ``code`` (section and severity from :data:`CODES`) citing
    ``"<ruleset id> §<section>"``; ``params`` are the machine facts a report words."""
    return CODES[code].violation(ruleset, message, seat=seat, card=card, **params)
