"""Write ``sample_logs/palcka/``: records of the Palčka platform, and their import.

The games are played by the simulator (every action legal, every score the engine's: a table
of four, one game each, seeds below) and then written in Palčka's documented formats
(``docs/importers.md``, "palcka"): each player's message list (a JSON list of base64 protobuf
``Message``s, encoded with the importer's own schema,
:func:`tarock_logs.tools.importers.palcka.message_class`) and the app's game log. The
platform's result rows (points per user, igra, razlika, the bonuses) are the engine's score.

* ``messages/game-a.<player>.msgs``: the four views of a clean game;
* ``messages/game-b.<player>.msgs``: the four views of a game whose result row of the playing
  side has 10 points too many (the platform's arithmetic error the audit must find);
* ``messages/game-c.<player>.msgs``: one player's view only (the hand is imported as facts,
  ``partial``);
* ``malformed/PalckaGames/gamelog-<uuid>.json``: a game log with one bad entry (its
  ``actionType`` is text): a located reject, the rest of the game imported whole.

``palcka.jsonl`` is ``tarock import palcka`` of all of them; ``tests/tools/test_palcka_samples.py``
runs :func:`build` and compares byte for byte.

Run: ``python scripts/make_palcka_samples.py [OUT_DIR]`` (default: sample_logs/palcka).
"""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tarock_logs.log.models import SessionAdapter
from tarock_logs.log.writer import dumps_session
from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.tools.importers.palcka import CARD_IDS, GAMEMODES, import_files, message_class
from tarock_logs.tools.simulate import TournamentSpec, simulate_tournament

ROOT = Path(__file__).resolve().parents[1]
PALCKA_ID = {token: cid for cid, token in CARD_IDS.items()}
GAME_NO = {code: no for no, code in GAMEMODES.items()}
ITEM_FIELD = {"contract": "igra", "difference": "razlika", "trula": "trula", "kralji": "kralji",
              "pagat_ultimo": "pagat", "kralj_ultimo": "kralj"}  # fmt: skip
BONUS_FIELD = {"trula": "trula", "kralji": "kralji", "pagat_ultimo": "pagat_ultimo",
               "kralj_ultimo": "kralj_ultimo", "valat": "valat",
               "barvni_valat": "barvni_valat"}  # fmt: skip
KONTRA_FIELD = {"game": ("igra_kontra", "igra_kontra_dal"),
                "pagat_ultimo": ("pagat_ultimo_kontra", "pagat_ultimo_kontra_dal"),
                "kralj_ultimo": ("kralj_ultimo_kontra", "kralj_ultimo_kontra_dal")}  # fmt: skip
GAMELOG_WORD = {"trula": "trula", "kralji": "kings", "kralj_ultimo": "king_ultimo",
                "pagat_ultimo": "pagat_ultimo", "valat": "valat",
                "barvni_valat": "color_valat"}  # fmt: skip
UUID = "5d1f0c2e-8a4b-4f3e-9c61-2b7d4e9a0f13"


