"""The house game's state machine: `apply(state, seat, move)` (SPEC 3 "The turn" to "Time").

Every function here is pure: it builds a new `HouseState` with `dataclasses.replace`, sharing every tuple
it does not change.

Which physical copy a face means, when a rack holds both: the lower id, except for jokers, where laying
one on the table uses a joker never played before first (it earns its +50) and discarding one gives up a
joker already played first (so nobody can earn +50 with it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from apps.engine.common import apply_seat_move, next_in_play, seat_leaves, with_seat
from apps.engine.errors import IllegalMove, InvalidMove, Phrase
from apps.engine.game import Auto, Draw, Move, Timeout
from apps.engine.house.melds import MeldKind, opening_check, rack_penalty, read_meld
from apps.engine.house.moves import Discard, Lay, LayOff, TakeDiscard, TakeJoker
from apps.engine.house.state import HouseState, Phase, TableMeld
from apps.engine.tiles import JOKER_IDS, Tile, TileId, format_melds, format_tiles, tile_of


def opened_before_this_turn(state: HouseState, seat: int) -> bool:
    opened = state.opened_on[seat]
    return opened is not None and opened < state.turn_no


def _take_from_rack(
    state: HouseState, rack: tuple[TileId, ...], faces: Sequence[Tile], for_table: bool
) -> tuple[tuple[TileId, ...], tuple[TileId, ...]]:
    """(rack without the tiles, the ids taken in the order of `faces`), or IllegalMove if the rack lacks them."""
    left = list(rack)
    taken: list[TileId] = []
    for face in faces:
        candidates = [tile for tile in left if tile_of(tile) == face]
        if not candidates:
            wanted = sum(1 for other in faces if other == face)
            have = sum(1 for tile in rack if tile_of(tile) == face)
            if have == 0:
                raise IllegalMove(f"You have no {face} on your rack", "not_on_rack", tile=str(face))
            raise IllegalMove(f"You have {have} {face} on your rack, not {wanted}", "too_few_on_rack", tile=str(face), have=have, wanted=wanted)
        if face.is_joker and len(candidates) > 1:
            fresh = [tile for tile in candidates if state.joker_by[tile - JOKER_IDS[0]] is None]
            played = [tile for tile in candidates if tile not in fresh]
            preferred = fresh if for_table else played
            chosen = (preferred or candidates)[0]
        else:
            chosen = candidates[0]
        left.remove(chosen)
        taken.append(chosen)
    return tuple(left), tuple(taken)


def _keep_one(rack: tuple[TileId, ...]) -> None:
    if not rack:
        raise IllegalMove("You must always keep one tile to discard: the last tile is discarded, never laid", "keep_one")


def _credit_jokers(state: HouseState, seat: int, tiles: Sequence[TileId]) -> tuple[int | None, int | None]:
    """`joker_by` after `seat` puts `tiles` on the table: a joker's +50 goes to its first player only."""
    first, second = state.joker_by
    for tile in tiles:
        if tile == JOKER_IDS[0] and first is None:
            first = seat
        elif tile == JOKER_IDS[1] and second is None:
            second = seat
    return (first, second)


def _table_meld(state: HouseState, index: int) -> TableMeld:
    if not 0 <= index < len(state.melds):
        count = len(state.melds)
        if not count:
            raise InvalidMove("There are no melds on the table yet", "no_melds_yet")
        raise InvalidMove(
            f"There is no meld {index} on the table: the melds are numbered 0 to {count - 1}", "no_such_meld", n=index, last=count - 1
        )
    return state.melds[index]


def _need_phase(state: HouseState, phase: Phase, move: Move) -> None:
    if state.phase is phase:
        return
    if phase is Phase.PLAY:
        raise IllegalMove(f"{str(move)!r}: draw a tile first (or take the last discard)", "draw_first", move=str(move))
    if state.turn_no == 0:
        raise IllegalMove(f"{str(move)!r}: the starting player's first turn has no draw", "starter_no_draw", move=str(move))
    raise IllegalMove(f"{str(move)!r}: you have already drawn this turn", "already_drew", move=str(move))


# --- turn flow ------------------------------------------------------------------------------------------


