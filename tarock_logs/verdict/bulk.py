"""Python's cyclic garbage collector set for a bulk replay (``tarock audit``, the ingest's
workers, ``tarock bench``).

A replay allocates many small containers per hand (hand sets, trick lists, score items), so
the collector's youngest generation fills every few hundred allocations and its oldest is
scanned again and again with everything that lives for the whole run: the imported modules
and the parsed logs. None of that is garbage. :func:`bulk_gc` moves what is alive when it
starts out of the collector's sight (``gc.freeze``) and lets the young generation grow to
:data:`YOUNG` objects before a collection. Garbage is still freed: by reference counting at
once, cycles at the next collection. Measured on the OpenSpiel set: docs/performance.md.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: allocations (net) in the youngest generation before it is collected (CPython's default
#: is 700)
YOUNG = 50_000

#: Whether a freeze of this module's blocks (or of ``store.gcpause.gc_frozen``) is open in
#: this process; a worker forked inside one inherits it, rightly. Kept here rather than asked
#: of ``gc.get_freeze_count()``, which counts the frozen objects one by one (measured: 18–32
#: ms in an ingest worker that inherited its parent's heap, twice per unit of work).
_FROZEN = [False]


def frozen() -> bool:
    """Whether an enclosing block has frozen the objects alive at its start."""
    return _FROZEN[0]


@contextmanager
def frozen_here() -> Iterator[bool]:
    """Freeze what is alive now, and unfreeze at the end, unless an enclosing block froze
    first (then it unfreezes); gives whether this block froze."""
    outer = _FROZEN[0]
    gc.freeze()
    _FROZEN[0] = True
    try:
        yield not outer
    finally:
        if not outer:
            gc.unfreeze()
            _FROZEN[0] = False


@contextmanager
def bulk_gc() -> Iterator[None]:
    """Within the block: the objects alive at its start frozen, the young generation
    :data:`YOUNG` large; both put back as they were at its end."""
    before = gc.get_threshold()
    with frozen_here():
        gc.set_threshold(YOUNG, before[1], before[2])
        try:
            yield
        finally:
            gc.set_threshold(*before)
