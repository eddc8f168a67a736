"""The rules reference, read from the packaged ``docs/rules.md`` (the single source).

``docs/rules.md`` numbers the rules ``R0.1``…``R13.1`` and the decision protocol
``P1``…; each rule has its text, its rulings (``RUL-<rule>-<k>``) and its sources.
``agot rules`` prints them, ``agot conformance`` reports which R-rules the suite
covers, and the man page's RULINGS section and ``scenarios/README.md``'s Rulings
table are generated from it::

    python -m agot_adjudicator.model.rules --write     # regenerate both
    python -m agot_adjudicator.model.rules --check     # exit 1 when either differs

The file is parsed on first use only (``RULES`` and ``RULE_IDS`` are lazy).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

DOC = "docs/rules.md"
"""Where the reference lives, relative to the package."""

_RULE = re.compile(r"^### ((?:R\d+\.\d+)|(?:P\d+)) (.+)$")
_RULING = re.compile(r"^- \*\*(RUL-[0-9P.]+-\d+)\*\* (.+)$")


@dataclass(frozen=True)
class Ruling:
    """A judgment call where the rulebook is silent or ambiguous."""

    id: str
    text: str

    @property
    def parts(self) -> tuple[str, str, str]:
        """(question, choice, alternatives) of ``Question?: choice (alternatives: a / b).``"""
        question, _, rest = self.text.partition("?: ")
        question = re.sub(r"^\[correction\] ", "", question) + "?"
        alternatives = ""
        found = re.search(r" \(alternatives: (.*)\)\.?$", rest)
        if found:
            alternatives, rest = found.group(1), rest[:found.start()]
        return question, rest.rstrip("."), alternatives


@dataclass(frozen=True)
class Rule:
    """One numbered rule (``R6.4``) or protocol section (``P1``)."""

    id: str
    title: str
    chapter: str
    text: tuple[str, ...]
    rulings: tuple[Ruling, ...]
    sources: tuple[str, ...]


def parse(text: str) -> dict[str, Rule]:
    """The rules of a ``rules.md`` text, in document order.

    >>> doc = "## R4 Planning\\n\\n### R4.1 Orders\\n\\nOne.\\n\\nRulings:\\n- **RUL-4.1-1** None?: yes.\\n"
    >>> rule = parse(doc)["R4.1"]
    >>> rule.title, rule.text, rule.rulings[0].id
    ('Orders', ('One.',), 'RUL-4.1-1')
    """
    rules: dict[str, Rule] = {}
    chapter = ""
    current: dict[str, Any] | None = None
    section = "text"

    def close() -> None:
        if current is not None:
            rules[current["id"]] = Rule(current["id"], current["title"], current["chapter"],
                                        tuple(current["text"]), tuple(current["rulings"]),
                                        tuple(current["sources"]))

    for line in text.splitlines():
        if line.startswith("## "):
            close()
            current, chapter = None, line[3:].strip()
            continue
        found = _RULE.match(line)
        if found:
            close()
            current = {"id": found.group(1), "title": found.group(2).strip(), "chapter": chapter,
                       "text": [], "rulings": [], "sources": []}
            section = "text"
            continue
        if current is None or not line.strip():
            continue
        if line.strip() in ("Rulings:", "Sources:"):
            section = line.strip()[:-1].lower()
            continue
        if section == "rulings":
            ruling = _RULING.match(line)
            if ruling:
                current["rulings"].append(Ruling(ruling.group(1), ruling.group(2).strip()))
        elif section == "sources" and line.startswith("- "):
            current["sources"].append(line[2:].strip())
        elif section == "text":
            current["text"].append(line.strip())
    close()
    return rules


@cache
def reference() -> dict[str, Rule]:
    """Every rule and protocol section of the packaged ``docs/rules.md``."""
    from importlib.resources import files

    return parse(files("agot_adjudicator").joinpath(DOC).read_text(encoding="utf-8"))


def rule_key(rule: str) -> tuple[int, ...]:
    """Sort key: ``R6.10`` after ``R6.9``; protocol ids (``P1``) after every R-rule.

    >>> sorted(["R6.10", "P2", "R6.9", "R10.1"], key=rule_key)
    ['R6.9', 'R6.10', 'R10.1', 'P2']
    """
    if rule.startswith("P"):
        return (1_000, int(rule[1:]))
    return tuple(int(part) for part in rule.lstrip("R").split("."))


def covered_rule(cited: str) -> str | None:
    """The indexed rule a citation pins: ``R5.2`` → ``R5.2``; ``R6`` → ``None`` (a whole section).

    >>> covered_rule("R6.4"), covered_rule("R6")
    ('R6.4', None)
    """
    return cited if cited in reference() else None


def __getattr__(name: str) -> Any:
    """``RULES`` ((id, title) of every R-rule) and ``RULE_IDS``, read on first use."""
    if name == "RULES":
        return tuple((r.id, r.title) for r in reference().values() if r.id.startswith("R"))
    if name == "RULE_IDS":
        return tuple(r.id for r in reference().values() if r.id.startswith("R"))
    raise AttributeError(name)


# --- generated views: the man page's RULINGS and scenarios/README.md's Rulings table ----------

MAN_BEGIN = '.\\" BEGIN RULINGS: generated by python -m agot_adjudicator.model.rules --write'
MAN_END = '.\\" END RULINGS'
MD_BEGIN = "<!-- BEGIN RULINGS: generated by python -m agot_adjudicator.model.rules --write -->"
MD_END = "<!-- END RULINGS -->"
REGENERATE = "python -m agot_adjudicator.model.rules --write"


def all_rulings() -> list[tuple[Rule, Ruling]]:
    return [(rule, ruling) for rule in reference().values() for ruling in rule.rulings]


def _man_text(text: str) -> str:
    text = re.sub(r"\*\*|`", "", text).replace("\\", "\\\\").replace("-", "\\-")
    special = {"★": "\\[u2605]", "–": "\\(en", "—": "\\(em", "→": "\\(->", "…": "..."}
    text = "".join(c if c.isascii() else special.get(c, f"\\[u{ord(c):04X}]") for c in text)
    return "\n".join(("\\&" + line) if line.startswith((".", "'")) else line
                     for line in text.splitlines())


def rulings_man() -> str:
    """The RULINGS section body for ``man/agot.1`` (troff; spliced into its source)."""
    out = [".if !c\\[u2605] .char \\[u2605] *",
           "Each judgment call where the rulebook is silent or ambiguous, from",
           "docs/rules.md (agot rules ID prints the rule with its rulings and sources)."]
    for rule, ruling in all_rulings():
        out.append(f'.IP "{ruling.id} ({rule.id})"')
        out.append(_man_text(ruling.text))
    return "\n".join(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def rulings_table() -> str:
    """The Rulings table of ``scenarios/README.md`` (Markdown)."""
    out = ["| ruling | rule | question | agot's choice | alternatives |", "|---|---|---|---|---|"]
    for rule, ruling in all_rulings():
        question, choice, alternatives = ruling.parts
        mark = " (correction)" if ruling.text.startswith("[correction]") else ""
        out.append(f"| {ruling.id}{mark} | {rule.id} | {_cell(question)} | {_cell(choice)} | "
                   f"{_cell(alternatives)} |")
    return "\n".join(out)


def _splice(text: str, begin: str, end: str, body: str) -> str:
    head, found, rest = text.partition(begin + "\n")
    if not found or end not in rest:
        raise ValueError(f"markers {begin!r} … {end!r} not found")
    return head + begin + "\n" + body + "\n" + rest[rest.index(end):]


def generated(root: Any) -> dict[Any, str]:
    """The regenerated texts of ``man/src/agot.roff`` (the source of ``man/agot.1``:
    ``python -m agot_adjudicator.cli.manual --write`` makes the page) and
    ``scenarios/README.md`` under ``root``."""
    man, readme = root / "man" / "src" / "agot.roff", root / "scenarios" / "README.md"
    return {man: _splice(man.read_text(encoding="utf-8"), MAN_BEGIN, MAN_END, rulings_man()),
            readme: _splice(readme.read_text(encoding="utf-8"), MD_BEGIN, MD_END, rulings_table())}


def main(argv: list[str] | None = None) -> int:
    """``--write`` regenerates the two files in the current checkout; ``--check`` compares."""
    import sys
    from pathlib import Path

    args = sys.argv[1:] if argv is None else argv
    root = Path(__file__).resolve().parents[2]
    stale = [path for path, text in generated(root).items()
             if path.read_text(encoding="utf-8") != text]
    if "--write" in args:
        for path, text in generated(root).items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        return 0
    for path in stale:
        print(f"{path}: rulings differ from docs/rules.md; run {REGENERATE}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
