"""Pictures in Chinese (issue 18.5): every label of a zh-Hans/zh-Hant picture is Chinese, the
SVG names a CJK family first, English bytes are unchanged, a Chinese game's pictures replay byte
for byte, and the PNG draws Chinese text with the shipped Noto Sans CJK subsets, whose cmap
holds every character of the glossary and both catalogs."""

from __future__ import annotations

import itertools
import re
import struct
import unicodedata
import zlib
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml
from fontTools.ttLib import TTFont
from recorded import demo_rounds

from agot_adjudicator.cli import main
from agot_adjudicator.render.i18n import catalog_entries
from agot_adjudicator.render.picture import FONT, FONTS, _name_lines, render_round_svg, render_svg
from agot_adjudicator.render.png import CJK_FACES, FONT_DIR, needs_cjk, svg_to_png
from agot_adjudicator.render.svg import text_width
from agot_adjudicator.workflow.site import read_log
from agot_adjudicator.workflow.validate import load_state

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"
GLOSSARY = ROOT / "agot_adjudicator" / "data" / "first_edition" / "glossary.yaml"
SVG = "{http://www.w3.org/2000/svg}"
CHINESE = ("zh-Hans", "zh-Hant")

ALLOWED = re.compile(
    r"R\d+(?:\.\d+)*"          # rule ids
    r"|\bdemo\b"               # the game id
    r"|\b(?:I|II|III)\b")      # Westeros deck numbers
"""What a Chinese picture may hold in ASCII letters: rule ids, the game id, deck numbers."""


@pytest.fixture
def ruleset():
    """The demo's ruleset: these tests read the demo game, played under it."""
    from recorded import demo_ruleset

    return demo_ruleset()



def english_words(text: str) -> list[str]:
    """ASCII words (two letters or more) left after the allowed ids are taken out."""
    return re.findall(r"[A-Za-z]{2,}", ALLOWED.sub(" ", text))


def labels(svg: str) -> list[str]:
    """Every text a person reads in a picture: ``<text>`` contents and ``<title>`` tooltips."""
    root = ElementTree.fromstring(svg.encode("utf-8"))
    return [el.text or "" for el in root.iter() if el.tag in (f"{SVG}text", f"{SVG}title")]


def _state(path: Path, ruleset):
    return load_state(str(path), ruleset)[1]


def _rounds() -> list[Path]:
    rounds = sorted(DEMO.glob("round-*"))
    return [r for r, n in itertools.pairwise(rounds) if (r / "log.jsonl").is_file()
            and (n / "state.yaml").is_file()]


@pytest.mark.parametrize("lang", CHINESE)
def test_a_chinese_picture_has_no_english_label(ruleset, lang):
    """The board after every demo round, the round as played, an action-phase board with its
    orders, a house's view and a provisional board: no English word in any label or tooltip."""
    seen = 0
    for rd in _rounds():
        start = _state(rd / "state.yaml", ruleset)
        after = _state(rd.parent / f"round-{int(rd.name[-2:]) + 1:02d}" / "state.yaml", ruleset)
        pictures = [render_svg(after, ruleset, lang=lang),
                    render_round_svg(start, read_log(rd / "log.jsonl"), ruleset, lang=lang)]
        if rd.name == "round-04":
            house = after.order_of_play()[0]
            pictures += [render_svg(after, ruleset, house=house, lang=lang),
                         render_svg(after, ruleset, provisional=True, orders=True, lang=lang)]
        for svg in pictures:
            texts = labels(svg)
            left = english_words("\n".join(texts))
            assert left == [], f"{rd.name}: {sorted(set(left))}"
            seen += len(texts)
    assert seen > 5000


def test_a_chinese_picture_names_its_areas_and_a_cjk_font(ruleset):
    state = _state(DEMO / "round-05" / "state.yaml", ruleset)
    hans, hant = (render_svg(state, ruleset, lang=lang) for lang in CHINESE)
    assert 'font-family="\'Noto Sans CJK SC\'' in hans and 'font-family="\'Noto Sans CJK TC\'' in hant
    assert ">临冬城<" in hans and ">臨冬城<" in hant and "临冬城" not in hant
    assert ">外族威胁<" in hans and ">野蠻人威脅<" in hant  # the traditional rulebook's term
    # ids in attributes stay the same in every language
    ids = re.compile(r' (?:id|data-[a-z-]+)="[^"]*"')
    assert ids.findall(hans) == ids.findall(render_svg(state, ruleset))


