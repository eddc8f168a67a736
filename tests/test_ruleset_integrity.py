"""A broken `--ruleset` copy is refused with exit 5 and nothing written (README: Data provenance).

Each test exports the packaged ruleset (`agot ruleset export DIR`), breaks the
copy in one way, and checks that `new` and `validate` name the problem and
write nothing; an intact copy works, and a state is tied to the content hash
of the ruleset that made it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from agot_adjudicator.cli import main


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _export(tmp_path: Path, name: str = "rules") -> Path:
    directory = tmp_path / name
    result = _run("ruleset", "export", str(directory))
    assert result.exit_code == 0, result.output
    return directory


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _new_state(tmp_path: Path, name: str, *ruleset: str) -> Path:
    out = tmp_path / name
    result = _run(*ruleset, "new", "--seed", "1", "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


# --- one break each ----------------------------------------------------------------------

def _asymmetric_adjacency(d: Path) -> None:
    _edit(d / "board.yaml", "adjacent: [bay_of_ice, karhold, the_shivering_sea, winterfell]",
          "adjacent: [bay_of_ice, karhold, the_shivering_sea]")


def _unknown_adjacent_area(d: Path) -> None:
    _edit(d / "board.yaml", "adjacent: [bay_of_ice, karhold, the_shivering_sea, winterfell]",
          "adjacent: [bay_of_ice, karhold, the_shivering_sea, winterfell, winterfel]")


def _six_stark_cards(d: Path) -> None:
    _edit(d / "house_cards.yaml",
          '  lord_mormont:       {name: "Lord Mormont",       strength: 1, swords: 1, forts: 0}\n',
          "")


def _deck_of_nine(d: Path) -> None:
    _edit(d / "westeros.yaml", "- {card: supply,               count: 4,",
          "- {card: supply,               count: 3,")


def _island_with_land_neighbour(d: Path) -> None:
    _edit(d / "board.yaml", "    island: true\n    adjacent: [ironmans_bay]",
          "    island: true\n    adjacent: [ironmans_bay, lannisport]")
    _edit(d / "board.yaml", "adjacent: [riverrun, searoad_marches, stoney_sept, the_golden_sound]",
          "adjacent: [pyke, riverrun, searoad_marches, stoney_sept, the_golden_sound]")


def _supply_not_barrels(d: Path) -> None:
    _edit(d / "setup.yaml", "  stark:\n    supply: 1\n", "  stark:\n    supply: 2\n")


def _strength_not_a_number(d: Path) -> None:
    _edit(d / "house_cards.yaml", '{name: "Eddard Stark",       strength: 3,',
          '{name: "Eddard Stark",       strength: "x",')


def _missing_file(d: Path) -> None:
    (d / "westeros.yaml").unlink()


def _yaml_error(d: Path) -> None:
    _edit(d / "setup.yaml", "  stark:\n    supply: 1\n", "  stark:\n    supply: 1\n    supply: 1\n")


def _unknown_house_in_setup(d: Path) -> None:
    _edit(d / "setup.yaml", "  5: [stark, lannister, baratheon, greyjoy, tyrell]",
          "  5: [stark, lannister, baratheon, greyjoy, martell]")


def _river_not_a_border(d: Path) -> None:
    _edit(d / "board.yaml", "  - {between: [riverrun, the_twins]}",
          "  - {between: [riverrun, the_eyrie]}")


def _river_at_sea(d: Path) -> None:
    _edit(d / "board.yaml", "  - {between: [riverrun, the_twins]}",
          "  - {between: [riverrun, ironmans_bay]}")


def _river_listed_twice(d: Path) -> None:
    _edit(d / "board.yaml", "  - {between: [riverrun, the_twins]}",
          "  - {between: [riverrun, the_twins]}\n  - {between: [the_twins, riverrun], bridge: true}")


def _river_to_nowhere(d: Path) -> None:
    _edit(d / "board.yaml", "  - {between: [riverrun, the_twins]}",
          "  - {between: [riverrun, the_twinz]}")


QUOTED_X = '"x"'

BREAKS: dict[str, tuple[Callable[[Path], None], Callable[[Path], list[str]]]] = {
    # name: (break the copy, the error lines expected, given the copy's folder)
    "asymmetric_adjacency": (_asymmetric_adjacency, lambda d: [
        f"{d}: board: adjacency is not symmetric: winterfell lists castle_black, "
        "but castle_black does not list winterfell"]),
    "unknown_adjacent_area": (_unknown_adjacent_area, lambda d: [
        f"{d}: board: castle_black: adjacent area 'winterfel' does not exist"]),
    "six_cards_for_a_house": (_six_stark_cards, lambda d: [
        f"{d}: house_cards: stark has 6 cards; expected 7"]),
    "deck_of_nine_cards": (_deck_of_nine, lambda d: [
        f"{d}: westeros: deck I has 9 cards; expected 10"]),
    "island_with_land_neighbour": (_island_with_land_neighbour, lambda d: [
        f"{d}: board: island pyke has land neighbours: lannisport"]),
    "starting_supply_not_barrels": (_supply_not_barrels, lambda d: [
        f"{d}: setup: stark starts at supply 2 but controls 1 barrels"]),
    "schema_strength_not_a_number": (_strength_not_a_number, lambda d: [
        f"{d / 'house_cards.yaml'}:{_line_col(d / 'house_cards.yaml', QUOTED_X)}: "
        "$.stark.eddard_stark.strength: 'x' is not of type 'integer'"]),
    "missing_file": (_missing_file, lambda d: [f"{d / 'westeros.yaml'}: no such file"]),
    "yaml_duplicate_key": (_yaml_error, lambda d: [
        f"{d / 'setup.yaml'}:{_line_col(d / 'setup.yaml', 'supply: 1', nth=2)}: "
        "invalid YAML: duplicate key 'supply'"]),
    "unknown_house_in_setup": (_unknown_house_in_setup, lambda d: [
        f"{d}: setup: players.5: 'martell' is not a house"]),
    "river_not_a_border": (_river_not_a_border, lambda d: [
        f"{d}: board: rivers: riverrun and the_eyrie are not adjacent; a river is a border "
        "between adjacent land areas (R5.11)"]),
    "river_at_sea": (_river_at_sea, lambda d: [
        f"{d}: board: rivers: ironmans_bay–riverrun is not a border of two land areas"]),
    "river_listed_twice": (_river_listed_twice, lambda d: [
        f"{d}: board: rivers: riverrun–the_twins is listed more than once"]),
    "river_to_nowhere": (_river_to_nowhere, lambda d: [
        f"{d}: board: rivers: riverrun–the_twinz: no area 'the_twinz'"]),
}


def _line_col(path: Path, needle: str, nth: int = 1) -> str:
    """``line:col`` (1-based) of the ``nth`` occurrence of ``needle`` in ``path``."""
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == nth:
                return f"{number}:{line.index(needle) + 1}"
    raise AssertionError(f"{needle!r} not found in {path}")


@pytest.mark.parametrize("name", list(BREAKS))
def test_broken_ruleset_copy_is_refused_with_exit_5(name: str, tmp_path: Path):
    state = _new_state(tmp_path, "state.yaml")
    rules = _export(tmp_path)
    breaker, expected = BREAKS[name]
    breaker(rules)
    before = _snapshot(tmp_path)
    out = tmp_path / "out.yaml"

    for args in (["new", "--seed", "1", "-o", str(out)], ["validate", str(state)]):
        result = _run("--ruleset", str(rules), *args)
        assert result.exit_code == 5, (args, result.output, result.stderr)
        assert "Traceback" not in result.output
        errors = [line.removeprefix("error: ") for line in result.stderr.splitlines()]
        for line in expected(rules):
            assert line in errors, f"{args}: missing\n{line}\ngot:\n" + "\n".join(errors)
        assert result.stdout == ""
    assert not out.exists()
    assert _snapshot(tmp_path) == before, "nothing is written when the ruleset is broken"


@pytest.mark.parametrize("command", [["show", "STATE"], ["ruleset", "show"],
                                     ["validate", "STATE", "ORDERS"]])
def test_every_command_checks_the_ruleset(command: list[str], tmp_path: Path):
    state = _new_state(tmp_path, "state.yaml")
    orders = tmp_path / "stark.yaml"
    orders.write_text("format: agot-orders/1\nround: 1\nhouse: stark\n", encoding="utf-8")
    rules = _export(tmp_path)
    _deck_of_nine(rules)
    args = [{"STATE": str(state), "ORDERS": str(orders)}.get(a, a) for a in command]
    result = _run("--ruleset", str(rules), *args)
    assert result.exit_code == 5
    assert result.stderr == f"error: {rules}: westeros: deck I has 9 cards; expected 10\n"
    assert result.stdout == ""


def test_several_problems_are_all_reported(tmp_path: Path):
    rules = _export(tmp_path)
    _six_stark_cards(rules)
    _deck_of_nine(rules)
    _supply_not_barrels(rules)
    result = _run("--ruleset", str(rules), "new", "--seed", "1", "-o", str(tmp_path / "o.yaml"))
    assert result.exit_code == 5
    errors = result.stderr.splitlines()
    for message in ("house_cards: stark has 6 cards; expected 7",
                    "westeros: deck I has 9 cards; expected 10",
                    "setup: stark starts at supply 2 but controls 1 barrels"):
        assert f"error: {rules}: {message}" in errors


def test_ruleset_folder_that_does_not_exist_is_a_usage_error(tmp_path: Path):
    result = _run("--ruleset", str(tmp_path / "nowhere"), "new", "--seed", "1",
                  "-o", str(tmp_path / "out.yaml"))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
    assert not (tmp_path / "out.yaml").exists()


def test_unmodified_copy_works_and_has_the_packaged_hash(tmp_path: Path):
    rules = _export(tmp_path)
    state = _new_state(tmp_path, "state.yaml", "--ruleset", str(rules))
    assert _run("--ruleset", str(rules), "validate", str(state)).exit_code == 0
    # The same content: a state made with the package validates under the copy and back.
    packaged = _new_state(tmp_path, "packaged.yaml")
    assert packaged.read_bytes() == state.read_bytes()
    assert _run("validate", str(state)).exit_code == 0
    shown = _run("--ruleset", str(rules), "ruleset", "show")
    assert shown.exit_code == 0
    assert shown.stdout.splitlines()[1] == _run("ruleset", "show").stdout.splitlines()[1]


def test_comments_and_layout_do_not_change_the_hash(tmp_path: Path):
    rules = _export(tmp_path)
    text = (rules / "westeros.yaml").read_text(encoding="utf-8")
    (rules / "westeros.yaml").write_text("# my copy\n" + text.replace(", ", ",  "),
                                         encoding="utf-8")
    state = _new_state(tmp_path, "state.yaml")
    result = _run("--ruleset", str(rules), "validate", str(state))
    assert result.exit_code == 0, result.stderr


def _edited_deck_counts(rules: Path) -> None:
    """A moderator's correction that keeps every check happy: 3 Supply and 5 Mustering in deck I."""
    _edit(rules / "westeros.yaml", "- {card: supply,               count: 4,",
          "- {card: supply,               count: 3,")
    _edit(rules / "westeros.yaml", "- {card: mustering,            count: 4,",
          "- {card: mustering,            count: 5,")


