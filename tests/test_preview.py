"""`agot preview`: what it says before house cards is what the engine tells both sides when
it asks for their cards, and the pairs it fights are the ones the engine offers."""

from __future__ import annotations

from pathlib import Path

import yaml

from agot_adjudicator.cli import main


def _view(runner, tmp_path: Path, edit) -> Path:
    game = tmp_path / "g"
    assert runner.invoke(main, ["new", "--players", "3", "--seed", "7318220946551093817",
                                "--game", str(game)]).exit_code == 0
    start = game / "round-01" / "state.yaml"
    data = yaml.safe_load(start.read_text())
    edit(data)
    start.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 3
    view = tmp_path / "stark.view.yaml"
    done = runner.invoke(main, ["show", "--game", str(game), "--house", "stark", "--format",
                                "view", "-o", str(view)])
    assert done.exit_code == 0, done.output
    return view


def test_strength_before_cards_is_the_engines_not_the_default_cards(runner, tmp_path):
    """Stark's first card in hand is Robb Stark (Eddard discarded), whose text makes an
    attacking knight 3: the run with defaults fights with it, but before the cards Stark's
    knight is 2 (R6.3, R6.4): units 3, as the engine's house card question says; the pairs
    are the hands the engine offers (Eddard Stark in the discards is none of them)."""
    def edit(data):
        data["areas"]["moat_cailin"] = {"house": "lannister", "units": ["footman"]}
        stark = data["houses"]["stark"]
        stark["hand"] = [c for c in stark["hand"] if c != "eddard_stark"]
        stark["discards"] = ["eddard_stark"]

    view = _view(runner, tmp_path, edit)
    orders = tmp_path / "orders.yaml"
    orders.write_text("format: agot-orders/1\nround: 1\nhouse: stark\n"
                      "orders: {winterfell: march_plus1}\nplans:\n  marches:\n"
                      "    - from: winterfell\n      moves: {moat_cailin: [footman, knight]}\n")
    shown = runner.invoke(main, ["preview", str(view), str(orders)])
    assert shown.exit_code == 0, shown.output
    out = shown.stdout
    assert "    Stark 4: units 3, order +1, support none" in out
    assert "    Lannister 1: units 1, order +0, support none" in out
    pairs = [line.split(":")[0].strip() for line in out.splitlines() if " vs " in line]
    assert len(pairs) == 6 * 7 and not any(p.startswith("Eddard Stark") for p in pairs)
    assert "    Robb Stark vs Tywin Lannister: Stark wins, 7 to 4" in out
