"""``agot replay``: re-adjudicate every recorded round of a game directory and check the record.

A record is consistent when round-01's state is what ``agot new`` gives for its
seed, houses and game id, and every ``round-(N+1)/state.yaml`` (and the round's
``report.md`` and ``log.jsonl`` when present) is byte for byte what
adjudicating ``round-N`` with its recorded submissions gives. The next state's
hash chain (``chain:``) names the SHA-256 of the state and of every submission
it came from, so a file changed after the fact is named as such.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import InputError, UsageError, escaped
from agot_adjudicator.io.commit import COMMIT_DIR, pending_commit
from agot_adjudicator.io.gamedir import RoundDir, round_dir_name, round_dirs
from agot_adjudicator.io.reading import load_yaml
from agot_adjudicator.io.safefile import ReadRefused, escaping_links, read_bounded
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.diff import explain_state_texts
from agot_adjudicator.workflow.adjudicate import adjudicate_files, render_outputs
from agot_adjudicator.workflow.present import new_game_text
from agot_adjudicator.workflow.validate import load_state

OK, MISMATCH, PENDING, OPEN, FINAL = "ok", "MISMATCH", "pending", "open", "final"

RECORD_LIMIT = 8 * 1024 * 1024
"""Recorded outputs larger than this (8 MiB; the demo's largest is under 100 KiB) are a
difference, never read whole. Inputs (states, submissions) keep the 1 MiB input limit."""


@dataclass
class RoundCheck:
    """What replay found for one round folder."""

    folder: str
    round: int | None = None
    phase: str = ""
    submissions: int = 0
    status: str = OK
    details: list[str] = field(default_factory=list)

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
    root = path.parent.parent if path.parent.name == "orders" else path.parent
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


def check_start(first: RoundDir, ruleset: Ruleset, explain: Explain) -> RoundCheck | None:
    """Round-01's state must be what ``agot new`` writes for its seed, houses and game id."""
    check = RoundCheck(f"{first.name} (start)")
    links = escaping_links([first.state], first.path.parent)
    if links:
        check.status = MISMATCH
        check.details = [str(p) for p in links]
        return check
    try:
        _, state = load_state(str(first.state), ruleset)
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
    expected = new_game_text(ruleset, list(state.houses), state.seed, state.game_id)
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


def recorded_chain(following: RoundDir | None) -> Any:
    """The ``chain:`` of the recorded next state (``None`` if it has none), or ``_UNREAD``."""
    if following is None or not present(following.state):
        return _UNREAD
    try:
        return load_yaml(following.state, root=following.path.parent).data.get("chain")
    except InputError:
        return _UNREAD


def recorded_options(chain: Any) -> tuple[list[str], bool]:
    """The ``--nmr``/``--defaults`` the recorded chain says its round was run with."""
    options = chain.get("options") if isinstance(chain, dict) else None
    if not isinstance(options, dict):
        return [], False
    nmr = options.get("nmr")
    houses = [h for h in nmr if isinstance(h, str)] if isinstance(nmr, list) else []
    return houses, options.get("defaults") is True


def check_round(rd: RoundDir, following: RoundDir | None, ruleset: Ruleset,
                explain: Explain) -> RoundCheck:
    """Re-adjudicate one round folder and compare what it gives with what was recorded."""
    check = RoundCheck(rd.name)
    orders = rd.orders()
    check.submissions = len(orders)
    chain = recorded_chain(following)
    nmr, defaults = recorded_options(chain)
    links = escaping_links([rd.state, *orders], rd.path.parent)
    if links:
        check.status = MISMATCH
        check.details = [str(p) for p in links]
        return check
    try:
        run = adjudicate_files(str(rd.state), [str(p) for p in orders], ruleset, nmr,
                                   defaults)
    except (InputError, UsageError) as exc:
        check.status = MISMATCH
        problems = exc.problems if isinstance(exc, InputError) else [str(exc)]
        check.details = ["the recorded files do not adjudicate:", *(str(p) for p in problems)]
        check.details.extend(_chain_notes(rd, following, chain))
        return check
    check.round = run.state_doc.data.get("round")
    check.phase = str(run.state_doc.data.get("phase", ""))
    if check.phase == "ended":
        check.status = FINAL
        winner = run.state_doc.data.get("winner") or {}
        check.details = [f"game over: {', '.join(winner.get('houses', []))} "
                         f"({winner.get('reason', '')})"]
        if following is not None and present(following.state):
            check.status = MISMATCH
            check.details.append(f"{following.state}: a state recorded after the game ended")
        return check
    out = render_outputs(run, ruleset, board=True)
    if following is None or not present(following.state):
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
        return check
    if out.state is None:
        check.status = MISMATCH
        check.details = [f"{following.state} is recorded, but the recorded submissions leave "
                         "decisions pending: "
                         + ", ".join(p.request.id for p in run.result.pending),
                         *_chain_notes(rd, following, chain)]
        return check
    _compare_state(check, rd, following, out.state, chain, ruleset, explain)
    for path, expected in ((rd.report, out.report), (rd.log, out.log), (rd.board, out.board)):
        if expected is None:
            continue
        if not present(path):
            check.status = MISMATCH
            check.details.append(f"{path}: missing (the round's {path.name} is part of the "
                                 "record)")
            continue
        recorded, why = read_recorded(path)
        if why is not None:
            check.status = MISMATCH
            check.details.append(why)
        elif recorded != expected:
            check.status = MISMATCH
            check.details.append(f"{path} differs from the re-adjudicated one:")
            if path.suffix != ".svg":
                check.details.extend(text_diff(expected, recorded or "", path.name))
    return check


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


def replay_game(game_dir: str, ruleset: Ruleset, *, check_new: bool = True,
                explain: Explain = explain_state_texts) -> Replay:
    """Check every round of ``game_dir`` (see the module docstring)."""
    dirs = round_dirs(game_dir)
    checks: list[RoundCheck] = []
    interrupted = pending_commit(game_dir)
    if interrupted is not None:
        checks.append(RoundCheck(COMMIT_DIR, status=MISMATCH, details=[
            f"{Path(game_dir) / COMMIT_DIR}: the commit of {interrupted} was interrupted "
            "after its commit point (its files are not all in place); run `agot adjudicate "
            f"--game {game_dir}` to finish it, then replay again"]))
    if check_new:
        start = check_start(dirs[0], ruleset, explain)
        if start is not None:
            checks.append(start)
    for index, rd in enumerate(dirs):
        following = dirs[index + 1] if index + 1 < len(dirs) else None
        if not present(rd.state):
            checks.append(RoundCheck(rd.name, status=MISMATCH,
                                     details=[f"{rd.state}: missing"]))
            continue
        checks.append(check_round(rd, following, ruleset, explain))
    return Replay(game_dir, checks)


def render_replay(replay: Replay) -> str:
    """The table of rounds, then the details of every round that is not plainly ok."""
    from agot_adjudicator.render.tables import table

    rows = [[c.folder, "" if c.round is None else c.round, c.phase, c.submissions, c.status]
            for c in replay.checks]
    out = [table(rows, ["folder", "round", "phase", "submissions", "result"])]
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
