"""File-level use cases between the CLI and the pure engine: load, check, run, write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.errors import IllegalInput, InputError, MalformedInput, Problem, UsageError
from agot_adjudicator.io.formats import MAKER, maker_of, version_of
from agot_adjudicator.io.gamedir import BoardNow
from agot_adjudicator.io.reading import Document
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.validation import state_problems
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.naming import suggest
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import STATE_VERSION, GameState
from agot_adjudicator.workflow.validate import load_state_lenient, read_yaml

if TYPE_CHECKING:  # the diff and the template are imported by the commands that use them
    from agot_adjudicator.render.diff import Change

STATE_HEADERS = {
    version: (f"agot game state (agot-state/{version}): the moderator's file; it holds the seed\n"
              "and the Westeros decks, so do not send it to players (send `agot show`).")
    for version in (1, 2, 3)}
"""The comment a state file starts with, per format version (part of the bytes replay checks)."""
STATE_HEADER = STATE_HEADERS[STATE_VERSION]
PROVISIONAL_HEADER = (
    f"agot PROVISIONAL state (agot-state/{STATE_VERSION}): the board as far as a run stopped on\n"
    "pending decisions got. It is NOT a round's record: never adjudicate it or use it as a\n"
    "round's state.yaml (agot refuses it); it goes when the round completes. It holds the\n"
    "seed and the Westeros decks: send players `agot show --game DIR --house HOUSE`.")
"""The comment a provisional state starts with (docs/formats.md, docs/protocol.md P4)."""


def diff_files(a_path: str, b_path: str, ruleset: Ruleset) -> tuple[list[Change], list[Problem]]:
    """The differences between two state files, and the rule problems found in them (warnings)."""
    from agot_adjudicator.render.diff import diff_states

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


def template_text(board: Board, house: str, ruleset: Ruleset, schema_ref: str,
                  game_dir: str | None = None, lang: str = "en") -> str:
    """The order file skeleton of ``house`` for ``board`` (``agot template``; see
    :func:`load_board`); from a game directory it names ``agot validate --game``. ``lang``:
    the language of its comments."""
    doc, state = board.doc, board.state
    if house not in state.houses:
        raise UsageError(f"--house {house}: not a house in play{suggest(house, state.houses)} "
                         f"({', '.join(state.order_of_play())})")
    if state.phase == "ended":
        raise IllegalInput([doc.problem(["phase"], f"the game has ended (round {state.round}): "
                                      "there is nothing to submit")])
    check = ("the moderator runs agot validate --game GAME THIS_FILE" if game_dir is not None
             else "agot validate STATE THIS_FILE")
    secret = False
    if game_dir is not None:
        from agot_adjudicator.io.players import read_players

        kept = read_players(game_dir).houses.get(house)
        secret = kept is not None and kept.secret_sha256 is not None
    from agot_adjudicator.render.template import order_template

    return order_template(state, ruleset, house, schema_ref, check, secret, lang)


def view_template_text(view: Any, ruleset: Ruleset, schema_ref: str, lang: str = "en") -> str:
    """The order file skeleton of a house view's house for the view's board (``agot template
    VIEW``), to check with ``agot validate VIEW THIS_FILE``."""
    state = view.board
    if state.phase == "ended":
        raise IllegalInput([view.doc.problem(["board", "phase"], f"the game has ended (round "
                                             f"{state.round}): there is nothing to submit")])
    from agot_adjudicator.render.template import order_template

    return order_template(state, ruleset, view.house, schema_ref,
                          "agot validate VIEW THIS_FILE", True, lang)


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


def now_text(state: GameState, ruleset: Ruleset, state_in: str, pending: Sequence[str], *,
             maker: str = MAKER) -> str:
    """The provisional state of a stopped run (round-NN/now.yaml): ``state`` as far as the run
    got, marked ``provisional:`` (the phase it stopped in, the SHA-256 of the state it started
    from, the decisions it stopped on) so it never passes for a record (docs/protocol.md P4).
    The input's hash chain is left out: it belongs to the round's state.yaml."""
    out = replace(state, written_by=maker, chain=None)
    data = out.to_dict(ruleset)
    mark = {"stopped": state.phase, "state_in": state_in, "pending": list(pending)}
    head: dict[str, Any] = {k: data.pop(k) for k in ("format", "written_by") if k in data}
    return dump_yaml({**head, "provisional": mark, **data}, header=PROVISIONAL_HEADER)


@dataclass
class Board:
    """A board to show, draw, sketch orders for or validate against (:func:`load_board`)."""

    doc: Document
    state: GameState
    provisional: bool
    notes: list[str] = field(default_factory=list)
    """What the moderator should know (said on stderr): where the board comes from."""


def stale_board(doc: Document, now: BoardNow, state_sha256: str | None = None) -> list[Problem]:
    """The problem of a provisional board (``now.yaml``) written from another state than the
    round's ``state.yaml`` (changed by hand since the stop): stale; none for a board that is
    no provisional one. ``state_sha256``: the SHA-256 of ``state.yaml`` when already read.
    Every reader of the board as it stands checks it here (:func:`load_board`, the house
    views of :mod:`~agot_adjudicator.workflow.kit`)."""
    mark = doc.data.get("provisional")
    if not isinstance(mark, dict):
        return []
    if state_sha256 is None:
        state_sha256 = read_yaml(str(now.round.state)).sha256
    if state_sha256 == mark.get("state_in"):
        return []
    return [doc.problem(["provisional", "state_in"], (
        f"stale: written from a state of sha256 {str(mark.get('state_in'))[:12]}…, but "
        f"{now.round.state} is {state_sha256[:12]}… now; run `agot adjudicate --game "
        f"{now.round.path.parent}` again to write the board as it stands"))]


def load_board(path: str | Path, ruleset: Ruleset, *, now: BoardNow | None = None,
               state_sha256: str | None = None) -> Board:
    """Load a state to view: a round's state, or a provisional one (round-NN/now.yaml).

    A provisional state passes the schema and the rule checks of a state as a stop may leave
    it (``state_problems(provisional=True)``: caught mid-step). With ``now`` (``--game``), a
    provisional state must come from the round's current state.yaml, else it is stale
    (:func:`stale_board`) and refused (:class:`IllegalInput`); ``state_sha256``: that
    state.yaml's SHA-256 when the caller has read it.
    """
    doc = read_yaml(str(path))
    problems = schema_problems(doc, "state")
    if problems:
        raise MalformedInput(problems)
    mark = doc.data.get("provisional")
    if mark is None:
        problems = state_problems(doc, ruleset)
        if problems:
            raise IllegalInput(problems)
        return Board(doc, GameState.from_dict(doc.data), False)
    notes = [f"{path}: provisional: the board as far as the stopped run got ({mark['stopped']} "
             f"phase of round {doc.data['round']}; pending: {', '.join(mark['pending'])})"]
    if now is not None:
        stale = stale_board(doc, now, state_sha256)
        if stale:
            raise IllegalInput(stale)
    problems = state_problems(doc, ruleset, provisional=True)
    if problems:
        raise IllegalInput(problems)
    return Board(doc, GameState.from_dict(doc.data), True, notes)


def map_svg(board: Board, ruleset: Ruleset, house: str | None = None,
            orders: bool = False, lang: str = "en") -> str:
    """``agot map``: the SVG picture of a board (:func:`load_board`; see
    :mod:`agot_adjudicator.render.picture`), its labels in ``lang``."""
    from agot_adjudicator.render.picture import render_svg

    state = board.state
    if house is not None and house not in state.houses:
        raise UsageError(f"--house {house}: not a house in play ({', '.join(state.order_of_play())})")
    return render_svg(state, ruleset, house=house, orders=orders, maker=MAKER,
                      provisional=board.provisional, lang=lang)
