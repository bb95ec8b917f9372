"""Seeded, reproducible generation of sessions and tournaments, played through the engine.

Every hand is generated the way a table plays it: a shuffled pack is dealt (talon first, then
packets in playing order, see ``slovenian-tarok.md`` §3.4), and at every step one of the
engine's ``legal_actions()`` is chosen by a heuristic player (:mod:`tarock_logs.tools.sim_players`).
The recorded result of each hand is the engine's own itemised score; session totals and
placement points are recorded at the end of each sitting. Optionally the simulator *plants*
irregularities (an illegal card, a wrong score item, a king discarded, a kontra by the
declarer's partner, wrong placement points) for testing audits; each planted dispute is listed
in a manifest with the finding the audit must report.

A duplicate tournament (``TournamentSpec.duplicate``, ``tarock simulate --duplicate``) deals
the same cards to the k-th hand of every table of a round and moves the players as
:func:`duplicate_seating` says (docs/duplicate.md).

Reproducibility: all randomness comes from ``random.Random`` instances seeded from the command's
seed (per session, from a string key, so adding a table does not change the others); nothing
depends on time, hash randomisation or set iteration order. The same seed and options give
byte-identical files.

This module is game-agnostic: the game's rules come from its engine and its play from its
policy in :mod:`tarock_logs.tools.sim_players`.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

import orjson

from tarock_logs.cards import sort_cards
from tarock_logs.log import writer
from tarock_logs.log.models import FORMAT_NAME, FORMAT_VERSION, SessionAdapter
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import Action, DealShape, GameEngine, HandScore, HandState, Ruleset
from tarock_logs.tools.disputes import DISPUTE_KINDS as DISPUTE_KINDS
from tarock_logs.tools.sim_players import Policy, get_policy
from tarock_logs.verdict.convert import action_to_log, score_to_log

#: The kinds each game's simulation can plant (discards and the partner's kontra are
#: Slovenian situations).
PLANTABLE = {
    "slovenian": DISPUTE_KINDS,
    "zwanzigerrufen": ("illegal_card", "wrong_score_item", "wrong_placement_points"),
    "royal": ("illegal_card", "wrong_score_item"),
}

#: Realistic player names (Slovenian club players), drawn without replacement.
PLAYER_NAMES = (
    "Ana Kovač", "Bor Novak", "Cene Horvat", "Dani Krajnc", "Eva Zupan", "Filip Potočnik",
    "Gal Kos", "Hana Vidmar", "Ivo Golob", "Jana Turk", "Kaja Mlakar", "Luka Kralj",
    "Maja Božič", "Nejc Zupančič", "Oton Hribar", "Petra Kavčič", "Rok Jerman", "Sara Kolar",
    "Tine Vovk", "Urša Rozman", "Vid Petek", "Zala Kastelic", "Žiga Oblak", "Alja Žagar",
)  # fmt: skip
SITES = ("Ljubljana", "Maribor", "Celje", "Kranj", "Koper", "Novo mesto", "Ptuj", "Velenje")
TABLE_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_ACTIONS_PER_HAND = 400


class SimulationError(RuntimeError):
    """The simulation cannot go on (no engine, no policy, an engine that offers nothing...)."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class PlantedDispute:
    """One planted irregularity and the finding an audit must report for it."""

    kind: str  # one of DISPUTE_KINDS
    file: str
    session: str
    hand: int | None  # hand number (1-based); None for session-level disputes
    action_index: int | None  # 0-based index into the hand's actions
    seat: int | None
    expect: dict[str, Any]  # e.g. {"violations": ["discard.king"]} or {"item": ..., ...}
    description: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "file": self.file, "session": self.session, "hand": self.hand,
            "action_index": self.action_index, "seat": self.seat, "expect": self.expect,
            "description": self.description,
        }  # fmt: skip


@dataclass(slots=True)
class SimulationResult:
    """Sessions (as log-format dicts) grouped by output file, plus the planted disputes."""

    files: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    planted: list[PlantedDispute] = field(default_factory=list)
    command: str = ""  # the command line that regenerates this result

    @property
    def hands(self) -> int:
        return sum(len(s["hands"]) for ss in self.files.values() for s in ss)


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


# --------------------------------------------------------------------------- dealing


