"""The store's read API (tarock_logs/store/queries.py) over a real ingested store."""

from __future__ import annotations

import io
import subprocess
import sys

import duckdb
import polars as pl
import pytest

from tarock_logs.store import queries as q
from tarock_logs.store.pseudonyms import pseudonym
from tests.support.store_fixtures import ingest_samples, stored_hand_id

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


def _all_findings(cur, ff: q.FindingFilters) -> list[dict]:
    rows, offset = [], 0
    while True:
        page = q.findings_page(cur, ff, offset=offset, limit=7)
        rows += page.to_dicts()
        if page.height < 7:
            return rows
        offset += 7


def test_the_overview_counts_match_the_finding_lists(sample_cur) -> None:
    counts = q.overview(sample_cur)
    everything = q.FindingFilters(findings_only=False)
    assert counts["hands"] == q.count_findings(sample_cur, everything)
    assert counts["illegal"] == q.count_findings(sample_cur, q.FindingFilters(kinds=("illegal",)))
    assert counts["discrepancy"] == q.count_findings(
        sample_cur, q.FindingFilters(kinds=("discrepancy",))
    )
    assert counts["sessions"] == q.count_sessions(sample_cur)


def test_findings_by_kind_of_finding(sample_cur) -> None:
    def sessions(**kw) -> set[str]:
        rows = _all_findings(sample_cur, q.FindingFilters(**kw))
        return {r["label"].split(" · ")[0] for r in rows}

    assert sessions(kinds=("illegal",)) == {
        "sim-slovenian-2027-r1-A",
        "sim-slovenian-2027-r1-C",
        "sim-slovenian-2027-r1-D",
    }
    assert sessions(kinds=("discrepancy",)) == {"sim-slovenian-2027-r1-B"}
    assert len(_all_findings(sample_cur, q.FindingFilters())) >= 4
    assert q.count_findings(sample_cur, q.FindingFilters(player="no such player")) == 0


def test_the_finding_pages_are_the_whole_list_in_order_without_repeats(sample_cur) -> None:
    """Server-side paging: consecutive pages cover the count, each hand once, in the order
    asked for (sorted by the database)."""
    everything = q.FindingFilters(findings_only=False)
    rows = _all_findings(sample_cur, everything)
    assert len(rows) == q.count_findings(sample_cur, everything)
    assert len({r["hand_id"] for r in rows}) == len(rows)
    worst = q.findings_page(sample_cur, everything, limit=5, order="most illegal actions")
    assert worst["n_violations"].to_list() == sorted(worst["n_violations"].to_list(), reverse=True)
    assert worst["n_violations"][0] == max(r["n_violations"] for r in rows)


def test_the_finding_filters_narrow_the_list(sample_cur) -> None:
    opts = q.finding_options(sample_cur)
    assert opts["game"] == ["slovenian"] and opts["round"]
    name = opts["player"][0]
    mine = _all_findings(sample_cur, q.FindingFilters(player=name, findings_only=False))
    assert mine and len(mine) < q.count_findings(sample_cur, q.FindingFilters(findings_only=False))
    one_round = q.FindingFilters(round=opts["round"][0], findings_only=False)
    assert all(r["round"] == opts["round"][0] for r in _all_findings(sample_cur, one_round))


def test_sessions_are_paged_and_searched(sample_cur) -> None:
    n = q.count_sessions(sample_cur)
    first, second = (
        q.sessions_page(sample_cur, limit=3),
        q.sessions_page(sample_cur, offset=3, limit=3),
    )
    assert first.height == 3 and not set(first["session_id"]) & set(second["session_id"])
    found = q.sessions_page(sample_cur, "R1-c")  # any case, a part of the label
    assert found["session_id"].to_list() == ["sim-slovenian-2027-r1-C"]
    assert q.count_sessions(sample_cur, "r1-C") == 1 and n > 3
    assert q.sessions_page(sample_cur, "100%_\\").is_empty()  # LIKE's wildcards are text
    assert q.session_label(sample_cur, "sim-slovenian-2027-r1-C").endswith(
        "sim-slovenian-2027-r1-C"
    )


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
        filters = (None, None, None, None, row["player_id"])
        drill = (("role", row["role"]),)
        seats, hands = q.drill_count(sample_cur, filters, drill)
        assert hands == row["hands"]
        page = q.drill_page(sample_cur, filters, drill, 0, 1000)
        assert page.height == seats and page["hand_id"].n_unique() == hands
        assert page["replay"].str.starts_with("/replay?hand=").all()
        assert set(page["name"]) == {row["name"]}


