"""One commit per round (issue 13): a run stopped at any write point leaves the old round or
the new one (with its marker), a re-run finishes it, and replay passes after that."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from agot_adjudicator.cli import main
from agot_adjudicator.io import commit as commit_module
from agot_adjudicator.io.commit import COMMIT_DIR, STAGING_PREFIX
from agot_adjudicator.io.lock import LOCK_FILE, game_lock

DEMO = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"


class Crash(BaseException):
    """The process dies here: no cleanup code runs (it is not an Exception)."""


def first_round(tmp: Path) -> Path:
    """A game directory holding the demo's round 1 with its submissions, not yet run."""
    game = tmp / "game"
    (game / "round-01").mkdir(parents=True)
    shutil.copy(DEMO / "round-01" / "state.yaml", game / "round-01" / "state.yaml")
    shutil.copytree(DEMO / "round-01" / "orders", game / "round-01" / "orders")
    return game


def snapshot(game: Path) -> dict[str, bytes | None]:
    """Every file and folder of the record (not the lock, not stale staging folders)."""
    out: dict[str, bytes | None] = {}
    for path in sorted(game.rglob("*")):
        rel = path.relative_to(game).as_posix()
        if rel == LOCK_FILE or rel.startswith(STAGING_PREFIX):
            continue
        out[rel] = path.read_bytes() if path.is_file() else None
    return out


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def crash_at(monkeypatch: pytest.MonkeyPatch, n: int) -> list[int]:
    calls = [0]
    real = commit_module._fs

    def fs(op, *args):
        calls[0] += 1
        if calls[0] == n:
            raise Crash(op)
        return real(op, *args)

    monkeypatch.setattr(commit_module, "_fs", fs)
    return calls


def stopped_then_answered(tmp: Path) -> Path:
    """Round 1 of the demo stopped on its pending decisions (pending.yaml, now.yaml, now.svg
    written), then given its answers: the next run completes the round."""
    game = first_round(tmp)
    answers = game / "round-01" / "orders" / "answers.yaml"
    kept = answers.read_bytes()
    answers.unlink()
    assert run("adjudicate", "--game", str(game)).exit_code == 3
    assert (game / "round-01" / "pending.yaml").is_file() and (game / "round-01" / "now.yaml").is_file()
    answers.write_bytes(kept)
    return game


def test_a_crash_at_every_write_point_leaves_the_old_round_or_a_finishable_commit(
        tmp_path, monkeypatch):
    """Each write point of one commit, once: the commit that completes a stopped round writes
    every kind of change there is (the round's files replaced, the stop's files removed, the
    next round's folder created, the marker renamed and removed)."""
    base = stopped_then_answered(tmp_path / "base")
    before = snapshot(base)
    reference = tmp_path / "reference"
    shutil.copytree(base, reference)
    ops: list[str] = []
    real = commit_module._fs
    with monkeypatch.context() as m:
        m.setattr(commit_module, "_fs", lambda op, *args: ops.append(op) or real(op, *args))
        assert run("adjudicate", "--game", str(reference)).exit_code == 0
    assert set(ops) >= {"mkdir", "write", "rename", "replace", "unlink", "rmtree"}, ops
    after = snapshot(reference)
    assert run("replay", str(reference)).exit_code == 0  # so does every record equal to it
    assert "round-01/pending.yaml" in before and "round-01/pending.yaml" not in after
    assert "round-02/state.yaml" in after
    n = 0
    while True:
        n += 1
        game = tmp_path / f"crash-{n}"
        shutil.copytree(base, game)
        result = None
        with monkeypatch.context() as m:
            calls = crash_at(m, n)
            with contextlib.suppress(Crash):
                result = run("adjudicate", "--game", str(game))
        if result is not None:
            assert result.exit_code == 0, result.output
            assert calls[0] < n  # every write point was tried
            break
        replay = run("replay", str(game))
        assert "Traceback" not in replay.output
        if (game / COMMIT_DIR).exists():  # stopped after the commit point
            assert replay.exit_code == 4
            assert f"{COMMIT_DIR}: the commit of" in replay.output
            repaired = run("adjudicate", "--game", str(game))
            assert repaired.exit_code == 0, repaired.output
            assert "finished the interrupted commit" in repaired.output
            assert snapshot(game) == after, f"write point {n}"
        elif snapshot(game) != after:  # stopped before the commit point: the old record
            assert snapshot(game) == before, f"write point {n}"
            assert replay.exit_code == 0, replay.output
            rerun = run("adjudicate", "--game", str(game))
            assert rerun.exit_code == 0, rerun.output
            assert snapshot(game) == after, f"write point {n}"
        else:  # stopped while removing the spent marker: the new record
            assert replay.exit_code == 0, replay.output
            continue  # (a stale staging folder stays until the next writer removes it)
        assert not any(p.name.startswith(STAGING_PREFIX) for p in game.iterdir())
    assert n > 8  # staging folders, files, marker, rename, moves, removals, cleanup


