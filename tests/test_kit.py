"""The player's kit (issue 30): a house's view of the board, and `validate`, `template`,
`show` and `preview` on it, on the player's machine, with the judge's verdict."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from kit_play import KitGame, write_view

from agot_adjudicator.cli import main
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.reading import load_yaml

GAMES = [(7_318_220_946_551_093_817, 3, 2), (12_005_443_871_090_226_341, 4, 2),
         (7_318_220_946_551_093_822, 4, 2)]
"""(seed, players, rounds); the third game's round 2 reveals a Winter is Coming (R3.2)."""


@pytest.mark.parametrize(("seed", "players", "rounds"), GAMES,
                         ids=[f"{p}p-{r}rounds" for _, p, r in GAMES])
def test_the_view_gives_the_judges_verdict_at_every_stop(runner, ruleset, tmp_path, seed,
                                                          players, rounds):
    """Differential: at every stop, each house's candidate files (as stored, the reply with
    its answers, a wrong answer, a wrong order) get the same problems and warnings, in the
    same located words, from `validate VIEW` as from the judge (`validate --game`, the
    verdict inbox gives, RUL-P8-8); and no view holds another house's secret (P7)."""
    game = KitGame(lambda *a: runner.invoke(main, [str(x) for x in a]), ruleset, tmp_path,
                   seed, players)
    for _ in range(rounds):
        game.play_round()
    assert game.differ == [], "\n".join(game.differ[:3])
    assert game.same > 15 * rounds
    assert game.offline_misses == 0
    if seed == GAMES[2][0]:
        assert game.shuffled > 0  # replayed offline with a stand-in seed
    assert game.private_checks > 3 * rounds
    assert {"hand", "orders", "plan"} <= set(game.kinds)


def _game(runner, tmp_path: Path) -> Path:
    game = tmp_path / "north"
    secrets = tmp_path / "secrets.txt"
    done = runner.invoke(main, ["new", "--players", "3", "--seed", "7318220946551093817",
                                "--game", str(game), "--secrets-out", str(secrets)])
    assert done.exit_code == 0, done.output
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 3
    return game


def _secret(tmp_path: Path, house: str) -> str:
    for line in (tmp_path / "secrets.txt").read_text().splitlines():
        if line.startswith(house):
            return line.split()[-1]
    raise AssertionError(house)


def test_a_player_with_only_the_mail_writes_checks_and_sends(runner, ruleset, tmp_path):
    """End to end: the view of the house's mail, `template VIEW`, orders in display names with
    the secret, `validate VIEW` (the judge's verdict), `preview`, then `agot inbox` accepts the
    same text: no game directory on the player's side."""
    game = _game(runner, tmp_path)
    player = tmp_path / "player"
    player.mkdir()
    # All the player has: the house's mail, with its view attached.
    import email

    msg = email.message_from_bytes((current_round(game).path / "mail" / "stark.eml").read_bytes())
    view = player / "stark.view.yaml"
    for part in msg.walk():
        if part.get_filename() == "stark.view.yaml":
            view.write_bytes(part.get_payload(decode=True))
    assert view.is_file()
    skeleton = runner.invoke(main, ["template", str(view)])
    assert skeleton.exit_code == 0, skeleton.output
    assert "agot validate VIEW THIS_FILE" in skeleton.stdout and "secret" in skeleton.stdout
    orders = player / "orders.yaml"
    orders.write_text(
        "format: agot-orders/1\nround: 1\nhouse: Stark\n"
        f"secret: {_secret(tmp_path, 'stark')}\n"
        "orders:\n  Winterfell: March +1\n  White Harbor: Support\n  The Shivering Sea: Raid\n"
        "plans:\n  marches:\n    - from: Winterfell\n      moves: {Moat Cailin: [Knight]}\n")
    checked = runner.invoke(main, ["validate", str(view), str(orders)])
    assert checked.exit_code == 0, checked.output
    assert "March from Winterfell: 1 knight to Moat Cailin" in checked.stdout
    assert "the verdict the judge gives" in checked.stdout
    shown = runner.invoke(main, ["show", str(view)])
    assert shown.exit_code == 0 and "view of stark" in shown.stdout
    preview = runner.invoke(main, ["preview", str(view), str(orders)])
    assert preview.exit_code == 0, preview.output
    # The judge takes the same text as a message, and its verdict is the kit's.
    inbox = runner.invoke(main, ["inbox", "--game", str(game), str(orders)])
    assert inbox.exit_code == 0, inbox.output
    assert load_yaml(current_round(game).orders_dir / "stark.yaml").data["orders"] == {
        "winterfell": "march_plus1", "white_harbor": "support", "the_shivering_sea": "raid"}
    # Chinese: the same verdict said in simplified Chinese.
    zh = runner.invoke(main, ["validate", "--lang", "zh-Hans", str(view), str(orders)])
    assert zh.exit_code == 0 and "从临冬城行军" in zh.stdout


