"""Building :class:`~tarock_logs.rules.base.Violation` records for Zwanzigerrufen.

Codes are the stable ``E_…`` codes of the spec (``E_WRONG_CALL``, ``E_REVOKE`` …); the
informative ``I_…`` codes (``I_IMPLIED_KONTRA``, ``I_ANNOUNCEMENTS_VOIDED``) are reported with
severity ``warning`` because the contract knows only errors and warnings; they carry
``params["info"] = True``.
"""

from __future__ import annotations

from typing import Any

from tarock_logs.rules.base import Ruleset, Severity, Violation

ROLE_NAMES = ("P1", "P2", "P3", "P4")


def make(
    ruleset: Ruleset,
    code: str,
    section: str,
    message: str,
    *,
    seat: int | None = None,
    card: str | None = None,
    severity: str = "error",
    **params: Any,
) -> Violation:
    """One finding citing ``"<ruleset id> §<section>"``."""
    if code.startswith("I_"):
        severity = "warning"
        params.setdefault("info", True)
    sev: Severity = "warning" if severity == "warning" else "error"
    return ruleset.violation(code, section, message, seat=seat, card=card, severity=sev, **params)
