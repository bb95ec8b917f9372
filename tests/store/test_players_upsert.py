"""The writer skips the players upsert of a load that would change nothing
(``_Writer._batch_players``); the ``players`` table is the same as when every load runs it:
new players, names added later, names changed, names left out, across files and re-ingests."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tarock_logs.store.write import ingest as ig

ROOT = Path(__file__).resolve().parents[2]
SESSION: dict[str, Any] = json.loads((ROOT / "sample_logs/slovenian/appendix-b.json").read_text())[
    0
]


def _session(sid: str, names: list[str | None], ids: list[str] | None = None) -> dict[str, Any]:
    s = copy.deepcopy(SESSION)
    s["id"] = sid
    for k, p in enumerate(s["players"]):
        if ids is not None:
            p["id"] = ids[k]
        if names[k] is None:
            p.pop("name", None)
        else:
            p["name"] = names[k]
    return s


def _write(folder: Path, name: str, sessions: list[dict[str, Any]]) -> None:
    (folder / name).write_text("".join(json.dumps(s) + "\n" for s in sessions))


def _players(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT player_id, name, player_key FROM players ORDER BY 1").fetchall()
    finally:
        con.close()


def _run(tmp: Path, tag: str) -> list[list[tuple]]:
    logs = tmp / f"logs-{tag}"
    logs.mkdir()
    db = tmp / f"{tag}.duckdb"
    ids = ["ana.kos", "bojan.zupan", "cene.novak", "nina.potocnik"]
    out = []
    _write(logs, "a.jsonl", [_session("s1", [None, None, None, None])])
    ig.ingest([str(logs)], db=str(db), jobs=1, batch_hands=1)
    out.append(_players(db))
    _write(logs, "b.jsonl", [_session("s2", ["Ana", None, "Cene", None]),
                             _session("s3", ["Ana", "Bojan", None, None], ids)])  # fmt: skip
    ig.ingest([str(logs)], db=str(db), jobs=1, batch_hands=1)
    out.append(_players(db))
    _write(logs, "c.jsonl", [_session("s4", ["Ana Kos", None, None, "Nina"], ids),
                             _session("s5", [None, None, None, None], ids)])  # fmt: skip
    ig.ingest([str(logs)], db=str(db), jobs=1, batch_hands=1)
    out.append(_players(db))
    _write(logs, "a.jsonl", [_session("s1", ["Anica", None, None, None])])  # a changed file
    ig.ingest([str(logs)], db=str(db), jobs=1, batch_hands=1)
    out.append(_players(db))
    return out


def test_players_are_the_same_with_and_without_the_skip(tmp_path, monkeypatch):
    calls = {"skipped": 0}
    real = ig._Writer._batch_players

    def counting(self, t):
        r = real(self, t)
        calls["skipped"] += r is None
        return r

    monkeypatch.setattr(ig._Writer, "_batch_players", counting)
    skipping = _run(tmp_path, "skip")
    assert calls["skipped"] > 0
    monkeypatch.setattr(ig._Writer, "_batch_players", lambda self, t: {"always": None})
    always = _run(tmp_path, "always")
    assert skipping == always
    names = {pid: name for pid, name, _ in skipping[-1]}
    assert names["ana.kos"] == "Anica" and names["nina.potocnik"] == "Nina"


@pytest.mark.parametrize("jobs", [2])
def test_a_parallel_ingest_stores_the_same_players(tmp_path, jobs):
    logs = tmp_path / "logs"
    logs.mkdir()
    ids = ["ana.kos", "bojan.zupan", "cene.novak", "nina.potocnik"]
    for i in range(4):
        _write(
            logs,
            f"f{i}.jsonl",
            [_session(f"s{i}", ["Ana" if i else None, None, None, f"N{i}"], ids)],
        )
    ig.ingest([str(logs)], db=str(tmp_path / "p.duckdb"), jobs=jobs, batch_hands=1)
    ig.ingest([str(logs)], db=str(tmp_path / "s.duckdb"), jobs=1, batch_hands=1)
    assert _players(tmp_path / "p.duckdb") == _players(tmp_path / "s.duckdb")
