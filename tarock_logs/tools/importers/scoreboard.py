"""The tarok scoreboard app's records (erikbozic/tarok-scoreboard) → sessions of facts-only hands.

The app keeps no cards: per game its players (``game_player``: ``player_id``, ``name``,
``position``) and per round a ``round`` row (``game_type``, ``difference``, ``won``,
``lead_player_id``, ``supporting_player_id``, ``is_klop``, ``contra_factor``,
``mond_fang_player_id``, ``pagat_fang_player_id``, ``round_number``) with its
``round_modifier`` rows (``modifier_type``, ``team``, ``announced``, ``contra``) and its
``round_result`` rows per player (``player_score``: the running total, ``round_score_change``,
``player_radelc_count``, ``player_radelc_used``). One file is one game: the app's API answers
(``GET api/game/{id}`` as ``game``, ``GET api/scoreboard/{id}`` as ``rounds``; camelCase, each
optionally in the API's ``{"data": ...}`` envelope) or the same rows with the database's
snake_case column names (docs/importers.md, "scoreboard").

Each round becomes one hand recorded as facts (format 1.1): the contract from ``game_type``,
declarer and partner, won, the difference, the game's kontra from ``contra_factor``, the
bonuses from the modifiers, the mondfang; the app's per-player score change is the recorded
score, its running totals ``totals_after`` and its radelci ``radelci_after``, so that
``tarock audit`` checks the app's arithmetic. What a round cannot give (the dealer, the called
king, a klop's card points) is said in the hand's notes, never guessed. Every record that
cannot be converted is a located :class:`Reject` (file, round index, field path, code).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tarock_logs.log import models as m
from tarock_logs.rules.slovenian.contracts import CONTRACTS as TABLE
from tarock_logs.tools.importers import Conversion, Reject

__all__ = ["CODES", "CONTRACTS", "CONTRA_LEVELS", "MODIFIERS", "OPTIONS", "RULESET", "convert"]

#: the app's ``game_type`` codes (its ``GameType`` enum) → the log's contract codes
CONTRACTS: Mapping[int, str] = {
    10: "three",
    20: "two",
    30: "one",
    40: "solo_three",
    50: "solo_two",
    60: "solo_one",
    70: "berac",
    80: "solo_brez",
    90: "odprti_berac",
}
#: the app's ``contra_factor`` (1, 2, 4, 8, 16) → the kontra level (0: none … 4: mord)
CONTRA_LEVELS: Mapping[int, int] = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}
#: the app's modifier types → the log's bonus codes
MODIFIERS: Mapping[str, str] = {
    "trula": "trula",
    "kralji": "kralji",
    "kralj_ultimo": "kralj_ultimo",
    "pagat_ultimo": "pagat_ultimo",
    "barvni_valat": "barvni_valat",
    "valat": "valat",
}
RULESET = "si-tournament-2021"
#: the app counts kontras up to mord (contra factor 16)
OPTIONS: Mapping[str, int] = {"kontra_levels": 4}
VERSION = "1"

CODES: Mapping[str, str] = {
    "scoreboard.file": "the file is not JSON, or not an object with the game's rounds",
    "scoreboard.players": "the game's players are missing, not 3 or 4, or named twice",
    "scoreboard.round": "a round is not an object, or lacks a field or has one of the wrong type",
    "scoreboard.game_type": "a game_type that is none of the app's games",
    "scoreboard.player": "a round names a player who is not in the game",
    "scoreboard.contra": "a contra factor that is not 1, 2, 4, 8 or 16",
    "scoreboard.modifier": "a modifier of an unknown type or with a bad team or contra",
    "scoreboard.result": "a round's results lack a player, or hold a bad number",
    "scoreboard.pagat_fang": "a pagat fang (−25): the log has no such item; the hand is imported "
    "without it",
    "scoreboard.schema": "the hand made of the round is not a valid log hand",
}

# keys are matched without case and underscores, so camelCase (the API) and snake_case (the
# database) read alike; each field lists the spellings of its key
_ALIASES: Mapping[str, tuple[str, ...]] = {
    "game_type": ("gametype",),
    "difference": ("difference", "scoredifference"),
    "won": ("won",),
    "lead": ("leadplayerid", "leadplayer"),
    "supporting": ("supportingplayerid", "supportingplayer"),
    "is_klop": ("isklop",),
    "contra": ("contrafactor",),
    "mond_fang": ("mondfangplayerid", "mondfangplayer"),
    "pagat_fang": ("pagatfangplayerid", "pagatfangplayer"),
    "number": ("roundnumber",),
    "id": ("roundid",),
    "results": ("roundresults", "roundresult", "results"),
    "modifiers": ("modifiers", "roundmodifier", "roundmodifiers"),
    "player": ("playerid", "player"),
    "score": ("playerscore",),
    "change": ("roundscorechange",),
    "radelc_count": ("playerradelccount", "radelccount"),
    "radelc_used": ("playerradelcused", "radelcused"),
    "modifier_type": ("modifiertype",),
    "team": ("team",),
    "announced": ("announced",),
    "mod_contra": ("contra", "contrafactor"),
    "name": ("name",),
    "position": ("position",),
    "players": ("players", "gameplayer", "gameplayers"),
    "rounds": ("rounds", "round", "data"),
    "game": ("game",),
    "game_id": ("gameid",),
}


def _norm(key: str) -> str:
    return key.replace("_", "").replace("-", "").lower()


def _get(obj: Mapping[str, Any], field: str) -> tuple[str | None, Any]:
    """The key (as written) and value of ``field`` in ``obj`` (``(None, None)``: absent)."""
    keys = {_norm(k): k for k in obj}
    for alias in _ALIASES[field]:
        if alias in keys:
            return keys[alias], obj[keys[alias]]
    return None, None


def _unwrap(value: Any) -> Any:
    """The API's envelope ``{"data": ..., "message": ..., "errors": ...}`` → its data."""
    if isinstance(value, dict) and "data" in value and set(value) <= {"data", "message", "errors"}:
        return value["data"]
    return value


