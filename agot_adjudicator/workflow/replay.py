"""``agot replay``: re-adjudicate every recorded round of a game directory and check the record.

A record is consistent when round-01's state is what ``agot new`` gives for its
seed, houses and game id, and every ``round-(N+1)/state.yaml`` (and the round's
``report.md``, ``log.jsonl``, ``board.svg`` and ``moves.svg`` when present) is byte for byte what
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

from agot_adjudicator.errors import InputError, UsageError
from agot_adjudicator.io.gamedir import RoundDir, round_dirs
from agot_adjudicator.io.reading import load_yaml
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.diff import explain_state_texts
from agot_adjudicator.workflow.adjudicate import adjudicate_files, render_outputs
from agot_adjudicator.workflow.present import new_game_text
from agot_adjudicator.workflow.validate import load_state

OK, MISMATCH, PENDING, OPEN, FINAL = "ok", "MISMATCH", "pending", "open", "final"


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



def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check_start(first: RoundDir, ruleset: Ruleset, explain: Explain) -> RoundCheck | None:
    """Round-01's state must be what ``agot new`` writes for its seed, houses and game id."""
    check = RoundCheck(f"{first.name} (start)")
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
    recorded = _read(first.state) or ""
    if expected != recorded:
        check.status = MISMATCH
        check.details = [f"{first.state}: not what `agot new --seed {state.seed} --houses "
                         f"{','.join(state.houses)} --game-id {state.game_id}` writes:",
                         *explain(expected, recorded, ruleset)]
    return check


_UNREAD = object()
"""No recorded next state, or one that does not load: nothing to learn from its chain."""


def recorded_chain(following: RoundDir | None) -> Any:
    """The ``chain:`` of the recorded next state (``None`` if it has none), or ``_UNREAD``."""
    if following is None or not following.state.is_file():
        return _UNREAD
    try:
        return load_yaml(following.state).data.get("chain")
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
        if following is not None and following.state.exists():
            check.status = MISMATCH
            check.details.append(f"{following.state}: a state recorded after the game ended")
        return check
    out = render_outputs(run, ruleset, board=True)
    if following is None or not following.state.is_file():
        if out.state is None:
            check.status = PENDING
            check.details = [f"{len(run.result.pending)} decision(s) pending: "
                             + ", ".join(p.request.id for p in run.result.pending)]
        else:
            check.status = OPEN
            check.details = ["the recorded submissions complete the round; next state not "
                             "written yet (`agot adjudicate --game`)"]
        return check
    if out.state is None:
        check.status = MISMATCH
        check.details = [f"{following.state} is recorded, but the recorded submissions leave "
                         "decisions pending: "
                         + ", ".join(p.request.id for p in run.result.pending)]
        return check
    _compare_state(check, rd, following, out.state, chain, ruleset, explain)
    for path, expected in ((rd.report, out.report), (rd.log, out.log), (rd.board, out.board),
                           (rd.moves, out.moves)):
        recorded = _read(path) if path.exists() else None
        if recorded is not None and recorded != expected:
            check.status = MISMATCH
            check.details.append(f"{path} differs from the re-adjudicated one:")
            if path.suffix != ".svg":
                check.details.extend(text_diff(expected or "", recorded, path.name))
    return check


def _compare_state(check: RoundCheck, rd: RoundDir, following: RoundDir, expected: str,
                   chain: Any, ruleset: Ruleset, explain: Explain) -> None:
    recorded = _read(following.state)
    if recorded == expected:
        return
    check.status = MISMATCH
    check.details.append(f"{following.state} is not what adjudicating {rd.name} gives:")
    if recorded is None:
        check.details.append(f"{following.state}: not readable as UTF-8")
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
    if check_new:
        start = check_start(dirs[0], ruleset, explain)
        if start is not None:
            checks.append(start)
    for index, rd in enumerate(dirs):
        following = dirs[index + 1] if index + 1 < len(dirs) else None
        if not rd.state.is_file():
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
            out.extend(f"  {line}" for line in c.details)
    verdict = ("the record is consistent" if replay.ok
               else f"{sum(c.failed for c in replay.checks)} round(s) do not replay")
    out.append("")
    out.append(f"{replay.game_dir}: {verdict}")
    return "\n".join(out) + "\n"
