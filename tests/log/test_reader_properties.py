"""The reader's invariants as property tests (python-chess style), a seeded bounded fuzz run,
the fuzz regressions, and a JSON test-suite corpus read as logs (issue 14).

The invariants (``tests/support/log_mutator.check``):

1. for any bytes the reader never raises: only located errors (a file and a line, a known code
   with its severity, one printable line, JSON-able);
2. any accepted session is written in canonical form and reads back equal (and the canonical
   text is a fixpoint of the writer);
3. the ``.json`` and ``.jsonl`` readings of one record agree;
4. the audit never raises on an accepted session.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarock_logs.log.reader import read_bytes, read_file
from tests.log.json_cases import json_cases
from tests.support.log_mutator import Mutant, Mutator, check

REGRESSIONS = Path(__file__).resolve().parent / "fuzz_regressions"
#: the codes of text that is not JSON (or not JSON a log may hold)
_JSON_REFUSALS = frozenset({"json.syntax", "json.not_utf8", "json.depth", "json.number",
                            "json.duplicate_key", "file.truncated", "file.empty"})  # fmt: skip
_MUTATOR = Mutator(0)  # (its seeds are loaded once; each test draws from its own seed)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=600), kind=st.sampled_from(["json", "jsonl"]))
def test_for_any_bytes_the_reader_never_raises_and_every_error_is_located(data, kind):
    check(Mutant(data, kind), audit=False)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefix=st.sampled_from([b"", b"{", b'{"format":"tarock-log",', b"[", b"\xef\xbb\xbf"]),
       text=st.text(max_size=300), kind=st.sampled_from(["json", "jsonl"]))  # fmt: skip
def test_for_any_text_after_a_json_start_the_reader_never_raises(prefix, text, kind):
    check(Mutant(prefix + text.encode("utf-8", "surrogatepass"), kind), audit=False)


def _mutant(seed: int) -> Mutant:
    _MUTATOR.rng.seed(seed)
    return _MUTATOR.mutant()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_any_accepted_session_is_written_canonically_and_reads_back_equal(seed):
    check(_mutant(seed), audit=False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_json_and_jsonl_readings_of_one_record_agree(seed):
    m = _mutant(seed)
    line = m.data.replace(b"\r", b" ").replace(b"\n", b" ").strip()
    check(Mutant(line if line.startswith(b"{") else b"{" + line, "jsonl"), audit=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_audit_never_raises_on_an_accepted_session(seed):
    check(_mutant(seed), audit=True)


def test_a_seeded_fuzz_of_3000_mutants_keeps_every_invariant():
    """A bounded run of the long fuzz (``benchmarks/fuzz.py``): the same mutator and checks,
    a fixed seed, a few seconds."""
    mutator = Mutator(20260301)
    t0 = time.monotonic()
    accepted = 0
    for i in range(3000):
        m = mutator.mutant()
        try:
            accepted += check(m, audit=i % 10 == 0).accepted
        except Exception as exc:
            raise AssertionError(f"mutant {i} ({m.recipe}) broke an invariant") from exc
    assert accepted > 300, accepted  # (the mutants reach the validator, not only the parser)
    assert time.monotonic() - t0 < 300


@pytest.mark.parametrize("path", sorted(p for p in REGRESSIONS.iterdir() if p.suffix != ".md"))
def test_every_fuzz_regression_keeps_every_invariant(path):
    kind = "jsonl" if path.suffix == ".jsonl" else "json"
    check(Mutant(path.read_bytes(), kind), audit=True)
    records = list(read_file(path))  # (from the disk: a catalogue path is checked there too)
    assert records and all(r.file == str(path) for r in records)


def test_every_fuzz_regression_is_listed_in_its_readme():
    listed = (REGRESSIONS / "README.md").read_text()
    for p in REGRESSIONS.iterdir():
        if p.name != "README.md":
            assert f"`{p.name}`" in listed, p.name


@pytest.mark.parametrize(("name", "data"), json_cases(), ids=[n for n, _ in json_cases()])
def test_json_test_suite_cases_read_as_logs_give_no_traceback(name, data):
    """Each case alone (as ``.json`` and as a JSONL line), and in place of a session's notes
    and of a hand: only located errors, and what must parse does (``y_``)."""
    for kind in ("json", "jsonl"):
        check(Mutant(data, kind), audit=False)
    base = (
        b'{"format":"tarock-log","format_version":1,"id":"t","game":"slovenian",'
        b'"ruleset":"si-tournament-2021","players":[{"id":"a"},{"id":"b"},{"id":"c"},'
        b'{"id":"d"}],"hands":[HAND],"notes":NOTES}'
    )
    for hand, notes in ((data, b'"n"'), (b"{}", data)):
        check(Mutant(base.replace(b"HAND", hand).replace(b"NOTES", notes), "json"), audit=False)
    if name.startswith("y_"):  # (a lone scalar is no log, file.not_a_log, but it is JSON)
        errors = [e for r in read_bytes(data, kind="json") for e in r.errors]
        assert not [e for e in errors if e.code in _JSON_REFUSALS], errors
    if name.startswith("n_"):
        recs = read_bytes(data, kind="json")
        assert any(e.code.startswith(("json.", "file.")) for r in recs for e in r.errors), name
