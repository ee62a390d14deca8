"""The rating history chart (apps/leaderboards/chart.py): pure geometry."""

from __future__ import annotations

from apps.leaderboards.chart import HEIGHT, PAD_BOTTOM, PAD_LEFT, PAD_RIGHT, PAD_TOP, WIDTH, rating_chart


def test_one_value_is_not_a_history():
    assert rating_chart([]) is None and rating_chart([1000]) is None


def test_the_line_runs_from_the_left_edge_to_the_right_edge_of_the_plot():
    chart = rating_chart([1000, 1032, 1020])
    assert chart is not None
    assert chart.points[0][0] == PAD_LEFT and chart.points[-1][0] == WIDTH - PAD_RIGHT
    assert chart.path.startswith(f"M{PAD_LEFT},") and chart.path.count("L") == 2
    assert (chart.first, chart.last, chart.low, chart.high) == (1000, 1020, 1000, 1032)


def test_higher_ratings_are_drawn_higher_and_every_point_stays_inside_the_plot():
    chart = rating_chart([1000, 1100, 950, 1010])
    assert chart is not None
    ys = [y for _, y in chart.points]
    assert ys[1] < ys[0] < ys[3] < ys[2] or ys[1] < ys[3] < ys[0] < ys[2]
    assert all(PAD_TOP <= y <= HEIGHT - PAD_BOTTOM for y in ys)


def test_grid_lines_are_round_numbers_covering_the_range():
    chart = rating_chart([1003, 1047])
    assert chart is not None
    values = [tick.value for tick in chart.ticks]
    assert values[0] <= 1003 and values[-1] >= 1047
    assert len({b - a for a, b in zip(values, values[1:], strict=False)}) == 1 and values[0] % 10 == 0


def test_a_flat_history_still_gets_a_scale():
    chart = rating_chart([1000, 1000])
    assert chart is not None and chart.ticks[0].value < chart.ticks[-1].value
