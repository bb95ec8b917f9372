"""Importers: other programs' and people's records → the tarock log format (``docs/log-format.md``).

Each importer is registered in :data:`IMPORTERS` with what it reads, what it can and cannot
carry into a log, and its command (``tarock import --list`` prints them; ``docs/importers.md``
documents each with an example):

* :mod:`tarock_logs.tools.importers.openspiel`: OpenSpiel ``tarok`` games (deal seed + action ids);
* :mod:`tarock_logs.tools.importers.scoresheet`: tournament score sheets (CSV), as hands
  recorded as facts without cards (format 1.1).

A new importer is a module here, a ``tarock import NAME`` command in ``tarock_logs/cli/`` and one
:class:`Importer` entry.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["IMPORTERS", "Importer"]


@dataclass(frozen=True, slots=True)
class Importer:
    """One registered importer: its ``name`` (the ``tarock import NAME`` command), the
    ``command`` line that runs it, what it reads (``input``), what it ``carries`` into a log
    and what it ``cannot_carry``, and its module."""

    name: str
    command: str
    input: str
    carries: str
    cannot_carry: str
    module: str


IMPORTERS: dict[str, Importer] = {
    "openspiel": Importer(
        name="openspiel",
        command="tarock import openspiel FILE.jsonl -o OUT.jsonl",
        input="JSONL: one OpenSpiel tarok game a line (players, serialized state, returns)",
        carries="the deal (from its seed), every action, OpenSpiel's returns as the recorded "
        "score; Slovenian tarok under openspiel-2.0, one session per game",
        cannot_carry="players' names, sessions, dealer rotation, radelci, irregularities",
        module="tarock_logs.tools.importers.openspiel",
    ),
    "scoresheet": Importer(
        name="scoresheet",
        command="tarock import scoresheet FILE.csv [FILE.csv ...] [-o OUT.jsonl]",
        input="CSV: a tournament score sheet, one row per hand, players in seat order "
        "(docs/importers.md)",
        carries="per hand the contract, declarer, partner, called card, won or lost, card "
        "points or difference, bonuses, kontras, mondfang, renons, the points written, "
        "running totals and radelci; placement points; event, round and table; "
        "Zwanzigerrufen running sheets (double-round markers) and Royal Tarock match sheets "
        "(per pair: items, consolation, game value, running sum; the match result)",
        cannot_carry="the cards and the play (hands are facts only: legality not checked); "
        "the value of a Royal Tarock item the catalogue does not know (reported, not guessed)",
        module="tarock_logs.tools.importers.scoresheet",
    ),
}