def _over(state: HouseState, end: str, out: int | None = None, out_by_joker: bool = False) -> HouseState:
    return replace(
        state, phase=Phase.OVER, end=end, drawn=None, discard_open=False, out=out, out_by_joker=out_by_joker
    )


def _next_turn(state: HouseState) -> HouseState:
    """Hand the turn to the next seat still in, clockwise; the game ends when the pile has run out."""
    if not state.pile:
        return _over(state, "pile")
    seat = next_in_play(state.turn + 1, state.left)
    return replace(state, turn=seat, turn_no=state.turn_no + 1, phase=Phase.DRAW, drawn=None)


def _draw(state: HouseState, seat: int) -> HouseState:
    tile = state.pile[0]
    rack = tuple(sorted((*state.racks[seat], tile)))
    return replace(
        state, racks=with_seat(state.racks, seat, rack), pile=state.pile[1:], phase=Phase.PLAY, drawn=tile, discard_open=False
    )


def _discard_tile(state: HouseState, seat: int, tile: TileId) -> HouseState:
    rack = list(state.racks[seat])
    rack.remove(tile)
    after = replace(
        state, racks=with_seat(state.racks, seat, tuple(rack)), discards=(*state.discards, tile), discard_open=True, drawn=None
    )
    if not rack:
        return _over(after, "out", out=seat, out_by_joker=tile_of(tile).is_joker)
    return _next_turn(after)


def most_expensive(rack: Sequence[TileId]) -> Tile:
    """The face the table discards for a seat when there is no drawn tile to discard: the most expensive
    non-joker by rack penalty, then the higher number (then the colour order r y b k); a joker only when
    nothing else is left."""
    faces = {tile_of(tile) for tile in rack}
    real = [face for face in faces if not face.is_joker]
    if not real:
        return min(faces, key=lambda face: face.key)
    return max(real, key=lambda face: (rack_penalty(face), face.number or 0, -face.key))


def drawn_on_rack(state: HouseState, seat: int) -> Tile | None:
    """The face of the tile `seat` drew this turn if the rack still holds that face, else None.

    Tiles are judged by face, never by hidden id (SPEC 3, decisions): moves name faces, so a player who held
    one k12, drew the other and laid "k12" still holds "the drawn tile". This is the tile the timeout and
    autopilot discard, and the one the seat's view marks as just drawn."""
    if seat != state.turn or state.drawn is None:
        return None
    face = tile_of(state.drawn)
    return face if any(tile_of(tile) == face for tile in state.racks[seat]) else None


def timeout_discard(state: HouseState, seat: int) -> Tile:
    """What the table discards for `seat` once it has drawn (SPEC 3 "Time"): the drawn tile, judged by face,
    or the most expensive non-joker when that face has left the rack (or nothing was drawn: the starter's
    first turn, or after taking the last discard)."""
    return drawn_on_rack(state, seat) or most_expensive(state.racks[seat])


# --- the moves ----------------------------------------------------------------------------------------------


def _apply_draw(state: HouseState, seat: int, move: Move) -> HouseState:
    _need_phase(state, Phase.DRAW, move)
    return _draw(state, seat)


def _apply_take(state: HouseState, seat: int, move: TakeDiscard) -> HouseState:
    _need_phase(state, Phase.DRAW, move)
    if not opened_before_this_turn(state, seat):
        raise IllegalMove("You can take the last discard only from the turn after your opening", "take_before_opened")
    if not state.discard_open or not state.discards:
        raise IllegalMove("Only the tile just discarded by the previous player can be taken, and there is none", "no_discard_to_take")
    top = state.discards[-1]
    face = tile_of(top)
    meld = read_meld(move.meld)
    if face not in meld.tiles:
        raise IllegalMove(
            f"{format_tiles(move.meld)!r}: the last discard, {face}, must go into the new meld", "discard_not_in_meld", tiles=format_tiles(move.meld), tile=str(face)
        )
    at = meld.tiles.index(face)
    from_rack = meld.tiles[:at] + meld.tiles[at + 1 :]
    rack, taken = _take_from_rack(state, state.racks[seat], from_rack, for_table=True)
    _keep_one(rack)
    tiles = taken[:at] + (top,) + taken[at:]
    laid = TableMeld(tiles, (seat,) * len(tiles), seat)
    return replace(
        state,
        racks=with_seat(state.racks, seat, rack),
        discards=state.discards[:-1],
        discard_open=False,
        melds=(*state.melds, laid),
        joker_by=_credit_jokers(state, seat, tiles),
        phase=Phase.PLAY,
        drawn=None,
    )


