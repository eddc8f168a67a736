"""agot — adjudicator and replay tool for A Game of Thrones: The Board Game (first edition, 2003)."""

__version__ = "0.1.0"
