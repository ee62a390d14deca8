"""Puzzles (apps/engine/puzzles, SPEC 18): the starter set rechecks, every stored solution reaches its
target, and the judge takes any play that reaches the target, counts how far a legal play falls short,
and refuses an illegal one with the game's own reason. Positions are written in notation; the Rearrange
one was made for these tests (a group lends its y5 to a new run, and the rack's r5 takes its place)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apps.engine.puzzles import Puzzle, judge, recheck
from apps.engine.puzzles.generate import check
from apps.engine.puzzles.rearrange import find
from apps.engine.puzzles.record import puzzle_line, read_puzzles
from apps.engine.rearrange.melds import read_meld
from apps.engine.tiles import parse_melds, parse_tiles

STARTER = Path(__file__).resolve().parents[2] / "apps" / "engine" / "puzzles" / "starter"


def starter(game: str) -> list[Puzzle]:
    return list(read_puzzles((STARTER / f"{game}.jsonl").read_text(encoding="utf-8").splitlines()))


@pytest.fixture(scope="module")
def lend_a_tile() -> Puzzle:
    puzzle = find(parse_melds("r2 r3 r4 r5 r6 r7 | b5 y5 k5"), parse_tiles("r5 y4 y6 y7 k9"))
    assert puzzle is not None
    return puzzle


def test_the_starter_set_holds_both_games() -> None:
    assert len(starter("tile-rummy-rearrange")) >= 40
    assert len(starter("tile-rummy")) >= 20


@pytest.mark.parametrize("game", ["tile-rummy-rearrange", "tile-rummy"])
def test_every_starter_puzzle_rechecks_against_the_exact_search(game: str) -> None:
    summary = check(starter(game))
    assert summary["failures"] == []


@pytest.mark.parametrize("game", ["tile-rummy-rearrange", "tile-rummy"])
def test_every_stored_solution_reaches_its_target(game: str) -> None:
    for puzzle in starter(game):
        verdict = judge(puzzle, puzzle.solution.get("moves", puzzle.solution["table"]))
        assert verdict.right, (puzzle.id, verdict)
        assert verdict.short_by == 0


def test_a_puzzle_is_found_where_the_casual_play_falls_short(lend_a_tile: Puzzle) -> None:
    assert lend_a_tile.kind == "most-tiles"
    assert lend_a_tile.target == {"tiles": 4}
    assert lend_a_tile.search["casual"] == 1  # the rack's r5 onto the group
    assert "split-group" in lend_a_tile.themes


def test_the_stored_solution_is_right(lend_a_tile: Puzzle) -> None:
    assert judge(lend_a_tile, lend_a_tile.solution["table"]).right


def test_a_different_play_that_reaches_the_target_is_right(lend_a_tile: Puzzle) -> None:
    other = "r2 r3 r4 | r5 r6 r7 | y4 y5 y6 y7 | r5 b5 k5"
    assert [" ".join(str(tile) for tile in meld) for meld in parse_melds(other)] != lend_a_tile.solution["table"]
    verdict = judge(lend_a_tile, other)
    assert verdict.right and verdict.reached == 4


def test_a_play_one_tile_short_is_short_by_one(lend_a_tile: Puzzle) -> None:
    verdict = judge(lend_a_tile, "r2 r3 r4 r5 r6 r7 | y4 y5 y6 | r5 b5 k5")
    assert verdict.legal and not verdict.right
    assert verdict.short_by == 1 and verdict.reached == 3
    assert "places 3 tiles" in verdict.reason


def test_an_illegal_play_is_refused_with_the_rules_reason(lend_a_tile: Puzzle) -> None:
    verdict = judge(lend_a_tile, "r2 r3 r4 r5 r6 | y4 y5 y6 y7 | r5 b5 k5")
    assert not verdict.right and not verdict.legal
    assert verdict.code == "table_tile_to_rack"
    assert "r7" in verdict.reason
    not_a_set = judge(lend_a_tile, "r2 r3 r4 r5 r6 r7 | b5 y5 k5 | y4 y6 r5")
    assert not not_a_set.legal and "y4 y6 r5" in not_a_set.reason


def test_bad_notation_is_refused_not_raised(lend_a_tile: Puzzle) -> None:
    assert not judge(lend_a_tile, "r2 r3 q4").legal
    assert not judge(lend_a_tile, 42).legal


def test_starter_puzzles_one_tile_short_are_short_by_one() -> None:
    """From each stored solution, drop one rack tile that ends a run of four or more (or a group of
    four): where the table stays legal, the play is short by exactly one."""
    tried = 0
    for puzzle in starter("tile-rummy-rearrange"):
        placed = parse_tiles(puzzle.solution["placed"])
        table = [parse_tiles(meld) for meld in puzzle.solution["table"]]
        for index, meld in enumerate(table):
            if len(meld) < 4 or meld[-1] not in placed:
                continue
            shorter = [*table[:index], meld[:-1], *table[index + 1 :]]
            read_meld(meld[:-1])
            verdict = judge(puzzle, [" ".join(str(tile) for tile in each) for each in shorter])
            if verdict.legal:
                assert verdict.short_by == 1, (puzzle.id, verdict)
                tried += 1
            break
    assert tried >= 5


def test_the_solvers_own_table_is_right_too() -> None:
    """The solver rebuilds the table its own way; the stored solution is tidied (sets it need not touch
    stay as they were): two different plays, both right."""
    from apps.engine.rearrange.solver import solve

    for puzzle in starter("tile-rummy-rearrange")[:10]:
        best = solve([parse_tiles(meld) for meld in puzzle.position["table"]], parse_tiles(puzzle.position["rack"]))
        assert best is not None
        assert judge(puzzle, [list(map(str, meld)) for meld in best.table]).right


def test_a_puzzles_id_is_the_hash_of_its_position(lend_a_tile: Puzzle) -> None:
    again = Puzzle.from_dict(json.loads(puzzle_line(lend_a_tile)))
    assert again == lend_a_tile and again.id == lend_a_tile.id
    edited = {**lend_a_tile.to_dict(), "position": {**lend_a_tile.position, "rack": "r5 y4 y6 y7 k8"}}
    with pytest.raises(ValueError, match="another position"):
        Puzzle.from_dict(edited)


def test_a_recheck_catches_a_wrong_target(lend_a_tile: Puzzle) -> None:
    wrong = Puzzle.from_dict({**lend_a_tile.to_dict(), "target": {"tiles": 3}})
    assert "places 4" in (recheck(wrong) or "")
