"""Per-card analysis on what the player knew (``tarock analyse --view player``).

For every legal card played in the analysed tricks of a hand of a game with a view (its
analysis plug-in's :meth:`~tarock_logs.analysis.games.GameAnalysis.sight`: Slovenian tarok,
Zwanzigerrufen, Royal Tarock), the hidden cards are sampled among the layouts consistent with
the player's view at that moment (:mod:`tarock_logs.analysis.knowledge`), each sample is
solved with all cards visible (the game's solver: the native one where it plays the game,
else the pure-Python one), and every legal card gets its
**mean value** over the samples with its spread (standard deviation, minimum, maximum). The
card played is a **mistake** only when its mean is below the best mean by at least the
threshold: it lost on the player's information.

Values are the game's objective (the declarer side's; klop: the player's own; Royal Tarock:
the attackers' score less the defenders'), in points of the score sheet, as with all cards
visible; the loss is oriented for the player (≥ 0). Every output carries the
number of samples and the seed: the samples of a card are drawn with
``random.Random(f"{seed}:{session}:{hand}:{action index}")``, so a seed gives the same values
whichever cards are analysed. Illegal cards are left to the all-cards-visible analysis (the
referee's question there is what the card changed, not what the player knew).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.analysis.games import GameAnalysis, analysis_for, analysis_for_state
from tarock_logs.analysis.knowledge import NoLayout, Sampler, View, view_of
from tarock_logs.analysis.native import Backend, NativeSolver, make_solver
from tarock_logs.analysis.position import Unsupported
from tarock_logs.log import models as m
from tarock_logs.rules import game_title
from tarock_logs.rules.base import HandState
from tarock_logs.verdict.replay import HandReplay, replay_session

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_THRESHOLD",
    "LABEL_PLAYER",
    "SKIPS",
    "CardStats",
    "PlayerCard",
    "PlayerHand",
    "analyse_replay_player",
    "card_seed",
    "iter_player_analyses",
    "sample_values",
]

#: the words every output of this view carries
LABEL_PLAYER = "what the player knew"
DEFAULT_SAMPLES = 20
DEFAULT_SEED = 1
#: points a card's mean must fall below the best mean to be called a mistake
DEFAULT_THRESHOLD = 5.0
#: why a hand is not analysed (``PlayerHand.skip``), as the reports word it (English; the
#: report renderer translates them)
SKIPS = {
    "no_plugin": "{game} has no analysis of the card play",
    "no_view": "{game} has no player view",
    "not_replayed": "the hand was not replayed: there is no card play to analyse",
    "no_play": "the hand never reached the card play (no contract was played)",
    "no_native": "{game} has no native solver; --backend python or auto analyses it",
    "position": "the position cannot be read: {reason}",
}


@dataclass(frozen=True, slots=True)
class CardStats:
    """One legal card's values over the samples."""

    mean: float
    std: float
    lo: int
    hi: int

    @classmethod
    def of(cls, values: Sequence[int]) -> CardStats:
        return cls(statistics.fmean(values), statistics.pstdev(values), min(values), max(values))

    def to_dict(self) -> dict[str, float]:
        return {"mean": round(self.mean, 2), "std": round(self.std, 2), "min": self.lo,
                "max": self.hi}  # fmt: skip


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """One card played, valued on what the player knew (see the module docstring)."""

    action_index: int
    trick: int
    tricks_left: int
    seat: int
    role: str
    card: str
    values: tuple[tuple[str, CardStats], ...]
    #: the mean value of the card played, the best mean and the cards that have it
    value: float
    best_value: float
    best_cards: tuple[str, ...]
    #: the best mean less the played card's, for the player's side (≥ 0)
    loss: float
    mistake: bool
    samples: int
    seed: str
    #: layouts consistent with the view (before the play check)
    layouts: int
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "action_index": self.action_index, "trick": self.trick,
            "tricks_left": self.tricks_left, "seat": self.seat, "role": self.role,
            "card": self.card, "value": round(self.value, 2),
            "best_value": round(self.best_value, 2), "best_cards": list(self.best_cards),
            "loss": round(self.loss, 2), "mistake": self.mistake, "samples": self.samples,
            "seed": self.seed, "layouts": self.layouts, "notes": list(self.notes),
            "values": {c: s.to_dict() for c, s in self.values},
        }  # fmt: skip


