"""The foundation commands: `schema`, `show`, `validate` warnings, `--help`, `--version`, usage errors.

README: Commands, Exit codes. Errors and warnings go to stderr; usage errors exit 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from recorded import REGENERATE

from agot_adjudicator import __version__
from agot_adjudicator.cli import main
from agot_adjudicator.io.schemas import SCHEMA_NAMES

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 5-player starting state (seed 1); tests must not change it."""
    path = tmp_path_factory.mktemp("game") / "state.yaml"
    result = _run("new", "--players", "5", "--seed", "1", "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


def _orders(tmp_path: Path, text: str, name: str = "orders.yaml") -> Path:
    path = tmp_path / name
    path.write_text("format: agot-orders/1\nround: 1\n" + text, encoding="utf-8")
    return path


# --- schema ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_prints_the_published_schema(name: str):
    result = _run("schema", name)
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    published = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert printed == published, f"schemas/{name}.schema.json: {REGENERATE}"
    assert printed["$schema"].startswith("https://json-schema.org/")


def test_schema_with_an_unknown_name_is_a_usage_error():
    result = _run("schema", "state2")
    assert result.exit_code == 2
    assert "state2" in result.stderr and result.stdout == ""


# --- show --------------------------------------------------------------------------------

def test_show_moderator_view_has_decks_seed_and_every_hand(state: Path):
    result = _run("show", str(state))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "round 1, planning phase (moderator's view)" in out.splitlines()[0]
    assert "Westeros decks (top first; secret): I: " in out
    assert "Seed: 1 " in out
    for card in ("eddard_stark", "tywin_lannister", "balon_greyjoy", "mace_tyrell", "melisandre"):
        assert card in out
    assert "Winterfell" in out and "stark: 1 footman, 1 knight" in out
    assert "baratheon [iron throne]" in out


def test_show_house_view_hides_other_hands_decks_and_seed(state: Path):
    result = _run("show", str(state), "--house", "stark")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "(view of stark)" in out.splitlines()[0]
    assert "eddard_stark" in out and "maester_luwin" in out
    for secret in ("tywin_lannister", "balon_greyjoy", "mace_tyrell", "melisandre",
                   "Westeros decks", "Seed", "winter_is_coming", "clash_of_kings"):
        assert secret not in out, secret
    assert out.count("7 cards") == 4
    # The board and tracks are public.
    assert "Lannisport" in out and "greyjoy [valyrian steel blade]" in out


def test_show_house_not_in_play_is_a_usage_error(tmp_path: Path):
    four = tmp_path / "four.yaml"
    assert _run("new", "--players", "4", "--seed", "1", "-o", str(four)).exit_code == 0
    result = _run("show", str(four), "--house", "greyjoy")
    assert result.exit_code == 2
    assert "'greyjoy' is not a house in play" in result.stderr
    assert result.stdout == ""


# --- validate ----------------------------------------------------------------------------

def test_validate_accepts_a_clean_submission_without_warnings(state: Path, tmp_path: Path):
    orders = _orders(tmp_path, "house: stark\norders:\n  winterfell: march_0\n"
                               "  white_harbor: support\n  the_shivering_sea: raid\n"
                               "bids: {iron_throne: 2, fiefdoms: 2, kings_court: 1}\nwildlings: 5\n")
    result = _run("validate", str(state), str(orders))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == f"ok: {state} and 1 submission file(s)\n"


def test_validate_warns_about_useless_support_and_missing_order(state: Path, tmp_path: Path):
    # Greywater Watch's neighbours (Flint's Finger, Moat Cailin, Seagard) are empty at the start.
    orders = _orders(tmp_path, "house: greyjoy\norders:\n  pyke: defense_plus1\n"
                               "  greywater_watch: support\n", name="greyjoy.yaml")
    before = orders.read_bytes(), state.read_bytes()
    result = _run("validate", str(state), str(orders))
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"warning: {orders}:5:3: $.orders: no order for ironmans_bay, which holds greyjoy units",
        f"warning: {orders}:6:20: $.orders.greywater_watch: support order in greywater_watch: "
        "no area it can support holds units or a neutral force, so no battle can use it (R6.2)",
    ]
    assert result.stdout.startswith("ok: ")
    assert (orders.read_bytes(), state.read_bytes()) == before


