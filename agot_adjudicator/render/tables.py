"""Text tables for reports and views: tabulate, measuring cells with wcwidth.

wcwidth is a dependency, not tabulate's optional extra, and wide-character mode is switched on
explicitly: a cell is as wide as the terminal columns it takes (two for a Chinese character),
on every machine, rather than ``len()`` on machines without wcwidth.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

FORMATS = ("simple", "github")

_NOT_IN_NUMBERS = re.compile(r"[^\d\s+\-.,_eEiInNfFtTyYaA]")
"""A character no number holds: tabulate takes a cell for a number when ``int()`` or
``float()`` reads it (digits of any script, blanks, a sign, a point, ``_``, an exponent,
``inf``, ``nan``, ``infinity``) or it has thousands separators."""


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], fmt: str = "simple",
          width: int | None = None) -> str:
    """``fmt``: ``simple`` (plain text) or ``github`` (Markdown). With ``width`` (plain text
    only), the widest columns are wrapped until the table fits in ``width`` terminal columns
    (as far as words allow) and trailing blanks are cut (:func:`fit_widths`).

    >>> print(table([["stark", 5], ["lannister", 12], ["北境", 1]], ["house", "power"]))
    house        power
    ---------  -------
    stark            5
    lannister       12
    北境             1
    """
    if fmt not in FORMATS:
        raise ValueError(f"table format {fmt!r}: simple or github")
    import tabulate
    import wcwidth  # noqa: F401 - a dependency: tabulate measures wide characters with it

    tabulate.WIDE_CHARS_MODE = True
    if width is None or fmt != "simple":
        return str(tabulate.tabulate(rows, headers=list(headers), tablefmt=fmt,
                                     disable_numparse=text_columns(rows, headers)))
    cells = [[str(c) for c in row] for row in rows]
    limits = fit_widths([list(headers), *cells], width)
    text = str(tabulate.tabulate(rows, headers=list(headers), tablefmt=fmt,
                                 disable_numparse=text_columns(rows, headers, limits),
                                 maxcolwidths=limits,
                                 maxheadercolwidths=limits))  # type: ignore[arg-type]  # None: no limit
    return "\n".join(line.rstrip() for line in text.split("\n"))


def text_columns(rows: Sequence[Sequence[Any]], headers: Sequence[str],
                 limits: Sequence[int | None] | None = None) -> list[int]:
    """The columns tabulate would find to be text, where it need not try every cell as a
    number (its ``disable_numparse``; the table is byte for byte the same): a column with a
    cell that holds a character no number has (:data:`_NOT_IN_NUMBERS`). A column wrapped at
    a limit also needs every other cell (and its header) to be one word that fits: tabulate
    leaves a number unwrapped only while it parses numbers.

    >>> text_columns([["stark", 5, "+1"], ["北境", 12, "Stark: +2"]], ["house", "power", ""])
    [0, 2]
    """
    count = len(headers)
    if not rows or any(len(row) != count for row in rows):
        return []
    found = []
    for i in range(count):
        cells = [row[i] for row in rows]
        if any(isinstance(c, str) and "\x1b" in c for c in [headers[i], *cells]):
            continue  # tabulate strips ANSI escapes before it parses a number
        if not any(_is_text(c) for c in cells):
            continue
        limit = limits[i] if limits is not None and i < len(limits) else None
        if limit is None or all(_unwrapped(c, limit) for c in [headers[i], *cells]):
            found.append(i)
    return found


def _is_text(cell: Any) -> bool:
    """Whether tabulate types ``cell`` as text (a ``str`` with a character no number has, and
    not ``True`` or ``False``, which it types as booleans, below numbers)."""
    return (type(cell) is str and _NOT_IN_NUMBERS.search(cell) is not None
            and cell not in ("True", "False"))


def _unwrapped(cell: Any, limit: int) -> bool:
    """Whether tabulate's wrapping at ``limit`` leaves ``cell`` as it is, or it is text (which
    tabulate wraps whether it parses numbers or not)."""
    if _is_text(cell):
        return True
    if type(cell) is int:
        cell = str(cell)
    return type(cell) is str and (not cell or cell.split() == [cell]) and columns(cell) <= limit


def columns(text: str) -> int:
    """How many terminal columns ``text`` (one line) takes: two for a wide character.

    >>> columns("北境 ok")
    7
    """
    import wcwidth

    n = wcwidth.wcswidth(text)
    return n if n >= 0 else len(text)


def fit_widths(rows: Sequence[Sequence[str]], width: int, gap: int = 2,
               padding: int = 2) -> list[int | None]:
    """Column limits that make a plain table of ``rows`` (headers first) fit in ``width``:
    the widest column is narrowed, one column at a time, never below its longest word (or 8);
    ``None`` where a column keeps its width. A header takes ``padding`` columns more than its
    text (tabulate's ``MIN_PADDING``). Each word is measured once, a cell is wrapped only at
    limits below its width, and a column's narrowing is found in one pass (:func:`_narrowed`).

    >>> fit_widths([["a", "b"], ["x" * 10, "one two three four five six"]], 30)
    [None, 22]
    """
    count = max((len(r) for r in rows), default=0)
    cols = [[str(r[i]) if i < len(r) else "" for r in rows] for i in range(count)]
    # each cell as the terminal widths of its words, measured once
    words = [[_word_widths(c) for c in col] for col in cols]
    # each column's cells as (width unwrapped, word widths), the widest first: at a limit, a
    # cell no wider than it keeps its width, so only the cells above it are wrapped
    widest_first = [sorted(((_wrapped(c, _UNLIMITED), c) for c in col[1:]), reverse=True)
                    for col in words]
    seen: dict[tuple[int, int], int] = {}

    def used(i: int, limit: int) -> int:
        if (i, limit) not in seen:
            most = _wrapped(words[i][0], limit) + padding
            for natural_, cell in widest_first[i]:
                if most >= limit:  # no cell is wrapped wider than the limit
                    break
                if natural_ <= limit:
                    most = max(most, natural_)
                    break
                most = max(most, _wrapped(cell, limit))
            seen[i, limit] = most
        return seen[i, limit]

    natural = [used(i, _UNLIMITED) for i in range(count)]
    budget = width - gap * max(count - 1, 0)
    if sum(natural) <= budget:  # the table fits as it is
        return [None] * count
    floor = [min(natural[i], max(8, *(max(c, default=0) for c in words[i])))
             for i in range(count)]
    limits, reached = list(natural), list(natural)  # reached: used(i, limits[i])
    total = sum(natural)
    while total > budget:
        shrinkable = [i for i in range(count) if limits[i] > floor[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: (reached[i], i))
        rival = max(((reached[i], i) for i in shrinkable if i != widest), default=(-1, -1))
        # it is narrowed until the table fits or another column is the widest (the others
        # wait meanwhile: their widths stay), or down to its floor
        most = max(budget - (total - reached[widest]), rival[0] - (widest > rival[1]))
        limits[widest] = _narrowed(functools.partial(used, widest), limits[widest],
                                   floor[widest], most)
        now = used(widest, limits[widest])
        total += now - reached[widest]
        reached[widest] = now
    return [None if limits[i] >= natural[i] else limits[i] for i in range(count)]


_UNLIMITED = 10 ** 6


def _narrowed(width_at: Callable[[int], int], start: int, floor: int, most: int) -> int:
    """Where narrowing a column from the limit ``start`` stops, each step setting the limit
    one below the smaller of the limit and the width reached at it, until that width is at
    most ``most`` or the limit at most ``floor``: found by bisection, not step by step.

    ``width_at`` (the column's width at a limit) never falls as the limit grows, and at its
    own width below the limit a column is as wide again (greedy wrapping keeps its lines). So
    the steps stop at the first limit at most ``stop``, the largest limit above ``floor`` whose
    width is at most ``most`` (or ``floor``), and reach it from ``stop + 1``: ``min(stop + 1,
    width_at(stop + 1)) - 1``. ``width_at(start)`` is above ``most``.

    >>> [_wrapped([4, 4, 4, 4], limit) for limit in (19, 18, 14, 13)]
    [19, 14, 14, 9]
    >>> _narrowed(lambda limit: _wrapped([4, 4, 4, 4], limit), 19, 4, 9)  # 19, 13 (14 - 1)
    13
    """
    stop, above = floor, start  # width_at(above) > most; stop: a stop, or the floor
    while above - stop > 1:
        middle = (stop + above) // 2
        if width_at(middle) <= most:
            stop = middle
        else:
            above = middle
    return min(stop + 1, width_at(stop + 1)) - 1


def _wrapped(widths: list[int], limit: int) -> int:
    """The width of a cell (its words' ``widths``) wrapped at spaces into lines of at most
    ``limit`` columns (a longer word is broken, as tabulate does)."""
    widest = line = 0
    for width in widths:
        w = min(width, limit)
        line = w if not line or line + 1 + w > limit else line + 1 + w
        widest = max(widest, line)
    return widest


def _word_widths(cell: str) -> list[int]:
    """The terminal widths of the words of ``cell`` (printable ASCII: their lengths)."""
    if cell.isascii() and cell.isprintable():
        return [len(w) for w in cell.split()]
    return [columns(w) for w in cell.split()]
