"""The Tournament page's Duplicate tab, built without Streamlit: the deals of a tournament
played at several tables side by side and the players' duplicate ranking by matchpoints
(:func:`tarock_logs.store.read.duplicate.duplicate_report`), as rows of text in the reader's
language. Names pass through ``rename`` (the page's name masking) where one is given."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb

from tarock_logs.report import text
from tarock_logs.report.i18n import number, t, tn
from tarock_logs.rules import game_title
from tarock_logs.store.read.duplicate import NoSuchEvent, duplicate_report

Rename = Callable[[str], str] | None


def tournament_duplicate(cur: duckdb.DuckDBPyConnection, tournament: str) -> dict[str, Any]:
    """The tournament's compared deals and ranking (``tarock duplicate --event T``'s
    document); empty for a tournament no session names any more."""
    try:
        return duplicate_report(cur, tournament)
    except NoSuchEvent:
        return {"event": tournament, "method": "", "deals": [], "ranking": []}


def _name(name: str, rename: Rename) -> str:
    return rename(name) if rename is not None else name


def _score(v: Any, lang: str) -> str:
    return "—" if v is None else number(v, lang, signed=True)


def position_label(position: int, lang: str = "en") -> str:
    """A position round the dealer (``P1`` is forehand, the last the dealer)."""
    return t("P{n}", lang, n=position)


def ranking_rows(
    report: dict[str, Any], lang: str = "en", rename: Rename = None
) -> list[dict[str, str]]:
    """One row per ranked player: rank, name, compared hands, matchpoints, their maximum and
    the percentage (two decimals in the reader's locale); a game's name leads each row when
    the tournament holds more than one game."""
    games = {r["game"] for r in report["ranking"]}
    ranking = list(report["ranking"])
    if rename is not None:  # masked: players sharing a rank by the names shown, not their ids
        first = {g: i for i, g in reversed(list(enumerate(r["game"] for r in ranking)))}
        ranking.sort(key=lambda r: (first[r["game"]], r["rank"], _name(r["name"], rename)))
    rows = []
    for r in ranking:
        row = {} if len(games) == 1 else {t("game", lang): t(game_title(r["game"]), lang)}
        row |= {
            t("rank", lang): str(r["rank"]),
            t("player", lang): _name(r["name"], rename),
            t("hands", lang): str(r["hands"]),
            t("matchpoints", lang): str(r["match_points"]),
            t("maximum", lang): str(r["max_match_points"]),
            t("percentage", lang): number(round(r["percentage"], 2), lang),
        }
        rows.append(row)
    return rows


def deal_label(deal: dict[str, Any], lang: str = "en") -> str:
    """``Deal 3: round 1, hand 3 · 3 tables`` (where the first table played it)."""
    first = deal["lines"][0]
    where = t(
        "Deal {n}: round {round}, hand {hand}",
        lang,
        n=deal["deal"],
        round=first["round"] if first["round"] is not None else "—",
        hand=first["hand_number"],
    )
    return f"{where} · {tn('{n} table', '{n} tables', deal['tables'], lang)}"


def _result(won: bool | None, lang: str) -> str:
    return "—" if won is None else t("won" if won else "lost", lang)


def _who(d: dict[str, Any] | None, lang: str, rename: Rename) -> str:
    if d is None:
        return "—"
    return f"{_name(d['name'], rename)} ({position_label(d['position'], lang)})"


def line_rows(
    deal: dict[str, Any], lang: str = "en", rename: Rename = None
) -> list[dict[str, str]]:
    """One row per table that played the deal: the table, round, hand number, contract,
    declarer (with his position), result, then each position's score with the matchpoints
    it earned (``+30 (3/4)``; a seat sitting out: its score alone)."""
    game = deal["game"]
    rows = []
    for line in deal["lines"]:
        row = {
            t("table", lang): line["table"] or line["session_id"],
            t("round", lang): "—" if line["round"] is None else str(line["round"]),
            t("hand number", lang): str(line["hand_number"]),
            t("contract", lang): text.contract_name(line["contract"], game, lang=lang),
            t("declarer", lang): _who(line["declarer"], lang, rename),
            t("result", lang): _result(line["won"], lang),
        }
        seats = {s["position"]: s for s in line["seats"]}
        for p in range(1, deal["table_size"] + 1):
            s = seats.get(p)
            cell = "—" if s is None else _score(s["score"], lang)
            if s is not None and s["match_points"] is not None:
                cell += f" ({s['match_points']}/{s['max_match_points']})"
            row[position_label(p, lang)] = cell
        rows.append(row)
    return rows


def holders(deal: dict[str, Any], lang: str = "en", rename: Rename = None) -> list[dict[str, str]]:
    """Who held each position at each table (the names the score columns stand for)."""
    rows = []
    for line in deal["lines"]:
        row = {t("table", lang): line["table"] or line["session_id"]}
        for s in sorted(line["seats"], key=lambda s: s["position"]):
            row[position_label(s["position"], lang)] = _name(s["name"], rename)
        rows.append(row)
    return rows


def best_line_text(deal: dict[str, Any], lang: str = "en", rename: Rename = None) -> str | None:
    """The best-scoring line in words (the best declarer's score; a klop line by its best
    score), or None when no line has a compared score."""
    best = deal["best_line"]
    if best is None:
        return None
    contract = text.contract_name(best["contract"], deal["game"], lang=lang)
    table = best["table"] or best["session_id"]
    holder = f"{_name(best['name'], rename)} ({position_label(best['position'], lang)})"
    if best["declarer"] is not None and best["declarer"]["position"] == best["position"]:
        return t(
            "Best line: table {table}, {contract} by {player}: {score}",
            lang, table=table, contract=contract, player=holder,
            score=_score(best["score"], lang),
        )  # fmt: skip
    return t(
        "Best line: table {table}, {contract}; {player} scored {score}",
        lang, table=table, contract=contract, player=holder, score=_score(best["score"], lang),
    )  # fmt: skip
