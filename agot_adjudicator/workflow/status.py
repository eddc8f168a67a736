"""``agot status --game DIR``: who has sent what for the current round, and what each house owes.

Built only from what the game directory already says (docs/protocol.md P4, P7):
the current round's ``pending.yaml`` (the decisions the last run stopped on), the
submissions in ``round-NN/orders/`` checked by the validate workflow against the
board as it stands (:func:`~agot_adjudicator.io.gamedir.board_now`, as ``agot validate
--game``), and the deadline of ``GAME/players.yaml``. It never runs the round further:
a run in memory would tell, from unrevealed orders, which battles are coming.

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
from agot_adjudicator.io.gamedir import BoardNow, board_now
from agot_adjudicator.io.players import parse_deadline, read_players
from agot_adjudicator.io.submissions import HouseSection, collect
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.report import file_name_text
from agot_adjudicator.workflow.present import load_board
from agot_adjudicator.workflow.validate import read_submissions, read_yaml, validate_files


def file_time(path: Path) -> datetime.datetime:
    """A file's modification time, UTC, to the second."""
    stamp = path.stat().st_mtime
    return datetime.datetime.fromtimestamp(int(stamp), tz=datetime.UTC)


def received_at(path: Path) -> datetime.datetime:
    """When a submission file was received, the one time source of ``agot status``: for a file
    ``agot inbox`` stored, its message's receive time (``GAME/messages/index.jsonl``, P8); else
    the file's modification time."""
    from agot_adjudicator.workflow.inbox import inbox_received

    return inbox_received(path) or file_time(path)


def iso(when: datetime.datetime | None) -> str | None:
    """``2026-12-03T18:00:00Z``."""
    if when is None:
        return None
    return when.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


PLAN_OF_KIND = {
    "raven": "raven", "raid_next": "raids", "march_next": "marches", "raid": "raids",
    "march": "marches", "support": "support", "house_card": "house_cards", "blade": "blade",
    "casualties": "casualties", "retreat_losses": "casualties", "retreat": "retreats",
    "card_choice": "card_choices", "supply_reduction": "supply_reductions", "muster": "musters",
    "tie_break": "tie_break", "wildling_reward": "wildling_reward",
    "wildling_losses": "wildling_losses"}
"""The ``plans`` key that answers a decision kind (docs/protocol.md P1's table)."""


def _plain(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "nothing"
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
    fixed = {"orders": "no orders", "raven": "keep the orders", "raid": "no raid target",
             "march": "no move, no power token", "blade": "do not use the Blade",
             "muster": "muster nothing",
             "house_card": "the first card in hand in data order (strongest first)"}
    if kind in fixed:
        return fixed[kind]
    if kind in ("raid_next", "march_next"):
        return f"resolve {_plain(value)} next (the first candidate in fixed area order)"
    if kind == "support":
        return "support no one" if value in (None, "none") else f"support {value}"
    if kind in ("casualties", "retreat_losses", "supply_reduction", "wildling_losses"):
        return f"lose the cheapest first ({_plain(value)})"
    if kind == "retreat":
        return f"retreat to {_plain(value)} (the first offered area)"
    if kind == "card_choice":
        return "decline" if value in (None, "none") else f"choose {_plain(value)}"
    if kind == "bid":
        return f"bid {_plain(value)}"
    if kind == "tie_break":
        return f"{_plain(value)} (the documented tie-break)"
    if kind == "wildling_reward":
        return f"take {_plain(value)} (the discarded card with the highest printed strength)"
    return f"the documented default ({kind}, docs/protocol.md P2)"


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


@dataclass
class HouseStatus:
    house: str
    files: list[FileStatus] = field(default_factory=list)
    owes: list[Owed] = field(default_factory=list)
    late: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"house": self.house, "files": [f.to_dict() for f in self.files],
                "owes": [o.to_dict() for o in self.owes], "late": self.late}


