"""Files made from the schemas and the ruleset are up to date: the top-level `schemas/` folder
(the package's copy, byte for byte), the schemas compiled by fastjsonschema, compiled.json."""

import subprocess
import sys
from pathlib import Path

import pytest
from recorded import REGENERATE

from agot_adjudicator.io.schemas import SCHEMA_NAMES

ROOT = Path(__file__).resolve().parent.parent


def test_top_level_schemas_equal_packaged_schemas():
    for name in SCHEMA_NAMES:
        top = ROOT / "schemas" / f"{name}.schema.json"
        packaged = ROOT / "agot_adjudicator" / "schemas" / f"{name}.schema.json"
        assert top.read_bytes() == packaged.read_bytes(), f"schemas/{name}.schema.json: {REGENERATE}"


def test_schemas_are_valid_json_schemas():
    import jsonschema

    from agot_adjudicator.io.schemas import load_schema

    for name in SCHEMA_NAMES:
        jsonschema.Draft202012Validator.check_schema(load_schema(name))


def test_compiled_ruleset_equals_the_yaml_files():
    from agot_adjudicator.io.rulesets import compiled_text

    compiled = ROOT / "agot_adjudicator" / "data" / "first_edition" / "compiled.json"
    assert compiled.read_text(encoding="utf-8") == compiled_text(), f"compiled.json: {REGENERATE}"


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_shipped_compiled_schemas_are_made_from_the_schemas(name):
    """The shipped module was compiled from this schema (its SHA-256), so runs use it."""
    import importlib

    from agot_adjudicator.io import schemas

    module = importlib.import_module(f"agot_adjudicator.io.compiled_schemas.{name}")
    assert schemas._schema_sha256(name) == module.SCHEMA_SHA256, f"compiled_schemas/{name}.py: {REGENERATE}"
    assert schemas._quick_check(name) is module.validate


def test_an_edited_schema_is_compiled_at_run_time(monkeypatch):
    """A schema edited without regenerating is not checked by the stale shipped module."""
    from agot_adjudicator.io import schemas

    monkeypatch.setattr(schemas, "_schema_sha256", lambda name: "0" * 64)
    check = schemas._quick_check.__wrapped__("orders")
    shipped = __import__("agot_adjudicator.io.compiled_schemas.orders", fromlist=["validate"])
    assert check is not shipped.validate
    check({"format": "agot-orders/1", "round": 1})
    with pytest.raises(Exception, match="must contain"):
        check({"round": 1})


def test_regenerate_refuses_another_copy_of_the_package(tmp_path):
    """Run where another agot_adjudicator is imported first, the recipe exits 2 and writes nothing."""
    fake = tmp_path / "agot_adjudicator"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import agot_adjudicator, runpy; "
            f"runpy.run_path({str(ROOT / 'scenarios' / 'regenerate.py')!r}, run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2
    assert "not from this checkout" in done.stderr and done.stdout == ""


def test_state_schema_lists_the_restriction_cards_of_the_model():
    """JSON Schema cannot import Python: the one definition is model.state.RESTRICTIONS, and
    the state schema's list must equal it."""
    from agot_adjudicator.io.schemas import load_schema
    from agot_adjudicator.model.state import RESTRICTIONS

    enum = load_schema("state")["properties"]["restrictions"]["items"]["enum"]
    assert enum == list(RESTRICTIONS)
