"""``tarock analyse``: where were the points lost, with all cards visible.

For every card played in the last ``--last-tricks`` tricks of each hand of a game with an
analysis plug-in (``tarock_logs.analysis.games``: Slovenian tarok, Zwanzigerrufen, Royal
Tarock; and for every illegal card wherever it fell) the perfect-information solver values
every legal card;
the output gives the value of the card played, of the best card(s), the points lost and what
the card changed (contract made or lost, a bonus won or lost). Values are for the declarer
side (klop: for the player himself), in points of the score sheet. Everything is labelled
"all cards visible": a card that loses with every hand visible may have been the right card
on what the player knew.

``--par`` adds, before the first trick, the value of each talon group the declarer could have
taken and of each discard after his group (all cards visible; each a whole-hand search under a
budget, a value it stops is undecided or a bound), under the hand's ``par`` key in JSON.

``--view player`` values each card on **what the player knew** instead: the hidden cards are
sampled among the layouts consistent with the player's view at that card (``--samples``,
``--seed``), each sample solved with all cards visible, each legal card given its mean and
spread; a card is a mistake when its mean is at least ``--threshold`` points below the best
mean. The number of samples and the seed are in every output.

Data goes to stdout (``--format table|json|jsonl``), reader errors to stderr. Exit 0, 1 when
the input had errors, 2 on usage errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import typer
from rich.console import Console
from rich.table import Table

from tarock_logs.cli.common import ExitCode, app, err_console, fail

if TYPE_CHECKING:
    from tarock_logs.analysis.hand import HandAnalysis
    from tarock_logs.analysis.par import HandPar
    from tarock_logs.analysis.player import PlayerHand

FORMATS = ("table", "json", "jsonl")
BACKENDS = ("auto", "native", "python")
VIEWS = ("all", "player")
NOTE = ("all cards visible: the solver sees every hand; a card that loses with all cards "
        "visible may have been the right card on what the player knew")  # fmt: skip


NOTE_PLAYER = ("what the player knew: the hidden cards sampled among the layouts consistent "
               "with the player's view at each card, each sample solved with all cards "
               "visible; values are means over the samples")  # fmt: skip


def _budget(budget: int | None, game: str) -> int:
    """The search budget for a session of ``game``: as given, else none where the native
    solver plays the game and the pure-Python solver's default elsewhere (minutes per hand
    otherwise at the default 8 tricks)."""
    from tarock_logs.analysis.games import has_native_solver
    from tarock_logs.analysis.native import default_budget

    if budget is not None:
        return budget
    return 0 if has_native_solver(game) else default_budget(game=game)


def _hand_dict(ha: HandAnalysis, file: str, hp: HandPar | None = None) -> dict[str, Any]:
    d = ha.to_dict()
    d["view"] = "all"
    d["file"] = file
    d["illegal_cards"] = ha.illegal_verdicts()
    if hp is not None:
        d["par"] = hp.to_dict()
    return d


def _summary(hands: list[HandAnalysis], errors: int) -> dict[str, Any]:
    from tarock_logs.analysis.hand import LABEL

    cards = [c for h in hands for c in h.cards]
    return {
        "label": LABEL,
        "hands": len(hands),
        "hands_analysed": sum(1 for h in hands if h.cards),
        "hands_skipped": sum(1 for h in hands if h.skipped and not h.cards),
        "cards": len(cards),
        "mistakes": sum(1 for c in cards if c.legal and c.loss > 0),
        "outcome_changes": sum(1 for c in cards if c.legal and c.changed),
        "points_lost": sum(c.loss for c in cards if c.legal),
        "illegal_cards": sum(1 for c in cards if not c.legal),
        "undecided_cards": sum(len(h.undecided) for h in hands),
        "illegal_cards_changing_result": sum(
            1 for h in hands for v in h.illegal_verdicts() if v["changed_result"]
        ),
        "seconds": round(sum(h.seconds for h in hands), 3),
        "input_errors": errors,
    }


def _print_hand(out: Console, ha: HandAnalysis, file: str, game: str, lang: str) -> None:
    from tarock_logs.analysis.hand import LABEL
    from tarock_logs.report.text import analysis_not_analysed, analysis_title, analysis_view_label

    title = (analysis_title(ha.session, ha.hand_number, ha.contract, ha.declarer, game, lang)
             + " — " + analysis_view_label(lang=lang))  # fmt: skip
    if ha.skipped and not ha.cards:
        out.print(f"{title}: " + analysis_not_analysed(ha.skipped, lang), markup=False,
                  highlight=False)  # fmt: skip
        return
    t = Table(title=title, title_justify="left", expand=False)
    for col in ("trick", "seat", "role", "card", "value", "best", "best card(s)", "loss",
                "changed"):  # fmt: skip
        t.add_column(col, overflow="fold")
    for c in ha.cards:
        card = c.card if c.legal else f"{c.card} (illegal)"
        t.add_row(
            str(c.trick), str(c.seat), c.role.replace(" side", ""), card, str(c.value),
            str(c.best_value), " ".join(c.best_cards), str(c.loss) if c.loss else "",
            "; ".join(c.changed),
        )  # fmt: skip
    out.print(t)
    for v in ha.illegal_verdicts():
        out.print(f"illegal card {v['card']} by seat {v['seat']} in trick {v['trick']}: did it "
                  f"change the result ({LABEL})? {v['verdict']}", markup=False,
                  highlight=False)  # fmt: skip
    if ha.skipped:
        out.print(f"stopped: {ha.skipped}", markup=False, highlight=False)
    for i, card in ha.undecided:
        out.print(f"not decided within the search budget: {card} (action {i})", markup=False,
                  highlight=False)  # fmt: skip
    if ha.hand_budget_hit:
        out.print(f"the hand budget ({ha.hand_budget:,} cards played) left the earlier cards "
                  "above undecided", markup=False, highlight=False)  # fmt: skip
    for note in ha.unknown:
        out.print(f"unknown to the rules, left out of every value: {note}", markup=False,
                  highlight=False)  # fmt: skip


def _print_par(out: Console, hp: HandPar, game: str, lang: str) -> None:
    """A hand's par: its talon groups and the discards after the recorded group."""
    from tarock_logs.report.text import (
        analysis_not_analysed,
        contract_name,
        par_columns,
        par_contracts_title,
        par_footer,
        par_option_name,
        par_title,
        par_value_text,
    )

    title = par_title(hp.session, hp.hand_number, hp.contract, hp.declarer, game, lang)
    cols = par_columns(lang)
    if hp.skipped:
        out.print(f"{title}: " + analysis_not_analysed(hp.skipped, lang), markup=False,
                  highlight=False)  # fmt: skip
        if not hp.contracts:
            return
    t = Table(title=title, title_justify="left", expand=False)
    for col in ("option", "cards", "value", "recorded", "equivalent"):
        t.add_column(cols[col], overflow="fold")
    for o in [*hp.groups, *hp.discards]:
        v = o.value
        if o.kind == "group":
            extra = f"{cols['decided']}: {o.decided}/{o.discards}"
        else:
            extra = "; ".join(" ".join(e) for e in o.equivalent[1:])
        t.add_row(par_option_name(o.kind, o.group, lang), " ".join(o.cards),
                  par_value_text(v.value, v.low, v.high, lang), "*" if o.recorded else "",
                  extra)  # fmt: skip
    if hp.groups or hp.discards:
        out.print(t)
    if hp.contracts:
        t = Table(title=par_contracts_title(lang), title_justify="left", expand=False)
        for col in ("contract", "value", "recorded", "best line", "lines"):
            t.add_column(cols[col], overflow="fold")
        for o in hp.contracts:
            v = o.value
            line = " ".join(x for x in (o.king or "", str(o.group) if o.group >= 0 else "",
                                        " ".join(o.cards)) if x)  # fmt: skip
            t.add_row(contract_name(o.contract, game, lang=lang),
                      par_value_text(v.value, v.low, v.high, lang), "*" if o.recorded else "",
                      line, f"{o.decided}/{o.discards}")  # fmt: skip
        out.print(t)
    elif hp.contracts_skipped:
        why = analysis_not_analysed(hp.contracts_skipped, lang)
        out.print(f"{par_contracts_title(lang)}: {why}", markup=False, highlight=False)
    hit = hp.budget_hit or hp.contracts_budget_hit
    for line in par_footer(hp.budget, hp.hand_budget, hit, hp.seconds, lang):
        out.print(line, markup=False, highlight=False)


