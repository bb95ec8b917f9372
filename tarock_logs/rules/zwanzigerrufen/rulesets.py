"""The ``zr-std`` ruleset and every house-rule option of Zwanzigerrufen (spec §1.3).

Each option is named exactly as in ``../shared/rules/zwanzigerrufen.md`` §1.3 (O1–O34); the
defaults are the ``ZR-STD`` column. A session overrides options by name
(:meth:`Ruleset.with_options`); :func:`normalize_options` checks every value against the
alternatives the spec allows, so a typo fails loudly instead of silently scoring differently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tarock_logs.cards import BLACK_PIPS, RED_PIPS
from tarock_logs.rules.base import Ruleset, RulesetRegistry

GAME: Final = "zwanzigerrufen"

#: O1–O34 with their ``ZR-STD`` defaults, in the order of the spec's table.
DEFAULT_OPTIONS: Final[dict[str, Any]] = {
    "direction": "anticlockwise",  # O1: physical seating only; the engine uses playing order
    "glatzen": "red_ace_black_ten",  # O2: physical Glatze cards (parsing only)
    "throw_in": "standard",  # O3
    "knocking": "allowed",  # O4: informative only
    "call_rule": "highest_missing",  # O5
    "auction_model": "merged",  # O6
    "late_declarations": "any",  # O7
    "dagegen_kontra": "wiki",  # O8
    "pagat_announcer": "any_side_member",  # O9
    "one_announcement_per_bonus": True,  # O10
    "max_kontra_level": 4,  # O11
    "solo_value": 4,  # O12
    "farbensolo_value": 4,  # O13
    "valat_mode": "contract_multiple",  # O14
    "valat_overrides_bonuses": False,  # O15
    "valat_replaces_game": False,  # O16
    "lost_announced_valat_loses_game": False,  # O17
    "absolut_moves_game_threshold": False,  # O18
    "silent_pagat_loss": "counted",  # O19
    "four_kings_value": 2,  # O20
    "trull_value": 1,  # O21
    "card_bonus_claim": "claim_required",  # O22
    "solo_bonus_factor": 2,  # O23
    "farbensolo_bonus_factor": 1,  # O24
    "mondfang_payer": "mond_side",  # O25
    "mondfang_in_farbensolo": "ignored",  # O26
    "double_round_length": 4,  # O27
    "double_round_stacking": "multiply",  # O28
    "maerchenstich": "any_order",  # O29
    "farbensolo_tarock_compulsion": True,  # O30: True | False | "suit_first"
    "farbensolo_min_suit_cards": 5,  # O31
    "pagat_hold_obligation": "report",  # O32
    "infraction_policy": "report_only",  # O33
    "forehand_all_five": "solo_only",  # O34
}

_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "direction": ("anticlockwise", "clockwise"),
    "throw_in": ("standard", "strict", "off"),
    "knocking": ("allowed", "forbidden"),
    "call_rule": ("highest_missing", "any_missing"),
    "auction_model": ("merged", "two_phase"),
    "late_declarations": ("any", "responses_only"),
    "dagegen_kontra": ("wiki", "auto_all", "explicit_all", "none"),
    "pagat_announcer": ("any_side_member", "holder_only"),
    "valat_mode": ("contract_multiple", "contract_multiple_undoubled", "fixed"),
    "silent_pagat_loss": ("counted", "not_counted"),
    "card_bonus_claim": ("claim_required", "automatic"),
    "mondfang_payer": ("mond_side", "capturing_side", "players_only"),
    "mondfang_in_farbensolo": ("ignored", "scored"),
    "double_round_stacking": ("multiply", "cap", "extend"),
    "maerchenstich": ("any_order", "fixed_order", "off"),
    "farbensolo_tarock_compulsion": (True, False, "suit_first"),
    "pagat_hold_obligation": ("report", "ignore"),
    "infraction_policy": ("report_only", "penalize"),
    "forehand_all_five": ("solo_only", "any_solo"),
}
#: each option with a closed set of values: its values, in order (the native engine's codec
#: numbers a value by its place here: rules/zwanzigerrufen/native.py)
OPTION_CHOICES: Final[Mapping[str, tuple[Any, ...]]] = _CHOICES

_BOOLS: Final = (
    "one_announcement_per_bonus",
    "valat_overrides_bonuses",
    "valat_replaces_game",
    "lost_announced_valat_loses_game",
    "absolut_moves_game_threshold",
)
_INTS: Final = (
    "solo_value",
    "farbensolo_value",
    "four_kings_value",
    "trull_value",
    "solo_bonus_factor",
    "farbensolo_bonus_factor",
    "double_round_length",
    "farbensolo_min_suit_cards",
)


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise ValueError(f"option {name}: expected true or false, got {value!r}")


#: Physical Glatze cards of each ``glatzen`` set (O2, spec §2.2): physical name -> token (the
#: one home of the pack's physical cards; the aces ``HA``/``DA`` are ``H1``/``D1`` by alias).
GLATZEN_SETS: Final[Mapping[str, Mapping[str, str]]] = {
    "red_ace_black_ten": {"H1": "HG", "D1": "DG", "S10": "SG", "C10": "CG"},
    "red_four": {"H4": "HG", "D4": "DG", "S10": "SG", "C10": "CG"},
}


def _check_glatzen(value: Any) -> None:
    """O2: a set name of :data:`GLATZEN_SETS`, or one physical pip card per suit."""
    if isinstance(value, str):
        if value not in GLATZEN_SETS:
            known = ", ".join(sorted(GLATZEN_SETS))
            raise ValueError(f"option glatzen: {value!r} is not one of {known} or a list")
        return
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"option glatzen: expected a set name or a list, got {value!r}")
    cards = [str(c).strip().upper() for c in value]
    pips = {s: {s + p for p in (RED_PIPS if s in "HD" else BLACK_PIPS)} for s in "HDSC"}
    if sorted(c[:1] for c in cards) != sorted("HDSC") or any(
        c not in pips.get(c[:1], set()) for c in cards
    ):
        raise ValueError(
            f"option glatzen: expected one pip card per suit (e.g. H4 D4 S10 C10), got {value!r}"
        )


def normalize_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Checked, canonical option values (``"true"`` → ``True``, ``"unlimited"`` kept).

    Raises ``KeyError`` for an unknown option and ``ValueError`` for a value the spec does
    not allow.
    """
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise KeyError(f"unknown option(s) for zwanzigerrufen: {', '.join(sorted(unknown))}")
    out = dict(DEFAULT_OPTIONS)
    for name, value in options.items():
        if name in _BOOLS:
            value = _as_bool(name, value)
        elif name in _INTS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name}: expected an integer, got {value!r}")
            if value < 0:
                raise ValueError(f"option {name}: must not be negative, got {value!r}")
        elif name == "max_kontra_level":
            if value != "unlimited" and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                raise ValueError(f"option {name}: expected 3, 4 or 'unlimited', got {value!r}")
        elif name == "glatzen":
            _check_glatzen(value)
        elif name == "farbensolo_tarock_compulsion":
            if isinstance(value, str) and value.lower() in ("true", "false"):
                value = value.lower() == "true"
            if value not in _CHOICES[name]:
                raise ValueError(f"option {name}: expected true, false or suit_first")
        elif name in _CHOICES and value not in _CHOICES[name]:
            allowed = ", ".join(str(c) for c in _CHOICES[name])
            raise ValueError(f"option {name}: {value!r} is not one of {allowed}")
        out[name] = value
    return out


