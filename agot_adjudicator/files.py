"""Safe YAML input with positions, JSON Schema checks, deterministic output, atomic writes.

Every input file is refused with a located :class:`~agot_adjudicator.errors.Problem`
when it is larger than :data:`MAX_BYTES`, not UTF-8, uses anchors, aliases or tags,
has duplicate keys, holds more than one document, or is not a mapping.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agot_adjudicator.errors import InputError, Problem

if TYPE_CHECKING:  # jsonschema and ruamel.yaml are imported when needed (they are slow to import)
    import jsonschema
    from jsonschema.exceptions import ValidationError
    from ruamel.yaml.error import YAMLError

MAX_BYTES = 1024 * 1024
"""Input files larger than this (1 MiB) are refused."""

MAX_DEPTH = 64
"""Documents nested deeper than this are refused."""

JsonPath = tuple[str | int, ...]


def json_path(path: Iterable[str | int]) -> str:
    """Render a document path as ``$.a.b[0]``.

    >>> json_path(["orders", "winterfell"])
    '$.orders.winterfell'
    >>> json_path(["plans", "raids", 0, "from"])
    '$.plans.raids[0].from'
    >>> json_path([])
    '$'
    """
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.replace("_", "a").isalnum():
            out += f".{part}"
        else:
            out += "[" + json.dumps(part) + "]"
    return out


@dataclass(frozen=True)
class Document:
    """A loaded input file: plain data plus the position of every node."""

    name: str
    data: dict[str, Any]
    sha256: str
    positions: Mapping[JsonPath, tuple[int, int]] = field(default_factory=dict)
    key_positions: Mapping[JsonPath, tuple[int, int]] = field(default_factory=dict)

    def locate(self, path: Iterable[str | int], *, key: bool = False) -> tuple[int, int] | None:
        """Return the 1-based (line, column) of ``path``, or of its nearest ancestor."""
        parts = tuple(path)
        if key and parts in self.key_positions:
            return self.key_positions[parts]
        while parts:
            if parts in self.positions:
                return self.positions[parts]
            parts = parts[:-1]
        return self.positions.get((), (1, 1))

    def problem(self, path: Iterable[str | int], message: str, *, key: bool = False) -> Problem:
        """A :class:`Problem` located at ``path`` in this document."""
        parts = tuple(path)
        line_col = self.locate(parts, key=key)
        line, col = line_col if line_col else (None, None)
        return Problem(self.name, line, col, json_path(parts), message)


def _mark_problem(name: str, exc: YAMLError, text: str = "") -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    position = getattr(exc, "position", None)
    if mark is None and isinstance(position, int) and 0 <= position <= len(text):
        # A reader error (a forbidden character) has a character index, not a mark.
        line = text.count("\n", 0, position) + 1
        col = position - (text.rfind("\n", 0, position) + 1) + 1
        character = getattr(exc, "character", None)
        code = ord(character) if isinstance(character, str) else character
        what = f"character #x{code:04x}" if isinstance(code, int) else "a character"
        return Problem(name, line, col, "", f"invalid YAML: unacceptable {what}: "
                       "special characters are not allowed")
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    message = f"{context}: {problem}" if context and "duplicate" in str(context) else problem
    if "found duplicate key" in str(exc):
        key = str(exc).split('found duplicate key "', 1)[-1].split('"', 1)[0]
        message = f"duplicate key '{key}'"
    if mark is None:
        return Problem(name, None, None, "", f"invalid YAML: {message}")
    return Problem(name, mark.line + 1, mark.column + 1, "", f"invalid YAML: {message}")


_ALLOWED_TAGS = (None, "!", "tag:yaml.org,2002:str", "tag:yaml.org,2002:int",
                 "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _check_events(name: str, text: str) -> list[Problem]:
    """Refuse anchors, aliases, explicit tags, several documents, deep nesting and complex keys."""
    problems: list[Problem] = []
    documents = 0
    depth = 0
    children: list[list[int]] = []  # per open collection: [is a mapping, nodes seen so far]
    from ruamel.yaml import YAML, events
    from ruamel.yaml.error import YAMLError

    yaml = YAML(typ="rt")
    try:
        for event in yaml.parse(text):
            mark = event.start_mark
            where = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
            if isinstance(event, events.NodeEvent) and children:
                is_key = children[-1][0] and children[-1][1] % 2 == 0
                children[-1][1] += 1
                if is_key and isinstance(event, events.CollectionStartEvent):
                    problems.append(Problem(name, *where, "", "invalid YAML: a mapping key must be "
                                            "a single value, not a list or mapping"))
                elif is_key and isinstance(event, events.ScalarEvent) and event.value == "<<" \
                        and event.style is None:
                    problems.append(Problem(name, *where, "", "YAML merge keys ('<<') are not allowed"))
            if isinstance(event, events.CollectionStartEvent):
                children.append([isinstance(event, events.MappingStartEvent), 0])
            elif isinstance(event, events.CollectionEndEvent) and children:
                children.pop()
            if isinstance(event, events.DocumentStartEvent):
                documents += 1
                if documents == 2:
                    problems.append(Problem(name, *where, "", "more than one YAML document"))
            if isinstance(event, events.AliasEvent):
                problems.append(Problem(name, *where, "", "YAML aliases are not allowed"))
            elif isinstance(event, events.NodeEvent) and event.anchor is not None:
                problems.append(Problem(name, *where, "", "YAML anchors are not allowed"))
            tag = getattr(event, "tag", None)
            if tag not in _ALLOWED_TAGS and isinstance(event, events.NodeEvent):
                problems.append(Problem(name, *where, "", f"YAML tag {tag!r} is not allowed"))
            if isinstance(event, events.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    problems.append(Problem(name, *where, "", "document nested too deeply"))
                    break
            elif isinstance(event, events.CollectionEndEvent):
                depth -= 1
            if len(problems) >= 20:
                break
    except YAMLError as exc:
        problems.append(_mark_problem(name, exc, text))
    return problems


def _key_text(key: Any) -> str:
    """A non-string mapping key as the text a YAML user would write.

    >>> _key_text(None), _key_text(True), _key_text(3)
    ('null', 'true', '3')
    """
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


_KIND_NAMES = {"str": "a string", "int": "a number", "float": "a number", "bool": "a boolean",
               "list": "a list"}


def _needs_event_check(text: str) -> bool:
    """Whether the slow event pass can find anything: anchors, aliases, tags, documents, nesting.

    Block nesting needs indentation (or ``- ``/``? `` prefixes), so the widest line
    prefix plus every flow bracket bounds the depth.

    >>> _needs_event_check("a: [1, 2]"), _needs_event_check("a: &x 1")
    (False, True)
    >>> _needs_event_check("a:\\n" + "".join("  " * i + f"k{i}:\\n" for i in range(1, 70)))
    True
    >>> _needs_event_check("a:\\n  " + "- " * 70 + "x")
    True
    """
    if any(c in text for c in "&*!%") or "---" in text or "..." in text:
        return True
    block = max((len(line) - len(line.lstrip(" -?:")) for line in text.splitlines()), default=0)
    return text.count("[") + text.count("{") + block > MAX_DEPTH


def _plain(node: Any, path: JsonPath, positions: dict[JsonPath, tuple[int, int]],
           key_positions: dict[JsonPath, tuple[int, int]]) -> Any:
    """Convert ruamel's round-trip nodes to plain JSON-like data, recording positions."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        out: dict[str, Any] = {}
        for key, value in node.items():
            skey = key if isinstance(key, str) else _key_text(key)
            child = (*path, skey)
            try:
                line, col = node.lc.value(key)
                kline, kcol = node.lc.key(key)
                key_positions[child] = (kline + 1, kcol + 1)
                # An empty value ("round:") is marked where the next token starts: use its key.
                empty = value is None and line != kline
                positions[child] = (kline + 1, kcol + 1) if empty else (line + 1, col + 1)
            except (KeyError, TypeError, IndexError):
                pass
            out[skey] = _plain(value, child, positions, key_positions)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for index, value in enumerate(node):
            child = (*path, index)
            try:
                line, col = node.lc.item(index)
                positions[child] = (line + 1, col + 1)
            except (KeyError, TypeError, IndexError):
                pass
            items.append(_plain(value, child, positions, key_positions))
        return items
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, datetime.date | datetime.datetime):
        return node.isoformat()
    if isinstance(node, str):
        return str(node)
    return str(node)