def _shape(engine: GameEngine, ruleset: Ruleset, dealer: int, table_size: int) -> DealShape:
    shape = engine.deal_shape(table_size, dealer, ruleset)
    if shape is None:
        raise SimulationError(f"{engine.game} is not dealt at a table of {table_size}")
    return shape


def deal_pack(
    engine: GameEngine, ruleset: Ruleset, rng: Random, dealer: int, table_size: int
) -> tuple[list[list[str]], list[str]]:
    """Shuffle the game's pack (the engine's ``pack``) and deal it as the engine's
    ``deal_shape`` says: the talon first, then two rounds of packets in playing order from the
    seat after the dealer, each packet half the seat's hand (Slovenian packets of 6 with 4
    active players, 8 with 3, ``slovenian-tarok.md`` §3.4; Zwanzigerrufen 2 × 5); a seat dealt
    nothing (the dealer at a table of 5) is passed over. Hands are returned in canonical card
    order, the talon in dealt order."""
    shape = _shape(engine, ruleset, dealer, table_size)
    deck = list(engine.pack(ruleset))
    rng.shuffle(deck)
    talon, rest = deck[: shape.talon], deck[shape.talon :]
    hands: list[list[str]] = [[] for _ in range(table_size)]
    pos = 0
    for _ in range(2):
        for i in range(1, table_size + 1):
            seat = (dealer + i) % table_size
            packet = shape.hands[seat] // 2
            hands[seat] += rest[pos : pos + packet]
            pos += packet
    return [sort_cards(h, engine.game) for h in hands], talon


def deal_royal(
    engine: GameEngine, ruleset: Ruleset, rng: Random, dealer: int, table_size: int = 4
) -> tuple[list[list[str]], list[str]]:
    """Royal Tarock's deal (royal-tarock.md §3.3): XIX to the attacking Abfänger (the seat
    after the dealer), XX to the attacking Eintreiber (the next), the other 38 cards shuffled
    and dealt so that everyone holds their share (the engine's ``deal_shape``: 10). A deal
    leaving anyone with fewer than 3 tarocks would be thrown in (§3.4); the simulator deals
    again instead of recording the annulled deal."""
    shape = _shape(engine, ruleset, dealer, table_size)
    while True:
        deck = [c for c in engine.pack(ruleset) if c not in ("T19", "T20")]
        rng.shuffle(deck)
        abf_att, ein_att = (dealer + 1) % table_size, (dealer + 2) % table_size
        hands: list[list[str]] = [[] for _ in range(table_size)]
        hands[abf_att].append("T19")
        hands[ein_att].append("T20")
        pos = 0
        for seat in range(table_size):
            need = shape.hands[seat] - len(hands[seat])
            hands[seat] += deck[pos : pos + need]
            pos += need
        if all(sum(1 for c in h if c[0] == "T") >= 3 for h in hands):
            return [sort_cards(h, engine.game) for h in hands], []


def deal_cards(
    engine: GameEngine, ruleset: Ruleset, rng: Random, dealer: int, table_size: int
) -> tuple[list[list[str]], list[str]]:
    """One deal as the game deals it: :func:`deal_royal` for Royal Tarock, else
    :func:`deal_pack`."""
    if engine.game == "royal":
        return deal_royal(engine, ruleset, rng, dealer, table_size)
    return deal_pack(engine, ruleset, rng, dealer, table_size)


#: Royal Tarock seats in playing order: pair A's Abfänger and Eintreiber, then pair B's.
ROYAL_ROLES = (("A", "abfaenger"), ("A", "eintreiber"), ("B", "abfaenger"), ("B", "eintreiber"))
#: Who deals a simulated Royal Tarock match's first game: pair A's Eintreiber (seat 1); the
#: engine's ``next_dealer`` passes the deal on from there (§3.2: seats 1, 3, 1, ...).
ROYAL_FIRST_DEALER = 1


