"""Text tables for reports and views: tabulate, with widths that never depend on the machine.

tabulate measures cells with the optional ``wcwidth`` package when it happens
to be installed; ``WIDE_CHARS_MODE = False`` (tabulate's documented switch)
makes every cell's width its length in code points on every machine
(DESIGN.md §4: the same bytes everywhere). Imported lazily: tabulate is slow
to import and most commands print no table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], fmt: str = "simple") -> str:
    """``fmt``: ``simple`` (plain text) or ``github`` (Markdown).

    >>> print(table([["stark", 5]], ["house", "power"]))
    house      power
    -------  -------
    stark          5
    """
    import tabulate

    tabulate.WIDE_CHARS_MODE = False
    return tabulate.tabulate(rows, headers=list(headers), tablefmt=fmt)
