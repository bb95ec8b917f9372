"""The Slovenian :class:`GameEngine`: rulesets, sessions and placement points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tarock_logs.rules.base import Ruleset
from tarock_logs.rules.slovenian import tournament
from tarock_logs.rules.slovenian.rulesets import RULESETS, get_ruleset
from tarock_logs.rules.slovenian.session import SlovenianSession


class SlovenianEngine:
    """Slovenian tarok (``game = "slovenian"``); default ruleset ``si-tournament-2021``."""

    game = "slovenian"
    rulesets: Mapping[str, Ruleset] = RULESETS
    default_ruleset = "si-tournament-2021"
    #: every score item this engine writes (docs/architecture.md, "Score items"); a recorded
    #: item outside this set is reported by the audit as not checked rather than as wrong
    score_items: frozenset[str] = frozenset({
        "contract", "difference", "trula", "kralji", "pagat_ultimo", "kralj_ultimo", "valat",
        "barvni_valat", "radelc", "mondfang", "klop", "renons", "penalty",
    })  # fmt: skip

    def ruleset(self, ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
        """A ruleset by id or alias with option overrides (unknown names raise ``KeyError``)."""
        return get_ruleset(ruleset_id, options)

    def new_session(self, ruleset: Ruleset, table_size: int) -> SlovenianSession:
        if table_size not in (3, 4, 5):
            raise ValueError(f"Slovenian tarok is played at tables of 3, 4 or 5, not {table_size}")
        return SlovenianSession(ruleset, table_size)

    def placement_points(self, ruleset: Ruleset, round_scores: Sequence[int],
                         all_tables_of_five: bool = False) -> list[float]:  # fmt: skip
        """Placement points of one table's round scores (spec 11.2, ties per ruleset)."""
        return tournament.placement_points(list(round_scores), len(round_scores),
                                           all_tables_of_five,
                                           str(ruleset.options.get("table_tie_points",
                                                                   "average")))  # fmt: skip


ENGINE = SlovenianEngine()
