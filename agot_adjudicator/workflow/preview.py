"""``agot preview VIEW ORDERS [--assume FILE]``: the battles a house's orders lead to, on its
own view (issue 30 item 3).

The round is run on scratch copies from the view's replay board (the board the check run
starts from, :mod:`~agot_adjudicator.workflow.kit`), with what the committed runs resolved,
the house's own orders and plans, the others' guessed orders and plans (``--assume``), and
the documented default for everything else (P2). Each battle it meets (R6), and that no
committed run has fought yet, is shown with both sides' strength before house cards —
units, the March or Defense order, and each Support that counts (R6.2, R6.3), as the engine
tells them when it asks for the cards (the question's ``facts``, from the same run stopped
there) — and then fought again for every pair of house cards the engine offers the two
sides (their hands as the view tells them: the house's own, the others' cards out of their
discards), under the engine's decision ids, the card texts applied as the engine applies
them (R6.4, R6.6). Only the view and the files given are read; nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agot_adjudicator.engine.decisions import AnswerError, GivenAnswer, Request
from agot_adjudicator.engine.round import Result, event_key, resolve
from agot_adjudicator.errors import IllegalInput, Problem, UsageError
from agot_adjudicator.io.reading import Document
from agot_adjudicator.io.submissions import collect
from agot_adjudicator.model.naming import name_index
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.language import Names, house, sep, tr
from agot_adjudicator.workflow.kit import View, check_with_view
from agot_adjudicator.workflow.validate import engine_inputs, read_submissions, read_yaml

MAX_BATTLES = 12
"""At most this many battles are previewed (each is fought once per pair of house cards)."""


def _scratch_answer(message: str) -> Problem:  # pragma: no cover - a refused pair is skipped
    return Problem("<preview>", None, None, "$", message)


def _start(view: View) -> GameState:
    if view.replay is not None:
        return view.replay
    if view.board.phase == "planning":
        return view.board
    raise UsageError(f"{view.name}: this view cannot run the round again (replay: null): "
                     "no preview")


def _read_once() -> Callable[[str], Document]:
    """A reader that reads each file once (the orders file is checked, then run)."""
    read: dict[str, Document] = {}

    def reader(path: str) -> Document:
        if path not in read:
            read[path] = read_yaml(path)
        return read[path]
    return reader


def _run(view: View, ruleset: Ruleset, inputs: Any, answers: dict[str, GivenAnswer],
         horizon: frozenset[str] | None = None) -> Result:
    recorded = {e.id: e.value for e in view.ledger.entries}
    return resolve(ruleset, _start(view), inputs, answers, defaults=True, recorded=recorded,
                   horizon=horizon)


def _card_questions(view: View, ruleset: Ruleset, inputs: Any,
                    base: Result) -> list[list[Request] | None]:
    """Per battle of the run ``base``, in order: its two house card questions as the engine
    asks them (their ids, the hands they offer, each side's strength before cards in their
    ``facts``), from the same run stopped just before them; None for a battle a committed run
    fought."""
    fought_already = {e.id for e in view.ledger.entries}
    out: list[list[Request] | None] = []
    resolved = base.resolved
    for n, step in enumerate(resolved):
        if step.kind != "house_card" or (n and resolved[n - 1].kind == "house_card"
                                         and event_key(resolved[n - 1].id) == event_key(step.id)):
            continue  # not the first of a battle's two house cards (asked together)
        if len(out) == MAX_BATTLES:
            break
        if step.id in fought_already:
            out.append(None)
            continue
        stopped = _run(view, ruleset, inputs, {}, frozenset(r.id for r in resolved[:n]))
        out.append([p.request for p in stopped.pending if p.request.kind == "house_card"])
    return out


def battles(view: View, orders_path: str, assume: str | None,
            ruleset: Ruleset) -> list[dict[str, Any]]:
    """Each battle the orders lead to: the ``battle`` event of the run with defaults, both
    sides' strength before cards (``before``, by role, as the engine tells it when it asks
    for the cards), and the outcome for every pair of house cards the engine offers
    (``pairs``: attacker's card, defender's card → winner and totals)."""
    names = name_index(ruleset)
    read = _read_once()
    checked = check_with_view(view, [orders_path], ruleset, names, read)
    mine = [p for p in checked.verdict.problems if p.file == orders_path]
    if mine:
        raise IllegalInput(mine)
    paths = [orders_path, *([assume] if assume else [])]
    docs, problems = read_submissions(paths, names, [], read=read)
    if problems:
        raise IllegalInput(problems)
    subs, problems = collect(docs, view.start, ruleset)
    if problems:
        raise IllegalInput(problems)
    inputs, _ = engine_inputs(subs)
    try:
        base = _run(view, ruleset, inputs, {})
        questions = _card_questions(view, ruleset, inputs, base)
    except AnswerError as exc:
        raise IllegalInput(exc.problems) from None
    out = []
    fights = [e for e in base.events if e["type"] == "battle"]
    for data, asked in zip(fights, questions, strict=False):
        if asked is None:
            continue  # fought by a committed run: the report tells how
        by_house = {r.house: r for r in asked}
        attacker, defender = by_house[data["attacker"]], by_house[data["defender"]]
        pairs = []
        for a in attacker.options:
            for d in defender.options:
                given = {attacker.id: GivenAnswer(a, None, _scratch_answer),
                         defender.id: GivenAnswer(d, None, _scratch_answer)}
                try:
                    run = _run(view, ruleset, inputs, given)
                except AnswerError:
                    continue
                fought = [e for e in run.events if e["type"] == "battle"
                          and e["origin"] == data["origin"] and e["area"] == data["area"]]
                if fought:
                    pairs.append({"attacker_card": a, "defender_card": d,
                                  "winner": fought[0]["winner"],
                                  "totals": fought[0]["totals"]})
        out.append({"event": data, "before": attacker.facts, "pairs": pairs})
    return out


def _side_words(side: dict[str, Any], names: Names) -> str:
    """One side's strength before cards (the engine's breakdown, R6.3) in words."""
    order = side.get("order") or {}
    supports = [tr("{area} ({house}) +{strength}", area=names.area(s["area"]),
                   house=house(s["house"]), strength=s["strength"])
                for s in side.get("support") or []]
    return tr("{house} {before}: units {units}, order {bonus:+d}, support {support}",
              house=house(side["house"]), before=side["total"], units=side["units_strength"],
              bonus=order.get("bonus") or 0,
              support=sep().join(supports) if supports else tr("none"))


def preview_text(view: View, orders_path: str, assume: str | None, ruleset: Ruleset,
                 lang: str = "en") -> str:
    """The preview as text (see the module doc)."""
    found = battles(view, orders_path, assume, ruleset)
    lines: list[str] = []
    names = Names(ruleset, lang)
    with names.speaking():
        if not found:
            lines.append(tr("No battle: with these orders and guesses no march meets another "
                            "house's units or a neutral force."))
        for battle in found:
            e = battle["event"]
            att, dfd = house(e["attacker"]), house(e["defender"])
            lines.append(tr("Battle for {area}: {attacker} attacks from {origin}, {defender} "
                            "defends (R6).", area=names.area(e["area"]), attacker=att,
                            origin=names.area(e["origin"]), defender=dfd))
            lines.append("  " + tr("Before house cards (R6.3):"))
            for role in ("attacker", "defender"):
                lines.append("    " + _side_words(battle["before"][role], names))
            lines.append("  " + tr("For each pair of house cards ({attacker}'s, {defender}'s): "
                                   "the winner and the totals (R6.4).", attacker=att,
                                   defender=dfd))
            for pair in battle["pairs"]:
                totals = pair["totals"]
                lines.append("    " + tr("{cards_before} vs {cards_after}: {winner} wins, {a} "
                                         "to {d}", cards_before=names.card(pair["attacker_card"]),
                                         cards_after=names.card(pair["defender_card"]),
                                         winner=house(pair["winner"]),
                                         a=totals[e["attacker"]], d=totals[e["defender"]]))
    return "\n".join(lines) + "\n"