def test_validate_warns_about_plans_their_orders_never_reach(state: Path, tmp_path: Path):
    # Stark at the start: Winterfell (footman, knight), White Harbor (footman), the Shivering Sea (ship).
    orders = _orders(tmp_path, "house: stark\norders:\n  winterfell: raid\n"
                               "  white_harbor: march_0\n  the_shivering_sea: support\n"
                               "plans:\n"
                               "  raids: [{from: winterfell, targets: [the_shivering_sea]}]\n"
                               "  marches:\n"
                               "    - {from: white_harbor, moves: {the_narrow_sea: [footman]}}\n"
                               "    - {from: winterfell, moves: {kings_landing: [knight]}}\n"
                               "  support: {white_harbor: [stark]}\n", name="stark.yaml")
    result = _run("validate", str(state), str(orders))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"warning: {orders}:9:40: $.plans.raids[0].targets[0]: a raid from land (winterfell) never "
        "reaches the sea area the_shivering_sea (R5.2)",
        f"warning: {orders}:11:52: $.plans.marches[0].moves.the_narrow_sea: footman cannot enter sea "
        "area the_narrow_sea: ships move at sea, footmen and knights on land (R5.3)",
        f"warning: {orders}:12:14: $.plans.marches[1].from: stark has no march order in winterfell: "
        "this plan is never used",
        f"warning: {orders}:12:49: $.plans.marches[1].moves.kings_landing: kings_landing is "
        "reached from winterfell only by ship transport (a river without a bridge or no border "
        "between them), and no chain of stark's ships reaches it on this board: the move "
        "happens only if ships move into place first (R5.4, R5.11)",
        f"warning: {orders}:13:27: $.plans.support.white_harbor: stark has no support order in "
        "white_harbor: this plan is never used",
    ]


def test_validate_gives_no_warnings_when_there_are_errors(state: Path, tmp_path: Path):
    orders = _orders(tmp_path, "house: greyjoy\norders:\n  greywater_watch: support\n"
                               "bids: {iron_throne: 6}\n")
    result = _run("validate", str(state), str(orders))
    assert result.exit_code == 1
    assert not any(line.startswith("warning:") for line in result.stderr.splitlines())
    assert "greyjoy bids 6 in all but has 5 available power (R7.1)" in result.stderr


def test_validate_state_alone(state: Path):
    result = _run("validate", str(state))
    assert result.exit_code == 0
    assert result.stdout == f"ok: {state}\n"


# --- new ---------------------------------------------------------------------------------