@dataclass
class GameStatus:
    """What ``agot status`` reports (see the module doc)."""

    game: str
    round: int
    phase: str
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
        return self.deadline is not None and self.now > self.deadline

    def to_dict(self) -> dict[str, Any]:
        return {"format": "agot-status/1", "game": self.game, "round": self.round,
                "phase": self.phase, "stage": self.stage, "pending": self.pending,
                "deadline": iso(self.deadline), "now": iso(self.now),
                "past_deadline": self.past_deadline, "owed": self.owed,
                "houses": [h.to_dict() for h in self.houses],
                "other_files": [f.to_dict() for f in self.others]}


def _house_of(path: Path, houses: list[str]) -> str | None:
    try:
        house = read_yaml(str(path)).data.get("house")
    except InputError:
        house = None
    if isinstance(house, str) and house in houses:
        return house
    return path.stem if path.stem in houses else None


def _pending_entries(now: BoardNow) -> tuple[list[dict[str, Any]], datetime.datetime | None]:
    """The decisions the last run stopped on (``pending.yaml``: id, house, kind, reason,
    default) and when it stopped; ([], None) when the round is not stopped."""
    path = now.round.pending
    if not path.is_file():
        return [], None
    doc = read_yaml(str(path))
    # A question asked ahead (RUL-P1-4, RUL-4.6-1) is not owed, and its id may name a battle not
    # yet fought: status, which is public, leaves it out as the public report does.
    entries = [e for e in doc.data.get("pending") or [] if isinstance(e, dict) and not e.get("ahead")]
    return entries, file_time(path)


def _covering_source(section: HouseSection | None, entry: dict[str, Any]) -> Path | None:
    """The file whose section of a house's merged submissions answers this pending decision
    (P1's table: ``orders:``, ``bids:`` TRACK, ``wildlings:``, the plan key); None if none."""
    if section is None:
        return None
    kind, ident = entry.get("kind"), str(entry.get("id"))
    if kind == "orders":
        tag = "orders" if section.orders is not None else None
    elif kind == "bid" and "/wildlings/" in ident:
        tag = "wildlings" if section.wildlings is not None else None
    elif kind == "bid":
        track = ident.split("/clash_of_kings/")[-1].split("/")[0]
        tag = "bids" if section.bids is not None and track in section.bids else None
    else:
        key = PLAN_OF_KIND.get(str(kind))
        tag = f"plans.{key}" if key is not None and key in section.plans else None
    source = section.sources.get(tag) if tag else None
    return None if source is None else Path(source.doc.name)


def game_status(game_dir: str, ruleset: Ruleset, now: datetime.datetime) -> GameStatus:
    """The status of the current round of ``game_dir`` at time ``now`` (see the module doc)."""
    where = board_now(game_dir)
    board = load_board(where.path, ruleset, now=where)
    state = board.state
    houses = state.order_of_play()
    players = read_players(game_dir)
    deadline = parse_deadline(players.deadline) if players.deadline else None
    entries, stopped_at = _pending_entries(where)
    files = where.round.orders()
    # The validate workflow, against the board as `agot validate --game` checks it (P4).
    against, checked = where.path, board.state
    if board.provisional and state.phase == "action":
        against = where.round.state
        checked = load_board(against, ruleset).state
    result = validate_files(str(against), [str(p) for p in files], ruleset, board=checked)
    by_file: dict[str, list[int]] = {str(p): [0, 0] for p in files}
    for problem in result.problems:
        by_file.setdefault(problem.file, [0, 0])[0] += 1
    for warning in result.warnings:
        by_file.setdefault(warning.file, [0, 0])[1] += 1
    status = {h: HouseStatus(h) for h in houses}
    others: list[FileStatus] = []
    for path in files:
        house = _house_of(path, houses)
        problems, warnings = by_file[str(path)]
        info = FileStatus(file_name_text(path.name), house, received_at(path), problems == 0,
                          problems, warnings)
        (status[house].files if house is not None else others).append(info)
    # What the valid files submit, merged as adjudicate merges them (io.submissions.collect).
    docs, _ = read_submissions([str(p) for p in files if by_file[str(p)][0] == 0])
    subs, _ = collect(docs, state, ruleset)
    if state.phase == "ended":
        stage = "ended"
    elif entries:
        stage = "stopped"
    elif state.phase == "planning":
        stage = "waiting for orders"
        entries = [{"id": f"r{state.round}/orders/{h}", "house": h, "kind": "orders",
                    "default": {}} for h in houses]
    else:
        stage = "not run"
    for entry in entries:
        house = entry.get("house")
        if house not in status or str(entry.get("id")) in subs.answers:
            continue
        source = _covering_source(subs.sections.get(house), entry)
        if source is not None and (not entry.get("reason") or stopped_at is None
                                   or received_at(source) > stopped_at):
            continue
        kind = str(entry.get("kind"))
        status[house].owes.append(Owed(str(entry["id"]), kind,
                                       default_words(kind, entry.get("default"))))
    if deadline is not None and now > deadline:
        for h in status.values():
            h.late = bool(h.owes)
    return GameStatus(str(game_dir), state.round, state.phase, stage,
                      len(entries) if stage == "stopped" else 0, deadline, now,
                      list(status.values()), others)


