"""The one JSON-lines appender and reader (io/jsonl.py) of the index, sent.jsonl and the
judge's journal: a line a kill cut short, a line over the limit, a file over the limit."""

from __future__ import annotations

import os

import pytest

from agot_adjudicator.io import jsonl
from agot_adjudicator.io.jsonl import append_jsonl, read_jsonl
from agot_adjudicator.io.safefile import ReadRefused


def test_a_torn_last_line_is_skipped_then_ended_before_the_next(tmp_path):
    path = tmp_path / "x.jsonl"
    append_jsonl(path, {"n": 1})
    with open(path, "ab") as handle:
        handle.write(b'{"n": 2, "cut')  # a kill in the middle of a line
    assert read_jsonl(path, 1 << 20) == [{"n": 1}]
    append_jsonl(path, {"n": 3})
    assert read_jsonl(path, 1 << 20) == [{"n": 1}, {"n": 3}]
    assert path.read_bytes().endswith(b'"cut\n{"n": 3}\n')


def test_each_line_and_the_file_are_read_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonl, "LINE_LIMIT", 64)
    path = tmp_path / "x.jsonl"
    append_jsonl(path, {"n": 1})
    append_jsonl(path, {"n": 2, "long": "y" * 500})
    append_jsonl(path, {"n": 3})
    with path.open("ab") as handle:
        handle.write(b"[1, 2]\nnot json\n")
    assert read_jsonl(path, 1 << 20) == [{"n": 1}, {"n": 3}]
    with pytest.raises(ReadRefused, match="the limit is 100"):
        read_jsonl(path, 100)
    assert read_jsonl(tmp_path / "missing.jsonl", 100) == []


def test_a_private_file_is_0600_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        append_jsonl(tmp_path / "p.jsonl", {"n": 1}, private=True)
    finally:
        os.umask(old)
    assert (tmp_path / "p.jsonl").stat().st_mode & 0o777 == 0o600
