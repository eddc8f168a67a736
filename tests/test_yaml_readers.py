"""The two YAML readers of io/reading.py agree: the quick one (PyYAML's C loader, libyaml, with
YAML 1.2 scalars) is kept only for speed, so it must give exactly what the reference one
(ruamel.yaml's round-trip loader, which locates every error) gives, or step aside to it.

One differential test over one corpus (the repository's own files, random edits of them,
empty values and plain scalars), and the cases that pin where the quick reader steps aside.
Where it steps aside both paths run the same code, so only texts it reads are compared.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from agot_adjudicator.errors import InputError
from agot_adjudicator.io.reading import _libyaml_parse, parse_text

ROOT = Path(__file__).resolve().parent.parent

FOLDERS = ("scenarios", "tests/data/invalid", "tests/data/round1", "bench/data", "agot_adjudicator/data")
"""Every kind of file agot reads: cases, the bad-input corpus, packaged data. The recorded
games repeat the same state and submission shapes round after round: their first round stands
for them."""

EMPTY_VALUES = ["a:\nb: 1\n", "a:   \nb: 1\n", "a:\n", "a:\n  b:\n  c: x\n", "a: # note\nb: 1\n",
                "a: {b: }\n", "a: [b, {c: }]\n", "a:\n- x\n", "a:\n  - b:\n  - c\n", "k: \n  \nz: 2\n",
                "a: 1\nb:   ", "a: 1\nb:"]
"""``winterfell:`` and its relatives: libyaml and ruamel locate an empty value differently (the
last two, an empty value ending a text without a line break, found by the random edits)."""

SNIPPETS = ["", " ", "-", "- ", ":", ": ", "#", "[", "]", "{", "}", ",", "'", '"', "\n", "  ", "x",
            "1", "null", "true", "1.5", "0o7", "~", "? ", "|", ">", "@", "`", "%", "yes", "- a\n",
            "k: v\n", "  k: v\n", "k:\n", "[a, b]", "{a: 1}", "2020-01-01", "+1", "0x1", "1e3"]

SCALARS = ["~", "null", "NULL", "Null", "nULL", "true", "TRUE", "tRUE", "yes", "no", "on", "off",
           "y", "n", "0", "-0", "+1", "00", "010", "0o17", "0x1F", "0b101", "1_000", "1e3", "1E3", ".5",
           "1.", ".inf", "-.inf", ".nan", "2001-12-14", "2001-12-14t21:59:43.10z", "12:30", "<<", "=",
           "a6b8a03d3dd7cb636a56744a094afd403200a43b28a33704ae45cb3042c03580", "123e4567", "1z", "_1"]
SCALAR_ALPHABET = "0123456789abcdefxobtzeTZE_-+.:/ ~nulTrFaNY<=@"


def repository_files() -> list[Path]:
    """The corpus: every case and data file, the first round of the demo, and every fourth file
    of the bad-input corpus (hundreds of one-line variations of the same few files)."""
    files = [p for f in FOLDERS for p in sorted((ROOT / f).rglob("*.yaml"))
             if "games" not in p.relative_to(ROOT).parts]
    invalid = ROOT / "tests" / "data" / "invalid"
    files = [p for p in files if invalid not in p.parents] + \
        [p for p in sorted(invalid.rglob("*.yaml"))][::4]
    files += sorted((ROOT / "scenarios" / "games" / "demo" / "round-01").rglob("*.yaml"))
    return sorted(set(files))


def mutated(corpus: list[str], rng: random.Random, count: int) -> list[str]:
    """``count`` random edits (one to three snippets inserted or swapped in) of corpus texts."""
    out = []
    for _ in range(count):
        text = rng.choice(corpus)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(SNIPPETS) + text[at + rng.choice([0, 0, 1, 2, 5]):]
        out.append(text)
    return out


def reference(text: str) -> object:
    """What ruamel.yaml's path reads: data and positions, or the problems it reports."""
    try:
        doc = parse_text("f.yaml", text.encode("utf-8"), fast=False)
    except InputError as exc:
        return [str(p) for p in exc.problems]
    return doc.data, dict(doc.positions), dict(doc.key_positions)


def same_value(mine: object, theirs: object) -> bool:
    """Equal, of the same type (NaN equal to NaN)."""
    if isinstance(mine, float) and isinstance(theirs, float) and math.isnan(mine):
        return math.isnan(theirs)
    return mine == theirs and type(mine) is type(theirs)


def test_the_quick_reader_reads_what_the_reference_reads_or_steps_aside():
    files = repository_files()
    texts = [p.read_bytes().decode("utf-8", "replace") for p in files]
    assert len(texts) > 300
    rng = random.Random(7)
    small = [t for t in texts if len(t) < 4096]  # an edit of a whole state adds only its bulk
    corpus = [*texts, *mutated(small, rng, 500), *EMPTY_VALUES]
    read = 0
    for text in corpus:
        quick = _libyaml_parse(text)
        if quick is None:
            continue  # parse_text goes on to the reference path: the same code either way
        read += 1
        doc = parse_text("f.yaml", text.encode("utf-8"))
        assert (doc.data, doc.positions, doc.key_positions) == quick, text
        assert (doc.data, dict(doc.positions), dict(doc.key_positions)) == reference(text), text
    taken = sum(_libyaml_parse(t) is not None for t in texts)
    # Bad files, CRs and tabs take the reference path; the rest must not.
    assert taken > 0.6 * len(texts), f"the quick reader read only {taken} of {len(texts)} files"
    assert read > taken + 100

    scalars = SCALARS + ["".join(rng.choice(SCALAR_ALPHABET) for _ in range(rng.randint(1, 12)))
                         for _ in range(3000)]
    typed = 0
    for value in scalars:
        text = f"a: {value}\n"
        quick = _libyaml_parse(text)
        if quick is None:
            continue
        typed += 1
        theirs = parse_text("f.yaml", text.encode(), fast=False).data["a"]
        assert same_value(quick[0]["a"], theirs), (value, quick[0]["a"], theirs)
    assert typed > 2000


def test_the_files_agot_writes_take_the_quick_reader():
    for path in [*(ROOT / "bench" / "data").glob("*.yaml"), *(ROOT / "tests" / "data" / "round1").glob("*"),
                 *(ROOT / "scenarios" / "games" / "demo" / "round-10").glob("*.yaml")]:
        assert _libyaml_parse(path.read_text(encoding="utf-8")) is not None, path


def test_orders_left_empty_take_the_quick_reader():
    text = "format: agot-orders/1\nround: 1\nhouse: stark\norders:\n  winterfell:\n  white_harbor: raid\n"
    parsed = _libyaml_parse(text)
    assert parsed is not None
    data, positions, _ = parsed
    assert data["orders"] == {"winterfell": None, "white_harbor": "raid"}
    assert positions[("orders", "winterfell")] == (5, 3)


def test_the_quick_reader_steps_aside_for_a_pair_inside_a_flow_sequence():
    """`["k":v]` (found by the random edits): libyaml reads a mapping, ruamel.yaml refuses."""
    for text in ('c: ["validate":ate.yaml"]\n', "c: [a: b]\n"):
        assert _libyaml_parse(text) is None
        try:
            quick: object = parse_text("f.yaml", text.encode("utf-8"))
        except InputError as exc:
            quick = [str(p) for p in exc.problems]
        assert quick == reference(text) if isinstance(quick, list) else \
            (quick.data, dict(quick.positions), dict(quick.key_positions)) == reference(text)
    assert _libyaml_parse("c: [{a: b}]\n") is not None
