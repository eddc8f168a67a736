"""Bad input is refused with located errors, exit 1 and nothing written (README: Files, Exit codes).

Each folder in ``tests/data/invalid/`` is one case: the bad file(s) and a
``case.yaml`` with the ``command`` (run with the case folder as working
directory, so paths in messages are relative), the ``exit`` code and the
``expect``-ed error lines without their ``error: `` prefix. Unless the case
says ``partial: true``, the expected lines are *all* the error lines, in
order. ``generate: {file, bytes}`` makes a large file at test time instead of
keeping it in the repository.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from agot_adjudicator import __version__
from agot_adjudicator.cli import main

CASES = Path(__file__).resolve().parent / "data" / "invalid"
CASE_KEYS = {"description", "command", "exit", "expect", "partial", "generate"}


def _cases() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if (p / "case.yaml").is_file())


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file and directory below ``folder``, with the bytes of the files."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


def test_there_are_enough_cases():
    assert len(_cases()) >= 150


@pytest.mark.parametrize("case_dir", _cases(), ids=lambda p: p.name)
def test_bad_input_is_refused(case_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    case = YAML(typ="safe").load((case_dir / "case.yaml").read_text(encoding="utf-8"))
    assert set(case) <= CASE_KEYS, f"unknown keys in case.yaml: {set(case) - CASE_KEYS}"
    work = tmp_path / case_dir.name
    shutil.copytree(case_dir, work, ignore=shutil.ignore_patterns("case.yaml"))
    if "generate" in case:
        (work / case["generate"]["file"]).write_bytes(b"#" * case["generate"]["bytes"])
    before = _snapshot(work)
    monkeypatch.chdir(work)

    result = CliRunner().invoke(main, case["command"])

    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == case["exit"], result.output + result.stderr
    errors = [line.removeprefix("error: ") for line in result.stderr.splitlines()
              if line.startswith("error: ")]
    expected = [line.replace("{version}", __version__) for line in case["expect"]]
    for line in expected:
        assert line in errors, f"expected error line missing:\n{line}\ngot:\n" + "\n".join(errors)
    if not case.get("partial"):
        assert errors == expected
    assert result.stdout == "", "nothing on stdout when the input is refused"
    assert _snapshot(work) == before, "a file was created or changed"


# --- the repository's YAML files (the two YAML readers' differential test: test_yaml_readers.py) ---

ROOT = Path(__file__).resolve().parent.parent


def _yaml_corpus() -> list[Path]:
    folders = ("scenarios", "tests/data", "bench/data", "agot_adjudicator/data")
    return sorted(p for f in folders for p in (ROOT / f).rglob("*.yaml"))


# --- fastjsonschema (the quick check) and jsonschema (the messages) must agree -------------------

def _schema_corpus() -> list[tuple[str, object]]:
    """(schema name, document) for every state and submission the repository holds."""
    from agot_adjudicator.errors import InputError
    from agot_adjudicator.io.reading import parse_text

    kinds = {"agot-state/1": "state", "agot-orders/1": "orders", "agot-scenario/1": "scenario"}
    out: list[tuple[str, object]] = []
    for path in _yaml_corpus():
        try:
            data = parse_text(path.name, path.read_bytes()).data
        except InputError:
            continue
        kind = kinds.get(str(data.get("format")))
        if kind:
            out.append((kind, data))
        if kind == "scenario":
            for sub in data.get("submissions", []):
                if isinstance(sub, dict):
                    out.append(("orders", {"format": "agot-orders/1", "round": 1, **sub}))
    return out


def _mutations(rng, data):
    """Documents one random edit away from ``data``: a value of another type, a key removed or added."""
    import copy
    import random

    assert isinstance(rng, random.Random)
    doc = copy.deepcopy(data)
    paths = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                paths.append((*path, k))
                walk(v, (*path, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                paths.append((*path, i))
                walk(v, (*path, i))

    walk(doc, ())
    if not paths:
        return doc
    path = rng.choice(paths)
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    replacements = [None, True, 0, -1, 21, 1.5, "", "x", "Winterfell", "kings_landing", [], ["x", "x"],
                    {}, {"x": 1}, 10**30]
    action = rng.randrange(3)
    if action == 0:
        parent[path[-1]] = rng.choice(replacements)
    elif action == 1:
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[rng.choice(["x", "Bad Key", "stark", "orders", "units", "1"])] = rng.choice(replacements)
    else:
        parent.append(rng.choice(replacements))
    return doc


def test_fastjsonschema_and_jsonschema_agree():
    """A document fastjsonschema passes has no jsonschema error, and the reverse (a document
    holding a float is always left to jsonschema: fastjsonschema takes 1.0 for an integer)."""
    import random

    from agot_adjudicator.io.schemas import _holds_float, _valid, _validator

    corpus = _schema_corpus()
    assert len(corpus) > 300
    rng = random.Random(11)
    quick_valid = quick_invalid = 0
    for kind, data in corpus:
        for doc in (data, *(_mutations(rng, data) for _ in range(8))):
            reference = not any(True for _ in _validator(kind).iter_errors(doc))
            if _holds_float(doc) and kind != "ruleset":
                assert not _valid(kind, doc)
            else:
                assert _valid(kind, doc) == reference, (kind, doc)
            quick_valid += reference
            quick_invalid += not reference
    assert quick_valid > 300 and quick_invalid > 300
