"""File-level use cases between the CLI and the pure engine: load, check, run, write."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.engine.context import Inputs
from agot_adjudicator.engine.decisions import BY_DEFAULT
from agot_adjudicator.engine.round import Result
from agot_adjudicator.errors import IllegalInput, InputError, MalformedInput, Problem, UsageError
from agot_adjudicator.io.formats import MAKER
from agot_adjudicator.io.ledger import Entry, Ledger
from agot_adjudicator.io.reading import Document, load_yaml
from agot_adjudicator.io.rulesets import ruleset_changes
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.submissions import Submissions, answer_id_problems, collect
from agot_adjudicator.io.validation import state_problems
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import STATE_VERSION, GameState
from agot_adjudicator.workflow.present import now_text, state_text
from agot_adjudicator.workflow.run_options import NO_OPTIONS, RunOptions
from agot_adjudicator.workflow.validate import (  # noqa: F401 (engine_inputs: bench/)
    engine_inputs,
    house_problems,
    load_state,
    load_submissions,
    read_yaml,
    run_round,
)

# --- adjudicate ----------------------------------------------------------------------------



@dataclass
class Adjudication:
    """Outcome of ``agot adjudicate`` before anything is written."""

    result: Result
    state_doc: Document
    docs: list[Document]
    inputs: Inputs = field(default_factory=Inputs)
    """What was submitted (the report's ``--private`` section shows one house's bids)."""
    moved: dict[str, Any] | None = None
    """The ruleset the game moved on from with this round, and the rule changes."""
    subs: Submissions | None = None
    """The submissions as merged (io.submissions.collect)."""


def adjudicate_files(state_path: str, orders_paths: Sequence[str], ruleset: Ruleset,
                     options: RunOptions = NO_OPTIONS,
                     moved_from: Ruleset | None = None,
                     recorded: dict[str, Any] | None = None,
                     read: Callable[[str], Document] = read_yaml) -> Adjudication:
    """Load, check and resolve files; raise :class:`MalformedInput` or :class:`IllegalInput`.

    ``moved_from``: the state is played under that ruleset and the game moves on to
    ``ruleset`` with this round (``adjudicate --game DIR --move-ruleset``). ``recorded``: the
    defaults of the round's ledger (replay). ``read``: how a file is read (replay reads each
    recorded file once, :class:`~agot_adjudicator.io.recorded.RecordedFiles`).
    """
    problems: list[Problem] = []
    state_doc = None
    try:
        state_doc = read(state_path)
        problems.extend(schema_problems(state_doc, "state"))
    except InputError as exc:
        problems.extend(exc.problems)
    try:
        docs = load_submissions(orders_paths, read)
    except InputError as exc:
        problems.extend(exc.problems)
        docs = []
    if problems or state_doc is None:
        raise MalformedInput(problems)
    moved = None
    if moved_from is not None:
        problems = state_problems(state_doc, moved_from)
        if problems:
            raise IllegalInput(problems)
        moved = {"from": {"name": moved_from.name, "sha256": moved_from.sha256},
                 "changes": ruleset_changes(moved_from, ruleset)}
        state_doc = Document(state_doc.name, {**state_doc.data, "ruleset": {
            "name": ruleset.name, "sha256": ruleset.sha256}}, state_doc.sha256,
            state_doc.positions, state_doc.key_positions)  # the file's document stays as read
    return adjudicate_docs(state_doc, docs, ruleset, options, moved, recorded)


def adjudicate_docs(state_doc: Document, docs: Sequence[Document], ruleset: Ruleset,
                    options: RunOptions = NO_OPTIONS,
                    moved: dict[str, Any] | None = None,
                    recorded: dict[str, Any] | None = None) -> Adjudication:
    """Check schema-valid documents against the rules and resolve (R2–R13); input that breaks
    a rule raises :class:`IllegalInput`. ``recorded``: the defaults of the round's ledger
    (decision id → value, P2), applied again."""
    problems = state_problems(state_doc, ruleset)
    if problems:
        raise IllegalInput(problems)
    state = GameState.from_dict(state_doc.data)
    check_houses(options.nmr, state)
    subs, problems = collect(docs, state, ruleset)
    for house in state.order_of_play():
        section = subs.sections.get(house)
        if section is not None:
            problems.extend(house_problems(section, state, ruleset))
    problems.extend(answer_id_problems(subs, state, ruleset))
    if problems:
        raise IllegalInput(problems)
    inputs, result = run_round(subs, state, ruleset, options.nmr, options.defaults, recorded)
    if result.status == "complete":
        result.state.chain = chain_record(state_doc, docs, options, moved)
    return Adjudication(result, state_doc, list(docs), inputs, moved, subs)


def check_houses(nmr: Sequence[str], state: GameState) -> None:
    """An ``--nmr`` house that is not in play is a usage error (exit 2)."""
    for house in nmr:
        if house not in state.houses:
            raise UsageError(f"--nmr {house}: not a house in play "
                             f"({', '.join(state.order_of_play())})")


def chain_record(state_doc: Document, docs: Sequence[Document], options: RunOptions = NO_OPTIONS,
                 moved: dict[str, Any] | None = None) -> dict[str, Any]:
    """The hash chain a next state carries: SHA-256 of the state it came from and of every
    submission file (by file name), the ``--nmr``/``--defaults`` used, and the ruleset the
    game moved on from with the rule changes, so a record cannot be changed unnoticed and
    ``agot replay`` can run it again. The writer adds ``written_by`` (workflow.present)."""
    subs = sorted((Path(d.name).name, d.sha256) for d in docs)
    chain: dict[str, Any] = {
        "previous_state": state_doc.sha256,
        "submissions": [{"file": name, "sha256": digest} for name, digest in subs]}
    if options.chain() is not None:
        chain["options"] = options.chain()
    if moved is not None:
        chain["ruleset_moved"] = moved
    return chain


@dataclass
class Outputs:
    """The texts an adjudication writes: next state (complete runs only), report, log, pending."""

    state: str | None
    report: str
    log: str
    pending: str | None
    board: str | None = None
    moves: str | None = None
    """The round as played (orders, marches, battles), drawn with the board."""
    now: str | None = None
    """A stopped run's provisional state: the board as far as it got (docs/protocol.md P4)."""
    now_picture: str | None = None
    """Its picture (game directories)."""


