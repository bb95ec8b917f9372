"""The rule tables' codec to the native engine, by field name.

The Slovenian rules are defined once in Python: the contract table
(:data:`~tarock_logs.rules.slovenian.contracts.CONTRACTS`, one :class:`Contract` row each with
its behavioural flags), the ruleset's options (:class:`~tarock_logs.rules.slovenian.contracts.
Rules`) and a contract's legal-card rules (:class:`~tarock_logs.rules.slovenian.tricks.
PlayRules`). The native engine's two config structs (``sh_config`` of ``_native/slohand.h``,
``ss_config`` of ``_native/sloscore.h``) are filled from them **by field name**: the core lists
the fields it reads (``slovenian_config_fields()``), and a field takes its value from

* a :class:`Contract` field of the same name (a per-contract field: one int per contract, in
  the table's order), or
* an attribute of :class:`Rules` of the same name (a scalar: a ruleset option), or
* a :class:`PlayRules` attribute of the same name (the play rules of each contract), or
* one of the few values derived here (:data:`DERIVED_SCALARS`, :data:`DERIVED_PER_CONTRACT`:
  the table size, a contract's value under the ruleset, its OpenSpiel kind ...).

:func:`check_codec` runs at import (``fast/fastpath.py``): a field the core reads that nothing
here gives, or a Contract field that is neither read by the core nor declared
:data:`REFERENCE_ONLY`, raises :class:`CodecMismatch`; ``tests/rules/slovenian/test_codec.py``
pins both directions. Adding a flag: ``docs/architecture.md`` ("The rule tables").
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from tarock_logs.rules.slovenian.announcements import opening_stage
from tarock_logs.rules.slovenian.contracts import CONTRACTS, Contract, Rules
from tarock_logs.rules.slovenian.hand import make_play_rules
from tarock_logs.rules.slovenian.openspiel_scoring import CONTRACT_VALUES, TALON_CARDS, os_kind
from tarock_logs.rules.slovenian.tricks import PlayRules

__all__ = [
    "CONTRACT_FIELDS",
    "DERIVED_PER_CONTRACT",
    "DERIVED_SCALARS",
    "LANE_ITEMS",
    "REFERENCE_ONLY",
    "CodecMismatch",
    "check_codec",
    "config_fields",
    "options_key",
    "score_config_fields",
]


#: the score items by the codes the ingest lane's columns write (``_native/module.c``:
#: ``LN_ITEM_NAMES``: sloscore.h's items, then the two a score sheet may still write as 0)
LANE_ITEMS: Final = ("contract", "difference", "trula", "kralji", "pagat_ultimo", "kralj_ultimo",
                     "valat", "barvni_valat", "radelc", "mondfang", "klop", "renons",
                     "penalty")  # fmt: skip


class CodecMismatch(RuntimeError):
    """The native core and the Python rule tables name different fields (one side changed)."""


#: the fields of a :class:`Contract` row
CONTRACT_FIELDS: Final = tuple(f.name for f in dataclasses.fields(Contract))

#: the Contract fields the native engine does not read under their own name: the reference's
#: alone (``code``, ``name``, ``renons_value``: a renonce is never a native hand), or reaching
#: the core through a derived field (``value`` and ``value_option``: ``value``; ``bonuses``:
#: ``has_bonuses``; ``negative``: the play rules)
REFERENCE_ONLY: Final = frozenset(
    {"code", "name", "renons_value", "value", "value_option", "bonuses", "negative", "open_hand"}
)


def _scalar_table_size(name: str) -> Callable[[Rules, int], int]:
    return {
        "n": lambda rules, n: n,
        "tricks_total": lambda rules, n: 48 // n,
        "table_ok": lambda rules, n: int(n in rules.table_sizes),
    }[name]


#: the scalars that are no option of :class:`Rules`: the table's (size, tricks, whether the
#: ruleset plays at it)
DERIVED_SCALARS: Final[dict[str, Callable[[Rules, int], int]]] = {
    name: _scalar_table_size(name) for name in ("n", "tricks_total", "table_ok")
}


def _os_kind(rules: Rules, code: str) -> int:
    """openspiel.h's kind, where OpenSpiel's talon agrees with the table (else -1: not scored
    natively)."""
    return os_kind(code) if TALON_CARDS.get(code) == CONTRACTS[code].talon else -1


#: the per-contract fields that are no Contract field of the same name, from the ruleset
DERIVED_PER_CONTRACT: Final[dict[str, Callable[[Rules, str], int]]] = {
    "value": lambda rules, code: rules.contract_value(code),
    "has_bonuses": lambda rules, code: int(rules.has_bonuses(code)),
    "ann_stage": opening_stage,
    "os_kind": _os_kind,
    "os_value": lambda rules, code: CONTRACT_VALUES.get(code, 0),
}

_PLAY_RULES_FIELDS: Final = frozenset(PlayRules.__slots__)
_RULES_FIELDS: Final = frozenset(Rules.__slots__)


def _per_contract(name: str, rules: Rules) -> list[int]:
    derive = DERIVED_PER_CONTRACT.get(name)
    if derive is not None:
        return [int(derive(rules, code)) for code in CONTRACTS]
    return [int(getattr(row, name)) for row in CONTRACTS.values()]


def _play_rules(names: tuple[str, ...], rules: Rules) -> list[dict[str, int]]:
    out = []
    for code in CONTRACTS:
        pr = make_play_rules(rules, code)
        out.append({name: int(getattr(pr, name)) for name in names})
    return out


def _fill(spec: tuple[tuple[str, str], ...], play: tuple[str, ...], rules: Rules,
          table_size: int) -> dict[str, Any]:  # fmt: skip
    out: dict[str, Any] = {}
    for name, kind in spec:
        if kind == "int":
            derive = DERIVED_SCALARS.get(name)
            out[name] = int(derive(rules, table_size) if derive else getattr(rules, name))
        elif kind == "contracts":
            out[name] = _per_contract(name, rules)
        else:
            out[name] = _play_rules(play, rules)
    return out


def _spec(core: Any) -> Mapping[str, tuple[tuple[str, str], ...]]:
    spec: Mapping[str, tuple[tuple[str, str], ...]] = core.slovenian_config_fields()
    return spec


def config_fields(core: Any, rules: Rules, table_size: int) -> dict[str, Any]:
    """The fields of ``slovenian_config`` (``sh_config``) under ``rules`` at a table of
    ``table_size``, by the names the core lists."""
    spec = _spec(core)
    play = tuple(name for name, _ in spec["play_rules"])
    return _fill(spec["config"], play, rules, table_size)


def score_config_fields(core: Any, rules: Rules) -> dict[str, Any]:
    """The fields of ``slovenian_score_config`` (``ss_config``) under ``rules``."""
    spec = _spec(core)
    return _fill(spec["score_config"], (), rules, 0)


def options_key(rules: Rules) -> str:
    """The ruleset's options as one key (the sessions of a ruleset share its configs)."""
    return json.dumps(rules.opts, sort_keys=True, default=repr)


