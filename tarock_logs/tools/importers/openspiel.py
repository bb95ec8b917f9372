"""OpenSpiel ``tarok`` games → the tarock log format, without OpenSpiel installed.

OpenSpiel (``pyspiel``, open-spiel 2.0.2) plays one Slovenian tarok hand per game state and
records it as ``state.serialize()``: the **deal seed** on the first line, then one **action id**
per line. This module turns that record back into facts the log format stores (pure standard
library; see ``../shared/rules/openspiel-tarok.md`` for everything OpenSpiel does):

* the deal: OpenSpiel shuffles the 54 card ids with its own loop over ``std::mt19937`` seeded
  with the deal seed; the first 6 cards are the **talon** (the six face-down cards the
  declarer may exchange with), player ``p`` gets the next ``48/n`` cards
  (:func:`deal_from_seed`). The game object draws deal seeds from ``std::mt19937(rng_seed)``
  and redraws while a player has no tarok (:func:`game_deal_seeds`);
* the action ids: bids (``0`` pass, ``1..12`` the contracts from klop to valat), the called
  king (a card id), the talon group index, the discarded cards and the cards played
  (:func:`decode_game`).

:func:`decode_game` follows OpenSpiel's turn structure (who is to move, when bidding ends,
which phases a contract has, trick winners, early ends) but **never judges legality**: an
action id that OpenSpiel would refuse but that has a meaning in the current phase (a card the
player may not play, or does not even hold; a king call of a non-king; a talon group that does
not exist) becomes the corresponding log action, applied as OpenSpiel would apply it, so the
audit flags it. Cards recorded after the point where the hand ends (OpenSpiel's own end: the
last trick, the berač declarer's first trick, the valat declarer's first lost trick) are
imported too, as plays in turn (``after_end`` counts them): the audit judges every card the
record holds and reports those as played after the end. Only ids with no meaning at all in
their phase (a bid id 13, a card id 60) are errors (:class:`OpenSpielFormatError`).

OpenSpiel player ``p`` sits in seat ``p``: seat 0 is forehand (the first to play, who speaks
last in bidding and wins ties), seat ``n−1`` is the dealer.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tarock_logs.cards import sort_cards
from tarock_logs.rules.slovenian.contracts import CONTRACTS

# --------------------------------------------------------------------------- cards and ids

NUM_CARDS: Final = 54
TALON_SIZE: Final = 6
PAGAT: Final = 0  # tarok I
MOND: Final = 20  # tarok XXI
SKIS: Final = 21  # tarok XXII, the highest card


def _card_tokens() -> tuple[str, ...]:
    out = [f"T{n}" for n in range(1, 23)]
    for s in ("H", "D"):
        out += [s + r for r in ("4", "3", "2", "1", "J", "N", "Q", "K")]
    for s in ("S", "C"):
        out += [s + r for r in ("7", "8", "9", "10", "J", "N", "Q", "K")]
    return tuple(out)


#: OpenSpiel card id → canonical card token (id 0 = pagat T1 … 21 = škis T22, 22.. = colours).
CARD_TOKENS: Final[tuple[str, ...]] = _card_tokens()
#: Canonical card token → OpenSpiel card id.
CARD_IDS: Final[dict[str, int]] = {t: i for i, t in enumerate(CARD_TOKENS)}
#: The four kings' ids (hearts, diamonds, spades, clubs): the king-call actions.
KING_IDS: Final = (29, 37, 45, 53)

#: OpenSpiel bid id → contract code of the log format (0 is pass).
BID_CONTRACTS: Final[dict[int, str]] = {
    1: "klop", 2: "three", 3: "two", 4: "one", 5: "solo_three", 6: "solo_two", 7: "solo_one",
    8: "berac", 9: "solo_brez", 10: "odprti_berac", 11: "barvni_valat", 12: "valat",
}  # fmt: skip
#: Contract code → OpenSpiel bid id.
CONTRACT_BIDS: Final[dict[str, int]] = {c: b for b, c in BID_CONTRACTS.items()}
PASS_BID: Final = 0
#: Talon cards taken per contract (0: no talon exchange).
TALON_CARDS: Final[dict[str, int]] = {c: CONTRACTS[c].talon for c in CONTRACT_BIDS}
#: Contracts whose declarer calls a king at a table of 4 (tri, dva, ena).
KING_CALL_CONTRACTS: Final = frozenset(c for c in CONTRACT_BIDS if CONTRACTS[c].king_call)
#: Contracts in which the declarer leads the first trick (otherwise player 0 does).
DECLARER_LEADS: Final = frozenset(c for c in CONTRACT_BIDS if CONTRACTS[c].declarer_leads)
#: The contracts OpenSpiel offers at each table size (3 players: no solo three/two/one).
CONTRACTS_BY_TABLE: Final[dict[int, tuple[str, ...]]] = {
    4: tuple(BID_CONTRACTS.values()),
    3: tuple(c for c in BID_CONTRACTS.values() if CONTRACTS[c].at_three),
}


def card_token(card_id: int) -> str:
    """Canonical token of an OpenSpiel card id (raises ``ValueError`` outside 0..53)."""
    if not 0 <= card_id < NUM_CARDS:
        raise ValueError(f"{card_id} is not an OpenSpiel card id (0..53)")
    return CARD_TOKENS[card_id]


def card_id(token: str) -> int:
    """OpenSpiel card id of a canonical Slovenian card token (raises ``KeyError``)."""
    return CARD_IDS[token]


def is_tarok_id(card_id: int) -> bool:
    return card_id < 22


def suit_of_id(card_id: int) -> int:
    """OpenSpiel's suit: 4 for taroks, else 0 hearts, 1 diamonds, 2 spades, 3 clubs."""
    return 4 if card_id < 22 else (card_id - 22) // 8


