"""The Slovenian rulesets as data: every switch of spec section 1.5 is a named option.

Two dated rulesets exist:

* ``si-tournament-2021`` (alias ``tournament``, the default): the tournament rulebook
  "Pravila igranja taroka na turnirjih" (updated September 2021), as resolved in
  ``slovenian-tarok.md`` section 12;
* ``openspiel-2.0`` (alias ``openspiel``): what OpenSpiel 2.0.2's ``tarok`` game does, quirks
  included (spec section 1.4 and Appendix A).

A variant is a ruleset with some options overridden (``ENGINE.ruleset(id,
{"valat_contract_value": 500})``); unknown option names raise ``KeyError``, bad values
``ValueError`` (:func:`validate`). The engine reads options only through
:class:`~tarock_logs.rules.slovenian.contracts.Rules`, never with scattered ``if``\\ s on the id.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from tarock_logs.rules.base import Ruleset, RulesetRegistry

#: option name -> (tournament default, openspiel default, what it switches)
OPTIONS: Final[dict[str, tuple[Any, Any, str]]] = {
    "table_sizes": ((3, 4, 5), (3, 4), "table sizes allowed (5 = 4 active + sitting-out dealer)"),
    "scoring": (
        "tournament",
        "openspiel",
        "tournament: sections 9-10; openspiel: OpenSpiel returns",
    ),
    "win_threshold_thirds": (106, 107, "main side wins with at least this many thirds"),
    "difference_rounding": ("nearest_point", "nearest_point", "nearest_point | nearest_5"),
    "klop_points_rounding": ("nearest_point", "nearest_point", "nearest_point | nearest_5"),
    "valat_contract_value": (250, 500, "value of the valat contract"),
    "solo_brez_difference": (True, False, "solo brez scores 80 + difference"),
    "solo_brez_bonuses": (True, False, "bonuses exist in solo brez"),
    "tarok_discard": ("allowed_shown", "only_if_forced", "allowed_shown | only_if_forced"),
    "announcements": (True, False, "announcements of bonuses exist"),
    "kontra_levels": (1, 0, "0 none, 1 kontra only, up to 4 (kontra, re, sub, mord)"),
    "klop_kontra": (True, False, "kontra on the klop"),
    "klop_kontra_full_and_empty_doubled": (False, False, "klop kontra doubles the ±70 pair"),
    "radelci": (True, False, "radelci are earned and double results"),
    "silent_ultimo_failure_counts": (False, False, "a failed silent ultimo costs its value"),
    "trula_kralji_count_talon_remainder": (True, False, "remainder counts for trula/kralji"),
    "overtake_rule": ("outcome", "rank", "outcome | rank (spec 8.4a, A21)"),
    "pagat_restriction": ("only_legal_card", "only_legal_card", "only_legal_card | last_tarok"),
    "pagat_restriction_in_berac": (True, True, "pagat restriction also in berač / odprti berač"),
    "emperor_forcing": ("when_tarok_required", "always", "when_tarok_required | always (A46)"),
    "mondfang_when_valat": (False, True, "mondfang is scored in a hand with an achieved valat"),
    "mondfang_value": (20, 20, "mondfang penalty"),
    "announced_valat_declarer_leads": (True, True, "the declarer leads after announcing valat"),
    "announced_card_protection": (True, False, "announced pagat/king may not be played early"),
    "lezim_without_bonuses": (
        "said",
        "none",
        "said | none: the declarer's ležim opens the kontras in berač, valat... too (6a)",
    ),
    "protected_only_left": (
        "either",
        "either",
        "either | pagat_kept: both ultimo cards the only legal ones (8.4c)",
    ),
    "renons_includes_announced_bonuses": (True, True, "renons penalty adds announced bonuses"),
    "renons_partner_shares_plus": (False, False, "partner writes the declarer's renons plus (A48)"),
    "radelci_from_silent_valat": (False, False, "an achieved valat in tri…solo ena awards radelci"),
    "table_tie_points": ("average", "average", "average | best_shared"),
    "redeal_without_taroks": (False, True, "a deal where an active player has no tarok is void"),
    "final_pass_lenient": (
        True,
        False,
        "a pass as final declaration is read (warning), not an error",
    ),
}

TOURNAMENT_ID: Final = "si-tournament-2021"
OPENSPIEL_ID: Final = "openspiel-2.0"


def _make(rid: str, title: str, col: int, aliases: tuple[str, ...], description: str) -> Ruleset:
    return Ruleset(
        id=rid,
        game="slovenian",
        title=title,
        options=MappingProxyType({k: v[col] for k, v in OPTIONS.items()}),
        description=description,
        aliases=aliases,
    )


#: the Slovenian rulesets, found by id or alias (``ENGINE.ruleset(name, options)``)
REGISTRY: Final = RulesetRegistry(
    "slovenian",
    [
        _make(
            TOURNAMENT_ID,
            "Slovenian tarok tournament rules (September 2021)",
            0,
            ("tournament",),
            "The tournament rulebook 'Pravila igranja taroka na turnirjih' (CirilS, updated "
            "September 2021), resolved as in slovenian-tarok.md section 12.",
        ),
        _make(
            OPENSPIEL_ID,
            "OpenSpiel 2.0.2 tarok",
            1,
            ("openspiel",),
            "Slovenian tarok exactly as OpenSpiel 2.0.2's 'tarok' game implements it.",
        ),
    ],
)
RULESETS: Final[Mapping[str, Ruleset]] = REGISTRY


_CHOICES: Final = {
    "scoring": {"tournament", "openspiel"},
    "difference_rounding": {"nearest_point", "nearest_5"},
    "klop_points_rounding": {"nearest_point", "nearest_5"},
    "tarok_discard": {"allowed_shown", "only_if_forced"},
    "overtake_rule": {"outcome", "rank"},
    "pagat_restriction": {"only_legal_card", "last_tarok"},
    "emperor_forcing": {"when_tarok_required", "always"},
    "table_tie_points": {"average", "best_shared"},
    "protected_only_left": {"either", "pagat_kept"},
    "lezim_without_bonuses": {"said", "none"},
}


def validate(rs: Ruleset) -> None:
    """Raise ``ValueError`` for an option value the Slovenian engine does not know."""
    for name, allowed in _CHOICES.items():
        if rs.options[name] not in allowed:
            raise ValueError(f"option {name}={rs.options[name]!r} not one of {sorted(allowed)}")
    for name, (default, _, _) in OPTIONS.items():
        value = rs.options[name]
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ValueError(f"option {name} must be true or false, got {value!r}")
        if isinstance(default, int) and not isinstance(default, bool):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name} must be an integer, got {value!r}")
    if not 0 <= rs.options["kontra_levels"] <= 4:
        raise ValueError("option kontra_levels must be 0..4")
