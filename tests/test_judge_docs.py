"""The cron line and the systemd units of docs/judge.md work as written (issue 29): the cron
line has five valid time fields and a command whose `agot judge` options parse; the units are
valid INI with the keys systemd needs, checked by `systemd-analyze verify` where it is
installed; the settings example is a valid judge.yaml."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from agot_adjudicator.cli import command

DOC = Path(__file__).resolve().parent.parent / "agot_adjudicator" / "docs" / "judge.md"


def blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text("utf-8"), re.DOTALL)


def judge_args(line: str) -> list[str]:
    words = shlex.split(line)
    start = words.index("judge")
    assert words[start - 1].endswith("agot")
    end = next((i for i in range(start, len(words)) if words[i] in (">>", ">", "&&", "2>&1")),
               len(words))
    return words[start + 1:end]


def test_the_cron_line_is_valid():
    (text,) = blocks("cron")
    (line,) = [x for x in text.splitlines() if x.strip()]
    fields = line.split(None, 5)
    ranges = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]
    for value, (low, high) in zip(fields[:5], ranges, strict=True):
        for part in value.split(","):
            base, _, step = part.partition("/")
            assert step == "" or step.isdigit()
            if base != "*":
                for n in base.split("-"):
                    assert n.isdigit() and low <= int(n) <= high, line
    cmd = command("judge")
    ctx = cmd.make_context("judge", judge_args(fields[5]))
    assert ctx.params["game_dir"] == "mygame" and ctx.params["mode"] == "once"


def units() -> dict[str, configparser.ConfigParser]:
    out = {}
    for text in blocks("ini"):
        parser = configparser.ConfigParser(strict=True, interpolation=None)
        parser.optionxform = str  # systemd keys are case-sensitive
        parser.read_string(text)
        out["timer" if parser.has_section("Timer") else "service"] = parser
    return out


def test_the_systemd_units_have_what_systemd_needs():
    found = units()
    service, timer = found["service"], found["timer"]
    assert service["Service"]["Type"] == "oneshot"
    exec_start = service["Service"]["ExecStart"]
    assert exec_start.startswith("/")  # systemd wants an absolute path
    ctx = command("judge").make_context("judge", judge_args(exec_start))
    assert ctx.params["game_dir"] == "mygame"
    assert timer["Install"]["WantedBy"] == "timers.target"
    assert timer["Timer"]["OnUnitActiveSec"] == "5min"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_analyze_verifies_the_units(tmp_path):
    texts = blocks("ini")
    env = tmp_path / "judge.systemd.env"
    env.write_text("AGOT_IMAP_PASSWORD=x\n")
    agot = shutil.which("agot") or "/bin/true"
    for text in texts:
        name = "agot-judge.timer" if "[Timer]" in text else "agot-judge.service"
        text = (text.replace("/usr/local/bin/agot", agot)
                .replace("/srv/agot/judge.systemd.env", str(env))
                .replace("WorkingDirectory=/srv/agot", f"WorkingDirectory={tmp_path}")
                .replace("User=agot", "User=root"))
        (tmp_path / name).write_text(text)
    result = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "agot-judge.service"),
                             str(tmp_path / "agot-judge.timer")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Unknown" not in result.stderr and "agot-judge" not in result.stderr, result.stderr


def test_the_settings_example_is_valid(tmp_path):
    from agot_adjudicator.workflow.judge import read_config

    (text,) = blocks("yaml")
    (tmp_path / "judge.yaml").write_text(text)
    config = read_config(tmp_path)
    assert config.imap is not None and config.imap.security == "tls"
    assert yaml.safe_load(text)["deadlines"]["decisions"]["then"] == "defaults"
    assert config.deadlines["orders"].period.total_seconds() == 48 * 3600
