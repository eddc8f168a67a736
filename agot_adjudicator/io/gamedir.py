"""Game directories (docs/protocol.md P4): one folder per round, the record a replay checks.

Layout::

    GAME/round-01/state.yaml        the state the round starts from (round 1: `agot new`)
    GAME/round-01/orders/*.yaml     every submission and answers file of that round
    GAME/round-01/report.md         written by `agot adjudicate --game GAME`
    GAME/round-01/log.jsonl         the events of the round
    GAME/round-01/pending.yaml      only while the round is stopped on decisions
    GAME/round-01/now.yaml          with pending.yaml: the provisional state, the board as far
                                    as the stopped run got (never a record or an input)
    GAME/round-01/now.svg           with pending.yaml: its picture
    GAME/round-01/board.svg         the board after the round (`agot map`)
    GAME/round-01/moves.svg         the round as played: orders, marches, battles (`agot map --game`)
    GAME/round-02/state.yaml        what adjudicating round-01 gave

Folders are numbered in sequence (``round-NN``, two digits or more); the
folder after the last round holds the final state (phase ``ended``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from agot_adjudicator.errors import UsageError

_ROUND_DIR = re.compile(r"^round-(\d{2,})$")
SUBMISSION_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class RoundDir:
    """One ``round-NN`` folder of a game directory."""

    number: int
    path: Path

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def state(self) -> Path:
        return self.path / "state.yaml"

    @property
    def orders_dir(self) -> Path:
        return self.path / "orders"

    @property
    def report(self) -> Path:
        return self.path / "report.md"

    @property
    def log(self) -> Path:
        return self.path / "log.jsonl"

    @property
    def pending(self) -> Path:
        return self.path / "pending.yaml"

    @property
    def now(self) -> Path:
        """The provisional state of a stopped round (docs/protocol.md P4)."""
        return self.path / "now.yaml"

    @property
    def now_picture(self) -> Path:
        return self.path / "now.svg"

    @property
    def board(self) -> Path:
        return self.path / "board.svg"

    @property
    def moves(self) -> Path:
        return self.path / "moves.svg"

    def orders(self) -> list[Path]:
        """The round's submission files, by name (their order never changes the result)."""
        if not self.orders_dir.is_dir():
            return []
        # Not only regular files: a FIFO or a link named *.yaml is listed, and refused
        # when read (io/safefile.py), rather than silently left out.
        return sorted((p for p in self.orders_dir.iterdir()
                       if p.suffix in SUBMISSION_SUFFIXES and not p.is_dir()),
                      key=lambda p: p.name)

    def following(self) -> RoundDir:
        """The folder that receives the state this round gives."""
        number = self.number + 1
        return RoundDir(number, self.path.parent / round_dir_name(number))


def round_dir_name(number: int) -> str:
    """``round-01`` … ``round-10``, ``round-11``."""
    return f"round-{number:02d}"


def round_dirs(game_dir: str | Path) -> list[RoundDir]:
    """The round folders of ``game_dir`` in order; numbering must start at 1 without gaps."""
    root = Path(game_dir)
    if not root.is_dir():
        raise UsageError(f"{game_dir}: not a game directory (no such directory)")
    found = []
    for child in root.iterdir():
        match = _ROUND_DIR.match(child.name)
        if match and child.is_dir():
            found.append(RoundDir(int(match.group(1)), child))
    found.sort(key=lambda r: r.number)
    if not found:
        raise UsageError(f"{game_dir}: not a game directory (no round-NN folder; "
                         "start one with `agot new --game DIR`)")
    for expected, rd in enumerate(found, start=1):
        if rd.number != expected:
            raise UsageError(f"{game_dir}: {round_dir_name(expected)} is missing "
                             f"(found {rd.name})")
    return found


@dataclass(frozen=True)
class BoardNow:
    """Where the board as it stands now is (:func:`board_now`)."""

    round: RoundDir
    path: Path
    provisional: bool
    """True: ``path`` is the stopped round's ``now.yaml``; False: the round's ``state.yaml``."""


def board_now(game_dir: str | Path) -> BoardNow:
    """The board as it stands now in a game directory, the one state the views and
    ``agot validate --game`` read (docs/protocol.md P4): the current round's provisional
    state while it is stopped on decisions (``pending.yaml`` and ``now.yaml``: after the
    Westeros phase, the board the orders are for), else its ``state.yaml``."""
    from agot_adjudicator.io.commit import pending_commit

    interrupted = pending_commit(game_dir)
    if interrupted is not None:
        raise UsageError(f"{game_dir}: the commit of {interrupted} was interrupted; run `agot "
                         f"adjudicate --game {game_dir}` to finish it first")
    rd = current_round(game_dir)
    if rd.pending.is_file() and rd.now.is_file():
        return BoardNow(rd, rd.now, True)
    return BoardNow(rd, rd.state, False)


def current_round(game_dir: str | Path) -> RoundDir:
    """The last round folder that holds a state: the round to adjudicate next."""
    dirs = [rd for rd in round_dirs(game_dir) if rd.state.exists() or rd.state.is_symlink()]
    if not dirs:
        raise UsageError(f"{game_dir}: no round-NN/state.yaml found")
    return dirs[-1]
