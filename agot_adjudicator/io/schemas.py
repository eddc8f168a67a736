"""Safe YAML input with positions, JSON Schema checks, deterministic output, atomic writes.

Every input file is refused with a located :class:`~agot_adjudicator.errors.Problem`
when it is larger than :data:`MAX_BYTES`, not UTF-8, uses anchors, aliases or tags,
has duplicate keys, holds more than one document, or is not a mapping."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from agot_adjudicator.errors import InputError, Problem
from agot_adjudicator.io.reading import Document

if TYPE_CHECKING:  # jsonschema and ruamel.yaml are imported when needed (they are slow to import)
    import jsonschema
    from jsonschema.exceptions import ValidationError


# --- JSON Schema ---------------------------------------------------------------------------

SCHEMA_NAMES = ("state", "orders", "ruleset", "scenario")


@cache
def load_schema(name: str) -> dict[str, Any]:
    """Return the packaged JSON Schema ``name`` (one of :data:`SCHEMA_NAMES`)."""
    text = resources.files("agot_adjudicator").joinpath("schemas", f"{name}.schema.json").read_text(
        encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    """The validator of schema ``name``; the schemas themselves are checked by the tests
    (tests/test_schemas_in_sync.py), not at every run."""
    import jsonschema.validators

    schema = load_schema(name)
    base = jsonschema.validators.validator_for(schema)
    # JSON Schema counts 1.0 as an integer; a YAML file that says 1.0 means a float.
    strict = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
    cls = jsonschema.validators.extend(base, type_checker=strict)
    return cls(schema)


ID_PATTERN = "^[a-z][a-z0-9_]*$"
"""The schemas' pattern for ruleset ids."""


DECISION_ID_PATTERN = "^r[0-9]+/[a-z0-9_@/.:+-]+$"
"""The orders schema's pattern for decision ids (answers)."""


def _describe(error: ValidationError) -> str:
    if error.validator == "type" and (error.instance is None or isinstance(error.instance, bool)):
        # YAML spells them null, true and false.
        word = {None: "null", True: "true", False: "false"}[error.instance]
        return f"{word} is not of type {error.validator_value!r}"
    if error.validator == "pattern" and error.validator_value == DECISION_ID_PATTERN:
        return f"{error.instance!r} is not a decision id (e.g. r3/march@lannisport/house_card/stark)"
    if error.validator == "additionalProperties":
        return error.message.replace("Additional properties are not allowed", "unknown key")
    if error.validator == "enum" and isinstance(error.validator_value, list):
        options = ", ".join(str(v) for v in error.validator_value[:12])
        more = ", ..." if len(error.validator_value) > 12 else ""
        return f"{error.instance!r} is not one of: {options}{more}"
    if error.validator == "pattern" and error.validator_value == ID_PATTERN:
        return f"{error.instance!r} is not an id (lower-case snake_case, e.g. kings_landing)"
    if error.validator == "const":
        return f"{error.instance!r} should be {error.validator_value!r}"
    return error.message


def _unknown_keys(error: ValidationError) -> list[str]:
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return []
    allowed = set(error.schema.get("properties", {}))
    patterns = error.schema.get("patternProperties", {})
    keys = []
    for key in error.instance:
        if key in allowed or any(re.search(p, key) for p in patterns):
            continue
        keys.append(key)
    return sorted(keys)


_IGNORED = frozenset({"$schema", "$id", "title", "description", "$defs", "$comment", "default",
                      "examples"})


_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
}


def _same(a: Any, b: Any) -> bool:
    """JSON equality of scalars (``1`` is not ``true``); containers count as unequal (unsure)."""
    return not isinstance(a, dict | list) and type(a) is type(b) and a == b


