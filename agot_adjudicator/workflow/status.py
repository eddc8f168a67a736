"""``agot status --game DIR``: who has sent what for the current round, and what each house owes.

Built only from what the game directory already says (docs/protocol.md P4, P7): the
current round's ``pending.yaml`` (the decisions the last run stopped on), its ledger (what
the committed runs resolved and defaulted), the submissions in ``round-NN/orders/`` with
the one verdict every command gives (:func:`~agot_adjudicator.workflow.standing.verdict`),
and the deadline of ``GAME/players.yaml``. It never runs the round past its stop: a run
in memory would tell, from unrevealed orders, which battles are coming.

What it prints is public (P7): houses, file names, times, valid or not with counts of
problems (never their text, which quotes the submission), pending decision ids and kinds
(as the public report lists them), and the documented defaults in words; never a hand, an
option list, a plan or a bid.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import InputError
from agot_adjudicator.io.clock import parse_utc, past, utc_text
from agot_adjudicator.io.messages import Index
from agot_adjudicator.io.players import read_players
from agot_adjudicator.io.recorded import RecordedFiles
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.language import PHASE_TITLES, Names, file_name_text, sep, speaker, tr
from agot_adjudicator.render.language import house as house_name
from agot_adjudicator.workflow.standing import round_docs, standing, verdict


def file_time(path: Path) -> datetime.datetime:
    """A file's modification time, UTC, to the second."""
    stamp = path.stat().st_mtime
    return datetime.datetime.fromtimestamp(int(stamp), tz=datetime.UTC)


def iso(when: datetime.datetime | None) -> str | None:
    """``2026-12-03T18:00:00Z`` (:func:`~agot_adjudicator.io.clock.utc_text`), None for none."""
    return None if when is None else utc_text(when)


def _plain(value: Any) -> str:
    if value is None:
        return tr("none")
    if isinstance(value, list):
        return sep().join(_plain(v) for v in value) or tr("nothing")
    return str(value)


def default_words(kind: str, value: Any) -> str:
    """The documented default of a decision (docs/protocol.md P2) in words, with its value only
    where the value is public (a house card's default is a card in hand: never named).

    >>> default_words("raven", None)
    'keep the orders'
    >>> default_words("house_card", "eddard_stark")
    'the first card in hand in data order (strongest first)'
    >>> default_words("bid", 0)
    'bid 0'
    """
    fixed = {"orders": N_("no orders"), "raven": N_("keep the orders"),
             "raid": N_("no raid target"), "march": N_("no move, no power token"),
             "blade": N_("do not use the Blade"), "muster": N_("muster nothing"),
             "house_card": N_("the first card in hand in data order (strongest first)")}
    if kind in fixed:
        return tr(fixed[kind])
    v = _plain(value)
    if kind in ("raid_next", "march_next"):
        return tr("resolve {value} next (the first candidate in fixed area order)", value=v)
    if kind == "support":
        return (tr("support no one") if value in (None, "none")
                else tr("support {house}", house=value))
    if kind in ("casualties", "retreat_losses", "supply_reduction", "wildling_losses"):
        return tr("lose the cheapest first ({value})", value=v)
    if kind == "retreat":
        return tr("retreat to {value} (the first offered area)", value=v)
    if kind == "card_choice":
        return tr("decline") if value in (None, "none") else tr("choose {value}", value=v)
    if kind == "bid":
        return tr("bid {value}", value=v)
    if kind == "tie_break":
        return tr("{value} (the documented tie-break)", value=v)
    if kind == "wildling_reward":
        return tr("take {value} (the discarded card with the highest printed strength)", value=v)
    return tr("the documented default ({kind}, docs/protocol.md P2)", kind=kind)


@dataclass(frozen=True)
class FileStatus:
    """One submission file of the round's orders folder."""

    name: str
    house: str | None
    """The house it is for (its ``house:``, else a file named after the house); None: the
    moderator's answers file, or a file that names no house in play."""
    received: datetime.datetime
    valid: bool
    problems: int
    warnings: int

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.name, "received": iso(self.received), "valid": self.valid,
                "problems": self.problems, "warnings": self.warnings}


@dataclass(frozen=True)
class Owed:
    """One decision a house still owes: its id and kind, and what ``--nmr`` would apply."""

    id: str
    kind: str
    default: str

    @property
    def what(self) -> str:
        """``orders``, ``bid`` or ``decision``."""
        return self.kind if self.kind in ("orders", "bid") else "decision"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "what": self.what, "default": self.default}


