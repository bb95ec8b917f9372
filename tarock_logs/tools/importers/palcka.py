"""Palčka's records → tarock log sessions (``tarock import palcka``; ``docs/importers.md``).

Palčka (the open-source Slovenian tarok platform) keeps two kinds of record of a game:

* **message lists**: per player and game, the protobuf ``Message``s the player's client
  received, as a JSON list of base64 strings (one player's *view*). The message schema is
  described here in code (:func:`message_class`: the field numbers and types of Palčka's
  ``messages.proto``, built with ``descriptor_pb2``; no generated code). The views of the
  players of one game are merged: every player's dealt cards come from his own view, the
  bidding, the king call, the talon, the announcements, the tricks and the results are
  broadcast to every view, the discard is in the declarer's view only;
* **game logs** (``PalckaGames/gamelog-<uuid>.json``): the app's list of
  ``{actionType, userId, userName, isPlaying, userType, userCards, action, card,
  additionalData, actionTime}`` entries of a game against bots.

Each game becomes one session with one hand, Slovenian tarok under ``si-tournament-2021`` with
the options of what Palčka plays (:data:`OPTIONS`). A hand whose deal the records show whole
is written with its deal and every action; one they do not show whole is written as facts
(``extent: partial``) with what could not be known in its notes. Every record that cannot be
converted is a located :class:`~tarock_logs.tools.importers.Reject`, never a guessed action.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from tarock_logs.rules.slovenian.contracts import ALONE, CONTRACTS
from tarock_logs.tools.importers import PALCKA, Reject

__all__ = [
    "CARD_IDS",
    "CODES",
    "GAMEMODES",
    "OPTIONS",
    "RULESET",
    "ImportResult",
    "card_token",
    "import_files",
    "message_class",
]

#: The ruleset the sessions are written under, and the options that make it what Palčka
#: plays: valat is worth 500 as a contract (Palčka's game 10), and Palčka records kontra as a
#: level number (kontra, re, sub, mord: up to 4).
RULESET = "si-tournament-2021"
OPTIONS: dict[str, int] = {"valat_contract_value": 500, "kontra_levels": 4}

#: Stable reject codes of this importer.
CODES: dict[str, str] = {
    "palcka.file": "the file is not a JSON list (of base64 strings or of game-log entries)",
    "palcka.base64": "a message-list record is not base64",
    "palcka.protobuf": "a message-list record does not decode as a Palčka Message",
    "palcka.record": "a game-log entry lacks a field or has one of the wrong type",
    "palcka.card": "a card id that is not one of Palčka's 54 cards",
    "palcka.bid": "a bid that is not one of Palčka's games (-1 pass, 0 three ... 10 valat)",
    "palcka.player": "a record names a player who is not at the table",
    "palcka.talon": "a talon choice that matches no group of the talon",
    "palcka.prediction": "an announcement or kontra Palčka does not write",
    "palcka.views_disagree": "a view whose players or public record differ from the game's",
    "palcka.game": "the records of a game are not enough for a hand (no players or no bids)",
    "palcka.schema": "the converted session does not validate against the log format",
}

_SUITS = {"kara": "D", "kriz": "C", "pik": "S", "src": "H"}
_FACES = {"kralj": "K", "dama": "Q", "kaval": "N", "pob": "J"}


def _card_ids() -> dict[str, str]:
    out: dict[str, str] = {}
    for word, suit in _SUITS.items():
        pips = ("1", "2", "3", "4") if suit in ("D", "H") else ("7", "8", "9", "10")
        for p in pips:
            out[f"/{word}/{p}"] = suit + p
        for face, rank in _FACES.items():
            out[f"/{word}/{face}"] = suit + rank
    out["/taroki/pagat"] = "T1"
    for n in range(2, 21):
        out[f"/taroki/{n}"] = f"T{n}"
    out["/taroki/mond"] = "T21"
    out["/taroki/skis"] = "T22"
    return out


#: Palčka's card ids (``/pik/kralj``, ``/taroki/skis``) → the log format's tokens.
CARD_IDS: dict[str, str] = _card_ids()

#: Palčka's game numbers → the Slovenian engine's contract codes (-1 is a pass: "naprej").
GAMEMODES: dict[int, str] = {
    0: "three",
    1: "two",
    2: "one",
    3: "solo_three",
    4: "solo_two",
    5: "solo_one",
    6: "berac",
    7: "solo_brez",
    8: "odprti_berac",
    9: "barvni_valat",
    10: "valat",
}

#: Announceable bonuses: Palčka's ``Predictions`` field → the engine's bonus code.
_BONUS_FIELDS = {
    "trula": "trula",
    "kralji": "kralji",
    "pagat_ultimo": "pagat_ultimo",
    "kralj_ultimo": "kralj_ultimo",
    "valat": "valat",
    "barvni_valat": "barvni_valat",
    "mondfang": "mondfang",
}
#: Kontras: (level field, giver field) → the kontra target.
_KONTRA_FIELDS = {
    "igra": ("igra_kontra", "igra_kontra_dal", "game"),
    "pagat_ultimo": ("pagat_ultimo_kontra", "pagat_ultimo_kontra_dal", "pagat_ultimo"),
    "kralj_ultimo": ("kralj_ultimo_kontra", "kralj_ultimo_kontra_dal", "kralj_ultimo"),
    "mondfang": ("mondfang_kontra", "mondfang_kontra_dal", "mondfang"),
}
#: The game log's prediction words (``additionalData`` of USER_PREDICTED) → bonus codes.
_GAMELOG_BONUS = {
    "trula": "trula",
    "kings": "kralji",
    "king_ultimo": "kralj_ultimo",
    "pagat_ultimo": "pagat_ultimo",
    "valat": "valat",
    "color_valat": "barvni_valat",
    "mondfang": "mondfang",
}
_GAMELOG_KONTRA = {
    "game": "game",
    "pagat_ultimo": "pagat_ultimo",
    "king_ultimo": "kralj_ultimo",
    "mondfang": "mondfang",
}
#: Result components of a ``ResultsUser`` row → score items of the engine.
_RESULT_ITEMS = (
    ("igra", "contract"),
    ("razlika", "difference"),
    ("trula", "trula"),
    ("kralji", "kralji"),
    ("pagat", "pagat_ultimo"),
    ("kralj", "kralj_ultimo"),
)

# --------------------------------------------------------------------------- the schema

_T_INT32, _T_BOOL, _T_STRING, _T_FLOAT, _T_MESSAGE = 5, 8, 9, 2, 11
_SCHEMA: dict[str, list[tuple[str, int, int | str, bool]]] = {
    # message: [(field, number, scalar type or message name, repeated)]
    "Receive": [],
    "Send": [],
    "Request": [],
    "Remove": [],
    "Notification": [],
    "User": [("id", 1, _T_STRING, False), ("name", 2, _T_STRING, False),
             ("position", 3, _T_INT32, False)],
    "Card": [("id", 1, _T_STRING, False), ("userId", 2, _T_STRING, False),
             ("receive", 3, "Receive", False), ("send", 4, "Send", False),
             ("request", 5, "Request", False), ("remove", 6, "Remove", False)],
    "Licitiranje": [("type", 1, _T_INT32, False)],
    "GameStart": [("user", 1, "User", True)],
    "ResultsUser": [("user", 1, "User", True), ("playing", 2, _T_BOOL, False),
                    ("points", 3, _T_INT32, False), ("trula", 4, _T_INT32, False),
                    ("pagat", 5, _T_INT32, False), ("igra", 6, _T_INT32, False),
                    ("razlika", 7, _T_INT32, False), ("kralj", 8, _T_INT32, False),
                    ("kralji", 9, _T_INT32, False), ("kontra_pagat", 10, _T_INT32, False),
                    ("kontra_igra", 11, _T_INT32, False), ("kontra_kralj", 12, _T_INT32, False),
                    ("kontra_mondfang", 13, _T_INT32, False), ("mondfang", 14, _T_BOOL, False),
                    ("radelc", 21, _T_BOOL, False), ("skisfang", 22, _T_BOOL, False)],
    "Stih": [("card", 1, "Card", True), ("worth", 2, _T_FLOAT, False),
             ("pickedUpByPlaying", 3, _T_BOOL, False), ("pickedUpBy", 4, _T_STRING, False)],
    "Predictions": [("kralj_ultimo", 1, "User", False),
                    ("kralj_ultimo_kontra", 2, _T_INT32, False),
                    ("kralj_ultimo_kontra_dal", 3, "User", False),
                    ("trula", 4, "User", False), ("kralji", 7, "User", False),
                    ("pagat_ultimo", 10, "User", False),
                    ("pagat_ultimo_kontra", 11, _T_INT32, False),
                    ("pagat_ultimo_kontra_dal", 12, "User", False),
                    ("igra", 13, "User", False), ("igra_kontra", 14, _T_INT32, False),
                    ("igra_kontra_dal", 15, "User", False), ("valat", 16, "User", False),
                    ("barvni_valat", 17, "User", False), ("mondfang", 18, "User", False),
                    ("mondfang_kontra", 19, _T_INT32, False),
                    ("mondfang_kontra_dal", 20, "User", False),
                    ("gamemode", 22, _T_INT32, False), ("changed", 23, _T_BOOL, False)],
    "Results": [("user", 1, "ResultsUser", True), ("stih", 2, "Stih", True),
                ("predictions", 3, "Predictions", False)],
    "KingSelection": [("card", 1, _T_STRING, False), ("request", 2, "Request", False),
                      ("send", 3, "Send", False), ("notification", 4, "Notification", False)],
    "TalonReveal": [("stih", 1, "Stih", True)],
    "TalonSelection": [("part", 1, _T_INT32, False), ("request", 2, "Request", False),
                       ("send", 3, "Send", False), ("notification", 4, "Notification", False)],
    "Stash": [("card", 1, "Card", True), ("length", 2, _T_INT32, False),
              ("request", 3, "Request", False), ("send", 4, "Send", False),
              ("notification", 5, "Notification", False)],
    "StashedTarock": [("card", 1, "Card", False)],
    "Radelci": [("radleci", 1, _T_INT32, False)],
    "Message": [("username", 1, _T_STRING, False), ("player_id", 2, _T_STRING, False),
                ("silent", 4, _T_BOOL, False), ("licitiranje", 11, "Licitiranje", False),
                ("card", 12, "Card", False), ("game_start", 14, "GameStart", False),
                ("results", 19, "Results", False), ("king_selection", 21, "KingSelection", False),
                ("predictions", 23, "Predictions", False),
                ("talon_reveal", 24, "TalonReveal", False),
                ("talon_selection", 26, "TalonSelection", False), ("stash", 27, "Stash", False),
                ("radelci", 31, "Radelci", False), ("stashed_tarock", 35, "StashedTarock", False)],
}  # fmt: skip
#: The payloads of a ``Message`` this importer reads (other payloads: chat, timers, lobby).
_PAYLOADS = (
    "licitiranje", "card", "game_start", "results", "king_selection", "predictions",
    "talon_reveal", "talon_selection", "stash", "radelci", "stashed_tarock",
)  # fmt: skip


@cache
def message_class() -> Any:
    """The class of Palčka's ``Message``, built from :data:`_SCHEMA` in a private pool (the
    parts of ``messages.proto`` the importer reads; unknown fields are skipped on parsing)."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    fdp = descriptor_pb2.FileDescriptorProto(
        name="tarock_logs/palcka_messages.proto", package="palcka", syntax="proto3"
    )
    for name, fields in _SCHEMA.items():
        msg = fdp.message_type.add(name=name)
        for fname, number, ftype, repeated in fields:
            f = msg.field.add(name=fname, number=number, json_name=fname)
            f.label = 3 if repeated else 1  # LABEL_REPEATED, LABEL_OPTIONAL
            if isinstance(ftype, str):
                f.type = _T_MESSAGE
                f.type_name = f".palcka.{ftype}"
            else:
                f.type = ftype
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("palcka.Message"))


