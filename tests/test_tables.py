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


# --- CJK names from the glossary (issue 18, item 5) -----------------------------------------

def _starts(line: str, cells: list[str]) -> list[int]:
    """The display column where each cell starts in ``line`` (cells found left to right)."""
    from wcwidth import wcswidth

    starts, at = [], 0
    for cell in cells:
        index = line.index(cell, at)
        starts.append(wcswidth(line[:index]))
        at = index + len(cell)
    return starts


@pytest.mark.parametrize("fmt", ["simple", "github"])
def test_chinese_area_names_line_up(ruleset, fmt):
    """Every area in both scripts: each line has the same display width (two columns a
    Chinese character), and every cell of a column starts at the same display column."""
    from wcwidth import wcswidth

    g = ruleset.glossary
    headers = ["area", "English", "简体", "繁體", "补给"]
    rows = [[a, g.name("area", a), g.name("area", a, "zh-Hans"), g.name("area", a, "zh-Hant"),
             ruleset.areas[a].supply] for a in ruleset.area_ids]
    lines = table(rows, headers, fmt).splitlines()
    assert len(lines) == 2 + len(rows)
    assert {wcswidth(line) for line in lines} == {wcswidth(lines[0])}
    head = _starts(lines[0], headers[:4])
    for row, line in zip(rows, lines[2:], strict=True):
        assert _starts(line, [str(c) for c in row[:4]]) == head, line
        assert line.rstrip(" |").endswith(str(row[4]))  # numbers right-aligned at the edge


def test_chinese_card_and_order_names_line_up(ruleset):
    """Names with a name separator (·, ‧) or a ★: East Asian *ambiguous* width, counted as one
    column by wcwidth on every machine (a terminal set to draw ambiguous characters wide would
    show those lines one column longer)."""
    from wcwidth import wcswidth

    g = ruleset.glossary
    rows = [[g.name(kind, i, "zh-Hans"), g.name(kind, i, "zh-Hant"), g.name(kind, i)]
            for kind in ("house_card", "order") for i in g.ids(kind)]
    lines = table(rows, ["简体", "繁體", "English"]).splitlines()
    head = _starts(lines[0], ["简体", "繁體", "English"])
    assert head == [0, 21, 42]  # the widest name, 19 columns, + 2
    for row, line in zip(rows, lines[2:], strict=True):
        assert _starts(line, row) == head, line
    assert wcswidth("艾德·史塔克") == wcswidth("艾德‧史塔克") == 11
    assert wcswidth("行军 +1★") == 8
