"""Every finding code of the Zwanzigerrufen engine, with the section of zwanzigerrufen.md it
enforces, its severity and what it means.

Codes are written ``area.snake_name`` as in the other engines (``play.illegal_card``); the
spec's own ``E_…``/``I_…`` names (``E_REVOKE``, ``I_IMPLIED_KONTRA``) are the retired codes in
``old``, still accepted where users filter by code (``ENGINE.code_aliases``). The informative
findings (an implied Kontra, announcements voided by an overcall) have severity ``info``: a
hand with only these is legal. A call site passes only the code, its message and the machine
facts (:func:`violation`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tarock_logs.rules.base import Code, Ruleset, Violation, code_table, retired_codes

ROLE_NAMES = ("P1", "P2", "P3", "P4")

CODES: Final[Mapping[str, Code]] = code_table(
    # the deal (§3)
    Code(
        "action.bad_seat",
        "3.1",
        "error",
        "a seat that is not at the table (the dealer, or an acting seat: ignored)",
        old=("E_BAD_SEAT",),
    ),
    Code(
        "deal.dealer_order",
        "3.2",
        "error",
        "the dealer is not the previous forehand (or the same dealer after a throw-in)",
        old=("E_DEALER_ORDER",),
    ),
    Code(
        "deal.bad_card",
        "3.7",
        "error",
        "a dealt token that is not one of the 40 cards",
        old=("E_BAD_CARD",),
    ),
    Code(
        "deal.not_the_pack",
        "3.7",
        "error",
        "the four hands are not exactly the 40 distinct cards, or a talon was recorded",
        old=("E_DECK",),
    ),
    Code(
        "deal.hand_size",
        "3.7",
        "error",
        "a hand does not have exactly 10 cards (or cards were dealt to a fifth seat)",
        old=("E_HAND_SIZE",),
    ),
    Code("deal.knock_forbidden", "3.3", "error", "the cutter knocked under knocking = forbidden"),
    Code(
        "deal.stacks",
        "3.3",
        "error",
        "the stacks recorded after a knock are not four different stacks, or stacks are "
        "recorded without a knock",
    ),
    Code(
        "throw_in.compulsion_mismatch",
        "3.4",
        "warning",
        "the log says the throw-in was compulsory (or voluntary) and the thrown hand says "
        "otherwise",
    ),
    Code(
        "throw_in.missing",
        "3.4",
        "error",
        "a compulsory throw-in was played on",
        old=("E_THROWIN_MISSING",),
    ),
    Code(
        "throw_in.unjustified",
        "3.4",
        "error",
        "a throw-in by a hand that does not qualify",
        old=("E_THROWIN_UNJUSTIFIED",),
    ),
    Code(
        "throw_in.late",
        "3.4",
        "error",
        "a throw-in after the auction began",
        old=("E_THROWIN_LATE",),
    ),
    Code(
        "throw_in.action_after",
        "3.4",
        "error",
        "an action after the deal was thrown in (ignored)",
        old=("E_AFTER_THROW_IN",),
    ),
    Code(
        "action.unknown",
        "1.1",
        "error",
        "an action type Zwanzigerrufen does not have (talon, meld...; ignored)",
        old=("E_NOT_IN_GAME",),
    ),
    # the auction: contracts (§4.3, C1-C7)
    Code(
        "auction.unknown_contract",
        "1.1",
        "error",
        "a contract Zwanzigerrufen does not have (Trischaken...; ignored)",
        old=("E_UNKNOWN_CONTRACT",),
    ),
    Code(
        "auction.forehand_must_declare",
        "4.3",
        "error",
        "forehand's first turn without a contract declaration (C1)",
        old=("E_FOREHAND_MUST_DECLARE",),
    ),
    Code(
        "call.not_forehand",
        "4.3",
        "error",
        "a call by someone other than forehand, or not as her first declaration (C1)",
        old=("E_CALL_NOT_FOREHAND",),
    ),
    Code(
        "call.self_call",
        "4.3",
        "error",
        "forehand called a tarock she holds (C2)",
        old=("E_SELF_CALL",),
    ),
    Code(
        "call.wrong_tarock",
        "4.3",
        "error",
        "not the highest missing of XX-XVI under call_rule highest_missing (C2)",
        old=("E_WRONG_CALL",),
    ),
    Code(
        "auction.solo_required",
        "4.3",
        "error",
        "forehand holds XX-XVI and must declare Solo (C2)",
        old=("E_SOLO_REQUIRED",),
    ),
    Code(
        "auction.farbensolo_ineligible",
        "4.3",
        "error",
        "a Farbensolo with fewer suit cards than farbensolo_min_suit_cards (C4)",
        old=("E_FARBENSOLO_INELIGIBLE",),
    ),
    Code(
        "auction.not_higher",
        "4.3",
        "error",
        "an overcall that is not strictly higher (C5)",
        old=("E_NOT_HIGHER",),
    ),
    Code(
        "auction.contract_closed",
        "4.3",
        "error",
        "an overcall after the contract closed (C5a)",
        old=("E_CONTRACT_CLOSED",),
    ),
    Code(
        "auction.declaration_position",
        "4.3",
        "error",
        "a contract declaration that is not the first declaration of the turn (C5b)",
        old=("E_CONTRACT_DECL_POSITION",),
    ),
    Code(
        "auction.already_passed",
        "4.3",
        "error",
        "an overcall by a player who passed on the contract (C5c)",
        old=("E_ALREADY_PASSED",),
    ),
    Code(
        "auction.own_contract",
        "4.3",
        "error",
        "an overcall of one's own contract (C5d)",
        old=("E_OWN_CONTRACT",),
    ),
    Code(
        "announce.voided_by_overcall",
        "4.3",
        "info",
        "an overcall voids the announcements and Kontras made so far (C7)",
        old=("I_ANNOUNCEMENTS_VOIDED",),
    ),
    # the auction: announcements (§4.4, N1-N5) and Kontra (§4.5, K1-K4)
    Code(
        "announce.not_announceable",
        "4.4",
        "error",
        "a bonus that cannot be announced (N1)",
        old=("E_NOT_ANNOUNCEABLE",),
    ),
    Code(
        "announce.wrong_side",
        "4.4",
        "error",
        "an announcement for the other side (N2)",
        old=("E_WRONG_SIDE",),
    ),
    Code(
        "announce.side_missing",
        "4.4",
        "warning",
        "an announcement without dazu or dagegen, taken for the announcer's own side (N2)",
    ),
    Code(
        "announce.not_in_contract",
        "4.4",
        "error",
        "a bonus the contract does not have (N3)",
        old=("E_NOT_IN_CONTRACT",),
    ),
    Code(
        "announce.pagat_not_held",
        "4.4",
        "error",
        "Pagat announced by a player who does not hold it under pagat_announcer holder_only (N3)",
        old=("E_PAGAT_NOT_HELD",),
    ),
    Code(
        "announce.duplicate",
        "4.4",
        "error",
        "a bonus announced a second time (N4)",
        old=("E_ALREADY_ANNOUNCED",),
    ),
    Code(
        "kontra.implied",
        "4.4",
        "info",
        "an Absolut or Valat dagegen puts the game at Kontra (N5)",
        old=("I_IMPLIED_KONTRA",),
    ),
    Code(
        "announce.pagat_dagegen_without_kontra",
        "4.4",
        "error",
        "Pagat dagegen without a Kontra on the game in the same turn (N5)",
        old=("E_PAGAT_DAGEGEN_WITHOUT_KONTRA",),
    ),
    Code(
        "announce.dagegen_without_kontra",
        "4.4",
        "error",
        "a dagegen announcement without the Kontra dagegen_kontra requires (N5)",
        old=("E_DAGEGEN_WITHOUT_KONTRA",),
    ),
    Code(
        "kontra.bad_target",
        "4.5",
        "error",
        "a Kontra on something not announced (K1)",
        old=("E_KONTRA_TARGET",),
    ),
    Code(
        "kontra.level",
        "4.5",
        "error",
        "a Kontra level that is not the next one, or beyond max_kontra_level (K3)",
        old=("E_KONTRA_LEVEL",),
    ),
    Code(
        "kontra.wrong_side",
        "4.5",
        "error",
        "a Kontra level given by the wrong side (K4)",
        old=("E_KONTRA_SIDE",),
    ),
    # the auction: turns (§4.6)
    Code(
        "auction.turn_order",
        "4.6",
        "error",
        "a turn out of playing order, or a seat speaking during another seat's turn",
        old=("E_TURN_ORDER",),
    ),
    Code(
        "auction.late_declaration",
        "4.6",
        "error",
        "a declaration by a player who may no "
        "longer make it under late_declarations responses_only (T3)",
        old=("E_LATE_DECLARATION",),
    ),
    Code(
        "auction.over",
        "4.6",
        "error",
        "a declaration after the auction ended",
        old=("E_AUCTION_OVER",),
    ),
    Code(
        "auction.incomplete",
        "4.6",
        "error",
        "play (or the end of the log) before four consecutive weiter",
        old=("E_AUCTION_INCOMPLETE",),
    ),
    Code(
        "auction.wrong_phase",
        "4.6",
        "error",
        "two_phase: an announcement or Kontra during the contract auction (ignored)",
        old=("E_AUCTION_PHASE",),
    ),
    # the play (§6)
    Code(
        "play.out_of_turn",
        "6.1",
        "error",
        "a card by a seat whose turn it is not",
        old=("E_NOT_YOUR_TURN",),
    ),
    Code(
        "play.after_end", "6.1", "error", "a card after the tenth trick", old=("E_PLAY_AFTER_END",)
    ),
    Code(
        "play.farbensolo_tarock_lead",
        "6.2",
        "error",
        "a tarock led in a Farbensolo while holding suit cards",
        old=("E_FARBENSOLO_LEAD",),
    ),
    Code(
        "play.illegal_card",
        "6.3",
        "error",
        "a card outside the legal set (follow suit, tarock compulsion); params: legal",
        old=("E_REVOKE",),
    ),
    Code(
        "play.pagat_released",
        "6.6",
        "error",
        "the holder of an announced Pagat played it before trick 10 although not forced",
        old=("E_PAGAT_RELEASED",),
    ),
    Code(
        "play.not_in_hand",
        "6.7",
        "error",
        "a card the player does not hold (ignored)",
        old=("E_CARD_NOT_IN_HAND",),
    ),
    Code(
        "play.missing_tricks",
        "6.7",
        "error",
        "the log ends before ten tricks",
        old=("E_PLAY_INCOMPLETE",),
    ),
    # a counted deal (log format 1.2): the table's count against the piles (§2.4, §7.1)
    Code(
        "count.card_points_differ",
        "7.1",
        "warning",
        "a counted deal's recorded card points differ from the count of its piles; params: "
        "recorded_points, counted_points, points (counted − recorded), items (the score items "
        "the difference changes)",
    ),
    Code(
        "count.result_differs",
        "7.1",
        "warning",
        "a counted deal is recorded won (lost), but the piles show it lost (won); params: "
        "recorded_won, counted_won, items",
    ),
    # card-bonus claims (§3.6, §7.2)
    Code(
        "claim.early",
        "3.6",
        "warning",
        "a card bonus claimed before the end of the play (kept)",
        old=("E_CLAIM_EARLY",),
    ),
    Code(
        "claim.false",
        "7.2",
        "error",
        "a card-bonus claim the dealt hand does not support",
        old=("E_FALSE_CLAIM",),
    ),
    Code(
        "claim.unknown",
        "7.2",
        "error",
        "a claim that is not trull or four_kings",
        old=("E_BAD_CLAIM",),
    ),
)

#: retired code (the spec's ``E_…``/``I_…``) -> the code that replaced it
CODE_ALIASES: Final = retired_codes(CODES)


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