def _player_summary(hands: list[PlayerHand], errors: int, samples: int,
                    seed: int) -> dict[str, Any]:  # fmt: skip
    from tarock_logs.analysis.player import LABEL_PLAYER

    cards = [c for h in hands for c in h.cards]
    return {
        "label": LABEL_PLAYER, "view": "player", "samples": samples, "seed": seed,
        "hands": len(hands), "hands_analysed": sum(1 for h in hands if h.cards),
        "hands_skipped": sum(1 for h in hands if h.skipped and not h.cards),
        "cards": len(cards), "mistakes": sum(1 for c in cards if c.mistake),
        "points_lost": round(sum(c.loss for c in cards), 2),
        "undecided_cards": sum(len(h.undecided) for h in hands),
        "seconds": round(sum(h.seconds for h in hands), 3), "input_errors": errors,
    }  # fmt: skip


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def _skip_text(ha: PlayerHand, lang: str) -> str:
    from tarock_logs.report.text import analysis_skip_reason

    if ha.skip is None:
        return ha.skipped or ""
    return analysis_skip_reason(ha.skip[0], dict(ha.skip[1]), lang)


def _print_player_hand(out: Console, ha: PlayerHand, lang: str = "en") -> None:
    from tarock_logs.report.text import analysis_not_analysed, analysis_title, analysis_view_label

    title = (analysis_title(ha.session, ha.hand_number, ha.contract, ha.declarer, ha.game,
                            lang)
             + " — " + analysis_view_label(ha.samples, ha.seed, lang))  # fmt: skip
    if ha.skipped and not ha.cards:
        out.print(f"{title}: " + analysis_not_analysed(_skip_text(ha, lang), lang),
                  markup=False, highlight=False)  # fmt: skip
        return
    t = Table(title=title, title_justify="left", expand=False)
    for col in ("trick", "seat", "role", "card", "mean", "spread", "best mean", "best card(s)",
                "loss", "mistake"):  # fmt: skip
        t.add_column(col, overflow="fold")
    for c in ha.cards:
        st = dict(c.values)[c.card]
        t.add_row(
            str(c.trick), str(c.seat), c.role.replace(" side", ""), c.card, _num(c.value),
            f"±{st.std:.1f} [{st.lo}, {st.hi}]", _num(c.best_value), " ".join(c.best_cards),
            _num(c.loss) if c.loss else "", "yes" if c.mistake else "",
        )  # fmt: skip
    out.print(t)
    for c in ha.cards:
        for note in c.notes:
            out.print(f"trick {c.trick}, {c.card}: {note}", markup=False, highlight=False)
    if ha.skipped:
        out.print(f"stopped: {_skip_text(ha, lang)}", markup=False, highlight=False)
    for i, card in ha.undecided:
        out.print(f"not decided (search budget, or no layout passed the play check): {card} "
                  f"(action {i})", markup=False, highlight=False)  # fmt: skip