def card_token(card_id: str) -> str | None:
    """A Palčka card id (``/pik/kralj``) as a log-format token (``SK``), or None."""
    return CARD_IDS.get(card_id)


# --------------------------------------------------------------------------- one game's record


@dataclass
class _Event:
    """One public event of a game: ``kind`` bid | call | talon_groups | talon | discard |
    shown | predict | play | results | radelci | gamemode, by ``player`` (a user id)."""

    kind: str
    player: str
    record: int
    data: Any


@dataclass
class _View:
    """What one record shows of one game: one player's message list, or a game log."""

    file: str
    game_id: str
    fmt: str
    players: list[tuple[str, str]] = field(default_factory=list)  # (id, name), seat order
    dealt: dict[str, list[str]] = field(default_factory=dict)
    events: list[_Event] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    seats_from_bidding: bool = False

    def reject(self, record: int, fld: str | None, code: str, message: str) -> None:
        self.rejects.append(Reject(self.file, record, fld, code, message))


@dataclass
class ImportResult:
    """What :func:`import_files` made: sessions (plain dicts, validated) and rejects."""

    sessions: list[dict[str, Any]] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    files: int = 0


# --------------------------------------------------------------------------- message lists


def _read_messages(view: _View, items: list[Any]) -> None:
    cls = message_class()
    from google.protobuf.message import DecodeError

    bidding = False
    for i, item in enumerate(items, start=1):
        if not isinstance(item, str):
            view.reject(i, None, "palcka.base64", "the record is not a string")
            continue
        try:
            raw = base64.b64decode(item, validate=True)
        except (binascii.Error, ValueError) as exc:
            view.reject(i, None, "palcka.base64", f"not base64: {exc}")
            continue
        msg = cls()
        try:
            msg.ParseFromString(raw)
        except (DecodeError, RuntimeError, ValueError) as exc:
            view.reject(i, None, "palcka.protobuf", f"not a Palčka Message: {exc}")
            continue
        payloads = [p for p in _PAYLOADS if msg.HasField(p)]
        if len(payloads) > 1:
            view.reject(i, None, "palcka.protobuf", f"two payloads in one message: {payloads}")
            continue
        if not payloads:
            continue  # chat, timers, lobby, connections: nothing of the hand
        kind = payloads[0]
        body = getattr(msg, kind)
        who = str(msg.player_id)
        if kind == "game_start":
            users = sorted(body.user, key=lambda u: u.position)
            players = [(str(u.id), str(u.name)) for u in users]
            ids = [p[0] for p in players]
            if not 3 <= len(players) <= 4 or len(set(ids)) != len(ids) or "" in ids:
                view.reject(i, "game_start.user", "palcka.player", f"players {ids!r}")
                continue
            if view.players and view.players != players:
                view.reject(i, "game_start.user", "palcka.player", "a second, other table")
                continue
            view.players = players
        elif kind == "licitiranje":
            if body.type != -1 and body.type not in GAMEMODES:
                view.reject(i, "licitiranje.type", "palcka.bid", f"game {body.type}")
                continue
            bidding = True
            view.events.append(_Event("bid", who, i, int(body.type)))
        elif kind == "card":
            token = card_token(str(body.id))
            if body.HasField("request") or body.HasField("remove"):
                continue  # the server asking for a card, or a card leaving a hand
            if token is None:
                view.reject(i, "card.id", "palcka.card", f"unknown card {body.id!r}")
                continue
            owner = str(body.userId) or who
            if body.HasField("receive"):
                if not bidding:  # dealt; cards received later come from the talon
                    view.dealt.setdefault(owner, []).append(token)
            elif body.HasField("send"):
                view.events.append(_Event("play", owner, i, token))
        elif kind == "king_selection":
            if body.HasField("request"):
                continue
            token = card_token(str(body.card))
            if token is None or not token.endswith("K") or token.startswith("T"):
                view.reject(i, "king_selection.card", "palcka.card", f"no king: {body.card!r}")
                continue
            view.events.append(_Event("call", who, i, token))
        elif kind == "talon_reveal":
            groups: list[list[str]] = []
            bad = False
            for stih in body.stih:
                group = [card_token(str(c.id)) for c in stih.card]
                if any(t is None for t in group):
                    bad = True
                    break
                groups.append([t for t in group if t is not None])
            if bad:
                view.reject(i, "talon_reveal.stih.card", "palcka.card", "an unknown card id")
                continue
            view.events.append(_Event("talon_groups", who, i, groups))
        elif kind == "talon_selection":
            if body.HasField("request"):
                continue
            view.events.append(_Event("talon", who, i, int(body.part)))
        elif kind == "stash":
            if body.HasField("request"):
                continue
            cards = [card_token(str(c.id)) for c in body.card]
            if any(t is None for t in cards):
                view.reject(i, "stash.card", "palcka.card", "an unknown card id")
                continue
            view.events.append(_Event("discard", who, i, [t for t in cards if t]))
        elif kind == "stashed_tarock":
            token = card_token(str(body.card.id))
            if token is None or not token.startswith("T"):
                view.reject(i, "stashed_tarock.card", "palcka.card", f"{body.card.id!r}")
                continue
            view.events.append(_Event("shown", who, i, token))
        elif kind == "predictions":
            view.events.append(_Event("predict", who, i, _snapshot(body)))
            if body.gamemode != -1 and body.gamemode in GAMEMODES:
                view.events.append(_Event("gamemode", who, i, int(body.gamemode)))
        elif kind == "results":
            view.events.append(_Event("results", who, i, _results(body)))
        elif kind == "radelci":
            view.events.append(_Event("radelci", who, i, int(body.radleci)))