@dataclass(slots=True)
class PlayerHand:
    """The player-view analysis of one hand."""

    session: str
    hand_number: int
    hand_id: str | None
    samples: int
    seed: int
    threshold: float
    last_tricks: int = 8
    contract: str | None = None
    declarer: int | None = None
    cards: list[PlayerCard] = field(default_factory=list)
    skipped: str | None = None
    #: why the hand (or the rest of it) is not analysed: a key of :data:`SKIPS` and its fields
    skip: tuple[str, tuple[tuple[str, str], ...]] | None = None
    game: str = ""
    backend: str = ""
    seconds: float = 0.0
    undecided: list[tuple[int, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": LABEL_PLAYER, "view": "player", "session": self.session,
            "hand": self.hand_number, "hand_id": self.hand_id, "contract": self.contract,
            "declarer": self.declarer, "last_tricks": self.last_tricks,
            "samples": self.samples, "seed": self.seed, "threshold": self.threshold,
            "backend": self.backend, "seconds": round(self.seconds, 3),
            "skipped": self.skipped, "skip": self.skip[0] if self.skip else None,
            "undecided": [{"action_index": i, "card": c} for i, c in self.undecided],
            "cards": [c.to_dict() for c in self.cards],
        }  # fmt: skip


def card_seed(seed: int, session: str, hand_number: int, action_index: int) -> str:
    """The seed of one card's samples (``random.Random`` takes it as it is)."""
    return f"{seed}:{session}:{hand_number}:{action_index}"


def _tt_bits(tricks: int) -> int:
    return 14 if tricks <= 4 else 16 if tricks <= 6 else 18 if tricks <= 8 else 20


def _active(h: HandState) -> list[int]:
    """The seats in playing order (Slovenian tarok's ``active``; every seat elsewhere)."""
    active: list[int] | None = getattr(h, "active", None)
    return list(active) if active is not None else list(range(h.table_size))


def _skip(out: PlayerHand, key: str, **fields: str) -> None:
    out.skip = (key, tuple(sorted(fields.items())))
    out.skipped = SKIPS[key].format(**fields)


def sample_values(
    h: HandState, layouts: Sequence[Sequence[Sequence[str]]], seat: int, *,
    illegal: Sequence[str] = (), backend: Backend = "auto", budget: int = 0,
    view: View | None = None,
) -> tuple[dict[str, list[int]], str]:  # fmt: skip
    """Every legal card of ``seat`` (to move in ``h``) valued with all cards visible in each
    of ``layouts`` (layouts of ``view``, by default ``view_of(h, seat, illegal)``), and the
    solver used."""
    g = analysis_for_state(h)
    if view is None:
        view = view_of(h, seat, illegal)
    persp = _active(h).index(seat) if g.alone(h) else None
    left = g.tricks_total(h) - g.tricks_done(h)
    out: dict[str, list[int]] = {}
    used = "none"
    for layout in layouts:
        hl = view.deal(layout)
        pos, setting = g.read_position(hl, persp)
        solver = make_solver(setting, backend, _tt_bits(left), budget)
        used = "native" if isinstance(solver, NativeSolver) else "python"
        ids = g.cards(hl)
        for c, v in solver.values(pos).items():
            out.setdefault(ids[c], []).append(v)
    return out, used


def _analyse_card(
    g: GameAnalysis, h: HandState, index: int, card: str, illegal: list[str],
    out: PlayerHand, backend: Backend, budget: int,
) -> PlayerCard | None:  # fmt: skip
    seat = h.to_move()
    assert seat is not None
    view = view_of(h, seat, illegal)
    sampler = Sampler(view)
    seed = card_seed(out.seed, out.session, out.hand_number, index)
    layouts = sampler.samples(out.samples, seed)
    vals, used = sample_values(h, layouts, seat, backend=backend, budget=budget, view=view)
    out.backend = used
    if not vals or card not in vals:
        return None
    order = {c: i for i, c in enumerate(g.cards(h))}
    stats = {c: CardStats.of(v) for c, v in vals.items()}
    persp = _active(h).index(seat) if g.alone(h) else None
    pos, setting = g.read_position(h, persp)
    maximiser = setting.objective.maxside[pos.to_move]
    means = {c: s.mean for c, s in stats.items()}
    best = max(means.values()) if maximiser else min(means.values())
    best_cards = tuple(c for c in sorted(means, key=order.__getitem__)
                       if abs(means[c] - best) < 1e-9)  # fmt: skip
    played = means[card]
    loss = (best - played) if maximiser else (played - best)
    return PlayerCard(
        action_index=index, trick=g.tricks_done(h) + 1,
        tricks_left=g.tricks_total(h) - g.tricks_done(h), seat=seat, role=g.role(h, seat),
        card=card, values=tuple((c, stats[c]) for c in sorted(stats, key=order.__getitem__)),
        value=played, best_value=best, best_cards=best_cards, loss=loss,
        mistake=loss >= out.threshold, samples=len(layouts), seed=seed,
        layouts=sampler.count(), notes=view.notes,
    )  # fmt: skip


def analyse_replay_player(
    replay: HandReplay, session_id: str, hand: m.Hand, *, last_tricks: int = 8,
    samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
    threshold: float = DEFAULT_THRESHOLD, backend: Backend = "auto", budget: int = 0,
) -> PlayerHand:  # fmt: skip
    """Analyse the legal cards of the last ``last_tricks`` tricks of a replayed hand on what
    each player knew (``samples`` layouts per card, drawn from ``seed``)."""
    out = PlayerHand(session_id, hand.number, hand.id, samples, seed, threshold,
                     last_tricks=last_tricks, game=replay.game)  # fmt: skip
    title = game_title(replay.game)
    g = analysis_for(replay.game)
    state = replay.state
    if g is None:
        _skip(out, "no_plugin", game=title)
        return out
    if state is None:
        _skip(out, "not_replayed")
        return out
    out.contract, out.declarer = g.contract(state), g.declarer(state)
    if backend == "native" and not g.native:
        _skip(out, "no_native", game=title)
        return out
    started = time.perf_counter()
    h = state.copy()
    for _ in range(replay.actions_applied):
        h.pop()
    illegal: list[str] = []
    played = False
    for i, step in enumerate(replay.steps[1:]):
        a = step.action
        if a is None:
            continue
        if (a.type == "play" and g.in_play(h) and a.seat == h.to_move()
                and a.card is not None and g.holds(h, a.seat, a.card)):  # fmt: skip
            played = True
            legal = any(x.card == a.card for x in h.legal_actions())
            left = g.tricks_total(h) - g.tricks_done(h)
            if legal and out.skip is None and left <= last_tricks:
                try:
                    pc = _analyse_card(g, h, i, a.card, illegal, out, backend, budget)
                except Unsupported as exc:
                    _skip(out, "position", reason=str(exc))
                    pc = None
                except (TimeoutError, NoLayout):
                    # a search past its budget, or no layout passed the check in the draws
                    # allowed: the card is not valued
                    out.undecided.append((i, a.card))
                    pc = None
                if pc is not None:
                    out.cards.append(pc)
            if not legal:
                illegal.append(a.card)
        h.push(a)
    if not played and out.skip is None:
        _skip(out, "no_play")
    out.seconds = time.perf_counter() - started
    if not out.backend:
        out.backend = "none"
    return out


def iter_player_analyses(
    session: m.Session, *, hands: set[int] | None = None, last_tricks: int = 8,
    samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
    threshold: float = DEFAULT_THRESHOLD, backend: Backend = "auto", budget: int = 0,
) -> Iterator[PlayerHand]:  # fmt: skip
    """The player-view analysis of the hands of ``session`` (those numbered in ``hands``, or
    all), in order; the session is replayed once."""
    if analysis_for(session.game) is None:
        for hand in session.hands:
            if hands is None or hand.number in hands:
                ph = PlayerHand(session.id, hand.number, hand.id, samples, seed, threshold,
                                last_tricks=last_tricks, game=session.game)  # fmt: skip
                _skip(ph, "no_plugin", game=game_title(session.game))
                yield ph
        return
    for hand, replay in zip(session.hands, replay_session(session), strict=True):
        if hands is not None and hand.number not in hands:
            continue
        yield analyse_replay_player(replay, session.id, hand, last_tricks=last_tricks,
                                    samples=samples, seed=seed, threshold=threshold,
                                    backend=backend, budget=budget)  # fmt: skip
