"""The message of every test that compares a recorded output (the demo game, compiled files,
published copies) with what the code makes now."""

REGENERATE = ("recorded outputs differ: if the change is intended, run "
              "`python scenarios/regenerate.py` and commit the result")


def demo_rounds(tmp_path, rounds: int = 1):
    """A game directory in ``tmp_path`` with the demo's first ``rounds`` rounds: round 1's
    state, every round's submissions (and the demo's rulesets), nothing adjudicated yet."""
    import shutil
    from pathlib import Path

    demo = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"
    game = Path(tmp_path) / "game"
    shutil.copytree(demo / "rulesets", game / "rulesets")
    for n in range(1, rounds + 1):
        name = f"round-{n:02d}"
        (game / name).mkdir(parents=True)
        if n == 1:
            shutil.copy(demo / name / "state.yaml", game / name / "state.yaml")
        shutil.copytree(demo / name / "orders", game / name / "orders")
    return game


def demo_ruleset():
    """The ruleset the demo game was played under (its states name it by content hash): the
    packaged one, or an archived one once the packaged ruleset has moved on (issue 17)."""
    from pathlib import Path

    from agot_adjudicator.io.rulesets import state_ruleset

    demo = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"
    found = state_ruleset(demo / "round-01" / "state.yaml", demo)
    assert found is not None, "agot knows the demo's ruleset"
    return found
