"""Every finding code of the Royal Tarock engine, with the section of royal-tarock.md it
enforces, its severity and what it means.

Codes are written ``area.snake_name`` as in the other engines (``play.illegal_card``); the
upper-case names the spec uses (``REVOKE``, ``THROWIN_REQUIRED``, ``KONTRA_TWICE``...) are the
retired codes in ``old``, still accepted where users filter by code (``ENGINE.code_aliases``).
A call site passes only the code, its message and the machine facts (:func:`violation`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from tarock_logs.rules.base import Code, Ruleset, Violation, code_table, retired_codes

CODES: Final[Mapping[str, Code]] = code_table(
    # the deal and the throw-in (§3)
    Code(
        "deal.dealer_not_eintreiber",
        "3.2",
        "error",
        "the dealer is not one of the match's Eintreibers",
        old=("DEALER_NOT_EINTREIBER",),
    ),
    Code(
        "deal.wrong_cutter",
        "3.3",
        "error",
        "the pack cut by someone other than the attacking pair's Eintreiber",
    ),
    Code(
        "deal.not_the_pack",
        "3.3",
        "error",
        "the deal is not the 40-card pack, or a talon was dealt",
        old=("DEAL_INVALID",),
    ),
    Code(
        "deal.honours",
        "3.3",
        "error",
        "XIX / XX not with the attacking Abfänger / Eintreiber",
        old=("DEAL_HONOURS",),
    ),
    Code(
        "throw_in.required",
        "3.4",
        "error",
        "a deal that must be thrown in (a hand of fewer "
        "than 3 tarocks, not ten cards, not the pack) was played",
        old=("THROWIN_REQUIRED",),
    ),
    Code(
        "throw_in.unjustified",
        "3.4",
        "error",
        "a throw-in by a player with a sound hand of a "
        "sound deal, or after the bidding began (applied: the deal is annulled)",
        old=("INVALID_THROWIN",),
    ),
    Code("throw_in.after_end", "3.4", "error", "a throw-in after the end of the game (ignored)"),
    # the bidding (§4)
    Code(
        "action.unknown",
        "4.1",
        "error",
        "an action Royal Tarock does not have (bid, call, talon...; ignored)",
        old=("ACTION_UNKNOWN",),
    ),
    Code(
        "bidding.wrong_opener",
        "4.2",
        "error",
        "the bidding opened by neither the dealer nor the attacking Eintreiber",
        old=("BIDDING_WRONG_OPENER",),
    ),
    Code(
        "bidding.out_of_turn",
        "4.2",
        "error",
        "a player spoke in another's turn (the turn passes to him)",
        old=("BIDDING_OUT_OF_TURN",),
    ),
    Code(
        "bidding.not_closed",
        "4.2",
        "error",
        "a card played before three passes in a row (the bidding is closed there)",
        old=("BIDDING_NOT_CLOSED",),
    ),
    Code(
        "bidding.after_close",
        "4.2",
        "error",
        "bidding after it closed (ignored)",
        old=("BIDDING_AFTER_CLOSE",),
    ),
    Code(
        "meld.false",
        "4.3",
        "error",
        "a Meldung the dealt hand does not bear out, or with bad parameters (not scored)",
        old=("FALSE_MELDUNG",),
    ),
    Code(
        "meld.duplicate",
        "4.3",
        "warning",
        "the same Meldung twice by one player (counted once)",
        old=("DUPLICATE_MELDUNG",),
    ),
    Code(
        "meld.not_a_meldung",
        "4.3",
        "error",
        "a meld of an item that is not a Meldung (ignored)",
        old=("NOT_A_MELDUNG",),
    ),
    Code(
        "kontra.own_schlemm",
        "4.4",
        "error",
        "a contra on one's own pair's Schlemm (ignored)",
        old=("KONTRA_OWN_SCHLEMM",),
    ),
    Code(
        "kontra.inactive",
        "4.4",
        "error",
        "a contra on a raised-from or never-announced Schlemm, or on the game (ignored)",
        old=("KONTRA_INACTIVE",),
    ),
    Code(
        "kontra.twice",
        "4.4",
        "error",
        "a second contra on one Schlemm (ignored)",
        old=("KONTRA_TWICE",),
    ),
    Code(
        "kontra.level",
        "4.4",
        "error",
        "a level above 1: there is no re-contra (ignored)",
        old=("KONTRA_LEVEL",),
    ),
    Code(
        "kontra.not_allowed",
        "4.4",
        "error",
        "a contra on a Meldung, a silent premium or an item that cannot be contra'd (ignored)",
        old=("KONTRA_NOT_ALLOWED",),
    ),
    Code(
        "announce.duplicate",
        "4.5",
        "error",
        "a Schlemm the pair already has active (ignored)",
        old=("DUPLICATE_SCHLEMM",),
    ),
    Code(
        "announce.cheaper_after_raise",
        "4.5",
        "warning",
        "a Schlemm the pair's active one already contains (no effect)",
        old=("CHEAPER_AFTER_RAISED",),
    ),
    Code(
        "announce.only_by_raise",
        "4.5",
        "error",
        "an item only reachable by raising, announced directly (applied)",
        old=("MUST_BE_REACHED_BY_RAISE",),
    ),
    Code(
        "raise.needs_partner",
        "4.5",
        "error",
        "a player raised his own last related "
        "Schlemm (trophies, or under raise_rule A); params: legal_under",
        old=("RAISE_NEEDS_PARTNER",),
    ),
    Code(
        "raise.by_announcer",
        "8.1",
        "warning",
        "a player raised his own ordinary Schlemm: "
        "legal under raise_rule B (§8.1 item 6), the ruleset's reading (applied)",
    ),
    Code(
        "raise.target_mismatch",
        "4.5",
        "warning",
        "raises names something the announcement does not raise",
        old=("RAISE_TARGET_MISMATCH",),
    ),
    Code(
        "announce.not_announceable",
        "5",
        "error",
        "an announcement of a Meldung or a silent premium (ignored)",
        old=("NOT_ANNOUNCEABLE",),
    ),
    Code(
        "catalogue.unknown_item",
        "5.6",
        "warning",
        "an item id the catalogue does not know: recorded, scored as unverified",
        old=("UNKNOWN_ITEM",),
    ),
    Code(
        "announce.exclusive",
        "8.1",
        "error",
        "the other pair already announced an exclusive item (ignored)",
        old=("EXCLUSIVE_SCHLEMM",),
    ),
    # the play (§6)
    Code(
        "play.out_of_turn",
        "6.1",
        "error",
        "a card by the wrong player (applied)",
        old=("PLAY_OUT_OF_TURN",),
    ),
    Code(
        "play.illegal_card",
        "6.1",
        "error",
        "suit not followed, or no tarock played when void (applied)",
        old=("REVOKE",),
    ),
    Code(
        "play.bound_card_early",
        "6.2",
        "error",
        "a bound card played before its trick although another card was possible",
        old=("BOUND_CARD_EARLY",),
    ),
    Code(
        "play.bound_card_held_back",
        "6.2",
        "error",
        "in its own trick the bound card was held back",
        old=("BOUND_CARD_NOT_IN_TRICK",),
    ),
    Code(
        "play.bound_order",
        "6.2",
        "error",
        "only bound cards left: not the most recently bound one",
        old=("BOUND_ORDER",),
    ),
    Code(
        "play.not_in_hand",
        "6.4",
        "error",
        "check only: the card is not in the hand (push refuses it, the replay stops)",
        old=("CARD_NOT_HELD",),
    ),
    Code("play.second_card", "6.4", "error", "a second card by one player to one trick (refused)"),
    Code(
        "action.after_end",
        "6.4",
        "error",
        "an action after the last trick or a throw-in (ignored)",
        old=("ACTION_AFTER_END",),
    ),
)

#: retired code (the spec's upper-case names) -> the code that replaced it; a dealer out of
#: turn (``DEALER_ROTATION``) is reported by the reader, which sees the whole match, as
#: ``deal.dealer_rotation``
CODE_ALIASES: Final[Mapping[str, str]] = MappingProxyType(
    {**retired_codes(CODES), "DEALER_ROTATION": "deal.dealer_rotation"}
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
