"""Shared fixtures: the packaged ruleset, a runner, and new-game states on disk."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def ruleset() -> Ruleset:
    return load_ruleset()


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests write English unless they ask for another language: ``agot adjudicate`` takes
    its default language from the locale environment (LC_ALL, LC_MESSAGES, LANG)."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
