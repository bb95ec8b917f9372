"""Type stubs of the C extension (``module.c``)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

OBJECTIVE_INTS: int

def legal(hand: int, trick: Sequence[int], rules: Sequence[int]) -> int: ...
def winner(trick: Sequence[int], colour_valat: bool) -> int: ...
def thirds(mask: int) -> int: ...
def tables() -> tuple[tuple[int, int, int], ...]: ...
def prepare_actions(
    actions: list[Any],
    pack: frozenset[str],
    plays: dict[tuple[int, str], Any],
    shared: dict[tuple[tuple[str, Any], ...], Any],
    scalar: frozenset[str],
) -> tuple[list[Any], list[int]] | None: ...
def slovenian_config_fields() -> dict[str, tuple[tuple[str, str], ...]]: ...
def slovenian_config(fields: Mapping[str, Any]) -> bytes: ...
def slovenian_score_config(fields: Mapping[str, Any]) -> bytes: ...
def lane_envelope(line: bytes) -> tuple[int, int] | None: ...
def lane_hands(
    line: bytes,
    start: int,
    stop: int,
    config: bytes,
    score_config: bytes,
    contracts: tuple[str, ...],
    tokens: tuple[str, ...],
    prefix: bytes,
    suffix: bytes,
    sha256: Any,
    carry: tuple[int, int, int, int] | None = None,
) -> tuple[Any, ...] | None: ...
def openspiel_returns(
    n: int,
    kind: int,
    value: int,
    k: int,
    declarer: int,
    partner: int,
    called_king: str | None,
    talon: Sequence[str],
    talon_group: int,
    discards: Sequence[str],
    tricks: Sequence[tuple[int, Sequence[str], int]],
    cid: dict[str, int],
) -> list[int] | None: ...
def zr_play_cards(
    hands: Sequence[Iterable[str]],
    actions: Sequence[object],
    start: int,
    leader: int,
    rules: Sequence[int],
    cid: dict[str, int],
) -> (
    list[tuple[int, tuple[tuple[int, str], ...], int, int, bool, tuple[int, int] | None]] | None
): ...
def royal_play_cards(
    hands: Sequence[Iterable[str]],
    actions: Sequence[object],
    start: int,
    leader: int,
    bound: Sequence[Sequence[tuple[int, int, int]]],
    cid: dict[str, int],
) -> list[tuple[tuple[tuple[int, str], ...], int]] | None: ...

class Solver:
    nodes: int
    probes: int
    lattice: tuple[int, int]
    budget: int
    def __init__(
        self,
        maxside: Sequence[int],
        rules: Sequence[int],
        objective: Sequence[int],
        tt_bits: int = 20,
    ) -> None: ...
    def values(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        tricks_done: int,
        acc: Sequence[int],
    ) -> list[tuple[int, int]]: ...
    def value(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        tricks_done: int,
        acc: Sequence[int],
        card: int = -1,
        guess: int = 0,
    ) -> int: ...
    def search(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        tricks_done: int,
        acc: Sequence[int],
        alpha: int,
        beta: int,
    ) -> int: ...
    def line(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        tricks_done: int,
        acc: Sequence[int],
        card: int = -1,
    ) -> list[int]: ...
    def minimax(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        tricks_done: int,
        acc: Sequence[int],
    ) -> int: ...
    def leaf(self, acc: Sequence[int], last: Sequence[int]) -> int: ...
    def bounds(self, acc: Sequence[int], remaining: int) -> tuple[int, int]: ...
    def clear(self) -> None: ...

# Zwanzigerrufen's native engine (zrhand.h)
def zwanzigerrufen_config_fields() -> dict[str, tuple[Any, ...]]: ...
def zwanzigerrufen_config(fields: Mapping[str, Any]) -> bytes: ...
def zwanzigerrufen_hand(
    config: bytes,
    dealer: int,
    hands: Sequence[Sequence[int]],
    actions: Sequence[Sequence[int]],
    carry: tuple[int, tuple[int, ...], int],
) -> tuple[Any, ...] | None: ...
def zwanzigerrufen_lane_hands(
    line: bytes,
    start: int,
    stop: int,
    config: bytes,
    score_config: bytes,
    contracts: tuple[str, ...],
    tokens: tuple[str, ...],
    prefix: bytes,
    suffix: bytes,
    sha256: Any,
    carry: tuple[int, tuple[int, ...], int] | None = None,
) -> tuple[Any, ...] | None: ...

# Royal Tarock's native engine (royalhand.h)
def royal_config_fields() -> dict[str, tuple[Any, ...]]: ...
def royal_config(fields: Mapping[str, Any]) -> bytes: ...
def royal_hand(
    config: bytes,
    dealer: int,
    parties: tuple[tuple[int, int], tuple[int, int]],
    hands: Sequence[Sequence[int]],
    actions: Sequence[tuple[int, ...]],
) -> tuple[Any, ...] | None: ...
def royal_lane_hands(
    line: bytes,
    start: int,
    stop: int,
    config: bytes,
    table: bytes,
    names: tuple[str, ...],
    tokens: tuple[str, ...],
    prefix: bytes,
    suffix: bytes,
    sha256: Any,
    pairs: tuple[tuple[int, int], tuple[int, int]] | None,
    first_dealer: int,
    match_length: int,
) -> tuple[tuple[tuple[Any, ...], ...], tuple[tuple[bytes, ...], ...]] | None: ...