def rank_of_id(card_id: int) -> int:
    """OpenSpiel's rank: ``id + 8`` for taroks (above every colour card), else 0..7."""
    return card_id + 8 if card_id < 22 else (card_id - 22) % 8


# --------------------------------------------------------------------------- the seeded deal


class MT19937:
    """``std::mt19937``: the 32-bit Mersenne Twister with the C++ ``seed(value)`` procedure.

    Python's :mod:`random` runs the same generator but seeds it differently
    (``init_by_array``); the state is therefore built here with ``init_genrand`` and handed
    to a :class:`random.Random`, whose ``getrandbits(32)`` returns the raw 32-bit words.
    """

    __slots__ = ("_rng",)

    def __init__(self, seed: int) -> None:
        x = seed & 0xFFFFFFFF
        mt = [x]
        append = mt.append
        for i in range(1, 624):
            x = (1812433253 * (x ^ (x >> 30)) + i) & 0xFFFFFFFF
            append(x)
        append(624)  # the index: the next call twists the whole state first
        self._rng = random.Random()
        self._rng.setstate((3, tuple(mt), None))

    def __call__(self) -> int:
        """The next 32-bit word (``operator()`` of ``std::mt19937``)."""
        return self._rng.getrandbits(32)


def to_int32(word: int) -> int:
    """A 32-bit word read as a signed 32-bit int (how OpenSpiel stores a deal seed)."""
    word &= 0xFFFFFFFF
    return word - (1 << 32) if word >= (1 << 31) else word


def shuffled_ids(seed: int) -> list[int]:
    """The 54 card ids as OpenSpiel shuffles them for a deal seed (its own swap loop)."""
    rng = MT19937(seed & 0xFFFFFFFF)
    cards = list(range(NUM_CARDS))
    for i in range(NUM_CARDS - 1, 0, -1):
        j = rng() % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_ids_from_seed(seed: int, num_players: int) -> tuple[list[list[int]], list[int]]:
    """OpenSpiel's deal for ``seed``: per player its sorted card ids, and the talon ids in
    dealt order. (Dealing does not re-check the tarok condition, like ``deserialize_state``.)
    """
    _check_players(num_players)
    cards = shuffled_ids(seed)
    m = (NUM_CARDS - TALON_SIZE) // num_players
    hands = [
        sorted(cards[TALON_SIZE + p * m : TALON_SIZE + (p + 1) * m]) for p in range(num_players)
    ]
    return hands, cards[:TALON_SIZE]


def deal_from_seed(seed: int, num_players: int) -> tuple[list[list[str]], list[str]]:
    """:func:`deal_ids_from_seed` as card tokens (hands in canonical order, talon as dealt)."""
    return _tokens(*deal_ids_from_seed(seed, num_players))


def _tokens(hands: list[list[int]], talon: list[int]) -> tuple[list[list[str]], list[str]]:
    return (
        [sort_cards([CARD_TOKENS[c] for c in h], "slovenian") for h in hands],
        [CARD_TOKENS[c] for c in talon],
    )


def everyone_has_tarok(hands: Sequence[Sequence[int]]) -> bool:
    """OpenSpiel's acceptance test for a deal: every player holds at least one tarok."""
    return all(any(c < 22 for c in h) for h in hands)


