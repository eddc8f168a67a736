"""A round's ledger of decisions (``round-NN/decisions.yaml``, docs/protocol.md P4).

Every ``agot adjudicate --game`` run writes, in the commit of its outputs, every decision the
committed runs of the round have resolved: its id, house and kind, the value, how it was
resolved (``answer``, ``plan``, ``default``, ``only_option``) and the run that resolved it.
What a committed run resolved stands (RUL-P8-7): the next runs apply the recorded defaults
again (no ``--nmr`` needs repeating), and a submission that would resolve a recorded decision
otherwise is refused, at intake and by ``adjudicate``; ``agot replay`` checks the record
against it. The ledger is the moderator's file, like ``pending.yaml``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agot_adjudicator.engine.decisions import BY_DEFAULT, Resolution
from agot_adjudicator.errors import InputError, MalformedInput
from agot_adjudicator.io.gamedir import RoundDir
from agot_adjudicator.io.reading import Document, load_yaml
from agot_adjudicator.io.writing import dump_yaml

LEDGER = "decisions.yaml"
LEDGER_FORMAT = "agot-decisions/1"
LEDGER_HEADER = (
    f"agot decisions ledger ({LEDGER_FORMAT}): every decision the committed runs of this round\n"
    "resolved, with the run and how (answer, plan, default, only_option). What is recorded here\n"
    "stands: later runs apply the recorded defaults again and refuse a submission that would\n"
    "resolve a recorded decision otherwise. The moderator's file: do not publish or edit it.")


@dataclass(frozen=True)
class Entry:
    """One recorded decision."""

    run: int
    id: str
    house: str
    kind: str
    by: str
    value: Any

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "id": self.id, "house": self.house, "kind": self.kind,
                "by": self.by, "value": self.value}


@dataclass(frozen=True)
class Ledger:
    """What the committed runs of a round resolved (empty before the first run)."""

    round: int
    runs: int = 0
    entries: tuple[Entry, ...] = ()
    doc: Document | None = field(default=None, compare=False)
    """The file it was read from (None: no run committed yet)."""

    def by_id(self) -> dict[str, Entry]:
        return {e.id: e for e in self.entries}

    def defaults(self) -> dict[str, Any]:
        """The recorded defaults, decision id → value: applied again by every later run (P2)."""
        return {e.id: e.value for e in self.entries if e.by == BY_DEFAULT}

    def of(self, house: str) -> list[Entry]:
        return [e for e in self.entries if e.house == house]

    def after(self, resolved: Sequence[Resolution], defaulted: Sequence[Entry] = ()) -> Ledger:
        """The ledger once a run that resolved ``resolved`` is committed: the entries kept, the
        new decisions added with the run's number, and the defaults the run applied first
        (``defaulted``) even where the run stopped before their turn was complete."""
        known = self.by_id()
        run = self.runs + 1
        added = [Entry(run, r.id, r.house, r.kind, r.by, r.value) for r in resolved
                 if r.id not in known]
        ids = {e.id for e in added}
        added += [e for e in defaulted if e.id not in known and e.id not in ids]
        return Ledger(self.round, run, (*self.entries, *added))

    def before_last(self) -> Ledger:
        """The ledger as the runs before the last one left it (replay re-derives the last
        run's entries from its own run)."""
        return Ledger(self.round, self.runs - 1,
                      tuple(e for e in self.entries if e.run < self.runs))

    def sha256(self) -> str:
        return hashlib.sha256(self.text().encode("utf-8")).hexdigest()

    def chain_entry(self) -> dict[str, str]:
        """What a next state's hash chain records of the ledger (``chain.decisions``)."""
        return {"file": LEDGER, "sha256": self.sha256()}

    def text(self) -> str:
        return dump_yaml({"format": LEDGER_FORMAT, "round": self.round, "runs": self.runs,
                          "decisions": [e.to_dict() for e in self.entries]},
                         header=LEDGER_HEADER)


def _entries(data: Mapping[str, Any]) -> tuple[Entry, ...]:
    return tuple(Entry(int(d["run"]), str(d["id"]), str(d["house"]), str(d["kind"]),
                       str(d["by"]), d["value"]) for d in data["decisions"])


def read_ledger(rd: RoundDir, round_number: int) -> Ledger:
    """The round's ledger, or an empty one when no run of the round has been committed;
    a file that is not a ledger agot wrote is :class:`MalformedInput`."""
    from agot_adjudicator.io.schemas import schema_problems

    path = rd.path / LEDGER
    if not path.exists() and not path.is_symlink():
        return Ledger(round_number)
    try:
        doc = load_yaml(path, root=rd.path.parent)
    except InputError as exc:
        raise MalformedInput(exc.problems) from None
    problems = schema_problems(doc, "decisions")
    if problems:
        raise MalformedInput(problems)
    if doc.data["round"] != round_number:
        raise MalformedInput([doc.problem(["round"], f"the ledger of round {doc.data['round']} "
                                          f"is in the folder of round {round_number}")])
    return Ledger(round_number, int(doc.data["runs"]), _entries(doc.data), doc)