# --- fast path: libyaml composes, ruamel's resolver types the scalars ----------------------

_FAST_UNSAFE = re.compile("[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
"""Texts with any of these (tabs, CR, control characters, odd line breaks, a BOM inside) take
the slow, reference path."""
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)")


class _Slow(Exception):
    """The fast path cannot be sure it matches the reference parser: use the slow path."""


_BOOLS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
_NULLS = frozenset({"null", "Null", "NULL", "~"})
_NOT_A_NUMBER_OR_DATE = re.compile(r"[A-DF-SU-Ya-df-su-y]")
"""A letter that no YAML 1.2 number or timestamp holds (they hold only e, E, t, T, z, Z)."""


def _plain_kind(value: str) -> str:
    """What ruamel.yaml's YAML 1.2 resolver makes of a plain scalar, where that is sure:
    'str', 'int' (decimal), 'bool', 'null'; else 'unsure'. Tested against ruamel's resolver.

    >>> [_plain_kind(v) for v in ("winterfell", "12", "True", "~", "79cfa5", "1e3", "0x1f", "on")]
    ['str', 'int', 'bool', 'null', 'str', 'unsure', 'unsure', 'str']
    """
    if value in _BOOLS:
        return "bool"
    if value in _NULLS:
        return "null"
    if _DECIMAL.fullmatch(value):
        return "int"
    first = value[:1]
    if first and first.isascii() and (first.isalpha() or first in "_/"):
        return "str"  # YAML 1.2 resolves only true/false/null words among letter-led scalars
    if first.isdigit() and value[:2].lower() not in ("0x", "0o", "0b") and \
            _NOT_A_NUMBER_OR_DATE.search(value):
        return "str"
    return "unsure"