def test_english_pictures_are_the_recorded_bytes(ruleset):
    """lang="en" is the default and the picture it always was: the demo's recorded board.svg
    and moves.svg, byte for byte, with the generic family only."""
    from agot_adjudicator.io.formats import MAKER

    rd = DEMO / "round-03"
    nxt = DEMO / "round-04"
    maker = re.search(r"<!-- written by (.*) -->", (rd / "board.svg").read_text()).group(1)
    assert maker == MAKER
    after = _state(nxt / "state.yaml", ruleset)
    board = render_svg(after, ruleset, maker=maker, lang="en")
    assert board == (rd / "board.svg").read_text(encoding="utf-8")
    moves = render_round_svg(_state(rd / "state.yaml", ruleset), read_log(rd / "log.jsonl"), ruleset,
                             maker, lang="en")
    assert moves == (rd / "moves.svg").read_text(encoding="utf-8")
    assert f'font-family="{FONT}"' in board and not needs_cjk(board)


def test_chinese_names_get_room_by_east_asian_width():
    """A wide character counts 1em: a long Chinese name gets a smaller size (or two lines) than
    its length in Latin letters would give, and never overflows its room."""
    for name in ("颤抖海", "多恩边疆地", "瓦雷利亚钢剑是很长的名字"):
        lines, size = _name_lines(name, 100)
        assert all(size * len(line) <= 100 for line in lines) or size == 11.0
        assert "".join(lines) == name
    assert text_width("多恩边疆地", 10) > text_width("Dornish", 10)
    assert _name_lines("多恩边疆地", 60)[1] <= _name_lines("Dornish", 60)[1]


def _game(tmp_path: Path, rounds: int = 1) -> Path:
    return demo_rounds(tmp_path, rounds)


def test_a_chinese_game_draws_its_pictures_in_its_language_and_replays(runner, tmp_path):
    game = _game(tmp_path, 2)
    for _ in range(2):
        result = runner.invoke(main, ["adjudicate", "--game", str(game), "--lang", "zh-Hant"])
        assert result.exit_code == 0, result.output
    for rd in ("round-01", "round-02"):
        for name in ("board.svg", "moves.svg"):
            svg = (game / rd / name).read_text(encoding="utf-8")
            assert "臨冬城" in svg and "Noto Sans CJK TC" in svg, (rd, name)
            assert english_words("\n".join(labels(svg))) == [], (rd, name)
    # agot map --game keeps the game's language unless --lang says otherwise
    out = tmp_path / "m.svg"
    assert runner.invoke(main, ["map", "--game", str(game), "--round", "2", "-o", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8") == (game / "round-02" / "moves.svg").read_text(encoding="utf-8")
    assert runner.invoke(main, ["map", "--game", str(game), "--round", "2", "-o", str(out),
                                "--lang", "en"]).exit_code == 0
    assert "Winterfell" in out.read_text(encoding="utf-8")
    # replay renders the pictures again in the recorded language, whatever the locale
    replayed = runner.invoke(main, ["replay", str(game)], env={"LANG": "zh_CN.UTF-8"})
    assert replayed.exit_code == 0, replayed.output
    board = game / "round-02" / "board.svg"
    board.write_text(board.read_text(encoding="utf-8").replace("臨冬城", "临冬城"), encoding="utf-8")
    assert runner.invoke(main, ["replay", str(game)]).exit_code != 0


def test_a_stopped_chinese_game_draws_now_svg_in_chinese(runner, tmp_path):
    game = _game(tmp_path, 1)
    (game / "round-01" / "orders" / "stark.yaml").unlink()
    result = runner.invoke(main, ["adjudicate", "--game", str(game), "--lang", "zh-Hans"])
    assert result.exit_code == 3, result.output
    now = (game / "round-01" / "now.svg").read_text(encoding="utf-8")
    assert "临时：暂停的裁定留下的棋盘，" in now and 'id="provisional"' in now
    assert english_words("\n".join(labels(now))) == []


def test_map_lang_option_and_locale(runner, tmp_path, monkeypatch):
    state = str(DEMO / "round-05" / "state.yaml")
    out = tmp_path / "b.svg"
    assert runner.invoke(main, ["map", state, "-o", str(out), "--lang", "zh-Hans"]).exit_code == 0
    assert "临冬城" in out.read_text(encoding="utf-8")
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    assert runner.invoke(main, ["map", state, "-o", str(out)]).exit_code == 0
    assert "臨冬城" in out.read_text(encoding="utf-8")
    assert runner.invoke(main, ["map", state, "-o", str(out), "--lang", "fr"]).exit_code == 2


# --- the shipped CJK font --------------------------------------------------------------------

def _glossary_names() -> str:
    data = yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))
    out = []
    for entries in data.values():
        if isinstance(entries, dict):
            for entry in entries.values():
                if not isinstance(entry, dict):  # nouns: kind → [{name, in, at}]
                    out += [str(w["name"]) for w in entry]
                    continue
                out += [str(entry[k]) for k in ("en", "zh-Hans", "zh-Hant") if k in entry]
                out += [str(v) for names in entry.get("also", {}).values() for v in names]
                out += [str(w["name"]) for w in entry.get("written", ())]
                out += [str(v) for v in entry.get("measure", {}).values()]
    return "".join(out)


