"""Same inputs, byte-identical outputs: across processes and string-hash seeds (docs/protocol.md P3).

The one place that tests determinism (``new``, ``adjudicate`` complete and stopped, ``map``, a
whole random game); the autoplay driver also re-runs a sample of its rounds.

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
    env = {**os.environ, "PYTHONHASHSEED": hash_seed,
               "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}  # autoplay
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


def test_map_is_byte_identical(tmp_path: Path):
    work = tmp_path / "map"
    work.mkdir()
    shutil.copy(ROUND / "state.yaml", work / "state.yaml")
    _assert_identical(["map", "state.yaml", "--orders", "--house", "lannister", "-o", "board.svg"],
                      work, 0, ["board.svg"])


def test_same_seed_same_random_game():
    """The autoplay driver and the engine together: one seed, one game, in this process."""
    from autoplay import play_game

    from agot_adjudicator.io.rulesets import load_ruleset

    rs = load_ruleset()
    a, b = play_game(3, 3, rs, determinism_rate=0.0), play_game(3, 3, rs, determinism_rate=0.0)
    assert a.final is not None and b.final is not None
    assert a.final.to_dict(rs) == b.final.to_dict(rs)
    assert (a.runs, a.answered, a.kinds) == (b.runs, b.answered, b.kinds)


def test_same_random_game_under_other_hash_seeds():
    """A whole random game (every kind of decision) in fresh interpreters: same final state."""
    code = ("import hashlib; from agot_adjudicator.workflow.present import state_text; "
            "from autoplay import play_game; "
            "from agot_adjudicator.io.rulesets import load_ruleset; rs = load_ruleset(); "
            "r = play_game(8, 5, rs, determinism_rate=0.0); "
            "print(hashlib.sha256(state_text(r.final, rs).encode()).hexdigest(), r.answered)")
    outputs = []
    for hash_seed in HASH_SEEDS[:2]:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed,
               "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}  # autoplay
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              check=True)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0].strip()


def _written_files() -> list[Path]:
    """Every file agot wrote into the repository: states (their header says so; the bad-input
    cases are edited by hand) and the demo game's submissions (written by make_demo.py)."""
    folders = ("scenarios", "tests/data", "bench/data")
    states = [p for f in folders for p in (ROOT / f).rglob("*.yaml")
              if p.read_bytes().startswith(b"# agot game state") and "invalid" not in p.parts]
    return sorted([*states, *(ROOT / "scenarios" / "games").rglob("orders/*.yaml")])


def test_recorded_yaml_is_written_again_byte_for_byte():
    """States are hash-chained: the writer must give the bytes of every state recorded so far
    (and of the demo's submissions), or old games no longer replay."""
    from agot_adjudicator.io.reading import parse_text
    from agot_adjudicator.io.writing import dump_yaml

    files = _written_files()
    assert len(files) > 50
    for path in files:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        comments = lines[:next(i for i, line in enumerate(lines) if not line.startswith("#"))]
        header = "\n".join(line.removeprefix("#").removeprefix(" ") for line in comments)
        data = parse_text(path.name, text.encode()).data
        assert dump_yaml(data, header=header or None) == text, (
            f"{path}: the YAML writer no longer gives the bytes recorded there; recorded games would "
            "stop replaying (states are hash-chained), so the writer must keep them")
