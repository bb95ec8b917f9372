"""Importers are plug-ins of the entry-point group ``tarock_logs.importers``: pyproject.toml
declares every built-in under the group (naming the very objects the code registers), and
``tarock import --list`` shows every importer of the group, including a test-only plug-in
installed here (a ``*.dist-info`` on ``sys.path``); a broken or clashing plug-in is reported,
never fatal."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.log.models import SessionAdapter
from tarock_logs.tools.importers import BUILTINS, ENTRY_POINT_GROUP, Importer, Reject, discover

ROOT = Path(__file__).resolve().parents[2]

PLUGIN = """
from tarock_logs.tools.importers import Conversion, Importer, Reject


def convert(paths):
    out = Conversion()
    for p in paths:
        for k, line in enumerate(p.read_text().splitlines(), start=1):
            parts = line.split(",")
            if len(parts) != 5 or not all(x.lstrip("-").isdigit() for x in parts[1:]):
                out.rejects.append(Reject(str(p), k, "points", "acme.row", repr(line)))
                continue
            out.sessions.append({
                "format": "tarock-log", "format_version": "1.1", "id": f"acme-{k}",
                "game": "slovenian", "ruleset": "si-tournament-2021",
                "players": [{"id": n} for n in ("ana", "bor", "cene", "dani")],
                "hands": [{"number": 1, "dealer": 3, "extent": "partial",
                           "facts": {"contract": parts[0], "declarer": 0, "won": True,
                                     "difference": 0},
                           "result": {"scores": [int(x) for x in parts[1:]]}}],
                "source": {"original_id": f"row {k}"},
            })
    return out


def explode(paths):
    raise RuntimeError("the ACME parser broke")


