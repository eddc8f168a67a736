"""Hostile files (issue 13.4, 13.6): special files, links out of the record, huge numbers,
odd names and ids end in a located error, a usage error or a named replay difference."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from agot_adjudicator.cli import main
from agot_adjudicator.io.safefile import ReadRefused, read_bounded

DEMO = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"
STATE = DEMO / "round-01" / "state.yaml"
ORDERS = sorted(str(p) for p in (DEMO / "round-01" / "orders").iterdir())


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """In a child process, with a timeout: a FIFO that blocks must fail the test, not hang it."""
    return subprocess.run([sys.executable, "-m", "agot_adjudicator", *args], capture_output=True,
                          text=True, timeout=timeout)


def no_traceback(result) -> None:
    text = result.stdout + result.stderr if hasattr(result, "stderr") else result.output
    assert "Traceback" not in text


def test_read_bounded_refuses_fifos_devices_and_large_files(tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(ReadRefused, match="not a regular file"):
        read_bounded(fifo)
    with pytest.raises(ReadRefused, match="not a regular file"):
        read_bounded("/dev/zero")
    sparse = tmp_path / "sparse"
    with open(sparse, "wb") as handle:
        handle.truncate(3 * 1024**3)  # 3 GiB, no blocks
    with pytest.raises(ReadRefused, match="bytes; the limit is 100"):
        read_bounded(sparse, 100)
    (tmp_path / "ok").write_bytes(b"x" * 100)
    assert read_bounded(tmp_path / "ok", 100) == b"x" * 100


@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "/dev/urandom"])
def test_special_files_as_inputs_are_refused_without_blocking(tmp_path, special):
    path = tmp_path / "x.yaml"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(special)
    for args in (["validate", str(path)], ["validate", str(STATE), str(path)],
                 ["adjudicate", str(path), "-o", str(tmp_path / "n.yaml")]):
        result = run(*args, timeout=30)
        assert result.returncode == 1, result.stderr
        assert f"{path}: not a regular file" in result.stderr
        no_traceback(result)
    ruleset = tmp_path / "rules"
    shutil.copytree(DEMO.parent.parent.parent / "agot_adjudicator" / "data" / "first_edition",
                    ruleset)
    (ruleset / "board.yaml").unlink()
    if special == "fifo":
        os.mkfifo(ruleset / "board.yaml")
    else:
        (ruleset / "board.yaml").symlink_to(special)
    result = run("--ruleset", str(ruleset), "validate", str(STATE), timeout=30)
    assert result.returncode == 5 and "board.yaml" in result.stderr
    no_traceback(result)


def test_a_link_out_of_a_ruleset_folder_is_refused_and_not_echoed(tmp_path):
    secret = tmp_path / "shadow"
    secret.write_text("root: $6$secrethash\ndaemon: '*'\n")
    ruleset = tmp_path / "rules"
    shutil.copytree(DEMO.parent.parent.parent / "agot_adjudicator" / "data" / "first_edition",
                    ruleset)
    (ruleset / "setup.yaml").unlink()
    (ruleset / "setup.yaml").symlink_to(secret)
    result = run("--ruleset", str(ruleset), "validate", str(STATE))
    assert result.returncode == 5
    assert "a link that leaves" in result.stderr
    assert "secrethash" not in result.stderr and "daemon" not in result.stderr


def game_copy(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    shutil.copytree(DEMO / "round-01", game / "round-01")
    shutil.copytree(DEMO / "round-02", game / "round-02")
    return game


def test_a_link_out_of_the_game_directory_is_refused(tmp_path):
    game = game_copy(tmp_path)
    secret = tmp_path / "secret.yaml"
    secret.write_text("format: agot-orders/1\nround: 2\npassword: hunter2\n")
    (game / "round-02" / "orders").mkdir(exist_ok=True)
    (game / "round-02" / "orders" / "x.yaml").symlink_to(secret)
    result = CliRunner().invoke(main, ["adjudicate", "--game", str(game)])
    assert result.exit_code == 1
    assert "a link that leaves" in result.output and "hunter2" not in result.output
    assert (game / "round-02" / "report.md").read_bytes() == \
        (DEMO / "round-02" / "report.md").read_bytes()
    assert not (game / "round-03").exists()
    (game / "round-02" / "orders" / "x.yaml").unlink()
    (game / "round-01" / "orders" / "stark.yaml").rename(tmp_path / "stark.yaml")
    (game / "round-01" / "orders" / "stark.yaml").symlink_to(tmp_path / "stark.yaml")
    replay = CliRunner().invoke(main, ["replay", str(game)])
    assert replay.exit_code == 4 and "stark.yaml: a link that leaves" in replay.output


def test_a_fifo_in_orders_is_refused_not_skipped(tmp_path):
    game = game_copy(tmp_path)
    (game / "round-02" / "orders").mkdir(exist_ok=True)
    os.mkfifo(game / "round-02" / "orders" / "zz.yaml")
    result = run("adjudicate", "--game", str(game), timeout=30)
    assert result.returncode == 1 and "zz.yaml: not a regular file" in result.stderr


def test_ruleset_export_never_writes_through_a_link(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    out = tmp_path / "rules"
    out.mkdir()
    (out / "board.yaml").symlink_to(victim)
    result = CliRunner().invoke(main, ["ruleset", "export", str(out)])
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "keep me"
    assert not (out / "board.yaml").is_symlink()
    assert CliRunner().invoke(main, ["--ruleset", str(out), "ruleset", "show"]).exit_code == 0


def test_huge_integers_are_refused_before_conversion(tmp_path):
    state = tmp_path / "s.yaml"
    state.write_text(STATE.read_text().replace("\nround: 1\n", f"\nround: {'1' * 5000}\n"))
    result = CliRunner().invoke(main, ["validate", str(state)])
    assert result.exit_code == 1
    assert "a number with 5000 digits" in result.output and len(result.output) < 500


@pytest.mark.parametrize("game_id", ["ünï", "x$(touch PWNED)", "a b", "<b>", "Upper", "-x"])
def test_game_ids_are_ascii_snake_case(tmp_path, game_id):
    result = CliRunner().invoke(main, ["new", "--seed", "1", "--game-id", game_id,
                                       "-o", str(tmp_path / "s.yaml")])
    assert result.exit_code == 2
    assert "--game-id" in result.output
    assert not (tmp_path / "s.yaml").exists()


def test_a_state_with_a_hostile_game_id_is_refused(tmp_path):
    state = tmp_path / "s.yaml"
    state.write_text(STATE.read_text().replace("  id: demo\n", "  id: x$(touch PWNED)\n"))
    result = CliRunner().invoke(main, ["reveal", "--force", str(state)])
    assert result.exit_code == 1 and "$.game.id" in result.output


def test_reveal_prints_a_quoted_check_command(tmp_path):
    result = CliRunner().invoke(main, ["reveal", "--force", str(STATE)])
    assert result.exit_code == 0
    line = next(x for x in result.output.splitlines() if x.startswith("check: "))
    words = shlex.split(line.removeprefix("check: ").split("|")[0])
    assert words == ["printf", "agot-seed:%s:%s", "demo", "1"]
    check = subprocess.run(line.removeprefix("check: "), shell=True, capture_output=True,
                           text=True)
    commitment = next(x for x in result.output.splitlines() if x.startswith("commitment: "))
    assert check.stdout.split()[0] == commitment.split()[-1]


def test_file_names_do_not_become_html_in_the_report(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(DEMO / "round-01", game / "round-01")
    for name in ("report.md", "log.jsonl", "board.svg"):
        (game / "round-01" / name).unlink()
    hostile = game / "round-01" / "orders" / "<img src=x onerror=alert(1)>`x`.yaml"
    (game / "round-01" / "orders" / "tyrell.yaml").rename(hostile)
    result = CliRunner().invoke(main, ["adjudicate", "--game", str(game)])
    assert result.exit_code == 0, result.output
    report = (game / "round-01" / "report.md").read_text()
    assert "<img" not in report and "\\u003cimg" in report
    assert CliRunner().invoke(main, ["replay", str(game)]).exit_code == 0


def test_long_tie_break_lists_are_checked_in_linear_time(tmp_path):
    """A 1 MiB tie-break list (100,000 names) is refused, and quickly (no timing assertion:
    the check is a set lookup per name)."""
    path = tmp_path / "baratheon.yaml"
    names = ", ".join(["stark"] * 100_000)
    path.write_text(f"format: agot-orders/1\nround: 1\nhouse: baratheon\nplans:\n"
                    f"  tie_break: [{names}]\n")
    result = CliRunner().invoke(main, ["validate", str(STATE), str(path)])
    assert result.exit_code == 1
    assert "'stark' is named twice" in result.output
