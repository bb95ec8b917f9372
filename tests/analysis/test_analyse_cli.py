"""``tarock analyse`` and the per-card analysis of recorded hands (all cards visible)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tarock_logs import _native
from tarock_logs.analysis.hand import LABEL, iter_analyses
from tarock_logs.cli import app
from tarock_logs.log.reader import read_sessions
from tests.analysis.support import needs_native

DISPUTED = Path(__file__).resolve().parents[2] / "sample_logs" / "disputed"
SESSION_A = "sim-slovenian-2027-r1-A"  # hand 2: seat 1 played H4 while holding CK


@needs_native
def test_the_illegal_card_of_the_disputed_sample_did_not_change_the_result() -> None:
    session = next(s for s in read_sessions([DISPUTED]) if s.id == SESSION_A)
    (ha,) = iter_analyses(session, hands={2}, last_tricks=4)
    (bad,) = ha.illegal
    assert (bad.action_index, bad.seat, bad.card, bad.trick) == (22, 1, "H4", 3)
    assert bad.best_cards == ("CK",) and bad.value == bad.best_value and bad.changed == ()
    assert all(c.consistent for c in ha.cards)
    assert next(c.tricks_left for c in ha.cards if c.legal) == 4
    for c in ha.cards:
        values = dict(c.values)
        if c.legal:
            assert values[c.card] == c.value and c.loss >= 0
        assert all(values[b] == c.best_value for b in c.best_cards)


@needs_native
def test_cli_json_reports_every_card_with_the_label_and_the_illegal_card_verdict() -> None:
    r = CliRunner().invoke(app, ["analyse", str(DISPUTED), "--session", SESSION_A, "--hand",
                                 "2", "--last-tricks", "3", "--format", "json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["label"] == LABEL and LABEL in doc["note"]
    (hand,) = doc["hands"]
    assert hand["label"] == LABEL and hand["contract"] == "three"
    assert len(hand["cards"]) == 1 + 3 * 4  # the illegal card and the last three tricks
    (verdict,) = hand["illegal_cards"]
    assert verdict["card"] == "H4" and verdict["changed_result"] is False
    assert verdict["verdict"].startswith("no:")
    assert doc["summary"]["illegal_cards"] == 1


@needs_native
def test_cli_table_and_jsonl() -> None:
    args = ["analyse", str(DISPUTED), "--session", SESSION_A, "--hand", "2", "--last-tricks",
            "2"]  # fmt: skip
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0
    assert LABEL in r.stdout and "did it change the result" in r.stdout
    # hand 1 has no illegal card: the pure-Python solver does its last two tricks quickly
    args[5] = "1"
    r = CliRunner().invoke(app, [*args, "--format", "jsonl", "--backend", "python"])
    assert r.exit_code == 0
    (line,) = r.stdout.strip().splitlines()
    doc = json.loads(line)
    assert doc["backend"] == "python" and len(doc["cards"]) == 8 and doc["label"] == LABEL


@needs_native
def test_cli_hand_budget_values_a_whole_hand_from_its_last_card_as_far_as_it_goes() -> None:
    """``--last-tricks 12 --hand-budget N``: a whole hand valued from the last card back; the
    earlier cards the budget does not reach are undecided, and the table says why."""
    args = ["analyse", str(DISPUTED), "--session", SESSION_A, "--hand", "3", "--last-tricks",
            "12", "--no-lines", "--hand-budget", "3000000"]  # fmt: skip
    r = CliRunner().invoke(app, [*args, "--format", "json"])
    assert r.exit_code == 0, r.output
    (hand,) = json.loads(r.stdout)["hands"]
    assert hand["hand_budget"] == 3_000_000 and hand["hand_budget_hit"] is True
    first_valued = min(c["action_index"] for c in hand["cards"])
    assert hand["undecided"] and all(u["action_index"] < first_valued for u in hand["undecided"])
    assert len(hand["cards"]) + len(hand["undecided"]) == 48
    r = CliRunner().invoke(app, args)
    assert "the hand budget (3,000,000 cards played) left the earlier cards" in r.stdout


def test_cli_usage_errors() -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["analyse", "nope.jsonl"]).exit_code == 2
    assert runner.invoke(app, ["analyse", str(DISPUTED), "--format", "csv"]).exit_code == 2
    assert runner.invoke(app, ["analyse", str(DISPUTED), "--session", "x"]).exit_code == 2


def test_tarock_native_0_forces_the_pure_python_solver() -> None:
    code = ("from tarock_logs import _native; from tarock_logs.analysis.native import "
            "make_solver; print(_native.core is None, _native.why_not)")  # fmt: skip
    env = {**os.environ, "TAROCK_NATIVE": "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    assert out.startswith("True switched off by TAROCK_NATIVE=0")


@needs_native
def test_the_dossier_says_whether_the_illegal_card_changed_the_result() -> None:
    from tarock_logs.report.dossier import render_dossier

    session = next(s for s in read_sessions([DISPUTED]) if s.id == SESSION_A)
    html = render_dossier(session, 2)
    assert f"Did the illegal card change the result? ({LABEL})" in html
    assert "H4 in trick 3: no: H4 leaves 48, as the best legal card (CK) does." in html
    assert "Did the illegal card" not in render_dossier(session, 1)


#: what a package built without a C compiler looks like: ``tarock_logs._native._core`` absent
HIDE_THE_EXTENSION = """
import sys
class HideTheExtension:
    def find_spec(self, name, path=None, target=None):
        if name == "tarock_logs._native._core":
            raise ImportError("not built (hidden by the test)")
        return None
