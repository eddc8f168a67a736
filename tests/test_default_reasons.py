"""A default applied says why (P2): the report line names --nmr (no moves received),
--defaults, or the round's ledger that records it, never "(no answer)" after "No answer"."""

from __future__ import annotations

from agot_adjudicator.cli import main


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "r1/orders/" in line and "default" in line]


def test_a_default_says_it_was_defaulted_and_by_what(runner, tmp_path):
    game = tmp_path / "g"
    assert runner.invoke(main, ["new", "--players", "3", "--seed", "7318220946551093817",
                                "--game", str(game)]).exit_code == 0
    state = game / "round-01" / "state.yaml"
    report = tmp_path / "r.md"
    done = runner.invoke(main, ["adjudicate", str(state), "--nmr", "stark", "--defaults",
                                "-o", str(tmp_path / "next.yaml"), "--report", str(report)])
    assert done.exit_code == 0, done.output
    lines = _lines(report.read_text(encoding="utf-8"))
    assert ("- No answer from Stark to r1/orders/stark: the default (nothing) applies "
            "(defaulted by --nmr: no moves received) (P2).") in lines
    assert ("- No answer from Lannister to r1/orders/lannister: the default (nothing) applies "
            "(defaulted by --defaults) (P2).") in lines
    zh = tmp_path / "zh.md"
    runner.invoke(main, ["adjudicate", str(state), "--nmr", "stark", "--defaults", "--lang",
                         "zh-Hans", "-o", str(tmp_path / "zh.yaml"), "--report", str(zh)])
    assert "史塔克未回答 r1/orders/stark：采用默认值（无）（--nmr：未收到提交）（P2）。" in \
        zh.read_text(encoding="utf-8")
    # In a game directory --nmr defaults what the stop owes through the round's ledger.
    assert runner.invoke(main, ["adjudicate", "--game", str(game), "--nmr", "stark", "--nmr",
                                "lannister", "--nmr", "baratheon"]).exit_code == 0
    lines = _lines((game / "round-01" / "report.md").read_text(encoding="utf-8"))
    assert len(lines) == 3 and all("(no answer)" not in line for line in lines)
    assert all(line.endswith("(defaulted by --nmr or --defaults (the round's ledger)) (P2).")
               for line in lines), lines
