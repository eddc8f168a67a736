"""agot — adjudicator and replay tool for A Game of Thrones: The Board Game (first edition, 2003).

The package is layered; imports point down this list, never up:

- ``cli``       the ``agot`` command line (Click): options in, one use case called, exit code out
- ``workflow``  use cases on files: validate, adjudicate (and what-if), replay, conformance, mail, site
- ``render``    what people read: report, tables, board picture, order template, state diff, views
- ``io``        reading and writing files: safe YAML, schema checks, atomic writes, game folders,
                rulesets on disk, submissions and state checks
- ``engine``    the pure rules, one module per chapter of the rulebook; no I/O, no clock, no sets
- ``model``     value types: the ruleset and the game state

Programs that use agot as a library import from here (the names load lazily, so
``import agot_adjudicator`` stays cheap)::

    >>> from agot_adjudicator import load_ruleset, new_game, resolve, Inputs
    >>> ruleset = load_ruleset()
    >>> state = new_game(ruleset, ["stark", "lannister", "greyjoy"], seed=7, game_id="example")
    >>> result = resolve(ruleset, state, Inputs())
    >>> result.status, result.pending[0].request.id
    ('pending', 'r1/orders/lannister')
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.4.0"

_EXPORTS = {
    "load_ruleset": "agot_adjudicator.io.rulesets",
    "Ruleset": "agot_adjudicator.model.ruleset",
    "GameState": "agot_adjudicator.model.state",
    "new_game": "agot_adjudicator.engine.setup",
    "resolve": "agot_adjudicator.engine.round",
    "Result": "agot_adjudicator.engine.round",
    "Inputs": "agot_adjudicator.engine.context",
    "HouseInput": "agot_adjudicator.engine.context",
    "GivenAnswer": "agot_adjudicator.engine.decisions",
    "PendingDecision": "agot_adjudicator.engine.decisions",
    "load_yaml": "agot_adjudicator.io.reading",
    "dump_yaml": "agot_adjudicator.io.writing",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    """Load a library name on first use (PEP 562)."""
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'agot_adjudicator' has no attribute {name!r}")