sys.meta_path.insert(0, HideTheExtension())
from tarock_logs import _native
assert _native.core is None and "not built" in _native.why_not, _native.why_not
from tarock_logs.cli import app
app(sys.argv[1:], prog_name="tarock")
"""


def test_without_the_extension_the_pure_python_solver_gives_the_same_values() -> None:
    """A package built without a compiler has no ``_core`` (and TAROCK_NATIVE unset): every card
    is valued by the pure-Python solver, with the native solver's values and verdicts."""
    args = ["analyse", str(DISPUTED), "--session", SESSION_A, "--hand", "1", "--last-tricks",
            "3", "--format", "jsonl"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "TAROCK_NATIVE"}
    hidden = subprocess.run([sys.executable, "-c", HIDE_THE_EXTENSION, *args], env=env,
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    (python_doc,) = [json.loads(line) for line in hidden.splitlines()]
    (doc,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert python_doc["backend"] == "python"
    assert doc["backend"] == ("native" if _native.available() else "python")
    assert len(python_doc["cards"]) == len(doc["cards"]) == 3 * 4

    def values(d: dict[str, Any]) -> list[tuple[Any, ...]]:
        return [(c["card"], c["value"], c["best_value"], c["loss"], json.dumps(c["values"]))
                for c in d["cards"]]  # fmt: skip

    assert values(python_doc) == values(doc)
    assert python_doc["undecided"] == doc["undecided"] == []


def test_cli_player_view_gives_reproducible_values_with_samples_and_seed() -> None:
    """``--view player``: every output says what the player knew, the samples and the seed;
    the same seed gives the same values, another seed other samples."""
    args = ["analyse", str(DISPUTED), "--session", SESSION_A, "--hand", "2", "--last-tricks",
            "2", "--view", "player", "--samples", "6", "--format", "json"]  # fmt: skip
    runs = [CliRunner().invoke(app, [*args, "--seed", s]) for s in ("7", "7", "8")]
    docs = []
    for r in runs:
        assert r.exit_code == 0, r.output
        doc = json.loads(r.stdout)
        for d in (doc["summary"], *doc["hands"]):
            d.pop("seconds")
        docs.append(doc)
    a, b, c = docs
    assert a == b and a != c
    assert a["label"] == "what the player knew" and a["view"] == "player"
    assert (a["samples"], a["seed"]) == (6, 7) and a["summary"]["samples"] == 6
    (hand,) = a["hands"]
    assert (hand["samples"], hand["seed"], hand["label"]) == (6, 7, "what the player knew")
    assert len(hand["cards"]) == 8
    assert all(x["samples"] == 6 and x["seed"].startswith("7:") for x in hand["cards"])
    table = CliRunner().invoke(app, args[:-2] + ["--seed", "7"])
    assert table.exit_code == 0
    assert "what the player knew, 6 samples per card, seed 7" in table.stdout
    assert "with 6 samples per card, seed 7" in table.stdout


def test_cli_default_view_is_all_cards_visible() -> None:
    r = CliRunner().invoke(app, ["analyse", str(DISPUTED), "--session", SESSION_A, "--hand",
                                 "2", "--last-tricks", "1", "--format", "json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    (hand,) = json.loads(r.stdout)["hands"]
    assert hand["view"] == "all" and hand["label"] == LABEL == "all cards visible"
    bad = CliRunner().invoke(app, ["analyse", str(DISPUTED), "--view", "oracle"])
    assert bad.exit_code == 2