def test_a_wrong_order_is_refused_by_the_kit_as_by_the_judge(runner, tmp_path):
    game = _game(runner, tmp_path)
    view = tmp_path / "stark.view.yaml"
    write_view(runner, game, view)
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: agot-orders/1\nround: 1\nhouse: stark\n"
                   "orders: {winterfell: march_plus1, white_harbor: march_plus1}\n")
    kit = runner.invoke(main, ["validate", str(view), str(bad)])
    judge = runner.invoke(main, ["validate", "--game", str(game), str(bad)])
    assert kit.exit_code == judge.exit_code == 1
    assert [line for line in kit.stderr.splitlines() if line.startswith("error:")] == [
        line for line in judge.stderr.splitlines() if line.startswith("error:")]


def test_bad_views_are_located_errors(runner, tmp_path):
    """Orders of H on G's view, a view edited by hand, a view from an older stop: each a
    located error, exit 1, no traceback."""
    game = _game(runner, tmp_path)
    views = {}
    for house in ("stark", "lannister"):
        views[house] = tmp_path / f"{house}.view.yaml"
        done = runner.invoke(main, ["show", "--game", str(game), "--house", house, "--format",
                                    "view", "-o", str(views[house])])
        assert done.exit_code == 0, done.output
    orders = tmp_path / "o.yaml"
    orders.write_text("format: agot-orders/1\nround: 1\nhouse: stark\n"
                      "orders: {winterfell: march_plus1}\n")
    other = runner.invoke(main, ["validate", str(views["lannister"]), str(orders)])
    assert other.exit_code == 1
    assert "o.yaml:3:8: $.house: this is" in other.stderr and "view of lannister" in other.stderr
    tampered = tmp_path / "t.view.yaml"
    text = views["stark"].read_text()
    assert '"power": 5' in text
    tampered.write_text(text.replace('"power": 5', '"power": 9', 1))
    edited = runner.invoke(main, ["validate", str(tampered), str(orders)])
    assert edited.exit_code == 1 and "$.sha256: this view was changed" in edited.stderr
    assert "Traceback" not in edited.output
    # A view whose hash fits but whose board is no state: located, never a traceback.
    import yaml

    from agot_adjudicator.workflow.kit import content_sha256, view_text

    crafted = yaml.safe_load(views["stark"].read_text())
    del crafted["board"]["tracks"]["fiefdoms"]
    crafted["sha256"] = content_sha256(crafted)
    tampered.write_text(view_text(crafted))
    broken = runner.invoke(main, ["validate", str(tampered), str(orders)])
    assert broken.exit_code == 1, broken.output
    assert "$.board: $.tracks: 'fiefdoms' is a required property" in broken.stderr
    old = tmp_path / "old.view.yaml"
    shutil.copy(views["stark"], old)
    (current_round(game).orders_dir / "stark.yaml").write_text(orders.read_text())
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 3
    stale = runner.invoke(main, ["validate", "--game", str(game), str(old)])
    assert stale.exit_code == 1
    assert "this view is stale: it shows round 1, run 1" in stale.stderr
    assert "the judge's board is round 1, run 2" in stale.stderr
    fresh = tmp_path / "new.view.yaml"
    write_view(runner, game, fresh)
    assert runner.invoke(main, ["validate", "--game", str(game), str(fresh)]).exit_code == 0


def test_the_view_schema_and_the_secret_line(runner):
    shown = runner.invoke(main, ["schema", "view"])
    assert shown.exit_code == 0 and "agot-view/1" in shown.stdout
    orders = runner.invoke(main, ["schema", "orders"])
    assert '"secret"' in orders.stdout


