"""The project stands alone: every citation resolves in docs/rules.md, no file points outside the
repository, and the generated rulings (man page, scenarios/README.md) match their source."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from agot_adjudicator.cli import main
from agot_adjudicator.model import rules
from agot_adjudicator.model.rules import REGENERATE, generated, parse, reference

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "agot_adjudicator"

OUTSIDE = re.compile(r"\.\./shared|DESIGN\.md|DESIGN§|RULES\.md|STYLE\.md|\b00\d_[0-9a-f*]")
"""Documents a user of the repository or the package does not have (and the seed file names)."""

RULE_ID = re.compile(r"(?<![\w.-])R\d+\.\d+(?![\d])")
RULING_ID = re.compile(r"\bRUL-[0-9P.]+-\d+\b")


def tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, check=True).stdout.decode()
    return [ROOT / name for name in out.split("\0") if name and (ROOT / name).is_file()]


def texts() -> list[tuple[Path, str]]:
    out = []
    for path in tracked():
        if path.name == Path(__file__).name:
            continue                                  # this file names the forbidden patterns
        try:
            out.append((path, path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue
    return out


def test_no_file_refers_to_a_document_outside_the_repository() -> None:
    found = [f"{path.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
             for path, text in texts() for m in OUTSIDE.finditer(text)]
    assert not found, "references to documents outside the repository:\n" + "\n".join(found)


def test_the_outside_reference_check_can_fail() -> None:
    assert OUTSIDE.search("see ../shared/rules") and OUTSIDE.search("DESIGN.md §1")
    assert OUTSIDE.search("seed 000_*") and not OUTSIDE.search("docs/protocol.md P1")


def test_every_rule_id_cited_anywhere_exists() -> None:
    known = reference()
    missing = sorted({f"{path.relative_to(ROOT)}: {m.group(0)}" for path, text in texts()
                      for line in text.splitlines() if "no rule" not in line
                      for m in RULE_ID.finditer(line) if m.group(0) not in known})
    assert not missing, "rule ids not in docs/rules.md:\n" + "\n".join(missing)


def test_every_ruling_id_cited_anywhere_exists() -> None:
    known = {ruling.id for rule in reference().values() for ruling in rule.rulings}
    missing = sorted({f"{path.relative_to(ROOT)}: {m.group(0)}" for path, text in texts()
                      for m in RULING_ID.finditer(text) if m.group(0) not in known})
    assert not missing, "ruling ids not in docs/rules.md:\n" + "\n".join(missing)


def test_every_rule_the_engine_cites_exists() -> None:
    """Each string literal in the package that looks like a rule id (events' ``rule``, the
    ``CARD_RULES`` table, messages) is an id of docs/rules.md or one of its chapters."""
    known = set(reference()) | {rule.chapter.split()[0] for rule in reference().values()}
    literal = re.compile(r"""["']((?:R\d+(?:\.\d+)?)|(?:P\d+))["']""")
    cited = {(path.name, m.group(1)) for path in PACKAGE.rglob("*.py")
             for m in literal.finditer(path.read_text(encoding="utf-8"))}
    assert len(cited) > 40
    assert not sorted(c for c in cited if c[1] not in known)


def test_every_event_of_the_demo_game_cites_a_known_rule() -> None:
    logs = sorted((ROOT / "scenarios" / "games" / "demo").rglob("*.jsonl"))
    assert logs
    events = [json.loads(line) for log in logs
              for line in log.read_text(encoding="utf-8").splitlines() if line]
    cited = {e["rule"] for e in events if e["type"] != "record"}  # the first line names its maker
    chapters = {rule.chapter.split()[0] for rule in reference().values()}
    assert "R6" in cited                       # the battle event cites its chapter
    assert not sorted(cited - set(reference()) - chapters), cited


def test_default_applied_cites_the_protocol() -> None:
    source = (PACKAGE / "engine" / "context.py").read_text(encoding="utf-8")
    assert 'emit("default_applied", "P2"' in source and "P2" in reference()


def test_generated_rulings_match_rules_md() -> None:
    stale = [str(path.relative_to(ROOT)) for path, text in generated(ROOT).items()
             if path.read_text(encoding="utf-8") != text]
    assert not stale, f"{', '.join(stale)} differ from docs/rules.md: run {REGENERATE}"


def test_every_ruling_is_in_the_man_page_and_the_table() -> None:
    man = (ROOT / "man" / "agot.1").read_text(encoding="utf-8")
    table = (ROOT / "scenarios" / "README.md").read_text(encoding="utf-8")
    ids = [ruling.id for _, ruling in rules.all_rulings()]
    assert len(ids) >= 50
    for ruling_id in ids:
        assert f'.IP "{ruling_id} (' in man and f"| {ruling_id}" in table, ruling_id
    assert "| RUL-4.1-2 (correction) | R4.1 |" in table and "| RUL-6.12-2 (correction) | R6.12 |" in table


def test_rules_md_is_well_formed() -> None:
    text = (PACKAGE / "docs" / "rules.md").read_text(encoding="utf-8")
    ref = parse(text)
    assert [i for i in ref if i.startswith("P")] == [f"P{n}" for n in range(1, 10)]
    assert text.count("\n### ") == len(ref)
    assert text.count("\n- **RUL-") == sum(len(r.rulings) for r in ref.values())
    for rule in ref.values():
        assert rule.text and rule.sources, rule.id
        for ruling in rule.rulings:
            rule_part = ruling.id.split("-")[1]
            assert rule.id in (f"R{rule_part}", rule_part), ruling.id
            question, choice, alternatives = ruling.parts
            assert question and choice and alternatives, ruling.id
    for name in ("rules.md", "protocol.md", "formats.md"):
        assert (PACKAGE / "docs" / name).is_file()
    assert '"docs/*.md"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_corrections_are_rulings_and_in_the_ruleset_schema() -> None:
    from agot_adjudicator.model.ruleset import CORRECTIONS

    text = (PACKAGE / "docs" / "rules.md").read_text(encoding="utf-8")
    schema = json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
    enum = schema["properties"]["manifest"]["properties"]["corrections"]["items"]["enum"]
    assert tuple(enum) == CORRECTIONS
    for correction in CORRECTIONS:
        assert f"`{correction}`" in text


# --- agot rules -----------------------------------------------------------------------------

def _run(*args: str):
    return CliRunner().invoke(main, ["rules", *args])


def test_rules_lists_every_id_and_title() -> None:
    result = _run()
    assert result.exit_code == 0
    for rule in reference().values():
        assert f"  {rule.id:<6} {rule.title}\n" in result.stdout
    assert "R6 Battles\n" in result.stdout and "P Decision protocol\n" in result.stdout


def test_rules_prints_one_rule_with_rulings_sources_and_cases() -> None:
    result = _run("r6.12")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("R6.12 House cards discarded and recycled\n")
    assert "- RUL-6.12-2 [correction]" in out and "Sources:\n- Rulebook, simplified Chinese" in out
    assert out.rstrip().endswith("BATTLE-024, BATTLE-035, BATTLE-070, BATTLE-071, BATTLE-072")


def test_rules_prints_a_protocol_section() -> None:
    result = _run("P1")
    assert result.exit_code == 0
    assert result.stdout.startswith("P1 Decisions: plans, answers, pending\n")
    assert "RUL-P1-1" in result.stdout and "PROTO-001" in result.stdout


def test_rules_prints_a_chapter() -> None:
    result = _run("R6")
    assert result.exit_code == 0
    assert result.stdout.startswith("R6 Battles (docs/rules.md)\n")
    assert "  R6.12  House cards" in result.stdout


def test_rules_without_scenarios_says_so(tmp_path: Path) -> None:
    result = _run("R4.1", "--scenarios", str(tmp_path / "none"))
    assert result.exit_code == 0
    assert "Conformance cases: not available here (no scenarios folder at" in result.stdout


@pytest.mark.parametrize(("given", "hint"), [("R6.44", "R6.4"), ("P11", "P1")])
def test_unknown_rule_is_a_usage_error_with_a_suggestion(given: str, hint: str) -> None:
    result = _run(given)
    assert result.exit_code == 2
    assert f"no rule '{given}' in docs/rules.md (did you mean '{hint}'?)" in result.stderr
    assert result.stdout == ""
