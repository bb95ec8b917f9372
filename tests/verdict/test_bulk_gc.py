"""verdict.bulk.bulk_gc: the collector set for a bulk replay, and put back afterwards."""

from __future__ import annotations

import gc
import weakref

from tarock_logs.verdict.bulk import YOUNG, bulk_gc


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_the_collector_is_put_back_as_it_was() -> None:
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with bulk_gc():
        assert gc.get_threshold()[0] == YOUNG and gc.get_threshold()[1:] == before[1:]
        assert gc.get_freeze_count() > 0  # what was alive is out of the collector's sight
        with bulk_gc():  # nested: the outer block unfreezes
            pass
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_garbage_made_inside_is_still_freed() -> None:
    with bulk_gc():
        a, b = _Node(), _Node()
        a.other, b.other = b, a  # a cycle: reference counting alone cannot free it
        ref = weakref.ref(a)
        del a, b
        gc.collect()
        assert ref() is None


def test_an_exception_inside_puts_it_back_too() -> None:
    before = gc.get_threshold()
    try:
        with bulk_gc():
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
