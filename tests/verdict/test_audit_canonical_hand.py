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
