"""Small hand-made logs for the store and statistics tests.

``stats_dataset()`` is a known dataset scored by ``tests/support/store_toy_engine.py``: two
sessions, six hands, every figure of ``tests/store/test_stats.py`` derived from it by hand in
that file; ``ingest_samples()`` a store of sample logs for the read API and view-model tests.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tarock_logs.cards import PACKS

PLAYERS = {"a": "Ana", "b": "Bor", "c": "Cene", "d": "Dani"}

_PACK = list(PACKS["slovenian"])
# four 12-card chunks and the 6-card talon; T22 moved to chunk 0, T21 stays in chunk 1
C0 = [f"T{i}" for i in range(1, 12)] + ["T22"]
C1 = [f"T{i}" for i in range(12, 22)] + ["HK", "HQ"]
_REST = [c for c in _PACK if c not in C0 and c not in C1]
C2, C3, TALON = _REST[:12], _REST[12:24], _REST[24:]
CHUNKS = [C0, C1, C2, C3]


def deal(rot: int = 0) -> dict[str, Any]:
    """Seat ``s`` gets chunk ``(s + rot) % 4``."""
    return {"hands": [list(CHUNKS[(s + rot) % 4]) for s in range(4)], "talon": list(TALON)}


def act(t: str, seat: int, **kw: Any) -> dict[str, Any]:
    return {"type": t, "seat": seat, **kw}


def hand(
    number: int,
    dealer: int,
    rot: int,
    actions: list[dict[str, Any]],
    scores: list[int] | None,
    items: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    h: dict[str, Any] = {
        "number": number,
        "dealer": dealer,
        "deal": deal(rot),
        "actions": actions,
        **extra,
    }
    if scores is not None:
        h["result"] = {"scores": scores, "items": items or []}
    return h


def session(
    sid: str,
    players: list[str],
    hands: list[dict[str, Any]],
    *,
    game: str = "slovenian",
    ruleset: str = "toy-1",
    event: dict[str, Any] | None = None,
) -> dict[str, Any]:
    s: dict[str, Any] = {
        "format": "tarock-log",
        "format_version": 1,
        "id": sid,
        "game": game,
        "ruleset": ruleset,
        "players": [{"id": p, "name": PLAYERS.get(p)} for p in players],
        "hands": hands,
    }
    if event:
        s["event"] = event
    return s


def stats_dataset() -> list[dict[str, Any]]:
    """Two sessions, six hands (see tests/store/test_stats.py for the figures)."""
    s1 = session(
        "cup-r1",
        ["a", "b", "c", "d"],
        [
            # a three, calls HK (b holds it): a+b win 10 + announced trula made 10 = +20 each
            hand(
                1,
                3,
                0,
                [
                    act("bid", 0, contract="three"),
                    act("call", 0, card="HK"),
                    act("announce", 0, bonus="trula"),
                    act("meld", 0, meld="made:trula"),
                    act("meld", 0, meld="won"),
                    act("play", 1, card="T21"),
                    act("play", 2, card="HN"),
                    act("play", 3, card="D3"),
                    act("play", 0, card="T22"),
                ],
                [20, 20, 0, 0],
            ),
            # b two, calls HQ (holds it himself: alone), c kontras the game, b loses -40,
            # and b's mond falls to a's škis: mondfang -20 -> b -60
            hand(
                2,
                0,
                0,
                [
                    act("bid", 1, contract="two"),
                    act("call", 1, card="HQ"),
                    act("kontra", 2, target="game", level=1),
                    act("meld", 1, meld="lost"),
                    act("play", 1, card="T21"),
                    act("play", 2, card="H1"),
                    act("play", 3, card="D4"),
                    act("play", 0, card="T22"),
                ],
                [0, -60, 0, 0],
            ),
            # klop: a takes the one trick with the pagat: -5; everybody earns a radelc
            hand(
                3,
                1,
                0,
                [
                    act("bid", 2, contract="klop"),
                    act("play", 2, card="HN"),
                    act("play", 3, card="D3"),
                    act("play", 0, card="T1"),
                    act("play", 1, card="HK"),
                ],
                [-5, 0, 0, 0],
            ),
            # c solo three, won; d announces pagat ultimo and fails (+10 to c):
            # recomputed c +50, the scorer wrote only the contract: 40
            hand(
                4,
                2,
                0,
                [
                    act("bid", 2, contract="solo_three"),
                    act("announce", 3, bonus="pagat_ultimo"),
                    act("meld", 2, meld="won"),
                ],
                [0, 0, 40, 0],
                [{"item": "contract", "value": 40}],
            ),
        ],
        event={"name": "Cup", "tournament": "cup", "date": "2024-01-10", "round": 1},
    )
    s2 = session(
        "league-1",
        ["b", "c", "d", "a"],
        [
            # a (seat 3) three, calls HK held by b (seat 0): they lose -10 each;
            # c (seat 1) plays T5 which he does not hold: toy.not_held
            hand(
                1,
                3,
                1,
                [
                    act("bid", 3, contract="three"),
                    act("call", 3, card="HK"),
                    act("meld", 3, meld="lost"),
                    act("play", 0, card="T21"),
                    act("play", 1, card="T5"),
                    act("play", 2, card="SK"),
                    act("play", 3, card="T22"),
                ],
                [-10, 0, 0, -10],
            ),
            # c (seat 1) one, calls DK which he holds: alone, wins +30; a renons by d (seat 2)
            hand(
                2,
                0,
                1,
                [
                    act("bid", 1, contract="one"),
                    act("call", 1, card="DK"),
                    act("meld", 1, meld="won"),
                ],
                [0, 30, 0, 0],
                irregularities=[{"type": "renons", "offender": 2, "kind": "illegal_card"}],
            ),
        ],
        event={"name": "League", "date": "2024-02-05"},
    )
    return [s1, s2]


def write_json(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1))
    return path


def write_jsonl(path: Path, docs: list[Any], extra_lines: list[str] = ()) -> Path:  # type: ignore[assignment]
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(d) for d in docs] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n")
    return path


def reverse_scores_of_first_session(path: Path) -> None:
    """Reverse every hand's recorded scores in the JSONL file's first session (its placements
    turn round, its players' ratings and summaries move)."""
    lines = path.read_text("utf-8").splitlines()
    doc = json.loads(lines[0])
    for hand in doc["hands"]:
        if hand.get("result") and hand["result"].get("scores"):
            hand["result"]["scores"] = hand["result"]["scores"][::-1]
    lines[0] = json.dumps(doc, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", "utf-8")


def bad_hand(h: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``h`` whose deal gives one card twice (deal.duplicate_card)."""
    b = copy.deepcopy(h)
    b["deal"]["hands"][0][0] = b["deal"]["hands"][1][0]
    return b


@pytest.fixture
def toy_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Score ``slovenian`` logs with the toy engine for this test."""
    import tarock_logs.rules as rules

    monkeypatch.setitem(rules._ENGINES, "slovenian", "tests.support.store_toy_engine")


def stored_rows(db: Path) -> dict[str, list[tuple]]:
    """Every stored row of every store table (the writer's timestamps left out), sorted: two
    databases with equal ``stored_rows`` hold the same data."""
    import duckdb

    from tarock_logs.store.write.process import KEYED_ONLY, SCHEMAS

    def select(name: str, names: list[str]) -> str:
        if name not in KEYED_ONLY:
            return f"SELECT {', '.join(names)} FROM {name}"
        # rows keyed by hand_key alone: their hand's id instead (keys differ between stores)
        cols = ", ".join("h.hand_id" if c == "hand_id" else f"t.{c}" for c in names)
        return f"SELECT {cols} FROM {name} t JOIN hands h ON h.hand_key = t.hand_key"

    con = duckdb.connect(str(db), read_only=True)
    try:
        return {name: sorted(con.execute(select(name, sch.names)).fetchall(), key=repr)
                for name, sch in SCHEMAS.items()}  # fmt: skip
    finally:
        con.close()


ROOT = Path(__file__).resolve().parents[2]
#: The spec's Appendix B hands and the disputed round (illegal cards, wrong score items,
#: swapped placement points), the logs the read API and view-model tests ingest.
APPENDIX_B = ROOT / "sample_logs" / "slovenian" / "appendix-b.json"
DISPUTED = ROOT / "sample_logs" / "disputed" / "round-1.jsonl"


def ingest_samples(base: Path) -> Path:
    """Ingest :data:`APPENDIX_B` and :data:`DISPUTED` into ``base/t.duckdb``; its path."""
    from tarock_logs.store.write.ingest import ingest

    db = base / "t.duckdb"
    ingest([str(APPENDIX_B), str(DISPUTED)], db=str(db))
    return db


def stored_hand_id(cur: Any, session: str, number: int) -> str:
    """The stored id of hand ``number`` of ``session``."""
    rows = cur.execute(
        "SELECT hand_id FROM hands WHERE session_id = ? AND number = ?", [session, number]
    ).fetchall()
    return str(rows[0][0])


def store_at_version(con: Any, version: int) -> None:
    """Bring the empty database ``con`` to schema ``version`` as an older program would have
    left it: migrations 1..``version`` applied and recorded, nothing newer."""
    from tarock_logs.store.schema import migrations

    con.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL,"
        " applied_at TIMESTAMPTZ NOT NULL, checksum VARCHAR NOT NULL)"
    )
    for m in migrations()[:version]:
        con.execute(m.sql)
        con.execute(
            "INSERT INTO schema_migrations VALUES (?, ?, current_timestamp, ?)",
            [m.version, m.name, m.checksum],
        )


#: columns that hold the time of a run, not its content
RUN_TIMES = {"applied_at", "ingested_at", "rejected_at", "computed_at"}


def store_content(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the store ``db`` as its sorted rows, without the times of the run and the
    pseudonym key (random per store): two stores with the same content compare equal."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [t for (t,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY 1"
        ).fetchall()]  # fmt: skip
        out = {}
        for t in tables:
            cols = [c for c in con.table(t).columns if c not in RUN_TIMES]
            quoted = ", ".join('"' + c + '"' for c in cols)
            where = " WHERE key <> 'pseudonym_key'" if t == "meta" else ""
            rows = con.execute(f"SELECT {quoted} FROM {t}{where}").fetchall()
            out[t] = sorted(rows, key=repr)
        return out
    finally:
        con.close()
