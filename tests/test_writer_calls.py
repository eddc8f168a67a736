"""The tables and YAML agot writes are what the libraries' plain calls write (issue 33): tabulate
told which columns are text (no number parsing there) and fitted by the quicker
:func:`~agot_adjudicator.render.tables.fit_widths`, and PyYAML's emitter handed its events
directly, give the bytes of tabulate's default call with the straightforward fitting and of
``yaml.dump``, on many random inputs."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
import tabulate
import yaml

from agot_adjudicator.io.writing import _COLON_INSIDE, _dumper_class, dump_yaml
from agot_adjudicator.render.tables import columns, fit_widths, table, text_columns

_WORDS = ["stark", "Winterfell", "北境", "临冬城", "1", "12", "+1", "-3", "1,000", "1.5", "inf",
          "nan", "NaN", "Infinity", "True", "False", "", "e", "1e5", "１２", "٣", "1_000", "a-b",
          "Stark: +2", "x" * 15, "长" * 9, "footman", "knight×2", "(R6.4)", "，", "·", "★", "0x1",
          "-", ".", "行军 +1★", "艾德·史塔克", "\x1b[31m42\x1b[0m"]


def _cell(rnd: random.Random) -> Any:
    pick = rnd.random()
    if pick < 0.15:
        return rnd.randint(-5, 2000)
    if pick < 0.2:
        return rnd.choice([True, False, None])
    blank = " " if rnd.random() < 0.9 else "  "
    return blank.join(rnd.choice(_WORDS) for _ in range(rnd.choice([1, 1, 1, 2, 3, 6])))


def _random_table(rnd: random.Random) -> tuple[list[list[Any]], list[str]]:
    count = rnd.randint(1, 6)
    headers = [rnd.choice(["", "area", "power", "1", "名称", "a long header here"])
               for _ in range(count)]
    numeric = [rnd.random() < 0.3 for _ in range(count)]
    rows = [[rnd.choice([rnd.randint(0, 99), "", str(rnd.randint(0, 99)), "+1"]) if n
             else _cell(rnd) for n in numeric] for _ in range(rnd.randint(0, 7))]
    return rows, headers


def _straight_fit(rows: Sequence[Sequence[str]], width: int) -> list[int | None]:
    """fit_widths as first written: every cell wrapped again at each step, the widest
    column narrowed one step at a time."""
    count = max((len(r) for r in rows), default=0)
    words = [[[columns(w) for w in (str(r[i]) if i < len(r) else "").split()] for r in rows]
             for i in range(count)]

    def wrapped(widths: list[int], limit: int) -> int:
        widest = line = 0
        for width_ in widths:
            w = min(width_, limit)
            line = w if not line or line + 1 + w > limit else line + 1 + w
            widest = max(widest, line)
        return widest

    def used(i: int, limit: int) -> int:
        head, *cells = words[i]
        return max([wrapped(c, limit) for c in cells] + [wrapped(head, limit) + 2])

    natural = [used(i, 10 ** 6) for i in range(count)]
    floor = [min(natural[i], max(8, *(max(c, default=0) for c in words[i])))
             for i in range(count)]
    limits = list(natural)
    budget = width - 2 * max(count - 1, 0)
    while sum(used(i, limits[i]) for i in range(count)) > budget:
        shrinkable = [i for i in range(count) if limits[i] > floor[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: (used(i, limits[i]), i))
        limits[widest] = min(limits[widest], used(widest, limits[widest])) - 1
    return [None if limits[i] >= natural[i] else limits[i] for i in range(count)]


def _tabulate_default(rows: list[list[Any]], headers: list[str], fmt: str,
                      width: int | None) -> str:
    tabulate.WIDE_CHARS_MODE = True
    if width is None or fmt != "simple":
        return str(tabulate.tabulate(rows, headers=headers, tablefmt=fmt))
    limits = _straight_fit([headers, *[[str(c) for c in row] for row in rows]], width)
    text = tabulate.tabulate(rows, headers=headers, tablefmt=fmt, maxcolwidths=limits,
                             maxheadercolwidths=limits)  # type: ignore[arg-type]
    return "\n".join(line.rstrip() for line in text.split("\n"))


def _outcome(write: Any, *args: Any) -> str:
    try:
        return str(write(*args))
    except ValueError as exc:  # tabulate fails on some cells it must wrap: fail alike
        return f"ValueError {exc}"


@pytest.mark.parametrize("seed", range(4))
def test_tables_are_what_tabulate_writes_by_default(seed):
    rnd = random.Random(seed)
    skipped_parsing = 0
    for _ in range(400):
        rows, headers = _random_table(rnd)
        fmt = rnd.choice(["simple", "simple", "github"])
        width = rnd.choice([None, 20, 30, 40, 72])
        assert _outcome(table, rows, headers, fmt, width) == \
            _outcome(_tabulate_default, rows, headers, fmt, width), (rows, headers, fmt, width)
        skipped_parsing += bool(text_columns(rows, headers))
    assert skipped_parsing > 100  # the quicker call is the one tested


@pytest.mark.parametrize("seed", range(3))
def test_fitting_is_the_straightforward_fitting(seed):
    rnd = random.Random(100 + seed)
    for _ in range(300):
        rows, headers = _random_table(rnd)
        cells = [headers, *[[str(c) for c in row] for row in rows * rnd.choice([1, 4])]]
        for width in (10, 24, 40, 72, 100):
            assert fit_widths(cells, width) == _straight_fit(cells, width), (cells, width)


def test_a_number_in_a_text_column_is_not_wrapped():
    """Where tabulate would keep a number whole (it parses numbers), the column is not told
    to skip parsing."""
    rows = [["a long text that needs wrapping here"], ["123456789012345"]]
    assert text_columns(rows, ["h"], [10]) == []
    assert text_columns(rows, ["h"], [None]) == [0]
    assert text_columns([["True"], ["1"]], ["h"]) == []  # booleans and numbers: a number column


_SCALARS = ["", "yes", "no", "on", "off", "null", "Null", "~", "true", "True", "FALSE", "1",
            "01", "010", "0x1f", "0o17", "1.5", "1e3", ".inf", "-.inf", ".nan", "1_000",
            "ship:bay_of_ice", "a: b", "a:b", "?x", "x?", "- x", "-x", "#x", "x #y", "'q'",
            '"dq"', "it's", "line\nbreak", "two\n\nbreaks", " lead", "trail ", "北境", "★",
            "行军 +1★", "2026-12-02", "2026-12-02 10:00:00", "<<", "=", "@x", "`x", "%x", "!x",
            "&x", "*x", "|", ">", "{a}", "[b]", "a,b", "a, b", "tab\there", "x" * 130,
            "word " * 30, "é", "\u2028", "NUL\x00", "bell\x07", "\ufeffbom"]


def _value(rnd: random.Random, depth: int = 0) -> Any:
    pick = rnd.random()
    if depth < 4 and pick < 0.2:
        return {_key(rnd): _value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))}
    if depth < 4 and pick < 0.35:
        return [_value(rnd, depth + 2) for _ in range(rnd.randint(0, 4))]
    if pick < 0.5:
        return rnd.choice([None, True, False, 0, -7, 12, 10 ** 20])
    return rnd.choice(_SCALARS)


def _key(rnd: random.Random) -> Any:
    return rnd.choice([*_SCALARS[:30], "area", "units", "winterfell", 1, 2, True])


def _yaml_dump(data: Any) -> str:
    """``yaml.dump`` with the writer's dumper, each scalar analysed afresh (no memo)."""
    import yaml.emitter

    class Fresh(_dumper_class()):  # type: ignore[misc]
        def analyze_scalar(self, scalar: str) -> Any:
            analysis = yaml.emitter.Emitter.analyze_scalar(self, _COLON_INSIDE.sub("x", scalar))
            analysis.scalar = scalar
            return analysis

        def prepare_tag(self, tag: str) -> str:
            return str(yaml.emitter.Emitter.prepare_tag(self, tag))

    return str(yaml.dump(data, Dumper=Fresh, sort_keys=False, width=4096, indent=2,
                         allow_unicode=True, default_flow_style=False))


@pytest.mark.parametrize("seed", range(4))
def test_yaml_is_what_yaml_dump_writes(seed):
    rnd = random.Random(seed)
    for _ in range(300):
        data = {_key(rnd): _value(rnd) for _ in range(rnd.randint(0, 6))}
        try:
            expected = _yaml_dump(data)
        except yaml.YAMLError as exc:
            with pytest.raises(type(exc)):
                dump_yaml(data)
            continue
        assert dump_yaml(data) == expected, data


def test_a_value_of_another_type_goes_through_the_representer():
    data = {"a": 1.5, "b": [2.0, float("inf")], "c": (1, {"d": None, "e": ["x"]}), "f": {}}
    assert dump_yaml(data) == _yaml_dump(data)
    with pytest.raises(yaml.representer.RepresenterError):
        dump_yaml({"a": object()})
