"""The pure engine: no I/O, no printing, no clock, never mutates its inputs, never iterates a set."""
