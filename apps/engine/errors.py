"""The engine's errors. Their messages reach players, so they quote the input and name the rule.

`error_code` is the name an error goes by on the wire (the `code` of the table protocol's error frame):
declared here, never derived from the class name (CONVENTIONS 20).
"""

from __future__ import annotations

from typing import ClassVar


class EngineError(Exception):
    """Base of every error the engine raises for a bad move or bad notation."""

    error_code: ClassVar[str] = "engineerror"


class InvalidMove(EngineError):
    """Malformed input: notation that does not parse, unknown tiles, a move of the wrong shape."""

    error_code: ClassVar[str] = "invalidmove"


class IllegalMove(EngineError):
    """A well-formed move that the rules forbid in this position."""

    error_code: ClassVar[str] = "illegalmove"