def _catalogs() -> str:
    return "".join(s for lang in CHINESE for s in catalog_entries(lang).values())


@pytest.mark.parametrize("face", [f for f, _, _ in CJK_FACES])
def test_the_cjk_subsets_hold_every_character_agot_writes(face):
    """Every character of the glossary's names and of both catalogs' translations is in each
    shipped face, or (a symbol Noto Sans CJK lacks, such as ✕) in the DejaVu Sans subset the PNG
    loads beside it; else a PNG would leave it out. After a catalog gains one, run
    ``python tools/subset_cjk_font.py``."""
    path = FONT_DIR / face
    font = TTFont(str(path))
    cmap = font.getBestCmap()
    latin = TTFont(str(FONT_DIR / "DejaVuSans.ttf")).getBestCmap()
    wanted = {c for c in _glossary_names() + _catalogs() if c.isprintable()}
    missing = sorted(c for c in wanted if ord(c) not in cmap
                     and (unicodedata.east_asian_width(c) in "WF" or ord(c) not in latin))
    assert missing == [], f"{face} lacks {''.join(missing)!r}: run python tools/subset_cjk_font.py"
    assert path.stat().st_size < 1024 * 1024
    assert "Open Font License" in font["name"].getDebugName(13)
    assert (FONT_DIR / "NotoSansCJK-OFL.txt").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE") == 1


def _pixels(png: bytes) -> tuple[int, int, bytes]:
    """Width, height and the raw scanlines of an 8-bit RGBA PNG (filters undone)."""
    pos, chunks, width, height = 8, [], 0, 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 6)
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    raw, stride, bpp = zlib.decompress(b"".join(chunks)), width * 4, 4
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, b"".join(rows)


def _ink(png: bytes) -> int:
    """How many pixels are dark (text drawn in black on white)."""
    _, _, data = _pixels(png)
    return sum(1 for i in range(0, len(data), 4) if data[i] < 128)


def _line(text: str, lang: str) -> str:
    """A one-line picture of ``text`` in bold, in the family a picture of ``lang`` names."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="320" height="40" '
            f'font-family="{FONTS[lang]}"><text x="4" y="28" font-size="24" '
            f'font-weight="bold">{text}</text></svg>')


@pytest.mark.parametrize("lang", CHINESE)
def test_a_chinese_png_draws_real_glyphs(ruleset, lang):
    """With the shipped subsets a Chinese label has ink; without them (the Latin font only) it
    has none; different names draw differently (glyphs, not one tofu box repeated); and the
    whole picture differs from one rendered without the CJK font."""
    svg = _line(ruleset.glossary.name("area", "winterfell", lang), lang)
    assert _ink(svg_to_png(svg)) > 150
    assert _ink(svg_to_png(svg, cjk=False)) == 0
    images = {_pixels(svg_to_png(_line(ruleset.glossary.name("area", a, lang), lang)))[2]
              for a in ("winterfell", "the_eyrie", "dragonstone", "highgarden")}
    assert len(images) == 4
    board = render_svg(_state(DEMO / "round-05" / "state.yaml", ruleset), ruleset, lang=lang)
    assert needs_cjk(board)
    assert svg_to_png(board) != svg_to_png(board, cjk=False)
