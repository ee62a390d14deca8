"""Glicko-2 ratings for the puzzle trainer (Mark E. Glickman, "Example of the Glicko-2 system", 2013): a
player and a puzzle each have a rating (1500 to start), a rating deviation (350) and a volatility (0.06);
an attempt is a game between them, won by the player when the answer is right.

A small module of our own rather than a package from PyPI: the candidates are `glicko2` (one file last
released in 2012, untyped, no tests shipped), and `glicko2-py` (recent, with its own player pool, rating
periods and an optional PostgreSQL layer: an object model the site would wrap, not the formula it needs);
the engine imports only the standard library (CONVENTIONS 1), and the whole method is the few functions
below, tested against the paper's worked example (tests/engine/test_puzzles_glicko2.py).

Every attempt is its own rating period (as lichess rates puzzles): `rate(player, [(opponent, score)])` with
one opponent, or several for a batch. `attempt(player, puzzle, solved)` rates both sides of one answer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The scale between Glicko's ratings and Glicko-2's internal one (Glickman: 173.7178).
SCALE = 173.7178
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: The system constant: how much the volatility may change (Glickman suggests 0.3-1.2; the paper's example uses 0.5).
TAU = 0.5
#: The convergence tolerance of the volatility's iteration.
EPSILON = 0.000001
#: A deviation never grows past the starting one (a long absence makes a rating as unsure as a new one).
MAX_DEVIATION = START_DEVIATION


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent (the chance a puzzle is solved, say)."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these results (opponent, score 1 / 0.5 / 0). No
    results: only the deviation grows (step 6 alone)."""
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        grown = min(math.sqrt(phi * phi + sigma * sigma), MAX_DEVIATION / SCALE)
        return Rating(player.rating, grown * SCALE, sigma)
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in results:
        g = _g(opponent.phi)
        expected = _expected(mu, opponent.mu, opponent.phi)
        v_inverse += g * g * expected * (1 - expected)
        improvement += g * (score - expected)
    v = 1 / v_inverse
    delta = v * improvement
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(new_mu * SCALE + START_RATING, min(new_phi * SCALE, MAX_DEVIATION), new_sigma)


def attempt(player: Rating, puzzle: Rating, solved: bool, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both new ratings after one answer: the player won when it `solved` the puzzle, else the puzzle did."""
    score = 1.0 if solved else 0.0
    return rate(player, [(puzzle, score)], tau), rate(puzzle, [(player, 1.0 - score)], tau)