IMPORTER = Importer(
    name="acme",
    command="tarock import acme FILE.acme -o OUT.jsonl",
    input="ACME club records",
    carries="the contract and the written points",
    cannot_carry="the cards",
    module="acme_tarock",
    formats=("acme-xml",),
    games=("slovenian",),
    version="0.3",
    convert=convert,
)
BROKEN = Importer(
    name="broken", command="x", input="x", carries="x", cannot_carry="x", module="x",
    convert=explode,
)
CLASH = Importer(
    name="openspiel", command="x", input="x", carries="x", cannot_carry="x", module="x"
)
NOT_AN_IMPORTER = 42
"""


def _install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry_points: str) -> None:
    """A test-only distribution ``acme-tarock`` on sys.path, with the given entry points."""
    (tmp_path / "acme_tarock.py").write_text(PLUGIN, encoding="utf-8")
    info = tmp_path / "acme_tarock-0.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: acme-tarock\nVersion: 0.3\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\n{entry_points}", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()


def test_pyproject_declares_every_builtin_under_the_group() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = project["entry-points"][ENTRY_POINT_GROUP]
    assert (
        set(declared) == set(BUILTINS) == {"openspiel", "scoresheet", "palcka", "scoreboard", "cup"}
    )
    for name, target in declared.items():
        module, _, attr = target.partition(":")
        assert getattr(importlib.import_module(module), attr) is BUILTINS[name]


def test_list_shows_a_plugin_installed_through_the_entry_point_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(tmp_path, monkeypatch, "acme = acme_tarock:IMPORTER\n")
    found = discover()
    assert list(found.importers)[:3] == ["openspiel", "scoresheet", "palcka"]
    assert found.importers["acme"].version == "0.3"
    assert found.origin["acme"] == "acme-tarock" and found.origin["palcka"] == "builtin"
    assert found.problems == []
    r = CliRunner().invoke(app, ["import", "--list"])
    assert r.exit_code == 0, r.output
    blocks = {chunk.splitlines()[0]: chunk for chunk in _blocks(r.stdout)}
    assert set(blocks) == {"openspiel", "scoresheet", "palcka", "scoreboard", "cup", "acme"}
    acme = blocks["acme"]
    assert "usage:   tarock import acme FILE.acme -o OUT.jsonl" in acme
    assert "reads:   ACME club records" in acme and "cannot:  the cards" in acme
    assert "formats: acme-xml" in acme and "games:   slovenian" in acme
    assert "from:    acme-tarock" in acme
    assert "formats: palcka-messages, palcka-gamelog" in blocks["palcka"]
    assert "formats: tarok-scoreboard-json" in blocks["scoreboard"]
    assert "games:   slovenian" in blocks["scoreboard"] and "from:    builtin" in blocks["cup"]
    assert "formats: cup-tsv" in blocks["cup"] and "games:   zwanzigerrufen" in blocks["cup"]


def _blocks(text: str) -> list[str]:
    out: list[str] = []
    for line in text.splitlines():
        if line and not line.startswith(" "):
            out.append(line)
        elif out:
            out[-1] += "\n" + line
    return out


def test_a_broken_or_clashing_plugin_is_reported_and_the_list_still_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(
        tmp_path,
        monkeypatch,
        "gone = acme_missing_module:IMPORTER\nopenspiel = acme_tarock:CLASH\n"
        "number = acme_tarock:NOT_AN_IMPORTER\nwrongname = acme_tarock:IMPORTER\n",
    )
    found = discover()
    assert set(found.importers) == set(BUILTINS)
    assert found.importers["openspiel"] is BUILTINS["openspiel"]
    problems = "\n".join(found.problems)
    assert "gone (acme-tarock): cannot load" in problems
    assert "openspiel (acme-tarock): the name is taken by builtin" in problems
    assert "number (acme-tarock): acme_tarock:NOT_AN_IMPORTER is no Importer" in problems
    assert "wrongname (acme-tarock): the importer calls itself 'acme'" in problems
    r = CliRunner().invoke(app, ["import", "--list"])
    assert r.exit_code == 0
    assert "plug-in not loaded: gone" in r.stderr


def test_a_plugin_with_convert_runs_as_tarock_import_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(tmp_path, monkeypatch, "acme = acme_tarock:IMPORTER\nbroken = acme_tarock:BROKEN\n")
    rows = tmp_path / "club.acme"
    rows.write_text("three,10,10,0,0\nthree,ten,0,0,0\ntwo,20,0,20,0\n", encoding="utf-8")
    out = tmp_path / "club.jsonl"
    r = CliRunner().invoke(app, ["import", "acme", str(rows), "-o", str(out)])
    assert r.exit_code == 1, r.output  # one row rejected
    assert r.stderr.splitlines()[0] == f"{rows}:2: field 'points': acme.row: 'three,ten,0,0,0'"
    assert "acme: 1 file(s), 2 session(s) imported, 1 record(s) rejected" in r.stderr
    sessions = [SessionAdapter.validate_json(line) for line in out.read_text().splitlines()]
    assert [s.id for s in sessions] == ["acme-1", "acme-3"]
    assert all(s.source is not None and s.source.importer == "acme" for s in sessions)
    assert sessions[0].source is not None and sessions[0].source.original_id == "row 1"
    r = CliRunner().invoke(app, ["import", "broken", str(rows)])
    assert r.exit_code == 3 and "importer broken failed: RuntimeError" in r.stderr
    r = CliRunner().invoke(app, ["import", "acme", str(tmp_path / "none.acme")])
    assert r.exit_code == 2
    r = CliRunner().invoke(app, ["import", "nosuch", str(rows)])
    assert r.exit_code == 2 and "No such command" in r.output


def test_a_reject_is_located() -> None:
    r = Reject("g.json", 7, "card.id", "palcka.card", "unknown card '/pik/as'")
    assert str(r) == "g.json:7: field 'card.id': palcka.card: unknown card '/pik/as'"
    assert str(Reject("g.json", 1, None, "palcka.file", "not JSON")) == (
        "g.json:1: palcka.file: not JSON"
    )
    assert isinstance(BUILTINS["palcka"], Importer)
