"""The Zwanzigerrufen contracts as one table (spec §4, §5.1, §7.3): a row per contract with
every way the rules treat it differently, so that code reads a flag, not a contract's name.

The reference reads it for the auction's ranks (:data:`~.auction.CONTRACT_RANK`); the native
engine (``_native/zrhand.h``) gets every field by name through :mod:`.native`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from tarock_logs.rules.zwanzigerrufen.tricks import FARBENSOLO, NORMAL, SOLO

__all__ = ["CONTRACTS", "Contract", "bonus_factor", "value"]


@dataclass(frozen=True, slots=True)
class Contract:
    """One contract of Zwanzigerrufen."""

    #: its name in the log (``bid``'s ``contract``; the normal game is named by a call)
    code: str
    #: its place in the order of overcalls (§4: Normal < Farbensolo < Solo)
    rank: int
    #: forehand names it by calling a tarock, with its holder as her partner (the normal game)
    called: bool
    #: a suit solo: tarocks are no trumps, the Pagat and the Trull do not count (Farbensolo)
    suit_solo: bool
    #: the option giving its value c (§5.1), or None: 1
    value_option: str | None
    #: the option giving its bonus factor s (§7.3), or None: 1
    bonus_factor_option: str | None


#: the contracts by code, in the order of their rank
CONTRACTS: Final[Mapping[str, Contract]] = {
    c.code: c
    for c in (
        Contract(NORMAL, 1, called=True, suit_solo=False, value_option=None,
                 bonus_factor_option=None),
        Contract(FARBENSOLO, 2, called=False, suit_solo=True, value_option="farbensolo_value",
                 bonus_factor_option="farbensolo_bonus_factor"),
        Contract(SOLO, 3, called=False, suit_solo=False, value_option="solo_value",
                 bonus_factor_option="solo_bonus_factor"),
    )
}  # fmt: skip


def value(code: str, opts: Mapping[str, Any]) -> int:
    """c of §5.1 under the options ``opts``."""
    name = CONTRACTS[code].value_option
    return 1 if name is None else int(opts[name])


def bonus_factor(code: str, opts: Mapping[str, Any]) -> int:
    """s of §7.3 under the options ``opts``."""
    name = CONTRACTS[code].bonus_factor_option
    return 1 if name is None else int(opts[name])
