"""The Royal Tarock ruleset ``royal-gerots-2023`` and its options (royal-tarock.md §8.1).

The ruleset id names Zoltán Gerots, who developed the game, and 2023, the date of the text the
project's seed was taken from (the German Wikipedia article "Royal-Tarock" in the
``wikipedia_de_all_mini_2023-10`` mirror). Aliases: ``royal`` and ``royal-seed``.

Every ambiguity of the specification (§8.1) is an option with the recommended default, so a
session can choose another reading by name. :func:`normalize_options` checks each value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from tarock_logs.rules.base import Ruleset, RulesetRegistry
from tarock_logs.rules.royal.catalogue import (
    BUILTIN_ID,
    Catalogue,
    builtin_catalogue,
    parse_catalogue,
    read_catalogue_file,
)

GAME: Final = "royal"
RULESET_ID: Final = "royal-gerots-2023"

DEFAULT_OPTIONS: Final[dict[str, Any]] = {
    # §8.1 item 1: who opens the bidding; the other convention is accepted and reported
    "bidding_opener": "dealer",  # dealer | attacking_eintreiber
    # §8.1 item 3: who receives XIX
    "xix_recipient": "attacking_abfaenger",  # attacking_abfaenger | defending_abfaenger
    # §8.1 item 6: raising by the partner of the last related announcer (A) or, for ordinary
    # Schlemme, by either member of the pair (B)
    "raise_rule": "A",  # A | B
    # §8.1 item 21: a raise voids a contra on the raised-from Schlemm
    "raise_voids_contra": "always",  # always | carry_over | keep
    # §7.1 / §8.1 item 22: the contra limit per party and how it is applied
    "contra_limit": 20,
    "contra_limit_mode": "net",  # net | separate
    # §7.1 / §8.1 item 11: the cap and where lost trophies come in
    "cap": 100,
    "trophy_cap_order": "cap_then_trophies",  # cap_then_trophies | lost_trophies_inside_cap
    # §7.1: the consolation (starting score) of each party; its formula is unknown, so it is
    # an input: an integer applied to both parties, or None (unknown: reported unverified)
    "consolation": None,
    # per-party consolation, overriding ``consolation`` for that party when set
    "consolation_attackers": None,
    "consolation_defenders": None,
    # §7.2: the number of games of a match (the match result is floor(sum / match_length))
    "match_length": 8,
    # §8.1 item 13: Lauer "without announcement" means the capturing party announced no item
    # replacing it (capturer) or the victims announced no Schlemm naming their Pagat (victims)
    "lauer_rule": "capturer",  # capturer | victims
    # §8.1 item 19: a turn of Meldungen only counts as a non-pass turn
    "meld_only_turn_resets": True,
    # the catalogue: None = the built-in one; or a parsed catalogue document (dict); or the
    # path of a JSON file (read once when the ruleset is built)
    "catalogue": None,
    "catalogue_path": "",
}

_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "bidding_opener": ("dealer", "attacking_eintreiber"),
    "xix_recipient": ("attacking_abfaenger", "defending_abfaenger"),
    "raise_rule": ("A", "B"),
    "raise_voids_contra": ("always", "carry_over", "keep"),
    "contra_limit_mode": ("net", "separate"),
    "trophy_cap_order": ("cap_then_trophies", "lost_trophies_inside_cap"),
    "lauer_rule": ("capturer", "victims"),
}
_INTS: Final = ("contra_limit", "cap", "match_length")

ROYAL_GEROTS_2023: Final = Ruleset(
    id=RULESET_ID,
    game=GAME,
    title="Royal Tarock (Gerots), as described by the 2023 German Wikipedia text",
    options=dict(DEFAULT_OPTIONS),
    description=(
        "Fixed pairs, no talon, no card points; Meldungen, Schlemme, one-level contra, "
        "raising; scoring per royal-tarock.md §7 with the built-in catalogue "
        f"{BUILTIN_ID} (unknown values reported as unverified)."
    ),
    aliases=("royal", "royal-seed"),
)
#: Rulesets by id, found by id or alias (case-insensitive).
REGISTRY: Final = RulesetRegistry(GAME, [ROYAL_GEROTS_2023])
RULESETS: Final[Mapping[str, Ruleset]] = REGISTRY


@dataclass(frozen=True, slots=True)
class Options:
    """Checked options plus the catalogue they select."""

    values: Mapping[str, Any]
    catalogue: Catalogue

    def __getitem__(self, key: str) -> Any:
        return self.values[key]


def normalize_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """All options with defaults filled in; raises ``ValueError`` for a bad value."""
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise KeyError(f"unknown option(s) for {RULESET_ID}: {', '.join(sorted(unknown))}")
    out = {**DEFAULT_OPTIONS, **options}
    for k, allowed in _CHOICES.items():
        if out[k] not in allowed:
            raise ValueError(f"option {k}: {out[k]!r} is not one of {', '.join(allowed)}")
    for k in _INTS:
        v = out[k]
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"option {k}: expects a positive integer, got {v!r}")
    for k in ("consolation", "consolation_attackers", "consolation_defenders"):
        c = out[k]
        if c is not None and (isinstance(c, bool) or not isinstance(c, int)):
            raise ValueError(f"option {k}: expects an integer or None, got {c!r}")
    if not isinstance(out["meld_only_turn_resets"], bool):
        raise ValueError("option meld_only_turn_resets: expects true or false")
    if out["catalogue"] is not None and not isinstance(out["catalogue"], Mapping):
        raise ValueError("option catalogue: expects a catalogue document (dict) or None")
    if not isinstance(out["catalogue_path"], str):
        raise ValueError("option catalogue_path: expects a file path")
    return out


_PARSED: dict[int, tuple[Mapping[str, Any], Catalogue]] = {}  # id(doc) -> (doc, parsed)
_PARSED_MAX: Final = 64


def catalogue_of(values: Mapping[str, Any]) -> Catalogue:
    """The catalogue the options select (a ``catalogue`` dict wins over ``catalogue_path``)."""
    doc = values.get("catalogue")
    if doc is not None:
        hit = _PARSED.get(id(doc))
        if hit is not None and hit[0] is doc:
            return hit[1]
        cat = parse_catalogue(doc)
        if len(_PARSED) >= _PARSED_MAX:  # bounded: many sessions may each bring a document
            _PARSED.pop(next(iter(_PARSED)))
        _PARSED[id(doc)] = (doc, cat)
        return cat
    if values.get("catalogue_path"):
        raise ValueError("catalogue_path was not loaded: build the ruleset with ENGINE.ruleset()")
    return builtin_catalogue()


def load_catalogue_path(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with a ``catalogue_path`` read into the ``catalogue`` option (the one
    place that touches a file; a ``catalogue`` document given as well wins)."""
    opts = dict(options)
    path = opts.get("catalogue_path")
    if path and opts.get("catalogue") is None:
        opts["catalogue"] = read_catalogue_file(str(path))
    return opts


def check_ruleset(ruleset: Ruleset) -> None:
    """Raise for a bad option value or catalogue, so that it fails at setup."""
    values = normalize_options(ruleset.options)
    catalogue_of(values)


def options_of(ruleset: Ruleset) -> Options:
    """Checked options and catalogue of a ruleset."""
    values = normalize_options(ruleset.options)
    return Options(values, catalogue_of(values))
