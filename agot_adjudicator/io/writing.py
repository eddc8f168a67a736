"""Safe YAML input with positions, JSON Schema checks, deterministic output, atomic writes.

Every input file is refused with a located :class:`~agot_adjudicator.errors.Problem`
when it is larger than :data:`MAX_BYTES`, not UTF-8, uses anchors, aliases or tags,
has duplicate keys, holds more than one document, or is not a mapping."""

from __future__ import annotations

import io
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agot_adjudicator.io.reading import _plain_kind, _Slow

if TYPE_CHECKING:  # jsonschema and ruamel.yaml are imported when needed (they are slow to import)
    pass


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


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (a PNG picture)."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_all_atomic(outputs: Iterable[tuple[str | os.PathLike[str], str]]) -> None:
    """Write several files; each one atomically."""
    for path, text in outputs:
        write_atomic(path, text)