def game_deal_seeds(rng_seed: int, num_players: int) -> Iterator[int]:
    """The deal seeds of the successive states dealt from one ``pyspiel`` game object
    loaded with ``{"rng_seed": rng_seed}``: words of ``std::mt19937(rng_seed)`` read as signed
    32-bit ints, skipping seeds whose deal leaves a player without a tarok.
    """
    _check_players(num_players)
    rng = MT19937(rng_seed & 0xFFFFFFFF)
    while True:
        seed = to_int32(rng())
        hands, _ = deal_ids_from_seed(seed, num_players)
        if everyone_has_tarok(hands):
            yield seed


def _check_players(num_players: int) -> None:
    if num_players not in (3, 4):
        raise ValueError(f"OpenSpiel tarok has 3 or 4 players, not {num_players}")


# --------------------------------------------------------------------------- serialized records


class OpenSpielFormatError(ValueError):
    """A record that cannot be converted, located where possible.

    ``action_index`` is 0-based among the action ids (the seed is not an action);
    ``serialized_line`` is the 1-based line of the ``serialized`` text.
    """

    def __init__(self, message: str, action_index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.action_index = action_index

    @property
    def serialized_line(self) -> int | None:
        return None if self.action_index is None else self.action_index + 2


def parse_serialized(text: str) -> tuple[int, list[int]]:
    """Split ``state.serialize()`` output into the deal seed and the action ids."""
    if not isinstance(text, str):
        raise OpenSpielFormatError("`serialized` must be a string")
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or not lines[0].strip():
        raise OpenSpielFormatError("`serialized` is empty: the first line must be the deal seed")
    try:
        seed = int(lines[0].strip())
    except ValueError:
        first = lines[0].strip()
        raise OpenSpielFormatError(f"the deal seed {first!r} is not an integer") from None
    if seed == -1:
        raise OpenSpielFormatError(
            "the deal seed is -1: this is the serialization of a deserialized state, which "
            "OpenSpiel cannot re-deal (keep the original `serialize()` output)"
        )
    if not -(2**31) <= seed < 2**32:
        raise OpenSpielFormatError(f"the deal seed {seed} is not a 32-bit integer")
    ids: list[int] = []
    for i, raw in enumerate(lines[1:]):
        s = raw.strip()
        try:
            ids.append(int(s))
        except ValueError:
            raise OpenSpielFormatError(f"action {s!r} is not an integer id", i) from None
    return seed, ids


# --------------------------------------------------------------------------- decoding actions


@dataclass
class DecodedGame:
    """One OpenSpiel game as log-format facts.

    ``actions`` are log-format action objects (plain dicts: ``{"type": "bid", "seat": 1,
    "contract": "two"}``); ``action_ids`` maps each of them to the input action indices it
    came from (the k discards become one ``discard`` action). ``tricks`` lists every completed
    trick as (leader seat, card tokens in playing order, winner seat).
    """

    seed: int
    num_players: int
    hands: list[list[str]]
    talon: list[str]
    actions: list[dict[str, Any]] = field(default_factory=list)
    action_ids: list[list[int]] = field(default_factory=list)
    contract: str | None = None
    declarer: int | None = None
    partner: int | None = None
    called_king: str | None = None
    talon_group: int | None = None
    discards: list[str] = field(default_factory=list)
    tricks: list[tuple[int, list[str], int]] = field(default_factory=list)
    finished: bool = False
    #: cards recorded after the hand ended (imported as plays in turn)
    after_end: int = 0

    @property
    def dealer(self) -> int:
        return self.num_players - 1


def trick_winner(cards: Sequence[int], contract: str) -> int:
    """Index (in playing order) of the card that wins a trick, by OpenSpiel's rule.

    The emperor's trick (pagat, mond and škis together: the pagat wins) holds in colour valat
    only when a tarok was led; otherwise the highest tarok wins, else the highest card of the
    led suit; in colour valat (*barvni valat*) taroks do not trump.
    """
    colour_valat = CONTRACTS[contract].colour_valat
    if PAGAT in cards and MOND in cards and SKIS in cards:
        if not colour_valat or is_tarok_id(cards[0]):
            return list(cards).index(PAGAT)
    best = 0
    for i in range(1, len(cards)):
        c, w = cards[i], cards[best]
        if rank_of_id(c) > rank_of_id(w) and (
            suit_of_id(c) == suit_of_id(w) or (not colour_valat and is_tarok_id(c))
        ):
            best = i
    return best


def decode_game(seed: int, num_players: int, action_ids: Sequence[int]) -> DecodedGame:
    """Deal from ``seed`` and turn every action id into log actions, following OpenSpiel's
    turn structure without judging legality (see the module docstring).

    Raises :class:`OpenSpielFormatError` (with ``action_index``) for an id that means nothing
    in its phase.
    """
    hand_ids, talon_ids = deal_ids_from_seed(seed, num_players)
    hands_tok, talon_tok = _tokens(hand_ids, talon_ids)
    g = DecodedGame(seed, num_players, hands_tok, talon_tok)
    held = [set(h) for h in hand_ids]
    n = num_players
    tricks_total = (NUM_CARDS - TALON_SIZE) // n

    phase = "bidding"
    bids = [-1] * n
    to_move = 1 % n
    pending_discards: list[int] = []
    discard_index: list[int] = []
    k = 0
    trick: list[int] = []
    trick_seats: list[int] = []

    def emit(action: dict[str, Any], *indices: int) -> None:
        g.actions.append(action)
        g.action_ids.append(list(indices))

    def start_play() -> None:
        nonlocal phase, to_move
        phase = "play"
        assert g.contract is not None and g.declarer is not None
        to_move = g.declarer if g.contract in DECLARER_LEADS else 0

    for idx, a in enumerate(action_ids):
        if phase == "bidding":
            if not 0 <= a <= 12:
                raise OpenSpielFormatError(f"bid id {a} is not 0 (pass) .. 12 (valat)", idx)
            if a == PASS_BID:
                emit({"type": "pass", "seat": to_move}, idx)
            else:
                emit({"type": "bid", "seat": to_move, "contract": BID_CONTRACTS[a]}, idx)
            bids[to_move] = a
            if all(bids[p] == PASS_BID for p in range(n) if p != to_move):
                if a == PASS_BID:
                    raise OpenSpielFormatError(
                        "every player passed: OpenSpiel's bidding cannot end without a contract",
                        idx,
                    )
                g.contract, g.declarer = BID_CONTRACTS[a], to_move
                k = TALON_CARDS[g.contract]
                if n == 4 and g.contract in KING_CALL_CONTRACTS:
                    phase = "king_call"
                elif k:
                    phase = "talon"
                else:
                    start_play()
            else:
                to_move = (to_move + 1) % n
                while bids[to_move] == PASS_BID:
                    to_move = (to_move + 1) % n
        elif phase == "king_call":
            if not 0 <= a < NUM_CARDS:
                raise OpenSpielFormatError(f"king call id {a} is not a card id (0..53)", idx)
            assert g.declarer is not None
            emit({"type": "call", "seat": g.declarer, "card": CARD_TOKENS[a]}, idx)
            g.called_king = CARD_TOKENS[a]
            holders = [p for p in range(n) if a in held[p]]
            g.partner = holders[0] if holders and holders[0] != g.declarer else None
            phase = "talon"
        elif phase == "talon":
            if not 0 <= a < TALON_SIZE:
                raise OpenSpielFormatError(f"talon group id {a} is not 0..5", idx)
            assert g.declarer is not None
            emit({"type": "talon", "seat": g.declarer, "group": a}, idx)
            g.talon_group = a
            if a < TALON_SIZE // k:
                held[g.declarer].update(talon_ids[a * k : (a + 1) * k])
            phase = "discard"
        elif phase == "discard":
            if not 0 <= a < NUM_CARDS:
                raise OpenSpielFormatError(f"discard id {a} is not a card id (0..53)", idx)
            assert g.declarer is not None
            held[g.declarer].discard(a)
            pending_discards.append(a)
            discard_index.append(idx)
            if len(pending_discards) == k:
                _emit_discard(g, pending_discards, discard_index)
                pending_discards, discard_index = [], []
                start_play()
        elif phase == "play":
            if not 0 <= a < NUM_CARDS:
                raise OpenSpielFormatError(f"card id {a} is not a card id (0..53)", idx)
            emit({"type": "play", "seat": to_move, "card": CARD_TOKENS[a]}, idx)
            held[to_move].discard(a)
            trick.append(a)
            trick_seats.append(to_move)
            if len(trick) < n:
                to_move = (to_move + 1) % n
                continue
            assert g.contract is not None
            winner = trick_seats[trick_winner(trick, g.contract)]
            g.tricks.append((trick_seats[0], [CARD_TOKENS[c] for c in trick], winner))
            trick, trick_seats = [], []
            to_move = winner
            if (
                len(g.tricks) == tricks_total
                or (CONTRACTS[g.contract].no_trick and winner == g.declarer)
                or (CONTRACTS[g.contract].every_trick and winner != g.declarer)
            ):
                phase = "done"
                g.finished = True
        else:  # after the end of the hand: the record goes on, so its cards are imported
            if not 0 <= a < NUM_CARDS:
                raise OpenSpielFormatError(
                    f"action id {a} after the end of the hand is not a card id (0..53)", idx
                )
            emit({"type": "play", "seat": to_move, "card": CARD_TOKENS[a]}, idx)
            g.after_end += 1
            to_move = (to_move + 1) % n
    if pending_discards:  # a record that stops in the middle of the discards
        _emit_discard(g, pending_discards, discard_index)
    return g


def _emit_discard(g: DecodedGame, ids: list[int], indices: list[int]) -> None:
    assert g.declarer is not None
    cards = [CARD_TOKENS[c] for c in ids]
    g.discards.extend(cards)
    action: dict[str, Any] = {"type": "discard", "seat": g.declarer, "cards": cards}
    shown = [t for c, t in zip(ids, cards, strict=True) if is_tarok_id(c)]
    if shown:
        action["shown"] = shown
    g.actions.append(action)
    g.action_ids.append(list(indices))


def decode_serialized(serialized: str, num_players: int) -> DecodedGame:
    """:func:`parse_serialized` then :func:`decode_game`."""
    _check_players(num_players)
    seed, ids = parse_serialized(serialized)
    return decode_game(seed, num_players, ids)


# --------------------------------------------------------------------------- the reverse mapping


def action_ids_of(action: Any, *, num_players: int) -> list[int]:
    """OpenSpiel action ids of one log/engine action (anything with ``type`` and the
    same-named fields, e.g. :class:`tarock_logs.rules.base.Action`): a discard gives one id
    per card. Raises ``ValueError`` for actions OpenSpiel has no id for (announcements,
    kontra, claims...).
    """
    t = action.type
    if t == "pass":
        return [PASS_BID]
    if t == "bid":
        if action.contract not in CONTRACT_BIDS:
            raise ValueError(f"contract {action.contract!r} has no OpenSpiel bid id")
        return [CONTRACT_BIDS[action.contract]]
    if t in ("call", "play"):
        return [CARD_IDS[action.card]]
    if t == "talon":
        return [int(action.group)]
    if t == "discard":
        return [CARD_IDS[c] for c in action.cards]
    raise ValueError(f"OpenSpiel has no action for {t!r}")


# --------------------------------------------------------------------------- input records


def record_to_session(
    record: Any, *, session_id: str, hand_id: str | None = None, software: str | None = None
) -> dict[str, Any]:
    """One importer input record (``{"players", "serialized", "returns"?}``) → one session of
    the log format, as a plain dict (validate it with ``tarock_logs.log.models.SessionAdapter``).

    The session has one hand: ruleset ``openspiel-2.0``, OpenSpiel player ``p`` in seat ``p``,
    dealer seat ``n−1``, ``deal.seed`` the deal seed, every action id converted (not judged) by
    :func:`decode_game`, and ``returns`` as the recorded ``result.scores``. Other keys of the
    record are ignored. Raises :class:`OpenSpielFormatError`.
    """
    if not isinstance(record, dict):
        raise OpenSpielFormatError("the line is not a JSON object")
    n = record.get("players")
    if isinstance(n, bool) or n not in (3, 4):
        raise OpenSpielFormatError(f"`players` must be 3 or 4, got {n!r}")
    if "serialized" not in record:
        raise OpenSpielFormatError("`serialized` (OpenSpiel's state.serialize()) is missing")
    game = decode_serialized(record["serialized"], n)
    hand: dict[str, Any] = {
        "number": 1,
        "dealer": game.dealer,
        "deal": {"hands": game.hands, "talon": game.talon, "seed": game.seed},
        "actions": game.actions,
    }
    if hand_id is not None:
        hand["id"] = hand_id
    returns = record.get("returns")
    if returns is not None:
        hand["result"] = {"scores": _returns(returns, n)}
    source: dict[str, Any] = {"importer": "openspiel", "software": software or "open_spiel tarok"}
    if hand_id is not None:
        source["original_id"] = hand_id
    return {
        "format": "tarock-log",
        "format_version": 1,
        "id": session_id,
        "game": "slovenian",
        "ruleset": "openspiel-2.0",
        "players": [{"id": f"openspiel-{p}", "name": f"OpenSpiel player {p}"} for p in range(n)],
        "first_dealer": game.dealer,
        "hands": [hand],
        "source": source,
    }


def _returns(values: Any, n: int) -> list[int]:
    if not isinstance(values, list) or len(values) != n:
        raise OpenSpielFormatError(f"`returns` must be a list of {n} numbers, got {values!r}")
    out = []
    for v in values:
        number = isinstance(v, (int, float)) and not isinstance(v, bool)
        if not number or not abs(v) <= 10_000_000 or int(v) != v:
            raise OpenSpielFormatError(f"`returns` holds {v!r}, not a whole number of points")
        out.append(int(v))
    return out