def test_each_house_mail_carries_its_view(runner, tmp_path):
    """Item 4 of issue 30: a stop's mail of each house carries that house's view (the file
    `show --format view` writes), attached to its .eml; a reply that sends the view back with
    its orders in the body is read for the orders (the view is no submission)."""
    import email

    game = _game(runner, tmp_path)
    mail = current_round(game).path / "mail"
    for house in ("stark", "lannister", "baratheon"):
        shown = runner.invoke(main, ["show", "--game", str(game), "--house", house,
                                     "--format", "view"])
        assert (mail / f"{house}.view.yaml").read_text() == shown.stdout
        msg = email.message_from_bytes((mail / f"{house}.eml").read_bytes())
        parts = {p.get_filename(): p for p in msg.walk() if p.get_filename()}
        assert parts[f"{house}.view.yaml"].get_content_type() == "application/yaml"
        assert parts[f"{house}.view.yaml"].get_payload(decode=True).decode() == shown.stdout
        assert f"agot validate {house}.view.yaml ORDERS" in (mail / f"{house}.txt").read_text(
        ).replace("\n", " ")
    reply = email.message.EmailMessage()
    reply["From"], reply["Subject"] = "ned@example.org", "Re: round 1"
    reply.set_content("format: agot-orders/1\nround: 1\nhouse: stark\n"
                      f"secret: {_secret(tmp_path, 'stark')}\n"
                      "orders: {winterfell: march_plus1}\n")
    view = (mail / "stark.view.yaml").read_bytes()
    reply.add_attachment(view, maintype="application", subtype="yaml",
                         filename="stark.view.yaml")
    sent = tmp_path / "reply.eml"
    sent.write_bytes(reply.as_bytes())
    taken = runner.invoke(main, ["inbox", "--game", str(game), str(sent)])
    assert taken.exit_code == 0, taken.output
    assert load_yaml(current_round(game).orders_dir / "stark.yaml").data["orders"] == {
        "winterfell": "march_plus1"}


def test_preview_fights_each_pair_of_house_cards(runner, tmp_path):
    """Item 3 of issue 30: a march into another house's units, the defender's order guessed
    (--assume): both sides' strength before cards (R6.3) and the outcome of every pair of
    house cards (7 × 7), fought by the engine; the game directory is not touched."""
    import hashlib

    import yaml

    game = tmp_path / "g"
    assert runner.invoke(main, ["new", "--players", "3", "--seed", "7318220946551093817",
                                "--game", str(game)]).exit_code == 0
    start = game / "round-01" / "state.yaml"
    data = yaml.safe_load(start.read_text())
    data["areas"]["moat_cailin"] = {"house": "lannister", "units": ["footman"]}
    start.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 3
    view = tmp_path / "stark.view.yaml"
    write_view(runner, game, view)
    orders = tmp_path / "orders.yaml"
    orders.write_text("format: agot-orders/1\nround: 1\nhouse: Stark\n"
                      "orders: {Winterfell: March +1}\nplans:\n  marches:\n"
                      "    - from: Winterfell\n      moves: {Moat Cailin: [Footman, Knight]}\n")
    guess = tmp_path / "guess.yaml"
    guess.write_text("format: agot-orders/1\nround: 1\nhouses:\n"
                     "  lannister:\n    orders: {moat_cailin: defense_plus1}\n")

    def tree() -> str:
        return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(game.rglob("*"))
                                       if p.is_file())).hexdigest()

    before = tree()
    shown = runner.invoke(main, ["preview", str(view), str(orders), "--assume", str(guess)])
    assert shown.exit_code == 0, shown.output
    assert tree() == before
    out = shown.stdout
    assert "Battle for Moat Cailin: Stark attacks from Winterfell, Lannister defends (R6)." in out
    assert "Stark 4: units 3, order +1, support none" in out
    assert "Lannister 2: units 1, order +1, support none" in out
    pairs = [line for line in out.splitlines() if " vs " in line]
    assert len(pairs) == 49
    assert "    Eddard Stark vs Tywin Lannister: Stark wins, 7 to 5" in pairs
    zh = runner.invoke(main, ["preview", "--lang", "zh-Hans", str(view), str(orders),
                              "--assume", str(guess)])
    assert zh.exit_code == 0 and "卡林湾之战" in zh.stdout
    unguessed = runner.invoke(main, ["preview", str(view), str(orders)])
    assert "Lannister 1: units 1, order +0" in unguessed.stdout  # no order: the default


def test_a_new_players_first_tries_are_told_what_to_give(runner, tmp_path):
    """Issue 30's first two tries: an order file alone, or --game on a folder that is not a
    game directory: a usage error that names the view (exit 2), not a state's errors."""
    orders = tmp_path / "r04-orders.yaml"
    orders.write_text("format: agot-orders/1\nround: 4\nhouse: tyrell\n")
    alone = runner.invoke(main, ["validate", str(orders)])
    assert alone.exit_code == 2 and "is an order file" in alone.output
    assert "agot validate VIEW" in alone.output and "agot-state" not in alone.output
    here = runner.invoke(main, ["validate", "--game", str(tmp_path), str(orders)])
    assert here.exit_code == 2 and "not a game directory" in here.output
    assert "agot validate VIEW FILE" in here.output