@app.command("analyse")
def analyse_command(
    paths: list[Path] = typer.Argument(..., help="Log files or folders."),
    session: str | None = typer.Option(None, "--session", help="Only this session id."),
    hand: list[int] = typer.Option([], "--hand", help="Only this hand number (repeatable)."),
    last_tricks: int = typer.Option(
        8,
        "--last-tricks",
        min=1,
        max=16,
        help="Analyse the cards of the last K tricks of each hand (12: whole 4-player hands).",
    ),
    fmt: str = typer.Option("table", "--format", help="table | json | jsonl"),
    exclude: list[str] = typer.Option([], "--exclude", help="Skip paths containing this."),
    backend: str = typer.Option(
        "auto", "--backend", help="auto | native | python (the solver to use)"
    ),
    budget: int | None = typer.Option(
        None,
        "--budget",
        min=0,
        help="Cards one search may play before the card is left undecided (0: no limit; "
        "default: no limit where the native solver plays the game, else the pure-Python "
        "solver's default budget, 100,000).",
        show_default=False,
    ),
    hand_budget: int | None = typer.Option(
        None,
        "--hand-budget",
        min=0,
        help="Cards all the searches of one hand may play together (0, the default: no "
        "limit): the cards are valued from the last one back, and those it does not reach are "
        "left undecided (an illegal card is always analysed). With --last-tricks 12: every "
        "card of a whole hand as far as the budget goes. With --par also the par's (default "
        "120,000,000 with the native solver).",
        show_default=False,
    ),
    par: bool = typer.Option(
        False,
        "--par",
        help="Also value, before the first trick, each talon group the declarer could have "
        "taken, each discard after his group and each contract he could have declared (all "
        "cards visible; each a whole-hand search under --budget, default 40,000,000 cards with "
        "the native solver; over it: undecided or a bound). An option no better than the best "
        "so far is settled by one quick test and shown as a bound (≤ N).",
    ),
    par_exact: bool = typer.Option(
        False,
        "--par-exact",
        help="With --par: value every talon group's discard and every contract's line exactly "
        "(no quick tests; many times the searches).",
    ),
    lines: bool = typer.Option(
        True,
        "--lines/--no-lines",
        help="Play out the best and the played card's lines to say what changed (slower).",
    ),
    view: str = typer.Option(
        "all",
        "--view",
        help="all: all cards visible | player: what the player knew (sampled layouts)",
    ),
    samples: int = typer.Option(
        20, "--samples", min=1, max=10_000, help="--view player: layouts sampled per card."
    ),
    seed: int = typer.Option(1, "--seed", help="--view player: the seed of the samples."),
    threshold: float = typer.Option(
        5.0,
        "--threshold",
        min=0.0,
        help="--view player: points below the best mean that make a card a mistake.",
    ),
    lang: str = typer.Option(
        "en", "--lang", help="The language of the hands' headings: en, sl or de (game terms stay)."
    ),
) -> None:
    """Value every card played with all cards visible: the card played, the best card(s), the
    points lost and whether the outcome changed (contract, bonuses). Illegal cards are always
    analysed: did the illegal card change the result."""
    if fmt not in FORMATS:
        raise fail(f"--format must be one of {', '.join(FORMATS)}")
    if backend not in BACKENDS:
        raise fail(f"--backend must be one of {', '.join(BACKENDS)}")
    if view not in VIEWS:
        raise fail(f"--view must be one of {', '.join(VIEWS)}")
    from tarock_logs.report.i18n import LANGS

    if lang not in LANGS:
        raise fail(f"--lang must be one of {', '.join(LANGS)}")
    if backend == "native":
        from tarock_logs import _native

        if not _native.available():
            raise fail(f"--backend native: {_native.why_not}")
    for p in paths:
        if not p.exists():
            raise fail(f"no such file or folder: {p}")
    from tarock_logs.analysis.hand import LABEL, iter_analyses
    from tarock_logs.log.reader import read_paths

    if view == "player":
        _analyse_player(paths, exclude, session, set(hand) or None, last_tricks, fmt, backend,
                        budget, samples, seed, threshold, lang)  # fmt: skip
    out = Console(soft_wrap=True, no_color=True) if fmt == "table" else None
    results: list[tuple[HandAnalysis, str]] = []
    par_of: dict[int, HandPar] = {}
    errors = 0
    found_session = False
    wanted = set(hand) or None
    for rec in read_paths(paths, exclude):
        for e in rec.all_errors():
            if e.is_error:
                errors += 1
                err_console.print(f"tarock: {e}", markup=False, highlight=False, soft_wrap=True)
        s = rec.session
        if s is None or (session is not None and s.id != session):
            continue
        found_session = True
        b = _budget(budget, s.game)
        analyses = iter_analyses(
            s, hands=wanted, last_tricks=last_tricks, budget=b,
            backend=backend,  # type: ignore[arg-type]
            lines=lines, hand_budget=hand_budget or 0,
        )  # fmt: skip
        pars: dict[int, HandPar] = {}
        if par:
            from tarock_logs.analysis.par import iter_pars

            pars = {p.hand_number: p for p in iter_pars(
                s, hands=wanted, backend=backend,  # type: ignore[arg-type]
                budget=budget, hand_budget=hand_budget or None, exact=par_exact)}  # fmt: skip
        for ha in analyses:
            file = str(rec.file)
            hp = pars.get(ha.hand_number)
            if fmt == "jsonl":
                typer.echo(orjson.dumps(_hand_dict(ha, file, hp)).decode())
            elif out is not None:
                _print_hand(out, ha, file, s.game, lang)
                if hp is not None:
                    _print_par(out, hp, s.game, lang)
            results.append((ha, file))
            if hp is not None:
                par_of[id(ha)] = hp
    if session is not None and not found_session:
        raise fail(f"no readable session {session!r} under the given paths")
    summary = _summary([h for h, _ in results], errors)
    if fmt == "json":
        doc = {"label": LABEL, "note": NOTE, "summary": summary,
               "hands": [_hand_dict(h, f, par_of.get(id(h))) for h, f in results]}  # fmt: skip
        typer.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
    elif out is not None:
        from tarock_logs.report.text import plural

        out.print(f"{plural(summary['hands_analysed'], 'hand')} analysed "
                  f"({plural(summary['cards'], 'card')}, "
                  f"{summary['mistakes']} costing points, {summary['outcome_changes']} changing "
                  f"the outcome, {summary['illegal_cards']} illegal) in {summary['seconds']} s",
                  markup=False, highlight=False)  # fmt: skip
    err_console.print(f"tarock: {NOTE}", markup=False, highlight=False)
    raise typer.Exit(int(ExitCode.FINDINGS if errors else ExitCode.OK))


