"""The player's kit on a house view (``agot-view/1``): ``validate VIEW ORDERS``, ``template
VIEW``, ``show VIEW`` (hooked into those commands) and ``agot preview`` (docs/protocol.md P7,
P8; RUL-P8-9)."""

from __future__ import annotations

from collections.abc import Callable

import click

from agot_adjudicator.cli.options import (
    EPILOG,
    chosen_language,
    handle_errors,
    lang_option,
    ruleset_for,
    speaking,
    warn,
)
from agot_adjudicator.errors import IllegalInput, Problem, UsageError
from agot_adjudicator.io.reading import Document
from agot_adjudicator.model.naming import name_index
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.language import house, say, tr
from agot_adjudicator.render.receipt import echo_lines
from agot_adjudicator.workflow.kit import View, check_with_view, load_view, read_view_or_none


def view_for(ctx: click.Context, path: str,
             read: Callable[[str], Document] | None = None) -> tuple[View, Ruleset] | None:
    """The house view in ``path`` with its ruleset, or None when the file is no view; the
    file is read once (for what it is, the ruleset it names and the view), by ``read`` when
    the command has its own reader."""
    doc = read_view_or_none(path, read)
    if doc is None:
        return None
    ruleset = ruleset_for(ctx, path, read=lambda _path: doc)
    return load_view(doc, ruleset), ruleset


def view_line(view: View, lang: str = "en") -> str:
    """The line that names the view a command reads (stdout, before its output), in
    ``lang``."""
    with speaking(lang):
        return _view_line(view)


def _view_line(view: View) -> str:
    return tr("House view of {house}: {stop} ({file}).", house=house(view.house),
              stop=say(view.stop_words()), file=view.name) + "\n"


def validate_view(ctx: click.Context, view: View, ruleset, files: list[str], lang: str) -> None:
    """``agot validate VIEW ORDERS...``: the judge's verdict on each file as a message of the
    view's house (RUL-P8-8, RUL-P8-9): display names read as ids, as inbox reads them, with
    or without ``--names``."""
    if not files:
        raise UsageError("give the order file(s) to check after the view: agot validate VIEW "
                         "ORDERS")
    index = name_index(ruleset)
    checked = check_with_view(view, files, ruleset, index)
    verdict = checked.verdict
    with speaking(lang, ruleset):
        warn(checked.notes, N_("note: {warning}"))
        if not checked.offline:
            click.echo(tr("note: {file}: this view cannot run the round again up to its stop "
                          "(replay: null): checked against the board and the questions only",
                          file=view.name), err=True)
        warn([w for w in verdict.warnings if w.file in files])
        mine: list[Problem] = [p for p in verdict.problems if p.file in files]
        if mine:
            malformed = [p for p in verdict.malformed if p in mine]
            raise type(verdict)(problems=mine, malformed=malformed).error()
        for doc in (verdict.subs.docs if verdict.subs else []):
            if doc.name in files:
                for line in echo_lines(doc.data, index):
                    click.echo(f"  {line}")
        owed = verdict.owed.get(view.house, [])
        if owed:
            click.echo(tr("still asked of {house}: {ids}", house=house(view.house),
                          ids=", ".join(str(e.get("id")) for e in owed)))
        click.echo(tr("ok: {count} submission file(s) against {view} ({stop}): the verdict "
                      "the judge gives", count=len(files), view=view.name,
                      stop=say(view.stop_words())))


def stale_views(ctx: click.Context, game_dir: str, files: list[str]) -> list[str]:
    """``validate --game DIR VIEW``: a house view among the files is checked against the
    directory (of its current stop, else stale, naming both stops); the other files."""
    from agot_adjudicator.workflow.kit import judge_view_problems

    rest, problems = [], []
    for path in files:
        found = view_for(ctx, path)
        if found is None:
            rest.append(path)
            continue
        problems += judge_view_problems(game_dir, found[0])
    if problems:
        raise IllegalInput(problems)
    return rest


@click.command(epilog=EPILOG)
@click.argument("view", type=click.Path(dir_okay=False, exists=True))
@click.argument("orders", type=click.Path(dir_okay=False, exists=True))
@click.option("--assume", type=click.Path(dir_okay=False, exists=True), metavar="FILE",
              help="An agot-orders/1 file with the orders you guess for the other houses "
                   "(houses: {HOUSE: {orders: ...}}); unguessed areas hold no order.")
@lang_option("Names of areas, houses and cards by the glossary.")
@click.pass_context
@handle_errors
def preview(ctx: click.Context, view: str, orders: str, assume: str | None,
            lang: str | None) -> None:
    """Preview the battles of ORDERS on the house VIEW: strength, supports and each pair of
    house cards.

    The house's own orders (checked first, as validate checks them) are placed
    with the guessed orders of the others; each march into an area held by
    another house or a neutral force is a battle: the strength of each side
    before house cards (units, supports that count, defense and march
    bonuses, R6.3), and the winner for every pair of house cards the two
    sides may still play (each pair fought by the engine: printed strengths,
    swords and the card texts, R6.4). Only the view and the files given are read.
    """
    from agot_adjudicator.workflow.preview import preview_text

    found = view_for(ctx, view)
    if found is None:
        raise UsageError(f"{view}: not a house view (agot show --game DIR --house H "
                         "--format view writes one; every house's mail carries its own)")
    loaded, ruleset = found
    lang = chosen_language(lang)
    text = preview_text(loaded, orders, assume, ruleset, lang)
    click.echo(view_line(loaded, lang) + text, nl=False)
