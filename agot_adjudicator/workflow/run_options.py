"""The options of a run (``--nmr``, ``--defaults``, docs/protocol.md P2), in a module of their
own so that the command line declares them without importing the engine (issue 33)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RunOptions:
    """What the moderator asks of a run beside the files: the documented defaults to apply
    (docs/protocol.md P2). One value, passed whole from the command line to the engine call, so
    that every way of running a round (files, a game directory, what-if, replay) gets the same
    options; the next state's chain records them and replay runs the round again with them."""

    nmr: tuple[str, ...] = ()
    """``--nmr HOUSE``: no moves received from these houses, their defaults apply."""
    defaults: bool = False
    """``--defaults``: the documented default of every missing answer."""

    def chain(self) -> dict[str, Any] | None:
        """The chain's ``options`` (None when no option was given)."""
        if not self.nmr and not self.defaults:
            return None
        return {"nmr": sorted(set(self.nmr)), "defaults": self.defaults}

    @classmethod
    def from_chain(cls, chain: Any) -> RunOptions:
        """The options a recorded chain says its round was run with (none when it says none
        or is unreadable: replay then finds the difference).

        >>> RunOptions.from_chain({"options": {"nmr": ["stark", 1], "defaults": True}})
        RunOptions(nmr=('stark',), defaults=True)
        """
        options = chain.get("options") if isinstance(chain, dict) else None
        if not isinstance(options, dict):
            return cls()
        nmr = options.get("nmr")
        houses = tuple(h for h in nmr if isinstance(h, str)) if isinstance(nmr, list) else ()
        return cls(houses, options.get("defaults") is True)


NO_OPTIONS = RunOptions()
"""A run with no option: the files alone decide."""
