"""Same inputs, byte-identical outputs: across processes and string-hash seeds (DESIGN.md §4).

Each command runs in fresh interpreters under different ``PYTHONHASHSEED`` values (a set
iterated anywhere would show up as a different order); every file written and the standard
output must be byte-identical. The round is bench/data's: a Westeros phase (Winter is Coming,
a reshuffle, supply, Game of Thrones), orders for five houses, raids, marches and two battles.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROUND = ROOT / "bench" / "data"
HASH_SEEDS = ("0", "1", "4242", "random")


def _run(args: list[str], work: Path, hash_seed: str, expect_exit: int) -> dict[str, bytes]:
    """Run ``agot ARGS`` in a copy of ``work``; return stdout and every file of the folder."""
    folder = work.parent / f"{work.name}-{hash_seed}"
    shutil.copytree(work, folder)
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "agot_adjudicator", *args], cwd=folder, env=env,
                          capture_output=True)
    assert done.returncode == expect_exit, done.stderr.decode()
    files = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    return {"<stdout>": done.stdout, **files}


def _assert_identical(args: list[str], work: Path, expect_exit: int, produced: list[str]) -> None:
    runs = [_run(args, work, seed, expect_exit) for seed in HASH_SEEDS]
    for name in produced:
        assert runs[0].get(name), f"{name} was not written"
    for seed, run in zip(HASH_SEEDS[1:], runs[1:], strict=True):
        assert run == runs[0], f"PYTHONHASHSEED={seed} changed: " + ", ".join(
            sorted(k for k in run.keys() | runs[0].keys() if run.get(k) != runs[0].get(k)))


@pytest.mark.parametrize("players", ["3", "5"])
def test_new_is_byte_identical(tmp_path: Path, players: str):
    work = tmp_path / "new"
    work.mkdir()
    _assert_identical(["new", "--players", players, "--seed", "20031", "-o", "state.yaml"], work, 0,
                      ["state.yaml"])


def test_complete_round_with_battles_and_westeros_is_byte_identical(tmp_path: Path):
    work = tmp_path / "round"
    shutil.copytree(ROUND, work)
    _assert_identical(["adjudicate", "state.yaml", "orders.yaml", "--defaults", "-o", "next.yaml",
                       "--report", "report.md", "--log", "log.jsonl"], work, 0,
                      ["next.yaml", "report.md", "log.jsonl"])
    log = (tmp_path / "round-0" / "log.jsonl").read_text(encoding="utf-8")
    for event in ('"type":"winter_is_coming"', '"type":"battle"', '"type":"raid_removed"',
                  '"type":"consolidate_power"', '"type":"round_ended"'):
        assert event in log, f"the round no longer has {event}"


def test_stopped_run_is_byte_identical(tmp_path: Path):
    """Without --defaults the round stops on its first missing answers (exit 3)."""
    work = tmp_path / "stopped"
    shutil.copytree(ROUND, work)
    _assert_identical(["adjudicate", "state.yaml", "orders.yaml", "-o", "next.yaml", "--pending",
                       "pending.yaml", "--report", "report.md", "--log", "log.jsonl"], work, 3,
                      ["<stdout>", "pending.yaml", "report.md", "log.jsonl"])
    assert not (tmp_path / "stopped-0" / "next.yaml").exists()


def _documents():
    """Every mapping in every YAML file of the repository, and the state after the bench round."""
    from agot_adjudicator.errors import InputError
    from agot_adjudicator.io.reading import parse_text
    from agot_adjudicator.io.rulesets import load_ruleset
    from agot_adjudicator.workflow.adjudicate import adjudicate_files

    def mappings(node, depth=0):
        if isinstance(node, dict) and node and depth < 2:
            yield node
            for value in node.values():
                yield from mappings(value, depth + 1)

    folders = ("scenarios", "tests/data", "bench/data", "agot_adjudicator/data")
    copies = {"records", "rulesets", "archive"}  # frozen copies of games and rulesets walked here
    for path in sorted(p for f in folders for p in (ROOT / f).rglob("*.yaml")
                       if not copies & set(p.relative_to(ROOT).parts)):
        try:
            yield from mappings(parse_text(path.name, path.read_bytes()).data)
        except InputError:
            continue
    ruleset = load_ruleset()
    run = adjudicate_files(str(ROUND / "state.yaml"), [str(ROUND / "orders.yaml")], ruleset,
                               defaults=True)
    yield run.result.state.to_dict(ruleset)


def test_fast_yaml_writer_writes_what_ruamel_writes():
    """The hand-written YAML writer (ids, numbers, booleans, nulls) is byte-identical to ruamel's."""
    from agot_adjudicator.io.writing import _fast_dump, dump_yaml

    taken = total = 0
    for data in _documents():
        total += 1
        fast = _fast_dump(data)
        if fast is not None:
            taken += 1
            assert fast == dump_yaml(data, fast=False), data
    assert taken > 0.8 * total, f"fast writer used for {taken} of {total} documents"
