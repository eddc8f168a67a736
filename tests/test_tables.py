"""Tables are tabulate's, with cells measured by wcwidth on every machine."""

from __future__ import annotations

import pytest

from agot_adjudicator.render.tables import table


def test_unknown_format_is_refused():
    with pytest.raises(ValueError):
        table([], ["a"], "grid")


def test_wide_characters_take_two_columns():
    """A Chinese name is as wide as it shows in a terminal, so the next column lines up."""
    lines = table([["北境", 5], ["stark", 12]], ["house", "power"]).splitlines()
    assert lines[2] == "北境" + " " * 11 + "5"  # 4 columns + 3 to the column's width of 7, + 2 + 6
    assert lines[3] == "stark" + " " * 9 + "12"


def test_github_tables_are_markdown():
    assert table([["stark", 5]], ["house", "power"], "github").splitlines() == [
        "| house   |   power |", "|---------|---------|", "| stark   |       5 |"]


def test_the_width_does_not_depend_on_a_module_setting(monkeypatch):
    """tabulate measures with len() unless wide-character mode is on; agot always turns it on."""
    import tabulate

    monkeypatch.setattr(tabulate, "WIDE_CHARS_MODE", False)
    assert table([["北境"]], ["h"]).splitlines()[2] == "北境"
    assert table([["北境", 1]], ["h", "n"]).splitlines()[0] == "h       n"
