"""`agot template STATE --house H`: an order file skeleton (R3–R8, docs/protocol.md P1).

Decision tested here: left as it is, the skeleton is a valid agot-orders/1
file that submits nothing (validate warns; adjudicate asks for the house's
orders); uncommenting every `# ` line gives a valid file whose example values
are all legal; filled in, it adjudicates.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from agot_adjudicator.cli import main
from agot_adjudicator.engine.planning import stars_allowed
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.io.reading import parse_text
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import AreaState, GameState
from agot_adjudicator.render.template import order_template

SCHEMA_LINE = "# yaml-language-server: $schema=orders.schema.json"


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _state(ruleset: Ruleset, players: int = 5, seed: int = 1) -> GameState:
    return new_game(ruleset, list(ruleset.players[players]), seed, f"game-{seed}")


def _westeros(ruleset: Ruleset, players: int = 5, seed: int = 1) -> GameState:
    """The start of round 2: its Westeros phase comes next."""
    s = _state(ruleset, players, seed)
    s.round, s.phase = 2, "westeros"
    return s


def _write(path: Path, state: GameState, ruleset: Ruleset) -> Path:
    path.write_text(dump_yaml(state.to_dict(ruleset)), encoding="utf-8")
    return path


def uncomment(text: str) -> str:
    """Every `# ` YAML line made live (the `##` explanations and the $schema line stay comments)."""
    out = []
    for line in text.splitlines():
        if line.startswith("# ") and not line.startswith("# yaml-language-server"):
            line = line[2:]
        out.append(line)
    return "\n".join(out) + "\n"


def _doc(text: str, name: str = "t.yaml"):
    return parse_text(name, text.encode("utf-8"))


# --- content -----------------------------------------------------------------------------

def test_round_one_skeleton_lists_areas_stars_and_hand(ruleset: Ruleset):
    s = _state(ruleset)
    text = order_template(s, ruleset, "stark")
    lines = text.splitlines()
    assert lines[0] == SCHEMA_LINE
    assert "##   agot schema orders > orders.schema.json" in lines
    assert lines[lines.index("format: agot-orders/1") + 1:][:2] == ["round: 1", "house: stark"]
    mine = [a for a in ruleset.area_ids if s.area(a).house == "stark"]
    assert mine == ["white_harbor", "winterfell", "the_shivering_sea"]
    for area_id in mine:
        assert any(line.startswith(f"#   {area_id}: null") for line in lines), area_id
    stars = stars_allowed(s, ruleset, "stark")
    assert f"## Special (★) orders allowed: {stars} (King's Court position 2, R4.2)." in lines
    assert any("the_shivering_sea: null" in line and "no consolidate_power at sea" in line
               for line in lines)
    hand = s.houses["stark"].hand
    assert all(card in text for card in hand)
    # Round 1 has no Westeros phase (R2.1): nothing to bid, muster or reduce.
    for absent in ("bids:", "wildlings:", "musters:", "supply_reductions:", "wildling_losses:"):
        assert absent not in text


def test_left_as_is_is_valid_and_submits_nothing(ruleset: Ruleset):
    text = order_template(_state(ruleset), ruleset, "stark")
    doc = _doc(text)
    assert schema_problems(doc, "orders") == []
    assert doc.data == {"format": "agot-orders/1", "round": 1, "house": "stark"}


def _action(ruleset: Ruleset, players: int) -> GameState:
    """Round 1's action phase: every house has a Raid, a March and a Support order where it can."""
    s = _state(ruleset, players)
    s.phase = "action"
    for house in s.order_of_play():
        mine = [a for a in ruleset.area_ids if s.area(a).house == house and s.area(a).units]
        for area_id, order in zip(mine, ("raid", "march_0", "support"), strict=False):
            s.areas[area_id].order = order
    return s


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("phase", ["planning", "westeros", "action"])
def test_every_example_value_is_legal(ruleset: Ruleset, tmp_path: Path, players: int, phase: str):
    """Uncommenting every `# ` line gives a file that validates (schema and rules) for every house."""
    s = {"planning": _state, "westeros": _westeros, "action": _action}[phase](ruleset, players)
    state = _write(tmp_path / "state.yaml", s, ruleset)
    for house in s.order_of_play():
        text = uncomment(order_template(s, ruleset, house))
        assert schema_problems(_doc(text), "orders") == [], house
        path = tmp_path / f"{house}.yaml"
        path.write_text(text, encoding="utf-8")
        result = _run("validate", str(state), str(path))
        assert result.exit_code == 0, (house, result.output)
        assert result.stderr == "", (house, result.stderr)


