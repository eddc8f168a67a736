"""Safe YAML input with positions.

Every input file is refused with a located :class:`~agot_adjudicator.errors.Problem`
when it is larger than :data:`MAX_BYTES`, not UTF-8, holds a NUL, uses anchors, aliases,
tags or merge keys, has duplicate or complex keys, is nested deeper than :data:`MAX_DEPTH`,
holds more than one document, or is not a mapping. Plain files are read by PyYAML's C loader
(libyaml) with YAML 1.2 scalars; anything else, and every error, by ruamel.yaml, whose
messages and positions are the reference."""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from agot_adjudicator.errors import InputError, Problem
from agot_adjudicator.io.safefile import MAX_BYTES, too_big
from agot_adjudicator.model.text import N_, Msg

if TYPE_CHECKING:  # ruamel.yaml is imported when needed (it is slow to import)
    from ruamel.yaml.error import YAMLError


# MAX_BYTES (input files larger than 1 MiB are refused) is safefile's: one limit, one error

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
    context_mark = getattr(exc, "context_mark", None)
    if mark is not None and context_mark is not None and text and \
            mark.line >= len(text.rstrip().splitlines()):
        # the parser ran to the end of the text: the problem is where the open node began
        # (a flow sequence or mapping left open), on the line the player wrote
        mark = context_mark
    position = getattr(exc, "position", None)
    if mark is None and isinstance(position, int) and 0 <= position <= len(text):
        # A reader error (a forbidden character) has a character index, not a mark.
        line = text.count("\n", 0, position) + 1
        col = position - (text.rfind("\n", 0, position) + 1) + 1
        character = getattr(exc, "character", None)
        code = ord(character) if isinstance(character, str) else character
        what = Msg("character #x{code:04x}", code=code) if isinstance(code, int) \
            else Msg("a character")
        return Problem(name, line, col, "", Msg("invalid YAML: unacceptable {what}: special "
                                                "characters are not allowed", what=what))
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    message = yaml_problem(problem)
    if context and "duplicate" in str(context):
        message = Msg("{context}: {problem}", context=yaml_problem(str(context)), problem=message)
    if "found duplicate key" in str(exc):
        key = str(exc).split('found duplicate key "', 1)[-1].split('"', 1)[0]
        message = Msg("duplicate key '{key}'", key=key)
    if mark is None:
        return Problem(name, None, None, "", Msg("invalid YAML: {problem}", problem=message))
    return Problem(name, mark.line + 1, mark.column + 1, "",
                   Msg("invalid YAML: {problem}", problem=message))


YAML_PROBLEMS = (
    N_("mapping values are not allowed here"),
    N_("sequence entries are not allowed here"),
    N_("mapping keys are not allowed here"),
    N_("could not find expected ':'"),
    N_("found character {char} that cannot start any token"),
    N_("expected <block end>, but found {token}"),
    N_("expected ',' or ']', but got {token}"),
    N_("expected ',' or '}}', but got {token}"),
    N_("expected the node content, but found {token}"),
    N_("expected a comment or a line break, but found {char}"),
    N_("expected ' ', but found {char}"),
    N_("found unexpected end of stream"),
    N_("found unexpected ':'"),
    N_("found unexpected document separator"),
    N_("found unknown escape character {char}"),
    N_("found undefined alias {alias}"),
    N_("while constructing a mapping"),
)
"""ruamel.yaml's problems that agot's catalogs translate (a ``{field}`` stands for what the
parser quotes); another problem is written as ruamel.yaml says it."""


