"""Exit codes and the exceptions that the CLI turns into them (DESIGN.md §3)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class ExitCode(IntEnum):
    """The exit codes of every ``agot`` command."""

    OK = 0
    INVALID_INPUT = 1
    USAGE = 2
    PENDING = 3
    DIFFERENCES = 4


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
        where = escaped(self.file, 1000)
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        message = escaped(self.message, 600)
        if self.path:
            return f"{where}: {escaped(self.path, 200)}: {message}"
        return f"{where}: {message}"

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.file, self.line or 0, self.column or 0, self.path, self.message)


class AgotError(Exception):
    """Base class: an error that the CLI reports without a traceback."""

    exit_code: ExitCode = ExitCode.INVALID_INPUT


class InputError(AgotError):
    """Invalid input files (schema or rules): every problem found, exit 1."""

    exit_code = ExitCode.INVALID_INPUT

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=Problem.sort_key)
        super().__init__("\n".join(str(p) for p in self.problems))


class RulesetError(AgotError):
    """The ruleset data is broken (load-time integrity checks): exit 4."""

    exit_code = ExitCode.DIFFERENCES

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class UsageError(AgotError):
    """A command used wrongly in a way Click cannot see (e.g. output over an input)."""

    exit_code = ExitCode.USAGE