class _Bad(Exception):
    def __init__(self, field: str | None, code: str, message: str) -> None:
        super().__init__(message)
        self.field, self.code, self.message = field, code, message


def _int(value: Any, field: str, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(field, "scoreboard.round", f"{value!r} is not a whole number")
    return value


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _Bad(field, "scoreboard.round", f"{value!r} is not true or false")
    return value


def convert(paths: Sequence[Path]) -> Conversion:
    """Every file of ``paths`` (one game each) → one session; never raises for bad input."""
    out = Conversion()
    for p in paths:
        _convert_file(Path(p), out)
    return out


def _convert_file(path: Path, out: Conversion) -> None:
    name = str(path)
    try:
        doc = json.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        out.rejects.append(Reject(name, 1, None, "scoreboard.file", f"not a JSON file: {exc}"))
        return
    if not isinstance(doc, dict):
        out.rejects.append(Reject(name, 1, None, "scoreboard.file", "not an object {game, rounds}"))
        return
    _, game = _get(doc, "game")
    game = _unwrap(game)
    if not isinstance(game, dict):
        game = doc  # players may sit at the top level (a database dump of one game)
    seats = _players(name, game, doc, out)
    if seats is None:
        return
    rkey, rounds = _get(doc, "rounds")
    rounds = _unwrap(rounds)
    if not isinstance(rounds, list) or not rounds:
        out.rejects.append(
            Reject(name, 1, rkey or "rounds", "scoreboard.file", "no list of rounds")
        )
        return
    _, gid = _get(game, "game_id")
    game_id = str(gid) if gid else path.stem
    ids = [pid for pid, _ in seats]
    n = len(seats)
    hands: list[dict[str, Any]] = []
    notes: list[str] = []
    prev_totals: list[int] | None = [0] * n
    after_klop: list[int] | None = None
    for k, rnd in enumerate(rounds, start=1):
        base = f"{rkey or 'rounds'}[{k - 1}]"
        try:
            hand, totals, end = _round(rnd, base, ids, name, k, out)
        except _Bad as bad:
            out.rejects.append(Reject(name, k, bad.field, bad.code, bad.message))
            prev_totals = after_klop = None
            continue
        if end:
            notes.append(
                f"round {k} is the app's end of the game (−100 for every radelc not used: a "
                f"rule of the app, not of the ruleset); its totals {totals} are not checked"
            )
            continue
        number = k  # the app's order: a rejected round leaves its number out
        hand["number"] = number
        hand["dealer"] = (n - 1 + number - 1) % n
        if number == 1:
            hand["radelci_before"] = [0] * n
        elif after_klop is not None:  # the audit cannot score a klop: the app's radelci go on
            hand["radelci_before"] = after_klop
        rad = hand["result"].get("radelci_after")
        after_klop = rad if hand["facts"]["contract"] == "klop" else None
        res = hand["result"]
        if "scores" not in res:  # no round_score_change: the difference of the running totals
            if prev_totals is None:
                out.rejects.append(
                    Reject(
                        name,
                        k,
                        f"{base}.round_result",
                        "scoreboard.result",
                        "no score change and no earlier running total to take it from",
                    )
                )
                prev_totals = totals
                continue
            res["scores"] = [t - p for t, p in zip(totals, prev_totals, strict=True)]
        prev_totals = totals
        try:
            m.HandAdapter.validate_python(hand)
        except ValidationError as exc:
            e = exc.errors(include_url=False)[0]
            where = ".".join(str(x) for x in e["loc"])
            out.rejects.append(Reject(name, k, base, "scoreboard.schema", f"{where}: {e['msg']}"))
            continue
        hands.append(hand)
    session: dict[str, Any] = {
        "format": m.FORMAT_NAME,
        "format_version": m.VERSION_1_1,
        "id": f"scoreboard-{game_id}"[:128],
        "game": "slovenian",
        "ruleset": RULESET,
        "options": dict(OPTIONS),
        "players": [{"id": pid, "name": pname} for pid, pname in seats],
        "hands": hands,
        "source": {
            "importer": "scoreboard",
            "software": f"tarok-scoreboard (tarock-logs importer {VERSION})",
            "original_id": game_id,
        },
        "notes": "; ".join(
            [
                f"imported from {path.name}; the app records no dealer: the dealer of each hand "
                "is the rotation's from the last seat (not a fact of the record)",
                *notes,
            ]
        )[:4000],
    }
    _, gname = _get(game, "name")
    if isinstance(gname, str) and gname.strip():
        session["event"] = {"name": gname.strip()[:128]}
    if hands:
        session["first_dealer"] = hands[0]["dealer"]
    try:
        m.SessionAdapter.validate_python(session)
    except ValidationError as exc:
        e = exc.errors(include_url=False)[0]
        where = ".".join(str(x) for x in e["loc"])
        out.rejects.append(Reject(name, 1, None, "scoreboard.schema", f"{where}: {e['msg']}"))
        return
    out.sessions.append(session)


def _players(
    name: str, game: Mapping[str, Any], doc: Mapping[str, Any], out: Conversion
) -> list[tuple[str, str]] | None:
    """The players in seat order (the app's ``position``, then as listed): (id, name)."""
    key, players = _get(game, "players")
    if players is None:
        key, players = _get(doc, "players")
    players = _unwrap(players)
    field = key or "game.players"
    if not isinstance(players, list):
        out.rejects.append(Reject(name, 1, field, "scoreboard.players", "no list of players"))
        return None
    found: list[tuple[int, int, str, str]] = []
    for i, p in enumerate(players):
        pid = _get(p, "player")[1] if isinstance(p, dict) else None
        pname = _get(p, "name")[1] if isinstance(p, dict) else None
        pos = _get(p, "position")[1] if isinstance(p, dict) else None
        if not isinstance(pid, str) or not pid or len(pid) > 64:
            out.rejects.append(
                Reject(name, 1, f"{field}[{i}].playerId", "scoreboard.players", "no player id")
            )
            return None
        if pos is not None and (isinstance(pos, bool) or not isinstance(pos, int)):
            out.rejects.append(
                Reject(name, 1, f"{field}[{i}].position", "scoreboard.players", "not a number")
            )
            return None
        label = pname if isinstance(pname, str) and pname.strip() else pid
        found.append((pos if pos is not None else 1_000_000, i, pid, label.strip()[:128]))
    found.sort()
    seats = [(pid, label) for _, _, pid, label in found]
    if len({pid for pid, _ in seats}) != len(seats) or len(seats) not in (3, 4):
        out.rejects.append(
            Reject(
                name,
                1,
                field,
                "scoreboard.players",
                f"{len(seats)} players (or one twice): the app's records are converted for "
                "tables of 3 or 4 (at 5 the dealer sits out, and the app records no dealer)",
            )
        )
        return None
    return seats


def _seat(value: Any, field: str, ids: list[str]) -> int | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in ids:
        raise _Bad(field, "scoreboard.player", f"{value!r} is not a player of the game")
    return ids.index(value)


def _round(
    rnd: Any, base: str, ids: list[str], name: str, k: int, out: Conversion
) -> tuple[dict[str, Any], list[int], bool]:
    """One round → (its hand without number and dealer, the running totals, whether it is
    the app's end-of-game round)."""
    if not isinstance(rnd, dict):
        raise _Bad(base, "scoreboard.round", "a round is not an object")

    def f(field: str) -> tuple[str, Any]:
        key, value = _get(rnd, field)
        return f"{base}.{key or field}", value

    totals, changes, radelci = _results(rnd, base, ids)
    klop_at, klop = f("is_klop")
    is_klop = _bool(klop, klop_at) if klop is not None else False
    gt_at, gt = f("game_type")
    game_type = _int(gt, gt_at, optional=True)
    lead_at, lead = f("lead")
    declarer = _seat(lead, lead_at, ids)
    if not is_klop and declarer is None and game_type in (0, None):
        return {}, totals, True
    facts: dict[str, Any] = {}
    notes: list[str] = []
    if is_klop:
        facts["contract"] = "klop"
        notes.append("klop: the app keeps each player's score, not the card points")
    else:
        if game_type is None or game_type not in CONTRACTS:
            raise _Bad(gt_at, "scoreboard.game_type", f"{game_type!r} is none of the app's games")
        if declarer is None:
            raise _Bad(lead_at, "scoreboard.round", "no lead player")
        facts["contract"] = CONTRACTS[game_type]
        facts["declarer"] = declarer
        sup_at, sup = f("supporting")
        partner = _seat(sup, sup_at, ids)
        if partner is not None and partner != declarer:
            facts["partner"] = partner
        won_at, won = f("won")
        facts["won"] = _bool(won, won_at)
        diff_at, diff = f("difference")
        d = _int(diff, diff_at, optional=True)
        if d is not None and not TABLE[facts["contract"]].fixed:
            if not 0 <= d <= 100:
                raise _Bad(diff_at, "scoreboard.round", f"difference {d} is not 0–100")
            facts["difference"] = d
        c_at, c = f("contra")
        cf = _int(c, c_at, optional=True)
        if cf is not None and cf not in CONTRA_LEVELS:
            raise _Bad(c_at, "scoreboard.contra", f"contra factor {cf} is not 1, 2, 4, 8 or 16")
        if cf:
            level = CONTRA_LEVELS[cf]
            if level:
                facts["kontras"] = [{"target": "game", "level": level}]
        bonuses, kontras = _modifiers(rnd, base)
        if bonuses:
            facts["bonuses"] = bonuses
        if kontras:
            facts.setdefault("kontras", []).extend(kontras)
        if len(ids) == 4 and TABLE[facts["contract"]].king_call:
            notes.append("the called king is not recorded")
    mf_at, mf = f("mond_fang")
    mond = _seat(mf, mf_at, ids)
    if mond is not None:
        facts["mondfang"] = [{"seat": mond}]
    pf_at, pf = f("pagat_fang")
    pagat = _seat(pf, pf_at, ids)
    if pagat is not None:
        out.rejects.append(
            Reject(
                name,
                k,
                pf_at,
                "scoreboard.pagat_fang",
                f"the app wrote −25 to seat {pagat} ({ids[pagat]}) for a captured pagat: the log "
                "has no such "
                "item (the hand is imported without it; the audit shows the −25)",
            )
        )
        notes.append(f"the app's pagat fang (−25 to seat {pagat}) is not carried")
    result: dict[str, Any] = {}
    if changes is not None:
        result["scores"] = changes
    result["totals_after"] = totals
    if radelci is not None:
        result["radelci_after"] = radelci
    _, rid = f("id")
    hand: dict[str, Any] = {"facts": facts, "result": result}
    if isinstance(rid, str) and rid:
        hand["id"] = rid[:128]
    hand["notes"] = "; ".join(notes + ["the dealer is not recorded"])
    return hand, totals, False


def _results(
    rnd: Mapping[str, Any], base: str, ids: list[str]
) -> tuple[list[int], list[int] | None, list[int] | None]:
    """The running totals, the score changes (None when not every player has one) and the
    radelci after the round (count − used; None when not recorded) per seat."""
    key, results = _get(rnd, "results")
    field = f"{base}.{key or 'roundResults'}"
    if not isinstance(results, list):
        raise _Bad(field, "scoreboard.result", "no list of round results")
    n = len(ids)
    totals: list[int | None] = [None] * n
    changes: list[int | None] = [None] * n
    radelci: list[int | None] = [None] * n
    for i, r in enumerate(results):
        at = f"{field}[{i}]"
        if not isinstance(r, dict):
            raise _Bad(at, "scoreboard.result", "a result is not an object")
        pkey, pid = _get(r, "player")
        if not isinstance(pid, str) or pid not in ids:
            raise _Bad(f"{at}.{pkey or 'playerId'}", "scoreboard.player", f"{pid!r} is not a "
                       "player of the game")  # fmt: skip
        s = ids.index(pid)
        if totals[s] is not None:
            raise _Bad(at, "scoreboard.result", f"{pid} has two results")
        for fld, target, optional in (
            ("score", totals, False),
            ("change", changes, True),
        ):
            k2, v = _get(r, fld)
            try:
                target[s] = _int(v, f"{at}.{k2 or fld}", optional=optional)
            except _Bad as bad:
                raise _Bad(bad.field, "scoreboard.result", bad.message) from None
        _, cnt = _get(r, "radelc_count")
        _, used = _get(r, "radelc_used")
        if cnt is not None or used is not None:
            c = _int(cnt, f"{at}.player_radelc_count")
            u = _int(used, f"{at}.player_radelc_used")
            assert c is not None and u is not None
            if c < 0 or u < 0 or u > c:
                raise _Bad(at, "scoreboard.result", f"radelci: {u} used of {c}")
            radelci[s] = c - u
    missing = [ids[s] for s in range(n) if totals[s] is None]
    if missing:
        raise _Bad(field, "scoreboard.result", f"no result for {', '.join(missing)}")
    done = [t for t in totals if t is not None]
    ch = [c for c in changes if c is not None]
    rd = [x for x in radelci if x is not None]
    return done, (ch if len(ch) == n else None), (rd if len(rd) == n else None)


def _modifiers(
    rnd: Mapping[str, Any], base: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The modifiers → bonus facts and their kontras. The app records the side that scored
    each (``team`` 1: the playing side, −1: the other), not who announced it: a bonus the
    declarer announced and failed is the defenders' made one, which scores the same."""
    key, mods = _get(rnd, "modifiers")
    if mods is None:
        return [], []
    field = f"{base}.{key}"
    if not isinstance(mods, list):
        raise _Bad(field, "scoreboard.modifier", "the modifiers are not a list")
    bonuses: list[dict[str, Any]] = []
    kontras: list[dict[str, Any]] = []
    for i, mod in enumerate(mods):
        at = f"{field}[{i}]"
        if not isinstance(mod, dict):
            raise _Bad(at, "scoreboard.modifier", "a modifier is not an object")
        tk, mtype = _get(mod, "modifier_type")
        bonus = MODIFIERS.get(mtype) if isinstance(mtype, str) else None
        if bonus is None:
            raise _Bad(f"{at}.{tk or 'modifierType'}", "scoreboard.modifier",
                       f"{mtype!r} is none of the app's modifiers")  # fmt: skip
        teamk, team = _get(mod, "team")
        if team not in (1, -1) or isinstance(team, bool):
            raise _Bad(f"{at}.{teamk or 'team'}", "scoreboard.modifier",
                       f"team {team!r} is not 1 (playing) or -1 (not playing)")  # fmt: skip
        ak, ann = _get(mod, "announced")
        if ann is not None and not isinstance(ann, bool):
            raise _Bad(f"{at}.{ak}", "scoreboard.modifier", f"{ann!r} is not true or false")
        ck, contra = _get(mod, "mod_contra")
        if contra is not None and (isinstance(contra, bool) or contra not in CONTRA_LEVELS):
            raise _Bad(f"{at}.{ck}", "scoreboard.modifier",
                       f"contra {contra!r} is not 1, 2, 4, 8 or 16")  # fmt: skip
        fact: dict[str, Any] = {"bonus": bonus, "side": "declarer" if team == 1 else "defenders"}
        if ann:
            fact["announced"] = True
        bonuses.append(fact)
        if contra and CONTRA_LEVELS[contra]:
            kontras.append({"target": bonus, "level": CONTRA_LEVELS[contra]})
    return bonuses, kontras
