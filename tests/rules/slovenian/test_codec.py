"""One set of rule tables (issue 32, item 2): the Slovenian contract table carries every way the
rules treat a contract differently as a named flag, and the native engine's configs are filled
from the tables by field name (``rules/slovenian/fast/codec.py``, ``module.c``'s
``SH_CONFIG_FIELDS`` / ``SS_CONFIG_FIELDS``).

These tests fail when a table changes on one side only (a field of the C config structs, of
:class:`Contract`, of :class:`PlayRules`), and when code names contracts again instead of
reading a flag (``("berac", "odprti_berac")``, ``contract == "klop"``)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tarock_logs import _native
from tarock_logs.rules.slovenian import contracts
from tarock_logs.rules.slovenian.contracts import BONUS_VALUES, CONTRACTS, Rules
from tarock_logs.rules.slovenian.fast import codec
from tarock_logs.rules.slovenian.rulesets import RULESETS, TOURNAMENT_ID

PACKAGE = Path(__file__).resolve().parents[3] / "tarock_logs"
native = pytest.mark.skipif(not _native.available(), reason=f"native core: {_native.why_not}")


def _spec() -> dict[str, Any]:
    assert _native.core is not None
    return dict(_native.core.slovenian_config_fields())


def _tournament() -> Rules:
    return Rules(RULESETS[TOURNAMENT_ID])


# ------------------------------------------------------------------------ the flags


def test_the_game_without_a_declarer_is_klop_and_only_klop() -> None:
    """Spec 4.1: klop, everybody for himself, is never bid; its first six tricks take the
    talon's cards."""
    alone = [c for c, row in CONTRACTS.items() if row.alone]
    assert alone == [contracts.ALONE] == ["klop"]
    assert CONTRACTS["klop"].talon_gifts and contracts.ALONE not in contracts.LADDER


def test_forehand_holds_the_mandatory_three() -> None:
    """Spec 4.2: P1 holds the mandatory three; the bidding starts from it."""
    assert contracts.MANDATORY == "three" and CONTRACTS["three"].forehand_holds
    assert sum(row.forehand_holds for row in CONTRACTS.values()) == 1


def test_berac_is_won_without_a_trick_and_valat_with_every_trick() -> None:
    """Spec 9.7: berač and odprti berač are won by taking no trick, barvni valat and valat by
    taking every trick; both are scored by their value alone (no difference)."""
    assert [c for c, r in CONTRACTS.items() if r.no_trick] == ["berac", "odprti_berac"]
    assert [c for c, r in CONTRACTS.items() if r.every_trick] == ["barvni_valat", "valat"]
    assert all(r.fixed and not r.by_points for r in CONTRACTS.values() if r.no_trick)
    assert [c for c, r in CONTRACTS.items() if r.colour_valat] == ["barvni_valat"]


def test_the_games_by_card_points_are_the_talon_games_and_solo_brez() -> None:
    """Spec 9.3: the difference counts in tri … solo ena and solo brez (there by option)."""
    by_points = [c for c, r in CONTRACTS.items() if r.by_points]
    assert by_points == [c for c, r in CONTRACTS.items() if r.talon] + ["solo_brez"]
    assert [c for c, r in CONTRACTS.items() if r.brez_options] == ["solo_brez"]


def test_valat_is_worth_the_rulesets_valat_value() -> None:
    rules = _tournament()
    assert rules.contract_value("valat") == rules.valat_value
    assert rules.contract_value("barvni_valat") == CONTRACTS["barvni_valat"].value == 125


def test_every_flag_is_documented_in_the_games_words() -> None:
    """A flag without its sentence in contracts.py is a flag nobody can use rightly."""
    source = Path(contracts.__file__).read_text(encoding="utf-8")
    tree = ast.parse(source)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Contract")
    lines = source.splitlines()
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            above = lines[node.lineno - 2].strip()
            assert above.startswith("#:"), f"Contract.{node.target.id} has no #: comment"


# ------------------------------------------------------------------------ the codec


@native
def test_the_core_and_the_tables_name_the_same_fields() -> None:
    assert codec.mismatches(_spec()) == []
    codec.check_codec(_native.core)


@native
def test_every_per_contract_field_of_the_core_reads_the_contract_flag_of_its_name() -> None:
    """A per-contract field that is not derived is the Contract field of the same name, in
    the table's order."""
    assert _native.core is not None
    fields = codec.config_fields(_native.core, _tournament(), 4)
    for name, kind in _spec()["config"]:
        if kind == "contracts" and name not in codec.DERIVED_PER_CONTRACT:
            assert fields[name] == [int(getattr(r, name)) for r in CONTRACTS.values()], name


def _with(spec: dict[str, Any], struct: str, fields: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    return {**spec, struct: fields}


@native
@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda f: (*f, ("ends_early", "contracts")), "config.ends_early"),
        (lambda f: tuple(("ends", k) if n == "no_trick" else (n, k) for n, k in f), "no_trick"),
        (lambda f: (*f, ("check_taroks", "int")), "config.check_taroks"),
        (lambda f: tuple((n, k) for n, k in f if n != "talon_gifts"), "Contract.talon_gifts"),
    ],
    ids=["C adds a field", "C renames a flag", "C adds a scalar", "C drops a flag"],
)
def test_a_config_field_changed_in_c_only_fails(change: Any, complaint: str) -> None:
    spec = _spec()
    problems = codec.mismatches(_with(spec, "config", change(spec["config"])))
    assert any(complaint in p for p in problems), problems


@native
def test_a_play_rule_renamed_in_c_only_fails() -> None:
    spec = _spec()
    renamed = tuple(("neg", k) if n == "negative" else (n, k) for n, k in spec["play_rules"])
    assert any("play_rules.neg" in p for p in codec.mismatches(_with(spec, "play_rules", renamed)))