def _analyse_player(
    paths: list[Path], exclude: list[str], session: str | None, wanted: set[int] | None,
    last_tricks: int, fmt: str, backend: str, budget: int | None, samples: int, seed: int,
    threshold: float, lang: str = "en",
) -> None:  # fmt: skip
    """``tarock analyse --view player``: what the player knew (ends the command)."""
    from tarock_logs.analysis.player import LABEL_PLAYER, iter_player_analyses
    from tarock_logs.log.reader import read_paths

    out = Console(soft_wrap=True, no_color=True) if fmt == "table" else None
    results: list[tuple[PlayerHand, str]] = []
    errors = 0
    found_session = False
    for rec in read_paths(paths, exclude):
        for e in rec.all_errors():
            if e.is_error:
                errors += 1
                err_console.print(f"tarock: {e}", markup=False, highlight=False, soft_wrap=True)
        s = rec.session
        if s is None or (session is not None and s.id != session):
            continue
        found_session = True
        b = _budget(budget, s.game)
        for ha in iter_player_analyses(s, hands=wanted, last_tricks=last_tricks,
                                       samples=samples, seed=seed, threshold=threshold,
                                       backend=backend, budget=b):  # type: ignore[arg-type]  # fmt: skip
            file = str(rec.file)
            if fmt == "jsonl":
                typer.echo(orjson.dumps({**ha.to_dict(), "file": file}).decode())
            elif out is not None:
                _print_player_hand(out, ha, lang)
            results.append((ha, file))
    if session is not None and not found_session:
        raise fail(f"no readable session {session!r} under the given paths")
    summary = _player_summary([h for h, _ in results], errors, samples, seed)
    if fmt == "json":
        doc = {"label": LABEL_PLAYER, "view": "player", "note": NOTE_PLAYER,
               "samples": samples, "seed": seed, "summary": summary,
               "hands": [{**h.to_dict(), "file": f} for h, f in results]}  # fmt: skip
        typer.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
    elif out is not None:
        from tarock_logs.report.text import plural

        out.print(f"{plural(summary['hands_analysed'], 'hand')} analysed "
                  f"({plural(summary['cards'], 'card')}, {summary['mistakes']} mistakes on "
                  f"what the player knew) with {samples} samples per card, seed {seed}, in "
                  f"{summary['seconds']} s", markup=False, highlight=False)  # fmt: skip
    err_console.print(f"tarock: {NOTE_PLAYER}", markup=False, highlight=False)
    raise typer.Exit(int(ExitCode.FINDINGS if errors else ExitCode.OK))