def _snapshot(p: Any) -> dict[str, Any]:
    """A ``Predictions`` message as {bonus: announcer id} and {target: (level, giver id)}."""
    bonuses = {b: str(getattr(p, f).id) for f, b in _BONUS_FIELDS.items() if p.HasField(f)}
    kontras: dict[str, tuple[int, str]] = {}
    for level_f, giver_f, target in _KONTRA_FIELDS.values():
        level = int(getattr(p, level_f))
        if level > 0:
            giver = str(getattr(p, giver_f).id) if p.HasField(giver_f) else ""
            kontras[target] = (level, giver)
    return {"bonuses": {k: v for k, v in bonuses.items() if v}, "kontras": kontras}


def _results(r: Any) -> list[dict[str, Any]]:
    rows = []
    for u in r.user:
        rows.append(
            {
                "users": [str(x.id) for x in u.user],
                "playing": bool(u.playing),
                "points": int(u.points),
                "radelc": bool(u.radelc),
                "mondfang": bool(u.mondfang),
                "kontra_igra": int(u.kontra_igra),
                **{f: int(getattr(u, f)) for f, _ in _RESULT_ITEMS},
            }
        )
    return rows


# --------------------------------------------------------------------------- game logs

_GAMELOG_FIELDS: dict[str, type | tuple[type, ...]] = {
    "actionType": int,
    "userId": str,
    "userName": str,
    "isPlaying": bool,
    "userType": int,
    "userCards": list,
    "action": int,
    "card": str,
    "additionalData": list,
    "actionTime": int,
}
_KONTRA_WORD = re.compile(r"^([a-z_]+)/kontra(\d+)$")


