"""A simple random-legal player of the house game, for tests, simulations and benchmarks (not a bot for
people to play against: see the bots). Every move it makes comes from the helpers and goes through
`apply`, so whole games played with it exercise the rules end to end."""

from __future__ import annotations

import random

from apps.engine.game import Draw, Move
from apps.engine.house.helpers import (
    joker_takes,
    lay_off_moves,
    melds_from_rack,
    opening_move,
    rack_faces,
    take_discard_moves,
)
from apps.engine.house.moves import Discard, Lay
from apps.engine.house.play import apply
from apps.engine.house.state import HouseState, Phase
from apps.engine.tiles import Tile, tile_of


def random_turn(state: HouseState, rng: random.Random) -> tuple[HouseState, list[Move]]:
    """Play the whole turn of the seat to move with random legal choices; returns the state and the moves."""
    seat = state.turn
    moves: list[Move] = []

    def play(move: Move) -> None:
        nonlocal state
        state = apply(state, seat, move)
        moves.append(move)

    if state.phase is Phase.DRAW:
        takes = take_discard_moves(state, seat)
        play(rng.choice(takes) if takes and rng.random() < 0.7 else Draw())
    if state.opened_on[seat] is None:
        opening = opening_move(state, seat)
        if opening is not None and rng.random() < 0.8:
            play(opening)
    else:
        for _ in range(3):
            takes_jokers = joker_takes(state, seat)
            if takes_jokers and rng.random() < 0.8:
                play(rng.choice(takes_jokers))
        for meld in melds_from_rack(rack_faces(state, seat)):
            if rng.random() < 0.7 and _can_lay(state, seat, meld.tiles):
                play(Lay((meld.tiles,)))
        for _ in range(6):
            offs = lay_off_moves(state, seat)
            if not offs or rng.random() < 0.2:
                break
            play(rng.choice(offs))
    rack = state.racks[seat]
    play(Discard(tile_of(rng.choice(rack))))
    return state, moves


def _can_lay(state: HouseState, seat: int, tiles: tuple[Tile, ...]) -> bool:
    """Whether the rack still holds these tiles and one more to discard."""
    rack = rack_faces(state, seat)
    for tile in tiles:
        if tile not in rack:
            return False
        rack.remove(tile)
    return bool(rack)


def random_game(state: HouseState, rng: random.Random, max_turns: int = 1000) -> tuple[HouseState, list[tuple[int, Move]]]:
    """Play a game to its end with `random_turn` for every seat; returns the final state and (seat, move)s."""
    played: list[tuple[int, Move]] = []
    for _ in range(max_turns):
        if state.phase is Phase.OVER:
            break
        seat = state.turn
        state, moves = random_turn(state, rng)
        played.extend((seat, move) for move in moves)
    return state, played
