"""The current round of a game directory as it stands, and the one verdict on its submissions.

``agot inbox``, ``agot status``, ``agot validate --game`` and ``agot adjudicate --game`` all
check a house's submission with :func:`verdict`, against the same board — the round as the
committed runs left it (RUL-P8-8) — so they give the same verdict in the same located words:

1. the checks ``adjudicate`` makes before a run (schema, round, houses, R4 legality of orders
   on a planning-phase state, bids, plan ids, answer ids: :func:`adjudicate_problems`);
2. a *check run*: the round run again from its ``state.yaml`` with every submission and the
   recorded defaults, resolving nothing beyond the decisions the committed runs resolved (the
   ledger, :mod:`~agot_adjudicator.io.ledger`) and those the committed stop asks
   (``pending.yaml``). An illegal answer is an error; a decision of the ledger that would now
   be resolved otherwise is an error (what was used stands, RUL-P8-7); orders or a bid the
   stop asks for that do not fit are errors (nothing later in the round can cure them); a
   plan that does not fit what the stop asks is a warning (it is asked again). The check run
   reveals nothing the house was not told: it goes no further than the stop;
3. warnings for plans that can never apply, on the board at the stop (``now.yaml``'s board).

Before the first run of a round there is no stop: orders of a Westeros-phase state are then
checked for what no Westeros card can cure (R4.4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.engine.decisions import AnswerError, PendingDecision
from agot_adjudicator.engine.round import Result, resolve
from agot_adjudicator.errors import InputError, MalformedInput, Problem
from agot_adjudicator.io.gamedir import RoundDir, board_now
from agot_adjudicator.io.ledger import Entry, Ledger, read_ledger
from agot_adjudicator.io.parts import (
    WESTEROS_PLANS,
    is_part_name,
    part_path,
    parts_of,
    section_part,
    submission,
    used_parts,
)
from agot_adjudicator.io.reading import Document
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.submissions import (
    Submissions,
    answer_id_problems,
    collect,
    order_problems,
)
from agot_adjudicator.io.validation import PHASE_WORDS, state_problems
from agot_adjudicator.model.naming import NameIndex
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.model.text import Msg
from agot_adjudicator.workflow.validate import (
    bid_warnings,
    empty_submission_warnings,
    engine_inputs,
    house_problems,
    plan_warnings,
    read_submissions,
    read_yaml,
    support_warnings,
)

STOP_ERROR_KINDS = ("orders", "bid")
"""Decisions whose own section answers them: at the stop that asks them, a section that does
not fit is an error at intake, since no later step of the round can cure it (RUL-P8-8)."""


@dataclass
class Standing:
    """What a game directory says of its current round (:func:`standing`)."""

    game_dir: str
    rd: RoundDir
    state_doc: Document
    state: GameState
    """The round's start (``state.yaml``)."""
    ledger: Ledger
    pending: list[dict[str, Any]] = field(default_factory=list)
    """The committed stop's decisions (``pending.yaml``); empty when the round is not stopped."""
    files: list[Path] = field(default_factory=list)
    """The round's submission files (``orders/*.yaml``)."""
    stopped_in: str | None = None
    """The phase the last run stopped in (``now.yaml``'s), None when the round is not stopped."""
    run_from: GameState | None = None
    """Where the check run starts when not at ``state``: a house view's board at the start of
    the round's planning phase (``agot validate VIEW``, :mod:`~agot_adjudicator.workflow.kit`)."""
    forced: dict[str, Any] = field(default_factory=dict)
    """Decision id → value applied first, like the recorded defaults: in a house view, what
    the committed runs resolved for the other houses (public by then, P7)."""

    @property
    def stopped(self) -> bool:
        return bool(self.pending)

    @property
    def phase(self) -> str:
        """The phase the round stands in: where its last run stopped, else the state's (the
        board as it stands, docs/protocol.md P4)."""
        return self.stopped_in or self.state.phase

    def stop_ids(self) -> frozenset[str]:
        return frozenset(str(e.get("id")) for e in self.pending)

    def house_file(self, house: str) -> Path:
        """Where ``agot inbox`` keeps the house's merged submission."""
        return self.rd.orders_dir / f"{house}.yaml"