def mismatches(spec: Mapping[str, tuple[tuple[str, str], ...]]) -> list[str]:
    """What the core's field lists ``spec`` and the Python tables disagree on (empty: none)."""
    out = []
    contract_fields = set(CONTRACT_FIELDS)
    read_by_name: set[str] = set()
    for struct in ("config", "score_config"):
        for name, kind in spec.get(struct, ()):
            if kind == "int":
                if name not in DERIVED_SCALARS and name not in _RULES_FIELDS:
                    out.append(f"{struct}.{name}: no option of Rules and no derived scalar")
            elif kind == "contracts":
                if name in DERIVED_PER_CONTRACT:
                    continue
                if name not in contract_fields:
                    out.append(f"{struct}.{name}: no Contract field and no derived field")
                read_by_name.add(name)
            elif kind != "play_rules":
                out.append(f"{struct}.{name}: unknown kind {kind!r}")
    for name, _ in spec.get("play_rules", ()):
        if name not in _PLAY_RULES_FIELDS:
            out.append(f"play_rules.{name}: no field of PlayRules")
    for name in sorted(contract_fields - read_by_name - REFERENCE_ONLY):
        out.append(f"Contract.{name}: read by no native field and not declared REFERENCE_ONLY")
    for name in sorted(REFERENCE_ONLY & read_by_name):
        out.append(f"Contract.{name}: declared REFERENCE_ONLY but the core reads it")
    for name in sorted(REFERENCE_ONLY - contract_fields):
        out.append(f"REFERENCE_ONLY names {name}, no Contract field")
    return out


def check_codec(core: Any) -> None:
    """Raise :class:`CodecMismatch` when the core's config fields and the Python rule tables
    disagree (a field added, renamed or removed on one side only)."""
    if not hasattr(core, "slovenian_config_fields"):
        raise CodecMismatch(
            "the native core was built before the rule tables' codec (no "
            "slovenian_config_fields): rebuild the extension"
        )
    problems = mismatches(_spec(core))
    if problems:
        raise CodecMismatch(
            "the native core and the Slovenian rule tables disagree (rebuild the core, or "
            "update rules/slovenian/fast/codec.py): " + "; ".join(problems)
        )
