"""Queries and view models behind the dashboard (no Streamlit here: the dashboard only presents).

Every query takes a DuckDB cursor of a **read-only** connection as its first argument, binds
values with ``?`` and drains its result. The replay of one hand starts from the session as
logged (read again from its unchanged log file, else rebuilt from the raw facts the store
keeps, see :func:`load_session`) and runs through :mod:`tarock_logs.verdict.replay`; the verdicts and
score items shown beside it are the ones the ingest's audit stored.

Glossary used below: a *step* is the state after one action (step 0 is the deal, before any
action; step ``k`` is after the action with 0-based index ``k - 1``); a *finding* is an
illegal action (a *violation*, citing the rule it breaks), a *discrepancy* (a score item whose
recorded value differs from the recomputed one) or an *unverified* item (something the engine
could not check).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

#: Kinds of finding the audit page filters on.
FINDING_KINDS = ("illegal", "discrepancy", "unverified")

_PSEUDO_ADJ = (
    "Amber", "Brisk", "Cobalt", "Dusky", "Elder", "Fleet", "Gilded", "Hazel", "Ivory", "Jade",
    "Keen", "Lunar", "Mossy", "Noble", "Olive", "Plum", "Quiet", "Russet", "Silver", "Tawny",
)  # fmt: skip
_PSEUDO_NOUN = (
    "Badger", "Crane", "Falcon", "Heron", "Ibex", "Lynx", "Marten", "Otter", "Owl", "Raven",
    "Stoat", "Swift", "Viper", "Wolf", "Wren", "Yak", "Bison", "Finch", "Gecko", "Hare",
)  # fmt: skip


def pseudonym(name: str) -> str:
    """A stable pseudonym for a player name (same name → same pseudonym, in every view)."""
    h = hashlib.sha256(name.encode("utf-8")).digest()
    return f"{_PSEUDO_ADJ[h[0] % 20]} {_PSEUDO_NOUN[h[1] % 20]} {h[2] % 100:02d}"


# --------------------------------------------------------------------------- connection


def file_signature(path: Path) -> tuple[str, int, int]:
    """(path, inode, mtime in ns): changes whenever the database file is replaced."""
    st = os.stat(path)
    return (str(path), st.st_ino, st.st_mtime_ns)


def connect_readonly(
    path: Path, retries: int = 40, delay: float = 0.05
) -> duckdb.DuckDBPyConnection:
    """Open ``path`` read-only (the store's helper: retries briefly on lock errors), with
    the dashboard's modest resource settings."""
    from tarock_logs.store.connect import connect_readonly as store_connect

    con = store_connect(path, retries=retries, delay=delay)
    con.execute("SET threads = 2")
    return con


def _df(cur: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
    return cur.sql(sql, params=params or None).pl()


def _rows(
    cur: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None
) -> list[tuple[Any, ...]]:
    return cur.execute(sql, params or []).fetchall()


# --------------------------------------------------------------------------- the view model


@dataclass(frozen=True)
class HandView:
    """Everything the replay viewer and the audit detail show for one hand."""

    hand_id: str
    session_id: str
    number: int
    game: str
    ruleset: str
    event: dict[str, Any]
    players: list[str]  # names (or ids) by seat
    dealer: int
    deal: list[list[str]]  # cards dealt to each seat
    talon: list[str]
    actions: list[Any]  # the log's actions (models)
    steps: list[Any]  # replay steps: step 0 = the deal
    violations: list[dict[str, Any]]
    score_rows: list[dict[str, Any]]  # item, seat, recorded, recomputed, delta
    totals: dict[str, list[int] | None]  # recorded / recomputed per seat
    unverified: list[str]
    contract: str | None
    declarer: int | None
    partner: int | None
    won: bool | None
    prev_hand: str | None = None
    next_hand: str | None = None
    replay: Any = field(default=None, repr=False)  # the HandReplay
    session: Any = field(default=None, repr=False)
    hand: Any = field(default=None, repr=False)

    @property
    def n_steps(self) -> int:
        """Index of the last step (= number of actions)."""
        return len(self.actions)

    def first_problem_step(self) -> int | None:
        """The step right after the first illegal action (where the viewer highlights it)."""
        idx = [v["action_index"] for v in self.violations if v.get("action_index") is not None]
        return min(idx) + 1 if idx else None


# --------------------------------------------------------------------------- overview and lists


def overview(cur: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Counts for the landing page."""
    row = _rows(
        cur,
        """
        SELECT
          (SELECT count(*) FROM sessions),
          (SELECT count(*) FROM hands),
          (SELECT count(*) FROM hands WHERE n_violations > 0),
          (SELECT count(*) FROM hands WHERE n_discrepancies > 0),
          (SELECT count(*) FROM hands WHERE NOT verified),
          (SELECT count(*) FROM players),
          (SELECT count(*) FROM rejects)
        """,
    )[0]
    keys = ("sessions", "hands", "illegal", "discrepancy", "unverified", "players", "rejects")
    return dict(zip(keys, (int(x) for x in row), strict=True))


def rejects(cur: duckdb.DuckDBPyConnection, limit: int = 500) -> pl.DataFrame:
    """Records the ingest refused (first error code and count), by file and line."""
    return _df(
        cur,
        """SELECT file, line, session, hand, first_code, n_errors FROM rejects
           ORDER BY file, line NULLS LAST, hand NULLS LAST LIMIT ?""",
        [limit],
    )


def hands_index(cur: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every stored hand with its session facts and kinds of finding, in playing order.

    Columns: hand_id, session_id, number, game, ruleset, event, tournament, round, table, date,
    contract, declarer, won, n_violations, n_discrepancies, verified, players (names by seat),
    player_ids, illegal, discrepancy, unverified, label.
    """
    df = _df(
        cur,
        """
        SELECT h.hand_id, h.session_id, h.number, CAST(h.game AS VARCHAR) AS game,
               coalesce(h.ruleset, s.ruleset) AS ruleset,
               coalesce(s.event_name, s.tournament) AS event, s.tournament,
               CAST(s.round AS INTEGER) AS round, s.table_name AS "table", s.date,
               h.contract, CAST(h.declarer AS INTEGER) AS declarer, h.won,
               h.n_violations, h.n_discrepancies, h.verified,
               p.players, p.player_ids
        FROM hands h
        JOIN sessions s ON s.session_id = h.session_id
        LEFT JOIN (
            SELECT sp.session_id,
                   list(coalesce(pl.name, sp.player_id) ORDER BY sp.seat) AS players,
                   list(sp.player_id ORDER BY sp.seat) AS player_ids
            FROM session_players sp LEFT JOIN players pl USING (player_id)
            GROUP BY sp.session_id
        ) p ON p.session_id = h.session_id
        ORDER BY s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST,
                 s.table_name NULLS LAST, h.session_id, h.number
        """,
    )
    return df.with_columns(
        illegal=pl.col("n_violations") > 0,
        discrepancy=pl.col("n_discrepancies") > 0,
        unverified=~pl.col("verified"),
        label=pl.format("{} · hand {}", pl.col("session_id"), pl.col("number")),
    )


def filter_hands(
    df: pl.DataFrame,
    *,
    event: str | None = None,
    round: int | None = None,  # noqa: A002 - the tournament round
    table: str | None = None,
    player: str | None = None,
    game: str | None = None,
    kinds: list[str] | tuple[str, ...] | None = None,
    findings_only: bool = False,
) -> pl.DataFrame:
    """Filter :func:`hands_index`'s frame; ``kinds`` keeps hands with any of those findings."""
    out = df
    if event:
        out = out.filter(pl.col("event") == event)
    if round is not None:
        out = out.filter(pl.col("round") == round)
    if table:
        out = out.filter(pl.col("table") == table)
    if player:
        out = out.filter(
            pl.col("players").list.contains(player) | pl.col("player_ids").list.contains(player)
        )
    if game:
        out = out.filter(pl.col("game") == game)
    selected = [k for k in (kinds or ()) if k in FINDING_KINDS]
    if findings_only and not selected:
        selected = list(FINDING_KINDS)
    if selected:
        out = out.filter(pl.any_horizontal([pl.col(k) for k in selected]))
    return out


def sessions_index(cur: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every session in playing order with a readable label and its number of stored hands."""
    return _df(
        cur,
        """
        SELECT s.session_id,
               concat_ws(' · ', coalesce(s.event_name, s.tournament),
                         CASE WHEN s.round IS NOT NULL THEN 'round ' || s.round END,
                         CASE WHEN s.table_name IS NOT NULL THEN 'table ' || s.table_name END,
                         s.session_id) AS label,
               (SELECT count(*) FROM hands h WHERE h.session_id = s.session_id) AS n_hands
        FROM sessions s
        ORDER BY s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST,
                 s.table_name NULLS LAST, s.session_id
        """,
    )


def session_hands(cur: duckdb.DuckDBPyConnection, session_id: str) -> pl.DataFrame:
    """The stored hands of one session in order: hand_id, number, contract, illegal, discrepancy."""
    return _df(
        cur,
        """SELECT hand_id, number, contract, n_violations > 0 AS illegal,
                  n_discrepancies > 0 AS discrepancy, NOT verified AS unverified
           FROM hands WHERE session_id = ? ORDER BY number""",
        [session_id],
    )


def hand_session(cur: duckdb.DuckDBPyConnection, hand_id: str) -> str | None:
    """The session of a stored hand, or None (deep-link parameters are checked with this)."""
    rows = _rows(cur, "SELECT session_id FROM hands WHERE hand_id = ? LIMIT 1", [hand_id])
    return str(rows[0][0]) if rows else None


_HAND_ORDER = """
    SELECT h.hand_id, h.session_id,
           row_number() OVER (ORDER BY s.date NULLS LAST, s.tournament NULLS LAST,
                              s.round NULLS LAST, s.table_name NULLS LAST, h.session_id,
                              h.number) AS k
    FROM hands h JOIN sessions s ON s.session_id = h.session_id
"""


def player_neighbour_hand(
    cur: duckdb.DuckDBPyConnection, hand_id: str, player_id: str, forward: bool = True
) -> tuple[str, str] | None:
    """The next (or previous) hand in playing order at which ``player_id`` sat, as
    ``(hand_id, session_id)``, or None."""
    cmp, order = (">", "ASC") if forward else ("<", "DESC")
    rows = _rows(
        cur,
        f"""
        WITH o AS ({_HAND_ORDER})
        SELECT o.hand_id, o.session_id FROM o
        JOIN session_players sp ON sp.session_id = o.session_id AND sp.player_id = ?
        WHERE o.k {cmp} (SELECT k FROM o WHERE hand_id = ?)
        ORDER BY o.k {order} LIMIT 1
        """,
        [player_id, hand_id],
    )
    return (str(rows[0][0]), str(rows[0][1])) if rows else None


def hand_findings(cur: duckdb.DuckDBPyConnection, hand_id: str) -> dict[str, Any]:
    """The stored verdicts of one hand: violations, score items, totals, unverified."""
    viol = _df(
        cur,
        """SELECT action_index, CAST(seat AS INTEGER) AS seat, code,
                  CAST(severity AS VARCHAR) AS severity, message, rule, card
           FROM violations WHERE hand_id = ? ORDER BY action_index NULLS LAST, code""",
        [hand_id],
    )
    items = _df(
        cur,
        """SELECT item, CAST(seat AS INTEGER) AS seat, recorded, recomputed, delta
           FROM score_items WHERE hand_id = ? ORDER BY item, seat NULLS FIRST""",
        [hand_id],
    )
    totals = _df(
        cur,
        """SELECT CAST(seat AS INTEGER) AS seat, player_id, CAST(role AS VARCHAR) AS role,
                  recorded_total, recomputed_total, delta
           FROM hand_scores WHERE hand_id = ? ORDER BY seat""",
        [hand_id],
    )
    unv = _rows(cur, "SELECT unverified FROM hands WHERE hand_id = ?", [hand_id])
    return {
        "violations": viol.to_dicts(),
        "items": items.to_dicts(),
        "totals": totals.to_dicts(),
        "unverified": list(unv[0][0] or []) if unv else [],
    }


def hand_exists(cur: duckdb.DuckDBPyConnection, hand_id: str) -> bool:
    """Whether ``hand_id`` is a stored hand (deep-link parameters are checked with this)."""
    return bool(_rows(cur, "SELECT 1 FROM hands WHERE hand_id = ? LIMIT 1", [hand_id]))


# --------------------------------------------------------------------------- session from the store

_ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "bid": ("contract",),
    "pass": (),
    "call": ("card",),
    "talon": ("group",),
    "discard": ("cards", "shown"),
    "announce": ("bonus", "side", "params", "raises"),
    "kontra": ("target", "level"),
    "lezim": (),
    "play": ("card",),
    "throw_in": (),
    "claim": ("claim", "cards"),
    "meld": ("meld", "params"),
}


def _json(value: Any) -> Any:
    if isinstance(value, str):
        import orjson

        return orjson.loads(value)
    return value


def _action_dict(row: dict[str, Any]) -> dict[str, Any]:
    t = row["type"]
    d: dict[str, Any] = {"type": t, "seat": int(row["seat"])}
    for f in _ACTION_FIELDS.get(t, ()):
        col = "talon_group" if f == "group" else f
        v = row.get(col)
        if f == "params":
            v = _json(v) or {}
        elif f in ("cards", "shown"):
            v = list(v or [])
        if v is None:
            continue
        d[f] = int(v) if f in ("group", "level") else v
    if row.get("note"):
        d["note"] = row["note"]
    return d


def _irregularity_dict(row: dict[str, Any]) -> dict[str, Any]:
    detail = _json(row.get("detail"))
    if isinstance(detail, dict) and detail.get("type") == row["type"]:
        return detail
    t = row["type"]
    if t == "renons":
        d = {"type": t, "offender": row["seat"], "called_by": row["called_by"],
             "kind": row["kind"] or "other", "action_index": row["action_index"],
             "trick": row["trick"], "upheld": True if row["upheld"] is None else row["upheld"]}  # fmt: skip
    elif t == "misdeal":
        d = {"type": t, "seat": row["seat"], "penalty": row["points"]}
    elif t == "penalty":
        d = {"type": t, "seat": row["seat"], "points": row["points"] or 0,
             "unit": row["unit"] or "game"}  # fmt: skip
    else:
        d = {
            "type": t,
            "decision": (detail or {}).get("decision", "(ruling)")
            if isinstance(detail, dict)
            else "(ruling)",
        }
        if isinstance(detail, dict) and detail.get("adjustments"):
            d["adjustments"] = detail["adjustments"]
    return {k: v for k, v in d.items() if v is not None}


def _session_from_source(cur: duckdb.DuckDBPyConnection, s: dict[str, Any]) -> Any:
    """The session exactly as logged, read again from its file, if that file is still where
    the ingest found it and unchanged (same sha256); else None."""
    from tarock_logs.log.reader import read_file
    from tarock_logs.store.sources import sha256_file

    file = s.get("file")
    if not file:
        return None
    known = _rows(cur, "SELECT sha256 FROM raw_logs WHERE file = ?", [file])
    path = Path(file)
    if not known or not path.is_file():
        return None
    try:
        if sha256_file(path)[0] != known[0][0]:
            return None
        for rec in read_file(path):
            if rec.session is not None and rec.session.id == s["session_id"]:
                if s.get("line") is None or rec.line is None or rec.line == s["line"]:
                    return rec.session
    except OSError:
        return None
    return None


def load_session(
    cur: duckdb.DuckDBPyConnection, session_id: str, *, prefer_source: bool = True
) -> tuple[Any, list[str]] | None:
    """The session of the log with its stored hands' ids (``hand_id`` = the audit's content
    hash), or None for an unknown session.

    With ``prefer_source`` the session is read again from its log file when that file is
    unchanged since the ingest (exact: it keeps what the store does not, such as the source's
    hand ids); otherwise it is rebuilt from the store's raw facts (sessions, players, deals,
    actions, irregularities, recorded results). Either way only the stored hands are included,
    in playing order, and ``ids[i]`` is the id of ``session.hands[i]``.
    """
    from tarock_logs.log.models import SessionAdapter

    srows = _df(cur, "SELECT * FROM sessions WHERE session_id = ? LIMIT 1", [session_id]).to_dicts()
    if not srows:
        return None
    s = srows[0]
    if prefer_source:
        from tarock_logs.verdict.audit import hand_content_hash

        exact = _session_from_source(cur, s)
        if exact is not None:
            stored = {
                r[0]
                for r in _rows(cur, "SELECT hand_id FROM hands WHERE session_id = ?", [session_id])
            }
            pairs = [(h, hand_content_hash(exact, h)) for h in exact.hands]
            kept = [(h, hid) for h, hid in pairs if hid in stored]
            if {hid for _, hid in kept} == stored:
                session = exact.model_copy(update={"hands": [h for h, _ in kept]})
                return session, [hid for _, hid in kept]
    players = _df(
        cur,
        """SELECT sp.seat, sp.player_id, pl.name, sp.pair, sp.role
           FROM session_players sp LEFT JOIN players pl USING (player_id)
           WHERE sp.session_id = ? ORDER BY sp.seat""",
        [session_id],
    ).to_dicts()
    hands = _df(
        cur,
        """SELECT hand_id, number, dealer, deal, result, notes FROM hands
           WHERE session_id = ? ORDER BY number""",
        [session_id],
    ).to_dicts()
    ids = [h["hand_id"] for h in hands]
    acts = _df(
        cur,
        "SELECT * EXCLUDE (legal, violation_code) FROM actions WHERE hand_id IN "
        "(SELECT hand_id FROM hands WHERE session_id = ?) ORDER BY hand_id, idx",
        [session_id],
    ).with_columns(pl.col("type").cast(pl.String))
    irr = _df(
        cur,
        "SELECT * FROM irregularities WHERE hand_id IN "
        "(SELECT hand_id FROM hands WHERE session_id = ?) ORDER BY hand_id, idx",
        [session_id],
    )
    acts_by: dict[str, list[dict[str, Any]]] = {}
    for row in acts.to_dicts():
        acts_by.setdefault(row["hand_id"], []).append(_action_dict(row))
    irr_by: dict[str, list[dict[str, Any]]] = {}
    for row in irr.to_dicts():
        irr_by.setdefault(row["hand_id"], []).append(_irregularity_dict(row))
    event = {
        "tournament": s.get("tournament"), "name": s.get("event_name"),
        "date": str(s["date"]) if s.get("date") else None, "site": s.get("site"),
        "round": s.get("round"), "table": s.get("table_name"),
    }  # fmt: skip
    event = {k: v for k, v in event.items() if v is not None}
    doc: dict[str, Any] = {
        "format": "tarock-log",
        "format_version": 1,
        "id": s["session_id"],
        "game": str(s["game"]),
        "ruleset": s["ruleset"],
        "options": _json(s.get("options")) or {},
        "players": [
            {
                k: v
                for k, v in {
                    "id": p["player_id"],
                    "name": p["name"],
                    "pair": p["pair"],
                    "role": p["role"],
                }.items()
                if v is not None
            }  # fmt: skip
            for p in players
        ],
        "hands": [],
    }
    if event:
        doc["event"] = event
    if s.get("first_dealer") is not None:
        doc["first_dealer"] = int(s["first_dealer"])
    rec = _rows(
        cur,
        """SELECT list(recorded_session_total ORDER BY seat), list(placement_points ORDER BY seat)
           FROM session_scores WHERE session_id = ?""",
        [session_id],
    )
    if rec and rec[0][0] is not None:
        totals, pp = rec[0]
        recorded: dict[str, Any] = {}
        if totals and all(x is not None for x in totals):
            recorded["totals"] = [int(x) for x in totals]
        if pp and all(x is not None for x in pp):
            recorded["placement_points"] = [
                int(x) if float(x).is_integer() else float(x) for x in pp
            ]
        if recorded:
            doc["recorded"] = recorded
    for h in hands:
        hd: dict[str, Any] = {
            "number": int(h["number"]),
            "dealer": int(h["dealer"]),
            "deal": _json(h["deal"]),
            "actions": acts_by.get(h["hand_id"], []),
            "irregularities": irr_by.get(h["hand_id"], []),
        }
        if h.get("result") is not None:
            hd["result"] = _json(h["result"])
        if h.get("notes"):
            hd["notes"] = h["notes"]
        doc["hands"].append(hd)
    session = SessionAdapter.validate_python(doc, strict=False)
    return session, ids


def _replay_with_carry(session: Any, index: int) -> Any:
    """Replay hand ``index`` with views after the session's earlier hands (without views), so
    that what carries from hand to hand (radelci) is right."""
    from tarock_logs.verdict.replay import replay_in_session

    return replay_in_session(session, index)


def hand_view(cur: duckdb.DuckDBPyConnection, hand_id: str) -> HandView | None:
    """Build the viewer's model of one stored hand (None if ``hand_id`` is unknown)."""
    rows = _df(
        cur,
        """SELECT h.session_id, h.number, CAST(h.game AS VARCHAR) AS game,
                  coalesce(h.ruleset, s.ruleset) AS ruleset, h.contract,
                  CAST(h.declarer AS INTEGER) AS declarer, CAST(h.partner AS INTEGER) AS partner,
                  h.won, s.event_name, s.tournament, CAST(s.round AS INTEGER) AS round,
                  s.table_name, s.date
           FROM hands h JOIN sessions s ON s.session_id = h.session_id
           WHERE h.hand_id = ? LIMIT 1""",
        [hand_id],
    ).to_dicts()
    if not rows:
        return None
    r = rows[0]
    loaded = load_session(cur, r["session_id"])
    if loaded is None:
        return None
    session, ids = loaded
    index = ids.index(hand_id)
    hand = session.hands[index]
    replay = _replay_with_carry(session, index)
    found = hand_findings(cur, hand_id)
    rec = [t["recorded_total"] for t in found["totals"]]
    reco = [t["recomputed_total"] for t in found["totals"]]
    players = [p.name or p.id for p in session.players]
    event = {
        "name": r["event_name"], "tournament": r["tournament"], "round": r["round"],
        "table": r["table_name"], "date": str(r["date"]) if r["date"] else None,
    }  # fmt: skip
    return HandView(
        hand_id=hand_id,
        session_id=r["session_id"],
        number=int(r["number"]),
        game=r["game"],
        ruleset=replay.ruleset_id or r["ruleset"],
        event=event,
        players=players,
        dealer=hand.dealer,
        deal=[list(h) for h in hand.deal.hands],
        talon=list(hand.deal.talon),
        actions=list(hand.actions),
        steps=list(replay.steps),
        violations=found["violations"],
        score_rows=found["items"],
        totals={
            "recorded": rec if any(x is not None for x in rec) else None,
            "recomputed": reco if any(x is not None for x in reco) else None,
        },
        unverified=found["unverified"] or list(replay.unverified),
        contract=r["contract"],
        declarer=r["declarer"],
        partner=r["partner"],
        won=r["won"],
        prev_hand=ids[index - 1] if index > 0 else None,
        next_hand=ids[index + 1] if index + 1 < len(ids) else None,
        replay=replay,
        session=session,
        hand=hand,
    )


# --------------------------------------------------------------------------- replay helpers (pure)


def action_text(action: Any, players: list[str] | None = None) -> str:
    """A readable line for one action: ``"Ana: play HK"``, ``"Bor: bid three"``."""
    if action is None:
        return "deal"
    who = (
        players[action.seat]
        if players and 0 <= action.seat < len(players)
        else f"seat {action.seat}"
    )
    t = action.type
    arg: str | None
    if t == "discard":
        arg = " ".join(action.cards)
    elif t == "talon":
        arg = f"group {action.group}"
    elif t == "kontra":
        lvl = {1: "kontra", 2: "rekontra", 3: "subkontra", 4: "mordkontra"}.get(action.level or 1)
        arg = f"{lvl} on {action.target or 'game'}"
        t = ""
    elif t == "claim":
        arg = action.claim
    else:
        arg = action.card or action.contract or action.bonus or action.meld
    return f"{who}: " + " ".join(x for x in (t, arg) if x)


def phase_marks(steps: list[Any], n_active: int = 4) -> list[tuple[str, int]]:
    """Where to jump: the first step of each phase and of each trick, plus the end.

    Returns ``(label, step)`` pairs in step order: ``("bidding", 1)``, ``("trick 1", 23)``…
    A trick's step is the one where its first card is on the table (read from the engine's
    view; without views every ``n_active`` plays start a trick).
    """
    marks: list[tuple[str, int]] = [("deal", 0)] if steps else []
    last = None
    plays = 0
    trick_no = 0
    for st in steps[1:]:
        action = st.action
        if action is None:
            continue
        if action.type == "play":
            view = st.view or {}
            starts = (
                (len(view.get("trick") or []) == 1) if "trick" in view else plays % n_active == 0
            )
            plays += 1
            if starts:
                trick_no += 1
                marks.append((f"trick {trick_no}", st.index))
            last = "play"
            continue
        label = _PHASE_OF.get(action.type, action.type)
        if label != last:
            marks.append((label, st.index))
            last = label
    if steps:
        marks.append(("end", len(steps) - 1))
    return marks


_PHASE_OF = {
    "bid": "bidding", "pass": "bidding", "call": "king call", "talon": "talon",
    "discard": "talon", "announce": "announcements", "kontra": "announcements",
    "lezim": "announcements", "claim": "claim",
}  # fmt: skip


def played_by_seat(view: dict[str, Any], n_seats: int) -> list[list[str]]:
    """Cards each seat has played so far (completed tricks and the trick on the table)."""
    out: list[list[str]] = [[] for _ in range(n_seats)]
    for t in view.get("tricks") or []:
        for seat, card in t.get("cards") or []:
            if 0 <= seat < n_seats:
                out[seat].append(card)
    for seat, card in view.get("trick") or []:
        if 0 <= seat < n_seats:
            out[seat].append(card)
    return out


def trick_rows(
    view: dict[str, Any], players: list[str], declarer_side: set[int]
) -> list[dict[str, Any]]:
    """The trick list: leader, cards, winner, card points and the running totals per side."""
    rows = []
    run_decl = run_opp = 0
    for i, t in enumerate(view.get("tricks") or [], start=1):
        pts = t.get("points")
        winner = t.get("winner")
        if isinstance(pts, (int, float)) and winner is not None:
            if winner in declarer_side:
                run_decl += pts
            else:
                run_opp += pts
        rows.append(
            {
                "trick": i,
                "leader": players[t["leader"]] if t.get("leader") is not None else "",
                "cards": "  ".join(f"{players[s][:10]}:{c}" for s, c in t.get("cards") or []),
                "winner": players[winner] if winner is not None else "",
                "points": pts,
                "declarer side": run_decl if declarer_side else None,
                "defenders": run_opp if declarer_side else None,
            }
        )
    return rows


# --------------------------------------------------------------------------- tournaments


def tournaments(cur: duckdb.DuckDBPyConnection) -> list[str]:
    """Tournament ids present in the store."""
    rows = _rows(
        cur, "SELECT DISTINCT tournament FROM sessions WHERE tournament IS NOT NULL ORDER BY 1"
    )
    return [r[0] for r in rows]


def tournament_report(cur: duckdb.DuckDBPyConnection, tournament: str) -> dict[str, Any] | None:
    """Standings of one tournament recomputed from the logs beside the recorded figures.

    Every session of the tournament is rebuilt from the store and audited
    (:func:`tarock_logs.verdict.audit.audit_session`), then ranked with
    :func:`tarock_logs.verdict.audit.audit_tournaments`. Returns ``{"tournament": <TournamentAudit
    dict>, "tables": [per session: round, table, players, recorded and recomputed round
    scores and placement points, table average]}``.
    """
    from tarock_logs.verdict.audit import audit_session, audit_tournaments

    sids = [r[0] for r in _rows(
        cur, "SELECT session_id FROM sessions WHERE tournament = ? ORDER BY round, table_name, session_id",
        [tournament],
    )]  # fmt: skip
    audits = []
    names: dict[str, str] = {}  # as the sessions themselves name their players
    for sid in sids:
        loaded = load_session(cur, sid)
        if loaded is None:
            continue
        session, _ = loaded
        names.update({p.id: p.name or p.id for p in session.players})
        audits.append(audit_session(session))
    found = [t for t in audit_tournaments(audits) if t.tournament == tournament]
    if not found:
        return None
    tables = []
    for sa in audits:
        scores = sa.recomputed_totals
        for seat, pid in enumerate(sa.players):
            rec_pp = sa.recorded_placement_points
            rec_tot = sa.recorded_totals or sa.recorded_hand_sum
            tables.append(
                {
                    "round": sa.round, "table": sa.table, "session": sa.session,
                    "player": names.get(pid, pid), "player_id": pid,
                    "recorded score": rec_tot[seat] if rec_tot and seat < len(rec_tot) else None,
                    "recomputed score": scores[seat] if scores else None,
                    "table average": round(sum(scores) / len(scores), 2) if scores else None,
                    "recorded points": rec_pp[seat] if rec_pp and seat < len(rec_pp) else None,
                    "recomputed points": sa.placement_points[seat] if sa.placement_points else None,
                }
            )  # fmt: skip
    report = found[0].to_dict()
    for s in report["standings"]:
        s["name"] = names.get(s["player"], s["player"])
    return {"tournament": report, "tables": tables}


def dossier_html(view: HandView, rename: Callable[[str], str] | None = None) -> str:
    """The self-contained HTML dispute dossier of the hand (:mod:`tarock_logs.report.dossier`).

    ``rename`` maps each player's name (e.g. to its pseudonym) before rendering; player ids
    (and so the hand's content hash) are kept.
    """
    from tarock_logs.report.dossier import render_dossier

    session = view.session
    if rename is not None:
        players = [p.model_copy(update={"name": rename(p.name or p.id)}) for p in session.players]
        session = session.model_copy(update={"players": players})
    return render_dossier(session, view.hand)


# --------------------------------------------------------------------------- players
#
# The statistics themselves are :mod:`tarock_logs.store.stats`; these wrappers take the filters as
# plain (hashable) values so the dashboard can cache each result per database version.


def stats_filters(
    game: str | None = None,
    event: str | None = None,
    date_from: Any = None,
    date_to: Any = None,
    player: str | None = None,
) -> Any:
    """:class:`tarock_logs.store.stats.Filters` from the Players page's filter values."""
    from tarock_logs.store.stats import Filters

    return Filters(player=player or None, game=game or None, event=event or None,
                   date_from=date_from, date_to=date_to)  # fmt: skip


def stats_section(
    cur: duckdb.DuckDBPyConnection, section: str, filters: tuple[Any, ...]
) -> pl.DataFrame:
    """One statistics table of :data:`tarock_logs.store.stats.SECTIONS` (``players``, ``roles``,
    ``contracts``, ``bonuses``, ``kontras``, ``synergy``, ``time``) under the filters
    ``(game, event, date_from, date_to, player)``."""
    from tarock_logs.store.stats import SECTIONS

    return SECTIONS[section](cur, stats_filters(*filters))


def drill_hands(
    cur: duckdb.DuckDBPyConnection, filters: tuple[Any, ...], drill: tuple[tuple[str, Any], ...]
) -> pl.DataFrame:
    """The hands behind a figure (:func:`tarock_logs.store.stats.hands_for`) with the filters and
    drill-down fields (e.g. ``(("role", "declarer"), ("won", True))``), plus each hand's
    replay link."""
    from tarock_logs.store.stats import hands_for

    df = hands_for(cur, stats_filters(*filters), **dict(drill))
    return df.with_columns(
        pl.format("/replay?hand={}&step=0&seat=all", pl.col("hand_id")).alias("replay")
    )


def filter_values(cur: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """What the Players filters offer: games, events, the date range, players (id → name),
    roles and contracts present in the store."""
    games = [
        r[0] for r in _rows(cur, "SELECT DISTINCT CAST(game AS VARCHAR) FROM sessions ORDER BY 1")
    ]
    events = [r[0] for r in _rows(
        cur, "SELECT DISTINCT coalesce(event_name, tournament) FROM sessions "
             "WHERE coalesce(event_name, tournament) IS NOT NULL ORDER BY 1")]  # fmt: skip
    lo, hi = _rows(cur, "SELECT min(date), max(date) FROM sessions")[0]
    players = dict(
        _rows(cur, "SELECT player_id, coalesce(name, player_id) FROM players ORDER BY 2")
    )
    contracts = [
        r[0]
        for r in _rows(
            cur, "SELECT DISTINCT contract FROM hands WHERE contract IS NOT NULL ORDER BY 1"
        )
    ]
    return {"games": games, "events": events, "date_min": lo, "date_max": hi,
            "players": players, "contracts": contracts}  # fmt: skip


def alternatives(view: HandView, step: int) -> list[Any]:
    """The engine's legal actions in the position of ``step`` (after ``step`` actions).

    Uses :func:`tarock_logs.verdict.replay.legal_alternatives`; if the engine's state cannot be copied,
    replays the hand's first ``step`` actions afresh (the carry from earlier hands does not
    change what is legal).
    """
    from tarock_logs.verdict import replay as rp

    try:
        return list(rp.legal_alternatives(view.replay, step))
    except Exception:  # noqa: BLE001 - fall back to a fresh partial replay
        pass
    if view.session is None or view.hand is None or not 0 <= step <= len(view.actions):
        return []
    partial = view.hand.model_copy(update={"actions": list(view.hand.actions[:step])})
    r = rp.replay_hand(view.session, partial, with_views=False)
    state = r._state
    if state is None or r.actions_applied != step:
        return []
    try:
        return list(state.legal_actions())
    except Exception:  # noqa: BLE001
        return []
