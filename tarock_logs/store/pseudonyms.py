"""Stable pseudonyms for players' names: the one home of name masking.

A pseudonym is made from the SHA-256 of the name's UTF-8 bytes: an adjective (first byte), a
noun (second byte) and a two-digit number (third byte), e.g. ``"Quiet Heron 07"``; the same
name gives the same pseudonym everywhere, so masked statistics still join. :func:`pseudonym`
makes it in Python (the dashboard's views, the dossier), :func:`pseudonym_sql` in DuckDB SQL
(the statistics mask names in the query, not row by row afterwards); the two agree (pinned by
``tests/store/test_pseudonyms.py``).
"""

from __future__ import annotations

import hashlib

ADJECTIVES = (
    "Amber", "Brisk", "Cobalt", "Dusky", "Elder", "Fleet", "Gilded", "Hazel", "Ivory", "Jade",
    "Keen", "Lunar", "Mossy", "Noble", "Olive", "Plum", "Quiet", "Russet", "Silver", "Tawny",
)  # fmt: skip
NOUNS = (
    "Badger", "Crane", "Falcon", "Heron", "Ibex", "Lynx", "Marten", "Otter", "Owl", "Raven",
    "Stoat", "Swift", "Viper", "Wolf", "Wren", "Yak", "Bison", "Finch", "Gecko", "Hare",
)  # fmt: skip


def pseudonym(name: str) -> str:
    """A stable pseudonym for a player name (same name → same pseudonym, in every view)."""
    h = hashlib.sha256(name.encode("utf-8")).digest()
    return f"{ADJECTIVES[h[0] % 20]} {NOUNS[h[1] % 20]} {h[2] % 100:02d}"


def _sql_list(words: tuple[str, ...]) -> str:
    return "[" + ", ".join(f"'{w}'" for w in words) + "]"


def pseudonym_sql(expr: str) -> str:
    """The SQL expression of :func:`pseudonym` of the VARCHAR expression ``expr``."""
    h = f"sha256({expr})"

    def byte(i: int) -> str:
        return f"CAST(('0x' || substr({h}, {2 * i + 1}, 2)) AS INTEGER)"

    number = f"lpad(CAST({byte(2)} % 100 AS VARCHAR), 2, '0')"
    return (
        f"({_sql_list(ADJECTIVES)}[{byte(0)} % 20 + 1] || ' ' || "
        f"{_sql_list(NOUNS)}[{byte(1)} % 20 + 1] || ' ' || {number})"
    )
