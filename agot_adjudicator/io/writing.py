"""Deterministic YAML output (PyYAML's dumper, configured to keep the bytes ruamel.yaml wrote)
and atomic writes."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

# --- output --------------------------------------------------------------------------------

_COLON_INSIDE = re.compile(r":(?![\s\x00\x85\u2028\u2029]|$)|(?<=.)\?")
"""Characters PyYAML (YAML 1.1) counts as flow indicators and YAML 1.2 does not: a ``:`` not
followed by a space, a ``?`` after the first character. ``[ship:bay_of_ice]`` stays plain."""


@cache
def _dumper_class() -> type[Any]:
    """PyYAML's pure-Python dumper, configured to write what ruamel.yaml wrote for agot so far
    (recorded states are hash-chained and replayed byte for byte):

    - sequences indented under their key (``  - file: …``): libyaml's C emitter always writes
      them at the key's column, which is why the C dumper cannot be used (bench/README.md);
    - lists of scalars in flow style (``[a, b]``), mappings in block style, null as nothing;
    - YAML 1.2 scalars: the resolvers of the reader (``yes`` and ``on`` stay plain) and plain
      ``ship:bay_of_ice`` in flow lists;
    - a string holding a quote or a line break double-quoted, as ruamel does.
    """
    import yaml

    from agot_adjudicator.io.reading import _YAML12_RESOLVERS

    class Dumper(yaml.SafeDumper):
        yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012
        yaml_representers = dict(yaml.SafeDumper.yaml_representers)  # noqa: RUF012

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # what the emitter works out again for every repeated scalar and tag, once a dump
            self.known_analyses: dict[str, Any] = {}
            self.known_tags: dict[str, str] = {}

        def ignore_aliases(self, data: Any) -> bool:
            return True  # no anchors: a repeated object is written again

        def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
            super().increase_indent(flow, False)

        def analyze_scalar(self, scalar: str) -> Any:
            analysis = self.known_analyses.get(scalar)
            if analysis is None:  # the emitter only reads an analysis
                analysis = super().analyze_scalar(_COLON_INSIDE.sub("x", scalar))
                analysis.scalar = scalar
                self.known_analyses[scalar] = analysis
            return analysis

        def prepare_tag(self, tag: str) -> str:
            if tag not in self.known_tags:
                self.known_tags[tag] = super().prepare_tag(tag)
            return self.known_tags[tag]

        def choose_scalar_style(self) -> str:
            style: str = super().choose_scalar_style()
            value = getattr(self.event, "value", "")
            if style == "'" and ("'" in value or "\n" in value):
                return '"'
            return style

    for kind, regexp, first in _YAML12_RESOLVERS:
        Dumper.add_implicit_resolver(f"tag:yaml.org,2002:{kind}",
                                     re.compile(f"^(?:{regexp})$", re.X), list(first))

    def sequence(dumper: Any, data: list[Any]) -> Any:
        flow = all(not isinstance(v, dict | list) for v in data)
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)

    def mapping(dumper: Any, data: dict[Any, Any]) -> Any:
        items = [(key, _NULL_VALUE if value is None else value) for key, value in data.items()]
        return dumper.represent_mapping("tag:yaml.org,2002:map", items, flow_style=False)

    Dumper.add_representer(list, sequence)
    Dumper.add_representer(dict, mapping)
    Dumper.add_representer(_NullValue, lambda dumper, _: dumper.represent_scalar(
        "tag:yaml.org,2002:null", ""))
    return Dumper


class _NullValue:
    """A null mapping value, written as nothing (``round:``); a null in a list is ``null``."""


_NULL_VALUE = _NullValue()


_TAG = "tag:yaml.org,2002:"


class _Events:
    """The events PyYAML's representer and serializer make of a document, as
    :func:`_dumper_class` represents it (``yaml.dump``), handed to the dumper's emitter
    directly: no node graph is built, and each scalar's implicit tags are resolved once a dump.
    A value of another type than ``dict``, ``list``, ``str``, ``int``, ``bool`` or None goes
    through the representer and serializer, as ``yaml.dump`` would take it."""

    def __init__(self, dumper: Any) -> None:
        self.dumper = dumper
        self.implicit: dict[tuple[str, str], tuple[bool, bool]] = {}

    def scalar(self, tag: str, text: str) -> None:
        from yaml.events import ScalarEvent
        from yaml.nodes import ScalarNode

        implicit = self.implicit.get((tag, text))
        if implicit is None:  # as the serializer resolves it
            resolve = self.dumper.resolve
            implicit = (resolve(ScalarNode, text, (True, False)) == tag,
                        resolve(ScalarNode, text, (False, True)) == tag)
            self.implicit[tag, text] = implicit
        self.dumper.emit(ScalarEvent(None, tag, implicit, text, style=None))

    def node(self, value: Any) -> None:
        from yaml.events import (
            MappingEndEvent,
            MappingStartEvent,
            SequenceEndEvent,
            SequenceStartEvent,
        )

        kind = type(value)
        if kind is str:
            self.scalar(_TAG + "str", value)
        elif kind is bool:
            self.scalar(_TAG + "bool", "true" if value else "false")
        elif kind is int:
            self.scalar(_TAG + "int", str(value))
        elif value is None:
            self.scalar(_TAG + "null", "null")
        elif kind is _NullValue:
            self.scalar(_TAG + "null", "")
        elif kind is dict:  # the mapping representer of _dumper_class
            self.dumper.emit(MappingStartEvent(None, _TAG + "map", True, flow_style=False))
            for key, item in value.items():
                self.node(key)
                self.node(_NULL_VALUE if item is None else item)
            self.dumper.emit(MappingEndEvent())
        elif kind is list:  # the sequence representer of _dumper_class
            flow = all(not isinstance(v, dict | list) for v in value)
            self.dumper.emit(SequenceStartEvent(None, _TAG + "seq", True, flow_style=flow))
            for item in value:
                self.node(item)
            self.dumper.emit(SequenceEndEvent())
        else:
            node = self.dumper.represent_data(value)
            self.dumper.anchor_node(node)
            self.dumper.serialize_node(node, None, None)


def dump_yaml(data: Mapping[str, Any], header: str | None = None) -> str:
    """Serialise ``data`` to YAML text, deterministically (keys in insertion order), with
    ``header`` as leading comment lines.

    >>> print(dump_yaml({"a": {"b": [1, "x", None], "c": None}, "d": [{"e": True}]}), end="")
    a:
      b: [1, x, null]
      c:
    d:
      - e: true
    """
    import io

    from yaml.events import DocumentEndEvent, DocumentStartEvent, StreamEndEvent, StreamStartEvent

    stream = io.StringIO()
    dumper = _dumper_class()(stream, sort_keys=False, width=4096, indent=2, allow_unicode=True,
                             default_flow_style=False)
    try:
        dumper.emit(StreamStartEvent(encoding=None))
        dumper.emit(DocumentStartEvent(explicit=None, version=None, tags=None))
        _Events(dumper).node(dict(data))
        dumper.emit(DocumentEndEvent(explicit=None))
        dumper.emit(StreamEndEvent())
    finally:
        dumper.dispose()
    text = stream.getvalue()
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


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically, as UTF-8 (see :func:`write_bytes_atomic`)."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_private(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically with mode 0600 whatever the umask (a kept message,
    a receipt: what holds a player's words, issue 27)."""
    write_bytes_atomic(path, data, mode=0o600)


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes, *,
                       mode: int | None = None) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file next to it, then one rename; the
    file's mode follows the umask, as a file the shell creates (or is ``mode``)."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    import tempfile  # only a command that writes pays for it (issue 33)

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        os.fchmod(fd, 0o666 & ~_umask() if mode is None else mode)  # outputs follow the umask
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
