"""The top-level `schemas/` folder is the package's copy, byte for byte."""

from pathlib import Path

from agot_adjudicator.files import SCHEMA_NAMES

ROOT = Path(__file__).resolve().parent.parent


def test_top_level_schemas_equal_packaged_schemas():
    for name in SCHEMA_NAMES:
        top = ROOT / "schemas" / f"{name}.schema.json"
        packaged = ROOT / "agot_adjudicator" / "schemas" / f"{name}.schema.json"
        assert top.read_bytes() == packaged.read_bytes(), f"schemas/{name}.schema.json differs"
