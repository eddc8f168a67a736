"""`agot site`, `agot map --game` and PNG pictures (issue 16): the demo game on the web.

The browser tests drive headless Chromium (tests/browser.py). Without Chromium
they skip locally and fail under CI (CI=true), where .ci/run installs it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import sys
import zlib
from itertools import pairwise
from pathlib import Path
from urllib.parse import unquote, urldefrag, urljoin, urlparse
from xml.etree import ElementTree

import html5lib
import pytest
from browser import NEEDS, Chromium, find_chromium
from ruamel.yaml import YAML

from agot_adjudicator.cli import main
from agot_adjudicator.io.gamedir import round_dirs
from agot_adjudicator.io.reading import load_yaml
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.markdown import markdown_html
from agot_adjudicator.render.picture import HOUSE_STYLES, round_play
from agot_adjudicator.render.png import svg_to_png
from agot_adjudicator.workflow import site as site_workflow

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"
SVG = re.compile(r"^\s*<\?xml")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from click.testing import CliRunner

    out = tmp_path_factory.mktemp("site") / "demo"
    result = CliRunner().invoke(main, ["site", "--game", str(DEMO), "-o", str(out), "--no-png"])
    assert result.exit_code == 0, result.output
    return out


def _pages(site: Path) -> list[Path]:
    return sorted(site.glob("*.html"))


# --- the site's files ------------------------------------------------------------------------

def test_site_has_an_index_a_page_per_round_and_the_pictures(site):
    rounds = [rd for rd in round_dirs(DEMO) if rd.report.is_file()]
    assert [p.name for p in _pages(site)] == ["index.html"] + [f"{rd.name}.html" for rd in rounds]
    for rd in rounds:
        assert (site / rd.name / "board.svg").read_bytes() == rd.board.read_bytes()
        assert (site / rd.name / "moves.svg").read_bytes() == rd.moves.read_bytes()
    index = (site / "index.html").read_text()
    final = load_yaml(round_dirs(DEMO)[-1].state).data["winner"]["houses"]
    for winner in final:  # the winners the final state names, as the index words them
        assert f"{winner.capitalize()}</strong>" in index and "won the game" in index
    for house in ("Stark", "Lannister", "Baratheon", "Greyjoy", "Tyrell"):
        assert house in index
    for rd in rounds:
        assert f'href="{rd.name}.html"' in index


def test_every_page_parses_as_strict_html5(site):
    parser = html5lib.HTMLParser(strict=True)
    for page in _pages(site):
        parser.parse(page.read_text(encoding="utf-8"))  # raises on any parse error
    for picture in site.glob("round-*/*.svg"):
        ElementTree.parse(picture)


def test_pages_are_self_contained_and_need_no_javascript(site):
    for page in _pages(site):
        text = page.read_text()
        assert "<script" not in text.lower(), page.name
        for target in re.findall(r'(?:href|src)="([^"]*)"', text):
            assert not urlparse(target).scheme and not target.startswith("//"), (page.name, target)
            path = urldefrag(target)[0]
            if path:
                assert (site / unquote(path)).is_file(), (page.name, target)
    for picture in site.glob("round-*/*.svg"):
        text = picture.read_text()
        assert "href=" not in text and "@import" not in text and "url(http" not in text


def test_round_page_has_pager_report_timeline_and_rules(site):
    page = (site / "round-05.html").read_text()
    assert 'href="round-04.html" rel="prev" accesskey="p"' in page
    assert 'href="round-06.html" rel="next" accesskey="n"' in page
    assert 'accesskey="i"' in page
    assert "<h1>Round 5</h1>" in page and 'id="report"' in page and 'id="timeline"' in page
    events = (DEMO / "round-05" / "log.jsonl").read_text().splitlines()[1:]  # after the record line
    assert page.count('<li data-type="') == len(events)
    phases = re.findall(r'<details class="phase" data-phase="([a-z]+)">', page)
    assert phases == ["westeros", "planning", "action"]  # the timeline folded by phase
    assert "[R6]" in page and "[R5.3]" in page
    alt = re.search(r'<div class="map"><svg [^>]*aria-label="([^"]*)"', page).group(1)
    for battle in _battles(5):  # the map's description names each battle's result
        assert _result(battle) in alt
    first = (site / "round-01.html").read_text()
    last = (site / "round-10.html").read_text()
    assert 'rel="prev"' not in first and 'rel="next"' not in last


def test_pages_have_one_h1_no_skipped_heading_level_and_alt_text(site):
    for page in _pages(site):
        text = page.read_text()
        levels = [int(n) for n in re.findall(r"<h([1-6])[ >]", text)]
        assert levels[0] == 1 and levels.count(1) == 1, page.name
        assert all(b - a <= 1 for a, b in pairwise(levels)), (page.name, levels)
        images = re.findall(r"<img [^>]*>", text)
        maps = re.findall(r'<svg [^>]*role="img"[^>]*>', text)
        assert images or maps, page.name
        assert all(re.search(r'alt="[^"]{20,}"', img) for img in images), page.name
        assert all(re.search(r'aria-(label="[^"]{20,}"|labelledby=)', m) for m in maps), page.name
        assert '<html lang="en">' in text and 'name="viewport"' in text


def test_markdown_is_escaped():
    hostile = "# <script>x</script>\n\n- `a<b>` **c&d** [l](javascript:1)\n\n| h |\n|---|\n| <i> |\n"
    out = markdown_html(hostile)
    assert "<script" not in out and "<i>" not in out and "<b>" not in out
    assert "&lt;script&gt;" in out and "<code>a&lt;b&gt;</code>" in out and "&amp;" in out
    assert 'href="javascript' not in out


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


@pytest.mark.parametrize("house", sorted(HOUSE_STYLES))
def test_house_badges_have_readable_contrast(house):
    fill, ink, _ = HOUSE_STYLES[house]
    light, dark = sorted((_luminance(fill), _luminance(ink)), reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5, house


# --- privacy ---------------------------------------------------------------------------------

def _site_text(site: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(site.rglob("*"))
                     if p.is_file() and p.suffix in (".html", ".svg", ".css"))


def test_site_shows_no_hand_card_that_was_never_played(site):
    """Cards still in hand at the end and never named in a report are secret (R6.4)."""
    reports = "\n".join(rd.report.read_text() for rd in round_dirs(DEMO) if rd.report.is_file())
    final = YAML(typ="safe").load(round_dirs(DEMO)[-1].state.read_text())
    names = {c: card.name for c, card in load_ruleset().house_cards.items()}
    secret = [c for h in final["houses"].values() for c in h["hand"]
              if c not in reports and names[c] not in reports]
    assert secret, "the demo should end with some cards never played"
    text = _site_text(site)
    for card in secret:
        assert card not in text and names[card] not in text, card


def test_site_carries_no_seed_hand_deck_or_plan(tmp_path, monkeypatch, runner):
    """Every state the site reads gets canary secrets; none of them may reach a page or picture."""
    real = site_workflow.load_state
    canaries = {"seed": 918273645546372819, "hand": "canary_hand_card", "deck": "canary_deck_card"}

    def load_with_canaries(path, ruleset, *read):
        doc, state = real(path, ruleset, *read)
        state.seed = canaries["seed"]
        for hs in state.houses.values():
            hs.hand = [canaries["hand"]]
        state.decks = {deck: [canaries["deck"]] for deck in state.decks}
        return doc, state

    monkeypatch.setattr(site_workflow, "load_state", load_with_canaries)
    out = tmp_path / "site"
    result = runner.invoke(main, ["site", "--game", str(DEMO), "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = _site_text(out)
    assert str(canaries["seed"]) not in text
    assert canaries["hand"] not in text and canaries["deck"] not in text
    plans = [line.strip() for rd in round_dirs(DEMO) for p in rd.orders()
             for line in p.read_text().splitlines() if "priority:" in line]
    assert plans
    assert not [p for p in plans if p in text]


# --- refusing a bad record -------------------------------------------------------------------

@pytest.mark.parametrize("damage", ["log", "moves", "state", "missing-state"])
def test_tampered_or_missing_round_is_refused_like_replay(tmp_path, runner, damage):
    game = tmp_path / "demo"
    shutil.copytree(DEMO, game)
    if damage == "log":
        path = game / "round-03" / "log.jsonl"
        path.write_text(path.read_text().replace('"raven_swap"', '"raven_kept"', 1))
    elif damage == "moves":
        path = game / "round-04" / "moves.svg"
        path.write_text(path.read_text().replace("wins", "loses", 1))
    elif damage == "state":
        path = game / "round-06" / "state.yaml"
        path.write_text(path.read_text().replace("wildling_threat: ", "wildling_threat: 1", 1))
    else:
        (game / "round-07" / "state.yaml").unlink()
    out = tmp_path / "site"
    replay = runner.invoke(main, ["replay", str(game)])
    built = runner.invoke(main, ["site", "--game", str(game), "-o", str(out)])
    assert replay.exit_code == 4, replay.output
    assert built.exit_code == 4 and built.stdout == replay.stdout
    assert not out.exists()


def test_a_gap_in_the_rounds_is_refused_like_replay(tmp_path, runner):
    game = tmp_path / "demo"
    shutil.copytree(DEMO, game)
    shutil.rmtree(game / "round-05")
    out = tmp_path / "site"
    replay = runner.invoke(main, ["replay", str(game)])
    built = runner.invoke(main, ["site", "--game", str(game), "-o", str(out)])
    assert replay.exit_code == built.exit_code == 2
    assert "round-05 is missing" in built.stderr
    assert built.stderr.splitlines()[0] == replay.stderr.splitlines()[0]
    assert not out.exists()


def test_a_game_in_progress_has_no_result_yet(tmp_path, runner):
    game = tmp_path / "demo"
    shutil.copytree(DEMO, game)
    for rd in round_dirs(game)[6:]:
        shutil.rmtree(rd.path)
    for name in ("report.md", "log.jsonl", "board.svg", "moves.svg"):
        (game / "round-06" / name).unlink()
    out = tmp_path / "site"
    result = runner.invoke(main, ["site", "--game", str(game), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.glob("*.html")) == ["index.html"] + [
        f"round-{n:02d}.html" for n in range(1, 6)]
    index = (out / "index.html").read_text()
    assert "Now: round 6" in index and 'id="result"' not in index
    assert 'rel="next"' not in (out / "round-05.html").read_text()


def test_site_refuses_to_write_into_the_game(tmp_path, runner):
    game = tmp_path / "demo"
    shutil.copytree(DEMO, game)
    result = runner.invoke(main, ["site", "--game", str(game), "-o", str(game / "web")])
    assert result.exit_code == 2 and "game directory" in result.stderr
    assert not (game / "web").exists()


# --- the round picture -----------------------------------------------------------------------

def test_round_picture_draws_orders_moves_battles_raids_and_losses(tmp_path, runner):
    """Round 4 of the frozen 0.1.0 demo record (tests/data/records; a record that does not
    change when the demo is regenerated) has orders, a raid and losses; the picture is drawn
    under the archived ruleset its state names."""
    record = ROOT / "tests" / "data" / "records" / "0.1.0" / "demo"
    out = tmp_path / "r4.svg"
    result = runner.invoke(main, ["map", "--game", str(record), "--round", "4", "-o", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    ElementTree.fromstring(svg.encode())
    log = [json.loads(line) for line in (record / "round-04" / "log.jsonl").read_text().splitlines()]
    play = round_play(log, 4)
    assert play.orders and play.raids and play.westeros_losses
    assert svg.count('class="order"') == len(play.orders)
    for house, area, target, removed in play.raids:
        assert (f'class="raid" data-house="{house}" data-from="{area}" data-to="{target}" '
                f'data-removed="{removed}"') in svg
    assert svg.count('class="destroyed"') == len(play.destroyed)
    assert svg.count('class="westeros-loss"') == sum(
        len({cause for _, _, cause in entries}) for entries in play.westeros_losses.values())
    for number in range(1, 11):  # the live demo: each round's recorded picture, drawn again
        drawn = tmp_path / f"r{number}.svg"
        assert runner.invoke(main, ["map", "--game", str(DEMO), "--round", str(number),
                                    "-o", str(drawn)]).exit_code == 0
        assert drawn.read_text() == (DEMO / f"round-{number:02d}" / "moves.svg").read_text()
        pictured = drawn.read_text()
        fights = [e for e in _log(number) if e["type"] in ("battle", "neutral_attack")]
        assert pictured.count('class="battle"') == len(fights)
        for battle in _battles(number):
            assert f"⚔ {_result(battle)}" in pictured
        moved = [e for e in _log(number) if e["type"] == "move"]
        assert pictured.count('class="move"') >= len(moved)


def _log(number: int) -> list[dict]:
    lines = (DEMO / f"round-{number:02d}" / "log.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if '"type":"record"' not in line]


def _battles(number: int) -> list[dict]:
    return [e for e in _log(number) if e["type"] == "battle"]


def _result(battle: dict) -> str:
    """How pictures word a battle's result: "Stark wins 3–2"."""
    winner, loser = battle["winner"], battle["loser"]
    return f"{winner.capitalize()} wins {battle['totals'][winner]}–{battle['totals'][loser]}"