def _read_gamelog(view: _View, items: list[Any]) -> None:
    view.seats_from_bidding = True
    order: list[tuple[str, str]] = []
    stash: list[str] = []
    stash_at = 0
    declarer = ""
    talon: list[str] = []
    group_size = 0
    snap: dict[str, Any] = {"bonuses": {}, "kontras": {}}
    for i, e in enumerate(items, start=1):
        if not isinstance(e, dict):
            view.reject(i, None, "palcka.record", "the entry is not an object")
            continue
        bad = [
            k
            for k, t in _GAMELOG_FIELDS.items()
            if not isinstance(e.get(k), t) or (t is int and isinstance(e.get(k), bool))
        ]
        if bad:
            view.reject(i, bad[0], "palcka.record", f"missing or of the wrong type: {bad}")
            continue
        if e["userType"] == 2:
            continue  # the system's entries (game start, game end)
        t, who, i_card = e["actionType"], e["userId"], e["card"]
        cards_in = [card_token(c) if isinstance(c, str) else None for c in e["userCards"]]
        if t == 2:
            if e["action"] != -1 and e["action"] not in GAMEMODES:
                view.reject(i, "action", "palcka.bid", f"game {e['action']}")
                continue
            if who not in view.dealt:
                if any(c is None for c in cards_in):
                    view.reject(i, "userCards", "palcka.card", "an unknown card id")
                    continue
                view.dealt[who] = [c for c in cards_in if c]
                order.append((who, e["userName"]))
            view.events.append(_Event("bid", who, i, e["action"]))
        elif t == 3:
            if e["action"] in GAMEMODES:
                declarer = who
                view.events.append(_Event("gamemode", who, i, e["action"]))
        elif t == 5:
            token = card_token(i_card)
            if token is None or not token.endswith("K") or token.startswith("T"):
                view.reject(i, "card", "palcka.card", f"no king: {i_card!r}")
                continue
            view.events.append(_Event("call", who, i, token))
        elif t == 6:
            cards = [card_token(c) if isinstance(c, str) else None for c in e["additionalData"]]
            if any(c is None for c in cards) or len(cards) != 6 or e["action"] not in (1, 2, 3):
                view.reject(i, "additionalData", "palcka.card", "the talon is not six cards")
                continue
            talon = [c for c in cards if c]
            group_size = e["action"]
            groups = [talon[k : k + group_size] for k in range(0, len(talon), group_size)]
            view.events.append(_Event("talon_groups", who, i, groups))
        elif t == 7:
            picked = [card_token(c) for c in i_card.split(";")] if i_card else []
            groups = [talon[k : k + group_size] for k in range(0, len(talon), group_size or 6)]
            if not talon or None in picked or picked not in groups:
                view.reject(i, "card", "palcka.talon", f"{i_card!r} is no group of the talon")
                continue
            view.events.append(_Event("talon", who, i, groups.index([c for c in picked if c])))
        elif t == 9:
            token = card_token(i_card)
            if token is None:
                view.reject(i, "card", "palcka.card", f"unknown card {i_card!r}")
                continue
            stash.append(token)
            stash_at = stash_at or i
            declarer = who
        elif t == 10 and stash:
            view.events.append(_Event("discard", declarer, stash_at, list(stash)))
            stash.clear()
        elif t == 13:
            new = {"bonuses": dict(snap["bonuses"]), "kontras": dict(snap["kontras"])}
            ok = True
            for word in e["additionalData"]:
                w = word if isinstance(word, str) else ""
                m = _KONTRA_WORD.match(w)
                if w.endswith("/prediction") and w.split("/")[0] in _GAMELOG_BONUS:
                    new["bonuses"][_GAMELOG_BONUS[w.split("/")[0]]] = who
                elif m and m.group(1) in _GAMELOG_KONTRA and 1 <= int(m.group(2)) <= 4:
                    new["kontras"][_GAMELOG_KONTRA[m.group(1)]] = (int(m.group(2)), who)
                else:
                    ok = False
            if not ok:
                view.reject(i, "additionalData", "palcka.prediction", f"{e['additionalData']}")
                continue
            snap = new
            view.events.append(_Event("predict", who, i, new))
        elif t == 17:
            token = card_token(i_card)
            if token is None:
                view.reject(i, "card", "palcka.card", f"unknown card {i_card!r}")
                continue
            view.events.append(_Event("play", who, i, token))
    if stash:
        view.events.append(_Event("discard", declarer, stash_at, list(stash)))
    view.players = order