def standing(game_dir: str, ruleset: Ruleset,
             read: Callable[[str], Document] = read_yaml) -> Standing:
    """The current round of ``game_dir``: its state (checked as ``adjudicate`` checks it), its
    ledger, the committed stop's pending decisions and its submission files. An interrupted
    commit is refused first (:func:`~agot_adjudicator.io.gamedir.board_now`). ``read``: how
    the state is read (``status`` reads each file once, :mod:`agot_adjudicator.io.recorded`)."""
    now = board_now(game_dir)
    rd = now.round
    state_doc = read(str(rd.state))
    problems = schema_problems(state_doc, "state")
    if problems:
        raise MalformedInput(problems)
    from agot_adjudicator.errors import IllegalInput

    problems = state_problems(state_doc, ruleset)
    if problems:
        raise IllegalInput(problems)
    state = GameState.from_dict(state_doc.data)
    pending: list[dict[str, Any]] = []
    stopped_in = None
    if rd.pending.is_file():
        data = read(str(rd.pending)).data.get("pending") or []
        pending = [e for e in data if isinstance(e, dict)]
    if now.provisional:  # where the run stopped: its now.yaml (a bad one tells nothing more)
        try:
            found = read(str(now.path)).data.get("phase")
        except (InputError, AttributeError):
            found = None
        stopped_in = found if found in PHASE_WORDS else None
    return Standing(game_dir, rd, state_doc, state, read_ledger(rd, state.round), pending,
                    rd.orders(), stopped_in=stopped_in)


@dataclass
class Verdict:
    """The one verdict on a round's submissions (see the module doc)."""

    problems: list[Problem] = field(default_factory=list)
    malformed: list[Problem] = field(default_factory=list)
    """The problems that are malformed input (YAML, schema); the others are illegal."""
    warnings: list[Problem] = field(default_factory=list)
    owed: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Per house, the committed stop's due decisions it still owes (pending.yaml entries)."""
    board: GameState | None = None
    """The board at the stop (the round's start before the first run)."""
    subs: Submissions | None = None
    resolved: dict[str, Any] = field(default_factory=dict)
    """Decision id → value: what the check run resolved."""
    still: list[PendingDecision] = field(default_factory=list)
    """What the check run stopped on (with the reason where a plan no longer fits)."""

    def of(self, name: str) -> tuple[list[Problem], list[Problem]]:
        """The problems and warnings located in the file ``name``."""
        return ([p for p in self.problems if p.file == name],
                [w for w in self.warnings if w.file == name])

    def error(self) -> InputError:
        illegal = [p for p in self.problems if p not in self.malformed]
        return InputError.of(self.malformed, illegal)


def round_docs(stand: Standing, replace_house: str | None = None,
               doc: Document | None = None,
               extra: Sequence[Document] = (),
               read: Callable[[str], Document] = read_yaml,
               ) -> tuple[list[Document], list[Problem]]:
    """The round's submission documents as ``adjudicate --game`` reads them, with the house's
    own file replaced by ``doc`` (a message's merged submission, checked before it is stored)
    and ``extra`` documents added; and the problems of the files that do not load. ``read``:
    how a file is read (``status`` reads each once, :mod:`agot_adjudicator.io.recorded`)."""
    paths = [str(p) for p in stand.files
             if replace_house is None or p != stand.house_file(replace_house)]
    docs, problems = read_submissions(paths, read=read)
    if doc is not None:
        docs.append(doc)
    docs.extend(extra)
    return docs, problems


def adjudicate_problems(subs: Submissions, state: GameState, ruleset: Ruleset) -> list[Problem]:
    """What ``adjudicate`` refuses before it runs a round: R4 legality of each house's orders
    on a planning-phase state, its bids and plan ids (``house_problems``), the answer ids."""
    problems: list[Problem] = []
    for house in state.order_of_play():
        section = subs.sections.get(house)
        if section is not None:
            problems.extend(house_problems(section, state, ruleset))
    problems.extend(answer_id_problems(subs, state, ruleset))
    return problems


