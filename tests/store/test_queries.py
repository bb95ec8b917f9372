"""The store's read API (tarock_logs/store/queries.py) over a real ingested store."""

from __future__ import annotations

import subprocess
import sys

import duckdb
import pytest

from tarock_logs.store import queries as q
from tests.support.store_fixtures import stored_hand_id

NO_FILTERS = (None, None, None, None, None)


def test_an_unknown_hand_is_not_found(sample_cur) -> None:
    assert not q.hand_exists(sample_cur, "0" * 64)
    assert q.hand_facts(sample_cur, "0" * 64) is None
    assert q.hand_session(sample_cur, "0" * 64) is None


def test_a_stored_hand_is_found_with_its_session_and_facts(sample_cur) -> None:
    hid = stored_hand_id(sample_cur, "si-appendix-b1", 1)
    assert q.hand_exists(sample_cur, hid)
    assert q.hand_session(sample_cur, hid) == "si-appendix-b1"
    facts = q.hand_facts(sample_cur, hid)
    assert facts is not None
    assert (facts["session_id"], facts["number"], facts["game"]) == (
        "si-appendix-b1",
        1,
        "slovenian",
    )


def test_the_overview_counts_match_the_hand_index(sample_cur) -> None:
    counts = q.overview(sample_cur)
    idx = q.hands_index(sample_cur)
    assert counts["hands"] == idx.height
    assert counts["illegal"] == idx["illegal"].sum()
    assert counts["discrepancy"] == idx["discrepancy"].sum()
    assert counts["sessions"] == q.sessions_index(sample_cur).height


def test_filter_hands_by_kind_of_finding(sample_cur) -> None:
    idx = q.hands_index(sample_cur)
    illegal = q.filter_hands(idx, kinds=["illegal"])
    assert set(illegal["session_id"]) == {
        "sim-slovenian-2027-r1-A",
        "sim-slovenian-2027-r1-C",
        "sim-slovenian-2027-r1-D",
    }
    wrong = q.filter_hands(idx, kinds=["discrepancy"])
    assert set(wrong["session_id"]) == {"sim-slovenian-2027-r1-B"}
    anything = q.filter_hands(idx, findings_only=True)
    assert anything.height >= illegal.height + wrong.height
    assert q.filter_hands(idx, player="no such player").is_empty()


def test_a_players_next_hand_follows_the_playing_order(sample_cur) -> None:
    ids = q.session_hands(sample_cur, "sim-slovenian-2027-r1-A")["hand_id"].to_list()
    pid = sample_cur.execute(
        "SELECT player_id FROM session_players WHERE session_id = 'sim-slovenian-2027-r1-A' "
        "AND seat = 0"
    ).fetchall()[0][0]
    assert q.player_neighbour_hand(sample_cur, ids[0], pid, True) == (
        ids[1],
        "sim-slovenian-2027-r1-A",
    )
    assert q.player_neighbour_hand(sample_cur, ids[1], pid, False) == (
        ids[0],
        "sim-slovenian-2027-r1-A",
    )


def test_the_tournament_sessions_are_its_tables(sample_cur) -> None:
    assert "sim-slovenian-2027" in q.tournaments(sample_cur)
    sessions = q.tournament_sessions(sample_cur, "sim-slovenian-2027")
    assert sessions and all(s.startswith("sim-slovenian-2027-r1-") for s in sessions)
    assert q.tournament_sessions(sample_cur, "no such tournament") == []


def test_drill_down_counts_the_same_hands_as_the_figure(sample_cur) -> None:
    roles = q.stats_section(sample_cur, "roles", NO_FILTERS)
    for row in roles.head(6).iter_rows(named=True):
        hands = q.drill_hands(
            sample_cur, (None, None, None, None, row["player_id"]), (("role", row["role"]),)
        )
        assert hands["hand_id"].n_unique() == row["hands"]
        assert hands["replay"].str.starts_with("/replay?hand=").all()


def test_the_filter_values_are_what_the_store_holds(sample_cur) -> None:
    fv = q.filter_values(sample_cur)
    assert fv["games"] == ["slovenian"]
    assert fv["events"] == [
        "Simulated slovenian tournament (seed 2027)",
        "Worked examples of slovenian-tarok.md",
    ]
    assert fv["date_min"] <= fv["date_max"]
    assert "klop" in fv["contracts"] and fv["contracts"] == sorted(fv["contracts"])
    assert set(fv["players"]) == {
        r[0] for r in sample_cur.execute("SELECT player_id FROM players").fetchall()
    }


def test_the_read_api_loads_neither_streamlit_nor_the_dashboard() -> None:
    code = (
        "import sys; import tarock_logs.store.queries, tarock_logs.store.rebuild; "
        "bad = [m for m in ('streamlit', 'dashboard') if m in sys.modules]; print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_read_connection_reaches_no_file_extension_or_setting_of_its_own(
    sample_cur, tmp_path
) -> None:
    """Issue 14, defect 9: the dashboard's read-only connection could still ``COPY … TO``
    files, ``read_text('/etc/passwd')`` and try to install extensions. Locked down, every one
    is refused and the configuration cannot be changed back; the store itself still reads."""
    out = tmp_path / "out.csv"
    refused = [
        "SELECT * FROM read_text('/etc/passwd')",
        f"COPY hands TO '{out}'",
        f"ATTACH '{tmp_path / 'other.duckdb'}'",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SELECT * FROM 'https://example.com/x.parquet'",
        "SET enable_external_access = true",
        "SET lock_configuration = false",
        "SET autoload_known_extensions = true",
    ]
    for sql in refused:
        with pytest.raises(duckdb.Error):
            sample_cur.execute(sql).fetchall()
    assert not out.exists()
    settings = sample_cur.execute(
        "SELECT current_setting('enable_external_access'), current_setting('lock_configuration'), "
        "current_setting('autoload_known_extensions'), "
        "current_setting('autoinstall_known_extensions')"
    ).fetchall()
    assert settings == [(False, True, False, False)]
    assert q.overview(sample_cur)["hands"] > 0
