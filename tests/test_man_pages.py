"""The man pages in man/: generated, one per command, every option mentioned, well-formed,
rendering cleanly.

The pages and the README's command table are made from the Click commands and the
hand-written sources in man/src/ (agot_adjudicator/cli/manual.py); a page that differs from
what they give fails, naming the command that regenerates it. For every Click command of
`agot`, `man/agot-<name>.1` must exist and mention each of its long options (a group's page
covers its subcommands); `agot.1` covers the global options. The structural checks are pure
Python and always run; the rendering checks need groff / man-db and are skipped without them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import click
import pytest

from agot_adjudicator import __version__
from agot_adjudicator.cli import COMMANDS as REGISTERED
from agot_adjudicator.cli import command, main, manual
from agot_adjudicator.errors import ExitCode

MAN = Path(__file__).resolve().parent.parent / "man"
REQUIRED_SECTIONS = ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS")
COMMANDS = sorted(REGISTERED)
PAGES = sorted(MAN.glob("*.1"))


def plain(source: str) -> str:
    r"""The page source with roff escapes for hyphens and fonts removed.

    >>> plain(r"\fB\-\-seed\fR \fIN\fR")
    '--seed N'
    """
    text = source.replace("\\-", "-")
    return re.sub(r"\\f[BIRP]|\\f\(..|\\f\[[A-Z]*\]", "", text)


def long_options(command: click.Command) -> list[str]:
    """The long options of ``command`` and, for a group, of all its subcommands (not --help)."""
    out = []
    for param in command.params:
        if isinstance(param, click.Option):
            out += [o for o in (*param.opts, *param.secondary_opts)
                    if o.startswith("--") and o not in out]
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            out += [o for o in long_options(command.commands[name]) if o not in out]
    return [o for o in out if o != "--help"]


def sections(source: str) -> list[str]:
    return [line[4:].strip().strip('"') for line in source.splitlines() if line.startswith(".SH ")]


def mentions(text: str, option: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def test_the_pages_and_the_readme_table_are_what_the_commands_and_sources_give():
    stale = [str(p.relative_to(MAN.parent)) for p in manual.stale_files(MAN.parent)]
    assert not stale, f"{', '.join(stale)} differ from the commands and man/src/: run {manual.REGENERATE}"


def test_a_new_option_gets_an_entry_from_its_help(monkeypatch):
    """An option the source says nothing about is documented from its Click help (the pages
    never need an edit for a new option)."""
    cmd = command("replay")
    monkeypatch.setattr(cmd, "params", [*cmd.params, click.Option(
        ["--new-thing"], metavar="N", help="A thing -- new, with N → more.")])
    page = manual.page("agot-replay", manual.sources(MAN.parent))
    assert ".TP\n\\fB\\-\\-new\\-thing\\fR \\fIN\\fR\nA thing \\-\\- new, with N \\(-> more.\n" in page


def test_the_pages_name_the_package_version():
    for page in PAGES:
        th = page.read_text(encoding="utf-8").splitlines()[0]
        assert f'"agot {__version__}"' in th, (page.name, th)


def test_there_is_a_page_per_command_and_no_stale_page():
    names = {p.stem for p in PAGES}
    missing = [c for c in COMMANDS if f"agot-{c}" not in names]
    assert not missing, f"commands without a man page (add man/agot-<name>.1): {missing}"
    stale = sorted(n for n in names if n != "agot" and n.removeprefix("agot-") not in COMMANDS)
    assert not stale, f"man pages of commands that do not exist: {stale}"


@pytest.mark.parametrize("name", COMMANDS)
def test_command_page_mentions_every_long_option(name: str):
    page = MAN / f"agot-{name}.1"
    if not page.exists():
        pytest.fail(f"no man page for `agot {name}`: add {page.name}")
    text = plain(page.read_text(encoding="utf-8"))
    options = long_options(command(name))
    missing = [o for o in options if not mentions(text, o)]
    assert not missing, f"{page.name} does not mention {missing}"


def test_main_page_mentions_the_global_options_and_every_command_page():
    text = plain((MAN / "agot.1").read_text(encoding="utf-8"))
    for option in [*long_options(click.Command("agot", params=main.params)), "--help"]:
        assert mentions(text, option), option
    for name in COMMANDS:
        assert f"agot-{name}(1)" in text, f"agot.1 does not point to agot-{name}(1)"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_page_structure(page: Path):
    source = page.read_text(encoding="utf-8")
    assert source.isascii(), f"{page.name}: use roff escapes (\\(em, \\[u2605]) for non-ASCII"
    lines = source.splitlines()
    th = lines[0].split()
    assert th[0] == ".TH" and th[1].replace("\\-", "-") == page.stem.upper() and th[2] == "1", lines[0]
    found = sections(source)
    for section in REQUIRED_SECTIONS:
        assert section in found, f"{page.name}: no .SH {section}"
    assert found[:4] == ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS"] or found[:3] == [
        "NAME", "SYNOPSIS", "DESCRIPTION"], found
    name_line = lines[lines.index(".SH NAME") + 1]
    assert plain(name_line).startswith(f"{page.stem} - "), name_line
    assert len(found) == len(set(found)), f"{page.name}: a section twice: {found}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_exit_status_lists_only_real_codes(page: Path):
    source = page.read_text(encoding="utf-8")
    block = source.split(".SH EXIT STATUS", 1)[1].split("\n.SH ", 1)[0]
    codes = [int(c) for c in re.findall(r"^\.B (\d+)$", block, flags=re.M)]
    assert codes and codes == sorted(codes), codes
    assert all(c in {int(e) for e in ExitCode} for c in codes), codes
    if page.stem == "agot":
        assert codes == sorted(int(e) for e in ExitCode)


def _render(args: list[str], page: Path,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*args, str(page)], capture_output=True, text=True, timeout=60,
                          env=env, check=False)


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
@pytest.mark.parametrize("device", ["utf8", "ascii"])
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_groff_renders_without_warnings(page: Path, device: str):
    done = _render(["groff", "-man", f"-T{device}", "-ww", "-z"], page)
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.mark.skipif(shutil.which("man") is None or shutil.which("groff") is None,
                    reason="man-db (with groff) is not installed")
@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_man_renders_without_warnings(page: Path, locale: str):
    """`MANWIDTH=80 man --warnings -l PAGE` prints nothing on stderr, in a UTF-8 and the C locale."""
    env = {**os.environ, "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat", "LC_ALL": locale}
    done = _render(["man", "--warnings", "-l"], page, env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert page.stem.upper() in done.stdout


def id_patterns(source: str) -> list[re.Pattern[str]]:
    r"""Decision id patterns of agot-adjudicate.1 (bold = literal, italic = placeholder).

    >>> [p.pattern for p in id_patterns(".SH DECISION IDS AND DEFAULTS\n.TP\n"
    ...                                 "\\fBr\\fIn\\fB/raven/\\fIhouse\\fR\nSwap.\n")]
    ['r\\d+/raven/[a-z0-9_]+']
    """
    block = source.split(".SH DECISION IDS AND DEFAULTS", 1)[1].split("\n.SH ", 1)[0]
    lines = block.splitlines()
    out = []
    for i, line in enumerate(lines):
        if line != ".TP":
            continue
        for part in lines[i + 1].split("\\fR, "):
            regex = ""
            for font, text in re.findall(r"\\f([BIR])((?:(?!\\f).)*)", part):
                text = text.replace("\\-", "-")
                if font != "I":
                    regex += re.escape(text)
                elif text == "n":
                    regex += r"\d+"
                elif text == "key":
                    regex += r"r\d+/march@[a-z0-9_]+(?:/neutral@[a-z0-9_]+)?"
                elif text == "areas":
                    regex += r"[a-z0-9_]+(?:\+[a-z0-9_]+)+"
                else:
                    regex += "[a-z0-9_]+"
            out.append(re.compile(regex))
    return out


def _scenario_ids() -> list[str]:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    ids: list[str] = []
    for path in sorted((MAN.parent / "scenarios").rglob("*.yaml")):
        case = yaml.load(path.read_text(encoding="utf-8")) or {}
        found = list((case.get("expect") or {}).get("pending") or [])
        for sub in case.get("submissions") or []:
            found += list(sub.get("answers") or {})
            for section in (sub.get("houses") or {}).values():
                found += list((section or {}).get("answers") or {})
        ids += [i for i in found if i not in ids]
    return ids


def test_every_decision_id_of_the_conformance_suite_is_documented():
    """agot-adjudicate.1 lists every decision id pattern that the scenarios ask or answer."""
    patterns = id_patterns((MAN / "agot-adjudicate.1").read_text(encoding="utf-8"))
    assert len(patterns) >= 20
    ids = _scenario_ids()
    assert len(ids) >= 20
    undocumented = [i for i in ids if not any(p.fullmatch(i) for p in patterns)]
    assert not undocumented, f"decision ids missing from agot-adjudicate.1: {undocumented}"
