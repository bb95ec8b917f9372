"""Trust in the solver for Zwanzigerrufen and Royal Tarock (the analysis plug-ins of
``tarock_logs/analysis/games.py``), as ``test_solver.py`` for Slovenian tarok:

* the pure-Python solver against an exhaustive minimax **over the engine itself** (every legal
  card by ``legal_actions()``, every finished hand scored by ``score()``) on random endgames:
  the legal cards, the best cards and every value agree;
* the objective's facts score as the engine scores the finished hand (Zwanzigerrufen: every
  option the score reads drawn at random);
* the solver's legal cards equal ``legal_actions()`` in every position of random lines;
* the sample logs: every legal card of the last tricks valued, each principal line scored by
  the engine at the solver's value; unknown catalogue items reported, never valued;
* ``--backend native`` says the game has no native solver, ``auto`` takes the pure-Python one;
* the dossier's illegal-card section and ``tarock ingest --analyse`` (the replayer's values,
  the Players page's points lost) for both games.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

from typer.testing import CliRunner

from tarock_logs.analysis.games import analysis_for, has_native_solver
from tarock_logs.analysis.hand import analyse_replay, iter_analyses
from tarock_logs.analysis.search import PySolver
from tarock_logs.cli import app
from tarock_logs.log.models import SessionAdapter
from tarock_logs.log.reader import read_sessions
from tarock_logs.report.dossier import render_dossier
from tarock_logs.rules.base import HandState
from tarock_logs.tools.simulate import simulate_hands
from tarock_logs.verdict.replay import replay_session
from tests.analysis.games_support import (
    ROYAL,
    ZR,
    ZR_CONTRACTS,
    back_to,
    engine_card_values,
    random_card,
    royal_games,
    zr_endgame,
    zr_finished,
)

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _solver_values(game: str, h: HandState) -> dict[str, int]:
    g = analysis_for(game)
    assert g is not None
    pos, setting = g.read_position(h)
    return {g.cards(h)[c]: v for c, v in PySolver(setting).values(pos).items()}


def _zr_endgames(seed: int, count: int, tricks: tuple[int, ...]) -> list[HandState]:
    rng = Random(seed)
    out: list[HandState] = []
    i = 0
    while len(out) < count:
        h = zr_endgame(rng, ZR_CONTRACTS[i % 3], rng.choice(tricks))
        i += 1
        if h is not None:
            out.append(h)
    return out


def test_zwanzigerrufen_solver_equals_engine_minimax_on_endgames() -> None:
    """Normal game, Solo and Farbensolo under random options, announcements and Kontras."""
    g = analysis_for(ZR)
    assert g is not None
    contracts = set()
    for h in _zr_endgames(31, 90, (1, 2, 2)):
        contracts.add(g.contract(h))
        want = engine_card_values(g, h)
        got = _solver_values(ZR, h)
        assert got == want, (g.contract(h), h.view())
        best = max(want.values()) if g.maximiser(h, h.to_move() or 0) else min(want.values())
        assert {c for c, v in got.items() if v == best} == {c for c, v in want.items()
                                                            if v == best}  # fmt: skip
    assert contracts == set(ZR_CONTRACTS)


def test_zwanzigerrufen_solver_equals_engine_minimax_on_three_tricks() -> None:
    g = analysis_for(ZR)
    assert g is not None
    for h in _zr_endgames(32, 12, (3,)):
        assert _solver_values(ZR, h) == engine_card_values(g, h), g.contract(h)


def test_zwanzigerrufen_bounds_bracket_the_exact_value_at_trick_boundaries() -> None:
    """What the search prunes with: at the start of a trick, the bracket of the objective
    holds the engine-exhaustive value of the position (random options, every contract)."""
    g = analysis_for(ZR)
    assert g is not None
    rng = Random(34)
    checked = 0
    i = 0
    while checked < 40:
        h = zr_endgame(rng, ZR_CONTRACTS[i % 3], rng.choice((1, 2, 2)))
        i += 1
        if h is None:
            continue
        while h.trick:  # to the start of the next trick
            random_card(rng, h)
        if h.is_over():
            continue
        pos, setting = g.read_position(h)
        assert setting.play is not None
        remaining = 0
        for hand in pos.hands:
            remaining |= hand
        lo, hi = setting.play.bounds(pos.acc, remaining)
        vals = engine_card_values(g, h).values()
        v = max(vals) if g.maximiser(h, h.to_move() or 0) else min(vals)
        assert lo <= v <= hi, (lo, v, hi, h.view())
        checked += 1


def test_zwanzigerrufen_facts_score_as_the_engine_scores_the_finished_hand() -> None:
    """The four facts of the tricks (the declarer side's card points and tricks, the Pagat,
    the Mondfang) give the engine's score of the hand under every option drawn."""
    g = analysis_for(ZR)
    assert g is not None
    rng = Random(33)
    done = 0
    for i in range(120):
        h = zr_finished(rng, ZR_CONTRACTS[i % 3])
        if h is None:
            continue
        c = h.copy()
        for _ in range(40):
            c.pop()
        pos, setting = g.read_position(c)
        play = setting.play
        assert play is not None and pos.acc == (0, 0, 0, 0)
        acc = pos.acc
        for t in h.tricks:
            acc = play.fold_trick(acc, t)  # type: ignore[attr-defined]
        assert play.leaf(acc) == g.score_value(h, h.score(), None), h.view()
        done += 1
    assert done >= 75


