"""JSON Schema checks: fastjsonschema decides whether a document is valid (the schema compiled
into Python); for an invalid one, jsonschema finds every error and :func:`schema_problems`
locates each at its node (``file:line:col: $.path: message``)."""

from __future__ import annotations

import hashlib
import importlib
import json
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agot_adjudicator.errors import Problem
from agot_adjudicator.io.reading import Document
from agot_adjudicator.model.text import Msg

if TYPE_CHECKING:  # jsonschema and ruamel.yaml are imported when needed (they are slow to import)
    import jsonschema
    from jsonschema.exceptions import ValidationError


# --- JSON Schema ---------------------------------------------------------------------------

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
"""The packaged JSON Schemas (``agot_adjudicator/schemas``)."""
SCHEMA_NAMES = ("state", "orders", "ruleset", "scenario", "players", "decisions", "judge", "view")


@cache
def _schema_text(name: str) -> str:
    return (SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8")


@cache
def load_schema(name: str) -> dict[str, Any]:
    """Return the packaged JSON Schema ``name`` (one of :data:`SCHEMA_NAMES`)."""
    schema: dict[str, Any] = json.loads(_schema_text(name))
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


TYPE_WORDS = {"object": Msg("'object'"), "array": Msg("'array'"), "string": Msg("'string'"),
              "integer": Msg("'integer'"), "number": Msg("'number'"),
              "boolean": Msg("'boolean'"), "null": Msg("'null'")}
"""A JSON Schema type as the validator quotes it, in a sentence that translates."""


def _describe(error: ValidationError) -> str:
    """The validator's error as a sentence that translates (:class:`Msg`, one template per kind
    of error, its fields the values); in English exactly what the validator said."""
    message = _described(error)
    if message is None or not isinstance(message, Msg):
        english = error.message if message is None else message
        return Msg("{schema_message}", schema_message=english)
    return message


def _described(error: ValidationError) -> str | None:
    kind, expected, instance = error.validator, error.validator_value, error.instance
    if kind == "type" and (instance is None or isinstance(instance, bool)):
        # YAML spells them null, true and false.
        word = {None: "null", True: "true", False: "false"}[instance]
        return Msg("{value} is not of type {expected}", value=word,
                   expected=_types(expected) if isinstance(expected, str) else repr(expected))
    if kind == "pattern" and expected == DECISION_ID_PATTERN:
        return Msg("{value} is not a decision id (e.g. r3/march@lannisport/house_card/stark)",
                   value=repr(instance))
    if kind == "additionalProperties":
        return error.message.replace("Additional properties are not allowed", "unknown key")
    if kind == "enum" and isinstance(expected, list):
        options = ", ".join(str(v) for v in expected[:12])
        more = ", ..." if len(expected) > 12 else ""
        return Msg("{value} is not one of: {options}", value=repr(instance),
                   options=options + more)
    if kind == "pattern" and expected == ID_PATTERN:
        return Msg("{value} is not an id (lower-case snake_case, e.g. kings_landing)",
                   value=repr(instance))
    if kind == "const":
        return Msg("{value} should be {expected}", value=repr(instance), expected=repr(expected))
    return _validator_message(error)


def _types(expected: Any) -> Any:
    names = expected if isinstance(expected, list) else [expected]
    return [TYPE_WORDS.get(t, repr(t)) for t in names]


def _validator_message(error: ValidationError) -> str | None:
    """jsonschema's own message for ``error`` rebuilt as a :class:`Msg`, or None when this
    version of jsonschema words it otherwise (then it is kept as it is)."""
    kind, expected, instance = error.validator, error.validator_value, error.instance
    value = repr(instance)
    built: Msg | None = None
    if kind == "type":
        built = Msg("{value} is not of type {expected}", value=value, expected=_types(expected))
    elif kind == "required":
        missing = error.message.removesuffix(" is a required property")
        built = Msg("{key} is a required property", key=missing)
    elif kind == "minimum":
        built = Msg("{value} is less than the minimum of {limit}", value=value,
                    limit=repr(expected))
    elif kind == "maximum":
        built = Msg("{value} is greater than the maximum of {limit}", value=value,
                    limit=repr(expected))
    elif kind in ("minItems", "minLength", "minProperties"):
        built = (Msg("{value} should be non-empty", value=value)
                 if error.message.endswith("should be non-empty") else
                 Msg("{value} does not have enough properties", value=value)
                 if kind == "minProperties" else Msg("{value} is too short", value=value))
    elif kind in ("maxItems", "maxLength", "maxProperties"):
        built = (Msg("{value} is expected to be empty", value=value)
                 if error.message.endswith("is expected to be empty") else
                 Msg("{value} has too many properties", value=value)
                 if kind == "maxProperties" else Msg("{value} is too long", value=value))
    elif kind == "pattern":
        built = Msg("{value} does not match {pattern}", value=value, pattern=repr(expected))
    elif kind == "uniqueItems":
        built = Msg("{value} has non-unique elements", value=value)
    elif kind in ("oneOf", "anyOf") and "is not valid under any" in error.message:
        built = Msg("{value} is not valid under any of the given schemas", value=value)
    elif kind == "dependentRequired":
        built = Msg("{key} is a dependency of {other_key}",
                    key=error.message.split(" is a dependency of ")[0],
                    other_key=error.message.split(" is a dependency of ")[-1])
    elif kind == "enum":
        built = Msg("{value} is not one of {options}", value=value, options=repr(expected))
    return built if built is not None and built == error.message else None


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


def _unknown_key(key: str, path: list[Any], error: ValidationError, schema_name: str) -> Msg:
    """What is wrong with an unknown ``key`` at ``path``: the keys the mapping takes (with a
    "did you mean" for a typo), or, for a key of the top of the file written inside another
    (``bids: {wildlings: 2}``), where it goes."""
    from agot_adjudicator.model.naming import listed, suggest

    allowed = sorted(error.schema.get("properties", {}))
    top = load_schema(schema_name).get("properties", {})
    if path and key in top and key not in allowed:
        return Msg("unknown key here: `{key}` is a key of the file itself, beside `{parent}`",
                   key=key, parent=path[0])
    if not allowed:
        return Msg("unknown key")
    return Msg("unknown key{hint} (expected one of: {keys})", hint=suggest(key, allowed),
               keys=listed(allowed))


def _draft7(schema: Any) -> Any:
    """``schema`` in the draft-7 words fastjsonschema knows: ``dependentRequired`` (2019-09) is
    draft 7's ``dependencies`` with lists of names. ``$defs`` and ``$ref`` work as they are."""
    if isinstance(schema, dict):
        return {("dependencies" if key == "dependentRequired" else key): _draft7(value)
                for key, value in schema.items()}
    if isinstance(schema, list):
        return [_draft7(value) for value in schema]
    return schema


def compiled_module_text(name: str) -> str:
    """The module ``agot_adjudicator/io/compiled_schemas/<name>.py``: schema ``name`` compiled into
    Python by fastjsonschema, with the SHA-256 of the schema it was made from. Compiling takes
    30–70 ms a schema, so the package ships the result (``python scenarios/regenerate.py``
    writes it again); a schema edited without regenerating is compiled at run time."""
    import fastjsonschema

    code = fastjsonschema.compile_to_code(_draft7(load_schema(name)))
    entry = re.search(r"^def (\w+)", code, re.MULTILINE)
    assert entry is not None, "fastjsonschema wrote no function"
    return (f'"""The {name} schema compiled by fastjsonschema. Generated by '
            f'`python scenarios/regenerate.py`: do not edit."""\n'
            f'SCHEMA_SHA256 = "{_schema_sha256(name)}"\n{code}\nvalidate = {entry.group(1)}\n')


def _schema_sha256(name: str) -> str:
    return hashlib.sha256(_schema_text(name).encode("utf-8")).hexdigest()


@cache
def _quick_check(name: str) -> Any:
    """Schema ``name`` compiled into Python by fastjsonschema (raises on the first violation):
    the shipped module when it was made from this schema, else compiled now."""
    try:
        module = importlib.import_module(f"agot_adjudicator.io.compiled_schemas.{name}")
    except ImportError:  # pragma: no cover - the package ships the four modules
        module = None
    if module is not None and getattr(module, "SCHEMA_SHA256", None) == _schema_sha256(name):
        return module.validate
    import fastjsonschema

    return fastjsonschema.compile(_draft7(load_schema(name)))


def _holds_float(value: Any) -> bool:
    """Whether a float is anywhere in ``value``: fastjsonschema, as JSON Schema says, takes 1.0
    for an integer; agot's schemas do not (a YAML ``1.0`` is a float)."""
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_holds_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_float(v) for v in value)
    return False


def _valid(name: str, data: Any) -> bool:
    """True when ``data`` is valid against schema ``name``, without importing jsonschema.

    >>> _valid("orders", {"format": "agot-orders/1", "round": 1}), _valid("orders", {"round": 1})
    (True, False)
    """
    import fastjsonschema

    if _holds_float(data) and name != "ruleset":  # the ruleset's map layout holds numbers
        return False  # jsonschema decides (and says where)
    try:
        _quick_check(name)(data)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True


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
    if _valid(schema_name, doc.data):
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
                problems.append(doc.problem([*path, key],
                                            _unknown_key(key, path, chosen, schema_name),
                                            key=True))
            continue
        if "propertyNames" in chosen.absolute_schema_path and isinstance(chosen.instance, str):
            # A bad key: locate the key itself, not the mapping holding it.
            problems.append(doc.problem([*path, chosen.instance],
                                        Msg("key {problem}", problem=_describe(chosen)),
                                        key=True))
            continue
        problems.append(doc.problem(path, _describe(chosen)))
    return sorted(set(problems), key=Problem.sort_key)

