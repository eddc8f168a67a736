"""``agot replay``: re-adjudicate every recorded round of a game directory and check the record.

A record is consistent when round-01's state is what ``agot new`` gives for its
seed, houses and game id, and every ``round-(N+1)/state.yaml`` is byte for byte
what adjudicating ``round-N`` with its recorded submissions gives. The next
state's hash chain (``chain:``) names the SHA-256 of the state and of every
submission it came from, so a file changed after the fact is named as such.

Each round is re-adjudicated under the ruleset its state names (the game's
``rulesets/`` folder, the packaged ruleset or the package's archive), or the
one the game moved on to with that round (``chain.ruleset_moved``). The next
state is written as its maker wrote it (its format version, its
``written_by``), so records of earlier releases are compared byte for byte too.

The round's ``report.md``, ``log.jsonl``, ``board.svg`` and ``moves.svg`` were written by the
release named in the next state. Written by this release, they must be the same
bytes. Written by another, they may differ in wording and layout: the log is
then compared event by event on game content — each event's type and fields,
except :data:`PROSE_FIELDS` — and only a difference there is a mismatch.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import IllegalInput, InputError, Problem, UsageError, escaped
from agot_adjudicator.io.commit import COMMIT_DIR, pending_commit
from agot_adjudicator.io.formats import MAKER
from agot_adjudicator.io.gamedir import RoundDir, round_dir_name, round_dirs
from agot_adjudicator.io.ledger import LEDGER, Ledger, read_ledger
from agot_adjudicator.io.reading import load_yaml
from agot_adjudicator.io.recorded import RecordedFiles
from agot_adjudicator.io.rulesets import from_package, named_ruleset
from agot_adjudicator.io.safefile import ReadRefused, escaping_links, read_bounded
from agot_adjudicator.io.stored import (
    AHEAD,
    CARRIED,
    RECEIVED,
    merge_received,
    received_files,
    stored_text,
)
from agot_adjudicator.io.validation import provisional_problems
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import STATE_VERSION, WINNER_REASONS, winner_reason
from agot_adjudicator.render.diff import explain_state_texts
from agot_adjudicator.render.i18n import recorded_language
from agot_adjudicator.render.report import is_record_line
from agot_adjudicator.workflow.adjudicate import (
    Adjudication,
    Outputs,
    RunOptions,
    adjudicate_files,
    render_outputs,
)
from agot_adjudicator.workflow.present import new_game_text, recorded_writer
from agot_adjudicator.workflow.standing import ledger_problems
from agot_adjudicator.workflow.validate import load_state

OK, MISMATCH, PENDING, OPEN, FINAL = "ok", "MISMATCH", "pending", "open", "final"

RECORD_LIMIT = 8 * 1024 * 1024
"""Recorded outputs larger than this (8 MiB; the demo's largest is under 100 KiB) are a
difference, never read whole. Inputs (states, submissions) keep the 1 MiB input limit."""


@dataclass(frozen=True)
class Rendered:
    """What re-rendering a round's outputs needs: the run and what it was written with."""

    run: Any
    ruleset: Ruleset
    maker: str
    version: int

    def outputs(self, lang: str) -> Any:
        """The round's outputs (report, pictures, ...) written again in ``lang``, as its
        writer wrote them."""
        return render_outputs(self.run, self.ruleset, board=True, maker=self.maker,
                              state_version=self.version, lang=lang)


@dataclass
class RoundCheck:
    """What replay found for one round folder."""

    folder: str
    round: int | None = None
    phase: str = ""
    submissions: int = 0
    status: str = OK
    details: list[str] = field(default_factory=list)
    written_by: str = ""
    """The release that wrote the round's outputs (the next state's ``written_by``)."""
    rendered: Rendered | None = field(default=None, repr=False, compare=False)
    """The round as re-adjudicated, kept when asked (``keep``) for
    :func:`~agot_adjudicator.workflow.translate.translated_record`."""

    @property
    def failed(self) -> bool:
        return self.status == MISMATCH


@dataclass
class Replay:
    """All round checks of a game directory, in order."""

    game_dir: str
    checks: list[RoundCheck]

    @property
    def ok(self) -> bool:
        return not any(c.failed for c in self.checks)


Explain = Callable[[str, str, Ruleset], list[str]]


def text_diff(expected: str, recorded: str, name: str, limit: int = 40) -> list[str]:
    """A unified diff of two texts, cut to ``limit`` lines."""
    lines = list(difflib.unified_diff(expected.splitlines(), recorded.splitlines(),
                                      f"{name} (re-adjudicated)", f"{name} (recorded)",
                                      lineterm="", n=1))
    if len(lines) > limit:
        lines = [*lines[:limit], f"... ({len(lines) - limit} more diff lines)"]
    return lines



def present(path: Path) -> bool:
    """A name in the record (a file, a link, a FIFO...): what is there is read, or refused."""
    return path.exists() or path.is_symlink()


def read_recorded(path: Path, limit: int = RECORD_LIMIT) -> tuple[str | None, str | None]:
    """The text of a recorded file, or None and why it cannot be compared: missing, not a
    regular file, a link leaving the game directory, over ``limit`` bytes, not UTF-8."""
    root = path.parent.parent if path.parent.name in ("orders", "mail") else path.parent
    root = root.parent  # the game directory
    try:
        raw = read_bounded(path, limit, root=root)
    except ReadRefused as exc:
        return None, f"{path}: {exc.reason}"
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return None, f"{path}: not UTF-8 text (byte {exc.start})"


def _sha256(path: Path) -> str:
    try:
        return hashlib.sha256(read_bounded(path, RECORD_LIMIT)).hexdigest()
    except ReadRefused as exc:
        return f"(unreadable: {exc.reason})"


def check_start(first: RoundDir, ruleset: Ruleset, explain: Explain,
                game_dir: str | Path | None = None,
                files: RecordedFiles | None = None) -> RoundCheck | None:
    """Round-01's state must be what ``agot new`` writes for its seed, houses and game id
    (the release named in it, in its format version). ``files``: the record as read once
    (:class:`~agot_adjudicator.io.recorded.RecordedFiles`)."""
    files = files or RecordedFiles(first.path.parent)
    check = RoundCheck(f"{first.name} (start)")
    links = escaping_links([first.state], first.path.parent)
    if links:
        check.status = MISMATCH
        check.details = [str(p) for p in links]
        return check
    data = _raw(first, files)
    ruleset = _named_ruleset(data, ruleset, game_dir)
    maker, version = recorded_writer(data)
    check.written_by = maker
    try:
        _, state = load_state(str(first.state), ruleset, files.document)
    except InputError as exc:
        check.status = MISMATCH
        check.details = [str(p) for p in exc.problems]
        return check
    check.round, check.phase = state.round, state.phase
    if state.round != 1 or state.phase != "planning" or state.chain is not None:
        check.status = MISMATCH
        check.details = [f"{first.state}: not a starting state (round {state.round}, "
                         f"{state.phase} phase{', with a hash chain' if state.chain else ''})"]
        return check
    expected = new_game_text(ruleset, list(state.houses), state.seed, state.game_id,
                             maker=maker, version=version)
    recorded, why = read_recorded(first.state)
    if why is not None:
        check.status = MISMATCH
        check.details = [why]
    elif expected != recorded:
        check.status = MISMATCH
        check.details = [f"{first.state}: not what `agot new --seed {state.seed} --houses "
                         f"{','.join(state.houses)} --game-id {state.game_id}` writes:",
                         *explain(expected, recorded or "", ruleset)]
    return check


_UNREAD = object()
"""No recorded next state, or one that does not load: nothing to learn from its chain."""

PROSE_FIELDS = ("rule", "reason")
"""Log event fields that are citation or prose, not game content: a later release may cite
another rule id (or a protocol id) or word a reason differently."""



def _raw(rd: RoundDir | None, files: RecordedFiles) -> Any:
    """The plain data of a round's state as recorded (before any upgrade), or ``_UNREAD``."""
    if rd is None or not present(rd.state):
        return _UNREAD
    try:
        return files.document(rd.state).data
    except InputError:
        return _UNREAD


def _named_ruleset(data: Any, in_use: Ruleset, game_dir: str | Path | None,
                   keys: tuple[str, ...] = ("ruleset",)) -> Ruleset:
    """The ruleset a recorded state names, ``--ruleset DIR`` first, else as ``adjudicate --game``
    finds it (the game's differing copy before the package's), else ``in_use``."""
    named = data
    for key in keys:
        named = named.get(key) if isinstance(named, dict) else None
    return named_ruleset(named, game_dir, None if from_package(in_use) else in_use) or in_use


def _merge_problems(rd: RoundDir, run: Any) -> list[str]:
    """A house's stored submission that is not the merge of its received parts (P8): changed
    by hand after ``agot inbox`` stored it, or a received file changed. (A house whose only
    received part is the plans carried into the round has a file the moderator may write.)"""
    number = run.state_doc.data.get("round")
    out: list[str] = []
    for house, paths in received_files(rd.path).items():
        if all(p.name.startswith(f"{CARRIED:04d}-") for p in paths):
            continue  # no message stored it: a file the moderator put there replaces the plans
        target = rd.orders_dir / f"{house}.yaml"
        try:
            expected = stored_text(number, house, merge_received(paths, rd.path.parent))
        except InputError as exc:
            out.extend(str(p) for p in exc.problems)
            continue
        if read_recorded(target)[0] != expected:
            out.append(f"{target} is not the merge of {rd.path / RECEIVED}/*-{house}.yaml: the "
                       "stored submission or a received part was changed after agot inbox "
                       "stored it")
    return out


def _carry_problems(rd: RoundDir, following: RoundDir | None, run: Any) -> list[str]:
    """The plans that stood into the next round (RUL-P8-6) must be what this round's merged
    submissions carried."""
    if following is None or run.result.status != "complete":
        return []
    from agot_adjudicator.workflow.adjudicate import standing_plans

    received = received_files(following.path)
    placed = [h for h in run.result.state.houses if h not in received]  # the moderator's files
    expected = {k: v for k, v in standing_plans(run, rd, placed).items()
                if k.startswith(RECEIVED)}
    ahead = {p.name for paths in received_files(rd.path, AHEAD).values() for p in paths}
    found = {f"{RECEIVED}/{p.name}": p for paths in received.values()
             for p in paths if p.name.startswith(f"{CARRIED:04d}-") or p.name in ahead}
    out = []
    for name in sorted(set(expected) | set(found)):
        if name not in found:
            out.append(f"{following.path / name}: missing (plans that stand into the round)")
        elif read_recorded(found[name])[0] != expected.get(name):
            out.append(f"{following.path / name} is not what {rd.name}'s submissions carried")
    return out


def _ledger(rd: RoundDir, files: RecordedFiles) -> Ledger | None:
    """The round's recorded ledger (docs/protocol.md P4), or None for a round without one (a
    release before it, or a round adjudicated from files)."""
    if not present(rd.path / LEDGER):
        return None
    data = _raw(rd, files)
    number = data.get("round") if isinstance(data, dict) else None
    return read_ledger(rd, number if isinstance(number, int) else rd.number)


def check_round(rd: RoundDir, following: RoundDir | None, ruleset: Ruleset,
                explain: Explain, game_dir: str | Path | None = None,
                keep: bool = False, files: RecordedFiles | None = None) -> RoundCheck:
    """Re-adjudicate one round folder and compare what it gives with what was recorded
    (``keep``: keep the run on the check, to render the round again in another language;
    ``files``: the record as read once, :class:`~agot_adjudicator.io.recorded.RecordedFiles`)."""
    files = files or RecordedFiles(rd.path.parent)
    check = RoundCheck(rd.name)
    orders = rd.orders()
    check.submissions = len(orders)
    next_data = _raw(following, files)
    chain = next_data.get("chain") if isinstance(next_data, dict) else _UNREAD
    options = RunOptions.from_chain(chain)
    links = escaping_links([rd.state, *orders], rd.path.parent)
    if links:
        check.status = MISMATCH
        check.details = [str(p) for p in links]
        return check
    moved_from = None
    if isinstance(chain, dict) and isinstance(chain.get("ruleset_moved"), dict):
        moved_from = _named_ruleset(chain, ruleset, game_dir, ("ruleset_moved", "from"))
        ruleset = _named_ruleset(next_data, ruleset, game_dir)
    else:
        ruleset = _named_ruleset(_raw(rd, files), ruleset, game_dir)
    maker, version = (recorded_writer(next_data) if isinstance(next_data, dict)
                      else (MAKER, STATE_VERSION))
    check.written_by = maker if isinstance(next_data, dict) else ""
    try:
        ledger = _ledger(rd, files)
        run = adjudicate_files(str(rd.state), [str(p) for p in orders], ruleset, options,
                               moved_from, ledger.defaults() if ledger else None,
                               files.document)
        if ledger is not None and run.subs is not None:
            _check_ledger(rd, following, ledger, run)
    except (InputError, UsageError) as exc:
        check.status = MISMATCH
        problems = exc.problems if isinstance(exc, InputError) else [str(exc)]
        check.details = ["the recorded files do not adjudicate:", *(str(p) for p in problems)]
        check.details.extend(_chain_notes(rd, following, chain))
        return check
    check.round = run.state_doc.data.get("round")
    check.phase = str(run.state_doc.data.get("phase", ""))
    merge = _merge_problems(rd, run) + _carry_problems(rd, following, run)
    if merge:
        check.status = MISMATCH
        check.details = merge
        return check
    if check.phase == "ended":
        check.status = FINAL
        winner = run.state_doc.data.get("winner") or {}
        reason = winner_reason(winner) if winner.get("reason") in WINNER_REASONS else \
            winner.get("reason", "")
        check.details = [f"game over: {', '.join(winner.get('houses', []))} ({reason})"]
        if following is not None and present(following.state):
            check.status = MISMATCH
            check.details.append(f"{following.state}: a state recorded after the game ended")
        return check
    lang = recorded_language(read_recorded(rd.report)[0]) if present(rd.report) else "en"
    rendered = Rendered(run, ruleset, maker, version)
    out = rendered.outputs(lang)
    if keep:
        check.rendered = rendered
    if following is None or not present(following.state):
        _unfinished(check, rd, run, out)
        return check
    if out.state is None:
        check.status = MISMATCH
        check.details = [f"{following.state} is recorded, but the recorded submissions leave "
                         "decisions pending: "
                         + ", ".join(p.request.id for p in run.result.pending),
                         *_chain_notes(rd, following, chain)]
        return check
    _compare_state(check, rd, following, out.state, chain, ruleset, explain)
    outputs = ((rd.report, out.report), (rd.log, out.log), (rd.board, out.board),
               (rd.moves, out.moves))
    if maker != MAKER:
        _compare_other_release(check, outputs, maker)
        return check
    for path, expected in outputs:
        if expected is None:
            continue
        if not present(path):
            check.status = MISMATCH
            check.details.append(f"{path}: missing (the round's {path.name} is part of the "
                                 "record)")
            continue
        _compare_file(check, path, expected, text=path.suffix != ".svg")
    _compare_mail(check, rd, run, ruleset, out, maker)
    return check


def _check_ledger(rd: RoundDir, following: RoundDir | None, ledger: Ledger,
                  run: Adjudication) -> None:
    """The round's ledger against the run (RUL-P8-7): no recorded decision resolved otherwise,
    and, for a completed round, the ledger its last run gives (put in the run's chain); raises
    :class:`IllegalInput` where the record was changed after the fact."""
    assert run.subs is not None
    complete = run.result.status == "complete"
    used = ledger_problems(ledger, {r.id: r.value for r in run.result.resolved},
                           run.subs, run.state_doc, complete)
    if used:
        raise IllegalInput(used)
    recorded_complete = following is not None and present(following.state)
    if complete and recorded_complete and run.result.state.chain is not None:
        again = ledger.before_last().after(run.result.resolved)
        if again.text() != read_recorded(rd.path / LEDGER)[0]:
            raise IllegalInput([Problem(str(rd.path / LEDGER), None, None, "",
                                        "not what the round's last run gives: its "
                                        "entries were changed after the fact")])
        run.result.state.chain["decisions"] = again.chain_entry()


def _unfinished(check: RoundCheck, rd: RoundDir, run: Adjudication, out: Outputs) -> None:
    """The last round folder, with no next state: pending, open (the submissions complete it,
    not yet adjudicated), or a complete run's report without its state (a mismatch)."""
    if out.state is None:
        check.status = PENDING
        check.details = [f"{len(run.result.pending)} decision(s) pending: "
                         + ", ".join(p.request.id for p in run.result.pending)]
    elif present(rd.report) and read_recorded(rd.report)[0] == out.report:
        check.status = MISMATCH  # the report of a complete run is there, its state is not
        check.details = [f"{rd.path.parent / round_dir_name(rd.number + 1)}/state.yaml: "
                         f"missing, although {rd.report} records the round as complete"]
    else:
        check.status = OPEN
        check.details = ["the recorded submissions complete the round; next state not "
                         "written yet (`agot adjudicate --game`)"]


def _compare_file(check: RoundCheck, path: Path, expected: str, *, text: bool) -> None:
    """A recorded output against the re-adjudicated one, byte for byte (``text``: with a diff)."""
    recorded, why = read_recorded(path)
    if why is not None:
        check.status = MISMATCH
        check.details.append(why)
    elif recorded != expected:
        check.status = MISMATCH
        check.details.append(f"{path} differs from the re-adjudicated one:")
        if text:
            check.details.extend(text_diff(expected, recorded or "", path.name))


def recorded_to(path: Path) -> str | None:
    """The ``To`` header of a recorded ``.eml`` (the address the moderator registered when it
    was written: ``players.yaml`` is not part of the record)."""
    from email.parser import HeaderParser
    from email.policy import SMTP

    text, why = read_recorded(path)
    if text is None or why is not None:
        return None
    value = HeaderParser(policy=SMTP).parsestr(text, headersonly=True).get("To")
    return None if value is None else str(value)


def recorded_addresses(folder: Path, houses: list[str]) -> dict[str, str | None]:
    """The recorded ``To`` of each house's ``.eml`` in a round's mail ``folder`` (the houses
    whose message is recorded)."""
    return {h: recorded_to(folder / f"{h}.eml") for h in houses if present(folder / f"{h}.eml")}


def recorded_views(rd: RoundDir, run: Any, out: Any, ruleset: Ruleset) -> dict[str, str]:
    """The house views a completed round's commit wrote (``mail/HOUSE.view.yaml``, of the
    next round's start; RUL-P7-5), written again for the houses whose view the record has:
    the next state as this release writes it, each house's submission as the round carried
    it into the next (RUL-P8-6; a file the moderator placed there as it stands)."""
    from agot_adjudicator.io.reading import parse_text
    from agot_adjudicator.render.mail import MAIL_DIR
    from agot_adjudicator.workflow.adjudicate import standing_plans
    from agot_adjudicator.workflow.kit import round_views, view_file

    houses = run.result.state.order_of_play()
    wanted = [h for h in houses if present(rd.path / MAIL_DIR / view_file(h))]
    if not wanted or out.state is None:
        return {}
    following = rd.following()
    received = received_files(following.path) if following.path.is_dir() else {}
    placed = [h for h in run.result.state.houses if h not in received]
    carried = standing_plans(run, rd, placed)
    stored: dict[str, Any] = {}
    for h in houses:
        text = carried.get(f"orders/{h}.yaml")
        mine = following.orders_dir / f"{h}.yaml"
        if text is None and h in placed and present(mine):
            try:  # the project's bounded reader, inside the game directory
                stored[h] = load_yaml(str(mine), root=rd.path.parent).data
            except InputError:
                stored[h] = None  # unreadable: the next round's check names the file
            continue
        stored[h] = None if text is None else parse_text(f"{h}.yaml", text.encode()).data
    views = round_views(run.state_doc, run.result.state, None, None, None, out.state, stored,
                        ruleset)
    return {h: v for h, v in views.items() if h in wanted}


def _compare_mail(check: RoundCheck, rd: RoundDir, run: Any, ruleset: Ruleset, out: Any,
                  maker: str) -> None:
    """A completed round's mail folder (docs/formats.md, *Mail*): each file present is what
    this release writes, byte for byte (each ``.eml`` with its recorded ``To``). Missing mail
    files are not a difference: they are copies made for sending (older releases wrote none)."""
    from agot_adjudicator.render.mail import MAIL_DIR, PUBLIC_TEXT
    from agot_adjudicator.workflow.mailout import mail_files

    folder = rd.path / MAIL_DIR
    if not folder.is_dir() or folder.is_symlink():
        return
    houses = run.result.state.order_of_play()
    addresses = recorded_addresses(folder, houses)
    lang = recorded_language(_recorded_text(folder / PUBLIC_TEXT))
    languages = {h: recorded_language(_recorded_text(folder / f"{h}.txt")) for h in houses}
    files = mail_files(run, ruleset, out, rd.name, addresses, maker, lang, languages,
                       wanted=lambda name: present(rd.path / name),
                       views=recorded_views(rd, run, out, ruleset))
    for name, expected in files.items():
        path = rd.path / name
        if not present(path):
            continue
        _compare_file(check, path, expected, text=path.suffix == ".txt")


def _recorded_text(path: Path) -> str | None:
    """A recorded mail text, or None when it is missing or unreadable (then compared, and
    reported, as any other file)."""
    return read_recorded(path)[0] if present(path) else None


def _compare_other_release(check: RoundCheck, outputs: tuple[tuple[Path, str | None], ...],
                           maker: str) -> None:
    """Outputs written by another release: the same bytes, or the same game content (the log,
    event by event) with other wording and layout, or a substantive difference (a mismatch)."""
    texts = [(path, read_recorded(path)[0], expected) for path, expected in outputs
             if present(path)]
    differ = [path.name for path, recorded, expected in texts if recorded != expected]
    names = ", ".join(path.name for path, _, _ in texts) or "no report, log or picture"
    if not differ:
        check.details.append(f"written by {maker}: {names} are what {MAKER} writes, byte "
                             "for byte")
        return
    for path, recorded, expected in texts:
        if path.suffix == ".jsonl":
            first = first_content_difference(recorded or "", expected or "")
            if first is not None:
                check.status = MISMATCH
                check.details.append(f"written by {maker}: {path} differs from what {MAKER} "
                                     f"writes in substance: {first}")
                return
    check.details.append(f"written by {maker}: {', '.join(differ)} differ from what {MAKER} "
                         "writes only in wording and layout (the states and the log's game "
                         "content are the same)")


def log_content(text: str) -> list[dict[str, Any]] | None:
    """The game content of a log: each event without :data:`PROSE_FIELDS`, the ``record``
    line left out; None if a line is not a JSON object."""
    events = []
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            return None
        if not isinstance(event, dict):
            return None
        if is_record_line(event):
            continue
        events.append({k: v for k, v in event.items() if k not in PROSE_FIELDS})
    return events


def first_content_difference(recorded: str, expected: str) -> str | None:
    """The first event whose type or game fields differ between two logs, or None.

    >>> a = '{"type":"x","rule":"R1.1","house":"stark"}\\n'
    >>> first_content_difference(a, a.replace("R1.1", "P2")) is None
    True
    >>> first_content_difference(a, a.replace("stark", "tyrell"))
    'event 1 (x): house is stark in the record, tyrell now'
    """
    old, new = log_content(recorded), log_content(expected)
    if old is None or new is None:
        return "the recorded log is not JSON Lines"
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a.get("type") != b.get("type"):
            return (f"event {number} is {a.get('type')} in the record, {b.get('type')} now")
        for key in [*a, *(k for k in b if k not in a)]:
            if a.get(key, "(absent)") != b.get(key, "(absent)"):
                return (f"event {number} ({a.get('type')}): {key} is {a.get(key, '(absent)')} "
                        f"in the record, {b.get(key, '(absent)')} now")
    if len(old) != len(new):
        return f"{len(old)} events in the record, {len(new)} now"
    return None


def _compare_state(check: RoundCheck, rd: RoundDir, following: RoundDir, expected: str,
                   chain: Any, ruleset: Ruleset, explain: Explain) -> None:
    recorded, why = read_recorded(following.state)
    if recorded == expected:
        return
    check.status = MISMATCH
    check.details.append(f"{following.state} is not what adjudicating {rd.name} gives:")
    if recorded is None:
        check.details.append(why or f"{following.state}: unreadable")
        return
    check.details.extend(_chain_notes(rd, following, chain))
    check.details.extend(explain(expected, recorded, ruleset))


def _chain_notes(rd: RoundDir, following: RoundDir | None, chain: Any) -> list[str]:
    """Name the input whose hash is not the one the recorded next state's chain holds."""
    if chain is _UNREAD or following is None:
        return []
    if not isinstance(chain, dict):
        return [f"{following.state}: no hash chain recorded"]
    notes = []
    if chain.get("previous_state") != _sha256(rd.state):
        notes.append(f"hash chain: {rd.state} changed after {following.state} was written")
    ledger = rd.path / LEDGER
    decisions = chain.get("decisions")
    if isinstance(decisions, dict) and not ledger.is_file():
        notes.append(f"hash chain: {ledger} is recorded but missing")
    elif isinstance(decisions, dict) and decisions.get("sha256") != _sha256(ledger):
        notes.append(f"hash chain: {ledger} changed after {following.state} was written")
    recorded = {s.get("file"): s.get("sha256") for s in chain.get("submissions") or []
                if isinstance(s, dict)}
    present = {p.name: _sha256(p) for p in rd.orders()}
    for name in sorted(set(recorded) | set(present), key=str):
        if name not in present:
            notes.append(f"hash chain: submission {name} is recorded but missing from "
                         f"{rd.orders_dir}")
        elif name not in recorded:
            notes.append(f"hash chain: {rd.orders_dir / name} was not part of the round")
        elif recorded[name] != present[name]:
            notes.append(f"hash chain: {rd.orders_dir / name} changed after {following.state} "
                         "was written")
    return notes


def provisional_records(dirs: list[RoundDir], files: RecordedFiles) -> list[Problem]:
    """The rounds whose state.yaml is marked ``provisional:`` (one problem each), read as the
    rest of the replay reads them (``files``); a state that cannot be read is left for the
    round's own check to report."""
    problems: list[Problem] = []
    for rd in dirs:
        if not rd.state.is_file() or rd.state.is_symlink():
            continue
        try:
            doc = files.document(rd.state)
        except InputError:
            continue
        if isinstance(doc.data, dict) and "provisional" in doc.data:
            problems.extend(provisional_problems(doc))
    return problems


def replay_game(game_dir: str, ruleset: Ruleset, *, check_new: bool = True,
                explain: Explain = explain_state_texts, keep: bool = False,
                files: RecordedFiles | None = None) -> Replay:
    """Check every round of ``game_dir`` (see the module docstring).

    A round whose state.yaml is a provisional state (a stopped run's now.yaml put in its
    place) is refused as bad input (:class:`IllegalInput`, exit 1) before anything is
    replayed. A stopped round's own now.yaml and now.svg are not part of the record:
    they are neither read nor checked (docs/protocol.md P4). ``files``: the record's YAML
    files as this command reads them, each once (made here when not given).
    """
    files = files or RecordedFiles(game_dir)
    dirs = round_dirs(game_dir)
    provisional = provisional_records(dirs, files)
    if provisional:
        raise IllegalInput(provisional)
    checks: list[RoundCheck] = []
    interrupted = pending_commit(game_dir)
    if interrupted is not None:
        checks.append(RoundCheck(COMMIT_DIR, status=MISMATCH, details=[
            f"{Path(game_dir) / COMMIT_DIR}: the commit of {interrupted} was interrupted "
            "after its commit point (its files are not all in place); run `agot adjudicate "
            f"--game {game_dir}` to finish it, then replay again"]))
    if check_new:
        start = check_start(dirs[0], ruleset, explain, game_dir, files)
        if start is not None:
            checks.append(start)
    for index, rd in enumerate(dirs):
        following = dirs[index + 1] if index + 1 < len(dirs) else None
        if not present(rd.state):
            checks.append(RoundCheck(rd.name, status=MISMATCH,
                                     details=[f"{rd.state}: missing"]))
            continue
        checks.append(check_round(rd, following, ruleset, explain, game_dir, keep, files))
    return Replay(game_dir, checks)


def render_replay(replay: Replay) -> str:
    """The table of rounds, then the details of every round that is not plainly ok."""
    from agot_adjudicator.render.tables import table

    rows = [[c.folder, "" if c.round is None else c.round, c.phase, c.submissions,
             c.written_by or "-", c.status] for c in replay.checks]
    out = [table(rows, ["folder", "round", "phase", "submissions", "written by", "result"])]
    for c in replay.checks:
        if c.details:
            out.append("")
            out.append(f"{c.folder}: {c.status}")
            # details quote recorded files: escaped, cut (a hostile record is printed safely)
            out.extend(f"  {escaped(line, 300)}" for line in c.details)
    verdict = ("the record is consistent" if replay.ok
               else f"{sum(c.failed for c in replay.checks)} round(s) do not replay")
    out.append("")
    out.append(f"{replay.game_dir}: {verdict}")
    return "\n".join(out) + "\n"