def test_westeros_phase_lists_what_the_cards_may_ask(ruleset: Ruleset):
    s = _westeros(ruleset)
    s.houses["stark"].power = 6
    text = order_template(s, ruleset, "stark")
    lines = text.splitlines()
    assert "# bids:" in lines
    for track in ("iron_throne", "fiefdoms", "kings_court"):
        assert any(line.startswith(f"#   {track}: 0") and "0..6" in line for line in lines)
    assert any(line.startswith("# wildlings: 0") for line in lines)
    assert "## Round 2's Westeros cards are not revealed yet. If they bring:" in lines
    assert "##   sea_of_storms: no Raid orders (R3.9);" in lines
    # Mustering (R3.5): the castle areas Stark controls, with their points and seas.
    assert any(line.startswith("#     winterfell: []") and "stronghold, 2 points" in line
               and "ship:" in line for line in lines)
    assert any(line.startswith("#     white_harbor: []") and "city, 1 point" in line for line in lines)
    assert any(line.startswith("#   supply_reductions: ") for line in lines)
    assert any(line.startswith("#   wildling_losses: ") for line in lines)


def test_westeros_phase_never_reads_the_deck_order(ruleset: Ruleset):
    """The decks are the moderator's secret: the skeleton is the same whatever their order."""
    a = _westeros(ruleset, seed=1)
    b = a.copy()
    b.decks = {d: list(reversed(cards)) for d, cards in a.decks.items()}
    b.seed, b.shuffles = 99, 5
    for house in a.order_of_play():
        assert order_template(a, ruleset, house) == order_template(b, ruleset, house)


def test_planning_phase_applies_this_rounds_restrictions(ruleset: Ruleset):
    s = _state(ruleset)
    s.round = 3
    s.restrictions = ["sea_of_storms", "rains_of_autumn"]
    s.revealed = {"I": "supply", "II": "game_of_thrones", "III": "sea_of_storms"}
    text = order_template(s, ruleset, "lannister")
    lines = text.splitlines()
    tokens = next(line for line in lines if line.startswith("## Order tokens"))
    assert "raid" not in tokens and "march_plus1★" in tokens
    assert "## This round (sea_of_storms): no Raid orders (R3.9)." in lines
    assert "## This round (rains_of_autumn): supporting footmen add no strength (R3.12)." in lines
    # The Westeros phase of this round is over: nothing to bid or muster.
    assert "bids:" not in text and "musters:" not in text


def test_special_token_holders_get_their_sections(ruleset: Ruleset):
    """Raven (R4.6) for King's Court 1, Blade (R6.5) for Fiefdoms 1, tie-break for Iron Throne 1;
    while a Clash of Kings may still come, for every house (it may hold them after it). The
    written values are the documented defaults: keep the orders, no Blade (issue 14)."""
    s = _westeros(ruleset)
    for house in s.order_of_play():
        text = order_template(s, ruleset, house)
        assert "#   raven: null" in text and "#   blade: never" in text, house
        assert "#   tie_break: " in text, house
    s.phase, s.revealed = "planning", {"I": "supply", "II": "game_of_thrones",
                                       "III": "sea_of_storms"}
    for house in s.order_of_play():
        text = order_template(s, ruleset, house)
        assert ("#   raven: null" in text) == (s.holder("kings_court") == house), house
        assert ("#   blade: never" in text) == (s.holder("fiefdoms") == house), house
        assert ("#   tie_break: " in text) == (s.holder("iron_throne") == house), house
    s.raven_used = s.blade_used = True
    for house in s.order_of_play():
        text = order_template(s, ruleset, house)
        assert "raven:" not in text and "blade:" not in text


