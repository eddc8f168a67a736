"""The demo game's record written again in Chinese (issue 18, "done when"): ``agot replay GAME
--lang L --output DIR`` copies the record with every report, picture and mail in ``L``; the copy
replays; no English sentence is left in it; the same copy in English is the record itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from english_scan import eml_text, english_words, svg_text

from agot_adjudicator.cli import main
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.workflow.replay import replay_game
from agot_adjudicator.workflow.translate import translated_record

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"


def people_text(path: Path) -> str | None:
    """What a person reads in a file of the copy (None: a file for machines)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".md", ".txt"):
        return text
    if path.suffix == ".svg":
        return svg_text(text)
    if path.suffix == ".eml":
        return eml_text(text)
    return None


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from click.testing import CliRunner

    made = {}
    for lang in ("zh-Hans", "zh-Hant"):
        out = tmp_path_factory.mktemp(lang) / "copy"
        result = CliRunner().invoke(main, ["replay", str(DEMO), "--lang", lang, "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert f"（{lang}）" in result.output  # said in the language of the copy
        made[lang] = out
    return made


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_the_copy_replays_and_records_its_language(copies, lang):
    copy = copies[lang]
    assert replay_game(str(copy), load_ruleset()).ok
    report = (copy / "round-05" / "report.md").read_text(encoding="utf-8")
    assert f"{'语言' if lang == 'zh-Hans' else '語言'}：{lang}" in report
    for name in ("state.yaml", "log.jsonl", "orders/stark.yaml"):  # language-neutral: as they are
        assert (copy / "round-05" / name).read_bytes() == (DEMO / "round-05" / name).read_bytes()


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_no_english_sentence_is_left_in_reports_mail_and_pictures(copies, lang):
    left: dict[str, list[str]] = {}
    kinds = set()
    for path in sorted(copies[lang].rglob("*")):
        text = people_text(path) if path.is_file() else None
        if text is None:
            continue
        kinds.add(path.suffix)
        words = english_words(text, also=["demo"])
        if words:
            left[str(path.relative_to(copies[lang]))] = words[:12]
    assert {".md", ".txt", ".svg"} <= kinds
    assert left == {}


def test_the_english_copy_is_the_record_itself():
    """Written again in English, every text of the copy is the recorded file byte for byte
    (what replay checks): the copy renders what adjudication wrote, nothing else."""
    replay = replay_game(str(DEMO), load_ruleset(), keep=True)
    files = translated_record(replay, "en")
    assert len(files) > 100
    assert any(name.endswith("/mail/stark.txt") for name in files)
    different = [name for name, text in files.items()
                 if (DEMO / name).read_text(encoding="utf-8") != text]
    assert different == []


def test_a_copy_needs_an_output_and_a_new_folder(runner, tmp_path):
    result = runner.invoke(main, ["replay", str(DEMO), "--lang", "zh-Hans"])
    assert result.exit_code == 2 and "--output" in result.output
    full = tmp_path / "full"
    full.mkdir()
    (full / "x.txt").write_text("x", encoding="utf-8")
    result = runner.invoke(main, ["replay", str(DEMO), "--lang", "zh-Hans", "-o", str(full)])
    assert result.exit_code == 2 and "not empty" in result.output
    assert (full / "x.txt").read_text(encoding="utf-8") == "x" and len(list(full.iterdir())) == 1
    inside = DEMO / "copy"
    result = runner.invoke(main, ["replay", str(DEMO), "--lang", "zh-Hans", "-o", str(inside)])
    assert result.exit_code == 2 and not inside.exists()


def test_a_record_that_does_not_replay_is_not_copied(tmp_path, runner):
    import shutil

    game = tmp_path / "game"
    shutil.copytree(DEMO, game)
    state = game / "round-04" / "state.yaml"
    state.write_text(state.read_text(encoding="utf-8").replace("round: 4", "round: 5", 1),
                     encoding="utf-8")
    out = tmp_path / "copy"
    result = runner.invoke(main, ["replay", str(game), "--lang", "zh-Hant", "-o", str(out)])
    assert result.exit_code == 4
    assert not out.exists()


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_the_site_in_chinese_has_chinese_pages_and_pictures(lang):
    """The web record of the (English) demo in Chinese: pages, and the pictures they embed,
    written again in the site's language."""
    from english_scan import html_text

    from agot_adjudicator.workflow.site import build_site

    built = build_site(str(DEMO), load_ruleset(), lang=lang)
    assert built.ok
    left = {}
    for name, text in built.files.items():
        shown = svg_text(text) if name.endswith(".svg") else html_text(text) \
            if name.endswith(".html") else None
        words = english_words(shown, also=["demo"]) if shown is not None else []
        if words:
            left[name] = words[:12]
    assert any(name.endswith("moves.svg") for name in built.files)
    assert left == {}