# --------------------------------------------------------------------------- files


def _game_id(path: Path) -> tuple[str, str]:
    """(game id, format guess by name): ``gamelog-<uuid>.json`` → the uuid; a message list
    ``<game>.<player>.msgs`` (any suffix) → ``<game>``."""
    name = path.name
    if name.startswith("gamelog-"):
        return name[len("gamelog-") :].split(".")[0], "gamelog"
    return name.split(".")[0], "messages"


def read_view(path: Path, data: bytes | None = None) -> _View:
    """One file as a view of one game (its rejects inside)."""
    game_id, _ = _game_id(path)
    view = _View(file=str(path), game_id=game_id, fmt="?")
    try:
        raw = path.read_bytes() if data is None else data
        items = orjson.loads(raw)
    except (OSError, orjson.JSONDecodeError) as exc:
        view.reject(1, None, "palcka.file", f"not JSON: {exc}")
        return view
    if not isinstance(items, list) or not items:
        view.reject(1, None, "palcka.file", "not a non-empty JSON list")
        return view
    gamelog = isinstance(items[0], dict)
    view.fmt = "gamelog" if gamelog else "messages"
    try:
        (_read_gamelog if gamelog else _read_messages)(view, items)
    except Exception as exc:  # noqa: BLE001 - last line of defence: a bad file, no crash
        view.fmt = "?"
        view.reject(1, None, "palcka.file", f"not read: {exc!r}")
    return view


