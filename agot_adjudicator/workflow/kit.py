"""The player's kit: a house's view of the board (``agot-view/1``) and the checks that run on it.

A house view holds what one house may know at a stop (docs/protocol.md P7, RUL-P7-4): the
board as it stands, the tracks, power, supply, revealed orders and Westeros cards, discards,
the hand sizes of the others, its own hand, the round's restrictions, its own pending
decisions with their options, its own stored submission and what the committed runs of the
round resolved for it — and nothing else: no deck order, no other hand, no seed, no other
house's unrevealed orders, bids, plans or answers. ``agot show --game DIR --house H --format
view`` writes one; every house's mail carries its own.

``agot validate VIEW ORDERS`` gives the verdict the judge gives (RUL-P8-8, RUL-P8-9): the
same :func:`~agot_adjudicator.workflow.standing.verdict`, on a
:class:`~agot_adjudicator.workflow.standing.Standing` built from the view. Its check run
starts from the view's *replay board* — the board at the start of the round's planning phase
once the Westeros phase is behind (no deck is needed any more), else the round's start with
the Westeros cards this round revealed — and applies first what the committed runs resolved
for the other houses (public once resolved: orders revealed, bids revealed, battles fought).
A Winter is Coming shuffles a deck by the game's seed (R3.2): the view's decks are the cards
drawn this round, then the rest of each deck's composition in data order, with a stand-in
seed that reveals the same cards again. The view's writer checks that this replay reaches
the board of the stop; where it cannot, the view says so (``replay: null``) and the check
stops at what the board shows.

The view's ``sha256`` is the SHA-256 of its content without that line: a hand-edited view is
refused; ``source`` names the stop it came from (the SHA-256 of the round's state and of the
board at the stop, the run), so that the judge can tell a view from an older stop.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.engine.chance import shuffle
from agot_adjudicator.engine.context import Inputs
from agot_adjudicator.engine.decisions import AnswerError
from agot_adjudicator.engine.round import resolve
from agot_adjudicator.errors import IllegalInput, InputError, MalformedInput, Problem, UsageError
from agot_adjudicator.io.gamedir import board_now
from agot_adjudicator.io.ledger import Entry, Ledger
from agot_adjudicator.io.reading import Document
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.model.naming import NameIndex
from agot_adjudicator.model.ruleset import DECKS, Ruleset
from agot_adjudicator.model.state import STATE_VERSION, GameState
from agot_adjudicator.model.text import Msg
from agot_adjudicator.workflow.standing import Standing, Verdict, check_given, standing
from agot_adjudicator.workflow.validate import read_submissions, read_yaml

VIEW_FORMAT = "agot-view/1"
WESTEROS_SUBJECTS = ("supply", "mustering", "clash_of_kings", "wildlings")
"""The first part of a decision id's subject for the decisions of the Westeros phase (P5)."""
VIEW_HEADER = (
    "agot house view ({format}): what {house} may know at this stop, and nothing of another\n"
    "house's. Check an order file against it before sending: agot validate THIS_FILE ORDERS\n"
    "(agot template THIS_FILE, agot show THIS_FILE). Do not edit: its sha256 ties it to the\n"
    "moderator's record.")


def westeros_decision(decision_id: str) -> bool:
    """Whether ``decision_id`` is a decision of the Westeros phase (R3; docs/protocol.md P5).

    >>> westeros_decision("r3/clash_of_kings/fiefdoms/bid/stark"), westeros_decision("r3/orders/stark")
    (True, False)
    """
    parts = decision_id.split("/")
    return len(parts) > 1 and parts[1] in WESTEROS_SUBJECTS


def house_board(state: GameState, ruleset: Ruleset, house: str) -> dict[str, Any]:
    """``state`` as ``house`` may know it: the state's layout without the seed, the decks'
    order, the chain and the hands of the other houses (their size only, P7)."""
    data = state.to_dict(ruleset)
    data.pop("chain", None)
    data.pop("format", None)
    data["game"] = {"id": data["game"]["id"]}
    data["westeros"] = {"shuffles": data["westeros"]["shuffles"],
                        "revealed": data["westeros"]["revealed"]}
    for name, kept in data["houses"].items():
        if name != house:
            kept["hand"] = len(kept["hand"])
    return data