def test_round_picture_shows_the_orders_after_the_raven(tmp_path):
    """R4.6: the swapped order is the one drawn."""
    swap = next(rd for rd in round_dirs(DEMO) if rd.log.is_file() and '"raven_swap"' in rd.log.read_text())
    event = next(e for e in map(json.loads, swap.log.read_text().splitlines()) if e["type"] == "raven_swap")
    svg = swap.moves.read_text()
    assert re.search(rf'id="area-{event["area"]}"[^>]*data-order="{event["new"]}"', svg)


def test_map_game_defaults_to_the_last_round_and_refuses_unplayed_rounds(tmp_path, runner):
    out = tmp_path / "last.svg"
    assert runner.invoke(main, ["map", "--game", str(DEMO), "-o", str(out)]).exit_code == 0
    assert out.read_text() == (DEMO / "round-10" / "moves.svg").read_text()
    result = runner.invoke(main, ["map", "--game", str(DEMO), "--round", "11", "-o", str(out)])
    assert result.exit_code == 2 and "not adjudicated" in result.stderr
    result = runner.invoke(main, ["map", "--game", str(DEMO), "--round", "12", "-o", str(out)])
    assert result.exit_code == 2 and "no round-12" in result.stderr
    result = runner.invoke(main, ["map", "--game", str(DEMO), "-o", str(tmp_path / "x.gif")])
    assert result.exit_code == 2 and ".svg or .png" in result.output