def test_royal_facts_score_as_the_engine_scores_the_finished_game() -> None:
    """The facts of the tricks (the cards the attackers brought home, each trick's winner and
    winning card) give the engine's score of simulated games (their Schlemme with bound cards,
    contras, silent premiums, trophies)."""
    g = analysis_for(ROYAL)
    assert g is not None
    games = royal_games(40, 47)
    for h in games:
        c = h.copy()
        for _ in range(40):
            c.pop()
        pos, setting = g.read_position(c)
        play = setting.play
        assert play is not None
        acc = pos.acc
        for cards, w in h.tricks:  # type: ignore[attr-defined]
            ids = [play.pack.cid[x] for _, x in cards]
            acc = play.fold(acc, ids, cards[0][0], (w - cards[0][0]) % 4, 0)
        assert play.leaf(acc) == g.score_value(h, h.score(), None), h.view()
    assert len(games) >= 30


def _royal_endgames(seed: int, count: int, tricks: tuple[int, ...]) -> list[HandState]:
    rng = Random(seed)
    out: list[HandState] = []
    for game in royal_games(count, seed):
        h = back_to(game, 4 * rng.choice(tricks) - rng.randrange(4))
        if h is not None:
            out.append(h)
    return out


def test_royal_solver_equals_engine_minimax_on_endgames() -> None:
    """Simulated games (announced Schlemme with bound cards, contras) and the sample match."""
    g = analysis_for(ROYAL)
    assert g is not None
    games = _royal_endgames(41, 16, (1, 2))
    rng = Random(42)
    for s in read_sessions([SAMPLES / "royal"]):
        for r in replay_session(s):
            h = back_to(r.state, rng.randrange(1, 9))
            if h is not None:
                games.append(h)
    assert len(games) >= 20
    for h in games:
        assert _solver_values(ROYAL, h) == engine_card_values(g, h), h.view()


def test_the_solvers_legal_cards_are_the_engines_in_every_position() -> None:
    rng = Random(43)
    lines: list[tuple[str, HandState]] = [(ZR, h) for h in _zr_endgames(44, 9, (10,))]
    lines += [(ROYAL, back_to(h, 40) or h) for h in royal_games(3, 45)]
    checked = 0
    for game, h in lines:
        g = analysis_for(game)
        assert g is not None
        h = h.copy()
        while not h.is_over():
            pos, setting = g.read_position(h)
            assert setting.play is not None
            mask = setting.play.legal(pos.hands[pos.to_move], pos.trick, pos.tricks_done,
                                      pos.to_move)  # fmt: skip
            assert set(setting.play.pack.tokens(mask)) == {a.card for a in h.legal_actions()}
            checked += 1
            random_card(rng, h)
    assert checked >= 300


def _sample_analyses(game: str, tricks: int) -> list[tuple[object, HandState]]:
    out = []
    for s in read_sessions([SAMPLES / game]):
        for hand, r in zip(s.hands, replay_session(s), strict=True):
            out.append((analyse_replay(r, s.id, hand, last_tricks=tricks), r))
    return out


def test_the_samples_every_legal_card_of_the_last_tricks_is_valued() -> None:
    """``tarock analyse`` on the samples: each card of the last tricks, every legal card of
    its player valued (the engine's legal cards), the engine's score of each principal line
    equals the solver's value."""
    for game, tricks in ((ZR, 4), (ROYAL, 2)):
        g = analysis_for(game)
        assert g is not None
        results = _sample_analyses(game, tricks)
        assert results
        for ha, r in results:
            assert not ha.skipped and ha.backend == "python"  # type: ignore[attr-defined]
            cards = ha.cards  # type: ignore[attr-defined]
            assert len(cards) == 4 * tricks
            assert all(c.consistent for c in cards)
            h = r.state.copy()  # type: ignore[attr-defined]
            for _ in range(r.actions_applied):  # type: ignore[attr-defined]
                h.pop()
            by_index = {c.action_index: c for c in cards}
            for i, step in enumerate(r.steps[1:]):  # type: ignore[attr-defined]
                c = by_index.pop(i, None)
                if c is not None:
                    assert {k for k, _ in c.values} == {a.card for a in h.legal_actions()}
                    assert dict(c.values)[c.card] == c.value
                if step.action is not None:
                    h.push(step.action)
            assert not by_index


