"""gc_paused: the cyclic collector is off inside (nested and across threads) and restored after,
and cyclic garbage made inside is collected afterwards, not leaked."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from tarock_logs.store.write.gcpause import gc_paused


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


def test_paused_inside_restored_after_even_when_nested() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block still runs
    assert gc.isenabled()


def test_restored_after_an_exception() -> None:
    with pytest.raises(ValueError), gc_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_concurrent_blocks_reenable_only_when_the_last_ends() -> None:
    inside = threading.Event()
    leave = threading.Event()

    def worker() -> None:
        with gc_paused():
            inside.set()
            leave.wait(5)

    t = threading.Thread(target=worker)
    t.start()
    inside.wait(5)
    with gc_paused():
        pass
    assert not gc.isenabled()  # the worker's block is still open
    leave.set()
    t.join()
    assert gc.isenabled()


def test_cycles_made_while_paused_are_collected_afterwards() -> None:
    with gc_paused():
        ref = weakref.ref(_Node())
        assert ref() is not None  # the cycle survives: nothing collects it now
    gc.collect()
    assert ref() is None


def test_gc_frozen_hides_old_objects_from_the_collector_and_gives_them_back() -> None:
    import gc

    from tarock_logs.store.write.gcpause import gc_frozen

    before = gc.get_freeze_count()
    old = [[i] for i in range(1000)]
    with gc_frozen():
        assert gc.get_freeze_count() >= before + len(old)
        cycle: list[object] = []
        cycle.append(cycle)  # made inside the block: still collected
        del cycle
        assert gc.collect() >= 1
    assert gc.get_freeze_count() == 0
    del old


def _forked_task() -> tuple[int, int, bool]:
    import gc

    from tarock_logs.store.write.gcpause import gc_frozen, gc_paused
    from tarock_logs.verdict.bulk import bulk_gc, frozen

    inherited = gc.get_freeze_count()
    with gc_paused(), gc_frozen():
        with bulk_gc():
            pass
        gc.collect()
    gc.collect()
    return inherited, gc.get_freeze_count(), frozen()


@pytest.mark.skipif(
    "fork" not in __import__("multiprocessing").get_all_start_methods(), reason="no fork"
)
def test_a_worker_forked_inside_gc_frozen_keeps_its_inheritance_frozen_for_good() -> None:
    """What an ingest worker inherits stays out of its collector's sight after its blocks
    end (so it never collects, nor finalises, the parent's garbage)."""
    import gc
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from tarock_logs.store.write.gcpause import gc_frozen
    from tarock_logs.verdict.bulk import frozen

    old = [[i] for i in range(1000)]
    with gc_frozen():
        assert frozen()
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
            inherited, after, still = pool.submit(_forked_task).result()
    assert not frozen() and gc.get_freeze_count() == 0  # the parent got its objects back
    assert inherited >= len(old)
    assert after >= inherited and still
    del old