@dataclass(frozen=True)
class Defaulted:
    """A decision of the round that a committed run defaulted (``--nmr``, ``--defaults``):
    recorded in the ledger, applied again by every later run (RUL-P2-2)."""

    id: str
    kind: str
    run: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "run": self.run}


@dataclass
class HouseStatus:
    house: str
    files: list[FileStatus] = field(default_factory=list)
    owes: list[Owed] = field(default_factory=list)
    late: bool = False
    defaulted: list[Defaulted] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"house": self.house, "files": [f.to_dict() for f in self.files],
                "owes": [o.to_dict() for o in self.owes], "late": self.late,
                "defaulted": [d.to_dict() for d in self.defaulted]}


@dataclass
class GameStatus:
    """What ``agot status`` reports (see the module doc)."""

    game: str
    round: int
    phase: str
    """The phase of the board as it stands: where the last run stopped, else the state's."""
    stage: str
    """``ended``, ``stopped`` (on pending decisions), ``waiting for orders`` (a round-start
    state in the planning phase), ``not run`` (a round-start state in the Westeros phase)."""
    pending: int
    deadline: datetime.datetime | None
    now: datetime.datetime
    houses: list[HouseStatus]
    others: list[FileStatus]
    """The moderator's answers files and files for no house in play."""

    @property
    def owed(self) -> bool:
        return any(h.owes for h in self.houses)

    @property
    def past_deadline(self) -> bool:
        """Whether the deadline has passed (:func:`~agot_adjudicator.io.clock.past`: what comes
        at the deadline itself is on time)."""
        return past(self.deadline, self.now)

    def to_dict(self) -> dict[str, Any]:
        return {"format": "agot-status/1", "game": self.game, "round": self.round,
                "phase": self.phase, "stage": self.stage, "pending": self.pending,
                "deadline": iso(self.deadline), "now": iso(self.now),
                "past_deadline": self.past_deadline, "owed": self.owed,
                "houses": [h.to_dict() for h in self.houses],
                "other_files": [f.to_dict() for f in self.others]}


def _house_of(path: Path, houses: list[str], recorded: RecordedFiles) -> str | None:
    try:
        house = recorded.document(path).data.get("house")
    except InputError:
        house = None
    if isinstance(house, str) and house in houses:
        return house
    return path.stem if path.stem in houses else None


def game_status(game_dir: str, ruleset: Ruleset, now: datetime.datetime,
                lang: str = "en", recorded: RecordedFiles | None = None) -> GameStatus:
    """The status of the current round of ``game_dir`` at time ``now`` (see the module doc);
    ``lang``: the language of each default in words. Validity and what is owed come from the
    one verdict ``inbox``, ``validate --game`` and ``adjudicate --game`` give
    (:func:`~agot_adjudicator.workflow.standing.verdict`). ``recorded``: the command's reader,
    which read the state for its ruleset (each file is read once, issue 33)."""
    recorded = recorded or RecordedFiles(None)
    stand = standing(game_dir, ruleset, read=recorded.document)
    state = stand.state
    houses = state.order_of_play()
    players = read_players(game_dir)
    deadline = parse_utc(players.deadline) if players.deadline else None
    files = stand.files
    docs, load_problems = round_docs(stand, read=recorded.document)
    result = verdict(stand, docs, ruleset, load_problems)
    by_file: dict[str, list[int]] = {str(p): [0, 0] for p in files}
    for problem in result.problems:
        by_file.setdefault(problem.file, [0, 0])[0] += 1
    for warning in result.warnings:
        by_file.setdefault(warning.file, [0, 0])[1] += 1
    status = {h: HouseStatus(h) for h in houses}
    others: list[FileStatus] = []
    index = Index.read(game_dir)
    for path in files:
        house = _house_of(path, houses, recorded)
        problems, warnings = by_file[str(path)]
        when = (index.received_at(state.round, house, path)
                if house is not None and path == stand.house_file(house) else None) \
            or file_time(path)
        info = FileStatus(file_name_text(path.name), house, when, problems == 0, problems,
                          warnings)
        (status[house].files if house is not None else others).append(info)
    if state.phase == "ended":
        stage = "ended"
    elif stand.stopped:
        stage = "stopped"
    elif state.phase == "planning":
        stage = "waiting for orders"
    else:
        stage = "not run"
    with Names(ruleset, lang).speaking():
        for house in houses:
            for entry in result.owed.get(house, []):
                kind = str(entry.get("kind"))
                status[house].owes.append(Owed(str(entry["id"]), kind,
                                               default_words(kind, entry.get("default"))))
            status[house].defaulted = [
                Defaulted(e.id, e.kind, e.run) for e in stand.ledger.of(house) if e.by == "default"]
    if past(deadline, now):
        for h in status.values():
            h.late = bool(h.owes)
    pending = len([e for e in stand.pending if not e.get("ahead")])
    return GameStatus(str(game_dir), state.round, stand.phase, stage,
                      pending if stage == "stopped" else 0, deadline, now,
                      list(status.values()), others)


