"""Regenerate every recorded output of the repository from this checkout's package.

    python scenarios/regenerate.py

Run it from a checkout (any working directory) after a change that alters a recorded output,
then review and commit the result. It writes, in this order:

1. ``agot_adjudicator/data/first_edition/compiled.json``: the packaged ruleset's YAML files as
   one JSON document (loaded at every run instead of the YAML);
2. ``schemas/*.schema.json``: the published copies of ``agot_adjudicator/schemas/``;
3. ``agot_adjudicator/io/compiled_schemas/*.py``: those schemas compiled into Python by
   fastjsonschema (compiling at every run would cost 30–70 ms a schema);
4. ``scenarios/games/demo``: the demo game, played again through the moderator's workflow
   (``scenarios/games/make_demo.py``; its seed and players are fixed, so an unchanged engine
   gives the same game).

The tests compare each of these byte for byte and name this command when one differs. Hand
written expectations (``scenarios/*.yaml``, ``tests/data/invalid``) are not regenerated: a
change there is a change of what is expected, made by hand.

The checkout's ``agot_adjudicator`` is imported, not an installed copy (after the README's
``pip install .``, a plain ``import agot_adjudicator`` would find the installed one and the
recorded outputs would not be this checkout's); if another copy is imported anyway, the script
stops with exit 2.
"""

from __future__ import annotations

import runpy
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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


def main() -> int:
    import_checkout_package()
    from agot_adjudicator.io.rulesets import COMPILED, compiled_text
    from agot_adjudicator.io.schemas import SCHEMA_NAMES, compiled_module_text

    package = ROOT / "agot_adjudicator"
    compiled = package / "data" / "first_edition" / COMPILED
    compiled.write_text(compiled_text(), encoding="utf-8")
    print(f"wrote {compiled.relative_to(ROOT)}")
    for name in SCHEMA_NAMES:
        source = package / "schemas" / f"{name}.schema.json"
        shutil.copyfile(source, ROOT / "schemas" / source.name)
        code = package / "io" / "compiled_schemas" / f"{name}.py"
        code.write_text(compiled_module_text(name), encoding="utf-8")
        print(f"wrote schemas/{source.name} and {code.relative_to(ROOT)}")
    demo = runpy.run_path(str(ROOT / "scenarios" / "games" / "make_demo.py"), run_name="make_demo")
    code: int = demo["main"]([])
    return code


if __name__ == "__main__":
    sys.exit(main())