@cache
def _fast_tools() -> tuple[Any, Any, Any] | None:
    """PyYAML's libyaml composer and node classes, and the scalar resolver; None without libyaml."""
    try:
        import yaml
        from yaml import CSafeLoader
    except ImportError:  # pragma: no cover - PyYAML is a dependency; its C part is optional
        return None
    return CSafeLoader, yaml.nodes, _plain_kind


def _fast_parse(text: str) -> tuple[dict[str, Any], dict[JsonPath, tuple[int, int]],
                                    dict[JsonPath, tuple[int, int]]] | None:
    """Parse like the round-trip path, with libyaml (C); None when unsure (then the slow path runs).

    Only plain ASCII text without anchors, aliases, tags, directives, several documents, tabs or
    CRs is taken, with string keys, no duplicate keys, no block scalars, and scalars that YAML 1.2
    (ruamel's resolver) makes strings, decimal ints, booleans or null; anything else, and every
    error, goes to the slow path, whose messages are the reference (tests/test_bad_input.py).

    >>> _fast_parse("a: [1, x]\\nb: {c: null}\\n")[0]
    {'a': [1, 'x'], 'b': {'c': None}}
    >>> _fast_parse("a: 1.5\\n") is None, _fast_parse("a: 1\\na: 2\\n") is None
    (True, True)
    """
    tools = _fast_tools()
    if tools is None or _FAST_UNSAFE.search(text) or _needs_event_check(text):
        return None  # aliases (bombs), tags, directives, deep nesting: the slow path refuses them
    loader_cls, nodes, resolve = tools
    loader = loader_cls(text)
    try:
        root = loader.get_single_node()
    except Exception:  # any libyaml error: the slow path reports it
        return None
    finally:
        loader.dispose()
    if not isinstance(root, nodes.MappingNode):
        return None
    positions: dict[JsonPath, tuple[int, int]] = {(): (1, 1)}
    key_positions: dict[JsonPath, tuple[int, int]] = {}
    lines = text.split("\n")

    def scalar(node: Any) -> Any:
        if node.style:  # libyaml: '' or None for plain scalars
            if node.style in ("'", '"'):
                return node.value
            raise _Slow
        value = node.value
        if value == "":
            raise _Slow
        kind = resolve(value)
        if kind == "str":
            return value
        if kind == "int":
            return int(value)
        if kind == "bool":
            return value.lower() == "true"
        if kind == "null":
            return None
        raise _Slow

    def convert(node: Any, path: JsonPath) -> Any:
        if isinstance(node, nodes.ScalarNode):
            return scalar(node)
        if isinstance(node, nodes.SequenceNode):
            items = []
            for index, item in enumerate(node.value):
                child = (*path, index)
                positions[child] = (item.start_mark.line + 1, item.start_mark.column + 1)
                items.append(convert(item, child))
            return items
        if isinstance(node, nodes.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, nodes.ScalarNode):
                    raise _Slow
                key = scalar(key_node)
                if not isinstance(key, str) or key in out:
                    raise _Slow
                child = (*path, key)
                key_positions[child] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                if not node.flow_style and isinstance(value_node, nodes.ScalarNode) \
                        and not value_node.style and value_node.value == "":
                    # An empty block value ("round:" at the end of its line) is null, located at
                    # its key as the slow path does; other empty values take the slow path.
                    mark = value_node.start_mark
                    if mark.line != key_node.start_mark.line or \
                            lines[mark.line][mark.column:].strip():
                        raise _Slow
                    positions[child] = key_positions[child]
                    out[key] = None
                    continue
                positions[child] = (value_node.start_mark.line + 1, value_node.start_mark.column + 1)
                out[key] = convert(value_node, child)
            return out
        raise _Slow

    try:
        data = convert(root, ())
    except _Slow:
        return None
    return data, positions, key_positions