def _apply_lay(state: HouseState, seat: int, move: Lay) -> HouseState:
    _need_phase(state, Phase.PLAY, move)
    melds = [read_meld(faces) for faces in move.melds]
    rack, taken = _take_from_rack(state, state.racks[seat], [face for meld in melds for face in meld.tiles], for_table=True)
    opening = state.opened_on[seat] is None
    if opening:
        check = opening_check(melds)
        if check.reason is not None:
            raise IllegalMove(f"{check.reason} ({format_melds(move.melds)!r})", check.reason.message_code, **check.reason.params, melds=format_melds(move.melds))
    _keep_one(rack)
    laid: list[TableMeld] = []
    at = 0
    for meld in melds:
        tiles = taken[at : at + len(meld.tiles)]
        at += len(meld.tiles)
        laid.append(TableMeld(tiles, (seat,) * len(tiles), seat))
    opened_on = with_seat(state.opened_on, seat, state.turn_no) if opening else state.opened_on
    return replace(
        state,
        racks=with_seat(state.racks, seat, rack),
        melds=state.melds + tuple(laid),
        joker_by=_credit_jokers(state, seat, taken),
        opened_on=opened_on,
    )


def _apply_lay_off(state: HouseState, seat: int, move: LayOff) -> HouseState:
    _need_phase(state, Phase.PLAY, move)
    if not opened_before_this_turn(state, seat):
        raise IllegalMove("You can lay off only from the turn after your opening", "lay_off_before_opened")
    old = _table_meld(state, move.meld)
    faces = move.before + old.faces + move.after
    read_meld(
        faces,
        Phrase(
            f"{str(move)!r} does not fit meld {move.meld} ({format_tiles(old.faces)})",
            "does_not_fit",
            tiles=format_tiles(move.before + move.after),
            meld=format_tiles(old.faces),
        ),
    )
    rack, taken = _take_from_rack(state, state.racks[seat], move.before + move.after, for_table=True)
    _keep_one(rack)
    before, after = taken[: len(move.before)], taken[len(move.before) :]
    extended = TableMeld(
        before + old.tiles + after,
        (seat,) * len(before) + old.placed_by + (seat,) * len(after),
        old.owner,
    )
    return _replace_meld(state, seat, move.meld, extended, rack, taken)


def _replace_meld(
    state: HouseState, seat: int, index: int, meld: TableMeld, rack: tuple[TileId, ...], laid: Sequence[TileId]
) -> HouseState:
    return replace(
        state,
        racks=with_seat(state.racks, seat, rack),
        melds=state.melds[:index] + (meld,) + state.melds[index + 1 :],
        joker_by=_credit_jokers(state, seat, laid),
    )


