"""``agot rules``: the rules reference (docs/rules.md) and the conformance cases that cite a rule."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from agot_adjudicator.errors import UsageError
from agot_adjudicator.model.naming import suggest
from agot_adjudicator.model.rules import Rule, reference

CHECKOUT_SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
"""The conformance suite of a repository checkout; absent from an installed package."""

_RULES_LINE = re.compile(r"^rules:\s*\[([^\]]*)\]", re.M)
_ID_LINE = re.compile(r"^id:\s*(\S+)", re.M)


def rules_list_text() -> str:
    """Every rule and protocol section: id and title, grouped by chapter."""
    out: list[str] = []
    chapter: str | None = None
    for rule in reference().values():
        if rule.chapter != chapter:
            chapter = rule.chapter
            out += ([""] if out else []) + [chapter]
        out.append(f"  {rule.id:<6} {rule.title}")
    out.append("")
    out.append("agot rules ID prints one rule with its rulings, sources and the cases that cite it.")
    return "\n".join(out) + "\n"


def citing_cases(root: Path, rule_id: str) -> list[str]:
    """Ids of the cases under ``root`` whose ``rules:`` list cites ``rule_id``, sorted."""
    found = []
    for path in sorted(root.rglob("*.yaml")):
        if "games" in path.relative_to(root).parts:
            continue
        text = path.read_text(encoding="utf-8")
        rules, case = _RULES_LINE.search(text), _ID_LINE.search(text)
        if rules and case and rule_id in [r.strip() for r in rules.group(1).split(",")]:
            found.append(case.group(1))
    return sorted(found)


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, 88, initial_indent=indent,
                         subsequent_indent=" " * len(indent),
                         break_on_hyphens=False) or [indent]


def lookup(rule_id: str) -> Rule:
    """The rule ``rule_id`` (``R6.4``, ``r6.4``, ``P1``); unknown → :class:`UsageError` (exit 2)."""
    rules = reference()
    key = rule_id.strip().upper()
    if key not in rules:
        raise UsageError(f"no rule '{rule_id}' in docs/rules.md{suggest(key, [*rules, *chapters()])} "
                         "(agot rules lists them)")
    return rules[key]


def chapters() -> dict[str, str]:
    """Chapter id → heading (``R6`` → ``R6 Battles``), as events may cite a whole chapter."""
    return {rule.chapter.split()[0]: rule.chapter for rule in reference().values()}


def rule_text(rule_id: str, scenarios: Path | None = None) -> str:
    """One rule: title, text, rulings, sources, and the conformance cases that cite it;
    for a chapter id (``R6``, cited by the ``battle`` event), the chapter's rules."""
    chapter = chapters().get(rule_id.strip().upper())
    if chapter is not None:
        lines = [f"{chapter} (docs/rules.md)", ""]
        lines += [f"  {r.id:<6} {r.title}" for r in reference().values() if r.chapter == chapter]
        return "\n".join(lines) + "\n"
    rule = lookup(rule_id)
    out = [f"{rule.id} {rule.title}", f"({rule.chapter}; docs/rules.md)", ""]
    for paragraph in rule.text:
        out += [*_wrap(paragraph), ""]
    if rule.rulings:
        out.append("Rulings:")
        for ruling in rule.rulings:
            out += _wrap(f"{ruling.id} {ruling.text.replace('`', '')}", "- ")
        out.append("")
    if rule.sources:
        out.append("Sources:")
        for source in rule.sources:
            out += _wrap(source, "- ")
        out.append("")
    root = CHECKOUT_SCENARIOS if scenarios is None else scenarios
    if root.is_dir():
        cases = citing_cases(root, rule.id)
        out.append(f"Conformance cases citing {rule.id} ({root}): "
                   + (", ".join(cases) if cases else "none"))
    else:
        out.append(f"Conformance cases: not available here (no scenarios folder at {root}; "
                   "they ship with a repository checkout, or pass --scenarios DIR).")
    return "\n".join(out) + "\n"
