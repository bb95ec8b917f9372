"""Helpers for the dashboard tests: a real DuckDB file built by the library's ingest.

The database holds every log under ``sample_logs/`` (except the deliberately malformed ones)
plus one disputed session made here from the spec's Appendix B hand B.1: a wrong recorded
score item (a *discrepancy*) and, when the Slovenian engine is available, a card swapped so
that a player fails to follow suit (an *illegal action*) at a known action index.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboard" / "app.py"
TAROCK = Path(sys.executable).with_name("tarock")
APPENDIX_B = ROOT / "sample_logs" / "slovenian" / "appendix-b.json"
DISPUTED_ID = "dash-disputed"


@dataclass(frozen=True)
class DashDB:
    """The test database and what was planted in it."""

    path: Path
    logs: Path
    disputed_session: str
    illegal_index: int  # 0-based action index of the planted illegal card


def _plant_illegal_play(hand: dict[str, Any]) -> int | None:
    """Swap two plays of one seat so that the first becomes illegal; the action index of the
    first illegal action, or None without an engine (or if no swap yields one)."""
    from tarock_logs.log.models import SessionAdapter
    from tarock_logs.rules import get_engine
    from tarock_logs.verdict.replay import replay_hand

    if get_engine("slovenian") is None:
        return None
    acts = hand["actions"]
    plays = [i for i, a in enumerate(acts) if a["type"] == "play"]
    for i in plays:
        for j in plays:
            if j <= i or acts[j]["seat"] != acts[i]["seat"]:
                continue
            trial = copy.deepcopy(hand)
            ta = trial["actions"]
            ta[i]["card"], ta[j]["card"] = ta[j]["card"], ta[i]["card"]
            probe = {**_b1(), "id": "probe", "hands": [trial]}
            s = SessionAdapter.validate_python(probe, strict=False)
            r = replay_hand(s, 0, with_views=False)
            bad = [v.action_index for v in r.violations if v.severity == "error"]
            if r.complete and bad and min(bad) == i:
                hand["actions"] = ta
                return i
    return None


def _b1() -> dict[str, Any]:
    """The spec's hand B.1 (a won "three" with pagat ultimo) as the sample log has it."""
    sessions = json.loads(APPENDIX_B.read_text(encoding="utf-8"))
    return copy.deepcopy(next(s for s in sessions if s["id"].endswith("b1")))


def _disputed_session() -> tuple[dict[str, Any], int]:
    sess = _b1()
    h1 = sess["hands"][0]
    result = h1["result"]
    contract = next(i for i in result["items"] if i["item"] == "contract")
    contract["value"] += 5  # the scorer wrote the contract 5 points too high
    result["scores"] = [s + 5 if s > 0 else s for s in result["scores"]]
    idx = _plant_illegal_play(h1)
    assert idx is not None, "no illegal card could be planted in hand B.1"
    sess["id"] = DISPUTED_ID
    sess["event"] = {"tournament": "dash-cup", "name": "Dashboard Cup", "round": 1, "table": "A",
                     "date": "2026-11-28"}  # fmt: skip
    sess.pop("recorded", None)
    return sess, idx


def build_logs(dest: Path) -> int:
    """Copy the sample logs into ``dest`` and add the disputed session."""
    src = ROOT / "sample_logs"
    if src.is_dir():
        shutil.copytree(src, dest, ignore=shutil.ignore_patterns("malformed", "README*"))
    dest.mkdir(parents=True, exist_ok=True)
    sess, idx = _disputed_session()
    (dest / "dash-disputed.json").write_text(json.dumps(sess), encoding="utf-8")
    return idx


def ingest(logs: Path, db: Path) -> None:
    """The library's ingest: ``tarock ingest`` when the command exists (it then writes the
    database), else its function."""
    subprocess.run(
        [str(TAROCK), "ingest", str(logs), "--db", str(db)], check=False, capture_output=True
    )
    if db.is_file():
        return
    from tarock_logs.store.write.ingest import ingest as ingest_fn

    ingest_fn([str(logs)], db=str(db))


def hand_ids(db: Path) -> dict[str, Any]:
    """Stored facts the tests check against: hand ids per session, disputed hands (read with
    the dashboard's own connection settings: DuckDB refuses a second configuration of an open
    database in one process)."""
    from tarock_logs.store.read.queries import connect_reader

    con = connect_reader(db)
    try:
        rows = con.execute(
            "SELECT hand_id, session_id, number, n_violations, n_discrepancies, n_actions "
            "FROM hands ORDER BY session_id, number"
        ).fetchall()
        viol = con.execute(
            "SELECT hand_id, min(action_index) FROM violations WHERE severity = 'error' "
            "AND action_index IS NOT NULL GROUP BY hand_id"
        ).fetchall()
    finally:
        con.close()
    return {
        "hands": [
            dict(zip(("hand_id", "session", "number", "nv", "nd", "na"), r, strict=True))
            for r in rows
        ],
        "first_violation": dict(viol),
    }


os.environ.setdefault("STREAMLIT_BROWSER_GATHER_USAGE_STATS", "false")
