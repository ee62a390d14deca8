"""The engine's errors. Their messages reach players, so they quote the input and name the rule."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises for a bad move or bad notation."""


class InvalidMove(EngineError):
    """Malformed input: notation that does not parse, unknown tiles, a move of the wrong shape."""


class IllegalMove(EngineError):
    """A well-formed move that the rules forbid in this position."""
