"""The native core: a C extension (``_core``) built by the package's own build when a C
compiler is present, and nothing otherwise.

``core`` is the extension module, or None when it is not there (built without a compiler) or
switched off with ``TAROCK_NATIVE=0`` in the environment; ``why_not`` then says which. Every
user has a pure-Python path and must take it when ``core`` is None: the native code is a
faster home of rules the Python reference states, never the only implementation (for
Slovenian tarok, without it every hand is replayed by the reference engine).

The C sources: ``cards.h`` (card sets as 64-bit masks: suits, strength, card points in thirds,
the trick winner and the legal cards, shared by every native card loop), the card loops
(``cardloop.h`` Slovenian, inside the whole hand; ``zrloop.h`` Zwanzigerrufen,
``royalloop.h`` Royal Tarock), the native Zwanzigerrufen engine (``zrhand.h``: a whole clean
hand, deal check, merged auction, the cards of ``zrloop.h``, claims, itemised score, double
rounds; its ingest-lane reader in ``module.c``), the native Royal Tarock engine
(``royalhand.h``: a whole clean game, deal check, bidding, the cards of ``royalloop.h``, the
catalogue's items with their conditions compiled from the catalogue; its ingest-lane reader in
``module.c``), the native Slovenian engine (``slohand.h``:
a whole clean hand, deal check, bidding, exchange, the announcement round, the cards;
``openspiel.h``: OpenSpiel's returns; ``sloscore.h``: a clean hand's itemised score), the
store's ingest lane
(``lane.h``: a session record's line read, its hands in canonical JSON), ``solver.h`` /
``solver.c`` (the perfect-information solver of :mod:`tarock_logs.analysis`) and ``module.c``
(the Python bindings, and the reader's one pass over a hand's actions, ``prepare_actions``:
the C twin of :func:`tarock_logs.log.validate.prepare_actions_py`).
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["available", "core", "why_not"]


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("TAROCK_NATIVE", "").strip().lower() in ("0", "false", "no", "off"):
        return None, "switched off by TAROCK_NATIVE=0"
    try:
        import tarock_logs._native._core as _core
    except ImportError as exc:
        return None, f"the C extension was not built ({exc})"
    return _core, ""


core, why_not = _load()


def available() -> bool:
    """Whether the native core is loaded (built, and not switched off)."""
    return core is not None
