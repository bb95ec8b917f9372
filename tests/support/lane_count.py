"""Counting what the store's ingest lane takes (:func:`tarock_logs.store.write.lane.read_session`),
for the tests that hold its results equal to the careful path's: they also require that the
lane took records at all."""

from __future__ import annotations

from typing import Any

import pytest

from tarock_logs.store.write import lane


class LaneCount:
    """How many records were offered to the lane and how many it took, from the moment it is
    made (``read_session`` patched for the rest of the test)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.taken = 0
        self.offered = 0
        read = lane.read_session

        def counted(chunk: bytes, file: str, line: int | None) -> Any:
            self.offered += 1
            got = read(chunk, file, line)
            self.taken += got is not None
            return got

        monkeypatch.setattr(lane, "read_session", counted)