def status_json(status: GameStatus) -> str:
    return json.dumps(status.to_dict(), indent=2, ensure_ascii=False) + "\n"


def _file_line(f: FileStatus) -> str:
    verdict = "valid" if f.valid else f"invalid ({f.problems} problem{'s' if f.problems != 1 else ''})"
    if f.warnings:
        verdict += f", {f.warnings} warning{'s' if f.warnings != 1 else ''}"
    return f"{f.name} received {iso(f.received)}, {verdict}"


def status_text(status: GameStatus) -> str:
    """The status as plain text: the round header, then one block per house."""
    s = status
    head = f"{s.game}: round {s.round}, {s.phase} phase"
    if s.stage == "ended":
        return f"{s.game}: round {s.round}: the game has ended\nnothing is owed\n"
    elif s.stage == "stopped":
        kinds = {o.kind for h in s.houses for o in h.owes}
        head += f": stopped on {s.pending} pending decision{'s' if s.pending != 1 else ''}"
        if "orders" in kinds:
            head += " (waiting for orders)"
    elif s.stage == "waiting for orders":
        head += ": waiting for orders (not run yet)"
    else:
        head += f": not run yet (run `agot adjudicate --game {s.game}`)"
    lines = [head]
    if s.deadline is not None:
        lines.append(f"deadline: {iso(s.deadline)} (now {iso(s.now)}: "
                     f"{'passed' if s.past_deadline else 'not yet'})")
    else:
        lines.append("deadline: none set (GAME/players.yaml)")
    for h in s.houses:
        lines.append("")
        mark = " — LATE" if h.late else ""
        lines.append(f"{h.house}{mark}")
        if h.files:
            lines.extend(f"  sent: {_file_line(f)}" for f in h.files)
        else:
            lines.append("  sent: nothing")
        if not h.owes:
            lines.append("  owes: nothing")
        for what, label in (("orders", "orders"), ("bid", "bids"), ("decision", "decisions")):
            ids = [o.id for o in h.owes if o.what == what]
            if ids:
                lines.append(f"  owes {label}: {', '.join(ids)}")
        if h.late:
            lines.append(f"  --nmr {h.house} would apply:")
            lines.extend(f"    {o.id}: {o.default}" for o in h.owes)
    if s.others:
        lines.append("")
        lines.append("other files (the moderator's, or for no house in play)")
        lines.extend(f"  {_file_line(f)}" for f in s.others)
    lines.append("")
    owing = [h.house for h in s.houses if h.owes]
    lines.append(f"owed by: {', '.join(owing)}" if owing else "nothing is owed")
    return "\n".join(lines) + "\n"