def _apply_take_joker(state: HouseState, seat: int, move: TakeJoker) -> HouseState:
    _need_phase(state, Phase.PLAY, move)
    if not opened_before_this_turn(state, seat):
        raise IllegalMove("You can take a joker only from the turn after your opening", "joker_before_opened")
    old = _table_meld(state, move.meld)
    meld = read_meld(old.faces)
    where = f"meld {move.meld} ({format_tiles(old.faces)})"
    if not meld.joker_positions:
        raise IllegalMove(f"There is no joker in {where}", "no_joker_in_meld", meld=format_tiles(old.faces))
    given = format_tiles(move.tiles)
    if meld.kind is MeldKind.RUN:
        if len(move.tiles) != 1:
            raise IllegalMove(f"{given!r}: a joker in a run is taken with exactly the one tile it stands for", "joker_run_one_tile", tiles=given)
        at = next((i for i in meld.joker_positions if meld.stands_for[i] == move.tiles), None)
        if at is None:
            stands = " or ".join(str(meld.stands_for[i][0]) for i in meld.joker_positions)
            raise IllegalMove(
                f"{given!r}: the joker in {where} stands for {stands}",
                "joker_stands_for",
                tiles=given,
                meld=format_tiles(old.faces),
                stands=" ".join(str(meld.stands_for[i][0]) for i in meld.joker_positions),
            )
    else:
        at = meld.joker_positions[0]
        missing = meld.stands_for[at]
        if sorted(move.tiles, key=lambda tile: tile.key) != sorted(missing, key=lambda tile: tile.key):
            if len(missing) == 2 and len(move.tiles) == 1 and move.tiles[0] in missing:
                raise IllegalMove(
                    f"{given!r}: in a three-tile set the joker is taken only by laying both missing colours "
                    f"({format_tiles(missing)}); to lay one tile, lay it off ('add {move.meld} {given}')",
                    "joker_set_both_colours",
                    tiles=given,
                    missing=format_tiles(missing),
                )
            raise IllegalMove(
                f"{given!r}: the joker in {where} is taken with {format_tiles(missing)}",
                "joker_taken_with",
                tiles=given,
                meld=format_tiles(old.faces),
                missing=format_tiles(missing),
            )
    rack, taken = _take_from_rack(state, state.racks[seat], move.tiles, for_table=True)
    joker = old.tiles[at]
    tiles = old.tiles[:at] + taken[:1] + old.tiles[at + 1 :] + taken[1:]
    placed_by = old.placed_by[:at] + (seat,) + old.placed_by[at + 1 :] + (seat,) * (len(taken) - 1)
    read_meld(tile_of(tile) for tile in tiles)  # a joker's replacement always leaves a legal meld
    rack = tuple(sorted((*rack, joker)))
    return _replace_meld(state, seat, move.meld, TableMeld(tiles, placed_by, old.owner), rack, taken)


def _apply_discard(state: HouseState, seat: int, move: Discard) -> HouseState:
    _need_phase(state, Phase.PLAY, move)
    _, taken = _take_from_rack(state, state.racks[seat], (move.tile,), for_table=False)
    return _discard_tile(state, seat, taken[0])


def _apply_timeout(state: HouseState, seat: int, move: Move) -> HouseState:
    """SPEC 3 "Time": draw if not drawn, then discard as the seat would with "discard FACE" (the face of
    `timeout_discard`, the same copy a player's own discard gives up). What was laid stays."""
    if state.phase is Phase.DRAW:
        state = _draw(state, seat)
    return _apply_discard(state, seat, Discard(timeout_discard(state, seat)))


def _apply_leave(state: HouseState, seat: int) -> HouseState:
    """The seat's rack leaves the game (kept in `gone`), its melds stay; the game ends below two players.

    Leaving on one's turn passes the turn on, and closes the last discard: only the player whose turn came
    right after it could take it (SPEC 3, decisions), and that was this one."""
    after = seat_leaves(state, seat)
    if len(after.in_play) < 2:
        return _over(after, "left")
    if seat == state.turn:
        return _next_turn(replace(after, drawn=None, discard_open=False))
    return after


def _apply_turn_move(state: HouseState, seat: int, move: Move) -> HouseState:
    if isinstance(move, Draw):
        return _apply_draw(state, seat, move)
    if isinstance(move, TakeDiscard):
        return _apply_take(state, seat, move)
    if isinstance(move, Lay):
        return _apply_lay(state, seat, move)
    if isinstance(move, LayOff):
        return _apply_lay_off(state, seat, move)
    if isinstance(move, TakeJoker):
        return _apply_take_joker(state, seat, move)
    if isinstance(move, Discard):
        return _apply_discard(state, seat, move)
    if isinstance(move, (Timeout, Auto)):
        return _apply_timeout(state, seat, move)
    raise InvalidMove(f"{str(move)!r} is not a move of Tile Rummy", "not_a_house_move", move=str(move))


def apply(state: HouseState, seat: int, move: Move) -> HouseState:
    return apply_seat_move(
        state,
        seat,
        move,
        over=state.phase is Phase.OVER,
        leave=_apply_leave,
        turn_move=_apply_turn_move,
        autopilot_moves=(Timeout, Auto),
    )
