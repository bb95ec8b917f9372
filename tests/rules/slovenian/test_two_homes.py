"""Two homes per rule (issue 32): a Slovenian rule lives in the reference engine
(``rules/slovenian/``: ``SlovenianHand`` and its mixins, ``tricks.PlayRules``, ``scoring``) and
in the native engine (``_native/``: ``slohand.h``, ``cardloop.h``, ``cards.h``,
``sloscore.h``), and nowhere else. The bulk path (``rules/slovenian/fast/``) only marshals
inputs to the native engine and its answer back.

These tests fail when a removed third implementation comes back: the entry points of the
pure-Python fast path (its bidding, exchange and announcement-round twins, its card loops and
legal-card bitmasks, its reading of the scoring facts), the reference's second copy of the
legal-card rule (``_quick_legal``) and the Python binding of the bare C card loop."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tarock_logs import _native

PACKAGE = Path(__file__).resolve().parents[3] / "tarock_logs"
FAST = PACKAGE / "rules" / "slovenian" / "fast"

#: the entry points of the removed twins (and of their modules)
REMOVED = (
    "_legal_mask",
    "_overtake_mask",
    "_fast_bidding",
    "_fast_exchange",
    "_fast_ann_pass",
    "_set_bidding",
    "_discards_clean",
    "_before_play",
    "_play_cards",
    "_native_play_cards",
    "py_play_cards",
    "fast_hand_facts",
    "fastfacts",
    "mask_thirds",
    "_quick_legal",
    "trick_views",
)


def _sources() -> list[Path]:
    return sorted(
        p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".pyi", ".c", ".h") and p.is_file()
    )


@pytest.mark.parametrize("name", REMOVED)
def test_a_removed_twin_does_not_come_back(name: str) -> None:
    # a whole identifier: ``zr_play_cards`` and ``tk_play_cards`` are other games' and the C's
    # own loops, not the removed ``_play_cards``; the Slovenian ``trick_views`` of Royal
    # Tarock's hand is its own
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    found = [
        f"{p.relative_to(PACKAGE.parent)}:{i}"
        for p in _sources()
        if not (name == "trick_views" and "royal" in p.parts)
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, f"{name} is back: {found}"


def test_the_bulk_path_holds_only_the_marshalling() -> None:
    """``fast/`` is the card-id codec, the rule tables' codec and the caller of the native
    engine: no other module, and none imports a private name of the reference's modules."""
    assert sorted(p.name for p in FAST.glob("*.py")) == [
        "__init__.py",
        "cardbits.py",
        "codec.py",
        "fastpath.py",
    ]
    for p in FAST.glob("*.py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "tarock_logs.rules."
            ):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{p.name} imports {private} from {node.module}"


@pytest.mark.skipif(not _native.available(), reason=f"native core: {_native.why_not}")
def test_the_bare_card_loop_has_no_python_binding() -> None:
    """The native card loop runs inside the native whole hand only (``slovenian_hand``)."""
    assert not hasattr(_native.core, "play_cards")
    assert hasattr(_native.core, "slovenian_hand")
