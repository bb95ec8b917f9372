"""The state a Slovenian hand is in: its :class:`Phase` (and, for the phase modules that the
hand is built from, the names of the hand's fields)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """The phases of a Slovenian hand, in order (a ``StrEnum``: ``Phase.PLAY == "play"``)."""

    BIDDING = "bidding"
    KING_CALL = "king_call"
    TALON = "talon"
    DISCARD = "discard"
    ANNOUNCEMENTS = "announcements"
    PLAY = "play"
    DONE = "done"
