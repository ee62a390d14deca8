"""What the engine tells a player, in the player's language (SPEC 12).

The engine is a pure library and speaks English (for its command line); every error it raises and every
rule phrase inside one carries a stable `message_code` and its `params` (apps/engine/errors.py). The site
says them again here, by code: `engine_text(error)` is the sentence a player reads, in the active
language. Tiles in the parameters are named as the table names them ("red 5", "5 roșu"), nested phrases
(a meld's broken rule) are said the same way, and a game's slug becomes its name.

tests/tables/test_engine_text.py fails when the engine can produce a code that has no sentence here.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.catalog.data import game_name
from apps.catalog.examples.common import tile_name
from apps.engine.errors import EngineError
from apps.engine.tiles import parse_melds

#: Parameters that hold tiles in notation ("r5", "r1 k1 k1", melds separated by "|").
TILE_PARAMS = frozenset({"tile", "tiles", "meld", "melds", "missing", "stands", "rack"})

MESSAGES: dict[str, Promise] = {
    # --- Moves the rules refuse: the house game -------------------------------------------------------
    "not_your_turn": _("It is not your turn."),
    "game_over": _("This game is over."),
    "seat_left": _("You are no longer in this game."),
    "draw_first": _("Draw a tile first (or take the last discard)."),
    "starter_no_draw": _("The starting player does not draw on the first turn: lay down or discard."),
    "already_drew": _("You have already drawn this turn."),
    "not_on_rack": _("You have no %(tile)s on your rack."),
    "too_few_on_rack": _("You do not have that many %(tile)s on your rack."),
    "keep_one": _("Always keep one tile to discard: the last tile is discarded, never laid."),
    "no_melds_yet": _("There are no melds on the table yet."),
    "no_such_meld": _("There is no such meld on the table."),
    "take_before_opened": _("You can take the last discard only from the turn after your opening."),
    "no_discard_to_take": _("There is no discard to take: only the tile the previous player just discarded can be taken."),
    "discard_not_in_meld": _("The last discard, %(tile)s, must go into the new meld."),
    "lay_off_before_opened": _("You can lay off only from the turn after your opening."),
    "does_not_fit": _("%(tiles)s do not fit that meld (%(meld)s): %(rule)s."),
    "joker_before_opened": _("You can take a joker only from the turn after your opening."),
    "no_joker_in_meld": _("There is no joker in that meld (%(meld)s)."),
    "joker_run_one_tile": _("A joker in a run is taken with exactly the one tile it stands for."),
    "joker_stands_for": _("The joker in that meld stands for %(stands)s."),
    "joker_set_both_colours": _(
        "In a set of three the joker is taken only by laying both missing colours (%(missing)s); to lay one, lay it off."
    ),
    "joker_taken_with": _("That joker is taken with %(missing)s."),
    "not_a_meld": _("%(tiles)s are not a meld: %(rule)s."),
    "opening_short": _("Your opening is worth %(points)s: it needs at least %(needed)s."),
    "opening_needs_run": _("An opening needs at least one run."),
    # The rules of a meld (said inside another message, after a colon).
    "meld_too_short": _("a meld needs at least 3 tiles"),
    "meld_jokers_twice": _("a meld needs at least twice as many real tiles as jokers"),
    "meld_jokers_adjacent": _("two jokers can never sit side by side"),
    "meld_mixed": _("a run is one colour and a set is one number"),
    "set_too_long": _("a set has at most 4 tiles, one of each colour"),
    "set_colours": _("a set needs tiles of different colours"),
    "run_too_long": _("a run has at most 13 tiles (a 1 is never at both ends)"),
    "run_one_inside": _("a 1 can start a run or follow 13, never sit in the middle"),
    "run_consecutive": _("a run needs consecutive numbers"),
    "run_below_one": _("a run cannot go below 1"),
    "run_past_one": _("a run cannot go on after a 1 that follows 13"),
    # --- Moves the rules refuse: the Rearrange game ----------------------------------------------------
    "not_a_set": _("%(tiles)s are not a set: %(rule)s."),
    "table_tile_to_rack": _("A table tile went to your rack (%(tiles)s): tiles on the table stay on the table."),
    "joker_to_rack": _("A joker from the table went to your rack: a freed joker must be played again this turn, in a set with at least two tiles from your rack."),
    "not_on_rack_or_table": _("%(tiles)s: not on your rack, and not on the table when the turn began."),
    "nothing_placed": _("Nothing has left your rack: play at least one tile, or draw."),
    "opening_changed_table": _("On your opening turn the sets already on the table stay as they were: %(tiles)s was changed."),
    "joker_free_with": _("A joker is freed only by putting the tile it stands for, %(stands)s, from your rack in its place."),
    "freed_joker_set": _("A freed joker must be played again in a set with at least two tiles from your rack: %(meld)s does not have them."),
    "rr_set_too_short": _("a set needs at least %(count)s tiles"),
    "rr_set_numbered": _("a set needs at least one numbered tile"),
    "rr_set_mixed": _("a run is one colour with consecutive numbers, a group is one number in different colours"),
    "rr_run_no_wrap": _("1 is always the lowest number: a run never goes on from 13 to 1"),
    "rr_run_consecutive": _("a run goes up one number at a time, in table order"),
    "rr_run_below_one": _("a run cannot go below 1, jokers included"),
    "rr_run_past_13": _("a run cannot go past 13, jokers included"),
    "rr_group_too_long": _("a group has at most 4 tiles, one of each colour"),
    "rr_group_colours": _("a group has each colour only once"),
    "not_a_table": _("That table is impossible: %(rule)s."),
    # There are only two of each tile and two jokers (said inside another message, after a colon).
    "copies_jokers": _("there are only two jokers in the game, not %(count)s"),
    "copies_tiles": _("there are only two of each tile in the game, not %(count)s × %(tile)s"),
    # --- Moves that do not read (a client's mistake, or a hand-written move) --------------------------
    "not_a_tile": _("%(text)s is not a tile: write a colour letter (r, y, b, k) and a number from 1 to 13, like r5 or k13, or J for a joker."),
    "tile_number": _("Tile numbers go from 1 to 13."),
    "tile_half_made": _("A tile has both a colour and a number, or neither (a joker)."),
    "tile_id": _("There is no such tile."),
    "face_index": _("There is no such tile."),
    "empty_meld": _("There is an empty meld between two “|”."),
    "not_a_move": _("That is not a move."),
    "not_a_move_form": _("That is not a move: send its notation or its dict form."),
    "unknown_move": _("%(move)s is not a move: a move starts with one of %(kinds)s."),
    "unknown_move_type": _("That is not a move: its “type” must be one of %(kinds)s."),
    "malformed_move": _("That is not a well-formed “%(kind)s” move."),
    "move_takes_nothing": _("“%(kind)s” takes nothing after it."),
    "not_a_house_move": _("%(move)s is not a move of this game."),
    "not_a_rearrange_move": _("%(move)s is not a move of this game."),
    "tiles_form": _("Tiles are written as a list of faces like r5 or J."),
    "meld_number_form": _("A meld on the table is named by its number, 0 for the first one laid."),
    "take_form": _("Write exactly one meld with the last discard, like “take r3 r4 r5”."),
    "lay_form": _("Write the melds to lay, like “lay r1 r2 r3 | k10 y10 b10”."),
    "melds_form": _("“melds” is a list of melds, each a list of faces."),
    "lay_off_dots": _("Write “..” once, for the meld already on the table."),
    "lay_off_form": _("Write the tiles to lay off, like “add 2 r8” or “add 2 r4 ..”."),
    "lay_off_nothing": _("Lay off at least one tile."),
    "joker_form": _("Write the tile that replaces the joker, like “joker 2 r6”."),
    "joker_nothing": _("Give the tile that replaces the joker."),
    "discard_form": _("Discard exactly one tile, like “discard r5”."),
    "discard_tile_form": _("“tile” is a face like r5."),
    "play_form": _("Write the whole table after the play, like “play r1 r2 r3 | k10 y10 b10”."),
    "table_form": _("“table” is a list of sets, each a list of faces like r5 or J."),
    "empty_set": _("A set on the table has at least one tile."),
    "only_two_copies": _("There are only two %(tile)s in the game."),
    "too_many_copies": _("There are only two of each tile: the table and the rack hold %(count)s × %(tile)s."),
    "too_many_jokers": _("There are only two jokers: the table and the rack hold %(count)s."),
    "solve_rack": _("Give the rack's tiles, like “r5 k8 k9 J”."),
    "solve_too_many": _("The table and the rack cannot hold these tiles together: %(rule)s."),
    # --- Games, seats, matches, deals and records (the table's own bookkeeping) -----------------------
    "unknown_game": _("There is no such game."),
    "game_not_available": _("%(game)s is not available yet."),
    "seat_count": _("%(game)s is played by 2, 3 or 4 players."),
    "match_seats": _("%(game)s is played by %(low)s to %(high)s players."),
    "simulate_seats": _("%(game)s is played by %(low)s to %(high)s players: name that many bots."),
    "simulate_games": _("Simulate at least one game."),
    "absent_seats": _("Those seats are not seats of this table."),
    "too_few_players": _("A game needs at least two players."),
    "no_such_seat": _("There is no such seat at this table."),
    "rack_size": _("A seat was dealt the wrong number of tiles."),
    "starter_absent": _("That seat cannot start: it is not in the game."),
    "deal_starter": _("That seat cannot start this deal."),
    "deal_racks": _("A deal has one rack per seat."),
    "deal_tiles": _("A deal must hold each of the 106 tiles exactly once."),
    "deal_not_fresh": _("Only a freshly dealt game has a deal to record."),
    "state_tiles": _("A game must hold each of the 106 tiles exactly once."),
    "unreadable": _("The saved game cannot be read."),
    "match_length": _("A match is 1, 3 or 5 games."),
    "match_seat_numbers": _("A match's starter and seats must be seats of its table."),
    "match_scores": _("A match has one score per seat for every game."),
    "match_over": _("The match is already over."),
    "match_over_no_deal": _("The match is over: there are no more games to deal."),
    "game_not_over": _("The game is not over yet."),
    "no_player_to_move": _("A freshly dealt game has a player to move."),
    "ceremony_empty": _("The draw for the start has at least one round."),
    "ceremony_too_long": _("The draw for the start goes on after its starter was found."),
    "ceremony_seat": _("Round %(round)s of the draw for the start: that seat may not draw now."),
    "ceremony_number": _("Round %(round)s of the draw for the start: everyone still in draws until they have a number."),
    "ceremony_tie": _("The draw for the start ends in a tie: the tied seats draw again."),
    "ceremony_starter": _("The draw for the start names another starter."),
    "record_not_object": _("A game record is a JSON object."),
    "record_format": _("This is not a game record of this site."),
    "record_malformed": _("This game record is not well formed."),
    "record_time": _("A move of the record goes back in time."),
    "record_move_fails": _("Move %(number)s of the record fails: %(error)s"),
    "record_unfinished": _("The record has a result, but its moves do not finish the game."),
    "record_scores": _("The record's scores differ from the replayed ones."),
    # Provably fair deals (SPEC 11): the seeds, the stream and a record's fair part.
    "fair_game_number": _("A game's number is 1 or more."),
    "fair_draw_range": _("A draw is below a number from 1 to 2³²."),
    "fair_read_count": _("A stream cannot read a negative number of bytes."),
    "fair_scheme": _("A record's fair-deal part must name its scheme, %(scheme)s."),
    "fair_malformed": _("This record's fair-deal part is not well formed."),
    "fair_seed_unpublished": _("The server seed is published when the match is over: this deal cannot be checked yet."),
    "fair_commitment_mismatch": _("The server seed does not match the commitment shown before the deal (%(commitment)s)."),
    "fair_server_seed": _("A server seed is %(bytes)s bytes long."),
    "fair_seed_count": _("A fair deal has one player seed per seat, for 2 to 4 seats."),
    "fair_player_seed": _("A player's seed is %(bytes)s bytes long, or empty."),
    "fair_seeds_seats": _("A fair deal for %(seats)s seats needs one player seed per seat."),
    "fair_game_of_match": _("A match has games 1 to %(high)s."),
    "fair_first_game_absent": _("Nobody has left a match before its first game."),
    "fair_record_seats": _("The record has %(seeds)s player seeds for a deal of %(seats)s seats."),
    "fair_deal_differs": _("The recorded deal is not the fair deal of game %(number)s from these seeds."),
    # Reviews and hints (apps/engine/review).
    "no_review": _("%(game)s has no review yet."),
    "hint_needs_view": _("A hint needs a seat's view of a game."),
    "hint_spectator": _("A hint is for a player's own seat, not for a spectator."),
    "hint_not_your_turn": _("A hint is for your own turn: it is not your turn now."),
    "hint_other_view": _("That is the view of another seat or another game, not seat %(seat)s of %(game)s."),
    "no_bots": _("There are no bots for %(game)s."),
    "no_bot_level": _("There is no bot of that level for %(game)s."),
    "bot_not_available": _("That bot for %(game)s is not available yet."),
    "bot_illegal_move": _("A bot played an illegal move: %(error)s"),
    "bot_endless_game": _("A game of %(game)s went on too long: a bot cannot finish it."),
}


def engine_text(said: Any) -> str:
    """The sentence for an engine error (or phrase) in the active language; anything without a code
    of the engine (a site error, an error the site raised with its own words) is said as it is."""
    template = MESSAGES.get(getattr(said, "message_code", ""))
    if template is None:
        return str(said)
    params = {name: _say(name, value) for name, value in getattr(said, "params", {}).items()}
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):  # a translation that wants what this raise does not give
        return str(said)


def _say(name: str, value: Any) -> Any:
    if getattr(value, "message_code", None) in MESSAGES:
        return engine_text(value)
    if name == "game" and isinstance(value, str):
        return game_name(value)
    if name in TILE_PARAMS and isinstance(value, str):
        return tile_names(value)
    return value


def tile_names(notation: str) -> str:
    """"r5 J | k1" -> "red 5, joker; black 1", in the active language (notation that does not read is
    given back as it is)."""
    try:
        melds = parse_melds(notation)
    except EngineError:
        return notation
    return "; ".join(", ".join(tile_name(tile) for tile in meld) for meld in melds)