def _first_hand(seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    res = simulate_tournament(TournamentSpec(seed=seed, tables=(4,), rounds=1, games_per_round=1))
    session = next(iter(res.files.values()))[0]
    return session, session["hands"][0]


def _plain(hand: dict[str, Any], *, announced: bool) -> bool:
    """A hand with a talon exchange, no kontra, every score item the declarer side's, and (if
    ``announced``) at least one announcement."""
    acts = hand["actions"]
    contract = next((a["contract"] for a in reversed(acts) if a["type"] == "bid"), "klop")
    if contract not in ("three", "two", "one"):
        return False
    if any(a["type"] == "kontra" for a in acts):
        return False
    if any(it.get("seat") is not None for it in hand["result"]["items"]):
        return False
    return any(a["type"] == "announce" for a in acts) == announced


def _pick(
    start: int, test: Callable[[dict[str, Any]], bool]
) -> tuple[int, dict[str, Any], dict[str, Any]]:
    for seed in range(start, start + 500):
        session, hand = _first_hand(seed)
        if test(hand):
            return seed, session, hand
    raise SystemExit("no simulated hand fits")


def _game(session: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
    """The facts of a simulated hand the writers need."""
    acts = hand["actions"]
    bids = []
    for a in acts:
        if a["type"] in ("call", "talon", "discard", "announce", "lezim", "play"):
            break
        bids.append(a)
    declarer = next(a["seat"] for a in reversed(bids) if a["type"] == "bid")
    contract = next(a["contract"] for a in reversed(bids) if a["type"] == "bid")
    call = next((a["card"] for a in acts if a["type"] == "call"), None)
    pick = next(a["group"] for a in acts if a["type"] == "talon")
    discard = [c for a in acts if a["type"] == "discard" for c in a["cards"]]
    first_play = next(i for i, a in enumerate(acts) if a["type"] == "play")
    last_discard = max(i for i, a in enumerate(acts) if a["type"] == "discard")
    turns: list[tuple[int, list[dict[str, Any]]]] = []
    pending: list[dict[str, Any]] = []
    for a in acts[last_discard + 1 : first_play]:
        if a["type"] in ("pass", "lezim"):
            turns.append((a["seat"], pending))
            pending = []
        else:
            pending.append(a)
    plays = [(a["seat"], a["card"]) for a in acts[first_play:] if a["type"] == "play"]
    partner = next((s for s, c in plays if c == call and s != declarer), None)
    size = CONTRACTS[contract].talon
    talon = hand["deal"]["talon"]
    groups = [talon[k : k + size] for k in range(0, len(talon), size)]
    return {
        "players": [(p["id"], p.get("name", "")) for p in session["players"]],
        "hands": hand["deal"]["hands"], "bids": bids, "declarer": declarer,
        "contract": contract, "call": call, "pick": pick, "groups": groups,
        "discard": discard, "turns": turns, "plays": plays, "partner": partner,
        "result": hand["result"],
    }  # fmt: skip


def _rows(g: dict[str, Any], error: int) -> list[dict[str, Any]]:
    side = [g["declarer"]] + ([g["partner"]] if g["partner"] is not None else [])
    scores = g["result"]["scores"]
    playing = {"seats": side, "playing": True, "points": scores[g["declarer"]] + error}
    for it in g["result"]["items"]:
        playing[ITEM_FIELD[it["item"]]] = playing.get(ITEM_FIELD[it["item"]], 0) + it["value"]
    rows = [playing]
    rows += [{"seats": [s], "playing": False, "points": scores[s]}
             for s in range(len(scores)) if s not in side]  # fmt: skip
    return rows


def _views(g: dict[str, Any], *, error: int = 0) -> list[list[str]]:
    """Each player's message list (base64 strings) of the game."""
    msg = message_class()
    ids = [p for p, _ in g["players"]]

    def enc(m: Any) -> str:
        return base64.b64encode(m.SerializeToString()).decode()

    def user(target: Any, seat: int) -> None:
        target.id, target.name = g["players"][seat]

    out = []
    for me, my_id in enumerate(ids):
        lst: list[str] = []
        m = msg()
        for s, (pid, name) in enumerate(g["players"]):
            u = m.game_start.user.add(id=pid, name=name, position=s)
            del u
        lst.append(enc(m))
        for card in g["hands"][me]:
            m = msg(player_id=my_id)
            m.card.id, m.card.userId = PALCKA_ID[card], my_id
            m.card.receive.SetInParent()
            lst.append(enc(m))
        for b in g["bids"]:
            m = msg(player_id=ids[b["seat"]])
            m.licitiranje.type = GAME_NO[b["contract"]] if b["type"] == "bid" else -1
            lst.append(enc(m))
        d = g["declarer"]
        if g["call"]:
            m = msg(player_id=ids[d])
            m.king_selection.card = PALCKA_ID[g["call"]]
            m.king_selection.notification.SetInParent()
            lst.append(enc(m))
        m = msg()
        for grp in g["groups"]:
            stih = m.talon_reveal.stih.add()
            for c in grp:
                stih.card.add(id=PALCKA_ID[c])
        lst.append(enc(m))
        m = msg(player_id=ids[d])
        m.talon_selection.part = g["pick"]
        m.talon_selection.notification.SetInParent()
        lst.append(enc(m))
        m = msg(player_id=ids[d])
        if me == d:
            for c in g["discard"]:
                m.stash.card.add(id=PALCKA_ID[c], userId=ids[d])
            m.stash.send.SetInParent()
        else:
            m.stash.length = len(g["discard"])
            m.stash.notification.SetInParent()
        lst.append(enc(m))
        pred = msg().predictions
        pred.gamemode = GAME_NO[g["contract"]]
        for seat, acts in g["turns"]:
            for a in acts:
                if a["type"] == "announce":
                    user(getattr(pred, BONUS_FIELD[a["bonus"]]), a["seat"])
            m = msg(player_id=ids[seat])
            m.predictions.CopyFrom(pred)
            lst.append(enc(m))
        for seat, card in g["plays"]:
            m = msg(player_id=ids[seat])
            m.card.id, m.card.userId = PALCKA_ID[card], ids[seat]
            m.card.send.SetInParent()
            lst.append(enc(m))
        m = msg()
        for row in _rows(g, error):
            r = m.results.user.add()
            for s in row["seats"]:
                user(r.user.add(), s)
            for k, v in row.items():
                if k != "seats":
                    setattr(r, k, v)
        lst.append(enc(m))
        m = msg(player_id=my_id)
        m.radelci.radleci = 0
        lst.append(enc(m))
        out.append(lst)
    return out


def _gamelog(g: dict[str, Any]) -> list[dict[str, Any]]:
    """The app's game log of the game (the local player in seat 0, bots elsewhere); its
    first CARD_ROUND_STARTED entry carries the planted bad ``actionType``."""
    time = [1_733_000_000_000]

    def entry(t: int | str, seat: int | None, *, action: int = -1, card: str = "",
              data: list[str] | None = None) -> dict[str, Any]:  # fmt: skip
        time[0] += 700
        pid, name = g["players"][seat] if seat is not None else ("system", "")
        return {
            "actionType": t, "userId": pid, "userName": name,
            "isPlaying": seat is not None and seat in (g["declarer"], g["partner"]),
            "userType": 2 if seat is None else (0 if seat == 0 else 1),
            "userCards": [PALCKA_ID[c] for c in g["hands"][seat]] if seat is not None else [],
            "action": action, "card": card, "additionalData": data or [], "actionTime": time[0],
        }  # fmt: skip

    d = g["declarer"]
    size = len(g["groups"][0])
    log = [entry(0, None), entry(1, None)]
    for b in g["bids"]:
        log.append(entry(2, b["seat"], action=GAME_NO[b["contract"]] if b["type"] == "bid" else -1))
    log.append(entry(3, d, action=GAME_NO[g["contract"]]))
    if g["call"]:
        log.append(entry(4, d))
        log.append(entry(5, d, card=PALCKA_ID[g["call"]]))
    talon_ids = [PALCKA_ID[c] for grp in g["groups"] for c in grp]
    log.append(entry(6, d, action=size, data=talon_ids))
    picked = ";".join(PALCKA_ID[c] for c in g["groups"][g["pick"]])
    log.append(entry(7, d, action=size, card=picked, data=talon_ids))
    log.append(entry(8, d))
    for c in g["discard"]:
        log.append(entry(9, d, card=PALCKA_ID[c]))
    log.append(entry(10, d))
    log.append(entry(11, d))
    log.append(entry(12, None))
    for seat, acts in g["turns"]:
        words = [f"{GAMELOG_WORD[a['bonus']]}/prediction" for a in acts if a["type"] == "announce"]
        log.append(entry(13, seat, data=words))
    log.append(entry(14, None))
    log.append(entry(15, None))
    n = len(g["players"])
    for k, (seat, card) in enumerate(g["plays"]):
        if k % n == 0:
            bad = entry(16, None, action=k // n + 1)
            if k == 0:
                bad["actionType"] = "16"  # the planted bad record
            log.append(bad)
        log.append(entry(17, seat, action=k // n + 1, card=PALCKA_ID[card]))
    log.append(entry(-1, None))
    return log


def build() -> dict[str, bytes]:
    """The files of the folder, by relative path."""
    files: dict[str, bytes] = {}
    plans = [("game-a", 1, True, 0, 4), ("game-b", 101, False, 10, 4), ("game-c", 201, False, 0, 1)]
    games = {}
    for name, start, announced, error, views in plans:
        _, session, hand = _pick(start, lambda h, a=announced: _plain(h, announced=a))
        g = _game(session, hand)
        games[name] = g
        for k, view in enumerate(_views(g, error=error)[:views]):
            files[f"messages/{name}.{g['players'][k][0]}.msgs"] = (
                json.dumps(view, indent=0) + "\n"
            ).encode()
    _, session, hand = _pick(301, lambda h: _plain(h, announced=False))
    files[f"malformed/PalckaGames/gamelog-{UUID}.json"] = (
        json.dumps(_gamelog(_game(session, hand)), ensure_ascii=False, indent=1) + "\n"
    ).encode()
    return files


def import_folder(folder: Path) -> tuple[bytes, list[str]]:
    """``tarock import palcka`` of the folder's records: (the JSONL, the reject lines)."""
    paths = sorted(folder.glob("messages/*.msgs")) + sorted(folder.glob("malformed/*/*.json"))
    res = import_files(paths)
    text = "".join(dumps_session(SessionAdapter.validate_python(s)) + "\n" for s in res.sessions)
    return text.encode(), [str(r) for r in res.rejects]


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "sample_logs" / "palcka"
    for rel, data in build().items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    jsonl, rejects = import_folder(out)
    (out / "palcka.jsonl").write_bytes(jsonl)
    for line in rejects:
        print(line, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
