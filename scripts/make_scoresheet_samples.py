"""Write ``sample_logs/scoresheets/``: the score sheets of a whole Slovenian tournament round.

A round of four tables (three of 4 players, one of 5) is played by the simulator (``tarock
simulate --seed 2029 --tables 4,4,4,5 --rounds 1``: every action legal, every score the
engine's). Each table's sitting is then written as the score sheet a tournament keeps (one CSV
row per hand with the facts the engine reads off the played hand, the points written, the
running totals and the radelci; the placement points under the last hand). The sheet of
table B gets three planted mistakes, the kind score sheets have:

1. an arithmetic error in a hand's written score (the declarer's side writes 10 too many; the
   running totals go on from the wrong number);
2. an addition error in one player's running total (10 too many, carried on);
3. a forgotten radelc: after a hand that earns everyone a radelc (a klop or a game worth 70
   or more) nobody draws it, and the sheet goes on without it (the later hands are scored as
   the scorer had them).

``round-1.jsonl`` is ``tarock import scoresheet`` of the four sheets, ``malformed/bad-cells.csv``
a sheet with bad cells, and ``planted.manifest`` (JSON) lists what ``tarock audit`` must report.
``tests/tools/test_scoresheet_samples.py`` runs :func:`build` and compares byte for byte.

Run: ``python scripts/make_scoresheet_samples.py [OUT_DIR]`` (default: sample_logs/scoresheets).
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tarock_logs.log import models as m
from tarock_logs.log.writer import dumps_session
from tarock_logs.report.text import contract_name
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import RecordedFacts
from tarock_logs.tools.importers.scoresheet import import_sheet
from tarock_logs.tools.simulate import TournamentSpec, simulate_tournament
from tarock_logs.verdict.convert import to_engine_irregularity
from tarock_logs.verdict.replay import replay_session

ROOT = Path(__file__).resolve().parents[1]
SPEC = TournamentSpec(seed=2029, tables=(4, 4, 4, 5), rounds=1, games_per_round=16)
PLANTED_TABLE = "B"
BONUSES = ("trula", "kralji", "pagat_ultimo", "kralj_ultimo", "valat", "barvni_valat")
FACT_HEADER = ["hand", "dealer", "contract", "declarer", "partner", "called", "won", "points",
               "difference", *BONUSES, "kontra", "mondfang"]  # fmt: skip


def _bonus_cell(facts: RecordedFacts, bonus: str) -> str:
    cells = []
    for b in facts.bonuses:
        if b.bonus == bonus:
            side = "D" if b.side == "declarer" else "O"
            cells.append(side + ("A" if b.announced else "") + ("+" if b.made else "-"))
    return " ".join(cells)


def _row(names: list[str], number: int, dealer: int, f: RecordedFacts) -> list[str]:
    def name(seat: int | None) -> str:
        return names[seat] if seat is not None else ""

    if f.points_by_seat is not None:
        points = ";".join(
            f"{p}+" if s in f.full else str(p) for s, p in enumerate(f.points_by_seat)
        )
    else:
        points = "" if f.card_points is None else str(f.card_points)
        if f.card_points == 35 and f.won:
            points = "35+"
    won = "" if f.won is None else ("yes" if f.won else "no")
    kontra = ";".join(
        t + (f":{lv}" if lv != 1 else "") + (f"@{names[s]}" if s is not None else "")
        for t, lv, s in f.kontras
    )
    mond = ";".join(name(s) + (f" by {name(c)}" if c is not None else "") for s, c in f.mondfang)
    return [
        str(number), name(dealer), contract_name(f.contract, "slovenian"), name(f.declarer),
        name(f.partner), f.called or "", won, points,
        "" if f.difference is None else str(f.difference),
        *(_bonus_cell(f, b) for b in BONUSES), kontra, mond,
    ]  # fmt: skip


def _sheet_lines(session: m.Session) -> list[dict[str, Any]]:
    """Per hand: the facts the engine reads off the played hand, its dealer and the engine's
    carried radelci before it (to re-score the sheet's planted version)."""
    out = []
    for h, r in zip(session.hands, replay_session(session), strict=True):
        assert r.state is not None and r.score is not None, (session.id, h.number)
        facts = r.state.recorded_facts()
        assert facts is not None
        out.append({"hand": h, "facts": facts, "score": r.score})
    return out


def _score_sheet(
    session: m.Session, lines: list[dict[str, Any]], forget_radelc_at: int | None
) -> tuple[list[list[int]], list[list[int]]]:
    """The written scores and radelci after each hand of the sheet: the engine scoring the
    facts, except that after hand ``forget_radelc_at`` the radelci stay what they were before
    it (the scorer forgot to draw them) and the sheet goes on from there."""
    engine = get_engine("slovenian")
    assert engine is not None
    ss = engine.new_session(engine.ruleset(session.ruleset), len(session.players))
    scores, radelci = [], []
    for line in lines:
        h: m.Hand = line["hand"]
        before = list(ss.carry()["radelci"])
        sc = ss.score_facts(
            h.dealer, line["facts"], [to_engine_irregularity(i) for i in h.irregularities]
        )
        after = [int(x) for x in sc.carry_after["radelci"]]
        if h.number == forget_radelc_at:
            assert all(a == b + 1 for a, b in zip(after, before, strict=True)), "not a radelc hand"
            after = before
            ss.restore({"radelci": after})
        scores.append(list(sc.totals))
        radelci.append(after)
    return scores, radelci


def _ranks(totals: list[int]) -> list[int]:
    return [sorted(totals, reverse=True).index(t) for t in totals]


def _write_sheet(session: m.Session, lines, planted: dict[str, Any] | None) -> str:
    names = [p.name or p.id for p in session.players]
    n = len(names)
    ev = session.event
    assert ev is not None
    forget = planted["radelc_hand"] if planted else None
    scores, radelci = _score_sheet(session, lines, forget)
    if planted:
        for s in planted["score_seats"]:
            scores[planted["score_hand"] - 1][s] += 10
    totals: list[list[int]] = []
    run = [0] * n
    for k, row in enumerate(scores):
        run = [a + b for a, b in zip(run, row, strict=True)]
        if planted and k + 1 == planted["sum_hand"]:
            run[planted["sum_seat"]] += 10
        totals.append(list(run))
    engine = get_engine("slovenian")
    assert engine is not None
    rs = engine.ruleset(session.ruleset)
    placement = engine.placement_points(rs, totals[-1], False)
    true_totals = [sum(line["score"].totals[s] for line in lines) for s in range(n)]
    if planted:  # the planted mistakes must not move anyone's place
        true_written = [sum(sc[s] for sc in _score_sheet(session, lines, forget)[0])
                        for s in range(n)]  # fmt: skip
        if _ranks(totals[-1]) != _ranks(true_written):
            raise _MovesPlaces
    else:
        assert totals[-1] == true_totals
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    buf.write(f"# game: slovenian\n# ruleset: {session.ruleset}\n")
    buf.write(f"# tournament: {ev.tournament}\n# event: {ev.name}\n# date: {ev.date}\n")
    buf.write(f"# site: {ev.site}\n# round: {ev.round}\n# table: {ev.table}\n")
    w.writerow([*FACT_HEADER, *(f"{nm} ({p.id})" for nm, p in zip(names, session.players,
                                                                 strict=True)),
                *(f"{nm} total" for nm in names), *(f"{nm} radelci" for nm in names)])  # fmt: skip
    for k, line in enumerate(lines):
        h: m.Hand = line["hand"]
        w.writerow([*_row(names, h.number, h.dealer, line["facts"]), *map(str, scores[k]),
                    *map(str, totals[k]), *map(str, radelci[k])])  # fmt: skip
    w.writerow(["placement", *[""] * (len(FACT_HEADER) - 1),
                *(f"{p:g}" for p in placement), *[""] * (2 * n)])  # fmt: skip
    return buf.getvalue()


def _plants(session: m.Session, lines: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Where table B's mistakes may go, in order of preference: the first hand that earns
    everyone a radelc (a klop or a game worth 70 or more: forgotten), a won game with a
    partner from hand 6 on (its written score) and another player's running total three or
    more hands later (the addition). :func:`build` takes the first that moves nobody's place."""
    n = len(session.players)
    radelc = next(
        line["hand"].number for line in lines
        if all(a >= 1 for a in line["score"].carry_after["radelci"])
        and line["score"].carry_after["radelci"] != (
            lines[line["hand"].number - 2]["score"].carry_after["radelci"]
            if line["hand"].number > 1 else [0] * n
        )
    )  # fmt: skip
    for line in lines:
        f = line["facts"]
        k = line["hand"].number
        if f.partner is None or not f.won or k < 6 or k in (radelc, radelc + 1):
            continue
        for sum_hand in range(k + 3, len(lines) + 1):
            for seat in range(n):
                if sum_hand != radelc and seat not in (f.declarer, f.partner):
                    yield {
                        "radelc_hand": radelc,
                        "score_hand": k,
                        "score_seats": [f.declarer, f.partner],
                        "sum_hand": sum_hand,
                        "sum_seat": seat,
                    }


class _MovesPlaces(Exception):
    """The planted mistakes would change a player's place at the table."""


BAD_CELLS = """\
# game: slovenian
# tournament: sheet-errors
# round: 1
# table: X
hand,dealer,contract,declarer,partner,won,points,difference,Ana,Bor,Cene,Dani
1,Dani,tri,Ana,Bor,yes,45,,20,20,0,0
2,,sedem,Bor,Cene,yes,40,,15,0,15,0
3,,dva,Marko,Ana,yes,41,,26,0,0,0
4,,ena,Cene,,no,x30,,0,0,-35,0
5,,berač,Dani,,yes,,,0,0,0,70
6,,tri,Ana,Cene,da,,five,25,0,25,0
"""


# ------------------------------------------------------------------ Zwanzigerrufen and Royal

ZR_W16 = """\
# game: zwanzigerrufen
# ruleset: zr-std-2026
# session: zr-w16
# event: Worked example W16 of zwanzigerrufen.md (eight games of one session)
hand,dealer,contract,declarer,partner,called,won,points,valat,absolut,pagat,trull,four_kings,kontra,mondfang,double,A,B,C,D,A total,B total,C total,D total
1,D,normal,A,C,T20,,50,,,,,,,B by A,,2,-2,2,-2,2,-2,2,-2
2,,normal,B,D,T20,,40,,,,,,,,x2,2,-2,2,-2,4,-4,4,-4
3,,normal,C,A,T20,,50,,,,,,,C by A,x2,0,0,0,0,4,-4,4,-4
4,,normal,D,B,T20,,48,,,,,,,,x4,-4,4,-4,4,0,0,0,0
5,,solo,A,,,,45,,,,,,,,x4,48,-16,-16,-16,48,-16,-16,-16
6,A,normal,B,C,T20,,30,,O+,,,,,,x2,4,-4,-4,4,52,-20,-20,-12
7,,normal,C,D,T20,,45,,,,,,,,x2,-2,-2,2,2,50,-22,-18,-10
8,,normal,D,A,T20,,47,,,,,,,,,1,-1,-1,1,51,-23,-19,-9
"""  # noqa: E501
ZR_EVENING = """\
# game: zwanzigerrufen
# ruleset: zr-std-2026
# session: zr-club-2026-11-27
# event: Club evening (constructed)
# date: 2026-11-27
# site: Wien
hand,dealer,contract,declarer,partner,called,won,points,valat,absolut,pagat,trull,four_kings,kontra,mondfang,double,Anna Huber,Bert Gruber,Cora Wagner,Dora Bauer,Anna Huber total,Bert Gruber total,Cora Wagner total,Dora Bauer total
1,Dora Bauer,normal,Anna Huber,Cora Wagner,T20,,52,,,,,,game@Bert Gruber,,,2,-2,2,-2,2,-2,2,-2
2,Anna Huber,normal,Bert Gruber,Dora Bauer,T20,,38,,,,,,,Bert Gruber by Cora Wagner,,2,-2,2,-2,4,-4,4,-4
3,Bert Gruber,normal,Cora Wagner,Anna Huber,T19,,60,,,DA+,,,,,x2,6,-6,6,-6,10,-10,10,-10
4,Cora Wagner,farbensolo,Dora Bauer,,,,50,,,,,,,,x2,-8,-8,-8,24,2,-18,2,14
5,Dora Bauer,normal,Anna Huber,Bert Gruber,T20,,44,,,,O+,,,,,-2,-2,2,2,0,-20,4,16
6,Anna Huber,solo,Bert Gruber,,,,47,,,,,,,,x2,-8,24,-8,-8,-8,4,-4,8
7,Bert Gruber,normal,Cora Wagner,Dora Bauer,T20,,57,,D+,,,,,,,-2,-2,2,2,-10,4,-2,10
8,Cora Wagner,normal,Dora Bauer,Anna Huber,T20,,40,,,,,,game:2@Bert Gruber,,,-3,4,4,-4,-13,8,2,6
"""  # noqa: E501
ROYAL_CLEAN = """\
# game: royal
# ruleset: royal-gerots-2023
# session: royal-match-clean
# event: Club match (constructed)
# date: 2026-11-14
game,dealer,Anna Kiss+Bela Nagy items,Cora Szabo+Dani Toth items,kontra,Anna Kiss+Bela Nagy consolation,Cora Szabo+Dani Toth consolation,Anna Kiss+Bela Nagy,Cora Szabo+Dani Toth,Anna Kiss+Bela Nagy total,Cora Szabo+Dani Toth total
1,Bela Nagy,M_FLUSH;Q_4KOENIGE,F_SPIEL+;S_ENGEL+,F_SPIEL@Anna Kiss,10,10,30,21,30,21
2,Dani Toth,S_HONNEUR+;Q_OBSCUR,S_VISI-,,0,5,6,4,36,25
3,Bela Nagy,Q_LAUER,F_SPIEL-;S_KOEPFE+,S_KOEPFE@Bela Nagy,12,8,25,0,61,25
4,Dani Toth,F_SPIEL+;S_TRULL+;M_WONOK,Q_4KOENIGE,F_SPIEL@Cora Szabo,20,0,53,10,114,35
5,Bela Nagy,Q_MONDFANG_STILL,S_ENGEL+;Q_OBSCUR,,5,5,55,11,169,46
6,Dani Toth,S_LAMOUR+;Q_OBSCUR,M_FLUSH;S_VISI+,,10,10,16,21,185,67
7,Bela Nagy,F_SPIEL+,TR_VALAT+,,8,15,18,55,203,122
8,Dani Toth,Q_OBSCUR,S_HONNEUR-,S_HONNEUR@Anna Kiss,6,6,12,5,215,127
result,,,,,,,26,15
"""  # noqa: E501
ROYAL_PLANTED = """\
# game: royal
# ruleset: royal-gerots-2023
# session: royal-match-planted
# event: Club match (constructed)
# date: 2026-11-21
game,dealer,Anna Kiss+Bela Nagy items,Cora Szabo+Dani Toth items,kontra,Anna Kiss+Bela Nagy consolation,Cora Szabo+Dani Toth consolation,Anna Kiss+Bela Nagy,Cora Szabo+Dani Toth,Anna Kiss+Bela Nagy total,Cora Szabo+Dani Toth total
1,Bela Nagy,M_FLUSH;Q_4KOENIGE,F_SPIEL+;S_ENGEL+,F_SPIEL@Anna Kiss,10,10,30,21,30,21
2,Dani Toth,S_HONNEUR+;Q_OBSCUR,S_VISI-,,0,5,6,4,36,25
3,Bela Nagy,Q_LAUER,F_SPIEL-;S_KOEPFE+,S_KOEPFE@Bela Nagy,12,8,25,0,61,25
4,Dani Toth,F_SPIEL+;S_TRULL+;M_WONOK,Q_4KOENIGE,F_SPIEL@Cora Szabo,20,0,63,10,124,35
5,Bela Nagy,Q_MONDFANG_STILL,S_ENGEL+;Q_OBSCUR,,5,5,55,11,179,46
6,Dani Toth,S_LAMOUR+;Q_OBSCUR,M_FLUSH;S_VISI+,,10,10,16,21,195,57
7,Bela Nagy,F_SPIEL+,S_ENGEL-,,8,15,18,14,213,71
8,Dani Toth,Q_OBSCUR,S_HONNEUR-,S_HONNEUR@Anna Kiss,6,6,12,5,225,76
result,,,,,,,29,9
"""  # noqa: E501

#: Constructed sheets of the other two games (written by hand, the scores computed with the
#: engines once and checked against the specifications' worked examples): per game, the clean
#: sheet, the sheet with planted mistakes, and what ``tarock audit`` must report for it.
OTHER_GAMES: dict[str, dict[str, Any]] = {
    "zwanzigerrufen": {
        "title": "Zwanzigerrufen: the club's running sheet (Schreibblock)",
        "clean": (
            "w16.csv",
            ZR_W16,
            "W16 of zwanzigerrufen.md §7.7: eight games of one "
            "session, two Mondfang double-round windows (×2, ×4), final +51 / −23 / −19 / −9",
        ),
        "planted": (
            "club-evening.csv",
            ZR_EVENING,
            "a constructed club evening: Kontra, Retour, "
            "Pagat Ultimo, Trull, a Farbensolo and a Solo, a Mondfang in game 2 that "
            "doubles games 3–6",
        ),
        "mistakes": [
            (
                5,
                "score.total_differs",
                [0, 1, 2, 3],
                "game 5 lies in the double round the Mondfang of game 2 opened, but it was written "
                "single (no ×2 marker; every player's score half of the ×2 value, the totals go "
                "on from it)",
            ),
            (
                7,
                "score.running_total_differs",
                [1],
                "Bert's running total 2 too high (an addition error, carried on)",
            ),
            (8, "score.total_differs", [0], "Anna's −4 written as −3 (the totals go on from it)"),
            (8, "score.not_zero_sum", [], "the same line: the four scores sum to +1, not 0"),
        ],
    },
    "royal": {
        "title": "Royal Tarock: the match sheet",
        "clean": (
            "match-clean.csv",
            ROYAL_CLEAN,
            "eight games of two fixed pairs with each pair's "
            "items, contras, consolation, game value and running sum, and the match "
            "result floor(sum / 8); game 7's Valat-Trophäe has no known value, so that "
            "pair's game 7 and the match result are not checked (reported, not guessed)",
        ),
        "planted": (
            "match-planted.csv",
            ROYAL_PLANTED,
            "the same match with Engel lost instead of the "
            "trophy in game 7, and three planted mistakes",
        ),
        "mistakes": [
            (
                4,
                "score.total_differs",
                [0, 1],
                "Anna and Bela wrote 63 for game 4: consolation 20 + Spiel 10 + Trull 3 + Wonok 20 "
                "is 53 (the running sum goes on from 63)",
            ),
            (
                6,
                "score.running_total_differs",
                [2, 3],
                "Cora and Dani's running sum 10 too low (an addition error, carried on)",
            ),
            (
                None,
                "session.placement_points_differ",
                [0, 1, 2, 3],
                "the match result line: 29 for Anna and Bela (their sum 225 carries mistake 1 and "
                "is rounded up; the recomputed 215 / 8 gives 26) and 9 for Cora and Dani (their "
                "sum 76 carries mistake 2; 86 / 8 gives 10)",
            ),
        ],
    },
}


def _build_other_games(out: Path) -> list[dict[str, Any]]:
    """Write each game's two sheets, their imports and manifest into ``out/<game>/``; the
    manifest rows, for the README."""
    rows: list[dict[str, Any]] = []
    for game, spec in OTHER_GAMES.items():
        folder = out / game
        folder.mkdir(parents=True, exist_ok=True)
        manifest: list[dict[str, Any]] = []
        for kind in ("clean", "planted"):
            name, text, _what = spec[kind]
            (folder / name).write_text(text, encoding="utf-8")
            imp = import_sheet(folder / name)
            assert not imp.errors and imp.session is not None, [str(e) for e in imp.errors]
            (folder / name.replace(".csv", ".jsonl")).write_text(
                dumps_session(imp.session) + "\n", encoding="utf-8"
            )
            if kind == "planted":
                names = [p.name or p.id for p in imp.session.players]
                for hand, code, seats, what in spec["mistakes"]:
                    manifest.append({
                        "file": f"{game}/{name}", "hand": hand, "code": code, "seats": seats,
                        "players": ", ".join(names[s] for s in seats) or "the hand",
                        "what": what,
                    })  # fmt: skip
        (folder / "planted.manifest").write_text(
            json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        rows += manifest
    return rows


def _readme_other_games(rows: list[dict[str, Any]]) -> str:
    parts = [
        """
## Zwanzigerrufen and Royal Tarock

Constructed sheets of the other two games (written by hand; `scripts/make_scoresheet_samples.py`
holds them and writes them here with their imports). Each game's folder has a clean sheet, a
sheet with planted mistakes, the import of each (`.jsonl`) and `planted.manifest`:

```sh
tarock import scoresheet sample_logs/scoresheets/zwanzigerrufen/club-evening.csv -o zr.jsonl
tarock audit zr.jsonl
```

| sheet | what |
|---|---|
"""
    ]
    for game, spec in OTHER_GAMES.items():
        for kind in ("clean", "planted"):
            name, _text, what = spec[kind]
            parts.append(f"| `{game}/{name}` | {kind}: {what} |\n")
    parts.append(
        "\nThe clean sheets audit with no finding (every hand `partial`: facts only). For the "
        "planted sheets `tarock audit` reports exactly these findings (hand: the sheet's row of "
        "that game; result: the match result line):\n\n"
        "| # | sheet | hand | code | players | what was planted |\n|---|---|---|---|---|---|\n"
    )
    for i, r in enumerate(rows, start=1):
        hand = r["hand"] if r["hand"] is not None else "result"
        parts.append(
            f"| {i} | `{r['file']}` | {hand} | `{r['code']}` | {r['players']} | {r['what']} |\n"
        )
    return "".join(parts)


def _readme(planted_rows: list[dict[str, Any]], sheets: list[tuple[str, str, str, int]]) -> str:
    rows = "\n".join(
        f"| {i} | `{r['file']}` | {r['hand']} | `{r['code']}` | {r['players']} | {r['what']} |"
        for i, r in enumerate(planted_rows, start=1)
    )
    files = "\n".join(f"| `{f}` | {t} | {p} | {n} |" for f, t, p, n in sheets)
    return f"""# Score sheets: a Slovenian tournament round, Zwanzigerrufen and Royal Tarock

The score sheets of round 1 of a simulated tournament (`{SPEC.command("…")}`): four tables,
three of 4 players and one of 5, 16 hands each (20 at the table of five). Each sheet is one
table's sitting as a tournament writes it: one row per hand with the contract, declarer,
partner, called king, won or lost, card points and difference, the bonuses (`D`/`O`: the
declarer's side or the defenders, `A` announced, `+` made or `-` failed), kontras, mondfang, the
points written per player, the running totals and the radelci, and the placement points under
the last hand. The CSV layout is docs/importers.md ("score sheets"). Generated by
`scripts/make_scoresheet_samples.py` (do not edit by hand: `tests/tools/test_scoresheet_samples.py`
regenerates this folder and compares it byte for byte).

| sheet | table | players in seat order | hands |
|---|---|---|---|
{files}

`round-1.jsonl` is the import of the four sheets (hands recorded as facts, format 1.1):

```sh
tarock import scoresheet sample_logs/scoresheets/round-1-table-*.csv -o round-1.jsonl
tarock audit round-1.jsonl
```

The sheet of table {PLANTED_TABLE} has two planted arithmetic errors and a forgotten radelc; the
other sheets are correct. `tarock audit` reports exactly these findings (the hand is the sheet's
row of that hand; `planted.manifest` is the same list, machine-readable), and every hand is
`partial`: legality of play not checked.

| # | sheet | hand | code | players | what was planted |
|---|---|---|---|---|---|
{rows}

`malformed/bad-cells.csv` has bad cells: `tarock import scoresheet` reports each (line and
column) and imports the other rows:

```text
malformed/bad-cells.csv:7: column 'contract': sheet.contract: 'sedem' is no slovenian contract (...)
malformed/bad-cells.csv:8: column 'declarer': sheet.player: 'Marko' is not at the table (Ana, Bor, Cene, Dani)
malformed/bad-cells.csv:9: column 'points': sheet.number: 'x30' is not a number
malformed/bad-cells.csv:11: column 'difference': sheet.number: 'five' is not a number
```
"""  # noqa: E501


def build(out: Path) -> None:
    """Write every file of the folder into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    result = simulate_tournament(SPEC)
    (docs,) = result.files.values()
    sheets: list[str] = []
    manifest: list[dict[str, Any]] = []
    for doc in docs:
        session = m.SessionAdapter.validate_python(doc)
        lines = _sheet_lines(session)
        ev = session.event
        assert ev is not None
        name = f"round-{ev.round}-table-{ev.table}.csv"
        planted = None
        if ev.table == PLANTED_TABLE:
            for planted in _plants(session, lines):
                try:
                    text = _write_sheet(session, lines, planted)
                    break
                except _MovesPlaces:
                    continue
        else:
            text = _write_sheet(session, lines, None)
        (out / name).write_text(text, encoding="utf-8")
        names = [p.name or p.id for p in session.players]
        sheets.append((name, ev.table or "", ", ".join(names), len(session.hands)))
        if planted:
            n = len(names)
            seats = planted["score_seats"]
            manifest += [{
                "file": name, "hand": planted["score_hand"], "code": "score.total_differs",
                "seats": seats, "players": ", ".join(names[s] for s in seats),
                "what": "the declarer's side wrote 10 points too many (the running totals go "
                        "on from the wrong score)",
            }, {
                "file": name, "hand": planted["sum_hand"], "code": "score.running_total_differs",
                "seats": [planted["sum_seat"]], "players": names[planted["sum_seat"]],
                "what": "a running total 10 too high (an addition error, carried on)",
            }, {
                "file": name, "hand": planted["radelc_hand"], "code": "score.radelci_after_differs",
                "seats": list(range(n)), "players": "everyone",
                "what": "the radelc everyone earned in this hand was not drawn (the sheet goes on "
                        "without it)",
            }]  # fmt: skip
    (out / "malformed").mkdir(exist_ok=True)
    (out / "malformed" / "bad-cells.csv").write_text(BAD_CELLS, encoding="utf-8")
    imported = [import_sheet(out / s[0]) for s in sheets]
    for imp in imported:
        assert not imp.errors and imp.session is not None, [str(e) for e in imp.errors]
    text = "".join(dumps_session(imp.session) + "\n" for imp in imported if imp.session)
    (out / "round-1.jsonl").write_text(text, encoding="utf-8")
    (out / "planted.manifest").write_text(
        json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    others = _build_other_games(out)
    (out / "README.md").write_text(
        _readme(manifest, sheets) + _readme_other_games(others), encoding="utf-8"
    )


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "sample_logs" / "scoresheets")
