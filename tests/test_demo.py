"""The main job's demo (``make run``, README "Two commands"): its store holds exactly the hands
of the samples meant to be audited, never the malformed input kept for ``tarock validate``,
and its audit's exit code (1: the planted findings) does not end the demo as an error."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
TAROCK = Path(sys.executable).with_name("tarock")


def _make_variable(name: str) -> str:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(rf"^{name} := (.+)$", text, re.M)
    assert found, f"the Makefile defines {name}"
    return found.group(1).strip()


def _run_recipe() -> list[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    block = text.split("\nrun: ", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.splitlines()[1:]]


def test_the_demo_ingests_and_audits_the_samples_meant_to_be_audited(tmp_path: Path) -> None:
    demo = shlex.split(_make_variable("DEMO"))
    recipe = _run_recipe()
    assert any(line.startswith("$(BIN)/tarock ingest $(DEMO) ") for line in recipe)
    assert "$(BIN)/tarock audit $(DEMO) --summary || test $$? -eq 1" in recipe
    assert not any(line.startswith("-") for line in recipe), "no ignored error in the demo"

    db = tmp_path / "demo.duckdb"
    subprocess.run([TAROCK, "ingest", *demo, "--db", str(db)], cwd=ROOT, check=True,
                   capture_output=True)  # fmt: skip
    audit = subprocess.run(
        [TAROCK, "audit", *demo, "--format", "jsonl"], cwd=ROOT, capture_output=True, text=True
    )
    assert audit.returncode == 1, audit.stderr  # the planted disputes
    records = [json.loads(line) for line in audit.stdout.splitlines() if line.strip()]
    audited = {(r["session"], r["hand_id"]) for r in records if r.get("record") == "hand"}

    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = set(con.execute("SELECT session_id, hand_id FROM hands").fetchall())
        files = {f for (f,) in con.execute("SELECT DISTINCT file FROM raw_logs").fetchall()}
        rejects = con.execute("SELECT count(*) FROM rejects").fetchall()[0][0]
    finally:
        con.close()
    assert stored == audited and len(stored) > 150
    assert not any("malformed" in Path(f).parts for f in files)
    assert rejects == 0