def test_royal_unknown_catalogue_items_are_reported_not_valued() -> None:
    """A simulated game whose score leaves items out (a condition or value the catalogue does
    not know, the consolation): the analysis lists them and its values are the engine's known
    items only."""
    g = analysis_for(ROYAL)
    assert g is not None
    state = next(h for h in royal_games(4, 46) if h.score().unverified)
    for doc in simulate_hands(4, 46, game=ROYAL, hands_per_session=8):
        s = SessionAdapter.validate_python(doc)
        for hand, r in zip(s.hands, replay_session(s), strict=True):
            if r.state.score().unverified == state.score().unverified:
                ha = analyse_replay(r, s.id, hand, last_tricks=1)
                assert ha.unknown == state.score().unverified
                assert ha.cards and all(c.consistent for c in ha.cards)
                assert ha.to_dict()["unknown"] == list(ha.unknown)
                return
    raise AssertionError("no game with unknown items")


def test_backend_native_says_the_game_has_no_native_solver_and_auto_takes_python() -> None:
    assert not has_native_solver(ZR) and not has_native_solver(ROYAL)
    assert has_native_solver("slovenian")
    r = CliRunner().invoke(app, ["analyse", str(SAMPLES / ZR), "--backend", "native",
                                 "--format", "json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["hands"] and all("has no native solver" in h["skipped"] for h in doc["hands"])
    (s, *_) = read_sessions([SAMPLES / ZR])
    (ha,) = iter_analyses(s, hands={s.hands[0].number}, last_tricks=1, backend="auto")
    assert ha.backend == "python" and len(ha.cards) == 4


def _plant_illegal_card_in_trick_nine(game: str, seed: int) -> tuple[dict, int, str]:  # type: ignore[type-arg]
    """A simulated session of ``game`` in which one player plays, in trick 9, a card the rules
    forbade (he held it), and the card he should have played in trick 10: the two play
    actions of his last two cards swapped. Returns the document, the hand number and the
    card."""
    for doc in simulate_hands(8, seed, game=game, hands_per_session=8):
        s = SessionAdapter.validate_python(doc)
        g = analysis_for(game)
        assert g is not None
        for k, r in enumerate(replay_session(s)):
            h = r.state.copy()
            for _ in range(r.actions_applied):
                h.pop()
            acts = doc["hands"][k]["actions"]
            for i, step in enumerate(r.steps[1:]):
                a = step.action
                if a is None:
                    continue
                if a.type == "play" and g.in_play(h) and g.tricks_done(h) == 8:
                    held = {c for c in g.cards(h) if g.holds(h, a.seat, c)}
                    bad = held - {x.card for x in h.legal_actions()}
                    if bad:
                        card = sorted(bad)[0]
                        j = next(
                            j
                            for j in range(i + 1, len(acts))
                            if acts[j].get("type") == "play" and acts[j]["seat"] == a.seat
                        )
                        acts[i]["card"], acts[j]["card"] = card, acts[i]["card"]
                        return doc, doc["hands"][k]["number"], card
                h.push(a)
    raise AssertionError("no hand with an illegal alternative in trick 9")


def test_the_dossier_says_whether_the_illegal_card_changed_the_result() -> None:
    """The dossier's section for Zwanzigerrufen and Royal Tarock: the illegal card valued
    against the best legal card (all cards visible), as for Slovenian tarok."""
    for game, seed in ((ZR, 51), (ROYAL, 52)):
        doc, number, card = _plant_illegal_card_in_trick_nine(game, seed)
        s = SessionAdapter.validate_python(doc)
        html = render_dossier(s, number)
        assert "Did the illegal card change the result?" in html
        assert "Not analysed" not in html
        assert f"{card} in trick 9: " in html
        (ha,) = list(iter_analyses(s, hands={number}, last_tricks=0))
        (bad,) = ha.illegal
        assert bad.card == card and bad.trick == 9 and bad.legal is False


def test_ingest_analyse_stores_both_games_for_the_replayer_and_the_players_page(
    tmp_path: Path,
) -> None:
    """``tarock ingest --analyse`` of the Zwanzigerrufen and Royal Tarock samples: every card
    of the analysed tricks stored (the replayer's values by action index) and the Players
    page's points lost per game."""
    import duckdb

    from tarock_logs.store.read.analysis import hand_card_analysis, points_lost

    db = tmp_path / "g.duckdb"
    args = ["ingest", str(SAMPLES / ZR), str(SAMPLES / ROYAL), "--db", str(db), "--analyse",
            "--analyse-tricks", "2", "--format", "json"]  # fmt: skip
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["analysis"]["hands"] == doc["hands_stored"] == 12
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT backend, count(*), sum(cards), sum(undecided) "
                           "FROM analysed_hands GROUP BY 1").fetchall()  # fmt: skip
        assert rows == [("python", 12, 12 * 8, 0)]
        for game, hands in ((ZR, 4), (ROYAL, 8)):
            per = points_lost(con, (game,))
            assert per["cards"].sum() == hands * 8
        hid = con.execute("SELECT hand_id FROM analysed_hands LIMIT 1").fetchall()[0][0]
        cards = hand_card_analysis(con, hid)
        assert len(cards) == 8 and all(c["card"] in c["values"] for c in cards)
    finally:
        con.close()