def parse_text(name: str, raw: bytes, *, fast: bool = True) -> Document:
    """Parse ``raw`` bytes of the file ``name`` into a :class:`Document`.

    Raises :class:`InputError` with every problem found. Plain files are composed by
    libyaml (``fast``); the rest, and every error, by ruamel.yaml's round-trip loader.
    """
    if len(raw) > MAX_BYTES:
        raise InputError([Problem(name, None, None, "",
                                  f"file is {len(raw)} bytes; the limit is {MAX_BYTES} (1 MiB)")])
    digest = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError([Problem(name, line, col, "",
                                  f"not UTF-8 text (byte 0x{raw[exc.start]:02x})")]) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        index = text.index("\x00")
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        raise InputError([Problem(name, line, col, "", "binary data (NUL byte) in a YAML file")])
    quick = _fast_parse(text) if fast else None
    if quick is not None:
        return Document(name, quick[0], digest, quick[1], quick[2])
    problems = _check_events(name, text)
    if problems:
        raise InputError(problems)
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        node = yaml.load(io.StringIO(text))
    except MarkedYAMLError as exc:
        raise InputError([_mark_problem(name, exc, text)]) from None
    except YAMLError as exc:
        raise InputError([_mark_problem(name, exc, text)]) from None
    except RecursionError:
        raise InputError([Problem(name, None, None, "", "document nested too deeply")]) from None
    if not isinstance(node, CommentedMap):
        kind = ("empty" if node is None else
                _KIND_NAMES.get(type(_plain(node, (), {}, {})).__name__, "not a mapping"))
        raise InputError([Problem(name, 1, 1, "$",
                                  f"the document is {kind}; expected a mapping of keys")])
    positions: dict[JsonPath, tuple[int, int]] = {(): (1, 1)}
    key_positions: dict[JsonPath, tuple[int, int]] = {}
    data = _plain(node, (), positions, key_positions)
    return Document(name, data, digest, positions, key_positions)


def load_yaml(path: str | os.PathLike[str], name: str | None = None) -> Document:
    """Read and parse one YAML file safely (see module docstring)."""
    display = name if name is not None else str(path)
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise InputError([Problem(display, None, None, "",
                                      f"file is {size} bytes; the limit is {MAX_BYTES} (1 MiB)")])
        raw = p.read_bytes()
    except IsADirectoryError:
        raise InputError([Problem(display, None, None, "", "is a directory, not a file")]) from None
    except FileNotFoundError:
        raise InputError([Problem(display, None, None, "", "no such file")]) from None
    except OSError as exc:
        raise InputError([Problem(display, None, None, "", f"cannot read: {exc.strerror}")]) from None
    return parse_text(display, raw)


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
    """Every JSON Schema violation of ``doc``, each located at its node."""
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


