"""``sample_logs/tournament`` and ``sample_logs/disputed`` are exactly what ``tarock simulate``
regenerates, the tournament audits clean, and every planted dispute is found."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.log.models import Session, SessionAdapter
from tarock_logs.rules import get_engine
from tarock_logs.verdict.audit import SessionAudit, audit_session
from tarock_logs.verdict.tournament import audit_tournaments

ROOT = Path(__file__).resolve().parents[2] / "sample_logs"

#: The documented commands (sample_logs/tournament/README.md, sample_logs/disputed/README.md).
COMMANDS = {
    "tournament": ["--game", "slovenian", "--seed", "2026", "--tables", "4,4,5", "--rounds", "3",
                   "--games-per-round", "16"],
    "disputed": ["--game", "slovenian", "--seed", "2027", "--tables", "4,4,4,4,5", "--rounds",
                 "1", "--games-per-round", "8", "--plant-disputes", "5"],
}  # fmt: skip

pytestmark = pytest.mark.skipif(
    get_engine("slovenian") is None, reason="the Slovenian engine has not landed yet"
)


def _generated(folder: Path) -> list[str]:
    names = [p.name for p in folder.iterdir() if p.suffix in (".jsonl", ".manifest")]
    if (folder / "disputes.manifest").exists():
        names.append("README.md")
    return sorted(names)


def _sessions(folder: Path) -> list[tuple[str, Session]]:
    return [
        (f.name, SessionAdapter.validate_json(line))
        for f in sorted(folder.glob("*.jsonl"))
        for line in f.read_bytes().splitlines()
    ]


def _audit(folder: Path) -> dict[str, SessionAudit]:
    audits = [audit_session(s, file=name) for name, s in _sessions(folder)]
    audit_tournaments(audits)
    return {sa.session: sa for sa in audits}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_sample_logs_are_byte_identical_to_a_regeneration(name: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["simulate", *COMMANDS[name], "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    committed = ROOT / name
    assert _generated(committed) == _generated(tmp_path)
    for f in _generated(tmp_path):
        assert (committed / f).read_bytes() == (tmp_path / f).read_bytes(), f"{name}/{f} differs"


def test_the_sample_tournament_has_13_players_3_rounds_and_tables_of_4_4_5() -> None:
    sessions = _sessions(ROOT / "tournament")
    assert len({p.id for _, s in sessions for p in s.players}) == 13
    assert sorted({s.event.round for _, s in sessions}) == [1, 2, 3]
    for rnd in (1, 2, 3):
        at = sorted(len(s.players) for _, s in sessions if s.event.round == rnd)
        assert at == [4, 4, 5]
    for _, s in sessions:
        assert len(s.hands) == (20 if len(s.players) == 5 else 16)
        assert s.event.tournament and s.event.date and s.event.site and s.event.table
        assert s.recorded.totals is not None and s.recorded.placement_points is not None


def test_every_sample_tournament_hand_replays_legal_and_scores_as_recorded() -> None:
    audits = _audit(ROOT / "tournament")
    hands = 0
    for sa in audits.values():
        assert not sa.discrepancies and not sa.unverified, (sa.session, sa.discrepancies)
        for ha in sa.hands:
            hands += 1
            assert ha.legal and not ha.discrepancies and not ha.unverified, (ha.session, ha.hand)
    assert hands == 3 * (16 + 16 + 20)


def test_every_planted_dispute_is_reported_and_nothing_else() -> None:
    folder = ROOT / "disputed"
    manifest = orjson.loads((folder / "disputes.manifest").read_bytes())
    audits = _audit(folder)
    assert len(manifest) == len(audits) == 5
    for p in manifest:
        sa = audits[p["session"]]
        e = p["expect"]
        expected_hand_errors: set[tuple[int | None, str]] = set()
        expected_hand_disc: set[tuple[str, int | None, int, int]] = set()
        expected_session_disc: set[tuple[str, int | None]] = set()
        if "violations" in e:
            expected_hand_errors = {(p["action_index"], c) for c in e["violations"]}
        if "item" in e:
            for s in e["seats"]:
                expected_hand_disc.add((e["item"], s, e["recorded"], e["recomputed"]))
            for s, t in e["totals"].items():
                expected_hand_disc.add(("total", int(s), t["recorded"], t["recomputed"]))
            expected_session_disc |= {("session_total", int(s)) for s in e["session_total"]}
        if "placement_points" in e:
            expected_session_disc |= {
                ("placement_points", s) for s in e["placement_points"]["seats"]
            }
        for ha in sa.hands:
            errors = {(v.action_index, v.code) for v in ha.violations if v.severity == "error"}
            disc = {(d.item, d.seat, d.recorded, d.recomputed) for d in ha.discrepancies}
            if ha.hand == p["hand"]:
                assert errors == expected_hand_errors, (p["session"], ha.hand, errors)
                assert disc == expected_hand_disc, (p["session"], ha.hand, disc)
            else:
                assert not errors and not disc, (p["session"], ha.hand, errors, disc)
        assert {(d.item, d.seat) for d in sa.discrepancies} == expected_session_disc


def test_the_disputed_readme_lists_every_planted_dispute() -> None:
    folder = ROOT / "disputed"
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for p in orjson.loads((folder / "disputes.manifest").read_bytes()):
        assert p["session"] in readme
        for code in p["expect"].get("violations", []):
            assert f"`{code}`" in readme
