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


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
