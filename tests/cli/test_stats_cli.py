"""``tarock stats --format table``: a readable default set of columns, ``--columns`` for more."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tarock_logs.cli.common import app
from tarock_logs.store.write.ingest import ingest
from tests.support.d1_helpers import APPENDIX_B

runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stats") / "s.duckdb"
    ingest([APPENDIX_B], db=path, jobs=1)
    return path


def _header(stdout: str) -> str:
    return next(ln for ln in stdout.splitlines() if ln.startswith("┃"))


def test_the_table_shows_names_and_a_readable_set_of_columns(db: Path) -> None:
    res = runner.invoke(app, ["stats", "--db", str(db), "--section", "players"])
    assert res.exit_code == 0, res.stdout
    header = _header(res.stdout)
    for col in ("name", "hands", "won", "win rate", "avg score"):
        assert col in header
    assert "player id" not in header and "monds captured" not in header
    assert "Ana Kos" in res.stdout
    assert "%" in res.stdout  # rates as percentages


def test_columns_picks_the_columns_or_all(db: Path) -> None:
    res = runner.invoke(app, ["stats", "--db", str(db), "--section", "players", "--columns",
                              "name,monds_captured"])  # fmt: skip
    assert res.exit_code == 0
    header = _header(res.stdout)
    assert "monds captured" in header and "win rate" not in header
    res = runner.invoke(app, ["stats", "--db", str(db), "--section", "players", "--columns", "all"])
    assert "player id" in _header(res.stdout)
    res = runner.invoke(app, ["stats", "--db", str(db), "--section", "players", "--columns",
                              "nope"])  # fmt: skip
    assert res.exit_code == 2 and "no column nope" in res.stderr


def test_the_table_shows_at_most_limit_rows_per_section_and_says_how_many_more(db: Path) -> None:
    """A big store's table stays readable (and quick): each section shows ``--limit`` rows
    and says how many it left out; ``--limit 0`` shows every row (json and csv always do)."""
    every = runner.invoke(app, ["stats", "--db", str(db), "--section", "players", "--limit", "0"])
    names = [n for n in ("Ana Kos", "Bojan Zupan", "Cene Novak", "Dušan Horvat")
             if n in every.stdout]  # fmt: skip
    assert every.exit_code == 0 and len(names) >= 2 and "more rows" not in every.stdout
    res = runner.invoke(app, ["stats", "--db", str(db), "--section", "players", "--limit", "1"])
    assert res.exit_code == 0
    assert sum(n in res.stdout for n in names) == 1
    assert f"players: {len(names) - 1} more rows not shown" in res.stdout