def test_a_killed_process_leaves_a_record_that_replays_after_a_rerun(tmp_path):
    """A real ``kill -9`` mid-run (subprocess), at several moments."""
    for delay in (0.3, 0.6, 0.9, 1.2):
        game = first_round(tmp_path / f"k{delay}")
        proc = subprocess.Popen([sys.executable, "-m", "agot_adjudicator", "adjudicate", "--game",
                                 str(game)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            proc.wait(delay)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for _ in range(2):  # a repair, then (if the kill came first) the round itself
            if (game / "round-02" / "state.yaml").exists() and not (game / COMMIT_DIR).exists():
                break
            assert run("adjudicate", "--game", str(game)).exit_code == 0
        assert run("replay", str(game)).exit_code == 0


def test_outputs_naming_one_file_twice_are_a_usage_error(tmp_path):
    state = str(DEMO / "round-01" / "state.yaml")
    orders = [str(p) for p in sorted((DEMO / "round-01" / "orders").iterdir())]
    x = tmp_path / "x"
    result = run("adjudicate", state, *orders, "-o", str(x), "--report", str(x))
    assert result.exit_code == 2
    assert "name the same file" in result.output
    assert not x.exists()


def test_an_error_writing_one_output_writes_none(tmp_path):
    state = str(DEMO / "round-01" / "state.yaml")
    orders = [str(p) for p in sorted((DEMO / "round-01" / "orders").iterdir())]
    (tmp_path / "afile").write_text("x")
    result = run("adjudicate", state, *orders, "-o", str(tmp_path / "n.yaml"), "--report",
                 str(tmp_path / "r.md"), "--log", str(tmp_path / "afile" / "l.jsonl"))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_an_unwritable_round_output_in_game_mode_writes_nothing(tmp_path):
    game = first_round(tmp_path)
    (game / "round-01" / "log.jsonl").mkdir()
    before = snapshot(game)
    result = run("adjudicate", "--game", str(game))
    assert result.exit_code == 1
    assert "log.jsonl" in result.output
    assert snapshot(game) == before


def test_written_files_follow_the_umask(tmp_path):
    game = first_round(tmp_path)
    old = os.umask(0o027)
    try:
        assert run("adjudicate", "--game", str(game)).exit_code == 0
        assert run("new", "--seed", "3", "-o", str(tmp_path / "new.yaml")).exit_code == 0
    finally:
        os.umask(old)
    for path in (game / "round-01" / "report.md", game / "round-02" / "state.yaml",
                 tmp_path / "new.yaml"):
        assert path.stat().st_mode & 0o777 == 0o640, path
    assert (game / "round-02").stat().st_mode & 0o777 == 0o750


def test_a_legacy_half_written_round_is_explained_not_skipped(tmp_path):
    game = first_round(tmp_path)
    assert run("adjudicate", "--game", str(game)).exit_code == 0
    (game / "round-01" / "report.md").unlink()  # as an older agot killed mid-write left it
    result = run("adjudicate", "--game", str(game))
    assert result.exit_code == 2
    assert "report.md missing" in result.output and "remove" in result.output
    replay = run("replay", str(game))
    assert replay.exit_code == 4 and "report.md: missing" in replay.output


def test_a_second_writer_waits_then_gives_up_with_exit_2(tmp_path, monkeypatch):
    game = first_round(tmp_path)
    monkeypatch.setenv("AGOT_LOCK_WAIT", "0.2")
    with game_lock(game):
        result = run("adjudicate", "--game", str(game))
        new = run("new", "--seed", "1", "--game", str(game))
    assert result.exit_code == 2 and new.exit_code == 2
    assert "another agot run is writing this game directory" in result.output
    assert not (game / "round-02").exists()
    assert run("adjudicate", "--game", str(game)).exit_code == 0  # the lock is free again


def test_parallel_writers_leave_a_record_that_replays(tmp_path):
    """Six ``adjudicate --game`` processes at once, half with --defaults (the issue's race)."""
    for attempt in range(2):
        game = first_round(tmp_path / f"race-{attempt}")
        env = {**os.environ, "AGOT_LOCK_WAIT": "60"}
        procs = [subprocess.Popen([sys.executable, "-m", "agot_adjudicator", "adjudicate",
                                   "--game", str(game), *(["--defaults"] if i % 2 else [])],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
                 for i in range(6)]
        outputs = [p.communicate(timeout=300)[0].decode() for p in procs]
        assert all(p.returncode in (0, 3) for p in procs), outputs
        assert not any("Traceback" in o for o in outputs)
        assert not (game / COMMIT_DIR).exists()
        replay = run("replay", str(game))
        assert replay.exit_code == 0, replay.output
        rounds = sorted(p.name for p in game.iterdir() if p.name.startswith("round-"))
        pending = [r for r in rounds if (game / r / "pending.yaml").exists()]
        assert pending in ([], [rounds[-1]])  # only the open round may wait on decisions