def part_source(subs: Submissions, house: str, part: str) -> tuple[Document, tuple[Any, ...]] | None:
    """Where a house's part is written (its file and path), or None when no file gives it."""
    head = part_path(part)
    if head[0] == "answers":
        answer = subs.answers.get(head[1])
        return None if answer is None else (answer.source.doc, answer.source.path)
    section = subs.sections.get(house)
    if section is None:
        return None
    tag = part if head[0] != "bids" else "bids"
    source = section.sources.get(tag)
    if source is None:
        return None
    return source.doc, (*source.path, *head[1:]) if head[0] == "bids" else source.path


def _problem_at(subs: Submissions, state_doc: Document, house: str, parts: Sequence[str],
                message: str) -> Problem:
    for part in parts:
        found = part_source(subs, house, part)
        if found is not None:
            return found[0].problem(found[1], message)
    return state_doc.problem([], message)


def ledger_problems(ledger: Ledger, resolved: dict[str, Any], subs: Submissions,
                    state_doc: Document, complete: bool) -> list[Problem]:
    """A recorded decision (the ledger) that a run now resolves otherwise, or not at all
    although the run went past it: a part used by a committed run was changed (RUL-P8-7),
    located at the part that now gives another value."""
    problems = []
    for entry in ledger.entries:
        if entry.id in resolved and resolved[entry.id] == entry.value:
            continue
        if entry.id not in resolved and not complete:
            continue  # the run stopped before it: an earlier error is reported instead
        now = resolved.get(entry.id, Msg("nothing"))
        message = Msg("{id} was resolved by run {run} of round {round} ({by}: {value}); the "
                      "submissions now give {now}: what a committed run used stands (RUL-P8-7)",
                      id=entry.id, run=entry.run, round=ledger.round, by=entry.by,
                      value=repr(entry.value), now=repr(now) if not isinstance(now, Msg) else now)
        problems.append(_problem_at(subs, state_doc, entry.house,
                                    used_parts(entry.id, entry.kind, "plan"), message))
    return problems


def check_run(stand: Standing, subs: Submissions, ruleset: Ruleset,
              horizon: frozenset[str] | None) -> Result:
    """The round run again with ``subs`` and the recorded defaults, resolving nothing beyond
    the ledger and ``horizon`` (see the module doc); :class:`AnswerError` for an illegal
    answer."""
    inputs, answers = engine_inputs(subs)
    known = frozenset(e.id for e in stand.ledger.entries)
    start = stand.state if stand.run_from is None else stand.run_from
    return resolve(ruleset, start, inputs, answers,
                   recorded={**stand.forced, **stand.ledger.defaults()},
                   horizon=known | (horizon or frozenset()))


def verdict(stand: Standing, docs: Sequence[Document], ruleset: Ruleset,
            load_problems: Sequence[Problem] = (), new: Sequence[str] = ()) -> Verdict:
    """The one verdict on the round's submission documents ``docs`` (see the module doc).

    ``new``: the documents (by name) that arrive now — a message's parts, the files given to
    ``validate --game``: orders or a bid in them that do not fit what the stop asks are errors.
    The same in a part stored before the stop is what the stop asks again (a warning, and the
    house owes it)."""
    out = Verdict(problems=list(load_problems), malformed=list(load_problems))
    state = stand.state
    subs, problems = collect(docs, state, ruleset)
    out.subs = subs
    out.problems.extend(problems)
    out.problems.extend(adjudicate_problems(subs, state, ruleset))
    board = state
    if not out.problems and (stand.ledger.entries or stand.stopped):
        at_stop = _board_at_stop(stand, subs, ruleset, out)
        if at_stop is None:
            return out
        board = at_stop
        _stop_checks(stand, subs, ruleset, out, new)
    elif not out.problems and state.phase == "westeros":
        for house in state.order_of_play():
            section = subs.sections.get(house)
            if section is not None:
                out.problems.extend(order_problems(section, state, ruleset, lasting=True))
    out.board = board
    if not out.problems:
        _warnings(stand, subs, board, ruleset, out)
    _owed(stand, subs, out)
    return out


