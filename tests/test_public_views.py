"""`diff` and `whatif` with `--public` and `--house H` (issue 15.6, docs/protocol.md P7); the
default stays the moderator's view."""

from __future__ import annotations

import json
from pathlib import Path

from agot_adjudicator.cli import main
from agot_adjudicator.io.reading import load_yaml

DEMO = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"
A, B = DEMO / "round-02" / "state.yaml", DEMO / "round-03" / "state.yaml"
NEXT = DEMO / "round-04" / "state.yaml"


def run(runner, *args):
    return runner.invoke(main, [str(a) for a in args])


def test_the_default_diff_is_the_moderator_s_view(runner):
    full = run(runner, "diff", A, B)
    assert full.exit_code == 4
    assert "westeros.decks" in full.stdout and "chain." in full.stdout
    assert "houses.lannister.hand: −" in full.stdout


def test_public_diff_hides_seed_decks_chain_and_hands(runner):
    public = run(runner, "diff", A, B, "--public")
    assert public.exit_code == 4
    out = public.stdout
    assert out.startswith(f"public view: {A} → {B}\n--- {A}\n+++ {B}\n")
    for secret in ("westeros.decks", "chain.", "game.seed", "sha256"):
        assert secret not in out
    hands = [line for line in out.splitlines() if ".hand:" in line]
    assert hands and all(line.endswith(" cards") for line in hands)
    b = load_yaml(B).data
    for house, data in b["houses"].items():
        for card in data["hand"]:
            assert card not in out, (house, card)
    assert "round: 2 → 3" in out


def test_house_view_adds_that_house_s_own_hand(runner):
    a, b = load_yaml(A).data, load_yaml(B).data
    house = next(h for h in b["houses"] if a["houses"][h]["hand"] != b["houses"][h]["hand"])
    other = next(h for h in b["houses"] if h != house)
    mine = run(runner, "diff", A, B, "--house", house)
    assert mine.exit_code == 4 and mine.stdout.startswith(f"{house}'s view: ")
    assert any(line.strip().startswith(f"houses.{house}.hand: −") or
               line.strip().startswith(f"houses.{house}.hand: +")
               for line in mine.stdout.splitlines()), mine.stdout
    assert all(card not in mine.stdout for card in b["houses"][other]["hand"])
    doc = json.loads(run(runner, "diff", A, B, "--house", house, "--format", "json").stdout)
    assert doc["view"] == house and doc["equal"] is False
    assert not any(c["path"].startswith(("westeros.decks", "chain", "game.seed"))
                   for c in doc["changes"])


def test_a_view_with_only_secret_differences_is_equal(runner, tmp_path):
    text = A.read_text(encoding="utf-8")
    seed = load_yaml(A).data["game"]["seed"]
    other = tmp_path / "other-seed.yaml"
    other.write_text(text.replace(f"seed: {seed}\n", "seed: 987654321987\n"), encoding="utf-8")
    full = run(runner, "diff", A, other)
    assert full.exit_code == 4 and "987654321987" in full.stdout
    public = run(runner, "diff", A, other, "--public")
    assert public.exit_code == 0 and "no differences" in public.stdout
    assert "987654321987" not in public.stdout


def test_view_options_are_checked(runner):
    both = run(runner, "diff", A, B, "--public", "--house", "stark")
    assert both.exit_code == 2 and "not both" in both.stderr
    typo = run(runner, "diff", A, B, "--house", "strak")
    assert typo.exit_code == 2 and "not a house" in typo.stderr


def test_whatif_columns_read_published_to_what_if(runner, tmp_path):
    rd = DEMO / "round-03"
    orders = sorted((rd / "orders").glob("*.yaml"))
    same = run(runner, "whatif", rd / "state.yaml", *orders, "--published", NEXT, "--public")
    assert same.exit_code == 0, same.output
    assert "no difference (public view)" in same.stdout
    late = tmp_path / "orders"
    late.mkdir()
    files = []
    for path in orders:
        data = path.read_text(encoding="utf-8")
        files.append(late / path.name)
        files[-1].write_text(data, encoding="utf-8")
    answers = next(f for f in files if f.name == "answers.yaml")
    march = "  r3/march@the_shivering_sea/stark:\n    moves:\n      the_narrow_sea: [ship]\n"
    assert march in answers.read_text(encoding="utf-8")
    answers.write_text(answers.read_text(encoding="utf-8").replace(
        march, "  r3/march@the_shivering_sea/stark:\n    moves: {}\n"), encoding="utf-8")
    full = run(runner, "whatif", rd / "state.yaml", *files, "--published", NEXT)
    view = run(runner, "whatif", rd / "state.yaml", *files, "--published", NEXT, "--public")
    assert full.exit_code == view.exit_code == 4, view.output
    assert "(published → what-if)" in full.stdout and "chain." in full.stdout
    assert view.stdout.startswith(f"what differs from {NEXT} (public view), published → what-if:")
    assert "the_narrow_sea: stark ship ×1 → ×0" in view.stdout
    assert "chain." not in view.stdout and "westeros.decks" not in view.stdout


def test_whatif_public_stop_lists_other_houses_by_id_and_kind(runner):
    rd = DEMO / "round-03"
    orders = [p for p in sorted((rd / "orders").glob("*.yaml")) if p.name != "answers.yaml"]
    orders = [p for p in orders if p.name != "tyrell.yaml"]
    full = run(runner, "whatif", rd / "state.yaml", *orders, "--published", NEXT)
    assert full.exit_code == 3, full.output
    assert "prompt:" in full.stdout
    public = run(runner, "whatif", rd / "state.yaml", *orders, "--published", NEXT, "--public")
    assert public.exit_code == 3
    assert "prompt:" not in public.stdout and "options:" not in public.stdout
    assert "- id: r3/orders/tyrell" in public.stdout and "kind: orders" in public.stdout
    mine = run(runner, "whatif", rd / "state.yaml", *orders, "--published", NEXT, "--house", "tyrell")
    assert mine.exit_code == 3 and "prompt:" in mine.stdout


def test_show_public_gives_hand_sizes_and_no_decks_or_seed(runner):
    data = load_yaml(A).data
    public = run(runner, "show", A, "--public")
    assert public.exit_code == 0, public.output
    assert "(public view)" in public.stdout.splitlines()[0]
    assert "Seed" not in public.stdout and "Westeros decks" not in public.stdout
    for house in data["houses"].values():
        assert all(card not in public.stdout for card in house["hand"])
    assert f"{len(data['houses']['stark']['hand'])} cards" in public.stdout
    moderator = run(runner, "show", A)
    assert "(moderator's view)" in moderator.stdout and "Seed" in moderator.stdout
    assert run(runner, "show", A, "--public", "--house", "stark").exit_code == 2


def test_whatif_house_stop_asks_in_the_house_language(runner):
    """A house's view of a stopped what-if in Chinese: the header and its own prompt in
    Chinese, another house's decision by id and kind only."""
    rd = DEMO / "round-03"
    orders = [p for p in sorted((rd / "orders").glob("*.yaml"))
              if p.name not in ("answers.yaml", "tyrell.yaml")]
    mine = run(runner, "whatif", rd / "state.yaml", *orders, "--published", NEXT, "--house",
               "tyrell", "--lang", "zh-Hans")
    assert mine.exit_code == 3
    assert "个决定待定（提利尔的视角" in mine.stdout, mine.stdout
    prompt = next(line for line in mine.stdout.splitlines() if "prompt:" in line)
    assert "提利尔" in prompt and "Place" not in prompt
