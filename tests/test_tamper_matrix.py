"""Tamper matrix (issue 13.5, 13.7): every recorded file of a round, every kind of change —
bytes, encoding, deletion, links, special files, size — is a named replay difference (exit 4)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from agot_adjudicator.cli import main

DEMO = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"

FILES = ["round-01/state.yaml", "round-01/orders/answers.yaml", "round-01/orders/baratheon.yaml",
         "round-01/orders/greyjoy.yaml", "round-01/orders/lannister.yaml",
         "round-01/orders/stark.yaml", "round-01/orders/tyrell.yaml", "round-01/report.md",
         "round-01/log.jsonl", "round-01/board.svg", "round-02/state.yaml"]
CHANGES = ["byte", "encoding", "delete", "link_out", "fifo", "device", "sparse"]


def record(tmp: Path) -> Path:
    game = tmp / "game"
    shutil.copytree(DEMO / "round-01", game / "round-01")
    (game / "round-02").mkdir()
    shutil.copy(DEMO / "round-02" / "state.yaml", game / "round-02" / "state.yaml")
    return game


def tamper(path: Path, change: str, outside: Path) -> None:
    raw = path.read_bytes()
    if change == "byte":
        i = len(raw) // 2
        path.write_bytes(raw[:i] + bytes([raw[i] ^ 0x01]) + raw[i + 1:])
    elif change == "encoding":  # the same text, one character in Latin-1: not UTF-8
        path.write_bytes(raw.replace(b"a", "\u00e9".encode("latin-1"), 1))
    elif change == "delete":
        path.unlink()
    elif change == "link_out":  # the very same bytes, but from outside the record
        outside.write_bytes(raw)
        path.unlink()
        path.symlink_to(outside)
    elif change == "fifo":
        path.unlink()
        os.mkfifo(path)
    elif change == "device":
        path.unlink()
        path.symlink_to("/dev/zero")
    elif change == "sparse":  # 3 GiB of holes: refused by size, never read
        with open(path, "r+b") as handle:
            handle.truncate(3 * 1024**3)


def test_the_untouched_record_replays(tmp_path):
    result = CliRunner().invoke(main, ["replay", str(record(tmp_path))])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("change", CHANGES)
@pytest.mark.parametrize("name", FILES)
def test_every_change_to_every_recorded_file_is_a_named_difference(tmp_path, name, change):
    game = record(tmp_path)
    tamper(game / name, change, tmp_path / "outside")
    result = CliRunner().invoke(main, ["replay", str(game)])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code == 4, result.output
    shown = Path(name).name if "orders" in name else name
    assert shown in result.output, result.output
    assert len(result.output) < 20_000
