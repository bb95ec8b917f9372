"""Stable pseudonyms for players' names: the one home of name masking.

A pseudonym is made from the SHA-256 of the store's secret key followed by the name's UTF-8
bytes: an adjective (first byte), a noun (second byte) and a two-digit number (third byte),
e.g. ``"Quiet Heron 07"``; the same name gives the same pseudonym everywhere in one store, so
masked statistics still join. :func:`pseudonym` makes it in Python (the dashboard's views, the
dossier), :func:`pseudonym_sql` in DuckDB SQL (the statistics mask names in the query, not row
by row afterwards); the two agree (pinned by ``tests/store/test_pseudonyms.py``).

**Keyed per store.** Each store holds a random key (``meta.pseudonym_key``, 128 bits, made
when the store is created: :func:`new_key`), so a pseudonym cannot be reversed by hashing a
list of likely names, and two stores give one player different pseudonyms. A store made
before the key existed (and a store read without it) hashes the name alone.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

ADJECTIVES = (
    "Amber", "Brisk", "Cobalt", "Dusky", "Elder", "Fleet", "Gilded", "Hazel", "Ivory", "Jade",
    "Keen", "Lunar", "Mossy", "Noble", "Olive", "Plum", "Quiet", "Russet", "Silver", "Tawny",
)  # fmt: skip
NOUNS = (
    "Badger", "Crane", "Falcon", "Heron", "Ibex", "Lynx", "Marten", "Otter", "Owl", "Raven",
    "Stoat", "Swift", "Viper", "Wolf", "Wren", "Yak", "Bison", "Finch", "Gecko", "Hare",
)  # fmt: skip


#: the ``meta`` key under which a store keeps its pseudonym key
KEY_META: Final = "pseudonym_key"
#: the store's key as a DuckDB scalar expression (an empty string where there is none)
STORE_KEY_SQL: Final = f"coalesce((SELECT value FROM meta WHERE key = '{KEY_META}'), '')"


def new_key() -> str:
    """A new store's pseudonym key: 128 random bits as 32 hexadecimal digits."""
    return secrets.token_hex(16)


def pseudonym(name: str, key: str = "") -> str:
    """A stable pseudonym for a player name under the store's ``key`` (same name → same
    pseudonym, in every view of one store)."""
    h = hashlib.sha256((key + name).encode("utf-8")).digest()
    return f"{ADJECTIVES[h[0] % 20]} {NOUNS[h[1] % 20]} {h[2] % 100:02d}"


def _sql_list(words: tuple[str, ...]) -> str:
    return "[" + ", ".join(f"'{w}'" for w in words) + "]"


def pseudonym_sql(expr: str, key_sql: str = STORE_KEY_SQL) -> str:
    """The SQL expression of :func:`pseudonym` of the VARCHAR expression ``expr`` under the
    key ``key_sql`` (a SQL expression; by default the store's own key)."""
    h = f"sha256({key_sql} || {expr})"

    def byte(i: int) -> str:
        return f"CAST(('0x' || substr({h}, {2 * i + 1}, 2)) AS INTEGER)"

    number = f"lpad(CAST({byte(2)} % 100 AS VARCHAR), 2, '0')"
    return (
        f"({_sql_list(ADJECTIVES)}[{byte(0)} % 20 + 1] || ' ' || "
        f"{_sql_list(NOUNS)}[{byte(1)} % 20 + 1] || ' ' || {number})"
    )
