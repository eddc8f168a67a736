"""The ``agot`` command line (Click): parse options, call one use case, print, exit."""

from agot_adjudicator.cli.commands import main

__all__ = ["main"]
