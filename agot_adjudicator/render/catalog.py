"""The message catalogs' tooling: find every sentence agot writes, and keep both catalogs in step
with the code (a development tool; agot itself only reads the catalogs, :mod:`.i18n`).

    python -m agot_adjudicator.render.catalog extract [-o agot.pot]   # the template
    python -m agot_adjudicator.render.catalog update                  # both .po files
    python -m agot_adjudicator.render.catalog check                   # exit 1 if one lags

``extract`` is Babel's extraction over the package (``babel.cfg`` maps the same methods for
``pybabel extract -F babel.cfg``): in Python, the calls agot marks its sentences with
(``tr(...)``, ``N_(...)``, ``Msg(...)``: the first argument, a string literal), read from the
syntax tree by :func:`extract_python` because Babel's own tokenizing extractor misses a call
inside another call's arguments or inside an f-string (``Msg("[{units}]", units=[Msg(...)])``,
``f"# {tr('e.g.')}"``, both of which agot writes); in the house cards' YAML, each card's text.

``update`` appends each new ``msgid`` at the end of both catalogs with an empty ``msgstr`` for
a translator to fill in, and drops the entries no code writes any more; the entries already
there keep their order, so two branches that each add sentences merge cleanly (polib writes
the files). ``check`` says what
``tests/test_i18n.py`` says: sentences missing or untranslated, entries stale.

Babel is needed for ``extract``, ``update`` and ``check`` only (``pip install '.[test]'``);
polib, which reads the catalogs at run time, is a dependency of agot.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import polib

from agot_adjudicator.render.i18n import CATALOGS, DOMAIN, po_path, read_catalog

PACKAGE = Path(__file__).resolve().parent.parent
KEYWORDS = {"tr": None, "N_": None, "Msg": None}
"""The calls whose first argument is a sentence (Babel's keyword spec: None = the first)."""


METHODS = [("**.py", "agot_adjudicator.render.catalog:extract_python"),
           ("data/first_edition/card_texts.yaml", "agot_adjudicator.render.catalog:extract_cards")]
"""Babel's method map: which files hold sentences and how to read them (``babel.cfg``)."""


def extract_python(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Any,
                   options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method: every call of a keyword whose first argument is a string
    literal, anywhere in the module's syntax tree."""
    for node in ast.walk(ast.parse(fileobj.read())):
        if isinstance(node, ast.Call) and node.args:
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            arg = node.args[0]
            if name in keywords and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                yield node.lineno, name, arg.value, []


def extract_cards(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                  options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """A Babel extraction method: each house card's text in ``card_texts.yaml`` (the texts
    people read, outside the ruleset's content hash)."""
    from agot_adjudicator.io.reading import parse_text

    doc = parse_text("card_texts.yaml", fileobj.read())
    for card_id, text in (doc.data.get("house_card") or {}).items():
        if isinstance(text, str) and text:
            line = doc.positions.get(("house_card", card_id), (0, 0))[0]
            yield line, None, text, [card_id]


def extracted() -> dict[str, str]:
    """msgid → where it is first written (``render/report.py:123``), in the order Babel finds
    them (files sorted, then line order)."""
    from babel.messages.extract import extract_from_dir

    found: dict[str, str] = {}
    messages = extract_from_dir(str(PACKAGE), method_map=METHODS, keywords=KEYWORDS,
                                comment_tags=(), strip_comment_tags=True)
    for filename, lineno, message, _, _ in sorted(messages, key=lambda m: (m[0], m[1])):
        if isinstance(message, str) and message:
            found.setdefault(message, f"{Path(filename).as_posix()}:{lineno}")
    return found


def template(found: dict[str, str]) -> polib.POFile:
    """The catalog template (``.pot``) of the extracted sentences."""
    pot = polib.POFile(wrapwidth=0)
    pot.metadata = {"Project-Id-Version": DOMAIN, "MIME-Version": "1.0",
                    "Content-Type": "text/plain; charset=UTF-8",
                    "Content-Transfer-Encoding": "8bit"}
    for msgid, where in found.items():
        pot.append(polib.POEntry(msgid=msgid, msgstr="", occurrences=[(_file(where), "")]))
    return pot


def _file(where: str) -> str:
    return "agot_adjudicator/" + where.split(":")[0]


def update(lang: str, found: dict[str, str]) -> tuple[list[str], list[str]]:
    """Bring ``lang``'s catalog in step with ``found``: append the new msgids (empty msgstr),
    drop the stale ones; the others stay where they are. Returns (added, dropped)."""
    po = read_catalog(po_path(lang))
    have = {e.msgid for e in po if not e.obsolete}
    dropped = [e.msgid for e in po if e.msgid not in found]
    for entry in [e for e in po if e.msgid in dropped]:
        po.remove(entry)
    added = [m for m in found if m not in have]
    for msgid in added:
        po.append(polib.POEntry(msgid=msgid, msgstr="", occurrences=[(_file(found[msgid]), "")]))
    if added or dropped:
        po.save(str(po_path(lang)))
    return added, dropped


def problems(lang: str, found: dict[str, str]) -> list[str]:
    """What keeps ``lang``'s catalog from being complete: each sentence missing or untranslated
    (with where it is written) and each entry no code writes."""
    po = read_catalog(po_path(lang))
    done = {e.msgid for e in po.translated_entries()}
    out = [f"{found[m]}: {m!r} has no translation" for m in found if m not in done]
    out += [f"{po_path(lang).name}: {e.msgid!r} is stale (no code writes it)"
            for e in po if e.msgid not in found and not e.obsolete]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agot_adjudicator.render.catalog",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("extract", "update", "check"))
    parser.add_argument("-o", "--output", help="extract: write the template here (else stdout)")
    args = parser.parse_args(argv)
    found = extracted()
    if args.command == "extract":
        text = str(template(found)) + "\n"
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
        return 0
    if args.command == "update":
        for lang in CATALOGS:
            added, dropped = update(lang, found)
            print(f"{po_path(lang).relative_to(PACKAGE.parent)}: {len(added)} added (translate "
                  f"their msgstr), {len(dropped)} dropped")
        return 0
    wrong = [f"{lang}: {line}" for lang in CATALOGS for line in problems(lang, found)]
    for line in wrong:
        print(line, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
