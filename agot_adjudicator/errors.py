"""Exit codes and the exceptions that the CLI turns into them (docs/protocol.md P6)."""

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
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        if self.path:
            return f"{where}: {self.path}: {self.message}"
        return f"{where}: {self.message}"

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
