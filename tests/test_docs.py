"""The README and the guides under docs/: what they say holds (figures, links, commands).

The README's command table and the man pages are generated (tests/test_man_pages.py); this
checks what is written by hand and could go stale: the conformance figure, the links, the
set-up commands (a fresh clone must pass the tests with them as written), package names.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from agot_adjudicator.workflow.conformance import suite_cases

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDES = sorted((ROOT / "docs").glob("*.md"))
DOCS = [README, *GUIDES, *sorted((ROOT / "agot_adjudicator" / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_conformance_figure_is_the_suite_s():
    cases = suite_cases(ROOT / "scenarios")
    folders = {p.relative_to(ROOT / "scenarios").parts[0] for p in cases}
    said = [(path.name, m) for path in DOCS
            for m in re.findall(r"(\d+) cases in (\d+) (?:folders|sections)", path.read_text("utf-8"))]
    assert said, "the archivist's guide gives the size of the suite"
    for name, (count, sections) in said:
        assert (int(count), int(sections)) == (len(cases), len(folders)), \
            f"{name}: says {count} cases in {sections} folders; the suite has {len(cases)} in {len(folders)}"


def test_every_link_of_the_readme_and_the_guides_leads_to_a_file():
    broken = [f"{path.relative_to(ROOT)}: {target}" for path in DOCS
              for target in LINK.findall(path.read_text("utf-8"))
              if "://" not in target and not (path.parent / target).exists()]
    assert broken == []


def test_the_readme_links_every_guide():
    text = README.read_text("utf-8")
    for guide in [*GUIDES, ROOT / "agot_adjudicator" / "docs" / "formats.md",
                  ROOT / "agot_adjudicator" / "docs" / "protocol.md"]:
        if guide.suffix == ".md":
            assert f"]({guide.relative_to(ROOT).as_posix()})" in text, guide.name


def test_the_readme_sets_up_what_its_test_command_needs():
    """The set-up installs the test extra: `python -m pytest` fails without pytest."""
    block = README.read_text("utf-8").split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert "pip install '.[test]'" in block[0]
    assert block[1].startswith("agot replay scenarios/games/demo")
    assert block[2] == "python -m pytest"


def test_pip_commands_name_the_package():
    name = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["name"]
    pattern = re.compile(r"pip install (?:--upgrade |-U )?'?([A-Za-z][\w.-]*)")
    for path in DOCS:
        for found in pattern.findall(path.read_text("utf-8")):
            assert found.split("[")[0] in (name, "fonttools"), f"{path.name}: pip install {found}"


def test_the_readme_fits_two_screens():
    assert len(README.read_text("utf-8").splitlines()) <= 120
