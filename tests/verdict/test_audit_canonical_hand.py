"""``canonical_hand`` (the document behind the content hash ``hand_id``) equals pydantic's
``model_dump(mode="json", exclude_defaults=True)`` for every hand of every sample game and
for plays with notes, so making it faster never changes a ``hand_id``."""

from __future__ import annotations

from pathlib import Path

from tarock_logs.log import models as m
from tarock_logs.log.reader import read_paths
from tarock_logs.verdict.audit import canonical_hand

ROOT = Path(__file__).resolve().parents[2]


def _plain(hand: m.Hand) -> dict:
    return hand.model_dump(mode="json", exclude_defaults=True)


def test_canonical_hand_is_the_model_dump_for_every_sample_hand() -> None:
    n = 0
    types: set[str] = set()
    for rec in read_paths([ROOT / "sample_logs"]):
        if rec.session is None:
            continue
        for hand in rec.session.hands:
            assert canonical_hand(hand) == _plain(hand), (rec.session.id, hand.number)
            n += 1
            types.update(a.type for a in hand.actions)
    assert n > 200
    assert {"play", "bid", "pass", "call", "talon", "discard", "announce", "kontra"} <= types


def test_plays_with_and_without_a_note_and_a_hand_without_actions() -> None:
    hand = m.Hand.model_validate({
        "number": 1, "dealer": 0,
        "deal": {"hands": [["T1"], ["T2"], ["T3"]], "talon": []},
        "actions": [{"type": "play", "seat": 1, "card": "T2", "note": "led in a hurry"},
                    {"type": "play", "seat": 2, "card": "T3"},
                    {"type": "play", "seat": 2, "card": "T3"}],
    })  # fmt: skip
    assert canonical_hand(hand) == _plain(hand)
    assert canonical_hand(hand)["actions"][0]["note"] == "led in a hurry"
    bare = hand.model_copy(update={"actions": []})
    assert canonical_hand(bare) == _plain(bare)
    assert "actions" not in canonical_hand(bare)


def test_shared_actions_dump_the_same_in_every_hand_that_holds_them() -> None:
    """The reader shares validated small actions between hands and ``canonical_hand``
    remembers their dumps by identity: a second read (every cache warm) still gives the plain
    ``model_dump`` of every hand, and an action with a note is never taken for one without."""
    for _ in range(2):
        for rec in read_paths([ROOT / "sample_logs" / "slovenian"]):
            for hand in rec.session.hands if rec.session else ():
                assert canonical_hand(hand) == _plain(hand)
    base = {"number": 1, "dealer": 0, "deal": {"hands": [["T1"], ["T2"], ["T3"]], "talon": []}}
    plain = m.Hand.model_validate({**base, "actions": [{"type": "pass", "seat": 1}]})
    noted = m.Hand.model_validate(
        {**base, "actions": [{"type": "pass", "seat": 1, "note": "slowly"}]}
    )
    assert canonical_hand(plain) == _plain(plain)
    assert canonical_hand(noted) == _plain(noted)
    assert canonical_hand(noted)["actions"][0]["note"] == "slowly"
    assert canonical_hand(plain) == _plain(plain)
