"""The top-level `schemas/` folder is the package's copy, byte for byte."""

from pathlib import Path

from agot_adjudicator.io.schemas import SCHEMA_NAMES

ROOT = Path(__file__).resolve().parent.parent


def test_top_level_schemas_equal_packaged_schemas():
    for name in SCHEMA_NAMES:
        top = ROOT / "schemas" / f"{name}.schema.json"
        packaged = ROOT / "agot_adjudicator" / "schemas" / f"{name}.schema.json"
        assert top.read_bytes() == packaged.read_bytes(), f"schemas/{name}.schema.json differs"


def test_schemas_are_valid_json_schemas():
    import jsonschema

    from agot_adjudicator.io.schemas import load_schema

    for name in SCHEMA_NAMES:
        jsonschema.Draft202012Validator.check_schema(load_schema(name))


def test_compiled_ruleset_equals_the_yaml_files():
    """`python -m agot_adjudicator.io.rulesets` regenerates compiled.json after editing the YAML."""
    from agot_adjudicator.io.rulesets import compiled_text

    compiled = ROOT / "agot_adjudicator" / "data" / "first_edition" / "compiled.json"
    assert compiled.read_text(encoding="utf-8") == compiled_text()


def test_state_schema_lists_the_restriction_cards_of_the_model():
    """JSON Schema cannot import Python: the one definition is model.state.RESTRICTIONS, and
    the state schema's list must equal it."""
    from agot_adjudicator.io.schemas import load_schema
    from agot_adjudicator.model.state import RESTRICTIONS

    enum = load_schema("state")["properties"]["restrictions"]["items"]["enum"]
    assert enum == list(RESTRICTIONS)
