"""The games that have puzzles, by slug: how a seat's view at the start of its turn becomes a puzzle, how
an answer is judged, and how a stored puzzle is rechecked (each game's module says how)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from apps.engine.game import JSON
from apps.engine.puzzles import house, rearrange
from apps.engine.puzzles.record import Puzzle, Verdict


@dataclass(frozen=True, slots=True)
class PuzzleGame:
    slug: str
    #: (a seat's view, is it the start of the seat's turn, where it came from) -> a puzzle or None
    find_in_view: Callable[[JSON, bool, JSON | None], Puzzle | None]
    judge: Callable[[Puzzle, object], Verdict]
    #: None when the puzzle still holds, else what is wrong
    recheck: Callable[[Puzzle], str | None]
    #: the most a kind may take of one generation run's puzzles (kinds not named: no limit)
    max_share: dict[str, float]


PUZZLE_GAMES: dict[str, PuzzleGame] = {
    rearrange.GAME: PuzzleGame(rearrange.GAME, rearrange.find_in_view, rearrange.judge, rearrange.recheck, {}),
    house.GAME: PuzzleGame(house.GAME, house.find_in_view, house.judge, house.recheck, house.MAX_SHARE),
}


def puzzle_game(slug: str) -> PuzzleGame:
    """The puzzles of game `slug`; KeyError for a game without puzzles."""
    return PUZZLE_GAMES[slug]


def judge(puzzle: Puzzle, play: object) -> Verdict:
    """The verdict on `play` as an answer to `puzzle`: right when the game's own rules accept it and it
    reaches the target, whatever play it is (not only the stored solution). `play` is the game's answer:
    Rearrange, the whole table as the player leaves it ("r1 r2 r3 | y4 b4 k4" or a list of sets); the house
    game, the turn's moves in notation ("joker 2 r6; lay r1 r2 r3; discard k9" or a list of moves)."""
    return PUZZLE_GAMES[puzzle.game].judge(puzzle, play)


def recheck(puzzle: Puzzle) -> str | None:
    return PUZZLE_GAMES[puzzle.game].recheck(puzzle)
