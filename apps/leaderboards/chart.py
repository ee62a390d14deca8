"""A rating history as an SVG line chart, drawn on the server (no JavaScript, readable in any browser).

Pure geometry: the view passes the ratings in match order and the template writes the SVG elements.
Matches are spaced evenly (not by date), so a burst of matches in one evening stays readable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 220
PAD_LEFT = 58
PAD_RIGHT = 12
PAD_TOP = 12
PAD_BOTTOM = 28


@dataclass(frozen=True)
class Tick:
    value: int
    y: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    path: str  # the SVG path of the line
    points: tuple[tuple[float, float], ...]
    ticks: tuple[Tick, ...]  # horizontal grid lines with their rating
    first: int
    last: int
    low: int
    high: int
    plot_left: int
    plot_right: int
    plot_bottom: int


def _nice_step(span: float) -> int:
    """A round grid step giving three to six lines over `span` (10, 20, 25, 50, 100, ...)."""
    raw = max(span / 4, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if step >= raw:
            return max(int(step), 1)
    return int(10 * magnitude)


def rating_chart(ratings: Sequence[int], *, width: int = WIDTH, height: int = HEIGHT) -> Chart | None:
    """The chart of a rating's values, oldest first (the start rating included). None if there are
    fewer than two values: one dot is not a history."""
    if len(ratings) < 2:
        return None
    step = _nice_step(max(ratings) - min(ratings))
    low = (min(ratings) // step) * step
    high = -(-max(ratings) // step) * step
    if high == low:
        high = low + step
    plot_w = width - PAD_LEFT - PAD_RIGHT
    plot_h = height - PAD_TOP - PAD_BOTTOM

    def y_of(value: float) -> float:
        return round(PAD_TOP + plot_h * (high - value) / (high - low), 1)

    last_index = len(ratings) - 1
    points = tuple(
        (round(PAD_LEFT + plot_w * i / last_index, 1), y_of(value)) for i, value in enumerate(ratings)
    )
    path = "M" + " L".join(f"{x:g},{y:g}" for x, y in points)
    ticks = tuple(Tick(value, y_of(value)) for value in range(low, high + 1, step))
    return Chart(
        width=width,
        height=height,
        path=path,
        points=points,
        ticks=ticks,
        first=ratings[0],
        last=ratings[-1],
        low=min(ratings),
        high=max(ratings),
        plot_left=PAD_LEFT,
        plot_right=width - PAD_RIGHT,
        plot_bottom=height - PAD_BOTTOM,
    )
