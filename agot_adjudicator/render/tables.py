"""Text tables for reports and views: tabulate, measuring cells with wcwidth.

wcwidth is a dependency, not tabulate's optional extra, and wide-character mode is switched on
explicitly: a cell is as wide as the terminal columns it takes (two for a Chinese character),
on every machine, rather than ``len()`` on machines without wcwidth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

FORMATS = ("simple", "github")


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], fmt: str = "simple") -> str:
    """``fmt``: ``simple`` (plain text) or ``github`` (Markdown).

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
    return str(tabulate.tabulate(rows, headers=list(headers), tablefmt=fmt))
