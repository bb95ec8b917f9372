"""The native solver behind the interface of :class:`~tarock_logs.analysis.search.PySolver`.

:func:`make_solver` gives the native solver when the C extension is loaded (see
:mod:`tarock_logs._native`) and the pure-Python one otherwise, or as asked.
"""

from __future__ import annotations

from typing import Literal, Protocol

from tarock_logs import _native
from tarock_logs.analysis.position import Position, Setting
from tarock_logs.analysis.search import PySolver

__all__ = [
    "BUDGET_NATIVE",
    "BUDGET_PYTHON",
    "Backend",
    "NativeSolver",
    "Solver",
    "default_budget",
    "make_solver",
]

Backend = Literal["auto", "native", "python"]

#: the default budget of one search (cards it may play before its card is left undecided) of
#: the native solver: a few seconds of one core
BUDGET_NATIVE = 4_000_000
#: the same for the pure-Python solver (a package built without a C compiler): about as many
#: seconds
BUDGET_PYTHON = 100_000


def default_budget(backend: Backend = "auto", game: str | None = None) -> int:
    """The default search budget for ``backend`` (``auto``: the solver :func:`make_solver`
    picks) and ``game`` (one without a native solver runs on the pure-Python one):
    :data:`BUDGET_NATIVE` or :data:`BUDGET_PYTHON`."""
    from tarock_logs.analysis.games import has_native_solver

    if game is not None and not has_native_solver(game):
        return BUDGET_PYTHON
    native = backend == "native" or (backend == "auto" and _native.available())
    return BUDGET_NATIVE if native else BUDGET_PYTHON


class Solver(Protocol):
    """What both solvers offer (see :class:`~tarock_logs.analysis.search.PySolver`)."""

    setting: Setting
    #: cards one public call may play before it raises ``TimeoutError`` (0: no limit)
    budget: int

    @property
    def nodes(self) -> int: ...

    def values(self, pos: Position) -> dict[int, int]: ...

    def value(self, pos: Position, card: int | None = None) -> int: ...

    def search(self, pos: Position, alpha: int, beta: int) -> int: ...

    def line(self, pos: Position, card: int | None = None) -> list[int]: ...


def rules_tuple(setting: Setting) -> tuple[int, ...]:
    """The card rules as the native core reads them (``_native/module.c`` ``read_rules``):
    the six switches, the two protected card ids (or -1) and ``protect_either``."""
    r = setting.rules
    prot = (tuple(r.protected) + (-1, -1))[:2]
    return (int(r.negative), int(r.pagat_restricted), int(r.pagat_last_tarok), int(r.by_rank),
            int(r.emperor_always), int(r.colour_valat), *prot,
            int(r.protect_either))  # fmt: skip


class NativeSolver:
    """The C solver (``tarock_logs/_native/solver.c``) of one hand under ``setting``."""

    def __init__(self, setting: Setting, tt_bits: int = 20) -> None:
        core = _native.core
        if core is None:
            raise RuntimeError(f"the native core is not available: {_native.why_not}")
        self.setting = setting
        ob = setting.objective
        self._s = core.Solver([int(x) for x in ob.maxside], rules_tuple(setting),
                              ob.native_params(), tt_bits)  # fmt: skip

    @property
    def nodes(self) -> int:
        return int(self._s.nodes)

    @property
    def budget(self) -> int:
        return int(self._s.budget)

    @budget.setter
    def budget(self, value: int) -> None:
        self._s.budget = value

    @staticmethod
    def _args(pos: Position) -> tuple[object, ...]:
        return (pos.hands, pos.trick, pos.leader, pos.tricks_done, pos.acc)

    def values(self, pos: Position) -> dict[int, int]:
        return dict(self._s.values(*self._args(pos)))

    def value(self, pos: Position, card: int | None = None) -> int:
        return int(self._s.value(*self._args(pos), -1 if card is None else card))

    def search(self, pos: Position, alpha: int, beta: int) -> int:
        """Alpha-beta in the window (``alpha``, ``beta``), fail-soft: the exact value inside
        it, a bound outside (a null-window test with ``beta = alpha + 1``)."""
        return int(self._s.search(*self._args(pos), alpha, beta))

    def line(self, pos: Position, card: int | None = None) -> list[int]:
        return list(self._s.line(*self._args(pos), -1 if card is None else card))

    def minimax(self, pos: Position) -> int:
        """Exhaustive minimax without pruning or table (the tests' oracle)."""
        return int(self._s.minimax(*self._args(pos)))

    def leaf(self, acc: tuple[int, ...], last: tuple[int, int, int, int]) -> int:
        return int(self._s.leaf(acc, last))

    def bounds(self, acc: tuple[int, ...], remaining: int) -> tuple[int, int]:
        lo, hi = self._s.bounds(acc, remaining)
        return int(lo), int(hi)


def make_solver(setting: Setting, backend: Backend = "auto", tt_bits: int = 20,
                budget: int = 0) -> Solver:  # fmt: skip
    """The native solver if loaded (``auto``) or asked for, else the pure-Python one (always
    for a game plug-in's card play, ``setting.play``: the native solver is Slovenian).
    ``tt_bits``: the native transposition table takes 32 << tt_bits bytes (2^(tt_bits + 1)
    entries of 16 bytes);
    ``budget``: cards one call may play before it raises ``TimeoutError`` (0: no limit)."""
    s: Solver
    if setting.play is not None:  # another game's card play: the pure-Python solver only
        if backend == "native":
            raise ValueError(
                "the native solver plays Slovenian tarok only; this game's card "
                "play runs on the pure-Python solver (--backend python or auto)"
            )
        s = PySolver(setting)
    elif backend == "native" or (backend == "auto" and _native.available()):
        s = NativeSolver(setting, tt_bits)
    else:
        s = PySolver(setting)
    s.budget = budget
    return s