@native
def test_a_contract_flag_added_in_python_only_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new Contract field must be read by the core under its name or be declared
    REFERENCE_ONLY (the reference alone branches on it)."""
    monkeypatch.setattr(codec, "CONTRACT_FIELDS", (*codec.CONTRACT_FIELDS, "shown_hand"))
    assert any("Contract.shown_hand" in p for p in codec.mismatches(_spec()))


@native
def test_a_contract_flag_renamed_in_python_only_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    renamed = tuple("ends_at_first_trick" if n == "no_trick" else n for n in codec.CONTRACT_FIELDS)
    monkeypatch.setattr(codec, "CONTRACT_FIELDS", renamed)
    problems = codec.mismatches(_spec())
    assert any("config.no_trick" in p for p in problems)
    assert any("Contract.ends_at_first_trick" in p for p in problems)


@native
def test_the_core_refuses_a_missing_or_an_unknown_field_by_name() -> None:
    core = _native.core
    assert core is not None
    fields = codec.config_fields(core, _tournament(), 4)
    core.slovenian_config(fields)  # the whole set: accepted
    missing = {k: v for k, v in fields.items() if k != "every_trick"}
    with pytest.raises(KeyError, match="every_trick missing"):
        core.slovenian_config(missing)
    with pytest.raises(KeyError, match="unknown field ends"):
        core.slovenian_config({**fields, "ends": fields["no_trick"]})
    score = codec.score_config_fields(core, _tournament())
    with pytest.raises(KeyError, match="unknown field fixed"):
        core.slovenian_score_config({**score, "fixed": score["radelc"]})
    short = {**fields, "rank": fields["rank"][:-1]}
    with pytest.raises(ValueError, match="has 12 contracts, not 11"):
        core.slovenian_config(short)


def test_reference_only_names_contract_fields() -> None:
    names = {f.name for f in dataclasses.fields(contracts.Contract)}
    assert names >= codec.REFERENCE_ONLY


# ------------------------------------------------------------------------ no contract names

CODES = frozenset(CONTRACTS)
#: contract codes that are also bonus names (valat and barvni valat may be announced)
BONUS_NAMES = frozenset(BONUS_VALUES)
#: names that hold a Slovenian contract code where they are compared
CONTRACT_NAMES = frozenset({"contract", "c", "code", "high", "want", "target_contract"})

#: where contract names stay on purpose: the tables themselves
TABLES = {
    PACKAGE / "rules" / "slovenian" / "contracts.py",
}
#: files allowed to name contracts still (empty: the analysis reads the flags too); the list can
#: only shrink
KNOWN: dict[str, int] = {}


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _strings(node: ast.AST) -> list[str] | None:
    """The string constants of a literal tuple, list, set or ``frozenset({...})``; None when
    ``node`` is no such literal of strings only."""
    if isinstance(node, ast.Call) and _name(node.func) == "frozenset" and len(node.args) == 1:
        node = node.args[0]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts:
        out = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(out) == len(node.elts) and all(isinstance(s, str) for s in out):
            return [str(s) for s in out]
    return None


def contract_name_branches(source: str) -> list[tuple[int, str]]:
    """The places in ``source`` that name contracts instead of reading a flag: a literal set of
    contract codes (``("berac", "odprti_berac")``; not one of bonus names only, such as
    ``("valat", "barvni_valat")`` of the announcements), and a contract compared with a code
    (``contract == "klop"``, ``c in ("barvni_valat", "valat")``)."""
    out: dict[int, str] = {}
    for node in ast.walk(ast.parse(source)):
        strings = _strings(node)
        if strings and len(strings) >= 2 and set(strings) <= CODES:
            if not set(strings) <= BONUS_NAMES:
                out.setdefault(getattr(node, "lineno", 0), f"the contract tuple {strings}")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if not any(_name(s) in CONTRACT_NAMES for s in sides):
                continue
            for s in sides:
                named = [s.value] if isinstance(s, ast.Constant) else _strings(s) or []
                hit = [x for x in named if isinstance(x, str) and x in CODES]
                if hit:
                    out.setdefault(node.lineno, f"a contract compared with {hit}")
    return sorted(out.items())


def test_the_check_finds_contract_names() -> None:
    src = (
        'if c in ("berac", "odprti_berac"): pass\n'
        'if contract == "klop": pass\n'
        'if self.contract in ("barvni_valat", "valat"): pass\n'
        'X = frozenset({"klop", "berac"})\n'
        'if bonus in ("valat", "barvni_valat"): pass\n'
        'CATS = ("zero", "one", "two", "few")\n'
    )
    assert [line for line, _ in contract_name_branches(src)] == [1, 2, 3, 4]


def test_no_code_outside_the_tables_names_slovenian_contracts() -> None:
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in TABLES or "zwanzigerrufen" in path.parts or "royal" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        if not any(f'"{code}"' in text for code in CODES):
            continue
        hits = contract_name_branches(text)
        if hits:
            found[str(path.relative_to(PACKAGE))] = [f"{line}: {what}" for line, what in hits]
    unexpected = {
        p: h for p, h in found.items() if p not in KNOWN or len(h) > KNOWN[p]
    }  # fmt: skip
    assert not unexpected, f"read a Contract flag instead: {unexpected}"
    assert {p: len(h) for p, h in found.items()} == {
        p: n for p, n in KNOWN.items() if p in found
    }, "a known file names fewer contracts now: lower KNOWN"


def test_a_core_built_before_the_codec_is_refused() -> None:
    """A stale extension (positional configs) would read the tables wrongly: rebuild it."""

    class Stale:
        pass

    with pytest.raises(codec.CodecMismatch, match="rebuild"):
        codec.check_codec(Stale())
