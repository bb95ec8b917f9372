"""The replayer's switch between "all cards visible" and "what the player knew" for
Zwanzigerrufen and Royal Tarock hands (Streamlit's AppTest, no browser): both views stored by
``tarock ingest --analyse --analyse-view both``, the switch shown, the values and the caption
following it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from tarock_logs.store.write.analysis import store_analysis
from tarock_logs.store.write.ingest import ingest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboard" / "app.py"
LOGS = [ROOT / "sample_logs" / "zwanzigerrufen", ROOT / "sample_logs" / "royal"]
SAMPLES = 3


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, tuple]]]:
    db = tmp_path_factory.mktemp("player_view_games") / "g.duckdb"
    ingest([str(p) for p in LOGS], db=str(db))
    store_analysis([str(p) for p in LOGS], db=str(db), last_tricks=1, view="both",
                   samples=SAMPLES, seed=4)  # fmt: skip
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            """SELECT s.game, p.hand_id, min(p.action_index)
               FROM card_analysis_player p JOIN hands h USING (hand_id)
               JOIN sessions s ON s.session_id = h.session_id
               GROUP BY s.game, p.hand_id ORDER BY s.game, p.hand_id"""
        ).fetchall()
    finally:
        con.close()
    first: dict[str, tuple] = {}
    for game, hand, index in rows:
        first.setdefault(game, (hand, index))
    yield db, first


@pytest.mark.parametrize("game", ["zwanzigerrufen", "royal"])
def test_the_replayer_switches_views_for_zwanzigerrufen_and_royal(
    stored: tuple[Path, dict[str, tuple]], game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, first = stored
    assert game in first, first
    hand, index = first[game]
    monkeypatch.setenv("TAROCK_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("app_pages/replay.py")
    at.query_params["hand"] = str(hand)
    at.query_params["step"] = str(index + 1)
    at.query_params["seat"] = "all"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    switch = at.radio(key="analysis_view")
    assert list(switch.options) == ["all cards visible", "what the player knew"]
    texts = "\n".join(str(m.value) for m in [*at.markdown, *at.caption])
    assert "Every legal card valued (all cards visible)" in texts
    switch.set_value("player").run()
    assert not at.exception, [e.value for e in at.exception]
    texts = "\n".join(str(m.value) for m in [*at.markdown, *at.caption])
    assert "Every legal card valued (what the player knew)" in texts
    assert f"over {SAMPLES} layouts of the hidden cards" in texts and "(seed 4" in texts
