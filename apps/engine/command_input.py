"""What the sub-commands of `python -m apps.engine` read: JSON files (or - for standard input), and the
error for bad input on the command line (not a rules question: exit status 2)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


class CommandError(Exception):
    """Bad input on the command line (not a rules question): reported on stderr, exit status 2."""


def read_json(name: str) -> Any:
    """The JSON in file `name` (- for standard input); CommandError when it cannot be read or parsed."""
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"Cannot read {name!r}: {error.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"{name!r} is not JSON: {error}") from None
