"""File-level use cases between the CLI and the pure engine: load, check, run, write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.errors import IllegalInput, InputError, MalformedInput, Problem, UsageError
from agot_adjudicator.io.formats import MAKER, maker_of, version_of
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.naming import suggest
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import STATE_VERSION, GameState
from agot_adjudicator.render.diff import Change, diff_states
from agot_adjudicator.render.template import order_template
from agot_adjudicator.workflow.validate import load_state, load_state_lenient

STATE_HEADERS = {
    version: (f"agot game state (agot-state/{version}): the moderator's file; it holds the seed\n"
              "and the Westeros decks, so do not send it to players (send `agot show`).")
    for version in (1, 2)}
"""The comment a state file starts with, per format version (part of the bytes replay checks)."""
STATE_HEADER = STATE_HEADERS[STATE_VERSION]


def diff_files(a_path: str, b_path: str, ruleset: Ruleset) -> tuple[list[Change], list[Problem]]:
    """The differences between two state files, and the rule problems found in them (warnings)."""
    loaded, problems, warnings = [], [], []
    for path in (a_path, b_path):
        try:
            state, found = load_state_lenient(path, ruleset)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        loaded.append(state)
        warnings.extend(found)
    if problems:
        raise MalformedInput(problems)
    return diff_states(loaded[0], loaded[1], ruleset), warnings


def template_text(state_path: str, house: str, ruleset: Ruleset, schema_ref: str) -> str:
    """The order file skeleton of ``house`` for the state in ``state_path`` (``agot template``)."""
    doc, state = load_state(state_path, ruleset)
    if house not in state.houses:
        raise UsageError(f"--house {house}: not a house in play{suggest(house, state.houses)} "
                         f"({', '.join(state.order_of_play())})")
    if state.phase == "ended":
        raise IllegalInput([doc.problem(["phase"], f"the game has ended (round {state.round}): "
                                      "there is nothing to submit")])
    return order_template(state, ruleset, house, schema_ref)


def new_game_text(ruleset: Ruleset, houses: Sequence[str], seed: int, game_id: str, *,
                  maker: str = MAKER, version: int = STATE_VERSION) -> str:
    """The YAML text of a new game's starting state."""
    state = new_game(ruleset, list(houses), seed, game_id)
    return state_text(state, ruleset, maker=maker, version=version)


def recorded_writer(data: Any) -> tuple[str, int]:
    """Who wrote a recorded state (plain data read before any upgrade), and in which
    state format version: one this release can write, else the current one (the
    comparison then shows the difference)."""
    version = version_of(data, "agot-state")
    return maker_of(data), version if version in STATE_HEADERS else STATE_VERSION


def state_text(state: GameState, ruleset: Ruleset, *, maker: str = MAKER,
               version: int = STATE_VERSION) -> str:
    """The YAML text of ``state`` as ``maker`` wrote it in format version ``version``
    (replay writes an old record's version to compare it byte for byte)."""
    chain = None if state.chain is None else {
        "written_by": maker, **{k: v for k, v in state.chain.items() if k != "written_by"}}
    out = replace(state, written_by=maker, chain=chain)  # shallow: to_dict copies what it writes
    return dump_yaml(out.to_dict(ruleset, version=version), header=STATE_HEADERS[version])


def map_svg(state_path: str, ruleset: Ruleset, house: str | None = None,
            orders: bool = False) -> str:
    """``agot map``: the SVG picture of a state file's board (see :mod:`agot_adjudicator.render.picture`)."""
    from agot_adjudicator.render.picture import render_svg

    _, state = load_state(state_path, ruleset)
    if house is not None and house not in state.houses:
        raise UsageError(f"--house {house}: not a house in play ({', '.join(state.order_of_play())})")
    return render_svg(state, ruleset, house=house, orders=orders, maker=MAKER)