def _seat_players(game: str, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if game != "royal":
        return players
    if len(players) != 4:
        raise SimulationError(
            f"royal: the engine cannot seat a table of {len(players)}: "
            "Royal Tarock is played by two pairs"
        )
    return [
        {**p, "pair": pair, "role": role}
        for p, (pair, role) in zip(players, ROYAL_ROLES, strict=True)
    ]


def _first_dealer(game: str, plan: SessionPlan) -> int:
    """Who deals the session's first hand: the plan's seat (Royal Tarock: pair A's
    Eintreiber, :data:`ROYAL_FIRST_DEALER`)."""
    return ROYAL_FIRST_DEALER if game == "royal" else plan.first_dealer


# --------------------------------------------------------------------------- one hand


@dataclass(slots=True)
class _Plant:
    """A dispute still to be planted in the current session."""

    kind: str
    from_hand: int
    done: PlantedDispute | None = None


def _try_plant_action(
    plant: _Plant, state: HandState, legal: Sequence[Action], rng: Random
) -> Action | None:
    """The deliberately irregular action to push now, if this is a place to plant it."""
    phase = state.phase
    if plant.kind == "illegal_card" and legal and legal[0].type == "play":
        view = state.view()
        seat = legal[0].seat
        if not view.get("trick"):
            return None
        allowed = {a.card for a in legal}
        illegal = [c for c in view["hands"][seat] if c not in allowed]
        if not illegal or len(view.get("tricks") or []) < 2:
            return None
        return Action("play", seat, card=illegal[rng.randrange(len(illegal))])
    if plant.kind == "bad_discard" and legal and legal[0].type == "discard":
        view = state.view()
        seat = legal[0].seat
        base = legal[0].cards
        kings = [c for c in view["hands"][seat] if c[1:] == "K" and c[0] != "T" and c not in base]
        if not kings or not base:
            return None
        king = kings[rng.randrange(len(kings))]
        cards = tuple(list(base[:-1]) + [king])
        shown = tuple(c for c in cards if c[0] == "T")
        return Action("discard", seat, cards=cards, shown=shown)
    if plant.kind == "bad_kontra" and phase in ("announcements", "announce", "kontra"):
        view = state.view()
        declarer, partner = view.get("declarer"), view.get("partner")
        if partner is None or declarer is None or partner == declarer:
            return None
        if not any(a.type in ("kontra", "pass", "lezim", "announce") for a in legal):
            return None
        return Action("kontra", partner, target="game", level=1)
    return None


def play_hand(
    engine_session: Any,
    policy: Policy,
    rng: Random,
    dealer: int,
    hands: list[list[str]],
    talon: list[str],
    plant: _Plant | None = None,
    hand_number: int = 0,
) -> tuple[list[Action], HandScore, tuple[int, Action, list[Any]] | None]:
    """Play one hand through the engine; returns the actions, the engine's score, and the
    (action index, action, violations) of a planted action if one was pushed."""
    state: HandState = engine_session.new_hand(dealer, hands, talon)
    memo: dict[str, Any] = {}
    actions: list[Action] = []
    planted: tuple[int, Action, list[Any]] | None = None
    want_plant = plant is not None and plant.done is None and hand_number >= plant.from_hand
    while not state.is_over():
        legal = state.legal_actions()
        if not legal:
            raise SimulationError(f"the engine offers no legal action (phase {state.phase})")
        action = None
        if want_plant and planted is None and plant is not None:
            action = _try_plant_action(plant, state, legal, rng)
        if action is None:
            action = policy.choose(state, legal, rng, memo)
            state.push(action)
        else:
            violations = list(state.push(action))
            if not any(v.severity == "error" for v in violations):
                state.pop()  # the engine accepts it: not a dispute, keep looking
                action = policy.choose(state, legal, rng, memo)
                state.push(action)
            else:
                planted = (len(actions), action, violations)
        actions.append(action)
        if len(actions) > MAX_ACTIONS_PER_HAND:
            raise SimulationError(f"hand did not end after {MAX_ACTIONS_PER_HAND} actions")
    score = state.score()
    engine_session.end_hand(state, score)
    return actions, score, planted


# --------------------------------------------------------------------------- one session


@dataclass(frozen=True, slots=True)
class SessionPlan:
    """What to simulate for one sitting."""

    session_id: str
    players: list[dict[str, Any]]
    n_hands: int
    event: dict[str, Any] | None = None
    first_dealer: int = 0
    rotate_dealer: bool = True
    source_seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)


Dealer = Callable[[Random, int, int], tuple[list[list[str]], list[str], int | None]]