# --- PNG -------------------------------------------------------------------------------------

def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def _png_pixels(data: bytes) -> bytes:
    """The decompressed image data (filter bytes included): enough to tell images apart."""
    pos, chunks = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            chunks.append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    return zlib.decompress(b"".join(chunks))


def test_map_writes_a_png_the_same_twice(tmp_path, runner):
    state = str(DEMO / "round-05" / "state.yaml")
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    for out in (a, b):
        result = runner.invoke(main, ["map", state, "-o", str(out)])
        assert result.exit_code == 0, result.output
    assert a.read_bytes() == b.read_bytes()
    svg = runner.invoke(main, ["map", state, "-o", str(tmp_path / "a.svg")])
    assert svg.exit_code == 0
    width = re.search(r'width="([\d.]+)"', (tmp_path / "a.svg").read_text()).group(1)
    assert _png_size(a.read_bytes())[0] == round(float(width))
    result = runner.invoke(main, ["map", "--game", str(DEMO), "--round", "5", "-o", str(tmp_path / "m.png")])
    assert result.exit_code == 0 and _png_size((tmp_path / "m.png").read_bytes())[0] > 0


def test_png_text_uses_the_shipped_font():
    """System fonts are never loaded: text that renders at all comes from data/fonts."""
    empty = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"></svg>'
    text = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30" font-family="sans-serif">'
            '<text x="4" y="22" font-size="18">Winterfell ★</text></svg>')
    bold = text.replace("<text ", '<text font-weight="bold" ')
    pictures = {_png_pixels(svg_to_png(s)) for s in (empty, text, bold)}
    assert len(pictures) == 3


