"""docs/log-format.md: its examples are valid sessions, one per game, and it lists every code."""

from __future__ import annotations

import re
from pathlib import Path

from tarock_logs.log.errors import CODES
from tarock_logs.log.models import ACTION_TYPES
from tarock_logs.log.reader import read_bytes

DOC = Path(__file__).resolve().parents[2] / "docs" / "log-format.md"


def _json_blocks() -> list[str]:
    return re.findall(r"```json\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S)


def test_every_json_example_is_a_valid_complete_session():
    blocks = _json_blocks()
    assert blocks
    for block in blocks:
        [rec] = read_bytes(block.encode(), file="docs/log-format.md", kind="json")
        assert rec.ok, [str(e) for e in rec.all_errors()]
        assert rec.session.hands, "an example session must hold at least one full hand"


def test_there_is_a_full_example_for_each_game():
    games = set()
    for block in _json_blocks():
        [rec] = read_bytes(block.encode(), kind="json")
        games.add(rec.session.game)
        for hand in rec.session.hands:
            if hand.deal is None:  # a hand recorded as facts (format 1.1): no cards to play
                continue
            assert sum(a.type == "play" for a in hand.actions) == sum(map(len, hand.deal.hands))
    assert games == {"slovenian", "zwanzigerrufen", "royal"}


def test_the_error_code_table_lists_every_code_with_its_severity_meaning_and_old_code():
    text = DOC.read_text(encoding="utf-8")
    for code, info in CODES.items():
        old = f"`{info.old}`" if info.old is not None else "(new)"
        assert f"| `{code}` | {info.severity} | {info.meaning} | {old} |" in text, code
    assert "| `schema.<type>` | error |" in text and "`E-SCHEMA-<TYPE>`" in text


def test_the_action_table_lists_every_action_type():
    text = DOC.read_text(encoding="utf-8")
    for t in ACTION_TYPES:
        assert f"| `{t}` |" in text, t
