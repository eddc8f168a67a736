"""A player's order file written entirely with Chinese names (issue 18.4): ``agot validate
--names`` reads it as its id form, as ``agot inbox`` stores it, and gives exactly the id form's
verdict, warnings and errors (RUL-P8-2); without --names a file holds ids only, as before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agot_adjudicator.cli import main
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.glossary import INTAKE_KINDS

ROOT = Path(__file__).resolve().parent.parent
ROUND = ROOT / "scenarios" / "games" / "demo" / "round-05"
FORMAT_KEYS = ("support",)
"""Keys of the format that are also ids (``plans: support:``, the Support order's id)."""


def in_names(text: str, locale: str) -> str:
    """``text`` with every id of an intake kind (areas, orders, houses, units, house cards)
    written as its glossary name in ``locale``; YAML keys of the format stay."""
    glossary = load_ruleset().glossary
    ids = {id_: kind for kind in INTAKE_KINDS for id_ in glossary.ids(kind)}

    def name(match: re.Match[str]) -> str:
        word = match.group(0)
        if word in FORMAT_KEYS and match.string[match.end():].startswith(":"):
            return word  # a key of the format (plans: support:), not an order
        return glossary.name(ids[word], word, locale) if word in ids else word

    head, _, body = text.partition("\nhouse: ")
    house, _, rest = body.partition("\n")
    return (f"{head}\nhouse: {glossary.name('house', house, locale)}\n"
            + re.sub(r"(?<![\w])[a-z][a-z0-9_]*(?![\w])", name, rest))


def plain(line: str) -> str:
    """A located line without its column (a name and its id differ in length)."""
    return re.sub(r"(\.yaml:\d+):\d+:", r"\1:", line)


def run(runner, *args: str):
    return runner.invoke(main, ["validate", *args])


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("house", ["stark", "greyjoy", "baratheon"])
def test_a_file_in_chinese_names_validates_as_its_id_form(runner, tmp_path, locale, house):
    text = (ROUND / "orders" / f"{house}.yaml").read_text(encoding="utf-8")
    named = in_names(text, locale)
    assert not re.search(r"\b(winterfell|pyke|dragonstone|march_0|stark|footman)\b|: support",
                         named.partition("\nhouse:")[2]), named
    (tmp_path / "ids").mkdir()
    (tmp_path / "names").mkdir()
    (tmp_path / "ids" / f"{house}.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "names" / f"{house}.yaml").write_text(named, encoding="utf-8")
    state = str(ROUND / "state.yaml")
    ids = run(runner, state, str(tmp_path / "ids" / f"{house}.yaml"))
    names = run(runner, "--names", state, str(tmp_path / "names" / f"{house}.yaml"))
    assert ids.exit_code == names.exit_code == 0, names.output
    note = [line for line in names.output.splitlines() if line.startswith("note:")]
    assert len(note) == 1 and "→" in note[0] and "agot inbox" in note[0]
    rest = [plain(line.replace(str(tmp_path / "names"), str(tmp_path / "ids")))
            for line in names.output.splitlines() if not line.startswith("note:")]
    assert rest == [plain(line) for line in ids.output.splitlines()]
    refused = run(runner, state, str(tmp_path / "names" / f"{house}.yaml"))
    assert refused.exit_code == 1 and "is not an id" in refused.output  # ids only without --names


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant"])
def test_a_wrong_file_in_names_is_refused_as_its_id_form(runner, tmp_path, locale):
    """A bid that is not a number (an error) and an order where the house has no unit (a
    warning before the Westeros phase): the same lines in both forms, messages naming ids."""
    text = (ROUND / "orders" / "stark.yaml").read_text(encoding="utf-8").replace(
        "  winterfell: support\n", "  winterfell: support\n  kings_landing: raid\n")
    state = str(ROUND / "state.yaml")
    for wrong in (text, text.replace("fiefdoms: 0", "fiefdoms: lots")):
        (tmp_path / "ids.yaml").write_text(wrong, encoding="utf-8")
        (tmp_path / "names.yaml").write_text(in_names(wrong, locale), encoding="utf-8")
        ids = run(runner, state, str(tmp_path / "ids.yaml"))
        names = run(runner, "--names", state, str(tmp_path / "names.yaml"))
        assert ids.exit_code == names.exit_code == (1 if "lots" in wrong else 0)
        said = [plain(line.replace("names.yaml", "ids.yaml"))
                for line in names.output.splitlines() if not line.startswith("note:")]
        assert said == [plain(line) for line in ids.output.splitlines()]
        assert ("lots" if "lots" in wrong else "kings_landing") in ids.output


def test_a_name_that_names_nothing_is_a_located_error(runner, tmp_path):
    text = in_names((ROUND / "orders" / "stark.yaml").read_text(encoding="utf-8"), "zh-Hans")
    (tmp_path / "s.yaml").write_text(text.replace("临冬城", "临冬堡", 1), encoding="utf-8")
    result = run(runner, "--names", str(ROUND / "state.yaml"), str(tmp_path / "s.yaml"))
    assert result.exit_code == 1
    assert re.search(r"s\.yaml:\d+:\d+: .*临冬堡", result.output), result.output