def test_png_without_resvg_says_how_to_install(tmp_path, runner, monkeypatch):
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    out = tmp_path / "board.png"
    result = runner.invoke(main, ["map", str(DEMO / "round-05" / "state.yaml"), "-o", str(out)])
    assert result.exit_code == 2
    assert "pip install 'agot-adjudicator[png]'" in result.stderr
    assert not out.exists()


# --- in a real browser -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def chromium():
    exe = find_chromium()
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"chromium or its driver is missing under CI (.ci/run installs them: {NEEDS})")
        pytest.skip(f"chromium or chromedriver not installed ({NEEDS}) — the browser checks need them")
    with Chromium(exe, width=1200, height=1400) as browser:
        yield browser


IMAGES = "[...document.images].map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])"
LINKS = "[...document.querySelectorAll('a[href]')].map(a => a.href)"
MAPS = "[...document.querySelectorAll('.map svg')].map(s => s.getBoundingClientRect().width)"
PAGE = f"({{images: {IMAGES}, maps: {MAPS}, links: {LINKS}, " \
       "h1: document.querySelector('h1')?.textContent, " \
       "scripts: document.scripts.length, wide: document.documentElement.scrollWidth})"


def test_browser_reports_a_broken_page(chromium, tmp_path):
    """The harness can fail: a missing picture and a console error are both caught."""
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html lang="en"><head><title>x</title></head><body>'
                    '<img src="missing.svg" alt="x"><script>console.error("boom")</script></body></html>')
    visit = chromium.visit(page.as_uri(), IMAGES)
    assert any("boom" in e for e in visit.errors)
    assert any("missing.svg" in e or "ERR_FILE_NOT_FOUND" in e for e in visit.errors)
    assert visit.value == [["missing.svg", True, 0]]


