"""Per-card analysis on what the player knew (``tarock analyse --view player``).

For every legal card played in the analysed tricks of a hand, the hidden cards are sampled
among the layouts consistent with the player's view at that moment
(:mod:`tarock_logs.analysis.knowledge`), each sample is solved with all cards visible (the
native solver, or the pure-Python one without the extension), and every legal card gets its
**mean value** over the samples with its spread (standard deviation, minimum, maximum). The
card played is a **mistake** only when its mean is below the best mean by at least the
threshold: it lost on the player's information.

Values are for the declarer side (klop: for the player himself) in points of the score sheet,
as with all cards visible; the loss is oriented for the player (≥ 0). Every output carries the
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

from tarock_logs.analysis.cardset import CARD
from tarock_logs.analysis.knowledge import NoLayout, Sampler, apply_layout, view_of
from tarock_logs.analysis.native import Backend, NativeSolver, make_solver
from tarock_logs.analysis.outcome import plays_alone
from tarock_logs.analysis.position import Unsupported, read_position
from tarock_logs.log import models as m
from tarock_logs.rules import game_title
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.verdict.replay import HandReplay, replay_session

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_THRESHOLD",
    "LABEL_PLAYER",
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
            "skipped": self.skipped,
            "undecided": [{"action_index": i, "card": c} for i, c in self.undecided],
            "cards": [c.to_dict() for c in self.cards],
        }  # fmt: skip


def card_seed(seed: int, session: str, hand_number: int, action_index: int) -> str:
    """The seed of one card's samples (``random.Random`` takes it as it is)."""
    return f"{seed}:{session}:{hand_number}:{action_index}"


def _tt_bits(tricks: int) -> int:
    return 14 if tricks <= 4 else 16 if tricks <= 6 else 18 if tricks <= 8 else 20


def sample_values(
    h: SlovenianHand, layouts: Sequence[Sequence[Sequence[str]]], seat: int, *,
    illegal: Sequence[str] = (), backend: Backend = "auto", budget: int = 0,
) -> tuple[dict[str, list[int]], str]:  # fmt: skip
    """Every legal card of ``seat`` (to move in ``h``) valued with all cards visible in each
    of ``layouts`` (layouts of ``view_of(h, seat, illegal)``), and the solver used."""
    view = view_of(h, seat, illegal)
    hc = h.copy()
    klop = plays_alone(h)
    persp = h.active.index(seat) if klop else None
    left = h.tricks_total - len(h.tricks)
    out: dict[str, list[int]] = {}
    used = "none"
    for layout in layouts:
        apply_layout(hc, view, layout)
        pos, setting = read_position(hc, persp)
        solver = make_solver(setting, backend, _tt_bits(left), budget)
        used = "native" if isinstance(solver, NativeSolver) else "python"
        for c, v in solver.values(pos).items():
            out.setdefault(CARD[c], []).append(v)
    return out, used


def _player_view_only(game: str) -> str:
    """Why a game's hands are not valued on what the player knew."""
    return (f"what the player knew is analysed for Slovenian tarok only; {game_title(game)} "
            "is analysed with all cards visible (--view all; docs/analysis.md)")  # fmt: skip


def _role(h: SlovenianHand, seat: int) -> str:
    if plays_alone(h):
        return "klop"
    return "declarer side" if h.side(seat) == "M" else "defender"


def _analyse_card(
    h: SlovenianHand, index: int, card: str, illegal: list[str], out: PlayerHand,
    backend: Backend, budget: int,
) -> PlayerCard | None:  # fmt: skip
    seat = h.to_move()
    assert seat is not None
    view = view_of(h, seat, illegal)
    sampler = Sampler(view)
    seed = card_seed(out.seed, out.session, out.hand_number, index)
    layouts = sampler.samples(out.samples, seed)
    vals, used = sample_values(h, layouts, seat, illegal=illegal, backend=backend,
                               budget=budget)  # fmt: skip
    out.backend = used
    if not vals or card not in vals:
        return None
    stats = {c: CardStats.of(v) for c, v in vals.items()}
    pos, setting = read_position(h, h.active.index(seat) if plays_alone(h) else None)
    maximiser = setting.objective.maxside[pos.to_move]
    means = {c: s.mean for c, s in stats.items()}
    best = max(means.values()) if maximiser else min(means.values())
    best_cards = tuple(c for c in sorted(means, key=CARD.index) if abs(means[c] - best) < 1e-9)
    played = means[card]
    loss = (best - played) if maximiser else (played - best)
    return PlayerCard(
        action_index=index, trick=len(h.tricks) + 1, tricks_left=h.tricks_total - len(h.tricks),
        seat=seat, role=_role(h, seat), card=card,
        values=tuple((c, stats[c]) for c in sorted(stats, key=CARD.index)), value=played,
        best_value=best, best_cards=best_cards, loss=loss, mistake=loss >= out.threshold,
        samples=len(layouts), seed=seed, layouts=sampler.count(), notes=view.notes,
    )  # fmt: skip


def analyse_replay_player(
    replay: HandReplay, session_id: str, hand: m.Hand, *, last_tricks: int = 8,
    samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
    threshold: float = DEFAULT_THRESHOLD, backend: Backend = "auto", budget: int = 0,
) -> PlayerHand:  # fmt: skip
    """Analyse the legal cards of the last ``last_tricks`` tricks of a replayed hand on what
    each player knew (``samples`` layouts per card, drawn from ``seed``)."""
    out = PlayerHand(session_id, hand.number, hand.id, samples, seed, threshold,
                     last_tricks=last_tricks)  # fmt: skip
    state = replay.state
    if not isinstance(state, SlovenianHand):
        out.skipped = _player_view_only(replay.game)
        return out
    out.contract, out.declarer = state.contract, state.declarer
    started = time.perf_counter()
    h = state.copy()
    for _ in range(replay.actions_applied):
        h.pop()
    illegal: list[str] = []
    for i, step in enumerate(replay.steps[1:]):
        a = step.action
        if a is None:
            continue
        if (a.type == "play" and h.phase == "play" and a.seat == h.to_move()
                and a.card is not None and a.card in h.hands[a.seat]):  # fmt: skip
            legal = any(x.card == a.card for x in h.legal_actions())
            if (legal and out.skipped is None
                    and h.tricks_total - len(h.tricks) <= last_tricks):  # fmt: skip
                try:
                    pc = _analyse_card(h, i, a.card, illegal, out, backend, budget)
                except Unsupported as exc:
                    out.skipped = str(exc)
                    pc = None
                except (TimeoutError, NoLayout):
                    # a search past its budget, or no layout passed the play check in the
                    # draws allowed: the card is not valued
                    out.undecided.append((i, a.card))
                    pc = None
                if pc is not None:
                    out.cards.append(pc)
            if not legal:
                illegal.append(a.card)
        h.push(a)
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
    if session.game != "slovenian":
        why = _player_view_only(session.game)
        for hand in session.hands:
            if hands is None or hand.number in hands:
                yield PlayerHand(session.id, hand.number, hand.id, samples, seed, threshold,
                                 last_tricks=last_tricks, skipped=why)  # fmt: skip
        return
    for hand, replay in zip(session.hands, replay_session(session), strict=True):
        if hands is not None and hand.number not in hands:
            continue
        yield analyse_replay_player(replay, session.id, hand, last_tricks=last_tricks,
                                    samples=samples, seed=seed, threshold=threshold,
                                    backend=backend, budget=budget)  # fmt: skip