def test_action_phase_lists_only_plans_for_orders_on_the_board(ruleset: Ruleset):
    s = _state(ruleset)
    s.phase = "action"
    s.areas["winterfell"].order = "march_0"
    s.areas["white_harbor"].order = "support"
    s.areas["the_shivering_sea"].order = "raid"
    s.areas["karhold"] = AreaState("greyjoy", ["footman"], order="consolidate_power")
    text = order_template(s, ruleset, "stark")
    lines = text.splitlines()
    assert "# orders:" not in lines
    assert any(line.startswith("## Orders are on the board (action phase): white_harbor: support")
               for line in lines)
    assert [line.split("#")[1].strip() for line in lines if "- from:" in line] == [
        "- from: winterfell"]
    assert any(line.startswith("#     - {from: the_shivering_sea, targets: []}")
               and line.endswith("may target: karhold") for line in lines)
    assert any(line.startswith("#     white_harbor: [stark]") for line in lines)
    assert not any(line.startswith("#     winterfell: [stark]") for line in lines)


def test_march_destinations_mark_battles_and_neutral_forces(ruleset: Ruleset):
    s = _state(ruleset)
    text = order_template(s, ruleset, "baratheon")
    line = next(x for x in text.splitlines() if x.startswith("#       moves: {}") and "kings_landing" in x)
    assert "kings_landing (neutral 5)" in line


# --- command -----------------------------------------------------------------------------

def test_cli_prints_the_skeleton(ruleset: Ruleset, tmp_path: Path):
    state = _write(tmp_path / "state.yaml", _state(ruleset), ruleset)
    result = _run("template", str(state), "--house", "tyrell")
    assert result.exit_code == 0, result.output
    assert result.stdout == order_template(_state(ruleset), ruleset, "tyrell")


def test_cli_unfilled_file_validates_with_a_warning_and_adjudicate_asks(ruleset: Ruleset,
                                                                      tmp_path: Path):
    state = _write(tmp_path / "state.yaml", _state(ruleset), ruleset)
    out = tmp_path / "stark.yaml"
    assert _run("template", str(state), "--house", "stark", "-o", str(out)).exit_code == 0
    result = _run("validate", str(state), str(out))
    assert result.exit_code == 0
    assert re.search(rf"^warning: {re.escape(str(out))}:\d+:\d+: \$\.house: stark submits nothing",
                     result.stderr)
    others = [f"--nmr={h}" for h in ("lannister", "baratheon", "greyjoy", "tyrell")]
    run = _run("adjudicate", str(state), str(out), "-o", str(tmp_path / "next.yaml"), *others)
    assert run.exit_code == 3
    assert "id: r1/orders/stark" in run.stdout


def test_cli_filled_in_skeleton_adjudicates(ruleset: Ruleset, tmp_path: Path):
    """Fill the orders and one march in the uncommented skeleton: the march happens (R5.3)."""
    state = _write(tmp_path / "state.yaml", _state(ruleset), ruleset)
    text = uncomment(_run("template", str(state), "--house", "stark").stdout)
    text = text.replace("  winterfell: null", "  winterfell: march_plus1", 1)
    text = re.sub(r"(- from: winterfell.*\n\s+moves: )\{\}", r"\1{karhold: [knight]}", text)
    out = tmp_path / "stark.yaml"
    out.write_text(text, encoding="utf-8")
    others = [f"--nmr={h}" for h in ("lannister", "baratheon", "greyjoy", "tyrell")]
    nxt = tmp_path / "next.yaml"
    run = _run("adjudicate", str(state), str(out), "-o", str(nxt), *others)
    assert run.exit_code == 0, run.output
    moved = _run("diff", str(state), str(nxt))
    assert "  karhold: stark knight ×0 → ×1" in moved.stdout.splitlines()


def test_cli_schema_ref_option(ruleset: Ruleset, tmp_path: Path):
    state = _write(tmp_path / "state.yaml", _state(ruleset), ruleset)
    result = _run("template", str(state), "--house", "stark", "--schema-ref",
                  "../schemas/orders.schema.json")
    assert result.stdout.splitlines()[0] == "# yaml-language-server: $schema=../schemas/orders.schema.json"
    assert "##   agot schema orders > ../schemas/orders.schema.json" in result.stdout.splitlines()


