"""The libyaml path reads empty block values (``winterfell:``) as null, located as the
reference path locates them; any other empty value steps aside to the reference path."""

from __future__ import annotations

import pytest

from agot_adjudicator.io.reading import _libyaml_parse, parse_text

TEXTS = ["a:\nb: 1\n", "a:   \nb: 1\n", "a:\n", "a:\n  b:\n  c: x\n", "a: # note\nb: 1\n",
         "a: {b: }\n", "a: [b, {c: }]\n", "a:\n- x\n", "a:\n  - b:\n  - c\n", "k: \n  \nz: 2\n"]


@pytest.mark.parametrize("text", TEXTS)
def test_empty_values_agree_with_the_reference_path(text):
    fast = parse_text("f.yaml", text.encode(), fast=True)
    slow = parse_text("f.yaml", text.encode(), fast=False)
    assert (fast.data, fast.positions, fast.key_positions) == \
        (slow.data, slow.positions, slow.key_positions)


def test_orders_left_empty_take_the_fast_path():
    text = "format: agot-orders/1\nround: 1\nhouse: stark\norders:\n  winterfell:\n  white_harbor: raid\n"
    parsed = _libyaml_parse(text)
    assert parsed is not None
    data, positions, _ = parsed
    assert data["orders"] == {"winterfell": None, "white_harbor": "raid"}
    assert positions[("orders", "winterfell")] == (5, 3)