# --- output --------------------------------------------------------------------------------

def _flowify(data: Any, depth: int = 0) -> Any:
    """Turn plain data into ruamel nodes: short lists of scalars in flow style."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(data, dict):
        cm = CommentedMap()
        for key, value in data.items():
            cm[key] = _flowify(value, depth + 1)
        return cm
    if isinstance(data, list):
        cs = CommentedSeq(_flowify(v, depth + 1) for v in data)
        if all(not isinstance(v, dict | list) for v in data):
            cs.fa.set_flow_style()
        return cs
    return data


_PLAIN_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./@+-]*")


def _word(value: Any) -> str:
    """A scalar as ruamel would write it, for the values the fast writer is sure of."""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and _PLAIN_WORD.fullmatch(value) and len(value) < 1000 and \
            _plain_kind(value) == "str":
        return value
    raise _Slow


def _write_map(data: Mapping[str, Any], indent: int, out: list[str]) -> None:
    pad = " " * indent
    for key, value in data.items():
        name = _word(key) if isinstance(key, str) else _word(None)
        if isinstance(value, dict):
            if value:
                out.append(f"{pad}{name}:\n")
                _write_map(value, indent + 2, out)
            else:
                out.append(f"{pad}{name}: {{}}\n")
        elif isinstance(value, list):
            if all(not isinstance(v, dict | list) for v in value):
                words = ", ".join("null" if v is None else _word(v) for v in value)
                out.append(f"{pad}{name}: [{words}]\n")
            else:
                out.append(f"{pad}{name}:\n")
                _write_seq(value, indent + 2, out)
        elif value is None:
            out.append(f"{pad}{name}:\n")
        else:
            out.append(f"{pad}{name}: {_word(value)}\n")


def _write_seq(items: list[Any], indent: int, out: list[str]) -> None:
    pad = " " * indent
    for item in items:
        if isinstance(item, dict) and item:
            start = len(out)
            _write_map(item, indent + 2, out)
            out[start] = f"{pad}- {out[start][indent + 2:]}"
        elif isinstance(item, dict):
            out.append(f"{pad}- {{}}\n")
        elif isinstance(item, list) or item is None:
            raise _Slow
        else:
            out.append(f"{pad}- {_word(item)}\n")


def _fast_dump(data: Mapping[str, Any]) -> str | None:
    """The text :func:`dump_yaml` writes, without ruamel's (slow) emitter; None when unsure.

    Only ids, numbers, booleans and nulls are written by hand (tests compare the two
    writers on every document of the repository).

    >>> print(_fast_dump({"a": {"b": [1, "x"], "c": None}, "d": [{"e": True}]}), end="")
    a:
      b: [1, x]
      c:
    d:
      - e: true
    >>> _fast_dump({"a": "two words"}) is None
    True
    """
    out: list[str] = []
    if not data:
        return None
    try:
        _write_map(data, 0, out)
    except _Slow:
        return None
    if any(len(line) > 4000 for line in out):
        return None  # ruamel folds long lines
    return "".join(out)


def dump_yaml(data: Mapping[str, Any], header: str | None = None, *, fast: bool = True) -> str:
    """Serialise ``data`` to YAML text, deterministically (keys in insertion order)."""
    quick = _fast_dump(data) if fast else None
    if quick is not None:
        text = quick
    else:
        from ruamel.yaml import YAML

        yaml = YAML(typ="rt")
        yaml.width = 4096
        yaml.indent(mapping=2, sequence=4, offset=2)
        buffer = io.StringIO()
        yaml.dump(_flowify(dict(data)), buffer)
        text = buffer.getvalue()
    if header:
        text = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()) + text
    return text


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when two paths name the same file (or would, once created)."""
    pa, pb = Path(a), Path(b)
    try:
        if pa.exists() and pb.exists():
            return os.path.samefile(pa, pb)
    except OSError:
        pass
    return pa.resolve() == pb.resolve()


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically (temporary file, then rename)."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_all_atomic(outputs: Iterable[tuple[str | os.PathLike[str], str]]) -> None:
    """Write several files; each one atomically."""
    for path, text in outputs:
        write_atomic(path, text)
