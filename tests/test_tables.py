"""agot's table writer gives tabulate's bytes (simple, github; no wide-character measuring)."""

from __future__ import annotations

import random

import pytest
import tabulate as tabulate_module

from agot_adjudicator.render.tables import table

CELLS = ["stark", "lannister", "", None, 0, 5, 12, -3, "7", "05", "1.5", "x y", "★", "×2", True,
         False, "winterfell (stark)", "R6.4", " padded ", 20]


def reference(rows, headers, fmt):
    tabulate_module.WIDE_CHARS_MODE = False
    return tabulate_module.tabulate(rows, headers=list(headers), tablefmt=fmt)


@pytest.mark.parametrize("fmt", ["simple", "github"])
@pytest.mark.parametrize("seed", range(40))
def test_random_tables_match_tabulate(fmt, seed):
    rng = random.Random(seed)
    columns = rng.randint(1, 6)
    headers = [rng.choice(["house", "power", "area", "units", "n", "King's Court"])
               for _ in range(columns)]
    kinds = [rng.choice(["int", "text", "mixed"]) for _ in range(columns)]
    rows = []
    for _ in range(rng.randint(0, 7)):
        row = []
        for kind in kinds:
            if kind == "int":
                row.append(rng.choice([0, 1, 5, 12, 20, None, "3"]))
            elif kind == "text":
                row.append(rng.choice(["stark", "", None, "x y", "★", "winterfell (stark)"]))
            else:
                row.append(rng.choice(CELLS))
        rows.append(row)
    assert table(rows, headers, fmt) == reference(rows, headers, fmt)


def test_unknown_format_is_refused():
    with pytest.raises(ValueError):
        table([], ["a"], "grid")


def test_show_and_report_tables_are_tabulate_bytes(monkeypatch, tmp_path, runner):
    """Whole outputs: `agot show` and a round's report, rendered with agot's writer and with
    tabulate, are the same bytes."""
    from agot_adjudicator.cli.commands import main
    from agot_adjudicator.render import report, views

    state = tmp_path / "s.yaml"
    assert runner.invoke(main, ["new", "--seed", "3", "-o", str(state)]).exit_code == 0
    ours = runner.invoke(main, ["show", str(state)]).stdout
    report_args = ["adjudicate", str(state), "--defaults", "-o", str(tmp_path / "n.yaml"),
                   "--report", str(tmp_path / "r.md")]
    assert runner.invoke(main, report_args).exit_code == 0
    ours_report = (tmp_path / "r.md").read_text()
    monkeypatch.setattr(views, "table", lambda rows, headers, fmt="simple":
                        reference(rows, headers, fmt))
    monkeypatch.setattr(report, "table", lambda rows, headers, fmt="simple":
                        reference(rows, headers, fmt))
    assert runner.invoke(main, ["show", str(state)]).stdout == ours
    assert runner.invoke(main, report_args).exit_code == 0
    assert (tmp_path / "r.md").read_text() == ours_report
    assert "|---" in ours_report
