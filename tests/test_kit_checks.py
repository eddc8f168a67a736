"""The house view and the stop it comes from: a view is made only from the game's current
state, the stale check reads what identifies the stop, and a command reads the view once."""

from __future__ import annotations

from pathlib import Path

from kit_play import write_view

from agot_adjudicator.cli import main
from agot_adjudicator.io.gamedir import current_round


def _stopped(runner, tmp_path: Path) -> Path:
    game = tmp_path / "north"
    done = runner.invoke(main, ["new", "--players", "3", "--seed", "7318220946551093817",
                                "--game", str(game)])
    assert done.exit_code == 0, done.output
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 3
    assert current_round(game).now.is_file()
    return game


def _errors(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


def test_a_view_of_a_now_yaml_from_another_state_is_refused_as_everywhere(runner, tmp_path):
    """state.yaml changed since the stop: now.yaml is stale; `show --format view` refuses it
    with the very error `show --game` gives, and so does `validate --game VIEW`."""
    game = _stopped(runner, tmp_path)
    view = tmp_path / "stark.view.yaml"
    made = runner.invoke(main, ["show", "--game", str(game), "--house", "stark", "--format",
                                "view", "-o", str(view)])
    assert made.exit_code == 0, made.output
    state = current_round(game).state
    state.write_text(state.read_text(encoding="utf-8") + "# changed by hand\n",
                     encoding="utf-8")
    shown = runner.invoke(main, ["show", "--game", str(game), "--house", "stark"])
    assert shown.exit_code == 1 and "stale: written from a state of sha256" in shown.stderr
    refused = runner.invoke(main, ["show", "--game", str(game), "--house", "stark",
                                   "--format", "view"])
    assert refused.exit_code == 1, refused.output
    assert _errors(refused) == _errors(shown)
    checked = runner.invoke(main, ["validate", "--game", str(game), str(view)])
    assert checked.exit_code == 1 and _errors(checked) == _errors(shown)


def test_the_stale_check_builds_no_view(runner, tmp_path, monkeypatch):
    """`validate --game DIR VIEW` compares what identifies the stop (hashes, run, phase),
    without building the directory's view of the house (no check run of the round)."""
    from agot_adjudicator.workflow import kit

    game = _stopped(runner, tmp_path)
    view = tmp_path / "stark.view.yaml"
    write_view(runner, game, view)

    def built(*_args, **_kwargs):
        raise AssertionError("a view was built")

    monkeypatch.setattr(kit, "view_of", built)
    monkeypatch.setattr(kit, "standing", built)
    fresh = runner.invoke(main, ["validate", "--game", str(game), str(view)])
    assert fresh.exit_code == 0, fresh.output
    assert "the view(s) show the board as it stands" in fresh.stdout
    orders = current_round(game).orders_dir / "stark.yaml"
    orders.write_text("format: agot-orders/1\nround: 1\nhouse: stark\n"
                      "orders: {winterfell: march_plus1}\n", encoding="utf-8")
    monkeypatch.undo()
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 3
    monkeypatch.setattr(kit, "view_of", built)
    stale = runner.invoke(main, ["validate", "--game", str(game), str(view)])
    assert stale.exit_code == 1
    assert "this view is stale: it shows round 1, run 1" in stale.stderr
    assert "the judge's board is round 1, run 2" in stale.stderr


def _stopped_view(runner, tmp_path: Path, name: str, text: str) -> tuple[Path, Path, Path]:
    """A game stopped for orders, Stark's view of it and an order file ``name`` holding
    ``text``."""
    game = _stopped(runner, tmp_path)
    view = write_view(runner, game, tmp_path / "stark.view.yaml")
    orders = tmp_path / name
    orders.write_text(text, encoding="utf-8")
    return game, view, orders


def test_each_command_reads_the_view_once(runner, tmp_path, monkeypatch):
    """`validate`, `template`, `show`, `preview` on a view and `validate --game DIR VIEW`
    read the view once (what it is, the ruleset it names, the view), preview its orders once."""
    from collections import Counter

    from agot_adjudicator.io import reading

    game, view, orders = _stopped_view(runner, tmp_path, "orders.yaml",
                                       "format: agot-orders/1\nround: 1\nhouse: stark\n"
                                       "orders: {winterfell: march_plus1}\n")
    reads: Counter = Counter()
    parse = reading.parse_text

    def counted(name, raw, **kwargs):
        reads[Path(str(name)).name] += 1
        return parse(name, raw, **kwargs)

    monkeypatch.setattr(reading, "parse_text", counted)
    for args in (["validate", view, orders], ["template", view], ["show", view],
                 ["preview", view, orders], ["validate", "--game", game, view]):
        reads.clear()
        done = runner.invoke(main, [str(a) for a in args])
        assert done.exit_code == 0, done.output
        assert reads[view.name] == 1, (args[0], reads)
        assert reads[orders.name] == (1 if orders in args else 0), (args[0], reads)


def test_names_on_a_view_are_read_with_or_without_the_flag(runner, tmp_path):
    """`validate VIEW ORDERS` is inbox's check of a message, and inbox reads display names:
    --names changes nothing there, and its help says so (it is not silently ignored)."""
    _, view, orders = _stopped_view(runner, tmp_path, "zh.yaml",
                                    "format: agot-orders/1\nround: 1\nhouse: 史塔克\norders:\n"
                                    "  临冬城: 行军 +1★\n")
    plain = runner.invoke(main, ["validate", str(view), str(orders)])
    flagged = runner.invoke(main, ["validate", "--names", str(view), str(orders)])
    assert plain.exit_code == flagged.exit_code == 0, plain.output
    assert (plain.stdout, plain.stderr) == (flagged.stdout, flagged.stderr)
    assert "临冬城 → winterfell" in plain.stderr and "March +1 (special) in Winterfell" in plain.stdout
    helped = runner.invoke(main, ["validate", "--help"])
    assert "On a house view (VIEW ORDERS) always so" in " ".join(helped.stdout.split())


def test_what_a_view_still_asks_names_the_house(runner, tmp_path):
    game = _stopped(runner, tmp_path)
    view = tmp_path / "stark.view.yaml"
    write_view(runner, game, view)
    empty = tmp_path / "empty.yaml"
    empty.write_text("format: agot-orders/1\nround: 1\nhouse: stark\n", encoding="utf-8")
    en = runner.invoke(main, ["validate", str(view), str(empty)])
    assert "still asked of Stark: r1/orders/stark\n" in en.stdout
    zh = runner.invoke(main, ["validate", "--lang", "zh-Hans", str(view), str(empty)])
    assert "仍需史塔克回答：r1/orders/stark\n" in zh.stdout
