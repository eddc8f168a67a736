"""The recorded YAML files of a game directory, each read and parsed once per command (issue 33).

A command that checks a record (``agot replay``, ``agot site``) asks several questions of the
same file — the ruleset a state names, the chain of the next state, the state to adjudicate,
the board a page shows. :class:`RecordedFiles` is the one owner of what it has read: it reads
and parses a file the first time it is asked (as :func:`~agot_adjudicator.io.reading.load_yaml`
does, bounded, refusing a link out of the game directory) and gives the same document, or the
same error, after that. The command makes one and drops it when it is done; nothing is kept
between commands. Each caller gets the document with its own top-level mapping (a state read
forward is upgraded in place, :func:`~agot_adjudicator.io.formats.read_forward`); what is
below it is shared, and no reader changes it.
"""

from __future__ import annotations

from pathlib import Path

from agot_adjudicator.errors import InputError, MalformedInput
from agot_adjudicator.io.reading import Document, load_yaml


class RecordedFiles:
    """The YAML files of one game directory that one command has read."""

    def __init__(self, game_dir: str | Path | None) -> None:
        """``game_dir``: refuse a link leaving it (None: read files as ``agot validate``
        reads them, links followed)."""
        self.root = Path(game_dir) if game_dir is not None else None
        self._read: dict[str, Document | InputError] = {}

    def document(self, path: str | Path) -> Document:
        """The file at ``path`` as read the first time (named by ``str(path)``); raises the
        :class:`~agot_adjudicator.errors.MalformedInput` it raised then."""
        key = str(path)
        if key not in self._read:
            try:
                self._read[key] = load_yaml(key, root=self.root)
            except MalformedInput as exc:
                self._read[key] = exc
            except InputError as exc:
                self._read[key] = MalformedInput(exc.problems)
        found = self._read[key]
        if isinstance(found, InputError):
            raise MalformedInput(found.problems) from None
        # its own top-level mapping: reading a state forward upgrades it in place
        # (io.formats.read_forward); the values below are shared and never changed
        return Document(found.name, dict(found.data), found.sha256, found.positions,
                        found.key_positions)
