"""Text tables for reports and views: tabulate, measuring cells with wcwidth.

wcwidth is a dependency, not tabulate's optional extra, and wide-character mode is switched on
explicitly: a cell is as wide as the terminal columns it takes (two for a Chinese character),
on every machine, rather than ``len()`` on machines without wcwidth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

FORMATS = ("simple", "github")


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
        return str(tabulate.tabulate(rows, headers=list(headers), tablefmt=fmt))
    cells = [[str(c) for c in row] for row in rows]
    limits = fit_widths([list(headers), *cells], width)
    text = str(tabulate.tabulate(rows, headers=list(headers), tablefmt=fmt,
                                 maxcolwidths=limits,
                                 maxheadercolwidths=limits))  # type: ignore[arg-type]  # None: no limit
    return "\n".join(line.rstrip() for line in text.split("\n"))


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
    text (tabulate's ``MIN_PADDING``).

    >>> fit_widths([["a", "b"], ["x" * 10, "one two three four five six"]], 30)
    [None, 22]
    """
    count = max((len(r) for r in rows), default=0)
    cols = [[str(r[i]) if i < len(r) else "" for r in rows] for i in range(count)]
    # each cell as the terminal widths of its words, measured once
    words = [[[columns(w) for w in c.split()] for c in col] for col in cols]
    seen: dict[tuple[int, int], int] = {}

    def wrapped(widths: list[int], limit: int) -> int:
        """The width of a cell wrapped at spaces into lines of at most ``limit`` columns (a
        longer word is broken, as tabulate does)."""
        widest = line = 0
        for width_ in widths:
            w = min(width_, limit)
            line = w if not line or line + 1 + w > limit else line + 1 + w
            widest = max(widest, line)
        return widest

    def used(i: int, limit: int) -> int:
        if (i, limit) not in seen:
            head, *cells = words[i]
            seen[i, limit] = max([wrapped(c, limit) for c in cells]
                                 + [wrapped(head, limit) + padding])
        return seen[i, limit]

    natural = [used(i, 10 ** 6) for i in range(count)]
    floor = [min(natural[i], max(8, *(max(c, default=0) for c in words[i])))
             for i in range(count)]
    limits = list(natural)
    budget = width - gap * max(count - 1, 0)
    while sum(used(i, limits[i]) for i in range(count)) > budget:
        shrinkable = [i for i in range(count) if limits[i] > floor[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: (used(i, limits[i]), i))
        limits[widest] = min(limits[widest], used(widest, limits[widest])) - 1
    return [None if limits[i] >= natural[i] else limits[i] for i in range(count)]