def simulate_session(
    engine: GameEngine,
    ruleset: Ruleset,
    policy: Policy,
    plan: SessionPlan,
    rng: Random,
    *,
    file: str = "",
    plant_kind: str | None = None,
    all_tables_of_five: bool = False,
    dealer_fn: Dealer | None = None,
) -> tuple[dict[str, Any], PlantedDispute | None]:
    """Simulate one session; returns the log-format session dict and the planted dispute."""
    game = engine.game
    n = len(plan.players)
    try:
        session_state = engine.new_session(ruleset, n)
    except Exception as exc:
        raise SimulationError(f"{game}: the engine cannot seat a table of {n}: {exc}") from exc
    plant: _Plant | None = None
    if plant_kind and plant_kind != "wrong_placement_points":
        plant = _Plant(plant_kind, from_hand=rng.randint(2, max(2, plan.n_hands // 2)))
    hands_out: list[dict[str, Any]] = []
    totals = [0] * n
    first_dealer = dealer = _first_dealer(game, plan)
    thrown = False  # (a thrown-in deal is dealt again by the same dealer)
    for number in range(1, plan.n_hands + 1):
        if number > 1 and plan.rotate_dealer:
            dealer = engine.next_dealer(dealer, n, thrown_in=thrown)
        if dealer_fn is not None:
            dealt, talon, deal_seed = dealer_fn(rng, dealer, n)
        else:
            dealt, talon = deal_cards(engine, ruleset, rng, dealer, n)
            deal_seed = None
        actions, score, planted = play_hand(
            session_state, policy, rng, dealer, dealt, talon, plant, number
        )
        thrown = any(a.type == "throw_in" for a in actions)
        result = score_to_log(score)
        hand: dict[str, Any] = {
            "number": number,
            "id": f"{plan.session_id}-h{number:02d}",
            "dealer": dealer,
            "deal": {"hands": dealt, "talon": list(talon)},
            "actions": [action_to_log(a) for a in actions],
        }
        if deal_seed is not None:
            hand["deal"]["seed"] = deal_seed
        if plant is not None and plant.done is None:
            plant.done = _planted_record(
                plant, planted, score, result, rng, file, plan.session_id, number
            )
        hand["result"] = result
        for s in range(n):
            totals[s] += result["scores"][s]
        hands_out.append(hand)
    if plant is not None and plant.done is None:
        raise SimulationError(
            f"could not plant a {plant.kind} dispute in session {plan.session_id}; "
            "use more games per round"
        )
    # the session result (Royal Tarock: the match result, not the plain sum)
    rows = [h["result"]["scores"] for h in hands_out]
    totals = [int(x) for x in engine.session_totals(ruleset, rows)] if rows else totals
    placement = [_num(p) for p in engine.placement_points(ruleset, totals, all_tables_of_five)]
    done = plant.done if plant is not None else None
    if done is not None and done.kind == "wrong_score_item":
        # the scorer ranks the table by his (wrong) totals: say so if that moved a placement
        true_totals = list(totals)
        for s in done.expect["seats"]:
            true_totals[s] -= done.expect["recorded"] - done.expect["recomputed"]
        true_pp = [
            _num(p) for p in engine.placement_points(ruleset, true_totals, all_tables_of_five)
        ]
        done.expect["session_total"] = {
            str(s): {"recorded": totals[s], "recomputed": true_totals[s]}
            for s in done.expect["seats"]
        }
        if true_pp != placement:
            done.expect["placement_points"] = {
                "recorded": placement,
                "recomputed": true_pp,
                "seats": [s for s in range(n) if placement[s] != true_pp[s]],
            }
    if plant_kind == "wrong_placement_points":
        done, placement = _plant_placement(placement, rng, file, plan.session_id)
    session: dict[str, Any] = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "id": plan.session_id,
        "game": game,
        "ruleset": ruleset.id,
        "players": _seat_players(game, plan.players),
        "first_dealer": first_dealer,
        "hands": hands_out,
        "recorded": {"totals": totals, "placement_points": placement},
        "source": {"software": "tarock-logs simulate", "seed": plan.source_seed},
    }
    if plan.options:
        session["options"] = plan.options
    if plan.event:
        session["event"] = plan.event
    return session, done


def _planted_record(
    plant: _Plant,
    planted: tuple[int, Action, list[Any]] | None,
    score: HandScore,
    result: dict[str, Any],
    rng: Random,
    file: str,
    session_id: str,
    number: int,
) -> PlantedDispute | None:
    """Turn what happened in this hand into a planted-dispute record (or None: not yet)."""
    if plant.kind == "wrong_score_item":
        if number < plant.from_hand:
            return None
        items = result["items"]
        candidates = [i for i, it in enumerate(items) if it["item"] in ("difference", "contract")]
        candidates = candidates or [i for i, it in enumerate(items) if it["value"] != 0]
        if not candidates or score.declarer is None:
            return None
        idx = candidates[rng.randrange(len(candidates))]
        item = items[idx]
        delta = 10 if rng.random() < 0.5 else -10
        recomputed = item["value"]
        item["value"] = recomputed + delta
        seats = (
            [item["seat"]]
            if "seat" in item
            else [s for s in (score.declarer, score.partner) if s is not None]
        )
        for s in seats:
            result["scores"][s] += delta
        return PlantedDispute(
            kind=plant.kind, file=file, session=session_id, hand=number, action_index=None,
            seat=seats[0],
            expect={
                "item": item["item"], "seats": seats, "recorded": item["value"],
                "recomputed": recomputed,
                "totals": {str(s): {"recorded": result["scores"][s],
                                    "recomputed": result["scores"][s] - delta} for s in seats},
            },
            description=(
                f"the '{item['item']}' line was written as {item['value']} instead of "
                f"{recomputed} (and the hand total of seat(s) {seats} moved by {delta:+d})"
            ),
        )  # fmt: skip
    if planted is None:
        return None
    index, action, violations = planted
    errors = [v for v in violations if v.severity == "error"]
    codes = sorted({v.code for v in errors})
    what = {
        "illegal_card": f"{errors[0].message} (the engine's words)",
        "bad_discard": f"the declarer (seat {action.seat}) discarded {' '.join(action.cards)}, "
        "including a king",
        "bad_kontra": f"the declarer's partner (seat {action.seat}) gave kontra on the game",
    }[plant.kind]
    return PlantedDispute(
        kind=plant.kind,
        file=file,
        session=session_id,
        hand=number,
        action_index=index,
        seat=action.seat,
        expect={"violations": codes},
        description=what,
    )


def _plant_placement(
    placement: list[int | float], rng: Random, file: str, session_id: str
) -> tuple[PlantedDispute, list[int | float]]:
    pairs = [
        (i, j)
        for i in range(len(placement))
        for j in range(i + 1, len(placement))
        if placement[i] != placement[j]
    ]
    i, j = pairs[rng.randrange(len(pairs))]
    wrong = list(placement)
    wrong[i], wrong[j] = wrong[j], wrong[i]
    return PlantedDispute(
        kind="wrong_placement_points", file=file, session=session_id, hand=None,
        action_index=None, seat=None,
        expect={"placement_points": {"recorded": wrong, "recomputed": placement,
                                     "seats": [i, j]}},
        description=f"the placement points of seats {i} and {j} were swapped",
    ), wrong  # fmt: skip


# --------------------------------------------------------------------------- tournaments


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """Options of ``tarock simulate`` (a tournament: rounds × tables)."""

    seed: int
    game: str = "slovenian"
    tables: tuple[int, ...] = (4, 4, 5)
    rounds: int = 3
    games_per_round: int = 16  # tables of 3 and 4; a table of 5 plays games_per_round * 5 // 4
    plant_disputes: int = 0
    ruleset: str | None = None
    #: the same deals at every table of a round, players moved as :func:`duplicate_seating`
    duplicate: bool = False

    def command(self, out: str = "<this folder>") -> str:
        """The ``tarock simulate`` command line that regenerates this tournament."""
        cmd = (
            f"tarock simulate --game {self.game} --seed {self.seed} "
            f"--tables {','.join(str(t) for t in self.tables)} --rounds {self.rounds} "
            f"--games-per-round {self.games_per_round}"
        )
        if self.plant_disputes:
            cmd += f" --plant-disputes {self.plant_disputes}"
        if self.ruleset:
            cmd += f" --ruleset {self.ruleset}"
        if self.duplicate:
            cmd += " --duplicate"
        return f"{cmd} -o {out}"


def resolve(game: str, ruleset_id: str | None) -> tuple[GameEngine, Ruleset, Policy]:
    """The engine, ruleset and policy for a game, or a :class:`SimulationError` saying why not."""
    engine = get_engine(game)
    if engine is None:
        raise SimulationError(f"no rules engine for {game!r} yet: cannot simulate it")
    policy = get_policy(game)
    if policy is None:
        raise SimulationError(f"no simulated players for {game!r} yet: cannot simulate it")
    rid = ruleset_id or engine.default_ruleset
    try:
        ruleset = engine.ruleset(rid)
    except KeyError as exc:
        raise SimulationError(f"unknown ruleset {rid!r} for {game}") from exc
    return engine, ruleset, policy


def simulate_tournament(spec: TournamentSpec) -> SimulationResult:
    """A whole tournament: players drawn to tables each round, every table a session."""
    if any(t not in (3, 4, 5) for t in spec.tables) or not spec.tables:
        raise SimulationError("tables must be sizes 3, 4 or 5, e.g. --tables 4,4,5")
    if spec.rounds < 1 or spec.games_per_round < 1:
        raise SimulationError("--rounds and --games-per-round must be at least 1")
    n_sessions = spec.rounds * len(spec.tables)
    if spec.plant_disputes > n_sessions:
        raise SimulationError(
            f"--plant-disputes {spec.plant_disputes}: only {n_sessions} sessions to plant in "
            "(one dispute per session)"
        )
    if spec.duplicate and (len(spec.tables) < 2 or len(set(spec.tables)) != 1):
        raise SimulationError(
            "--duplicate: at least two tables, all of one size (the same deals go to every "
            "table), e.g. --tables 4,4,4"
        )
    engine, ruleset, policy = resolve(spec.game, spec.ruleset)
    master = Random(f"tarock-simulate:{spec.seed}")
    n_players = sum(spec.tables)
    if n_players > len(PLAYER_NAMES):
        raise SimulationError(f"at most {len(PLAYER_NAMES)} players")
    names = master.sample(PLAYER_NAMES, n_players)
    # a player id belongs to the person (the name), so ids join across simulated events
    players = [{"id": f"p{PLAYER_NAMES.index(name) + 1:02d}", "name": name} for name in names]
    date0 = _dt.date(2025, 1, 4) + _dt.timedelta(days=7 * master.randrange(52))
    site = master.choice(SITES)
    tournament_id = f"sim-{spec.game}-{spec.seed}" + ("-duplicate" if spec.duplicate else "")
    kind = "duplicate " if spec.duplicate else ""
    all_five = all(t == 5 for t in spec.tables)
    result = SimulationResult(command=spec.command())
    plantable = PLANTABLE.get(spec.game, ("wrong_score_item", "wrong_placement_points"))
    kinds = [plantable[i % len(plantable)] for i in range(spec.plant_disputes)]
    planted_sessions = sorted(master.sample(range(n_sessions), spec.plant_disputes))
    plant_of = _assign_plants(planted_sessions, kinds, spec.tables)
    session_no = 0
    for rnd in range(1, spec.rounds + 1):
        file = f"round-{rnd}.jsonl"
        if not spec.duplicate:
            seating = master.sample(players, n_players)
        elif rnd == 1:
            start = master.sample(players, n_players)
            seating = start
        else:
            seating = duplicate_seating(start, spec.tables[0], rnd)
        pos = 0
        sessions: list[dict[str, Any]] = []
        for t_index, size in enumerate(spec.tables):
            table = TABLE_NAMES[t_index]
            seated = seating[pos : pos + size]
            pos += size
            n_hands = spec.games_per_round * 5 // 4 if size == 5 else spec.games_per_round
            plan = SessionPlan(
                session_id=f"{tournament_id}-r{rnd}-{table}",
                players=seated,
                n_hands=n_hands,
                event={
                    "tournament": tournament_id,
                    "name": f"Simulated {kind}{spec.game} tournament (seed {spec.seed})",
                    "date": date0.isoformat(),
                    "site": site,
                    "round": rnd,
                    "table": table,
                },
                source_seed=spec.seed,
            )
            rng = Random(f"tarock-simulate:{spec.seed}:{rnd}:{table}")
            deals = _board_dealer(engine, ruleset, spec.seed, rnd) if spec.duplicate else None
            session, planted = simulate_session(
                engine, ruleset, policy, plan, rng, file=file,
                plant_kind=plant_of.get(session_no), all_tables_of_five=all_five,
                dealer_fn=deals,
            )  # fmt: skip
            session_no += 1
            sessions.append(session)
            if planted is not None:
                result.planted.append(planted)
        result.files[file] = sessions
    return result


def duplicate_seating(start: list[Any], table_size: int, rnd: int) -> list[Any]:
    """The seating of round ``rnd`` (1-based) of a duplicate tournament, table after table
    (``table_size`` seats each), from the seating ``start`` of round 1.

    The movement generalises bridge's Mitchell movement (the North-South pairs stay, the
    East-West pairs move one table up): the player who sat at table ``t``, seat ``s`` in
    round 1 sits at table ``(t + s·(rnd − 1)) mod T``, seat ``s`` (``T`` tables). Seat 0
    stays, seat 1 moves one table up each round, seat 2 two tables, and so on; everyone keeps
    their seat, so each hand of a deal is always compared among the same players (those of
    that seat), who meet different opponents: with ``T`` prime and larger than the seats
    minus one, no two players meet twice in ``T`` rounds."""
    n_tables = len(start) // table_size
    out: list[Any] = [None] * len(start)
    for t in range(n_tables):
        for seat in range(table_size):
            to = (t + seat * (rnd - 1)) % n_tables
            out[to * table_size + seat] = start[t * table_size + seat]
    return out


def _board_dealer(engine: GameEngine, ruleset: Ruleset, seed: int, rnd: int) -> Dealer:
    """The deals of round ``rnd`` of a duplicate tournament, as ``simulate_session``'s
    ``dealer_fn``: the k-th hand of every table of the round gets the same cards (drawn from a
    generator seeded by the seed, the round and k), dealt by the game's own deal
    (:func:`deal_cards`) from that hand's dealer, which every table has in the same seat (the
    same first dealer and rotation)."""
    played = 0

    def deal(_rng: Random, dealer: int, table_size: int) -> tuple[list[list[str]], list[str], None]:
        nonlocal played
        played += 1
        board = Random(f"tarock-simulate:{seed}:{rnd}:board:{played}")
        hands, talon = deal_cards(engine, ruleset, board, dealer, table_size)
        return hands, talon, None

    return deal


def _assign_plants(
    sessions: list[int], kinds: list[str], tables: tuple[int, ...]
) -> dict[int, str]:
    """Session index → dispute kind. A kontra by the declarer's partner needs a partner, so
    never a table of 3 (3 active players: no king call): swap it onto a bigger table, or
    plant an illegal card instead when every table has 3 seats."""
    size = {i: tables[i % len(tables)] for i in sessions}
    out = dict(zip(sessions, kinds, strict=True))
    for i in sessions:
        if out[i] != "bad_kontra" or size[i] > 3:
            continue
        swap = next((j for j in sessions if size[j] > 3 and out[j] != "bad_kontra"), None)
        if swap is None:
            out[i] = "illegal_card"
        else:
            out[i], out[swap] = out[swap], out[i]
    return out


def simulate_hands(
    n_hands: int,
    seed: int,
    *,
    game: str = "slovenian",
    ruleset: str | None = None,
    table_size: int = 4,
    hands_per_session: int = 16,
    dealer_fn: Dealer | None = None,
    rotate_dealer: bool = True,
    first_dealer: int = 0,
) -> list[dict[str, Any]]:
    """``n_hands`` hands in sessions of ``hands_per_session`` at one table size (benchmarks)."""
    engine, rs, policy = resolve(game, ruleset)
    sessions: list[dict[str, Any]] = []
    names = list(PLAYER_NAMES)
    k = 0
    while n_hands > 0:
        rng = Random(f"tarock-simulate-hands:{seed}:{k}")
        seated = [
            {"id": f"p{i + 1:02d}", "name": names[i]}
            for i in rng.sample(range(len(names)), table_size)
        ]
        plan = SessionPlan(
            session_id=f"sim-{game}-{seed}-s{k + 1:05d}", players=seated,
            n_hands=min(n_hands, hands_per_session), rotate_dealer=rotate_dealer,
            first_dealer=first_dealer, source_seed=seed,
        )  # fmt: skip
        session, _ = simulate_session(engine, rs, policy, plan, rng, dealer_fn=dealer_fn)
        sessions.append(session)
        n_hands -= plan.n_hands
        k += 1
    return sessions


# --------------------------------------------------------------------------- writing


def dumps_session(session: dict[str, Any]) -> bytes:
    """One session as one canonical JSON line (validated against the log-format models and
    written by the log format's canonical writer)."""
    data = writer.dumps_session(SessionAdapter.validate_python(session)).encode()
    return data if data.endswith(b"\n") else data + b"\n"


def write_result(result: SimulationResult, out_dir: Path) -> list[Path]:
    """Write one ``.jsonl`` per file (one session per line) and, when disputes were planted,
    ``disputes.manifest`` (the manifest of planted disputes). Returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for name, sessions in result.files.items():
        path = out_dir / name
        path.write_bytes(b"".join(dumps_session(s) for s in sessions))
        paths.append(path)
    if result.planted:
        path = out_dir / "disputes.manifest"
        manifest = [p.to_json() for p in result.planted]
        path.write_bytes(
            orjson.dumps(manifest, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
        )
        paths.append(path)
        path = out_dir / "README.md"
        path.write_text(render_disputes_readme(result.planted, result.command), encoding="utf-8")
        paths.append(path)
    return paths


_KIND_TITLES = {
    "illegal_card": "Illegal card (a held card that may not be played)",
    "wrong_score_item": "Wrong recorded score item",
    "bad_discard": "Illegal discard (a king laid away)",
    "bad_kontra": "Kontra by the declarer's partner",
    "wrong_placement_points": "Wrong placement points",
}


def _expect_text(p: PlantedDispute) -> str:
    e = p.expect
    if "violations" in e:
        codes = ", ".join(f"`{c}`" for c in e["violations"])
        return (
            f"hand {p.hand} not legal: violation {codes} at action_index {p.action_index} "
            f"(seat {p.seat})"
        )
    if "item" in e:
        lines = [
            f"discrepancy item `{e['item']}` seat {s}: recorded {e['recorded']}, "
            f"recomputed {e['recomputed']}"
            for s in e["seats"]
        ]
        for s, t in e.get("totals", {}).items():
            lines.append(
                f"discrepancy `total` seat {s}: recorded {t['recorded']}, "
                f"recomputed {t['recomputed']}"
            )
        for s, t in e.get("session_total", {}).items():
            lines.append(
                f"session discrepancy `session_total` seat {s}: recorded {t['recorded']}, "
                f"recomputed {t['recomputed']}"
            )
        if "placement_points" in e:
            pp = e["placement_points"]
            lines.append(
                f"and, ranked by the wrong totals, session discrepancy `placement_points` "
                f"for seats {pp['seats']}: recorded {pp['recorded']}, recomputed "
                f"{pp['recomputed']}"
            )
        return "; ".join(lines)
    if "placement_points" in e:
        pp = e["placement_points"]
        return (
            f"session discrepancy `placement_points` for seats {pp['seats'][0]} and "
            f"{pp['seats'][1]}: recorded {pp['recorded']}, recomputed {pp['recomputed']}"
        )
    return ""


def render_disputes_readme(planted: Sequence[PlantedDispute], command: str = "") -> str:
    """The README of a folder of sessions with planted disputes (one row per dispute)."""
    out = [
        "# Sessions with planted disputes",
        "",
        "Generated by `tarock simulate` (do not edit by hand: the test suite regenerates these",
        "files and compares them byte for byte). Every session carries exactly one planted",
        "irregularity; every other hand is legal and its recorded score equals the engine's.",
        "`disputes.manifest` is the same list, machine-readable (JSON; named so that the tools",
        "that walk this folder for `.json`/`.jsonl` logs do not take it for one).",
        "",
    ]
    if command:
        out += ["Regenerate with:", "", "```sh", command, "```", ""]
    out += ["Check with `tarock audit sample_logs/disputed --format jsonl`.", ""]
    out += [
        "| # | kind | file | session | hand | action index | what was planted |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, p in enumerate(planted, 1):
        out.append(
            f"| {i} | {_KIND_TITLES.get(p.kind, p.kind)} | `{p.file}` | `{p.session}` | "
            f"{p.hand if p.hand is not None else '—'} | "
            f"{p.action_index if p.action_index is not None else '—'} | {p.description} |"
        )
    out += ["", "## What `tarock audit` must report", ""]
    for i, p in enumerate(planted, 1):
        out.append(f"{i}. `{p.session}`: {_expect_text(p)}.")
    out += [
        "",
        "Nothing else is an error. The engine adds a hand-level *warning* `renons.unclaimed` to",
        "a hand with an illegal card or discard that nobody called at the table (the hand is",
        "scored as played, so the recorded score still agrees).",
    ]
    return "\n".join(out) + "\n"
