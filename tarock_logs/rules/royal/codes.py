"""Violations of the Royal Tarock engine: stable codes, a sentence, the section they enforce.

Codes are the ones of royal-tarock.md where it names them (``THROWIN_REQUIRED``,
``INVALID_THROWIN``, ``BIDDING_AFTER_CLOSE``, ``BIDDING_NOT_CLOSED``, ``FALSE_MELDUNG``,
``DUPLICATE_SCHLEMM``, ``CHEAPER_AFTER_RAISED``, ``MUST_BE_REACHED_BY_RAISE``,
``RAISE_NEEDS_PARTNER``, ``KONTRA_OWN_SCHLEMM``, ``KONTRA_INACTIVE``, ``KONTRA_TWICE``,
``REVOKE``, ``BOUND_CARD_EARLY``, ``BOUND_CARD_NOT_IN_TRICK``, ``BOUND_ORDER``) and ours in the
same style elsewhere; docs/royal.md lists them all.
"""

from __future__ import annotations

from typing import Any

from tarock_logs.rules.base import Ruleset, Severity, Violation


def make(
    ruleset: Ruleset,
    code: str,
    section: str,
    message: str,
    *,
    seat: int | None = None,
    card: str | None = None,
    severity: Severity = "error",
    **params: Any,
) -> Violation:
    """A violation citing ``"<ruleset id> §<section>"`` of royal-tarock.md."""
    return ruleset.violation(
        code, section, message, seat=seat, card=card, severity=severity, **params
    )