def test_cli_house_not_in_play_is_a_usage_error(ruleset: Ruleset, tmp_path: Path):
    state = _write(tmp_path / "state.yaml", _state(ruleset, 3), ruleset)
    result = _run("template", str(state), "--house", "greyjoy")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --house greyjoy: not a house in play")
    assert _run("template", str(state)).exit_code == 2        # --house is required


def test_cli_ended_game_and_bad_state_exit_1(ruleset: Ruleset, tmp_path: Path):
    s = _state(ruleset)
    s.phase = "ended"
    s.winner = {"houses": ["stark"], "reason": "instant_win", "round": 1, "castles": {"stark": 7}}
    state = _write(tmp_path / "state.yaml", s, ruleset)
    result = _run("template", str(state), "--house", "stark")
    assert result.exit_code == 1
    assert re.match(rf"error: {re.escape(str(state))}:\d+:\d+: \$\.phase: the game has ended",
                    result.stderr)
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: agot-state/1\n", encoding="utf-8")
    result = _run("template", str(bad), "--house", "stark")
    assert result.exit_code == 1 and result.stderr.startswith(f"error: {bad}:")
    assert result.stdout == ""


def test_cli_output_never_overwrites_the_state(ruleset: Ruleset, tmp_path: Path):
    state = _write(tmp_path / "state.yaml", _state(ruleset), ruleset)
    before = state.read_bytes()
    result = _run("template", str(state), "--house", "stark", "-o", str(state))
    assert result.exit_code == 2
    assert state.read_bytes() == before


def test_cli_output_that_cannot_be_written_is_an_error_not_a_traceback(ruleset: Ruleset,
                                                                      tmp_path: Path):
    state = _write(tmp_path / "state.yaml", _state(ruleset), ruleset)
    blocker = tmp_path / "a_file"
    blocker.write_text("", encoding="utf-8")
    result = _run("template", str(state), "--house", "stark", "-o", str(blocker / "stark.yaml"))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr
    export = _run("ruleset", "export", str(blocker / "copy"))
    assert export.exit_code == 1
    assert export.stderr.startswith(f"error: {blocker / 'copy'}: ")


def test_action_phase_raid_without_target_is_explained(ruleset: Ruleset):
    """R5.2: a raid with no legal target is removed with no effect."""
    s = _state(ruleset)
    s.phase = "action"
    s.areas["stoney_sept"].order = "raid"
    text = order_template(s, ruleset, "lannister")
    assert ("##   Raid in stoney_sept: no adjacent order it can remove; it will be removed with no "
            "effect (R5.2).") in text.splitlines()
    assert "raids:" not in text


# --- every suggested value is one the engine accepts ------------------------------------------

def test_no_ship_suggested_into_the_ships_of_a_house_not_in_play(ruleset: Ruleset):
    """R3.5, R12.2: in a 4-player game Greyjoy's ships in Ironman's Bay are a neutral force; a
    Lannister in Riverrun may muster a ship into The Golden Sound only (the engine's rule)."""
    s = _westeros(ruleset, players=4)
    assert s.area("ironmans_bay").neutral_force is not None
    s.areas["riverrun"] = AreaState(house="lannister", units=["footman"])
    text = order_template(s, ruleset, "lannister")
    line = next(x for x in text.splitlines() if x.startswith("#     riverrun: []"))
    assert line.endswith("# stronghold, 2 points; ships: ship:the_golden_sound")


def _random_states(ruleset: Ruleset):
    """States met in seeded random games (autoplay): every round's start (Westeros or planning
    phase), and the same with random legal orders placed (action phase)."""
    from autoplay import Driver, GameRecord

    for seed, players in ((11, 3), (12, 4), (13, 5)):
        driver = Driver(seed, players, ruleset)
        record = GameRecord(seed, players)
        state = driver.new_state()
        while state.phase != "ended":
            yield state
            action = state.copy()
            for house in action.order_of_play():
                for area_id, order in driver.player.orders(action, house).items():
                    action.areas[area_id].order = order
            action.phase = "action"
            yield action
            state = driver.play_round(state, record)