def test_drill_down_pages_and_the_csv_hold_the_same_rows(sample_cur) -> None:
    drill = (("role", "declarer"),)
    seats, _ = q.drill_count(sample_cur, NO_FILTERS, drill)
    pages = [q.drill_page(sample_cur, NO_FILTERS, drill, k, 10) for k in range(0, seats, 10)]
    together = pl.concat(pages)
    assert together.height == seats
    assert together.equals(q.drill_page(sample_cur, NO_FILTERS, drill, 0, seats))
    csv = pl.read_csv(io.BytesIO(q.drill_csv(sample_cur, NO_FILTERS, drill)))
    assert csv.height == seats
    assert csv["hand_id"].to_list() == together["hand_id"].to_list()
    masked = pl.read_csv(io.BytesIO(q.drill_csv(sample_cur, NO_FILTERS, drill, mask=True)))
    key = q.pseudonym_key(sample_cur)
    assert masked["name"].to_list() == [pseudonym(n, key) for n in together["name"].to_list()]


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
    _assert_locked_down(sample_cur, tmp_path)


def test_a_version_reader_is_locked_down_as_the_read_connection(tmp_path) -> None:
    """The dashboard's reader of one published version (``connect_version``: the file
    attached to an instance of its own) refuses the same, cannot detach its store or switch
    to another database, and its cursors (and theirs) read the store."""
    db = ingest_samples(tmp_path / "s")
    con, _ = q.connect_version(db)
    try:
        cur = con.cursor().cursor()
        for sql in ("DETACH store", "USE memory"):
            with pytest.raises(duckdb.Error):
                cur.execute(sql).fetchall()
        _assert_locked_down(cur, tmp_path)
        assert cur.sql("SELECT count(*) FROM hands").fetchall()[0][0] > 0
    finally:
        con.close()


def test_two_versions_of_one_path_are_read_side_by_side(tmp_path) -> None:
    """A reader of the file before a publish keeps reading it, a reader opened after reads
    the new one (``duckdb.connect`` shares one instance per path: it would show the old
    rows to both), and each knows its version's fingerprint."""
    import shutil

    from tarock_logs.store.connect import db_fingerprint, publish

    db = ingest_samples(tmp_path / "s")
    old, old_key = q.connect_version(db)
    try:
        before = q.overview(old.cursor())["hands"]
        stage = db.with_name(db.name + ".tmp-test")
        shutil.copyfile(db, stage)
        con = duckdb.connect(str(stage))
        con.execute("DELETE FROM hands WHERE number > 1")
        con.close()
        publish(stage, db)
        new, new_key = q.connect_version(db)
        try:
            after = q.overview(new.cursor())["hands"]
            assert after < before
            assert q.overview(old.cursor())["hands"] == before
            assert old_key != new_key == db_fingerprint(db)
        finally:
            new.close()
    finally:
        old.close()


def _assert_locked_down(cur: duckdb.DuckDBPyConnection, tmp_path) -> None:
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
            cur.execute(sql).fetchall()
    assert not out.exists()
    settings = cur.execute(
        "SELECT current_setting('enable_external_access'), current_setting('lock_configuration'), "
        "current_setting('autoload_known_extensions'), "
        "current_setting('autoinstall_known_extensions')"
    ).fetchall()
    assert settings == [(False, True, False, False)]
    assert q.overview(cur)["hands"] > 0


def test_the_hand_directory_finds_each_hand_by_its_key(sample_cur) -> None:
    """A store version's hand directory gives each stored hand its key (the lookups then
    read the key's row group, not every id) and -1 for an id no hand has; a lookup by the key
    answers as the lookup by the id does."""
    rows = sample_cur.execute("SELECT hand_id, hand_key FROM hands").fetchall()
    directory = q.HandDirectory(sample_cur)
    assert {h: directory.key(sample_cur, h) for h, _ in rows} == dict(rows)
    assert directory.key(sample_cur, "no such hand") == -1
    for hand_id, key in rows:
        assert q.hand_facts(sample_cur, hand_id, key) == q.hand_facts(sample_cur, hand_id)
        assert q.hand_findings(sample_cur, hand_id, key) == q.hand_findings(sample_cur, hand_id)
        assert q.hand_label(sample_cur, hand_id, key) == q.hand_label(sample_cur, hand_id)
        assert q.hand_session(sample_cur, hand_id, key) == q.hand_session(sample_cur, hand_id)
    assert q.hand_session(sample_cur, "no such hand", -1) is None
    # a key that is not the id's never gives another hand's rows
    if len(rows) > 1:
        assert q.hand_facts(sample_cur, rows[0][0], rows[1][1]) is None
