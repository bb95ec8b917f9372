"""A tournament's cross-table and its printable standings (an HTML page, A4-friendly).

The input is a tournament's audit as a dict
(:meth:`tarock_logs.verdict.tournament.TournamentAudit.to_dict`, each standing with the
player's ``name``). The *cross-table* says who met whom: per player (in the ranking's order)
and per round, the table, the opponents met there and the placement points earned. The page
holds the final ranking and the cross-table in the reader's language, in the dossier's style
(:mod:`tarock_logs.report.dossier`); every text from the logs is escaped by the serializer.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from tarock_logs import __version__
from tarock_logs.report import i18n
from tarock_logs.report.dossier import PRINT_CSS, html_el, html_row, html_section, html_table
from tarock_logs.report.text import points_text
from tarock_logs.rules import game_title

__all__ = ["cross_table", "ranking_order", "render_standings"]


def ranking_order(
    standings: Sequence[Mapping[str, Any]], rename: Callable[[str], str] | None = None
) -> list[Mapping[str, Any]]:
    """The standings in the ranking's order. With ``rename`` (names shown as pseudonyms),
    players who share a rank come in the order of the names shown: the ranking lists them
    by player id, and that order (ids are often given in the order of the names) beside a
    tournament's public list of players would unmask them."""
    if rename is None:
        return list(standings)
    return sorted(standings, key=lambda s: (s["rank"], rename(s.get("name") or s["player"])))


def cross_table(
    tournament: Mapping[str, Any], rename: Callable[[str], str] | None = None
) -> list[dict[str, Any]]:
    """Who met whom: one row per player and round, the players in the ranking's order and
    their rounds in order: ``rank``, ``player`` (id), ``name``, ``round`` (None for a session
    without a round number), ``table``, ``session``, ``opponents`` (the names of the others
    at that table, in the ranking's order), ``score`` (the round score) and
    ``placement_points``. ``rename``: the order of :func:`ranking_order` (names are not
    renamed here)."""
    standings = ranking_order(tournament["standings"], rename)
    names = {s["player"]: s.get("name") or s["player"] for s in standings}
    at_table: dict[tuple[str, str], list[str]] = defaultdict(list)
    for s in standings:
        for rnd, r in s["rounds"].items():
            at_table[(str(rnd), str(r.get("session")))].append(s["player"])
    rows = []
    for s in standings:
        for rnd, r in sorted(s["rounds"].items(), key=lambda kv: int(kv[0])):
            met = at_table[(str(rnd), str(r.get("session")))]
            rows.append(
                {
                    "rank": s["rank"],
                    "player": s["player"],
                    "name": names[s["player"]],
                    "round": int(rnd) if int(rnd) > 0 else None,
                    "table": r.get("table"),
                    "session": r.get("session"),
                    "opponents": [names[p] for p in met if p != s["player"]],
                    "score": r.get("score"),
                    "placement_points": r.get("placement_points"),
                }
            )
    return rows


def render_standings(
    tournament: Mapping[str, Any],
    *,
    lang: str = "en",
    title: str | None = None,
    rename: Callable[[str], str] | None = None,
    generated_at: datetime | None = None,
) -> str:
    """The printable standings of a tournament: its final ranking and cross-table, in
    ``lang``; ``title`` names the tournament (its id by default); ``rename`` maps each
    player's name (e.g. to a pseudonym)."""
    say = rename or (lambda n: n)
    html = ET.Element("html", {"lang": i18n.normalize(lang)})
    head = html_el(html, "head")
    html_el(head, "meta", charset="utf-8")
    html_el(head, "meta", name="viewport", content="width=device-width, initial-scale=1")
    heading = i18n.t("Standings: {tournament}", lang, tournament=title or tournament["tournament"])
    html_el(head, "title", heading)
    html_el(head, "style", PRINT_CSS)
    body = html_el(html, "body")
    html_el(body, "h1", heading)
    facts = [
        i18n.t(game_title(str(tournament["game"])), lang),
        i18n.t("ruleset {ruleset}", lang, ruleset=tournament.get("ruleset") or "—"),
        i18n.t(
            "rounds {rounds}",
            lang,
            rounds=", ".join(str(r) for r in tournament.get("rounds", ())) or "—",
        ),
    ]
    html_el(body, "p", " · ".join(facts), class_="small")

    rounds = [str(r) for r in tournament.get("rounds", ())]
    sec = html_section(body, i18n.t("Final ranking", lang))
    headers = [
        i18n.t("rank", lang),
        i18n.t("player", lang),
        i18n.t("total", lang),
        i18n.t("placement points", lang),
        i18n.t("penalties", lang),
        i18n.t("deviation", lang),
        *(i18n.t("R{n} points", lang, n=r) for r in rounds),
    ]
    num = [0, *range(2, len(headers))]
    tbody = html_table(sec, headers, num=num)
    ranked = ranking_order(tournament["standings"], rename)
    for s in ranked:
        per_round = [s["rounds"].get(r, {}).get("placement_points") for r in rounds]
        html_row(
            tbody,
            [
                str(s["rank"]),
                say(s.get("name") or s["player"]),
                _pts(s["total"], lang),
                _pts(s["placement_points"], lang),
                _pts(s["penalties"], lang),
                _dev(s["deviation"], lang),
                *(_pts(p, lang) for p in per_round),
            ],
            num=num,
        )

    sec = html_section(body, i18n.t("Cross-table", lang))
    html_el(
        sec,
        "p",
        i18n.t(
            "Per round: the table, the opponents met there and the placement points earned.",
            lang,
        ),
        class_="small",
    )
    by_player: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in cross_table(tournament, rename):
        by_player[row["player"]].append(row)
    tbody = html_table(
        sec,
        [i18n.t("rank", lang), i18n.t("player", lang), i18n.t("round", lang),
         i18n.t("table", lang), i18n.t("opponents", lang), i18n.t("placement points", lang)],
        num=[0, 2, 5],
    )  # fmt: skip
    for s in ranked:
        for k, row in enumerate(by_player[s["player"]]):
            html_row(
                tbody,
                [
                    str(s["rank"]) if k == 0 else "",
                    say(row["name"]) if k == 0 else "",
                    row["round"],
                    row["table"],
                    ", ".join(say(n) for n in row["opponents"]),
                    _pts(row["placement_points"], lang),
                ],
                num=[0, 2, 5],
            )
    when = (generated_at or datetime.now(UTC)).date()
    html_el(
        html_el(body, "footer"),
        "p",
        i18n.t(
            "Recomputed from the logs by tarock-logs {version} on {date}.",
            lang,
            version=__version__,
            date=i18n.date(when, lang),
        ),
        class_="small",
    )
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode", method="html") + "\n"


def _pts(v: Any, lang: str) -> str:
    """Placement points as people write them (``12``, ``4.5``; ``—`` for none)."""
    return "—" if v is None else points_text(float(v), lang=lang, signed=False)


def _dev(v: Any, lang: str) -> str:
    """A deviation from the table average, signed, to at most two decimals."""
    return "—" if v is None else points_text(round(float(v), 2), lang=lang, signed=True)