def _board_at_stop(stand: Standing, subs: Submissions, ruleset: Ruleset,
                   out: Verdict) -> GameState | None:
    """The board where the committed runs stopped: the round run again with nothing beyond
    the ledger (the check run with an empty horizon)."""
    try:
        result = check_run(stand, subs, ruleset, frozenset())
    except AnswerError as exc:
        out.problems.extend(exc.problems)
        return None
    resolved = {r.id: r.value for r in result.resolved}
    out.problems.extend(ledger_problems(stand.ledger, resolved, subs, stand.state_doc,
                                        result.status == "complete"))
    return result.state


def _stop_checks(stand: Standing, subs: Submissions, ruleset: Ruleset, out: Verdict,
                 new: Sequence[str]) -> None:
    """The check run up to the committed stop's decisions: illegal answers; orders and bids
    the stop asks for that do not fit (errors in a ``new`` document); plans that do not fit
    (warnings)."""
    stop = stand.stop_ids()
    try:
        result = check_run(stand, subs, ruleset, stop)
    except AnswerError as exc:
        out.problems.extend(exc.problems)
        return
    out.resolved = {r.id: r.value for r in result.resolved}
    for pending in result.pending:
        request = pending.request
        if request.id not in stop or pending.reason is None:
            continue
        part = section_part(request.id, request.kind)
        if part is None:
            continue
        where = part_source(subs, request.house, part)
        if where is None:
            continue
        message = Msg("{id}: {reason}", id=request.id, reason=pending.reason)
        problem = where[0].problem(where[1], message)
        error = request.kind in STOP_ERROR_KINDS and where[0].name in new
        (out.problems if error else out.warnings).append(problem)
    out.still = list(result.pending)


def _closed(ledger: Ledger) -> dict[str, dict[str, Entry]]:
    """Per house, the parts its recorded decisions closed (:func:`used_parts`)."""
    closed: dict[str, dict[str, Entry]] = {}
    for entry in ledger.entries:
        for part in used_parts(entry.id, entry.kind, entry.by):
            closed.setdefault(entry.house, {}).setdefault(part, entry)
    return closed


def closed_parts(ledger: Ledger, house: str) -> dict[str, Entry]:
    """The parts of ``house`` that stand: used by a committed run (RUL-P8-7), with the
    recorded decision that used each first."""
    return _closed(ledger).get(house, {})


@dataclass
class MergePlan:
    """What a message (or a file given to ``validate --game``) changes in a house's stored
    submission, part by part (RUL-P8-3, RUL-P8-7)."""

    taken: dict[str, Any] = field(default_factory=dict)
    withdrawn: list[str] = field(default_factory=list)
    refused: dict[str, tuple[str, Any]] = field(default_factory=dict)
    """Not taken: ``("stands", ledger entry)`` or ``("newer", (time, message number))``."""
    same: list[str] = field(default_factory=list)
    """Parts it carries that are stored with that value already."""
    absent: list[str] = field(default_factory=list)
    """Parts it withdraws that are not stored."""
    unknown: list[str] = field(default_factory=list)
    """What it withdraws that names no part."""
    later: dict[str, Any] = field(default_factory=dict)
    """Westeros plans whose part this round already used: kept for the next round's Westeros
    phase instead (RUL-P8-6)."""


_ABSENT = object()