def test_new_may_overwrite_an_existing_output(tmp_path: Path):
    out = tmp_path / "game.yaml"
    out.write_text("old contents\n", encoding="utf-8")
    result = _run("new", "--seed", "3", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert out.read_text(encoding="utf-8").startswith("# agot game state")
    assert "seed commitment (publish it now): sha256 " in result.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["game.yaml"], "no temporary file left behind"
    assert _run("validate", str(out)).exit_code == 0


# --- help, version, usage errors ---------------------------------------------------------

def test_python_m_runs_the_cli():
    done = subprocess.run([sys.executable, "-m", "agot_adjudicator", "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "Usage:" in done.stdout
    for command in ("new", "validate", "show", "schema", "ruleset"):
        assert command in done.stdout
    assert "Exit codes: 0 done; 1 invalid input" in done.stdout


def test_version():
    result = _run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"agot, version {__version__}\n"


@pytest.mark.parametrize("args", [
    ["--no-such-option"],
    ["frobnicate"],
    ["new", "--seed", "1"],                                      # -o is required
    ["new", "--players", "6", "--seed", "1", "-o", "x.yaml"],
    ["new", "--seed", "-1", "-o", "x.yaml"],
    ["new", "--seed", "one", "-o", "x.yaml"],
    ["new", "--players", "4", "--houses", "stark,lannister", "--seed", "1", "-o", "x.yaml"],
    ["new", "--players", "3", "--houses", "stark,lannister,martell", "--seed", "1",
     "-o", "x.yaml"],
    ["validate"],                                                # STATE is required
    ["show"],
    ["schema"],
    ["ruleset", "export"],
], ids=lambda a: " ".join(a))
def test_usage_errors_exit_2_and_write_nothing(args: list[str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    result = _run(*args)
    assert result.exit_code == 2, result.output
    # Click's own parsing errors print its usage text; the package's UsageError says "error:"
    assert "Usage:" in result.stderr or "Error:" in result.stderr or (
        result.stderr.startswith("error: ") and "-h' for help" in result.stderr)
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


# --- malformed vs illegal input, one exit-code mapping -------------------------------------

MALFORMED = "agot: malformed input: not understood (unreadable, not YAML, or not the shape its " \
            "schema requires); nothing written"
ILLEGAL = "agot: illegal input: understood, but against the rules; nothing written"


@pytest.mark.parametrize("text, kind", [
    ("house: stark\norders: {winterfell: march_0\n", MALFORMED),        # not YAML
    ("house: stark\norders: [winterfell]\n", MALFORMED),                # not the schema's shape
    ("house: stark\norders: {karhold: march_0}\n", ILLEGAL),            # R4.1: no units there
    ("house: stark\nbids: {iron_throne: 9}\n", ILLEGAL),                # R7.1: more than its power
], ids=["yaml", "schema", "no-units", "overbid"])
def test_malformed_and_illegal_input_both_exit_1_and_are_named(state: Path, tmp_path: Path,
                                                               text: str, kind: str):
    for command in ("validate", "adjudicate"):
        args = [command, str(state), str(_orders(tmp_path, text))]
        if command == "adjudicate":
            args += ["-o", str(tmp_path / "next.yaml")]
        result = _run(*args)
        assert result.exit_code == 1, (command, result.output)
        *errors, closing = result.stderr.splitlines()
        assert errors and all(line.startswith("error: ") for line in errors)
        assert closing == kind, command
        assert not (tmp_path / "next.yaml").exists()


def test_library_raises_the_kind_as_its_class(state: Path, tmp_path: Path, ruleset):
    from agot_adjudicator.errors import IllegalInput, InputError, MalformedInput
    from agot_adjudicator.workflow.adjudicate import adjudicate_files

    for text, cls in (("house: stark\norders: [winterfell]\n", MalformedInput),
                      ("house: stark\norders: {karhold: march_0}\n", IllegalInput)):
        with pytest.raises(InputError) as caught:
            adjudicate_files(str(state), [str(_orders(tmp_path, text))], ruleset)
        assert type(caught.value) is cls


def test_only_handle_errors_exits():
    """One mapping from exceptions to exit codes: no command calls sys.exit itself."""
    sources = {p.name: p.read_text(encoding="utf-8")
               for p in sorted((ROOT / "agot_adjudicator" / "cli").glob("*.py"))}
    body = sources["options.py"].split("def handle_errors", 1)[1].split("\ndef ", 1)[0]
    assert sum(s.count("sys.exit(") for s in sources.values()) == body.count("sys.exit(") > 0
    assert not [name for name, s in sources.items() if "click.UsageError" in s]


def test_validate_names_both_kinds_when_files_have_both(state: Path, tmp_path: Path):
    bad = _orders(tmp_path, "house: stark\norders: [winterfell]\n", name="stark.yaml")
    illegal = _orders(tmp_path, "house: lannister\norders: {karhold: march_0}\n",
                      name="lannister.yaml")
    result = _run("validate", str(state), str(bad), str(illegal))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == ("agot: invalid input (some not understood, some "
                                             "against the rules); nothing written")


def test_new_without_a_seed_draws_a_random_one_and_warns_for_a_guessable_one(tmp_path):
    """P3: the commitment hides the seed only if the seed cannot be guessed: by default agot new
    draws 64 random bits from the operating system; a hand-picked seed below 2^40 is warned."""
    import re

    seeds = set()
    for name in ("a.yaml", "b.yaml"):
        result = _run("new", "--players", "3", "-o", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        assert "warning" not in result.output
        seeds.add(re.search(r"\n  seed: (\d+)\n", (tmp_path / name).read_text())[1])
    assert len(seeds) == 2
    small = _run("new", "--players", "3", "--seed", "8812", "-o", str(tmp_path / "c.yaml"))
    assert small.exit_code == 0 and "seed 8812 is below 2^40" in small.stderr
    big = _run("new", "--players", "3", "--seed", str(2**40), "-o", str(tmp_path / "d.yaml"))
    assert big.exit_code == 0 and "warning" not in big.stderr