BOARD_FILE = "board.svg"
MOVES_FILE = "moves.svg"
NOW_FILE = "now.yaml"
NOW_PICTURE = "now.svg"


def round_pictures() -> list[tuple[str, str]]:
    """The pictures a completed round's report and mail name, labelled in the speaker's
    language: one home for both (:func:`~agot_adjudicator.render.report.picture_links`)."""
    from agot_adjudicator.render.language import tr

    return [(tr("The round as played"), MOVES_FILE), (tr("The board after the round"), BOARD_FILE)]


def render_outputs(run: Adjudication, ruleset: Ruleset, *, board: bool = False,
                   fmt: str = "markdown", private_house: str | None = None,
                   maker: str = MAKER, state_version: int = STATE_VERSION,
                   now: bool = False, lang: str = "en") -> Outputs:
    """Render everything a run writes; the report ends with the hash-chain record.

    ``board``: also draw the board after a complete round (``agot map``) and the
    round as played (``agot map --game``), linked from the report as ``board.svg``
    and ``moves.svg``; after a stopped run, the provisional state (``now.yaml``) and
    its picture (``now.svg``) (game directories). ``now``: the provisional state of
    a stopped run (``adjudicate --now FILE``). ``fmt`` is the report
    format (markdown or text); ``private_house`` appends that house's hand, bids
    and pending questions to the report. ``maker`` and ``state_version``: the
    release named as writer and the state format version (replay passes a
    record's own, to compare it with what this release writes). ``lang``: the language of the
    report and the pictures (``en``, ``zh-Hans``, ``zh-Hant``; recorded in the report's record
    section when not English, so that replay renders both again in it).
    """
    from agot_adjudicator.render.language import Names
    from agot_adjudicator.render.report import (
        Private,
        picture_links,
        render_log,
        render_pending,
        render_report,
        report_title,
    )

    result = run.result
    with Names(ruleset, lang).speaking():
        title = report_title(result.state.game_id, run.state_doc.data["round"])
    private = None
    if private_house is not None:
        if private_house not in result.state.houses:
            raise UsageError(f"--private {private_house}: not a house in play "
                             f"({', '.join(result.state.order_of_play())})")
        mine = run.inputs.of(private_house)
        private = Private(private_house, mine.bids, mine.wildlings)
    report = render_report(title, result.events, result.state, ruleset, result.pending, fmt=fmt,
                           private=private, lang=lang)
    state = None
    pending = None
    picture = moves = None
    if result.status == "complete":
        state = state_text(result.state, ruleset, maker=maker, version=state_version)
        if board:
            from agot_adjudicator.render.picture import render_round_svg, render_svg

            picture = render_svg(result.state, ruleset, maker=maker, lang=lang)
            moves = render_round_svg(GameState.from_dict(run.state_doc.data), result.events, ruleset,
                                     maker, lang=lang)
            with Names(ruleset, lang).speaking():
                report += picture_links(fmt, round_pictures())
    else:
        with Names(ruleset, lang).speaking():
            pending = render_pending(result.pending)
    now_state = now_picture = None
    if pending is not None and (board or now):
        now_state = now_text(result.state, ruleset, run.state_doc.sha256,
                             [p.request.id for p in result.pending], maker=maker)
        if board:
            from agot_adjudicator.render.picture import render_svg

            # Orders on a stopped run's board are revealed (R4.5): drawn face up.
            now_picture = render_svg(result.state, ruleset, orders=True, maker=maker,
                                     provisional=True, lang=lang)
    report += record_text(run, state, fmt, maker, lang, ruleset)
    return Outputs(state, report, render_log(result.events, maker), pending, picture, moves,
                   now_state, now_picture)


