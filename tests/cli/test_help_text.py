"""``tarock --help`` reads as prose: the source's line breaks inside a paragraph are not kept."""

from __future__ import annotations

import subprocess
import sys

from tarock_logs.cli.common import _reflow


def test_a_paragraph_wrapped_in_the_source_becomes_one_line() -> None:
    doc = """Logs in canonical form (card tokens, key order), on stdout unless
    --in-place or -o OUT.

    Second paragraph,
    also joined."""
    assert _reflow(doc) == (
        "Logs in canonical form (card tokens, key order), on stdout unless --in-place or -o OUT."
        "\n\nSecond paragraph, also joined."
    )


def test_list_items_keep_their_own_lines() -> None:
    doc = "Exit codes:\n- 0 ok\n- 1 findings\nwrapped tail"
    assert _reflow(doc) == "Exit codes:\n- 0 ok\n- 1 findings wrapped tail"


def test_help_lists_every_command_with_its_sentence_unbroken() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.argv=['tarock','--help']; from tarock_logs.cli import main; main()",
        ],
        capture_output=True,
        text=True,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
        check=False,
    ).stdout
    assert "on stdout unless --in-place or -o OUT." in out
