"""Re-render every recorded output of the repository from what is recorded, with this checkout.

    python scenarios/regenerate.py

Run it from a checkout (any working directory) after a change that alters a recorded output,
then review and commit the result. It changes only what the change changes: on an untouched
checkout it writes nothing, and after a change of one report sentence it rewrites only the
reports and mail texts that hold that sentence. It writes, in this order:

1. ``agot_adjudicator/data/first_edition/compiled.json``: the packaged ruleset's YAML files as
   one JSON document (loaded at every run instead of the YAML);
2. ``schemas/*.schema.json``: the published copies of ``agot_adjudicator/schemas/``;
3. ``agot_adjudicator/io/compiled_schemas/*.py``: those schemas compiled into Python by
   fastjsonschema (compiling at every run would cost 30–70 ms a schema);
4. ``scenarios/games/demo``, re-rendered from its own record: the game's copy of the packaged
   ruleset (``rulesets/SHA256/``, when the state still names the packaged ruleset's hash),
   round 1's state (what ``agot new`` writes for the recorded seed, houses and game id), then
   round by round, from the recorded state and submissions (``orders/``, the answers
   included) and the ``--nmr``/``--defaults`` the next state's chain records: the next state,
   ``report.md``, ``log.jsonl``, ``board.svg``, ``moves.svg`` and the mail texts the round
   records, in the language each was written in. The round is re-adjudicated by ``agot
   replay``'s own check (:func:`agot_adjudicator.workflow.replay.check_round`) and rendered by
   the same function that writes a round (``Rendered.outputs``): there is no second renderer.

The players' submissions are never rewritten. If they no longer complete a round (a rule
change asks a decision the record does not answer), the script stops with exit 1 and names
the round: the demo must then be played again, which is a separate, explicit command,

    python scenarios/games/make_demo.py

(a new game with the same seed and random players; every file of the demo may change).

The tests compare each of these byte for byte and name this command when one differs. Hand
written expectations (``scenarios/*.yaml``, ``tests/data/invalid``) are not regenerated: a
change there is a change of what is expected, made by hand.

The checkout's ``agot_adjudicator`` is imported, not an installed copy (after the README's
``pip install .``, a plain ``import agot_adjudicator`` would find the installed one and the
recorded outputs would not be this checkout's); if another copy is imported anyway, the script
stops with exit 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"


def import_checkout_package() -> None:
    """Import this checkout's ``agot_adjudicator``; exit 2 if another copy is what Python finds."""
    sys.path.insert(0, str(ROOT))
    import agot_adjudicator

    found = Path(agot_adjudicator.__file__).resolve().parent
    if found != ROOT / "agot_adjudicator":
        print(f"error: agot_adjudicator was imported from {found}, not from this checkout "
              f"({ROOT / 'agot_adjudicator'}), before this script could choose: the recorded "
              "outputs would not be this checkout's. Run `python scenarios/regenerate.py` "
              "with an interpreter that does not import agot_adjudicator at start-up.",
              file=sys.stderr)
        raise SystemExit(2)


class Stale(Exception):
    """The record no longer adjudicates with this checkout: the demo must be played again."""


def _write(path: Path, text: str, changed: list[Path]) -> None:
    """Write ``text`` to ``path`` if its bytes differ (an unchanged file is left untouched)."""
    data = text.encode("utf-8")
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    changed.append(path)


