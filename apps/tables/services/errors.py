"""What the table services refuse, with the name each refusal goes by on the wire (`error_code`,
CONVENTIONS 20). The message is written for the player and shown as it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from django.utils.translation import gettext as _


class TableError(Exception):
    """A request the table refuses."""

    error_code: ClassVar[str] = "tableerror"


class TableNotFound(TableError):
    error_code: ClassVar[str] = "tablenotfound"


class NotAllowed(TableError):
    error_code: ClassVar[str] = "notallowed"


class StaleVersion(TableError):
    """The client acted on an old version of the table: it should show the current state and try again."""

    error_code: ClassVar[str] = "stale"

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            _("The table has moved on (you saw version %(expected)s, it is at %(current)s): here is the current state.")
            % {"expected": expected, "current": current}
        )
        self.expected = expected
        self.current = current


@dataclass(frozen=True)
class MoveOutcome:
    version: int
    duplicate: bool = False