def record_text(run: Adjudication, next_state: str | None, fmt: str = "markdown",
                maker: str = MAKER, lang: str = "en", ruleset: Ruleset | None = None) -> str:
    """The report's closing "Record" section: who wrote it, the ruleset moved on from (and
    the rule changes), and the hashes that chain this round to the last; in a language other
    than English, a ``language`` line (what replay renders the file in again)."""
    from agot_adjudicator.render.language import Names
    from agot_adjudicator.render.language import file_name_text as named

    if lang == "en" or ruleset is None:
        return _record_lines(run, next_state, fmt, maker, named, lang)
    with Names(ruleset, lang).speaking():
        return _record_lines(run, next_state, fmt, maker, named, lang)


def _record_lines(run: Adjudication, next_state: str | None, fmt: str, maker: str,
                  named: Any, lang: str) -> str:
    from agot_adjudicator.render.language import tr
    from agot_adjudicator.render.tables import columns

    q = "`" if fmt == "markdown" else ""
    head = tr("Record")
    lines = ["", f"## {head}" if fmt == "markdown" else f"{head}\n{'-' * columns(head)}", "",
             tr("- written by: {maker}", maker=maker)]
    if lang != "en":
        lines.append(tr("- language: {lang}", lang=lang))
    if run.moved is not None:
        old, data = run.moved["from"], run.state_doc.data["ruleset"]
        lines.append(tr("- ruleset moved on from {old} {old_sha} to {new} {new_sha} with this "
                        "round; rule changes:", old=old["name"], old_sha=f"{q}{old['sha256']}{q}",
                        new=data["name"], new_sha=f"{q}{data['sha256']}{q}"))
        lines.extend(f"  - {change}" for change in run.moved["changes"] or [tr("none")])
    lines += [tr("- state in: {name} sha256 {sha}", name=f"{q}{named(Path(run.state_doc.name).name)}{q}",
                 sha=f"{q}{run.state_doc.sha256}{q}")]
    for doc in sorted(run.docs, key=lambda d: (Path(d.name).name, d.sha256)):
        lines.append(tr("- submission: {name} sha256 {sha}", name=f"{q}{named(Path(doc.name).name)}{q}",
                        sha=f"{q}{doc.sha256}{q}"))
    if next_state is not None:
        digest = hashlib.sha256(next_state.encode("utf-8")).hexdigest()
        lines.append(tr("- state out: sha256 {sha}", sha=f"{q}{digest}{q}"))
    else:
        lines.append(tr("- state out: none (stopped on pending decisions)"))
    return "\n".join(lines) + "\n"