def test_state_from_another_ruleset_is_refused(tmp_path: Path):
    rules = _export(tmp_path)
    _edited_deck_counts(rules)
    packaged_state = _new_state(tmp_path, "packaged.yaml")
    own_state = _new_state(tmp_path, "own.yaml", "--ruleset", str(rules))
    assert _run("--ruleset", str(rules), "validate", str(own_state)).exit_code == 0
    before = _snapshot(tmp_path)

    result = _run("--ruleset", str(rules), "validate", str(packaged_state))
    assert result.exit_code == 1
    line, kind = result.stderr.splitlines()
    assert kind == "agot: illegal input: understood, but against the rules; nothing written"
    recorded = packaged_state.read_text(encoding="utf-8").split("sha256: ", 1)[1][:64]
    assert line.startswith(f"error: {packaged_state}:{_line_col(packaged_state, recorded)}: ")
    assert "$.ruleset.sha256: the state was made with ruleset first_edition" in line
    assert f"({rules})" in line and "leave out --ruleset" in line  # agot knows the packaged one

    back = _run("validate", str(own_state))
    assert back.exit_code == 1
    assert "knows no ruleset with the state's name and hash" in back.stderr
    assert "pass the ruleset the game was played under with --ruleset DIR" in back.stderr
    assert _snapshot(tmp_path) == before