def test_every_page_loads_in_chromium_and_draws_its_pictures(chromium, site, tmp_path):
    start = (site / "index.html").as_uri()
    queue, seen, pictures = [start], {start}, set()
    while queue:
        url = queue.pop(0)
        visit = chromium.visit(url, PAGE)
        assert visit.errors == [], (url, visit.errors)
        info = visit.value
        assert info["h1"] and info["scripts"] == 0, url
        assert info["images"] or info["maps"], url
        assert all(width > 300 for width in info["maps"]), url  # maps drawn into the page
        for src, complete, width in info["images"]:
            pictures.add(urldefrag(urljoin(url, src))[0])
            assert (complete and width > 0) or src == "rounds.svg", (url, src)  # lazy: below
        for link in info["links"]:
            target = urldefrag(link)[0]
            assert target.startswith(site.as_uri()), (url, link)
            assert Path(unquote(urlparse(target).path)).is_file(), (url, link)
            if target.endswith(".html") and target not in seen:
                seen.add(target)
                queue.append(target)
            elif target.endswith(".svg"):
                pictures.add(target)
    assert len(seen) == len(_pages(site))
    for url in sorted(pictures):
        visit = chromium.visit(url, "document.documentElement.localName")
        assert visit.errors == [] and visit.value == "svg", url
    chromium.visit((site / "round-05.html").as_uri())
    shot = chromium.screenshot()
    artifacts = Path(os.environ.get("AGOT_TEST_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    (artifacts / "round-05.png").write_bytes(shot)
    width, height = _png_size(shot)
    assert width == 1200 and height > 1400


def test_pages_fit_a_phone_width(chromium, site):
    chromium.send("Emulation.setDeviceMetricsOverride",
                  {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}, session=True)
    try:
        for page in _pages(site):
            visit = chromium.visit(page.as_uri(), PAGE)
            assert visit.errors == [] and visit.value["wide"] <= 390, (page.name, visit.value["wide"])
    finally:
        chromium.send("Emulation.setDeviceMetricsOverride",
                      {"width": 1200, "height": 1400, "deviceScaleFactor": 1, "mobile": False},
                      session=True)


def test_round_state_used_by_the_site_is_the_recorded_one():
    """The moves picture is drawn over the round's own start state."""
    rd = round_dirs(DEMO)[4]
    state = GameState.from_dict(YAML(typ="safe").load(rd.state.read_text()))
    assert f'data-round="{state.round}"' in rd.moves.read_text()
