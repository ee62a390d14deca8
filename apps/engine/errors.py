"""The engine's errors. Their messages reach players, so they quote the input and name the rule.

`error_code` is the name an error goes by on the wire (the `code` of the table protocol's error frame):
declared here, never derived from the class name (CONVENTIONS 20).

Everything the engine tells a player also carries a stable `message_code` and its `params` (SPEC 12):
the site says it in the player's language by that code (apps/tables/engine_text.py), while the English
text stays what `str()` gives, for the command line and the logs. A rule phrase that goes inside
another message (a meld's problem, say) is a `Phrase`: a `str` with a code of its own. `error_code`
(the kind of error, one per class) and `message_code` (the sentence, one per raise) are different things.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Phrase(str):
    """English text with the code and parameters a translation is looked up by. It is a `str` (the
    English), so it goes anywhere text goes; `message_code` and `params` ride along."""

    message_code: str
    params: dict[str, Any]

    def __new__(cls, text: str, message_code: str, /, **params: Any) -> Phrase:
        phrase = super().__new__(cls, text)
        phrase.message_code = message_code
        phrase.params = params
        return phrase

    def __reduce__(self) -> Any:  # pickles (and copies) keep the code
        return (_phrase, (str(self), self.message_code, self.params))


def _phrase(text: str, message_code: str, params: dict[str, Any]) -> Phrase:
    return Phrase(text, message_code, **params)


class EngineError(Exception):
    """Base of every error the engine raises for a bad move or bad notation.

    `EngineError(english, message_code, **params)`: the English sentence, then the code the site
    translates it by and the values its translation may use."""

    error_code: ClassVar[str] = "engineerror"
    message_code: str = "engine_error"

    def __init__(self, message: str = "", message_code: str = "", /, **params: Any) -> None:
        super().__init__(message)
        if message_code:
            self.message_code = message_code
        self.params = params


class InvalidMove(EngineError):
    """Malformed input: notation that does not parse, unknown tiles, a move of the wrong shape."""

    error_code: ClassVar[str] = "invalidmove"
    message_code = "invalid_move"


class IllegalMove(EngineError):
    """A well-formed move that the rules forbid in this position."""

    error_code: ClassVar[str] = "illegalmove"
    message_code = "illegal_move"
