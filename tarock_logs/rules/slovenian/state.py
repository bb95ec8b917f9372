"""The state of a Slovenian hand: its :class:`Phase` and the names of its fields.

:class:`~tarock_logs.rules.slovenian.hand.SlovenianHand` is built from one module per phase
before play (:mod:`.bidding`, :mod:`.exchange`, :mod:`.announcements`), each a mixin of the
hand's methods for its phase. :class:`HandFields` declares, once, every field of the hand and
the methods the phase modules call on each other, so that each module (and the scorer, which
reads a finished hand) is type-checked against the same declaration without importing the
hand itself.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

from tarock_logs.rules.base import Action, Irregularity, Violation
from tarock_logs.rules.slovenian.contracts import Contract, Rules
from tarock_logs.rules.slovenian.tricks import PlayRules, Trick


class Phase(StrEnum):
    """The phases of a Slovenian hand, in order (a ``StrEnum``: ``Phase.PLAY == "play"``)."""

    BIDDING = "bidding"
    KING_CALL = "king_call"
    TALON = "talon"
    DISCARD = "discard"
    ANNOUNCEMENTS = "announcements"
    PLAY = "play"
    DONE = "done"


class HandFields:
    """The fields of a Slovenian hand (declarations only; ``SlovenianHand.__init__`` sets them).

    The deal: ``rules``, ``table_size``, ``dealer``, ``talon``, ``dealt`` (per seat), the
    active seats in playing order from P1 (``active``, ``n_active``, ``pos``: seat → index,
    ``p1``), ``tricks_total``, the carried ``radelci_before`` and ``misdeals_before``, the
    recorded ``irregularities``. The rest changes as the hand goes on (and is restored by
    ``pop``): bidding (``bids``, ``passed``, ``high`` and its ``holder``, ``turn``), the contract
    (``contract``, ``declarer``, ``partner``, ``called_king``, ``self_call``,
    ``king_in_talon``), the talon exchange (``talon_group``, ``taken``, ``discards``,
    ``shown``), announcements and kontras (``ann``: bonus → (seat, side); ``kontra``: target →
    level; ``lezim``; the round's ``stage``), trick play (``trick``, ``tricks``, ``claim``,
    ``ended_early``, ``after_end``) and the renons-type violations ``detected`` for the
    end-of-hand check.
    """

    # the deal
    rules: Rules
    table_size: int
    dealer: int
    talon: tuple[str, ...]
    dealt: tuple[tuple[str, ...], ...]
    radelci_before: tuple[int, ...]
    misdeals_before: tuple[int, ...]
    irregularities: tuple[Irregularity, ...]
    active: tuple[int, ...]
    n_active: int
    pos: dict[int, int]
    p1: int
    tricks_total: int
    deal_violations: list[Violation]
    # what changes
    phase: str  # a Phase
    hands: list[set[str]]
    history: list[Action]
    # bidding
    bids: tuple[tuple[int, str], ...]
    passed: frozenset[int]
    high: str
    holder: int
    others_bid: bool
    turn: int
    awaiting_final: bool
    # the contract and the talon
    contract: str | None
    declarer: int | None
    called_king: str | None
    partner: int | None
    king_in_talon: bool
    self_call: bool
    talon_group: int | None
    taken: tuple[str, ...]
    discards: tuple[str, ...]
    shown: tuple[str, ...]
    # announcements and kontra
    ann: dict[str, tuple[int, str]]
    ann_list: tuple[tuple[int, str], ...]
    kontra: dict[str, int]
    kontra_list: tuple[tuple[int, str, int], ...]
    lezim: bool
    stage: int
    stage_done: frozenset[int]
    _pr: PlayRules | None
    _protected: tuple[str, ...]
    # trick play
    trick: list[tuple[int, str]]
    tricks: list[Trick]
    ended_early: bool
    claim: tuple[int, int, tuple[str, ...]] | None
    after_end: int
    detected: list[tuple[str, int | None, str]]

    if TYPE_CHECKING:  # the methods the phase modules call on each other

        def _v(
            self,
            code: str,
            msg: str,
            seat: int | None = None,
            card: str | None = None,
            **params: Any,
        ) -> Violation: ...
        def side(self, seat: int) -> str: ...
        def p(self, seat: int) -> str: ...
        def _next_active(self, seat: int) -> int: ...
        def _card_played(self) -> bool: ...
        @property
        def contract_row(self) -> Contract | None: ...
        # bidding.py
        def _finish_bidding(self, seat: int, code: str) -> None: ...
        # announcements.py
        def _enter_announcements(self) -> None: ...
        def _start_play(self) -> None: ...
