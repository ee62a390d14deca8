"""Scoring of the Rearrange game (SPEC 4 "End of a game and scoring", from `004_*`). Every game sums to 0.

- Someone empties the rack ("Rummy"): each loser scores minus its rack total; the winner the plus of them.
- The pool ran out and everyone still in passed in a row: the lowest rack total wins (ties: fewer tiles;
  still tied: the winners share the plus in whole points, and the points that do not divide go one each to
  the tied winners in seat order: `shared_win`). Each loser scores minus (its total - the winner's total);
  the winner(s) the plus of them.
- Rack totals are face values; a joker left on a rack counts 30.
- A seat that left scores 0 for the game (its rack left with it); so does everyone in a game that ended
  because fewer than two players were left.
"""

from __future__ import annotations

from collections.abc import Iterable

from apps.engine.common import tiles_text
from apps.engine.game import GameResult, ScoreLine, SeatScore
from apps.engine.rearrange.melds import rack_value
from apps.engine.rearrange.state import RearrangeState
from apps.engine.tiles import TileId, tile_of


def rack_total(rack: Iterable[TileId]) -> int:
    return sum(rack_value(tile_of(tile)) for tile in rack)


def _winners(state: RearrangeState) -> tuple[int, ...]:
    """Who won the game (several: a shared win at the end of the pool); () when nobody did."""
    if state.end == "out" and state.out is not None:
        return (state.out,)
    if state.end != "pile":
        return ()
    players = state.in_play
    best = min((rack_total(state.racks[seat]), len(state.racks[seat])) for seat in players)
    return tuple(seat for seat in players if (rack_total(state.racks[seat]), len(state.racks[seat])) == best)


SHARED_LABEL = "Shared win: split equally, points left over one each to the earlier seats"


def shared_win(plus: int, winners: int) -> tuple[int, ...]:
    """How `winners` tied winners share `plus` points, in seat order (SPEC 4, decisions): equal whole
    shares, and the points that do not divide one each to the earliest seats. 31 among 3: 11, 10, 10."""
    share, odd = divmod(plus, winners)
    return tuple(share + (1 if index < odd else 0) for index in range(winners))


def _shared_detail(plus: int, winners: int, won: int) -> str:
    """The score table's note under a shared win: what was split, and the point left over if this seat got one."""
    split = f"{plus} split {winners} ways"
    return split if won * winners <= plus else f"{split}, +1 left over"


def score(state: RearrangeState) -> GameResult:
    """Every seat's score once the game is over (before that, and for seats that left: 0)."""
    winners = _winners(state)
    lines: dict[int, list[ScoreLine]] = {seat: [] for seat in range(state.seats)}
    plus = 0
    if winners:
        base = rack_total(state.racks[winners[0]]) if state.end == "pile" else 0
        for seat in state.in_play:
            if seat in winners:
                continue
            rack = state.racks[seat]
            owed = rack_total(rack) - base
            params: tuple[tuple[str, int], ...]
            if state.end == "pile":
                label = f"Rack total {rack_total(rack)} minus the winner's {base}"
                params = (("tiles", len(rack)), ("total", rack_total(rack)), ("winner", base))
            else:
                label = f"Rack total {rack_total(rack)}"
                params = (("tiles", len(rack)), ("total", rack_total(rack)))
            lines[seat].append(ScoreLine("rack", label, -owed, tiles_text(len(rack)), params=params))
            plus += owed
        if len(winners) == 1:
            lines[winners[0]].append(ScoreLine("won", "Won: the losers' points", plus))
        else:
            for seat, won in zip(sorted(winners), shared_win(plus, len(winners)), strict=True):
                detail = _shared_detail(plus, len(winners), won)
                params = (("extra", int(won * len(winners) > plus)), ("split", plus), ("ways", len(winners)))
                lines[seat].append(ScoreLine("shared", SHARED_LABEL, won, detail, params=params))
    for seat in range(state.seats):
        if state.left[seat]:
            lines[seat] = [ScoreLine("left", "Left the game", 0)]
        elif not lines[seat]:
            lines[seat] = [ScoreLine("none", "No score this game", 0)]
    seats = tuple(
        SeatScore(seat, tuple(lines[seat]), sum(line.points for line in lines[seat]), state.left[seat])
        for seat in range(state.seats)
    )
    winner = winners[0] if len(winners) == 1 else None
    return GameResult(state.end or "", winner, seats)