# --- game directories, what-if ---------------------------------------------------------------

@dataclass
class GameRound:
    """An adjudication of a game directory's current round and where its outputs go."""

    run: Adjudication
    round: Any  # gamedir.RoundDir
    next_state: Path
    ledger: Ledger | None = None
    """The round's ledger once this run is committed (written with its outputs)."""
    defaulted: list[Entry] = field(default_factory=list)
    """The defaults this run applied first (``--nmr``, ``--defaults``): recorded in the ledger."""
    next_files: dict[str, str] = field(default_factory=dict)
    """The next round's files besides its state: the plans that stand into it (RUL-P8-6)."""


def adjudicate_game(game_dir: str, ruleset: Ruleset, options: RunOptions = NO_OPTIONS,
                    moved_from: Ruleset | None = None) -> GameRound:
    """Adjudicate the current round of a game directory (docs/protocol.md P4) under ``ruleset``
    (the one its state names; with ``moved_from``, the game moves on from that one to
    ``ruleset``).

    The submissions are checked first with the verdict ``agot inbox`` and ``agot status`` give
    (:func:`~agot_adjudicator.workflow.standing.verdict`). The run applies the round's recorded
    defaults again; ``--nmr HOUSE`` and ``--defaults`` default only the decisions the round
    owes at its current stop — where the run stops with the submissions as they stand — and
    those defaults are recorded in the ledger, so that no later run needs the option again
    (RUL-P2-2). A decision the ledger records that the run would now resolve otherwise is
    refused (RUL-P8-7)."""
    from agot_adjudicator.workflow.standing import ledger_problems, round_docs, standing, verdict

    stand = standing(game_dir, moved_from or ruleset)
    if stand.state.phase == "ended":
        raise UsageError(f"{stand.rd.state}: the game has ended; nothing to adjudicate")
    check_houses(options.nmr, stand.state)
    docs, problems = round_docs(stand)
    if problems:
        raise MalformedInput(problems)
    moved = None
    if moved_from is not None:
        moved = {"from": {"name": moved_from.name, "sha256": moved_from.sha256},
                 "changes": ruleset_changes(moved_from, ruleset)}
        stand.state_doc.data["ruleset"] = {"name": ruleset.name, "sha256": ruleset.sha256}
    checked = verdict(stand, docs, ruleset)
    if checked.problems:
        raise checked.error()
    recorded = stand.ledger.defaults()
    run = adjudicate_docs(stand.state_doc, docs, ruleset, moved=moved, recorded=recorded)
    owed = [p for p in run.result.pending if not p.ahead
            and (options.defaults or p.request.house in options.nmr)]
    new = [Entry(stand.ledger.runs + 1, p.request.id, p.request.house, p.request.kind,
                 BY_DEFAULT, p.request.default) for p in owed]
    if new:
        run = adjudicate_docs(stand.state_doc, docs, ruleset, moved=moved,
                              recorded={**recorded, **{e.id: e.value for e in new}})
    assert run.subs is not None
    complete = run.result.status == "complete"
    problems = ledger_problems(stand.ledger, {r.id: r.value for r in run.result.resolved},
                               run.subs, stand.state_doc, complete)
    if problems:
        raise IllegalInput(problems)
    ledger = stand.ledger.after(run.result.resolved, new)
    if complete and run.result.state.chain is not None:
        run.result.state.chain["decisions"] = ledger.chain_entry()
    # a file the moderator put in the next round's folder already stands for its house
    placed = [h for h in stand.state.houses
              if (stand.rd.following().orders_dir / f"{h}.yaml").exists()]
    return GameRound(run, stand.rd, stand.rd.following().state, ledger, new,
                     standing_plans(run, stand.rd, placed) if complete else {})