def regenerate_game(game: Path) -> list[Path]:
    """Re-render every recorded output of game directory ``game`` from its recorded
    submissions (see the module docstring, step 4); return the files whose bytes changed.

    Raises :class:`Stale` when a round's recorded submissions no longer complete it."""
    from agot_adjudicator.io.formats import MAKER
    from agot_adjudicator.io.gamedir import round_dirs
    from agot_adjudicator.io.rulesets import (
        GAME_RULESETS,
        GLOSSARY,
        RULESET_FILES,
        glossary_bytes,
        load_ruleset,
        ruleset_files,
        state_ruleset,
    )
    from agot_adjudicator.model.state import STATE_VERSION
    from agot_adjudicator.render.diff import explain_state_texts
    from agot_adjudicator.render.i18n import recorded_language
    from agot_adjudicator.workflow.present import new_game_text
    from agot_adjudicator.workflow.replay import (
        FINAL,
        Rendered,
        check_round,
        present,
        read_recorded,
    )
    from agot_adjudicator.workflow.validate import load_state

    changed: list[Path] = []
    packaged = load_ruleset()
    copy = game / GAME_RULESETS / packaged.sha256
    if copy.is_dir():  # what `agot new --game` copies: the packaged files, layout and names
        files = {name: data.decode("utf-8") for name, data in ruleset_files(packaged.source).items()}
        files[GLOSSARY] = glossary_bytes(packaged.source).decode("utf-8")
        for name in (*RULESET_FILES, GLOSSARY):
            _write(copy / name, files[name], changed)
    dirs = round_dirs(str(game))
    ruleset = state_ruleset(dirs[0].state, game) or packaged
    _, start = load_state(str(dirs[0].state), ruleset)
    _write(dirs[0].state, new_game_text(ruleset, list(start.houses), start.seed, start.game_id),
           changed)
    for index, rd in enumerate(dirs[:-1]):
        following = dirs[index + 1]
        check = check_round(rd, following, packaged, explain_state_texts, game, keep=True)
        if check.status == FINAL:
            break
        if check.rendered is None:
            raise Stale(f"{rd.path}: the recorded submissions no longer adjudicate:\n  "
                        + "\n  ".join(check.details))
        kept = check.rendered
        rendered = Rendered(kept.run, kept.ruleset, MAKER, STATE_VERSION)
        report, why = read_recorded(rd.report) if present(rd.report) else ("", None)
        lang = recorded_language(report) if why is None else "en"
        out = rendered.outputs(lang)
        if out.state is None:
            raise Stale(f"{rd.path}: the recorded submissions leave decisions pending: "
                        + ", ".join(p.request.id for p in kept.run.result.pending))
        _write(following.state, out.state, changed)
        _write(rd.report, out.report, changed)
        _write(rd.log, out.log, changed)
        for path, text in ((rd.board, out.board), (rd.moves, out.moves)):
            if text is not None:
                _write(path, text, changed)
        _write_mail(rd, kept.run, kept.ruleset, out, lang, changed)
    return changed


def _write_mail(rd, run, ruleset, out, lang: str, changed: list[Path]) -> None:
    """The round's mail texts that its record holds, each in the language it was written in
    (``agot replay`` checks the same files, the same way)."""
    from agot_adjudicator.io.formats import MAKER
    from agot_adjudicator.render.i18n import recorded_language
    from agot_adjudicator.render.mail import MAIL_DIR, PUBLIC_TEXT
    from agot_adjudicator.workflow.mailout import mail_files
    from agot_adjudicator.workflow.replay import present, read_recorded, recorded_addresses

    folder = rd.path / MAIL_DIR
    if not folder.is_dir() or folder.is_symlink():
        return

    def language(path: Path) -> str:
        return recorded_language(read_recorded(path)[0]) if present(path) else lang

    houses = run.result.state.order_of_play()
    mail = mail_files(run, ruleset, out, rd.name, recorded_addresses(folder, houses), MAKER,
                      language(folder / PUBLIC_TEXT),
                      {h: language(folder / f"{h}.txt") for h in houses},
                      wanted=lambda name: present(rd.path / name))
    for name, text in mail.items():
        if present(rd.path / name):
            _write(rd.path / name, text, changed)


def regenerate_compiled() -> list[Path]:
    """compiled.json, the published schemas and the compiled schemas (steps 1–3)."""
    from agot_adjudicator.io.rulesets import COMPILED, compiled_text
    from agot_adjudicator.io.schemas import SCHEMA_NAMES, compiled_module_text

    changed: list[Path] = []
    package = ROOT / "agot_adjudicator"
    _write(package / "data" / "first_edition" / COMPILED, compiled_text(), changed)
    for name in SCHEMA_NAMES:
        source = package / "schemas" / f"{name}.schema.json"
        _write(ROOT / "schemas" / source.name, source.read_text(encoding="utf-8"), changed)
        code = package / "io" / "compiled_schemas" / f"{name}.py"
        _write(code, compiled_module_text(name), changed)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo", type=Path, default=DEMO,
                        help="the game directory to re-render (default: the demo)")
    args = parser.parse_args(argv)
    import_checkout_package()
    changed = regenerate_compiled()
    from agot_adjudicator.io.rulesets import _load_cached

    _load_cached.cache_clear()  # compiled.json was just rewritten: load the ruleset from it
    try:
        changed += regenerate_game(args.demo)
    except Stale as exc:
        print(f"error: {exc}\nthe demo must be played again: python scenarios/games/make_demo.py",
              file=sys.stderr)
        return 1
    for path in changed:
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    print(f"{len(changed)} file(s) changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