def import_files(paths: Sequence[Path]) -> ImportResult:
    """Import Palčka records: every file a view of one game; views of one game (the same
    game id: ``<game>.<player>.msgs``) are merged. Never raises on bad input."""
    out = ImportResult(files=len(paths))
    groups: dict[str, list[_View]] = {}
    for p in sorted(paths, key=lambda q: q.as_posix()):
        v = read_view(p)
        out.rejects.extend(v.rejects)
        if v.fmt == "?":
            continue
        key = f"{v.fmt}:{v.game_id}:{p.parent}" if v.fmt == "gamelog" else f"m:{v.game_id}"
        groups.setdefault(key, []).append(v)
    for views in groups.values():
        try:
            session, rejects = _game_session(views)
        except Exception as exc:  # noqa: BLE001 - last line of defence: a bad game, no crash
            session = None
            rejects = [Reject(views[0].file, 1, None, "palcka.game", f"not converted: {exc!r}")]
        out.rejects.extend(rejects)
        if session is not None:
            out.sessions.append(session)
    return out


# --------------------------------------------------------------------------- a game → a session


def _public(view: _View) -> list[tuple[Any, ...]]:
    """The events every view of a game shows alike (the discard's cards and a player's own
    radelci only his view shows)."""
    out: list[tuple[Any, ...]] = []
    for e in view.events:
        if e.kind in ("radelci", "shown"):
            continue
        data = None if e.kind == "discard" else e.data
        if isinstance(data, (dict, list)):
            data = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
        out.append((e.kind, e.player, data))
    return out


