"""Royal Tarock (Royal Tarokk): Zoltán Gerots' tournament tarock for two fixed pairs, as a
pure rules engine (spec: ``../shared/rules/royal-tarock.md``; ruleset ``royal-gerots-2023``).

40 cards (all 22 tarocks; K Q Cavall J in the red suits, plus the Ten in the black ones), ten
each, **no talon and no card points**. The partners sit side by side: the *Abfänger* on the
left, the *Eintreiber* on the right; the dealer's pair defends, the other pair attacks, and the
attackers are dealt XIX and XX before the rest. Play is counter-clockwise. In the bidding
nothing is auctioned: players declare hand features (*Meldungen*), announce premiums to be made
in the tricks (*Schlemme*), contra the opponents' Schlemme (one level) and raise their
partner's Schlemme (*Hebung*); then ten tricks with follow suit, tarock when void, and the
duties of *bound* cards. Each party then scores only its own items, between 0 and 100 (only
trophies go beyond), and a match of eight games ends with each total divided by eight.

Most of the 70 scoring items are unknown, so the catalogue is data a user can complete
(:mod:`.catalogue`, ``docs/royal.md``). Modules: :mod:`.rulesets`, :mod:`.catalogue`,
:mod:`.predicates`, :mod:`.tricks`, :mod:`.bidding`, :mod:`.hand`, :mod:`.scoring`,
:mod:`.session`, :mod:`.engine`, :mod:`.codes` (every finding code).
"""

from __future__ import annotations

from tarock_logs.rules.royal.catalogue import (
    BUILTIN_ID,
    Catalogue,
    Item,
    builtin_catalogue,
    builtin_catalogue_dict,
    parse_catalogue,
    read_catalogue_file,
)
from tarock_logs.rules.royal.engine import ENGINE, RoyalEngine
from tarock_logs.rules.royal.hand import Phase, RoyalHand, bidding_over
from tarock_logs.rules.royal.rulesets import DEFAULT_OPTIONS, ROYAL_GEROTS_2023, RULESETS
from tarock_logs.rules.royal.session import RoyalSession, match_result
from tarock_logs.rules.royal.tricks import legal_cards, trick_winner

__all__ = [
    "BUILTIN_ID",
    "DEFAULT_OPTIONS",
    "ENGINE",
    "ROYAL_GEROTS_2023",
    "RULESETS",
    "Catalogue",
    "Item",
    "Phase",
    "RoyalEngine",
    "RoyalHand",
    "RoyalSession",
    "bidding_over",
    "builtin_catalogue",
    "builtin_catalogue_dict",
    "legal_cards",
    "match_result",
    "parse_catalogue",
    "read_catalogue_file",
    "trick_winner",
]