#: The ruleset id, dated by the specification's draft 1 (December 2026).
RULESET_ID: Final = "zr-std-2026"

ZR_STD: Final = Ruleset(
    id=RULESET_ID,
    game=GAME,
    title="Zwanzigerrufen, standard rules (ZR-STD, zwanzigerrufen.md draft 1)",
    options=dict(DEFAULT_OPTIONS),
    description=(
        "Zwanzigerrufen as specified in zwanzigerrufen.md (draft 1) after English Wikipedia: "
        "normal game calling XX (or the highest missing of XX-XVI), Farbensolo 4, Solo 4, "
        "Absolut / Pagat Ultimo / Valat silent or announced dazu/dagegen, Kontra chain to "
        "Resupra, Trull and Four Kings claimed after the play, Mondfang with double rounds."
    ),
    aliases=("zr-std", "ZR-STD"),
)

#: Rulesets by id, found by id or alias (case-insensitive; ``default`` and
#: ``zwanzigerrufen`` name ``zr-std-2026`` too).
REGISTRY: Final = RulesetRegistry(
    GAME, [ZR_STD], extra_aliases={"default": RULESET_ID, GAME: RULESET_ID}
)
RULESETS: Final[Mapping[str, Ruleset]] = REGISTRY


def check_ruleset(ruleset: Ruleset) -> None:
    """Raise for an option value the spec does not allow (:func:`normalize_options`)."""
    normalize_options(ruleset.options)


def glatzen_names(value: Any) -> dict[str, str]:
    """Physical name -> Glatze token under the option value ``glatzen`` (a set name, or an
    explicit list of one physical card per suit, e.g. ``["H4", "D4", "S7", "C7"]``)."""
    if isinstance(value, str):
        return dict(GLATZEN_SETS[value])
    return {str(c).strip().upper(): str(c).strip().upper()[0] + "G" for c in value}