def _game_session(views: list[_View]) -> tuple[dict[str, Any] | None, list[Reject]]:
    rejects: list[Reject] = []
    # the game's record is the one most views show alike (a tie: the first file's)
    signatures = [orjson.dumps([v.players, _public(v)], default=str) for v in views]
    base = views[max(range(len(views)), key=lambda k: (signatures.count(signatures[k]), -k))]
    merged = [base]
    for v in views:
        if v is base:
            continue
        if v.players != base.players or _public(v) != _public(base):
            rejects.append(
                Reject(v.file, 1, None, "palcka.views_disagree",
                       f"its players or public record differ from {base.file}'s: left out")
            )  # fmt: skip
            continue
        merged.append(v)
    files = [v.file for v in merged]
    if not base.players:
        rejects.append(Reject(base.file, 1, None, "palcka.game", "no players (no GameStart)"))
        return None, rejects
    seat = {pid: s for s, (pid, _) in enumerate(base.players)}
    n = len(base.players)
    events = base.events
    for e in events:
        needed = e.kind in ("bid", "play")  # who bid and who played must be known
        if (e.player or needed) and e.player not in seat and e.kind != "radelci":
            rejects.append(
                Reject(base.file, e.record, None, "palcka.player", f"{e.player!r} not at table")
            )
            return None, rejects
    bids = [e for e in events if e.kind == "bid"]
    if not bids:
        rejects.append(Reject(base.file, 1, None, "palcka.game", "no bidding recorded"))
        return None, rejects
    dealer = (seat[bids[0].player] - 2) % n
    dealt: dict[str, list[str]] = {}
    for v in merged:
        for pid, cards in v.dealt.items():
            dealt.setdefault(pid, cards)
    discard_cards: list[str] | None = None
    for v in merged:
        for e in v.events:
            if e.kind == "discard" and e.data:
                discard_cards = list(e.data)
    shown = [e.data for e in events if e.kind == "shown"]
    # the contract, the declarer
    contract: str | None = None
    declarer: int | None = None
    if all(b.data == -1 for b in bids):
        contract, declarer = ALONE, None  # everybody passed: klop
    else:
        last = [b for b in bids if b.data != -1][-1]
        contract, declarer = GAMEMODES[last.data], seat[last.player]
    # the final game as the platform announces it (the winner may raise his last bid)
    final = [e.data for e in events if e.kind == "gamemode"]
    if final and declarer is not None:
        contract = GAMEMODES[final[-1]]
    actions: list[dict[str, Any]] = []
    unknown: list[str] = []
    for k, b in enumerate(bids):
        s = seat[b.player]
        if contract == ALONE and k == len(bids) - 1:
            actions.append({"type": "bid", "seat": s, "contract": ALONE})
        elif b.data == -1:
            actions.append({"type": "pass", "seat": s})
        else:
            actions.append({"type": "bid", "seat": s, "contract": GAMEMODES[b.data]})
    called = next((e.data for e in events if e.kind == "call"), None)
    if called is not None and declarer is not None:
        actions.append({"type": "call", "seat": declarer, "card": called})
    groups = next((e.data for e in events if e.kind == "talon_groups"), None)
    pick = next((e for e in events if e.kind == "talon"), None)
    if pick is not None and declarer is not None:
        actions.append({"type": "talon", "seat": declarer, "group": pick.data})
    discard_seen = any(e.kind == "discard" for e in events)
    if discard_seen and declarer is not None:
        if discard_cards is None:
            unknown.append("the discard (only the declarer's view shows it)")
        else:
            act: dict[str, Any] = {"type": "discard", "seat": declarer, "cards": discard_cards}
            if shown:
                act["shown"] = shown
            actions.append(act)
    prev: dict[str, Any] = {"bonuses": {}, "kontras": {}}
    lezim_done = False
    for e in events:
        if e.kind != "predict":
            continue
        ps = seat.get(e.player)
        if ps is None:
            continue
        for bonus, who in e.data["bonuses"].items():
            if bonus not in prev["bonuses"] and who in seat:
                actions.append({"type": "announce", "seat": seat[who], "bonus": bonus})
        for target, (level, giver) in e.data["kontras"].items():
            if level > prev["kontras"].get(target, (0, ""))[0]:
                ks = seat.get(giver, ps)
                actions.append({"type": "kontra", "seat": ks, "target": target, "level": level})
        if ps == declarer and not lezim_done:
            actions.append({"type": "lezim", "seat": ps})
            lezim_done = True
        else:
            actions.append({"type": "pass", "seat": ps})
        prev = e.data
    plays = [e for e in events if e.kind == "play"]
    for e in plays:
        actions.append({"type": "play", "seat": seat[e.player], "card": e.data})
    # the deal
    per_seat = 48 // n
    hands = [dealt.get(pid, []) for pid, _ in base.players]
    for s, h in enumerate(hands):
        if len(h) != per_seat:
            unknown.append(f"the cards of seat {s} ({base.players[s][1] or base.players[s][0]})")
    talon: list[str] | None = [c for g in groups for c in g] if groups else None
    row = CONTRACTS.get(contract) if contract is not None else None
    exchange = contract in CONTRACTS and CONTRACTS[contract].talon > 0 and declarer is not None
    if exchange and (groups is None or pick is None):
        unknown.append("the talon's groups or the group taken")
    if talon is None:
        if row is not None and row.talon_gifts:
            unknown.append("the talon's order (klop gives it away card by card)")
        elif all(len(h) == per_seat for h in hands):
            from tarock_logs.cards import PACKS

            held = {c for h in hands for c in h}
            talon = [c for c in PACKS["slovenian"] if c not in held]
    result = _result(events, merged, seat, n, contract)
    players = [{"id": pid, "name": name} if name else {"id": pid} for pid, name in base.players]
    original = base.game_id
    hand: dict[str, Any] = {"number": 1, "id": f"palcka-{original}", "dealer": dealer}
    rows = next((e.data for e in events if e.kind == "results"), None) or []
    before = _radelci_before(rows, result, contract, declarer)
    if before is not None:
        hand["radelci_before"] = before
    elif any(r["radelc"] for r in rows):  # the score was doubled for a radelc of unknown count
        unknown.append("the radelci before the game (the platform doubled for one)")
    if not [u for u in unknown if not u.startswith("the radelci")] and talon is not None:
        hand["deal"] = {"hands": hands, "talon": talon}
        hand["actions"] = actions
    else:
        hand["facts"] = _facts(events, seat, contract, declarer, called, result)
        hand["extent"] = "partial"
    if unknown:
        hand["notes"] = "not known from the records: " + "; ".join(unknown)[:3900]
    if result is not None:
        hand["result"] = result
    session: dict[str, Any] = {
        "format": "tarock-log",
        "format_version": "1.1" if "facts" in hand else 1,
        "id": f"palcka-{original}",
        "game": "slovenian",
        "ruleset": RULESET,
        "options": dict(OPTIONS),
        "players": players,
        "first_dealer": dealer,
        "hands": [hand],
        "source": {
            "software": f"palcka (tarock-logs importer {PALCKA.version})",
            "importer": PALCKA.name,
            "original_id": original,
        },
        "notes": ("Palčka " + ("game log" if base.fmt == "gamelog" else "message lists") + ": "
                  + ", ".join(Path(f).name for f in files))[:4000],
    }  # fmt: skip
    from pydantic import ValidationError

    from tarock_logs.log.models import SessionAdapter

    try:
        SessionAdapter.validate_python(session)
    except ValidationError as exc:
        for err in exc.errors(include_url=False)[:5]:
            loc = ".".join(str(x) for x in err["loc"])
            rejects.append(Reject(base.file, 1, loc, "palcka.schema", err["msg"]))
        return None, rejects
    return session, rejects


