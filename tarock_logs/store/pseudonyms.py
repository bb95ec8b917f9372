"""Stable pseudonyms for players' names: the one home of name masking.

A pseudonym is made from the SHA-256 of the store's secret key followed by the name's UTF-8
bytes: a Latin genus name of an animal (first byte) and a three-digit number (second and third
bytes), e.g. ``"Corvus 207"``. The words are the same in every language of the interface
(Latin is no reader's language and the dashboard's Slovenian and German pages need no
translation of them), and no genus is a likely player's name. The same name gives the same
pseudonym everywhere in one store, so masked statistics still join. :func:`pseudonym` makes
it in Python (the dashboard's views, the dossier), :func:`pseudonym_sql` in DuckDB SQL (the
statistics mask names in the query, not row by row afterwards); the two agree (pinned by
``tests/store/test_pseudonyms.py``).

**Keyed per store.** Each store holds a random key (``meta.pseudonym_key``, 128 bits, made
when the store is created: :func:`new_key`), so a pseudonym cannot be reversed by hashing a
list of likely names, and two stores give one player different pseudonyms. A store made
before the key existed (and a store read without it) hashes the name alone.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

#: Latin genus names of animals: the same word in every language (40 of them)
GENERA = (
    "Accipiter", "Alcedo", "Aquila", "Ardea", "Bubo", "Capra", "Capreolus", "Castor",
    "Certhia", "Cervus", "Ciconia", "Cinclus", "Corvus", "Cygnus", "Erinaceus", "Felis",
    "Grus", "Lanius", "Lepus", "Lutra", "Lynx", "Martes", "Meles", "Merops", "Milvus",
    "Mustela", "Oriolus", "Parus", "Pica", "Picus", "Regulus", "Rupicapra", "Sciurus",
    "Sitta", "Sturnus", "Talpa", "Turdus", "Upupa", "Ursus", "Vulpes",
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
    return f"{GENERA[h[0] % len(GENERA)]} {(h[1] * 256 + h[2]) % 1000:03d}"


def _sql_list(words: tuple[str, ...]) -> str:
    return "[" + ", ".join(f"'{w}'" for w in words) + "]"


def pseudonym_sql(expr: str, key_sql: str = STORE_KEY_SQL) -> str:
    """The SQL expression of :func:`pseudonym` of the VARCHAR expression ``expr`` under the
    key ``key_sql`` (a SQL expression; by default the store's own key)."""
    h = f"sha256({key_sql} || {expr})"

    def byte(i: int) -> str:
        return f"CAST(('0x' || substr({h}, {2 * i + 1}, 2)) AS INTEGER)"

    number = f"lpad(CAST(({byte(1)} * 256 + {byte(2)}) % 1000 AS VARCHAR), 3, '0')"
    return f"({_sql_list(GENERA)}[{byte(0)} % {len(GENERA)} + 1] || ' ' || {number})"
