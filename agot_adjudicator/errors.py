"""Exit codes and the exceptions that the CLI turns into them (docs/protocol.md P6).

The one mapping from outcomes to exit codes is the ``exit_code`` of each class
below; ``cli.options.handle_errors`` is the only place that exits with it:

====================  ====  ==================================================
exception             exit  meaning
====================  ====  ==================================================
MalformedInput        1     input not understood: unreadable, not YAML, or not
                            the shape its schema requires
IllegalInput          1     input understood, but against a rule of the game or
                            of the decision protocol
MessagesNotAccepted   1     ``agot inbox``: a message refused, invalid or
                            malformed (kept, with its receipt)
InputError            1     both kinds at once (``validate`` reports every file)
OSError               1     an output that cannot be written (no traceback)
UsageError            2     a command used wrongly (also Click's own errors)
PendingDecisions      3     not an error: the run stopped, its questions printed
DifferencesFound      4     not an error: differences found and printed (diff,
                            replay, whatif, conformance)
RulesetError          5     the ruleset data is broken (``--ruleset DIR``)
====================  ====  ==================================================

Malformed and illegal input keep one exit status (1: "invalid input, nothing
written", what a moderator's script tests) and differ in class and in the
closing line printed after the located problems.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from agot_adjudicator.model.text import Msg


class ExitCode(IntEnum):
    """The exit codes of every ``agot`` command."""

    OK = 0
    INVALID_INPUT = 1
    USAGE = 2
    PENDING = 3
    DIFFERENCES = 4
    BROKEN_RULESET = 5


def escaped(text: str, limit: int = 400) -> str:
    """``text`` with control and other unprintable characters escaped, cut to ``limit``.

    Messages quote input (keys, values, file names): a hostile file must not reach the
    terminal with escape sequences or pages of its content.

    >>> print(escaped("a" + chr(27) + "[2Jb"))
    a\\x1b[2Jb
    >>> escaped("x" * 50, 10)
    'xxxxxxxxxx… (40 more characters)'
    """
    if not text.isprintable():
        text = "".join(c if c.isprintable() or c == "\n" else
                       c.encode("unicode_escape").decode("ascii") for c in text)
    if len(text) > limit:
        text = f"{text[:limit]}… ({len(text) - limit} more characters)"
    return text


def excerpt(value: object, limit: int = 40) -> str:
    """A short, escaped ``repr`` of an input value for an error message.

    >>> excerpt("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (62 more characters)"
    """
    return escaped(repr(value) if len(str(value)) < 10 * limit else repr(str(value)[:limit + 1])
                   + "…", limit)


@dataclass(frozen=True)
class Problem:
    """One located problem in an input file.

    >>> str(Problem("s.yaml", 3, 5, "$.round", "expected an integer"))
    's.yaml:3:5: $.round: expected an integer'
    """

    file: str
    line: int | None
    column: int | None
    path: str
    message: str

    def __str__(self) -> str:
        return self.located(self.message)

    def located(self, message: str) -> str:
        """``file:line:col: path: message`` with ``message`` (this problem's message, or the same
        said in another language: :func:`agot_adjudicator.render.receipt.problem_text`)."""
        where = escaped(self.file, 1000)
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        message = escaped(message, 600)
        if self.path:
            return f"{where}: {escaped(self.path, 200)}: {message}"
        return f"{where}: {message}"

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.file, self.line or 0, self.column or 0, self.path, self.message)


class AgotError(Exception):
    """Base class: an error that the CLI reports without a traceback."""

    exit_code: ExitCode = ExitCode.INVALID_INPUT


class InputError(AgotError):
    """Invalid input files: every problem found, exit 1. Raised as such when a run found both
    kinds below (``agot validate``); else as :class:`MalformedInput` or :class:`IllegalInput`."""

    exit_code = ExitCode.INVALID_INPUT
    summary: str = Msg("invalid input (some not understood, some against the rules); nothing written")

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=Problem.sort_key)
        super().__init__("\n".join(str(p) for p in self.problems))

    @staticmethod
    def of(malformed: list[Problem], illegal: list[Problem]) -> InputError:
        """The error for these problems, of the class that names their kind."""
        if malformed and illegal:
            return InputError(malformed + illegal)
        return MalformedInput(malformed) if malformed else IllegalInput(illegal)


class MalformedInput(InputError):
    """Input not understood: a file that cannot be read, is not YAML, or is not the shape its
    schema requires (like python-chess's InvalidMoveError). Exit 1."""

    summary = Msg("malformed input: not understood (unreadable, not YAML, or not the shape its "
                  "schema requires); nothing written")


class IllegalInput(InputError):
    """Input understood but against a rule of the game or of the decision protocol (like
    python-chess's IllegalMoveError). Exit 1."""

    summary = Msg("illegal input: understood, but against the rules; nothing written")


class MessagesNotAccepted(InputError):
    """``agot inbox``: some messages were refused, invalid or malformed (their receipts say
    why). Exit 1; every message is kept and nothing was stored for those."""

    summary = Msg("some messages were not accepted: each is kept in the messages folder with its "
                  "receipt; nothing was stored for them")


class PendingDecisions(AgotError):
    """Not an error: the run stopped on pending decisions, already printed. Exit 3."""

    exit_code = ExitCode.PENDING


class DifferencesFound(AgotError):
    """Not an error: the command found differences, already printed. Exit 4."""

    exit_code = ExitCode.DIFFERENCES


class RulesetError(AgotError):
    """The ruleset data is broken (load-time integrity checks): exit 5."""

    exit_code = ExitCode.BROKEN_RULESET

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class UsageError(AgotError):
    """A command used wrongly (e.g. an output over an input, options that do not go together);
    the one usage error of the package (Click reports its own parsing errors, also exit 2)."""

    exit_code = ExitCode.USAGE


class JudgeFailed(AgotError):
    """A pass that could not do all it should (a server unreachable, a login refused, a
    mailbox gone): what it did stands, the rest is done by the next pass. Exit 2."""

    exit_code = ExitCode.USAGE
