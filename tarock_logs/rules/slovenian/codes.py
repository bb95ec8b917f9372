"""Every finding code the Slovenian engine reports, with the spec section it enforces.

Codes are stable (scripts and the store key on them). ``severity`` is the usual one; a few
codes are warnings by nature (turn order inside the announcement round, an announced ultimo
whose card the side does not hold, anything recorded after the end of the hand).
"""

from __future__ import annotations

from typing import Final

#: code -> (section of slovenian-tarok.md, severity, what it means)
CODES: Final[dict[str, tuple[str, str, str]]] = {
    # deal (3.2, 3.4)
    "deal.table_size": ("1.5", "error", "a table size the ruleset does not allow"),
    "deal.unknown_card": ("3.4", "error", "a dealt token that is no card of the pack"),
    "deal.duplicate_card": ("3.4", "error", "a card dealt more than once"),
    "deal.missing_card": ("3.4", "error", "a card not dealt at all"),
    "deal.talon_size": ("3.4", "error", "the talon does not have 6 cards"),
    "deal.hand_size": ("3.4", "error", "an active player does not have 12 (16) cards"),
    "deal.sitting_out_has_cards": ("3.4", "error", "the sitting-out dealer (table of 5) has cards"),
    "deal.no_tarok": ("3.4", "error", "an active player has no tarok (openspiel redraws)"),
    "deal.dealer_order": ("3.2", "warning", "the deal did not pass to the next seat"),
    # bidding (4.3)
    "bid.out_of_turn": ("4.3", "error", "a call by a seat whose turn it is not"),
    "bid.after_pass": ("4.2", "error", "a call by a seat that already passed"),
    "bid.too_low": ("4.2", "error", "a bid not above the current one (or equal without priority)"),
    "bid.three_not_forehand": ("4.2", "error", "three bid by someone other than P1"),
    "bid.klop_not_allowed": ("4.4", "error", "klop bid during the auction"),
    "bid.not_available_for_table": ("4.1", "error", "a solo game with 3 active players"),
    "bid.unknown_contract": ("4.1", "error", "a call that is no contract code"),
    "bid.missing_final": ("4.3", "error", "P1 won with everybody passing but declared nothing"),
    "bid.final_below_high": ("4.3", "error", "a final declaration below the winning bid"),
    "bid.incomplete": ("4.3", "error", "the auction had not finished when play went on"),
    "bid.after_bidding": ("4.3", "error", "a bid after the auction was over"),
    "bid.pass_as_klop": (
        "4.4",
        "warning",
        "P1's pass as final declaration, read as klop (an error under openspiel)",
    ),
    "bid.pass_as_final": (
        "4.4",
        "warning",
        "a pass as final declaration, read as keeping (an error under openspiel)",
    ),
    # king call, talon, discards (6)
    "call.not_a_king": ("6.1", "error", "a call of a card that is not a king"),
    "call.not_expected": ("6.1", "error", "a king call where none is made"),
    "call.out_of_turn": ("6.1", "error", "a king call by someone other than the declarer"),
    "call.missing": ("6.1", "error", "no king called in tri/dva/ena with 4 players"),
    "talon.bad_group": ("6.2", "error", "a talon group index that does not exist"),
    "talon.not_expected": ("6.2", "error", "a talon pick in a contract without exchange"),
    "talon.out_of_turn": ("6.2", "error", "a talon pick by someone other than the declarer"),
    "talon.missing": ("6.2", "error", "no talon group taken"),
    "discard.king": ("6.2", "error", "a king laid away (wrong discard)"),
    "discard.trula": ("6.2", "error", "pagat, mond or škis laid away (wrong discard)"),
    "discard.tarok_not_shown": ("6.2", "error", "a tarok laid away without showing it"),
    "discard.tarok_not_forced": ("6.2", "error", "openspiel: a tarok laid away needlessly"),
    "discard.count": ("6.2", "error", "not exactly as many discards as talon cards taken"),
    "discard.not_in_hand": ("6.2", "error", "a discarded card the declarer does not hold"),
    "discard.out_of_turn": ("6.2", "error", "a discard by someone other than the declarer"),
    # announcements and kontra (7.7)
    "ann.not_allowed_in_contract": ("7.3", "error", "a bonus that does not exist in the game"),
    "ann.not_allowed_for_side": ("7.3", "error", "a bonus the defenders may not announce"),
    "ann.valat_not_declarer": ("7.3", "error", "valat or barvni valat not by the declarer"),
    "ann.barvni_valat_not_solo": ("7.3", "error", "barvni valat announced outside a solo"),
    "ann.duplicate": ("7.3", "error", "a bonus announced twice by one side"),
    "ann.both_sides": ("7.3", "error", "a bonus announced by both sides"),
    "ann.with_barvni_valat": ("7.3", "error", "another announcement with barvni valat"),
    "ann.unknown_bonus": ("7.1", "error", "an announcement that is no bonus"),
    "ann.before_lezim": ("7.5", "error", "an announcement or kontra before 'ležim' (renons)"),
    "ann.after_first_card": ("7.5", "error", "an announcement after the first card"),
    "ann.card_not_held": ("7.3", "warning", "an ultimo announced without holding its card"),
    "ann.order": ("7.5", "warning", "a turn-order deviation inside the announcement round"),
    "kontra.not_allowed": ("7.6", "error", "kontra where the ruleset has none"),
    "kontra.not_eligible": ("7.6", "error", "kontra by a player who may not give it"),
    "kontra.item_not_announced": ("7.6", "error", "kontra on a bonus nobody announced"),
    "kontra.duplicate": ("7.6", "error", "kontra on an item already doubled"),
    "kontra.second_level": ("7.6", "error", "re-kontra beyond the ruleset's levels"),
    "kontra.too_late": ("7.5", "error", "kontra after the first card"),
    # play (8.7)
    "play.not_in_hand": ("8.3", "error", "a card the seat does not hold (applied)"),
    "play.unknown_card": ("2.1", "error", "a token that is no card (skipped)"),
    "play.out_of_turn": ("8.1", "error", "a card by a seat whose turn it is not"),
    "play.illegal_card": ("8.3", "error", "a card the rules forbid here (renons)"),
    "play.after_end": ("8.7", "warning", "a card after the hand ended (ignored)"),
    "play.missing_tricks": ("8.7", "error", "the log stops before the hand ended"),
    "claim.not_expected": ("8.7", "error", "a claim outside trick play"),
    # renons (10)
    "renons.unclaimed": ("10.7", "warning", "a detectable renons nobody called"),
    "renons.partial_king_ultimo": ("10.4", "warning", "a claim with kralj ultimo announced"),
    # other
    "action.seat_not_active": ("0.1", "error", "an action by the sitting-out dealer"),
    "action.unknown": ("0.1", "error", "an action type Slovenian tarok does not have"),
    "action.out_of_phase": ("7.5", "warning", "a pass outside bidding and announcements"),
}
