"""`{% daily_puzzle %}`: the day's puzzle as a small block (the home page), chosen on the spot when today
has none yet (a fresh site)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from apps.puzzles import selectors, services
from apps.puzzles.words import goal_text

register = template.Library()


@register.inclusion_tag("puzzles/_daily.html", takes_context=True)
def daily_puzzle(context: dict[str, Any]) -> dict[str, Any]:
    chosen = services.daily_choose(selectors.today())
    if chosen is None:
        return {"daily": None}
    puzzle = chosen.puzzle
    request = context.get("request")
    return {
        "daily": chosen,
        "goal": goal_text(puzzle),
        "table": [[_tile(face) for face in meld.split()] for meld in puzzle.position.get("table", [])],
        "rack": [_tile(face) for face in puzzle.position.get("rack", "").split()],
        "share_url": request.build_absolute_uri(reverse("puzzles:daily")) if request else reverse("puzzles:daily"),
    }


def _tile(face: str) -> dict[str, str]:
    """A face as the home page's static tiles draw it (templates/home.html's hero)."""
    if face == "J":
        return {"colour": "joker", "text": "\u263a\ufe0e"}
    return {"colour": face[0], "text": face[1:]}