def _result(
    events: list[_Event], views: Iterable[_View], seat: dict[str, int], n: int, contract: str
) -> dict[str, Any] | None:
    rows = next((e.data for e in events if e.kind == "results"), None)
    if rows is None:
        return None
    scores = [0] * n
    items: list[dict[str, Any]] = []
    for row in rows:
        who = [seat[u] for u in row["users"] if u in seat]
        for s in who:
            scores[s] += row["points"]
        if row["mondfang"] and not row["playing"]:
            items.extend({"item": "mondfang", "value": row["points"], "seat": s} for s in who)
            continue
        if contract is not None and CONTRACTS[contract].alone:
            base = row["points"] // 2 if row["radelc"] else row["points"]
            for s in who:
                if base:
                    items.append({"item": "klop", "value": base, "seat": s})
                if row["points"] - base:
                    items.append({"item": "radelc", "value": row["points"] - base, "seat": s})
            continue
        if not row["playing"]:
            continue
        parts = [(item, row[f]) for f, item in _RESULT_ITEMS if row[f]]
        items.extend({"item": item, "value": v} for item, v in parts)
        rest = row["points"] - sum(v for _, v in parts)
        if row["radelc"] and rest:
            items.append({"item": "radelc", "value": rest})
    radelci: dict[int, int] = {}
    for v in views:
        for e in v.events:
            if e.kind == "radelci" and e.player in seat and 0 <= e.data <= 1000:
                radelci[seat[e.player]] = e.data
    out: dict[str, Any] = {"scores": scores, "items": items}
    if len(radelci) == n:
        out["radelci_after"] = [radelci[s] for s in range(n)]
    return out


def _radelci_before(
    rows: list[dict[str, Any]], result: dict[str, Any] | None, contract: str, declarer: int | None
) -> list[int] | None:
    """Each seat's radelci before the game, from the radelci after it (every view's own) and
    Palčka's rule for this game (its server: everyone draws one after klop, a game from berač
    up or a valat; the declarer's playing row marked ``radelc`` and won crosses one out); None
    when the records do not say (a view missing, or a mondfang, whose radelc is a game
    option)."""
    after = result.get("radelci_after") if result is not None else None
    if after is None or any(r["mondfang"] for r in rows):
        return None
    earned = int(
        (contract is not None and contract in CONTRACTS and CONTRACTS[contract].radelc)
        or any(r["igra"] in (250, 500) for r in rows)
    )
    before = [a - earned for a in after]
    playing = next((r for r in rows if r["playing"]), None)
    if playing is not None and playing["radelc"] and playing["igra"] > 0:
        if declarer is None:
            return None
        before[declarer] += 1  # the declarer won with a radelc: one was crossed out
    if any(b < 0 for b in before):
        return None
    return before


def _facts(
    events: list[_Event],
    seat: dict[str, int],
    contract: str,
    declarer: int | None,
    called: str | None,
    result: dict[str, Any] | None,
) -> dict[str, Any]:
    facts: dict[str, Any] = {"contract": contract}
    if declarer is not None:
        facts["declarer"] = declarer
    if called is not None:
        facts["called"] = called
        holder = next(
            (seat[e.player] for e in events if e.kind == "play" and e.data == called), None
        )
        if holder is not None and holder != declarer:
            facts["partner"] = holder
    rows = next((e.data for e in events if e.kind == "results"), None) or []
    playing = next((r for r in rows if r["playing"]), None)
    if playing is not None and not (contract is not None and CONTRACTS[contract].alone):
        facts["won"] = playing["igra"] > 0
        if playing["razlika"] and not playing["kontra_igra"]:
            facts["difference"] = abs(playing["razlika"])
    last = next((e.data for e in reversed(events) if e.kind == "predict"), None)
    side = {declarer, facts.get("partner")}
    bonuses: list[dict[str, Any]] = []
    announced = set()
    if last is not None:
        for bonus, who in last["bonuses"].items():
            if bonus in _RESULT_ITEMS_BY_BONUS and playing is not None:
                value = playing[_RESULT_ITEMS_BY_BONUS[bonus]]
                mine = seat.get(who) in side
                bonuses.append({"bonus": bonus, "side": "declarer" if mine else "defenders",
                                "announced": True, "made": (value > 0) == mine})  # fmt: skip
                announced.add(bonus)
        facts["kontras"] = [
            {"target": t, "level": lvl, **({"seat": seat[g]} if g in seat else {})}
            for t, (lvl, g) in last["kontras"].items()
        ]
    if playing is not None:
        for bonus in ("trula", "kralji"):  # silent: the sign says whose it was
            value = playing[_RESULT_ITEMS_BY_BONUS[bonus]]
            if value and bonus not in announced:
                bonuses.append({"bonus": bonus, "side": "declarer" if value > 0 else "defenders"})
    facts["bonuses"] = bonuses
    facts["mondfang"] = [
        {"seat": seat[u]} for r in rows if r["mondfang"] for u in r["users"] if u in seat
    ]
    return facts


_RESULT_ITEMS_BY_BONUS = {"trula": "trula", "kralji": "kralji", "pagat_ultimo": "pagat",
                          "kralj_ultimo": "kralj"}  # fmt: skip
