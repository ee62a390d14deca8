"""Puzzles of the house game (`tile-rummy`), from the seat to move right after its draw. Three goals, each
proved by the engine's exact search of a turn (`house.review.best_play`) and judged by applying the
answer's moves with the game's own `apply`:

- `open`: "open with 45 this turn" (a run among the melds), for a seat that has not opened. Kept only when
  the greedy opening misses it: taking the richest meld the rack makes, then the richest of what is left,
  and so on, does not reach 45 with a run (so the opening needs a choice, a joker in the right place, a
  12-13-1 run...). Target: 45 points.
- `go-out`: "go out this turn" for a seat that opened on an earlier turn: lay every tile but one (taking
  jokers, laying off, new melds) and discard the last. Kept only when the Easy bot's turn from the same
  position does not go out. Target: the rack's tiles less one.
- `take-joker`: "take the joker and lay it, placing N tiles": the best turn takes a joker off the table, and
  the best turn that takes none places fewer tiles (so the joker is the point). The Easy bot never takes a
  joker. Target: the best turn's tiles (placed from the hand, net of jokers taken back); a taken joker may
  not stay on the rack.

A go-out that takes a joker is a `go-out` with the theme `joker-retrieval`. Themes: `joker-retrieval`,
`both-colours` (a joker in a three-tile set, taken with both missing colours), `13-1-run` (a run ending
13-1 laid or made), `rack-joker` (a joker from the rack laid), `lay-offs` (two or more), `opening-joker`.

The difficulty estimate (the puzzles' rating scale, every puzzle starting at 1500 when players rate it):
`1100 + 70 x steps of the solution (each meld laid, lay-off or joker taken) + 100 x the simple play's
shortfall (at most 5: the Easy bot's tiles short of the target; for an opening, the greedy opening's
points short of 45, in fives) + 150 per joker, 13-1 run, both-colours or opening-joker theme`, clamped
to 800-2600.

At most half of a run's puzzles are openings (`MAX_SHARE`): they are by far the most common find.

The position holds what the seat sees that the turn can use: the table's melds (in order, with who laid
each: 0 the seat to move, 1 someone else), the rack (with the drawn tile), the indicator, and whether the
seat opened before this turn. It is played as a two-seat game: the other seats' racks do not matter to the
turn (the pile holds every tile the position does not name).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from apps.engine.errors import EngineError
from apps.engine.game import JSON, Move
from apps.engine.house import review as house_review
from apps.engine.house.bots.easy import EasyHouseBot
from apps.engine.house.bots.view import SeatView
from apps.engine.house.helpers import melds_from_rack
from apps.engine.house.melds import OPENING_MINIMUM, MeldKind, opening_check, read_meld, try_read_meld
from apps.engine.house.moves import Discard, Lay, LayOff, TakeJoker
from apps.engine.house.positions import position as house_position
from apps.engine.house.review import Position, best_play
from apps.engine.house.rules import RULES
from apps.engine.house.state import HouseState, Phase
from apps.engine.puzzles.record import Puzzle, Verdict
from apps.engine.review.plays import Suggestion
from apps.engine.tiles import JOKER, Tile, format_tiles, parse_tiles, tile_of

GAME = "tile-rummy"
MIN_RACK = 3  # a go-out from two tiles (one meld's worth short) is no puzzle
MAX_SHARE = {"open": 0.5}
MIN_TAKE = 3  # taking a joker to place one tile and the joker is no puzzle

Faces = tuple[Tile, ...]


# --- positions -------------------------------------------------------------------------------------------


def position_json(
    rack: Sequence[Tile], table: Sequence[Faces], owners: Sequence[int], indicator: Tile, opened: bool
) -> JSON:
    return {
        "table": [format_tiles(meld) for meld in table],
        "owners": [0 if owner == 0 else 1 for owner in owners],
        "rack": format_tiles(sorted(rack, key=lambda tile: tile.key)),
        "indicator": str(indicator),
        "opened": opened,
    }


def state_of(position: JSON) -> HouseState:
    """The position as a two-seat game, seat 0 to move in the play phase (it has drawn)."""
    owners = [int(owner) for owner in position["owners"]]
    opened = [0] if position["opened"] else []
    if 1 in owners:
        opened.append(1)
    return house_position(
        [position["rack"], ""],
        melds=list(zip(owners, position["table"], strict=True)),
        indicator=position["indicator"],
        phase=Phase.PLAY,
        opened=opened,
        turn=0,
    )


def _rack(position: JSON) -> Faces:
    return tuple(parse_tiles(position["rack"]))


def _table(position: JSON) -> tuple[Faces, ...]:
    return tuple(tuple(parse_tiles(meld)) for meld in position["table"])


# --- what a simple player finds --------------------------------------------------------------------------


def greedy_opens(rack: Sequence[Tile]) -> bool:
    """Does the greedy opening (the richest meld, then the richest of what is left, ...) open?"""
    points, run = greedy_opening(rack)
    return points >= OPENING_MINIMUM and run


def greedy_opening(rack: Sequence[Tile]) -> tuple[int, bool]:
    """The greedy opening's points, and whether it holds a run."""
    counts = Counter(rack)
    points, run, used = 0, False, 0
    for meld in sorted(melds_from_rack(rack), key=lambda meld: (-meld.points, -len(meld.tiles))):
        need = Counter(meld.tiles)
        if used + len(meld.tiles) >= len(rack) or any(counts[face] < amount for face, amount in need.items()):
            continue
        counts -= need
        used += len(meld.tiles)
        points += meld.points
        run = run or meld.kind is MeldKind.RUN
    return points, run


