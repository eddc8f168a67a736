"""Text tables for reports and views, written here rather than by tabulate.

The output is byte-identical to ``tabulate(rows, headers, tablefmt)`` for the
``simple`` and ``github`` formats with ``WIDE_CHARS_MODE`` off (a test checks
it against tabulate). Two reasons not to call tabulate at run time: it
measures cells with the optional ``wcwidth`` package when that happens to be
installed, so the same report could differ between machines (docs/protocol.md P3);
and importing it (with ``importlib.metadata`` and ``wcwidth``) cost more than
the whole rest of an ``agot adjudicate`` run.

Rules kept from tabulate: ``None`` and ``""`` are empty cells; a column is numeric when
every non-empty cell is an int or a string that reads as a number, and numeric
columns (and their headers) are aligned right, decimal points lined up; others
left; a column is at least its header's width + 2; cells are stripped;
``simple`` lines are stripped on the right.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_ORDER = {"none": 0, "bool": 1, "int": 2, "float": 3, "text": 4}


_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?")


def _number_kind(text: str) -> str | None:
    if _INT.fullmatch(text):
        return "int"
    return "float" if _FLOAT.fullmatch(text) else None


def _after_point(text: str) -> int:
    """Digits after the decimal point (-1 for an int or a non-number), for decimal alignment."""
    if _number_kind(text) != "float":
        return -1
    point = text.rfind(".")
    if point < 0:
        point = text.lower().rfind("e")
    return len(text) - point - 1 if point >= 0 else -1


def _kind(value: Any) -> str:
    if value is None or value == "":
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    return _number_kind(str(value).strip()) or "text"


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], fmt: str = "simple") -> str:
    """``fmt``: ``simple`` (plain text) or ``github`` (Markdown).

    >>> print(table([["stark", 5], ["lannister", 12]], ["house", "power"]))
    house        power
    ---------  -------
    stark            5
    lannister       12
    """
    if fmt not in ("simple", "github"):
        raise ValueError(f"table format {fmt!r}: simple or github")
    columns = len(headers)
    cells = [[_text(row[i]) if i < len(row) else "" for i in range(columns)] for row in rows]
    right = []
    widths = []
    for i, header in enumerate(headers):
        kind = max((_kind(row[i]) if i < len(row) else "none" for row in rows),
                   key=_ORDER.__getitem__, default="none")
        right.append(kind in ("int", "float"))
        if kind == "float":  # tabulate prints a bool in a float column as a number
            for raw, r in zip(rows, cells, strict=True):
                if i < len(raw) and isinstance(raw[i], bool):
                    r[i] = str(int(raw[i]))
        if kind == "float":  # decimal alignment: pad so the points line up
            decimals = [_after_point(r[i]) for r in cells]
            most = max(decimals, default=-1)
            for r, d in zip(cells, decimals, strict=True):
                r[i] += " " * (most - d)
        widths.append(max([len(header) + 2, *(len(r[i]) for r in cells)]))

    def line(values: Sequence[str]) -> list[str]:
        return [v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right, strict=True)]

    if fmt == "simple":
        out = ["  ".join(line(list(headers))).rstrip(), "  ".join("-" * w for w in widths)]
        out.extend("  ".join(line(r)).rstrip() for r in cells)
    else:
        out = ["| " + " | ".join(line(list(headers))) + " |",
               "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
        out.extend("| " + " | ".join(line(r)) + " |" for r in cells)
    return "\n".join(out)
