"""The trainer's words for what the engine names by code: a puzzle's goal and its themes."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.puzzles.models import Puzzle

THEMES = {
    # Rearrange (apps/engine/puzzles/rearrange.py)
    "freed-joker": gettext_lazy("Free a joker from the table"),
    "rack-joker": gettext_lazy("A joker from your rack"),
    "split-run": gettext_lazy("Split a run"),
    "split-group": gettext_lazy("Break up a group of three"),
    "four-set-rebuilt": gettext_lazy("Rebuild a group of four"),
    "deep-rebuild": gettext_lazy("Rebuild three sets or more"),
    "go-out": gettext_lazy("Go out"),
    # The house game (apps/engine/puzzles/house.py)
    "joker-retrieval": gettext_lazy("Take back a joker"),
    "both-colours": gettext_lazy("A joker taken with both colours"),
    "13-1-run": gettext_lazy("A 12-13-1 run"),
    "lay-offs": gettext_lazy("Lay off on the table"),
    "opening-joker": gettext_lazy("A joker in the opening"),
}


def theme_name(theme: str) -> str:
    return str(THEMES.get(theme, theme))


def goal_text(puzzle: Puzzle) -> str:
    target = puzzle.goal_value
    if puzzle.kind == "go-out" and puzzle.game == "tile-rummy-rearrange":
        return _("Go out this turn: place every tile of your rack on the table.")
    if puzzle.kind == "go-out":
        return _("Go out this turn: lay every tile but one, and discard the last.")
    if puzzle.kind == "open":
        return _("Open this turn: lay melds worth at least %(points)s, with a run among them.") % {"points": target}
    if puzzle.kind == "take-joker":
        return _("Take the joker and lay it again, placing %(count)s tiles from your hand this turn.") % {
            "count": target
        }
    return _("Place as many tiles from your rack as you can: the best play places %(count)s.") % {"count": target}
