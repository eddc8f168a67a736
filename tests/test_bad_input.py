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
    assert len(_cases()) >= 45


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
    for line in case["expect"]:
        assert line in errors, f"expected error line missing:\n{line}\ngot:\n" + "\n".join(errors)
    if not case.get("partial"):
        assert errors == case["expect"]
    assert result.stdout == "", "nothing on stdout when the input is refused"
    assert _snapshot(work) == before, "a file was created or changed"