def known_hand(ruleset: Ruleset, house: str, size: int, discards: Sequence[str]) -> list[str] | None:
    """Another house's hand as the public record tells it: its cards not in its discards, in
    data order (first edition: every card is in the hand or the discards, R6.4); None when
    that does not give ``size`` cards."""
    hand = [c for c in ruleset.cards_by_house.get(house, ()) if c not in discards]
    return hand if len(hand) == size else None


def _stand_in(data: dict[str, Any], decks: dict[str, list[str]] | None,
              seed: int) -> dict[str, Any]:
    """A view's board as a state's layout (a copy): the stand-in ``seed`` (never the game's),
    ``decks`` (default: none); the other houses' hands still their sizes."""
    full = json.loads(json.dumps(data))
    full["format"] = f"agot-state/{STATE_VERSION}"
    full["game"] = {"id": str(data["game"]["id"]), "seed": seed}
    full["westeros"] = {"shuffles": data["westeros"]["shuffles"],
                        "revealed": data["westeros"].get("revealed", {}),
                        "decks": {d: list((decks or {}).get(d, [])) for d in DECKS}}
    return full


def _known_hands(full: dict[str, Any], ruleset: Ruleset) -> GameState | None:
    """The state of a :func:`_stand_in` layout, each hand given by its size as
    :func:`known_hand` tells it; None when a hand cannot be told."""
    for name, kept in full["houses"].items():
        if isinstance(kept["hand"], int):
            hand = known_hand(ruleset, name, kept["hand"], kept.get("discards", []))
            if hand is None:
                return None
            kept["hand"] = hand
    return GameState.from_dict(full)


def board_state(data: dict[str, Any], ruleset: Ruleset, decks: dict[str, list[str]] | None = None,
                seed: int = 0) -> GameState | None:
    """A :class:`GameState` for the engine from a view's board: the stand-in ``seed`` (never
    the game's), ``decks`` (default: none), the other houses' hands as :func:`known_hand`
    tells them; None when a hand cannot be told."""
    return _known_hands(_stand_in(data, decks, seed), ruleset)


@dataclass
class View:
    """A loaded house view (:func:`load_view`)."""

    doc: Document
    house: str
    round: int
    board: GameState
    """The board as it stands at the stop (other hands as the public record tells them)."""
    start: GameState
    replay: GameState | None
    ledger: Ledger
    forced: dict[str, Any]
    pending: list[dict[str, Any]]
    stored: dict[str, Any] | None
    source: dict[str, Any]

    @property
    def name(self) -> str:
        return self.doc.name

    def stop_words(self) -> Msg:
        """The stop the view is of, in words: round, run and phase."""
        return stop_words(self.round, self.source)


def stop_words(round_number: int, source: dict[str, Any]) -> Msg:
    """A stop in words: its round, the committed run, the phase and the board's hash."""
    from agot_adjudicator.io.validation import PHASE_WORDS

    phase = str(source.get("phase"))
    return Msg("round {round}, run {run}, {phase} phase, board {board}", round=round_number,
               run=source.get("run", 0), phase=PHASE_WORDS.get(phase, phase),
               board=str(source.get("board_sha256", ""))[:12])