def _surely_valid(root: Mapping[str, Any], schema: Any, value: Any) -> bool:
    """True only when ``value`` is valid against ``schema`` (a subset of JSON Schema 2020-12).

    False means invalid *or* unsure (a keyword outside the subset): the caller then asks
    jsonschema, whose errors are the reference. Valid files never import jsonschema.

    >>> s = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}},
    ...      "required": ["n"], "additionalProperties": False}
    >>> [_surely_valid(s, s, v) for v in ({"n": 1}, {"n": True}, {"n": -1}, {}, {"n": 1, "m": 2})]
    [True, False, False, False, False]
    """
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        return False
    for keyword, arg in schema.items():
        if keyword in _IGNORED:
            continue
        if keyword == "$ref":
            if not isinstance(arg, str) or not arg.startswith("#/$defs/"):
                return False
            target = root.get("$defs", {}).get(arg.removeprefix("#/$defs/"))
            if target is None or not _surely_valid(root, target, value):
                return False
        elif keyword == "type":
            kinds = arg if isinstance(arg, list) else [arg]
            if not any(k in _TYPES and _TYPES[k](value) for k in kinds):
                return False
        elif keyword == "enum":
            if not any(_same(value, option) for option in arg):
                return False
        elif keyword == "const":
            if not _same(value, arg):
                return False
        elif keyword == "oneOf":
            if sum(_surely_valid(root, branch, value) for branch in arg) != 1:
                return False  # none, or (unsure) several
        elif keyword in ("minimum", "maximum"):
            if isinstance(value, int | float) and not isinstance(value, bool) and (
                    value < arg if keyword == "minimum" else value > arg):
                return False
        elif keyword in ("minLength", "maxLength", "pattern"):
            if isinstance(value, str) and (
                    (keyword == "minLength" and len(value) < arg)
                    or (keyword == "maxLength" and len(value) > arg)
                    or (keyword == "pattern" and re.search(arg, value) is None)):
                return False
        elif keyword in ("items", "minItems", "uniqueItems"):
            if not isinstance(value, list):
                continue
            if keyword == "items" and not all(_surely_valid(root, arg, v) for v in value):
                return False
            if keyword == "minItems" and len(value) < arg:
                return False
            if keyword == "uniqueItems" and arg and not (
                    all(isinstance(v, str) for v in value) and len(set(value)) == len(value)):
                return False  # a repeat, or (unsure) items that are not all strings
        elif keyword in ("properties", "patternProperties", "additionalProperties", "required",
                         "propertyNames", "minProperties", "dependentRequired"):
            if isinstance(value, dict) and not _object_valid(root, schema, keyword, value):
                return False
        else:
            return False
    return True


def _object_valid(root: Mapping[str, Any], schema: Mapping[str, Any], keyword: str,
                  value: dict[str, Any]) -> bool:
    """One object keyword of :func:`_surely_valid`."""
    arg = schema[keyword]
    if keyword == "properties":
        return all(_surely_valid(root, sub, value[key]) for key, sub in arg.items() if key in value)
    if keyword == "patternProperties":
        return all(_surely_valid(root, sub, v) for pattern, sub in arg.items()
                   for key, v in value.items() if re.search(pattern, key))
    if keyword == "additionalProperties":
        known = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        return all(_surely_valid(root, arg, v) for key, v in value.items()
                   if key not in known and not any(re.search(p, key) for p in patterns))
    if keyword == "required":
        return all(key in value for key in arg)
    if keyword == "propertyNames":
        return all(_surely_valid(root, arg, key) for key in value)
    if keyword == "minProperties":
        return len(value) >= arg
    return all(all(d in value for d in deps) for key, deps in arg.items() if key in value)


def schema_problems(doc: Document, schema_name: str) -> list[Problem]:
    """Every JSON Schema violation of ``doc``, each located at its node.

    A state, submission or scenario of an older format version is first read
    forward to the current one, in place (:func:`agot_adjudicator.io.formats.read_forward`);
    one of a newer version is refused.
    """
    from agot_adjudicator.io.formats import read_forward

    newer = read_forward(doc, schema_name)
    if newer:
        return newer
    schema = load_schema(schema_name)
    if _surely_valid(schema, schema, doc.data):
        return []
    from jsonschema.exceptions import best_match

    problems: list[Problem] = []
    for error in _validator(schema_name).iter_errors(doc.data):
        # The deepest branch of a oneOf that fits the value's type; when no branch
        # stands out, the most relevant of the branches' own errors.
        chosen = best_match([error]) or error
        if chosen.context:
            chosen = best_match(chosen.context) or chosen
        path = list(chosen.absolute_path)
        unknown = _unknown_keys(chosen)
        if unknown:
            for key in unknown:
                problems.append(doc.problem([*path, key], "unknown key", key=True))
            continue
        if "propertyNames" in chosen.absolute_schema_path and isinstance(chosen.instance, str):
            # A bad key: locate the key itself, not the mapping holding it.
            problems.append(doc.problem([*path, chosen.instance],
                                        f"key {_describe(chosen)}", key=True))
            continue
        problems.append(doc.problem(path, _describe(chosen)))
    return sorted(set(problems), key=Problem.sort_key)


def check_schema(doc: Document, schema_name: str) -> None:
    """Raise :class:`InputError` if ``doc`` violates the schema ``schema_name``."""
    problems = schema_problems(doc, schema_name)
    if problems:
        raise InputError(problems)
