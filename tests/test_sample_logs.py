"""The hand-written samples are internally consistent (independent of the rules engines)."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from tarock_logs.log.models import SessionAdapter
from tarock_logs.log.reader import read_file
from tarock_logs.log.writer import dumps_sessions

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"


def _sessions(rel: str):
    return [r.session for r in read_file(SAMPLES / rel)]


def _plays_by_seat(hand) -> dict[int, Counter]:
    out: dict[int, Counter] = {}
    for a in hand.actions:
        if a.type == "play":
            out.setdefault(a.seat, Counter())[a.card] += 1
    return out


@pytest.mark.parametrize("rel", ["zwanzigerrufen/fd-examples.json", "royal/worked-examples.json"])
def test_every_seat_plays_exactly_the_cards_it_was_dealt(rel):
    for s in _sessions(rel):
        for h in s.hands:
            plays = _plays_by_seat(h)
            for seat, dealt in enumerate(h.deal.hands):
                assert plays[seat] == Counter(dealt), (s.id, h.number, seat)


def test_slovenian_declarer_plays_hand_plus_talon_group_minus_discards():
    b1, b2 = (s.hands[0] for s in _sessions("slovenian/appendix-b.json"))
    plays = _plays_by_seat(b1)
    group = b1.deal.talon[3:6]  # group 1 of two groups of three
    discard = next(a for a in b1.actions if a.type == "discard").cards
    assert plays[0] == Counter(b1.deal.hands[0]) + Counter(group) - Counter(discard)
    for seat in (1, 2, 3):
        assert plays[seat] == Counter(b1.deal.hands[seat])
    assert all(_plays_by_seat(b2)[s] == Counter(b2.deal.hands[s]) for s in range(4))


def test_slovenian_itemised_results_add_up_to_each_seats_score():
    b1, _ = (s.hands[0] for s in _sessions("slovenian/appendix-b.json"))
    declarer_side = {0, 1}  # P1 declares tri and calls DK, held by P2
    totals = [0, 0, 0, 0]
    for it in b1.result.items:
        for seat in declarer_side if it.seat is None else {it.seat}:
            totals[seat] += it.value
    assert totals == b1.result.scores == [135, 135, 0, -20]


def test_zwanzigerrufen_results_are_zero_sum_and_match_the_spec():
    expected = {"zr-fd1": [-2, 2, -2, 2], "zr-fd2": [1, 1, -1, -1], "zr-fd3": [-4, -4, 12, -4],
                "zr-fd4": [-6, 18, -6, -6]}  # fmt: skip
    got = {s.id: s.hands[0].result.scores for s in _sessions("zwanzigerrufen/fd-examples.json")}
    assert got == expected
    assert all(sum(v) == 0 for v in got.values())


def _royal_script():
    spec = importlib.util.spec_from_file_location(
        "make_royal", ROOT / "scripts" / "make_royal_sample.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_royal_sample_is_exactly_what_its_seeded_script_builds():
    built = SessionAdapter.validate_python(_royal_script().build())
    assert (
        dumps_sessions([built], kind="json")
        == (SAMPLES / "royal" / "worked-examples.json").read_text()
    )


def test_royal_sample_follows_dealing_and_play_rules():
    [s] = _sessions("royal/worked-examples.json")
    roles = {(p.pair, p.role): i for i, p in enumerate(s.players)}
    for h in s.hands:
        defenders = "A" if h.dealer == roles[("A", "eintreiber")] else "B"
        attackers = "B" if defenders == "A" else "A"
        assert h.dealer == roles[(defenders, "eintreiber")]
        assert "T19" in h.deal.hands[roles[(attackers, "abfaenger")]]
        assert "T20" in h.deal.hands[roles[(attackers, "eintreiber")]]
        assert all(sum(c[0] == "T" for c in cs) >= 3 for cs in h.deal.hands)
        held = [list(cs) for cs in h.deal.hands]
        plays = [a for a in h.actions if a.type == "play"]
        leader = roles[(attackers, "eintreiber")]
        for t in range(10):
            trick = plays[4 * t : 4 * t + 4]
            assert [a.seat for a in trick] == [(leader + k) % 4 for k in range(4)]
            led = trick[0].card[0]
            for a in trick:
                hand = held[a.seat]
                follow = [c for c in hand if c[0] == led]
                trumps = [c for c in hand if c[0] == "T"]
                allowed = follow or trumps or hand
                assert a.card in allowed, (h.number, t + 1, a)
                hand.remove(a.card)
            taroks = [a for a in trick if a.card[0] == "T"]
            if taroks:
                leader = max(taroks, key=lambda a: int(a.card[1:])).seat
            else:
                rank = {"K": 5, "Q": 4, "N": 3, "J": 2, "10": 1}
                leader = max((a for a in trick if a.card[0] == led),
                             key=lambda a: rank[a.card[1:]]).seat  # fmt: skip
        # both partners write their party's score, itemised per seat
        sc = h.result.scores
        assert sc[0] == sc[1] and sc[2] == sc[3]
        for seat in range(4):
            assert sum(it.value for it in h.result.items if it.seat == seat) == sc[seat]


def test_malformed_samples_are_exactly_what_their_script_builds(tmp_path):
    spec = importlib.util.spec_from_file_location(
        "make_malformed", ROOT / "scripts" / "make_malformed_samples.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.build(tmp_path)
    committed = SAMPLES / "malformed"
    names = sorted(p.name for p in committed.iterdir())
    assert names == sorted(p.name for p in tmp_path.iterdir())
    for name in names:
        assert (tmp_path / name).read_bytes() == (committed / name).read_bytes(), name


def test_spec_samples_are_exactly_the_transcription_of_the_specifications(tmp_path):
    spec = importlib.util.spec_from_file_location(
        "transcribe", ROOT / "scripts" / "transcribe_spec_samples.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for sub in ("slovenian", "zwanzigerrufen"):
        (tmp_path / sub).mkdir()
    mod.slovenian(tmp_path)
    mod.zwanzigerrufen(tmp_path)
    for rel in ("slovenian/appendix-b.json", "zwanzigerrufen/fd-examples.json"):
        assert (tmp_path / rel).read_text() == (SAMPLES / rel).read_text(), rel