def plan_merge(stored: dict[str, Any], parts: dict[str, Any], withdraw: Sequence[str],
               closed: dict[str, Entry], times: dict[str, tuple[Any, int]] | None = None,
               mine: Any = None) -> MergePlan:
    """Which of ``parts`` (and of the parts named in ``withdraw``) change ``stored``: a part
    a committed run used stands (``closed``: it may be sent again unchanged); a part a newer
    message gave stands (``times``: when each stored part last changed, compared with
    ``mine``); a Westeros plan whose part this round used is kept for the next round
    (``later``); the rest is taken or withdrawn."""
    plan = MergePlan()
    times = times or {}
    westeros = {f"plans.{key}" for key in WESTEROS_PLANS}
    for part, value in parts.items():
        if part in closed:
            was = stored.get(part, closed[part].value if part.startswith("answers.") else _ABSENT)
            if was == value:
                plan.same.append(part)
            elif part in westeros:
                plan.later[part] = value
            else:
                plan.refused[part] = ("stands", closed[part])
        elif part in times and mine is not None and times[part][0] > mine:
            plan.refused[part] = ("newer", times[part])
        elif stored.get(part, _ABSENT) == value:
            plan.same.append(part)
        else:
            plan.taken[part] = value
    for part in withdraw:
        if not is_part_name(part):
            plan.unknown.append(part)
        elif part in closed:
            plan.refused[part] = ("stands", closed[part])
        elif part in times and mine is not None and times[part][0] > mine:
            plan.refused[part] = ("newer", times[part])
        elif part in stored:
            plan.withdrawn.append(part)
        else:
            plan.absent.append(part)
    return plan


def _in_closed(problem: Problem, closed: dict[str, Entry], doc_paths: dict[str, str]) -> bool:
    return any(problem.path == path or problem.path.startswith(path + ".")
               or problem.path.startswith(path + "[") for part, path in doc_paths.items()
               if part in closed)


def _warnings(stand: Standing, subs: Submissions, board: GameState, ruleset: Ruleset,
              out: Verdict) -> None:
    """Warnings for what can never apply, on the board at the stop; none for a part that
    already stands (its decisions are taken)."""
    from agot_adjudicator.io.reading import json_path
    from agot_adjudicator.workflow.validate import early_order_warnings

    found: list[Problem] = []
    if not stand.stopped and not stand.ledger.entries and board.phase == "westeros":
        for house in board.order_of_play():
            if house in subs.sections:
                found.extend(early_order_warnings(subs.sections[house], board, ruleset))
    found.extend(support_warnings(subs, board, ruleset) if board.phase == "planning" else [])
    found.extend(plan_warnings(subs, board, ruleset))
    found.extend(bid_warnings(subs, board, ruleset) if not stand.ledger.entries else [])
    found.extend(empty_submission_warnings(subs.docs))
    closed = _closed(stand.ledger)
    for warning in found:
        shut = closed.get(_house_of_file(subs, warning.file) or "", {})
        paths = {part: json_path(part_path(part)) for part in shut}
        if not shut or not _in_closed(warning, shut, paths):
            out.warnings.append(warning)


def _house_of_file(subs: Submissions, name: str) -> str | None:
    for doc in subs.docs:
        if doc.name == name:
            house = doc.data.get("house")
            return house if isinstance(house, str) else None
    return None


def _owed(stand: Standing, subs: Submissions, out: Verdict) -> None:
    """Per house, the committed stop's due decisions (not asked ahead) it has not answered:
    resolved by the check run, or, where the run did not reach them, given by an answer or
    by the section or plan of their kind; before round 1's first run, every house's orders."""
    state = stand.state
    entries = [e for e in stand.pending if not e.get("ahead")]
    if not stand.stopped and not stand.ledger.entries and state.phase == "planning":
        entries = [{"id": f"r{state.round}/orders/{h}", "house": h, "kind": "orders",
                    "default": {}} for h in state.order_of_play()]
    still = {p.request.id: p for p in out.still}
    refused = {p.file for p in out.problems}
    for entry in entries:
        house, ident, kind = str(entry.get("house")), str(entry.get("id")), str(entry.get("kind"))
        if ident in out.resolved:
            continue
        pending: PendingDecision | None = still.get(ident)
        answer = subs.answers.get(ident)
        answered = answer is not None and answer.source.doc.name not in refused
        if pending is None and (answered or _has_part(subs, house, ident, kind, refused)):
            continue
        if pending is not None and pending.reason is None and ident in subs.answers:
            continue
        out.owed.setdefault(house, []).append(
            entry if pending is None or pending.reason is None
            else {**entry, "reason": str(pending.reason)})


