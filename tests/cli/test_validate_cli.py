"""`tarock validate`, `tarock fmt` and `tarock schema` through typer's CliRunner."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from tarock_logs.cli import app

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"
MALFORMED = SAMPLES / "malformed"
runner = CliRunner()
#: ``: error: code:`` or ``: warning: code:`` in an error line
_FINDING = re.compile(r": (?:error|warning): [a-z_]+\.[a-z0-9_]+: ")


def _run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_validate_samples_without_malformed_exits_0():
    r = _run("validate", str(SAMPLES), "--exclude", "malformed", "--format", "json")
    assert r.exit_code == 0, r.stdout
    d = json.loads(r.stdout)
    assert set(d) >= {"files", "sessions", "hands_valid", "hands_invalid", "errors_by_code",
                      "errors"}  # fmt: skip
    assert d["hands_invalid"] == 0 and d["errors"] == []
    assert d["hands_valid"] >= 2 + 4 + 8  # appendix B, FD1-FD4, the Royal match


def test_validate_malformed_exits_1_with_one_located_line_per_planted_defect():
    r = _run("validate", str(MALFORMED))
    assert r.exit_code == 1
    assert "Traceback" not in r.stdout + r.stderr
    expected = 0
    for line in (MALFORMED / "README.md").read_text().splitlines():
        if line.startswith("| `"):
            expected += len(line.split("|")[2].split())
    error_lines = [ln for ln in r.stdout.splitlines() if _FINDING.search(ln)]
    assert len(error_lines) == expected
    for ln in error_lines:
        assert ln.startswith(str(MALFORMED)), ln
        head = _FINDING.split(ln)[0]
        assert head.split(":")[1].split(" ")[0].isdigit(), f"no line number in {ln}"


def test_validate_json_lists_every_error_as_a_dict():
    r = _run("validate", str(MALFORMED), "--format", "json")
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    assert sum(d["errors_by_code"].values()) == len(d["errors"])
    keys = {"code", "message", "file", "line", "session", "hand", "action_index", "path",
            "severity"}  # fmt: skip
    assert all(set(e) == keys for e in d["errors"])
    dup = next(e for e in d["errors"] if e["code"] == "json.duplicate_key")
    assert (dup["hand"], dup["action_index"], dup["path"]) == (
        1, 13, "$.hands[0].actions[13].card",
    )  # fmt: skip


def test_each_hazard_file_alone_gives_exit_1_and_one_located_line():
    for name in ("file.not_a_log.json", "file.truncated.json", "json.bom.json",
                 "file.empty.jsonl", "json.depth.json"):  # fmt: skip
        r = _run("validate", str(MALFORMED / name))
        assert r.exit_code == 1, name
        lines = [ln for ln in r.stdout.splitlines() if _FINDING.search(ln)]
        assert len(lines) == 1 and lines[0].startswith(f"{MALFORMED / name}:1"), (name, lines)


def test_a_warning_alone_keeps_exit_0(tmp_path):
    shutil.copy(MALFORMED / "deal.dealer_rotation.jsonl", tmp_path)
    r = _run("validate", str(tmp_path))
    assert r.exit_code == 0
    [line] = [ln for ln in r.stdout.splitlines() if _FINDING.search(ln)]
    assert ": warning: deal.dealer_rotation: hand 2 is dealt by seat" in line
    assert "0 errors, 1 warning" in r.stdout


def test_error_lines_say_error_and_the_summary_counts_in_words(tmp_path):
    shutil.copy(MALFORMED / "card.unknown.jsonl", tmp_path)
    r = _run("validate", str(tmp_path))
    assert r.exit_code == 1
    [line] = [ln for ln in r.stdout.splitlines() if _FINDING.search(ln)]
    assert ": error: card.unknown: 'HX' is not a card" in line
    assert (
        "1 file, 1 session read (0 unreadable), 0 hands valid, 1 invalid; 1 error, 0 warnings"
        in (" ".join(r.stdout.split()))
    )


def test_missing_path_and_bad_format_are_usage_errors():
    assert _run("validate", str(ROOT / "no-such-folder")).exit_code == 2
    assert _run("validate", str(SAMPLES), "--format", "xml").exit_code == 2


def test_quiet_prints_the_summary_without_error_lines():
    r = _run("validate", str(MALFORMED), "--quiet")
    assert r.exit_code == 1
    assert not _FINDING.search(r.stdout)


def test_console_script_never_prints_a_traceback_on_malformed_input():
    exe = Path(sys.executable).parent / "tarock"
    p = subprocess.run([str(exe), "validate", str(MALFORMED)], capture_output=True, text=True,
                       timeout=120)  # fmt: skip
    assert p.returncode == 1
    assert "Traceback" not in p.stdout + p.stderr


# --------------------------------------------------------------------------- fmt and schema


def test_fmt_check_passes_on_canonical_samples_and_flags_a_noncanonical_file(tmp_path):
    assert _run("fmt", "--check", str(SAMPLES), "--exclude", "malformed").exit_code == 0
    s = json.loads((SAMPLES / "slovenian" / "appendix-b.json").read_text())[0]
    s["hands"][0]["deal"]["talon"] = ["iii", "s7", "XII", "H1", "xx", "T10"]
    f = tmp_path / "messy.json"
    f.write_text(json.dumps(s))
    r = _run("fmt", "--check", str(f))
    assert r.exit_code == 1 and "would reformat" in r.stdout
    assert json.loads(f.read_text()) == s  # --check writes nothing
    r = _run("fmt", str(f))  # to stdout: the file is left as it is
    assert r.exit_code == 0
    assert json.loads(r.stdout)["hands"][0]["deal"]["talon"][0] == "T3"
    assert json.loads(f.read_text()) == s
    assert _run("fmt", str(f), "-o", "-").stdout == r.stdout  # -o - is stdout too
    r = _run("fmt", "--in-place", str(f))
    assert r.exit_code == 0 and "reformatted" in r.stdout
    assert json.loads(f.read_text())["hands"][0]["deal"]["talon"][0] == "T3"
    assert _run("fmt", "--check", str(f)).exit_code == 0


def test_fmt_out_folder_mirrors_inputs_and_refuses_files_with_errors(tmp_path):
    r = _run("fmt", str(SAMPLES / "zwanzigerrufen"), "-o", str(tmp_path / "out"))
    assert r.exit_code == 0
    assert (tmp_path / "out" / "fd-examples.json").read_bytes() == (
        SAMPLES / "zwanzigerrufen" / "fd-examples.json"
    ).read_bytes()
    bad = tmp_path / "bad.jsonl"
    shutil.copy(MALFORMED / "card.unknown.jsonl", bad)
    before = bad.read_bytes()
    r = _run("fmt", "--in-place", str(bad))
    assert r.exit_code == 1
    assert bad.read_bytes() == before


def test_fmt_repairs_a_byte_order_mark(tmp_path):
    f = tmp_path / "bom.json"
    shutil.copy(MALFORMED / "json.bom.json", f)
    assert _run("fmt", "-i", str(f)).exit_code == 0
    assert not f.read_bytes().startswith(b"\xef\xbb\xbf")
    assert _run("validate", str(f)).exit_code == 0


def test_schema_command_writes_the_committed_files(tmp_path):
    r = _run("schema", "--out", str(tmp_path))
    assert r.exit_code == 0
    for name in ("session", "hand", "action"):
        committed = (ROOT / "schemas" / f"{name}.schema.json").read_text()
        assert (tmp_path / f"{name}.schema.json").read_text() == committed


def test_a_mixed_folder_reports_every_good_hand_valid(tmp_path):
    shutil.copy(SAMPLES / "slovenian" / "appendix-b.json", tmp_path / "good.json")
    shutil.copy(MALFORMED / "mixed.jsonl", tmp_path / "mixed.jsonl")
    shutil.copy(MALFORMED / "json.depth.json", tmp_path / "deep.json")
    r = _run("validate", str(tmp_path), "--format", "json")
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    assert d["files"] == 3
    assert d["hands_valid"] == 2 + 4  # appendix B.1/B.2; mixed: 1 + 2 + 1
    assert d["hands_invalid"] == 1
    assert d["errors_by_code"] == {"card.unknown": 1, "json.depth": 1, "json.syntax": 1}


def test_a_session_and_hand_read_twice_are_warnings(tmp_path):
    for name in ("a.json", "b.json"):
        shutil.copy(SAMPLES / "slovenian" / "appendix-b.json", tmp_path / name)
    r = _run("validate", str(tmp_path), "--format", "json")
    assert json.loads(r.stdout)["errors"] == []  # off by default
    r = _run("validate", str(tmp_path), "--format", "json", "--duplicates")
    assert r.exit_code == 0
    d = json.loads(r.stdout)
    assert d["errors_by_code"] == {"hand.duplicate": 2, "session.duplicate": 2}
    dup = next(e for e in d["errors"] if e["code"] == "hand.duplicate")
    assert dup["file"].endswith("b.json") and dup["severity"] == "warning"
    assert "a.json" in dup["message"]


# --------------------------------------------------------------------------- hardening (issue 14)


def _b1_with(**edits: object) -> dict:
    s = json.loads((SAMPLES / "slovenian" / "appendix-b.json").read_text())[0]
    s.update(edits)
    return s


def test_lone_surrogate_in_a_rejected_hand_exits_1_in_validate_and_fmt_without_a_traceback(
    tmp_path,
):
    s = _b1_with()
    s["hands"][0]["notes"] = "MARK"
    f = tmp_path / "s.jsonl"
    f.write_text(json.dumps(s).replace("MARK", "\\ud800") + "\n")
    for args in (["validate", str(f)], ["validate", str(f), "--format", "json"], ["fmt", str(f)]):
        r = _run(*args)
        assert r.exit_code == 1, (args, r.output)
        assert "schema.string_unicode" in r.output
    d = json.loads(_run("validate", str(f), "--format", "json").stdout)
    assert d["hands_invalid"] == 1 and d["errors"][0]["path"] == "$.hands[0].notes"


def test_a_session_id_cannot_forge_a_line_of_validate_or_fmt_output(tmp_path):
    s = _b1_with(id="s1\nfake.jsonl:9: error: json.syntax: forged")
    s["hands"][0]["deal"]["talon"][0] = "XX9"
    f = tmp_path / "s.json"
    f.write_text(json.dumps(s))
    for args in (["validate", str(f)], ["fmt", str(f)]):
        r = _run(*args)
        assert r.exit_code == 1
        assert not any(ln.lstrip().startswith("fake.jsonl") for ln in r.output.splitlines())
        assert "s1\\nfake.jsonl:9" in r.output


def test_json_output_is_one_document_equal_to_a_single_dump():
    import orjson

    r = _run("validate", str(MALFORMED), "--format", "json")
    d = json.loads(r.stdout)
    assert len(d["errors"]) == sum(d["errors_by_code"].values()) > 30
    assert r.stdout == orjson.dumps(d, option=orjson.OPT_INDENT_2).decode() + "\n"


def test_validate_keeps_no_error_in_memory_however_many_there_are(tmp_path):
    """Errors are streamed (printed, or spooled for --format json), never collected: the peak
    memory of a run with 4 times as many errors is the same."""
    import tracemalloc

    from tarock_logs.cli.validate import JsonErrors, validate_paths

    def peak(n: int) -> int:
        d = tmp_path / str(n)
        d.mkdir()
        (d / "bad.jsonl").write_bytes(b'{"format":"tarock-log","id":"x","hands":[]}\n' * n)
        spool = JsonErrors()
        tracemalloc.start()
        summary = validate_paths([d], [], spool.add)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        spool.close()
        assert summary.n_errors >= n and spool.n == summary.n_errors + summary.n_warnings
        return top

    peak(100)  # (one-time allocations: caches, lazy imports)
    small, large = peak(500), peak(2000)
    assert large < small * 1.5 + 200_000, (small, large)


def test_validate_on_an_empty_mistyped_or_log_less_path_warns_and_exits_2(tmp_path):
    r = _run("validate", "")
    assert r.exit_code == 2 and "empty path" in r.stderr
    r = _run("validate", str(tmp_path / "tpyo.jsonl"))
    assert r.exit_code == 2 and "no such file" in r.stderr
    r = _run("validate", str(tmp_path))  # a folder with no log in it
    assert r.exit_code == 2 and "no log files" in r.stderr


def test_fmt_that_cannot_write_exits_with_the_disk_code_and_leaves_nothing_behind(tmp_path):
    """An I/O error is exit 6 (not 2, the usage code); the file is left as it was."""
    import errno
    import os

    import pytest

    from tarock_logs.cli import fmt as fmt_module
    from tarock_logs.cli.common import ExitCode

    src = tmp_path / "in" / "b1.json"
    src.parent.mkdir()
    src.write_text(json.dumps(_b1_with(), indent=7))  # valid, not canonical
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    r = _run("fmt", str(src), "-o", str(blocker / "out.json"))
    assert r.exit_code == int(ExitCode.IO) == 6, r.output
    assert "cannot write" in r.output

    before = src.read_bytes()

    def full_disk(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fmt_module.os, "fsync", full_disk)
        r = _run("fmt", "--in-place", str(src))
    assert r.exit_code == 6 and "No space left on device" in r.output
    assert src.read_bytes() == before
    assert sorted(p.name for p in src.parent.iterdir()) == ["b1.json"]


def test_validate_that_cannot_write_its_output_exits_with_the_disk_code(monkeypatch):
    import errno

    from tarock_logs.cli.validate import JsonErrors

    def full_disk(self, e) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(JsonErrors, "add", full_disk)
    r = _run("validate", str(MALFORMED), "--format", "json")
    assert r.exit_code == 6 and "No space left on device" in r.output


def test_json_test_suite_cases_as_log_files_give_no_traceback_in_validate_fmt_and_audit(tmp_path):
    """Every case of tests/log/json_cases.py as a .json file and as a line of one .jsonl file,
    through the commands (in-process: an exception would fail the test)."""
    from tests.log.json_cases import json_cases

    lines = []
    for name, data in json_cases():
        (tmp_path / f"{name}.json").write_bytes(data)
        if b"\n" not in data and b"\r" not in data:
            lines.append(data)
    (tmp_path / "all-cases.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    r = _run("validate", str(tmp_path), "--format", "json")
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    assert d["files"] == len(json_cases()) + 1
    assert all(e["file"] and e["line"] for e in d["errors"])
    assert _run("fmt", "--check", str(tmp_path)).exit_code == 1
    assert _run("audit", str(tmp_path), "--summary").exit_code in (0, 1, 5)