def content_sha256(data: dict[str, Any]) -> str:
    """The SHA-256 of a view's content: its canonical JSON without ``sha256``."""
    body = {k: v for k, v in data.items() if k != "sha256"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _planning_start(state: GameState, ledger: Ledger, ruleset: Ruleset) -> GameState | None:
    """The board at the start of the round's planning phase: the Westeros phase run again as
    the committed runs resolved it (the ledger's Westeros decisions); None if it stops
    elsewhere."""
    recorded = {e.id: e.value for e in ledger.entries if westeros_decision(e.id)}
    try:
        result = resolve(ruleset, state, Inputs(), recorded=recorded, horizon=frozenset(recorded))
    except AnswerError:  # pragma: no cover - recorded values are applied as they are
        return None
    if result.status != "pending" or result.state.phase != "planning" \
            or any(a.order for a in result.state.areas.values()):
        return None
    return result.state


def _replays(replay: GameState, ledger: Ledger, board: GameState, ruleset: Ruleset,
             house: str) -> bool:
    """Whether the check run from ``replay``, every recorded decision applied, reaches
    ``board`` (as ``house`` sees it)."""
    recorded = {e.id: e.value for e in ledger.entries}
    try:
        result = resolve(ruleset, replay, Inputs(), recorded=recorded, horizon=frozenset(recorded))
    except Exception:  # a replay that cannot run is one that does not reach the stop
        return False
    return house_board(result.state, ruleset, house) == house_board(board, ruleset, house)


WINTER_IS_COMING = "winter_is_coming"
SEED_TRIES = 4000
"""At most this many stand-in seeds are tried to replay a Winter is Coming offline."""


def _composition(ruleset: Ruleset, deck: str) -> list[str]:
    """A deck's cards in data order (its composition is public, R1.3; its order is not)."""
    return [c.card for c in ruleset.decks.get(deck, ()) for _ in range(c.count)]


def drawn_cards(state: GameState) -> dict[str, list[str]]:
    """The cards the Westeros phase of ``state`` (the moderator's, with its decks and seed)
    reveals from each deck, in order: Winter is Coming, then the cards revealed after each
    shuffle (R3.1, R3.2); all of them public once revealed."""
    out: dict[str, list[str]] = {}
    counter = state.shuffles
    for deck in DECKS:
        cards = list(state.decks.get(deck, []))
        if not cards or all(c == WINTER_IS_COMING for c in cards):
            continue
        seq = []
        while True:
            seq.append(cards[0])
            if cards[0] != WINTER_IS_COMING:
                break
            cards = shuffle(cards, state.seed, counter, deck)
            counter += 1
        out[deck] = seq
    return out


def stand_in_decks(ruleset: Ruleset, drawn: dict[str, list[str]]) -> dict[str, list[str]]:
    """Decks for a view's replay: the cards drawn this round first, then the rest of each
    deck's composition in data order."""
    out = {}
    for deck in DECKS:
        rest = _composition(ruleset, deck)
        first = drawn.get(deck, [])[:1]
        if first and first[0] in rest:
            rest.remove(first[0])
        out[deck] = [*first, *rest]
    return out


def stand_in_seed(ruleset: Ruleset, drawn: dict[str, list[str]], shuffles: int) -> int | None:
    """A seed with which the stand-in decks reveal what was drawn (Winter is Coming shuffles
    by the seed, R3.2): 0 when no deck was shuffled; None if none is found."""
    if not any(WINTER_IS_COMING in seq for seq in drawn.values()):
        return 0
    decks = stand_in_decks(ruleset, drawn)
    for seed in range(1, SEED_TRIES):
        probe = GameState("", "", "", seed, 1, "westeros", {}, {}, {}, dict(decks),
                          shuffles=shuffles)
        if drawn_cards(probe) == drawn:
            return seed
    return None


@dataclass(frozen=True)
class Stop:
    """What a game directory says of its current stop, as a house view needs it: the round's
    start (and its file's SHA-256), the ledger, the stop's pending entries (``pending.yaml``),
    the board as it stands (and its file's SHA-256)."""

    start: GameState
    start_sha256: str
    ledger: Ledger
    pending: Sequence[dict[str, Any]]
    board: GameState
    board_sha256: str
    provisional: bool


_UNSET: Any = object()


def view_of(stop: Stop, house: str, stored: dict[str, Any] | None,
            ruleset: Ruleset, planning: Any = _UNSET) -> dict[str, Any]:
    """The house view of ``house`` at ``stop`` (see the module doc); ``stored``: the house's
    stored submission; ``planning``: the stop's :func:`_planning_start`, when known (it is
    the same for every house)."""
    start, board = stop.start, stop.board
    replay: GameState | None
    if start.phase == "westeros" and board.phase in ("planning", "action"):
        replay = (_planning_start(start, stop.ledger, ruleset) if planning is _UNSET
                  else planning)
        entries = [e for e in stop.ledger.entries if not westeros_decision(e.id)]
    else:
        replay = start.copy()
        entries = list(stop.ledger.entries)
    # Only cards already revealed (a stop in the Westeros phase): before the round's first run
    # the cards to come are the moderator's secret, and so is any seed chosen from them.
    westeros_stop = start.phase == "westeros" and board.phase == "westeros" and board.revealed
    drawn = drawn_cards(start) if westeros_stop else {}
    seed = stand_in_seed(ruleset, drawn, start.shuffles) if drawn else 0
    if seed is None:
        replay = None
    kept = Ledger(stop.ledger.round, stop.ledger.runs, tuple(entries))
    if replay is not None and (stop.pending or entries):
        check = board_state(house_board(replay, ruleset, house), ruleset,
                            stand_in_decks(ruleset, drawn) if replay.phase == "westeros"
                            else None, seed or 0)
        if check is None or not _replays(check, kept, board, ruleset, house):
            replay = None
    mine = [e.to_dict() for e in stop.ledger.entries if e.house == house]
    others = [e.to_dict() for e in entries if e.house != house]
    pending = [dict(e) for e in stop.pending if e.get("house") == house]
    pending += [{k: e[k] for k in ("id", "house", "kind") if k in e} for e in stop.pending
                if e.get("house") != house and not e.get("ahead")]
    data: dict[str, Any] = {
        "format": VIEW_FORMAT,
        "house": house,
        "round": start.round,
        "ruleset": {"name": start.ruleset_name, "sha256": start.ruleset_sha256},
        "source": stop_source(stop.start_sha256, stop.board_sha256, stop.ledger.runs,
                              board.phase, stop.provisional),
        "board": house_board(board, ruleset, house),
        "start": house_board(start, ruleset, house),
        "replay": None if replay is None else house_board(replay, ruleset, house),
        "drawn": drawn,
        "seed": seed or 0,
        "resolved": {"mine": mine, "others": others},
        "pending": pending,
        "stored": stored,
    }
    data["sha256"] = content_sha256(data)
    return data


def stop_source(state_sha256: str, board_sha256: str, runs: int, phase: str,
                provisional: bool) -> dict[str, Any]:
    """A view's ``source``, what identifies the stop it shows: the SHA-256 of the round's
    state and of the board as it stands, the committed runs, the board's phase and whether
    the board is provisional (``now.yaml``)."""
    return {"state_sha256": state_sha256, "board_sha256": board_sha256, "run": runs,
            "phase": phase, "provisional": provisional}


def view_data(game_dir: str, house: str, ruleset: Ruleset) -> dict[str, Any]:
    """The house view of ``house`` at the current stop of ``game_dir``: the round's state as
    :func:`~agot_adjudicator.workflow.standing.standing` checks it, the board as it stands
    as :func:`~agot_adjudicator.workflow.present.load_board` checks it (a stale ``now.yaml``
    is refused)."""
    from agot_adjudicator.workflow.present import load_board

    stand = standing(game_dir, ruleset)
    if house not in stand.state.houses:
        raise UsageError(f"--house {house}: not a house in play "
                         f"({', '.join(stand.state.order_of_play())})")
    now = board_now(game_dir)
    board_doc, board = stand.state_doc, stand.state
    if now.provisional:
        shown = load_board(now.path, ruleset, now=now, state_sha256=stand.state_doc.sha256)
        board_doc, board = shown.doc, shown.state
    stop = Stop(stand.state, stand.state_doc.sha256, stand.ledger, stand.pending, board,
                board_doc.sha256, now.provisional)
    stored_path = stand.house_file(house)
    stored = read_yaml(str(stored_path)).data if stored_path.is_file() else None
    return view_of(stop, house, stored, ruleset)


def view_file(house: str) -> str:
    """The name of a house's view in a round's mail folder (and as its mail's attachment)."""
    return f"{house}.view.yaml"


def round_views(state_doc: Document, result_state: GameState, ledger: Ledger | None,
                pending_text: str | None, now_text: str | None, next_text: str | None,
                stored: dict[str, dict[str, Any] | None], ruleset: Ruleset) -> dict[str, str]:
    """Each house's view as a run's commit leaves the game directory (the mail's
    attachments): at a stop, of the stop (the round's start ``state_doc``, the ledger after
    the run, ``pending.yaml``'s and ``now.yaml``'s texts); after a complete round, of the next
    round's start (``next_text``); none once the game has ended. ``stored``: each house's
    stored submission as the directory holds it after the commit."""
    from agot_adjudicator.io.reading import parse_text

    if next_text is not None:
        doc = parse_text("state.yaml", next_text.encode("utf-8"))
        board = GameState.from_dict(doc.data)
        if board.phase == "ended":
            return {}
        stop = Stop(board, doc.sha256, Ledger(board.round), (), board, doc.sha256, False)
    else:
        assert pending_text is not None and now_text is not None and ledger is not None
        pending = parse_text("pending.yaml", pending_text.encode("utf-8")).data.get("pending")
        now = parse_text("now.yaml", now_text.encode("utf-8"))
        board = GameState.from_dict({k: v for k, v in now.data.items() if k != "provisional"})
        start = GameState.from_dict(state_doc.data)
        stop = Stop(start, state_doc.sha256, ledger, [e for e in pending or [] if
                                                       isinstance(e, dict)],
                    board, now.sha256, True)
    planning = _UNSET
    if stop.start.phase == "westeros" and stop.board.phase in ("planning", "action"):
        planning = _planning_start(stop.start, stop.ledger, ruleset)
    return {h: view_text(view_of(stop, h, stored.get(h), ruleset, planning))
            for h in result_state.order_of_play()}


def view_text(data: dict[str, Any]) -> str:
    """The view's text: its header comment, then the view as JSON, one key a line (JSON is
    YAML: every reader of agot's files reads it; written some fifty times faster than block
    YAML, which counts when every run of a round writes one view per house)."""
    head = "".join(f"# {line}\n" for line in
                   VIEW_HEADER.format(format=VIEW_FORMAT, house=data["house"]).splitlines())
    return head + json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def is_view(doc: Document) -> bool:
    """Whether a loaded file says it is a house view."""
    fmt = doc.data.get("format")
    return isinstance(fmt, str) and fmt.startswith("agot-view/")


def load_view(path: str | Document, ruleset: Ruleset) -> View:
    """Read a house view (a path, or the view's document when read already): safe YAML, its
    schema, its hash (a view edited by hand is refused, RUL-P8-9), then its boards."""
    doc = read_yaml(path) if isinstance(path, str) else path
    problems = schema_problems(doc, "view")
    if problems:
        raise MalformedInput(problems)
    data = doc.data
    if content_sha256(data) != data["sha256"]:
        raise IllegalInput([doc.problem(["sha256"], Msg(
            "this view was changed after the moderator's agot wrote it (its content no longer "
            "has this SHA-256): use the view attached to your latest mail"))])
    house = data["house"]
    start_decks = stand_in_decks(ruleset, {d: list(c) for d, c in data["drawn"].items()})
    boards: dict[str, GameState | None] = {}
    for key in ("board", "start", "replay"):
        if data[key] is None:
            boards[key] = None
            continue
        decks = start_decks if data[key]["phase"] == "westeros" and key != "board" else None
        boards[key] = _checked_board(doc, key, ruleset, decks, data["seed"])
    board, start, replay = boards["board"], boards["start"], boards["replay"]
    assert board is not None and start is not None
    mine = tuple(Entry(**e) for e in data["resolved"]["mine"])
    others = tuple(Entry(**e) for e in data["resolved"]["others"])
    ledger = Ledger(data["round"], data["source"]["run"], (*mine, *others))
    forced = {e.id: e.value for e in others}
    return View(doc, house, data["round"], board, start, replay, ledger, forced,
                list(data["pending"]), data["stored"], dict(data["source"]))


def _checked_board(doc: Document, key: str, ruleset: Ruleset,
                   decks: dict[str, list[str]] | None, seed: int = 0) -> GameState:
    """A view's board as a state, checked against the state schema first (a view whose
    hash fits but whose board is no state is refused, located at the board)."""
    full = _stand_in(doc.data[key], decks, seed)
    houses = full.get("houses")
    sizes = {h: v["hand"] for h, v in (houses.items() if isinstance(houses, dict) else ())
             if isinstance(v, dict) and isinstance(v.get("hand"), int)}
    for name in sizes:  # a hand's size stands for the cards, for the schema
        full["houses"][name]["hand"] = []
    problems = schema_problems(Document(doc.name, full, doc.sha256), "state")
    if problems:
        raise MalformedInput([doc.problem([key], Msg("{path}: {message}", path=p.path,
                                                     message=p.message)) for p in problems])
    for name, size in sizes.items():
        full["houses"][name]["hand"] = size
    state = _known_hands(full, ruleset)
    if state is None:
        raise IllegalInput([doc.problem([key, "houses"], Msg(
            "a hand size does not match the cards out of the discards"))])
    return state


def view_standing(view: View) -> Standing:
    """The judge's :class:`Standing` of the view's house, as far as the view tells it."""
    stand = Standing("", None, Document(view.name, {}, view.doc.sha256), view.start,  # type: ignore[arg-type]
                     view.ledger, view.pending, [])
    stand.run_from = view.replay
    stand.forced = view.forced
    stand.stopped_in = view.board.phase if view.pending else None
    return stand


@dataclass
class KitCheck:
    """``agot validate VIEW ORDERS``: the verdict, and what was read as what."""

    verdict: Verdict
    notes: list[Problem] = field(default_factory=list)
    offline: bool = True
    """False when the view cannot replay the round to its stop (see the module doc)."""


def check_with_view(view: View, paths: Sequence[str], ruleset: Ruleset,
                    names: NameIndex | None,
                    read: Callable[[str], Document] = read_yaml) -> KitCheck:
    """Each order file checked against ``view`` as ``agot inbox`` checks it as a message of the
    view's house (RUL-P8-8): names read as ids (RUL-P8-2), merged over the house's stored
    submission, the one verdict. A file of another house, or of another round than the
    view's, is refused at its ``house:`` or ``round:`` (RUL-P8-9). ``read``: how a file is
    read (the command's own reader, so that it is read once)."""
    notes: list[Problem] = []
    given, load_problems = read_submissions(list(paths), names, notes, read=read)
    wrong: list[Problem] = []
    kept: list[Document] = []
    for doc in given:
        house, round_ = doc.data.get("house"), doc.data.get("round")
        if house != view.house:
            wrong.append(doc.problem(["house"], Msg(
                "this is {view}, the view of {owner}: orders for {house} are checked on "
                "{house}'s own view (its mail's attachment)", view=view.name, owner=view.house,
                house=house if isinstance(house, str) else Msg("no house"))))
        elif round_ != view.round:
            wrong.append(doc.problem(["round"], Msg(
                "the file is for round {round}, the view {view} is of round {view_round}: "
                "check it on the view of its round", round=round_, view=view.name,
                view_round=view.round)))
        else:
            kept.append(doc)
    stand = view_standing(view)
    stored = None
    if view.stored is not None:
        stored = Document(f"{view.house}.yaml (stored)", view.stored, "")
    offline = view.replay is not None or not (view.pending or view.ledger.entries)
    if not offline:  # no replay to the stop: the board and the questions only
        stand.ledger = Ledger(view.round)
        stand.pending = []
    out = check_given(stand, kept, load_problems, ruleset, lambda house: stored)
    out.problems[:0] = wrong
    return KitCheck(out, notes, offline)


def current_source(game_dir: str) -> tuple[int, dict[str, Any]]:
    """The round and the ``source`` (:func:`stop_source`) of a view of the current stop of
    ``game_dir``, from what identifies the stop alone (no view is built): the round's
    ``state.yaml`` and the board as it stands, each read once and checked against its schema,
    a stale ``now.yaml`` refused as every reader of the board refuses it
    (:func:`~agot_adjudicator.workflow.present.stale_board`), and the ledger's runs."""
    from agot_adjudicator.io.ledger import read_ledger
    from agot_adjudicator.workflow.present import stale_board

    now = board_now(game_dir)
    state_doc = read_yaml(str(now.round.state))
    board_doc = read_yaml(str(now.path)) if now.provisional else state_doc
    problems = schema_problems(state_doc, "state")
    if board_doc is not state_doc:
        problems += schema_problems(board_doc, "state")
    if problems:
        raise MalformedInput(problems)
    problems = stale_board(board_doc, now, state_doc.sha256)
    if problems:
        raise IllegalInput(problems)
    round_number = state_doc.data["round"]
    runs = read_ledger(now.round, round_number).runs
    return round_number, stop_source(state_doc.sha256, board_doc.sha256, runs,
                                     board_doc.data["phase"], now.provisional)


def judge_view_problems(game_dir: str, view: View) -> list[Problem]:
    """A view checked against the game directory it came from: of the current stop (its
    round and :func:`current_source`), else stale, naming both stops (RUL-P8-9)."""
    round_number, source = current_source(game_dir)
    if source == view.source and round_number == view.round:
        return []
    now = stop_words(round_number, source)
    return [view.doc.problem(["source"], Msg(
        "this view is stale: it shows {was}, the judge's board is {now}; check against the "
        "view of the latest mail", was=view.stop_words(), now=now))]


def read_view_or_none(path: str, read: Callable[[str], Document] | None = None) -> Document | None:
    """The file as a document if it says it is a house view, else None (unreadable: None);
    ``read``: how the file is read (default :func:`read_yaml`)."""
    if not Path(path).is_file():
        return None
    try:
        doc = (read or read_yaml)(path)
    except InputError:
        return None
    return doc if is_view(doc) else None