def _suggested(text: str, key: str) -> dict[str, list[str]]:
    """``area → values`` from the trailing comments ``# KEY: a, b`` under a plan section."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"#\s+(?:- \{from: )?(\w+)[:,].*# .*?" + re.escape(key) + r": (.*)$", line)
        if m:
            out[m.group(1)] = [v.split(" (")[0] for v in m.group(2).split(", ")]
    return out


def test_every_suggestion_in_random_states_is_accepted_by_the_engine(ruleset: Ruleset):
    """For states of random games, each suggested muster sea, raid target, support reach and
    retreat is accepted by the engine's own rule, and the whole uncommented skeleton passes
    the same checks as `agot validate`."""
    from agot_adjudicator.engine.aftermath import retreat_options
    from agot_adjudicator.engine.context import Context, Inputs
    from agot_adjudicator.engine.decisions import Decider
    from agot_adjudicator.engine.mustering import parse_musters
    from agot_adjudicator.engine.raids import legal_targets
    from agot_adjudicator.engine.support import support_areas
    from agot_adjudicator.io.submissions import collect
    from agot_adjudicator.workflow.validate import house_problems

    checked = {"ships": 0, "targets": 0, "support": 0, "retreats": 0}
    for state in _random_states(ruleset):
        for house in state.order_of_play():
            text = order_template(state, ruleset, house)
            doc = _doc(uncomment(text))
            assert schema_problems(doc, "orders") == [], text
            subs, problems = collect([doc], state, ruleset)
            problems += house_problems(subs.section(house), state, ruleset)
            assert problems == [], (state.round, state.phase, house, problems)

            def ctx(s: GameState) -> Context:
                return Context(ruleset, s, Inputs(), Decider({}))

            for castle, ships in _suggested(text, "ships").items():
                for ship in ships:
                    steps = parse_musters(ctx(state), house, castle, [ship])
                    # the sea is legal; only the supply or unit limit may still refuse the ship
                    assert not isinstance(steps, str) or steps.endswith(("R9)", "(R0.4)")), steps
                    checked["ships"] += 1
            for origin, targets in _suggested(text, "may target").items():
                for target in targets:
                    trial = state.copy()
                    trial.areas[origin].order = "raid"
                    trial.areas[target].order = "support"
                    assert target in legal_targets(ctx(trial), house, origin), (origin, target)
                    checked["targets"] += 1
            for origin, reach in _suggested(text, "battles in").items():
                for target in reach:
                    trial = state.copy()
                    trial.areas[origin].order = "support"
                    assert origin in support_areas(ctx(trial), target), (origin, target)
                    checked["support"] += 1
            section = re.search(r"^#   retreats:\n((?:#     .*\n)+)", text, re.M)
            for line in section.group(1).splitlines() if section else []:
                area_id, _, options = line[2:].strip().partition(": ")
                assert options.strip("[]").split(", ") == retreat_options(state, ruleset, house,
                                                                          area_id)
                checked["retreats"] += 1
    assert all(n > 20 for n in checked.values()), checked


def test_template_from_a_game_names_the_game_check(tmp_path: Path) -> None:
    """From a game directory the skeleton names ``agot validate --game`` (the player has no
    state file: it holds every hand), from a state file ``agot validate STATE``."""
    runner = CliRunner()
    game = tmp_path / "g"
    assert runner.invoke(main, ["new", "--players", "3", "--seed", "4", "--game", str(game)]).exit_code == 0
    from_game = runner.invoke(main, ["template", "--game", str(game), "--house", "stark"])
    assert from_game.exit_code == 0, from_game.output
    assert "Check it before sending: the moderator runs agot validate --game GAME THIS_FILE" \
        in from_game.output
    assert "add a line `secret: …` below `house:`" in from_game.output  # agot new keeps secrets
    from_state = runner.invoke(main, ["template", str(game / "round-01" / "state.yaml"),
                                      "--house", "stark"])
    assert "agot validate STATE THIS_FILE" in from_state.output
    assert "secret: …" not in from_state.output
    bare = tmp_path / "bare"
    assert runner.invoke(main, ["new", "--players", "3", "--seed", "4", "--no-secrets",
                                "--game", str(bare)]).exit_code == 0
    assert "secret: …" not in runner.invoke(main, ["template", "--game", str(bare),
                                                    "--house", "stark"]).output