def standing_plans(run: Adjudication, rd: Any, placed: Sequence[str] = ()) -> dict[str, str]:
    """The files of the plans that stand from a completed round into the next (RUL-P8-6):
    its Westeros plans, and those its messages sent ahead (``round-NN/ahead/``); none for the
    ``placed`` houses, whose file the moderator put in the next round's folder."""
    from agot_adjudicator.io.stored import AHEAD, carried_files, received_files

    if run.subs is None or run.result.state.phase == "ended":
        return {}
    plans = {h: s.plans for h, s in run.subs.sections.items() if h not in placed}
    ahead = {h: paths for h, paths in received_files(rd.path, AHEAD).items() if h not in placed}
    return carried_files(plans, run.result.state.round, ahead, rd.path.parent)


def _ledger_beside(state_path: str) -> Ledger | None:
    """The ledger of a game directory's round whose ``state.yaml`` is ``state_path``, if it
    has one: ``whatif`` applies its recorded defaults as the round's runs did (P4)."""
    from agot_adjudicator.io.gamedir import RoundDir
    from agot_adjudicator.io.ledger import LEDGER, read_ledger

    folder = Path(state_path).parent
    if not (folder / LEDGER).is_file():
        return None
    data = load_yaml(state_path).data
    number = data.get("round") if isinstance(data, dict) else None
    return read_ledger(RoundDir(0, folder), number if isinstance(number, int) else 0)


@dataclass
class WhatIf:
    """A re-run with corrected submissions and what differs from the published next state."""

    outputs: Outputs
    changes: list[str]
    run: Adjudication


def whatif_files(state_path: str, orders_paths: Sequence[str], published_path: str,
                 ruleset: Ruleset, options: RunOptions = NO_OPTIONS,
                 view: str | None = None, lang: str = "en") -> WhatIf:
    """Adjudicate again and compare the result with the published next state (written as
    its maker wrote it: its release and state format version), ``published → what-if``.
    ``view``: None (the moderator's, everything), ``public`` or a house
    (:mod:`agot_adjudicator.render.public`): the changes that view may see. ``lang``: the
    language of the report and of the differences."""
    from agot_adjudicator.render.diff import explain_state_texts
    from agot_adjudicator.render.language import Names
    from agot_adjudicator.render.public import view_changes
    from agot_adjudicator.workflow.present import recorded_writer

    maker, version = recorded_writer(load_yaml(published_path).data)
    load_state(published_path, ruleset)
    ledger = _ledger_beside(state_path)
    run = adjudicate_files(state_path, orders_paths, ruleset, options,
                           recorded=ledger.defaults() if ledger is not None else None)
    if ledger is not None and run.result.status == "complete" and run.result.state.chain:
        run.result.state.chain["decisions"] = (
            ledger.before_last().after(run.result.resolved).chain_entry())
    outputs = render_outputs(run, ruleset, lang=lang)
    if outputs.state is None:
        return WhatIf(outputs, [], run)
    from agot_adjudicator.io.reading import MAX_BYTES
    from agot_adjudicator.io.safefile import read_bounded

    published = read_bounded(published_path, MAX_BYTES).decode("utf-8")  # loaded above: valid
    expected = state_text(run.result.state, ruleset, maker=maker, version=version)
    with Names(ruleset, lang).speaking():
        changes = [] if published == expected else explain_state_texts(
            published, expected, ruleset, labels=("published", "what-if"),
            keep=None if view is None else (lambda found: view_changes(found, view)))
    return WhatIf(outputs, changes, run)