def _has_part(subs: Submissions, house: str, ident: str, kind: str,
              refused: set[str]) -> bool:
    """Whether a file without problems gives the section or plan that answers a decision."""
    part = section_part(ident, kind)
    where = part_source(subs, house, part) if part is not None else None
    return where is not None and where[0].name not in refused


def stands_message(part: str, entry: Entry, round_number: int) -> Msg:
    """A located problem's words for a part that cannot change (RUL-P8-7)."""
    return Msg("{part} was used by run {run} of round {round} ({id}): what a committed run "
               "used stands (RUL-P8-7)", part=part, run=entry.run, round=round_number,
               id=entry.id)


def check_files(game_dir: str, ruleset: Ruleset, paths: Sequence[str],
                names: NameIndex | None = None,
                notes: list[Problem] | None = None) -> Verdict:
    """``agot validate --game DIR FILE...``: each FILE checked as ``agot inbox`` would check it
    as a message of its house — merged part by part over the house's stored submission, a part
    already used standing — with the one verdict; a file without ``house:`` (the moderator's
    answers) is checked beside the round's files. Without FILEs, the round's own files."""
    stand = standing(game_dir, ruleset)
    if not paths:
        docs, problems = round_docs(stand)
        return verdict(stand, docs, ruleset, problems)
    given, load_problems = read_submissions(list(paths), names, notes)
    return check_given(stand, given, load_problems, ruleset,
                       lambda house: _stored_doc(stand, house))


def check_given(stand: Standing, given: Sequence[Document], load_problems: Sequence[Problem],
                ruleset: Ruleset, stored_of: Any) -> Verdict:
    """The files ``given`` checked as messages of their houses (see :func:`check_files`):
    each merged over its house's stored submission (``stored_of(house)``: a document, or
    None), beside the round's other files."""
    replaced: dict[str, list[Document]] = {}
    extra: list[Document] = []
    refused: list[Problem] = []
    for doc in given:
        house = doc.data.get("house")
        if not isinstance(house, str) or house not in stand.state.houses:
            extra.append(doc)
            continue
        stored_doc = stored_of(house)
        stored = parts_of(stored_doc.data) if stored_doc is not None else {}
        data = dict(doc.data)
        withdraw = [str(w) for w in data.pop("withdraw", None) or []]
        plan = plan_merge(stored, parts_of(data), withdraw, closed_parts(stand.ledger, house))
        for part, (_, entry) in plan.refused.items():
            refused.append(doc.problem(part_path(part), stands_message(part, entry,
                                                                        stand.state.round)))
        for part in plan.unknown:
            refused.append(doc.problem(["withdraw"], Msg(
                "'{part}' names no part of a submission (orders, bids.TRACK, wildlings, "
                "plans.KEY, answers.ID)", part=part)))
        head = {"format": "agot-orders/1", "round": data["round"], "house": house}
        keep = {p: v for p, v in stored.items() if p not in plan.taken
                and p not in plan.withdrawn}
        docs = replaced.setdefault(house, [])
        if keep and stored_doc is not None:
            docs.append(Document(stored_doc.name, submission(head, keep), stored_doc.sha256,
                                 stored_doc.positions, stored_doc.key_positions))
        docs.append(Document(doc.name, {**submission(head, plan.taken),
                                        **{k: data[k] for k in ("round",) if k in data}},
                             doc.sha256, doc.positions, doc.key_positions))
    files = [p for p in stand.files if not any(p == stand.house_file(h) for h in replaced)]
    base, problems = read_submissions([str(p) for p in files])
    docs = [*base, *(d for h in replaced for d in replaced[h]), *extra]
    out = verdict(stand, docs, ruleset, [*problems, *load_problems], [d.name for d in given])
    out.problems[:0] = refused
    return out


def _stored_doc(stand: Standing, house: str) -> Document | None:
    path = stand.house_file(house)
    if not path.is_file():
        return None
    try:
        return read_yaml(str(path))
    except InputError:
        return None
