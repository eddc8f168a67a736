"""Helpers for tamper tests: every scalar of a YAML document, and a changed copy of one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def leaves(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """(path, value) of every scalar in plain data, in document order."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from leaves(value, (*path, i))
    else:
        yield path, data


def changed(value: Any) -> Any:
    """A different value of the same kind where possible."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if value is None:
        return "x"
    return f"{value}x"
