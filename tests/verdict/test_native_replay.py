"""The bulk audit's native score (``replay_session(..., native=True)``, issue 32 item 5): a hand
the game's native engine takes whole is played and scored by it
(:meth:`~tarock_logs.rules.base.SessionState.native_replay`), every other hand by the bulk path
or the reference, hand by hand, and the verdict is the reference's: every score line, the
totals, the carry (radelci, double rounds), the legal flag, the violations and the findings
with their reasons, the same with the native path on and off. The sessions are simulated and
then spoiled mid-session (a card dealt to the wrong seat: the native engine declines that hand
and the reference reports it; a recorded score written wrong: the native engine scores the
hand and the finding quotes the reference's reason), so the carry must go on through a hand
the native engine did not take."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tarock_logs import _native
from tarock_logs.log.models import SessionAdapter
from tarock_logs.rules.slovenian.fast import fastpath
from tarock_logs.rules.zwanzigerrufen import fast as zr_fast
from tarock_logs.rules.zwanzigerrufen import native as zr_native
from tarock_logs.tools.simulate import simulate_hands
from tarock_logs.verdict import replay as rp
from tarock_logs.verdict.audit import audit_session

needs_core = pytest.mark.skipif(_native.core is None, reason="the native core is not built")

#: (game, ruleset, table size): the native whole hands there are (Royal Tarock has none yet)
TABLES = [
    ("slovenian", "si-tournament-2021", 4),
    ("slovenian", "si-tournament-2021", 3),
    ("slovenian", "openspiel-2.0", 4),
    ("zwanzigerrufen", None, 4),
]


def _spoil(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with hand 4's deal spoiled (the last card played swapped with a card of another
    seat: both seats then play a card they do not hold) and hand 8's recorded score written
    wrong (its first line ten more)."""
    doc = copy.deepcopy(doc)
    hands = doc["hands"]
    h = hands[3]
    last = h["actions"][-1]
    seat, card = last["seat"], last["card"]
    dealt = h["deal"]["hands"]
    other = next(s for s in range(len(dealt)) if s != seat and dealt[s])
    k = dealt[seat].index(card)
    dealt[seat][k], dealt[other][0] = dealt[other][0], dealt[seat][k]
    r = hands[7]["result"]
    r["items"][0]["value"] += 10
    r.pop("totals_after", None)
    return doc


def _sessions(game: str, ruleset: str | None, n: int) -> list[Any]:
    docs = simulate_hands(48, 11, game=game, ruleset=ruleset, table_size=n)
    docs = [docs[0], _spoil(docs[1]), docs[2]]
    return [SessionAdapter.validate_python(d) for d in docs]


def _verdict(r: rp.HandReplay) -> tuple[Any, ...]:
    """Everything a replay says of a hand but how it was found (and the reasons: see
    :func:`_reasons`)."""
    sc = r.score
    score = None
    if sc is not None:
        score = (
            [(i.item, i.seat, i.value) for i in sc.items], tuple(sc.totals), sc.contract,
            sc.declarer, sc.partner, sc.won, dict(sc.card_points), tuple(sc.unverified),
            dict(sc.carry_after), sc.incomplete_seats, sc.claimed,
        )  # fmt: skip
    return (score, r.violations, r.legal, r.complete, r.unverified, r.carry_before,
            r.carry_after, r.carry_expected, r.carry_source, r.actions_applied)  # fmt: skip


def _reasons(r: rp.HandReplay) -> dict[tuple[str, int | None], str]:
    return r.reasons()


def _took(r: rp.HandReplay) -> bool:
    """Whether a native path (``native_replay`` or ``fast_replay``) replayed the hand."""
    return r._tricks is not None


def _reference(sessions: list[Any], monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    with monkeypatch.context() as mp:
        mp.setattr(rp, "FAST_PATH", False)
        return [rp.replay_session(s) for s in sessions]


@needs_core
@pytest.mark.parametrize(("game", "ruleset", "n"), TABLES)
def test_the_native_score_gives_the_reference_verdict_hand_by_hand(
    game: str, ruleset: str | None, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = _sessions(game, ruleset, n)
    native = [rp.replay_session(s, native=True) for s in sessions]
    bulk = [rp.replay_session(s) for s in sessions]  # the bulk path, the reference's score
    reference = _reference(sessions, monkeypatch)
    taken = declined = 0
    for xs, ys, zs in zip(native, bulk, reference, strict=True):
        for x, y, z in zip(xs, ys, zs, strict=True):
            assert _verdict(x) == _verdict(y) == _verdict(z)
            assert _reasons(x) == _reasons(z)
            assert not _took(z)  # (the reference replayed it)
            if _took(x):
                taken += 1
                assert x.legal and x.complete and not x.violations
                assert z.state is not None and list(x.tricks or ()) == z.state.view()["tricks"]
            else:
                declined += 1
    spoiled = native[1][3]
    assert not _took(spoiled) and not spoiled.legal  # declined, reported
    assert _took(native[1][7])  # the wrong sheet: the native engine played and scored it
    assert taken >= 0.8 * sum(len(s.hands) for s in sessions)


@needs_core
@pytest.mark.parametrize(("game", "ruleset", "n"), TABLES)
def test_the_audit_says_the_same_with_the_native_score_on_and_off(
    game: str, ruleset: str | None, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = _sessions(game, ruleset, n)

    def audits() -> list[Any]:
        out = []
        for s in sessions:
            sa = audit_session(s, file="x.jsonl")
            out.append((sa.to_dict(), [h.to_dict() for h in sa.hands]))
        return out

    on = audits()
    with monkeypatch.context() as mp:
        mp.setattr(rp, "NATIVE_SCORE", False)
        off = audits()
    assert on == off
    wrong = on[1][1][7]["findings"]
    found = [f for f in wrong if f["code"] == "score.item_differs"]
    assert found and all(f["params"]["reason"] for f in found)  # the reference's reason


@needs_core
@pytest.mark.parametrize(("game", "ruleset", "n"), [TABLES[0], TABLES[3]])
def test_without_the_native_core_the_reference_replays_every_hand(
    game: str, ruleset: str | None, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = _sessions(game, ruleset, n)
    reference = _reference(sessions, monkeypatch)
    with monkeypatch.context() as mp:
        mp.setattr(fastpath, "_CORE", None)
        mp.setattr(zr_native, "_CORE", None)
        mp.setattr(zr_fast, "_CORE", None)
        bare = [rp.replay_session(s, native=True) for s in sessions]
    for xs, zs in zip(bare, reference, strict=True):
        for x, z in zip(xs, zs, strict=True):
            assert not _took(x)
            assert _verdict(x) == _verdict(z)