@cache
def _yaml_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each of :data:`YAML_PROBLEMS` as a pattern matching the problem's text: ``{field}`` →
    a named group."""
    out = []
    for template in YAML_PROBLEMS:
        text = re.escape(template.replace("{{", "{").replace("}}", "}"))
        out.append((re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+)", text) + "$"), template))
    return tuple(out)


def yaml_problem(text: str) -> str:
    """A YAML parser's problem as a sentence that translates when it is a known one.

    >>> yaml_problem("found character '\\t' that cannot start any token").template
    'found character {char} that cannot start any token'
    >>> yaml_problem("expected ',' or '}', but got '<scalar>'")
    "expected ',' or '}', but got '<scalar>'"
    """
    for pattern, template in _yaml_patterns():
        found = pattern.match(text)
        if found:
            fields = {k: YAML_TOKENS.get(v, v) for k, v in found.groupdict().items()}
            return Msg(template, **fields)
    return text


YAML_TOKENS = {
    "'<stream end>'": Msg("'<stream end>'"), "'<scalar>'": Msg("'<scalar>'"),
    "'<block mapping start>'": Msg("'<block mapping start>'"),
    "'<block sequence start>'": Msg("'<block sequence start>'"),
    "'<block end>'": Msg("'<block end>'"), "'<document start>'": Msg("'<document start>'"),
    "'<document end>'": Msg("'<document end>'"), "'<alias>'": Msg("'<alias>'"),
    "'<anchor>'": Msg("'<anchor>'"), "'<tag>'": Msg("'<tag>'"),
}
"""The parser's tokens as it quotes them (``'<stream end>'``), in words that translate."""


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
            line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
            if isinstance(event, events.NodeEvent) and children:
                is_key = children[-1][0] and children[-1][1] % 2 == 0
                children[-1][1] += 1
                if is_key and isinstance(event, events.CollectionStartEvent):
                    problems.append(Problem(name, line, column, "", Msg(
                        "invalid YAML: a mapping key must be a single value, not a list or "
                        "mapping")))
                elif is_key and isinstance(event, events.ScalarEvent) and event.value == "<<" \
                        and event.style is None:
                    problems.append(Problem(name, line, column, "",
                                            Msg("YAML merge keys ('<<') are not allowed")))
            if isinstance(event, events.CollectionStartEvent):
                children.append([isinstance(event, events.MappingStartEvent), 0])
            elif isinstance(event, events.CollectionEndEvent) and children:
                children.pop()
            if isinstance(event, events.DocumentStartEvent):
                documents += 1
                if documents == 2:
                    problems.append(Problem(name, line, column, "", Msg("more than one YAML document")))
            if isinstance(event, events.AliasEvent):
                problems.append(Problem(name, line, column, "", Msg("YAML aliases are not allowed")))
            elif isinstance(event, events.NodeEvent) and event.anchor is not None:
                problems.append(Problem(name, line, column, "", Msg("YAML anchors are not allowed")))
            tag = getattr(event, "tag", None)
            if tag not in _ALLOWED_TAGS and isinstance(event, events.NodeEvent):
                problems.append(Problem(name, line, column, "",
                                        Msg("YAML tag {tag} is not allowed", tag=repr(tag))))
            if isinstance(event, events.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    problems.append(Problem(name, line, column, "", Msg("document nested too deeply")))
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


_KIND_NAMES = {"str": Msg("a string"), "int": Msg("a number"), "float": Msg("a number"),
               "bool": Msg("a boolean"), "list": Msg("a list")}


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

# --- libyaml: PyYAML's C loader with the YAML 1.2 scalars ruamel.yaml reads ---------------

_LIBYAML_UNSURE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
"""Texts with any of these (tabs, CR, control characters, odd line breaks, a BOM inside), where
libyaml (YAML 1.1) and ruamel.yaml (YAML 1.2) may read differently, are read by ruamel: every
character outside the line feed, U+0020-U+007E, U+00A0-U+2027, U+202A-U+D7FF, U+E000-U+FEFE,
U+FF00-U+FFFD and U+10000-U+10FFFF, written as the few it leaves out (a class of what it keeps
took 3-4 ms to compile at every run, issue 33; tests/test_yaml_unsure.py holds the two equal)."""


class _Unsure(Exception):
    """libyaml found something only ruamel.yaml reads (or refuses) as the reference does."""


def _unsure(_loader: Any, _node: Any) -> Any:
    raise _Unsure


def _yaml12_int(_loader: Any, node: Any) -> int:
    """An int as ruamel.yaml reads YAML 1.2: ``_`` separators, ``0b``/``0o``/``0x`` prefixes, and
    decimal otherwise (``010`` is ten).

    >>> [_yaml12_int(None, type("N", (), {"value": v})) for v in ("010", "-0x1F", "0o17", "1_000")]
    [10, -31, 15, 1000]
    """
    text = node.value.replace("_", "")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    base = {"0b": 2, "0o": 8, "0x": 16}.get(text[:2], 10)
    return sign * int(text[2:] if base != 10 else text, base)


_YAML12_RESOLVERS = (
    ("bool", r"true|True|TRUE|false|False|FALSE", "tTfF"),
    ("float", r"""[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?
              |[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+
              |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
              |[-+]?\.(?:inf|Inf|INF)
              |\.(?:nan|NaN|NAN)""", "-+0123456789."),
    ("int", r"[-+]?0b[01_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+", "-+0123456789"),
    ("merge", r"<<", "<"),
    ("null", r"~|null|Null|NULL|", ["~", "n", "N", ""]),
    ("timestamp", r"""[0-9]{4}-[0-9]{2}-[0-9]{2}
              |[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?
               (?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?""", "0123456789"),
    ("value", r"=", "="),
)
"""The plain scalars that are not strings, as ruamel.yaml's YAML 1.2 resolver types them
(``_`` separators and a bare leading ``0`` octal are its extensions of the core schema);
tests/test_bad_input.py checks the two agree."""


@cache
def _loader_class() -> type[Any]:
    """PyYAML's C loader (libyaml) with :data:`_YAML12_RESOLVERS`: ``yes``, ``on`` and ``010``
    are not what YAML 1.1 made of them. Timestamps, ``<<`` and ``=`` are left to ruamel
    (:class:`_Unsure`)."""
    import yaml

    class Loader(yaml.CSafeLoader):
        yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012
        yaml_constructors = dict(yaml.CSafeLoader.yaml_constructors)  # noqa: RUF012

    for kind, regexp, first in _YAML12_RESOLVERS:
        Loader.add_implicit_resolver(f"tag:yaml.org,2002:{kind}",
                                     re.compile(f"^(?:{regexp})$", re.X), list(first))
    Loader.add_constructor("tag:yaml.org,2002:int", _yaml12_int)
    for kind in ("timestamp", "merge", "value", "binary", "omap", "pairs", "set"):
        Loader.add_constructor(f"tag:yaml.org,2002:{kind}", _unsure)
    return Loader


def _is_empty(node: Any) -> bool:
    """An empty plain scalar (``key:`` with no value), which libyaml and ruamel locate differently."""
    return isinstance(node.value, str) and node.value == "" and not node.style


def _libyaml_is_plain(loader_cls: type[Any], text: str) -> bool:
    """One pass over libyaml's events: no anchors, aliases, explicit tags or directives, a single
    document, nesting within :data:`MAX_DEPTH` (libyaml's composer recurses in C), no syntax
    error. Otherwise ruamel.yaml reads the file and reports what it finds."""
    import yaml

    depth = documents = 0
    try:
        for event in yaml.parse(text, Loader=loader_cls):
            if isinstance(event, yaml.AliasEvent):
                return False
            if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
                return False
            if isinstance(event, yaml.ScalarEvent | yaml.CollectionStartEvent) and event.tag is not None:
                return False
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if event.explicit or event.version or event.tags or documents > 1:
                    return False
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return False
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return False
    return True


def _libyaml_parse(text: str) -> tuple[dict[str, Any], dict[JsonPath, tuple[int, int]],
                                       dict[JsonPath, tuple[int, int]]] | None:
    """Read ``text`` with libyaml as ruamel.yaml's round-trip loader reads it (data and positions);
    None when ruamel must read it: odd characters, anchors, aliases, tags, several documents,
    deep nesting, non-string or duplicate keys, merge keys, timestamps, a top level that is not
    a mapping, and every error (ruamel's messages are the reference, tests/test_yaml_readers.py).

    >>> _libyaml_parse("a: [1, x, yes, 0x1f]\\nb: {c: null, d: 1.5}\\n")[0]
    {'a': [1, 'x', 'yes', 31], 'b': {'c': None, 'd': 1.5}}
    >>> _libyaml_parse("a: 1\\na: 2\\n") is None, _libyaml_parse("a: &x 1\\n") is None
    (True, True)
    """
    import yaml

    if _LIBYAML_UNSURE.search(text):
        return None
    loader_cls = _loader_class()
    if not _libyaml_is_plain(loader_cls, text):
        return None
    loader = loader_cls(text)
    try:
        root = loader.get_single_node()
        if not isinstance(root, yaml.MappingNode):
            return None
        positions: dict[JsonPath, tuple[int, int]] = {(): (1, 1)}
        key_positions: dict[JsonPath, tuple[int, int]] = {}
        lines = text.split("\n")

        def convert(node: Any, path: JsonPath) -> Any:
            if isinstance(node, yaml.SequenceNode):
                items = []
                for index, item in enumerate(node.value):
                    child = (*path, index)
                    positions[child] = (item.start_mark.line + 1, item.start_mark.column + 1)
                    items.append(convert(item, child))
                return items
            if isinstance(node, yaml.MappingNode):
                if node.flow_style and text[node.start_mark.index:node.start_mark.index + 1] != "{":
                    # A single-pair mapping inside a flow sequence (`[k: v]`, `["k":v]`): libyaml
                    # and ruamel.yaml do not always agree on it.
                    raise _Unsure
                out: dict[str, Any] = {}
                for key_node, value_node in node.value:
                    if not isinstance(key_node, yaml.ScalarNode):
                        raise _Unsure  # ruamel refuses complex keys
                    key = loader.construct_object(key_node)
                    key = key if isinstance(key, str) else _key_text(key)
                    if key in out or (key == "<<" and not key_node.style):
                        raise _Unsure  # ruamel reports duplicates and merge keys
                    child = (*path, key)
                    kline, kcol = key_node.start_mark.line + 1, key_node.start_mark.column + 1
                    key_positions[child] = (kline, kcol)
                    mark = value_node.start_mark
                    if _is_empty(value_node):
                        # An empty block value ("round:" ending its line) is null, located at its
                        # key as ruamel locates it; ruamel reads other empty values (and one on
                        # a last line with no line break: ruamel locates it at the text's end).
                        if (node.flow_style or mark.line >= len(lines) - 1
                                or lines[mark.line][mark.column:].strip()):
                            raise _Unsure
                        positions[child] = (kline, kcol)
                        out[key] = None
                        continue
                    positions[child] = (mark.line + 1, mark.column + 1)
                    out[key] = convert(value_node, child)
                return out
            if _is_empty(node):
                raise _Unsure
            return loader.construct_object(node)

        data = convert(root, ())
    except (_Unsure, yaml.YAMLError, ValueError):
        return None
    finally:
        loader.dispose()
    return data, positions, key_positions


MAX_DIGITS = 100
"""A plain number with more digits than this is refused before conversion (agot's largest,
the seed, has 20, and the schema bounds every number; Python refuses to convert numbers
of more than 4,300 digits)."""

_HUGE_INTEGER = re.compile(r"(?:^|(?<=[\s:\[,{]))[-+]?(?:0[xX][0-9a-fA-F_]{N,}|0[oO][0-7_]{N,}|"
                           r"0[bB][01_]{N,}|[0-9_]{N,})(?=[ \t]*(?:$|[,\]}#\r\n]))"
                           .replace("N", str(MAX_DIGITS + 1)), re.MULTILINE)
"""A plain integer of more than :data:`MAX_DIGITS` digits in any base (``0x``, ``0o``, ``0b``
or decimal): refused before any conversion (issue 27)."""


def _huge_integers(name: str, text: str) -> list[Problem]:
    """Every plain scalar made of more than :data:`MAX_DIGITS` digits, located."""
    problems = []
    for match in _HUGE_INTEGER.finditer(text):
        start = match.start()
        line = text.count("\n", 0, start) + 1
        col = start - (text.rfind("\n", 0, start) + 1) + 1
        problems.append(Problem(name, line, col, "", Msg(
            "a number with {digits} digits; numbers have at most {limit}",
            digits=len(match.group()), limit=MAX_DIGITS)))
        if len(problems) >= 20:
            break
    return problems


def parse_text(name: str, raw: bytes, *, fast: bool = True) -> Document:
    """Parse ``raw`` bytes of the file ``name`` into a :class:`Document`.

    Raises :class:`InputError` with every problem found. Plain files are read by PyYAML's
    C loader (libyaml, when ``fast``); the rest, and every error, by ruamel.yaml's round-trip
    loader, which locates errors.
    """
    if len(raw) > MAX_BYTES:
        raise InputError([Problem(name, None, None, "", too_big(len(raw), MAX_BYTES))])
    digest = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError([Problem(name, line, col, "", Msg("not UTF-8 text (byte 0x{byte:02x})",
                                                           byte=raw[exc.start]))]) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        index = text.index("\x00")
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        raise InputError([Problem(name, line, col, "",
                                  Msg("binary data (NUL byte) in a YAML file"))])
    huge = _huge_integers(name, text)
    if huge:
        raise InputError(huge)
    quick = _libyaml_parse(text) if fast else None
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
        raise InputError([Problem(name, None, None, "",
                                  Msg("document nested too deeply"))]) from None
    if not isinstance(node, CommentedMap):
        kind = (Msg("empty") if node is None else
                _KIND_NAMES.get(type(_plain(node, (), {}, {})).__name__, Msg("not a mapping")))
        raise InputError([Problem(name, 1, 1, "$", Msg(
            "the document is {kind}; expected a mapping of keys", kind=kind))])
    positions: dict[JsonPath, tuple[int, int]] = {(): (1, 1)}
    key_positions: dict[JsonPath, tuple[int, int]] = {}
    data = _plain(node, (), positions, key_positions)
    return Document(name, data, digest, positions, key_positions)


def load_yaml(path: str | os.PathLike[str], name: str | None = None, *,
              root: str | os.PathLike[str] | None = None) -> Document:
    """Read (bounded, regular files only, see :mod:`~agot_adjudicator.io.safefile`) and parse
    one YAML file safely (see module docstring); with ``root``, refuse a link leaving it."""
    from agot_adjudicator.io.safefile import ReadRefused, read_bounded

    display = name if name is not None else str(path)
    try:
        raw = read_bounded(path, MAX_BYTES, root=root)
    except ReadRefused as exc:
        reason = exc.reason
        if reason.startswith("file is"):
            reason = Msg("{reason} (1 MiB)", reason=reason)
        raise InputError([Problem(display, None, None, "", reason)]) from None
    return parse_text(display, raw)
