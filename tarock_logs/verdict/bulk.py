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


@contextmanager
def bulk_gc() -> Iterator[None]:
    """Within the block: the objects alive at its start frozen, the young generation
    :data:`YOUNG` large; both put back as they were at its end."""
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    gc.freeze()
    gc.set_threshold(YOUNG, before[1], before[2])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        if not frozen:  # (an enclosing block froze first: it unfreezes)
            gc.unfreeze()