def easy_turn(state: HouseState) -> int:
    """How many tiles (net) the Easy bot places from the hand in the rest of seat 0's turn."""
    bot = EasyHouseBot()
    start = len(state.racks[0])
    rng = random.Random(0)
    while RULES.to_move(state) == 0 and not RULES.is_over(state):
        move = bot.next_move(RULES.view_for(state, 0), rng)
        state = RULES.apply(state, 0, move)
        if isinstance(move, Discard):
            return start - len(state.racks[0]) - 1
    return start - len(state.racks[0])


def best_without_jokers(rack: Sequence[Tile], table: Sequence[Faces]) -> int:
    """The most tiles the best turn that takes no joker places (the review's exact search, its first case)."""
    hand = house_review._bag(rack)
    options = [
        found for found in (house_review._lay_offs(index, meld, hand) for index, meld in enumerate(table)) if found
    ]
    search = house_review._LayOffSearch(options, house_review._MeldSearch(house_review._new_melds(hand), opening=False))
    worth = search.best(0, hand)
    return max(0, worth // house_review.TILE)


# --- finding a puzzle ------------------------------------------------------------------------------------


def _themes(best: Suggestion, table: Sequence[Faces], rack: Sequence[Tile], opening: bool) -> tuple[str, ...]:
    found: list[str] = []
    takes = [move for move in best.moves if isinstance(move, TakeJoker)]
    if takes:
        found.append("joker-retrieval")
    if any(len(take.tiles) == 2 for take in takes):
        found.append("both-colours")
    touched = list(best.table[len(table) :]) + [
        meld for meld, old in zip(best.table, table, strict=False) if meld != old
    ]
    for meld in touched:
        read = try_read_meld(meld)
        if read is not None and read.kind is MeldKind.RUN and read.end == 14:
            found.append("13-1-run")
            break
    if JOKER in rack and JOKER in best.placed:
        found.append("opening-joker" if opening else "rack-joker")
    if sum(isinstance(move, LayOff) for move in best.moves) >= 2:
        found.append("lay-offs")
    return tuple(found)


def _difficulty(best: Suggestion, shortfall: int, themes: Sequence[str]) -> int:
    """The module's estimate: `shortfall` is the simple play's (tiles for a turn, points / 5 for an opening)."""
    steps = sum(len(move.melds) if isinstance(move, Lay) else not isinstance(move, Discard) for move in best.moves)
    hard = sum(theme in ("joker-retrieval", "13-1-run", "both-colours", "opening-joker") for theme in themes)
    raw = 1100 + 70 * steps + 100 * min(5, max(0, shortfall)) + 150 * hard
    return int(min(2600, max(800, raw)))


def find(position: JSON, source: JSON | None = None) -> Puzzle | None:
    """The puzzle of a position (`position_json`), or None when it does not make one."""
    rack, table = _rack(position), _table(position)
    if len(rack) < MIN_RACK:
        return None
    opened = bool(position["opened"])
    best = best_play(Position(rack, table, opened, opened))
    if best.tiles <= 0:
        return None
    themes = _themes(best, table, rack, not opened)
    solution = {"moves": [str(move) for move in best.moves], "table": [format_tiles(meld) for meld in best.table]}
    if not opened:
        greedy_points, greedy_run = greedy_opening(rack)
        if greedy_points >= OPENING_MINIMUM and greedy_run:
            return None
        shortfall = (OPENING_MINIMUM - greedy_points + 4) // 5 if greedy_points < OPENING_MINIMUM else 1
        lays = [move for move in best.moves if isinstance(move, Lay)]
        points = opening_check(read_meld(meld) for lay in lays for meld in lay.melds).points
        return Puzzle(
            GAME, "open", f"Open this turn: lay melds worth at least {OPENING_MINIMUM}, with a run among them", position,
            {"points": OPENING_MINIMUM}, solution, themes, _difficulty(best, shortfall, themes),
            {"tiles": best.tiles, "points": points, "greedy_points": greedy_points}, dict(source or {}),
        )  # fmt: skip
    going_out = best.tiles == len(rack) - 1
    takes = any(isinstance(move, TakeJoker) for move in best.moves)
    if not going_out and not (takes and best.tiles >= MIN_TAKE and best_without_jokers(rack, table) < best.tiles):
        return None
    easy = easy_turn(state_of(position))
    if going_out and easy >= best.tiles:
        return None
    if going_out:
        kind, goal = "go-out", "Go out this turn: lay every tile but one, and discard the last"
    else:
        kind, goal = (
            "take-joker",
            f"Take the joker and lay it again, placing {best.tiles} tiles from your hand this turn",
        )
    return Puzzle(
        GAME, kind, goal, position, {"tiles": best.tiles}, solution, themes, _difficulty(best, best.tiles - easy, themes),
        {"easy": easy, "without_jokers": best_without_jokers(rack, table) if takes else best.tiles}, dict(source or {}),
    )  # fmt: skip


def find_in_view(view: JSON, fresh: bool, source: JSON | None = None) -> Puzzle | None:
    """The puzzle of a seat's view right after its draw (`fresh`, the play phase), if it makes one."""
    if not fresh or view.get("you") is None or view.get("phase") != Phase.PLAY.value or "rack" not in view:
        return None
    seat = SeatView.of(view)
    if seat.has_opened and not seat.opened_before:
        return None  # it opened earlier this turn: not the start of a turn
    owners = [0 if owner == seat.seat else 1 for owner in seat.owners]
    return find(position_json(seat.rack, seat.table, owners, seat.indicator, seat.opened_before), source)


# --- judging an answer -----------------------------------------------------------------------------------


def _moves_of(play: object) -> list[Move]:
    """The moves of an answer: "lay r1 r2 r3; discard k9" or a list of moves in notation (or dict forms)."""
    if isinstance(play, dict) and "moves" in play:
        return _moves_of(play["moves"])
    if isinstance(play, str):
        return [RULES.parse_move(part) for part in play.split(";") if part.strip()]
    if isinstance(play, (list, tuple)):
        return [RULES.parse_move(move) for move in play]
    raise ValueError(f"An answer is the turn's moves in notation, not {play!r}")


def _opening_short(melds: Sequence[Sequence[Tile]]) -> int | None:
    """Points an assembled opening lacks, when every meld of it is legal (None if one is not)."""
    read = [try_read_meld(tuple(meld)) for meld in melds]
    if any(meld is None for meld in read):
        return None
    return opening_check(meld for meld in read if meld is not None).missing


def judge(puzzle: Puzzle, play: object) -> Verdict:
    """Apply the answer's moves for seat 0 with the game's own rules; then measure it against the goal."""
    target, unit = puzzle.goal_value, puzzle.unit
    state = state_of(puzzle.position)
    start = len(state.racks[0])
    jokers_before = sum(tile_of(tile).is_joker for tile in state.racks[0])
    took = False
    discarded = False
    try:
        moves = _moves_of(play)
    except EngineError as error:
        return Verdict(False, target, str(error), legal=False, unit=unit, code=error.message_code)
    except ValueError as error:
        return Verdict(False, target, str(error), legal=False, unit=unit)
    for move in moves:
        try:
            state = RULES.apply(state, 0, move)
        except EngineError as error:
            short = target
            if puzzle.kind == "open" and isinstance(move, Lay):
                missing = _opening_short(move.melds)
                short = target if missing is None or missing == 0 else missing
            return Verdict(False, short, f"{move}: {error}", legal=False, unit=unit, code=error.message_code)
        took = took or isinstance(move, TakeJoker)
        discarded = isinstance(move, Discard)
    held = len(state.racks[0]) + discarded
    placed = start - held
    if puzzle.kind == "open":
        if state.opened_on[0] is not None:
            return Verdict(True, 0, reached=target, unit=unit)
        return Verdict(False, target, "Nothing was laid: the goal is to open this turn", reached=0, unit=unit)
    if puzzle.kind == "go-out":
        if held <= 1:
            return Verdict(True, 0, reached=placed, unit=unit)
        return Verdict(
            False,
            held - 1,
            f"{held} tiles are left in your hand: going out leaves one, to discard",
            reached=placed,
            unit=unit,
        )
    kept_joker = sum(tile_of(tile).is_joker for tile in state.racks[0]) > jokers_before
    short = max(0, target - placed)
    if took and not kept_joker and not short:
        return Verdict(True, 0, reached=placed, unit=unit)
    if not took:
        reason = "No joker was taken: the goal is to take the joker and lay it"
    elif kept_joker:
        reason = "The joker you took is still in your hand: lay it this turn"
    else:
        reason = f"It places {placed} tiles from your hand: the best turn places {target}"
    return Verdict(False, max(short, 1), reason, reached=placed, unit=unit)


def recheck(puzzle: Puzzle) -> str | None:
    """None when the exact search still gives the puzzle's target (and, for an opening, an opening), and
    the stored solution is judged right; else what is wrong."""
    rack, table = _rack(puzzle.position), _table(puzzle.position)
    opened = bool(puzzle.position["opened"])
    best = best_play(Position(rack, table, opened, opened))
    if puzzle.kind == "open":
        if best.tiles <= 0:
            return "the exact search finds no opening"
    elif best.tiles != puzzle.goal_value:
        return f"the exact search's best turn places {best.tiles} tiles, the target says {puzzle.goal_value}"
    if puzzle.kind == "go-out" and best.tiles != len(rack) - 1:
        return "a go-out puzzle whose best turn keeps tiles"
    verdict = judge(puzzle, puzzle.solution["moves"])
    if not verdict.right:
        return f"the stored solution is not right: {verdict.reason}"
    return None