def status_json(status: GameStatus) -> str:
    return json.dumps(status.to_dict(), indent=2, ensure_ascii=False) + "\n"


def _file_line(f: FileStatus) -> str:
    if f.valid:
        verdict = tr("valid")
    elif f.problems == 1:
        verdict = tr("invalid ({count} problem)", count=f.problems)
    else:
        verdict = tr("invalid ({count} problems)", count=f.problems)
    if f.warnings:
        verdict += (tr(", {count} warning", count=f.warnings) if f.warnings == 1 else
                    tr(", {count} warnings", count=f.warnings))
    return tr("{file} received {when}, {verdict}", file=f.name, when=iso(f.received),
              verdict=verdict)


def status_text(status: GameStatus, ruleset: Ruleset | None = None, lang: str = "en") -> str:
    """The status as plain text: the round header, then one block per house; ``lang``: its
    language (with ``ruleset``, whose glossary names the houses)."""
    if lang == "en" or ruleset is None:
        return _status_text(status, lambda h: h)
    with Names(ruleset, lang).speaking():
        return _status_text(status, house_name)


def _status_text(status: GameStatus, name: Any) -> str:
    s = status
    phase = tr(PHASE_TITLES.get(s.phase, s.phase)) if speaker() is not None else s.phase
    head = tr("{game}: round {round}, {phase} phase", game=s.game, round=s.round, phase=phase)
    if s.stage == "ended":
        return tr("{game}: round {round}: the game has ended\nnothing is owed\n", game=s.game,
                  round=s.round)
    elif s.stage == "stopped":
        kinds = {o.kind for h in s.houses for o in h.owes}
        head += (tr(": stopped on {count} pending decision", count=s.pending) if s.pending == 1
                 else tr(": stopped on {count} pending decisions", count=s.pending))
        if "orders" in kinds:
            head += tr(" (waiting for orders)")
    elif s.stage == "waiting for orders":
        head += tr(": waiting for orders (not run yet)")
    else:
        head += tr(": not run yet (run `agot adjudicate --game {game}`)", game=s.game)
    lines = [head]
    if s.deadline is not None:
        lines.append(tr("deadline: {deadline} (now {now}: passed)", deadline=iso(s.deadline),
                        now=iso(s.now)) if s.past_deadline else
                     tr("deadline: {deadline} (now {now}: not yet)", deadline=iso(s.deadline),
                        now=iso(s.now)))
    else:
        lines.append(tr("deadline: none set (GAME/players.yaml)"))
    for h in s.houses:
        lines.append("")
        mark = tr(" — LATE") if h.late else ""
        lines.append(f"{name(h.house)}{mark}")
        if h.files:
            lines.extend(tr("  sent: {file}", file=_file_line(f)) for f in h.files)
        else:
            lines.append(tr("  sent: nothing"))
        if not h.owes:
            lines.append(tr("  owes: nothing"))
        for what, label in (("orders", N_("  owes orders: {ids}")), ("bid", N_("  owes bids: {ids}")),
                            ("decision", N_("  owes decisions: {ids}"))):
            ids = [o.id for o in h.owes if o.what == what]
            if ids:
                lines.append(tr(label, ids=", ".join(ids)))
        if h.late:
            lines.append(tr("  --nmr {house} would apply:", house=h.house))
            lines.extend(f"    {o.id}: {o.default}" for o in h.owes)
        if h.defaulted:
            lines.append(tr("  defaulted (recorded, applied again by every run): {ids}",
                            ids=", ".join(f"{d.id} (run {d.run})" for d in h.defaulted)))
    if s.others:
        lines.append("")
        lines.append(tr("other files (the moderator's, or for no house in play)"))
        lines.extend(f"  {_file_line(f)}" for f in s.others)
    lines.append("")
    owing = [name(h.house) for h in s.houses if h.owes]
    lines.append(tr("owed by: {houses}", houses=sep().join(owing)) if owing
                 else tr("nothing is owed"))
    return "\n".join(lines) + "\n"
