"""Every string the table and lobby scripts show, translated on the server (Django's gettext) and
rendered into the page as JSON: the scripts carry keys, never English sentences.

`%(name)s` placeholders are filled by the scripts (static/js/i18n.js). A `*_forms` entry lists the
plural forms of one phrase for counts 1, 2 and 20, which covers English and Romanian.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.catalog.data import CATALOG
from apps.lib.script_words import plural_forms, tile_words
from apps.tables import rated
from apps.tables.models import BotLevel
from apps.tables.parts import page_strings


def unrated_reasons() -> dict[str, str]:
    """Why a table is unrated, worded, by the reason codes of apps/tables/rated.py (the frames carry the
    codes; the scripts and the match page show these)."""
    return {
        rated.CASUAL: _("the players chose a casual match"),
        rated.BOT: _("a bot is playing"),
        rated.GUEST: _("a guest is playing"),
        rated.BOT_ACCOUNT: _("a bot account is playing with people"),
        rated.SAME_OWNER: _("bot accounts of the same owner are playing each other"),
        rated.UNVERIFIED_EMAIL: _("a player has not verified their email address"),
        rated.BARRED: _("a player is barred from rated play"),
        rated.NO_TIMER: _("there is no turn timer"),
        # SPEC 11: only the first few rated matches a day among the same players (RATED_REPEAT_LIMIT).
        rated.REPEAT_OPPONENTS: _("these players have already played as many rated matches together as a day allows"),
    }


def aborted_reasons() -> dict[str, str]:
    """Why a match was aborted (SPEC 11), by the codes of apps/tables/rated.py; `%(name)s` is the seat's."""
    return {
        rated.ABORT_LEFT: _("%(name)s left before the abort window closed: no places, no rating."),
        rated.ABORT_REMOVED: _("%(name)s was removed before the abort window closed: no places, no rating."),
        rated.ABORT_ABSENT: _(
            "%(name)s did not make 3 turns of their own in the first game (the table played for them): "
            "no places, no rating."
        ),
    }


def common_strings() -> dict[str, object]:
    return {
        **tile_words(),
        "conn_connecting": _("Connecting…"),
        "conn_connected": _("Connected"),
        "conn_reconnecting": _("Reconnecting…"),
        "conn_resynced": _("Back in sync"),
        "rated": _("Rated"),
        "unrated": _("Unrated"),
        # Translators: %(reasons)s lists why, e.g. "Unrated: a bot is playing, there is no turn timer".
        "unrated_because": _("Unrated: %(reasons)s"),
        "unrated_reasons": unrated_reasons(),
        "private": _("Private"),
        "single_game": _("One game"),
        "match_of_games_forms": plural_forms("Match of %(count)s game", "Match of %(count)s games"),
        "seat_free": _("Seat %(n)s: free"),
        "free_seat": _("Free seat"),
        "empty_seat": _("Empty seat"),
        # Frames carry codes, not words (apps/tables/snapshot.py): the scripts word them with these.
        "bot_easy": _("Bot (%(level)s)") % {"level": BotLevel.EASY.label},
        "bot_hard": _("Bot (%(level)s)") % {"level": BotLevel.HARD.label},
        # A bot account (SPEC 14): a program playing through the bot API, marked BOT wherever it is named.
        "bot_account_mark": _("BOT"),
        "bot_account_name": _("%(name)s · BOT"),
        "bot_account_title": _("A bot account: a program playing through the bot API"),
        "seat_invited": _("Waiting for %(name)s"),
        "no_timer": _("No timer"),
        "pace_seconds": _("%(seconds)s s per turn"),
        "game_names": {entry.slug: str(entry.name) for entry in CATALOG},
    }


def lobby_strings() -> dict[str, object]:
    return {
        **common_strings(),
        "join": _("Join"),
        "join_table_n": _("Join table %(id)s: take a free seat"),
        "watch": _("Watch"),
        "playing": _("Playing"),
        "open": _("Waiting for players"),
        "seats_taken": _("%(taken)s of %(count)s seats"),
        "no_tables": _("No tables are open right now. Open one below, or press Play now."),
        "players": _("Players"),
        "seats_label": _("Seats"),
        "table_n": _("Table %(id)s"),
        "seat_n": _("Seat %(n)s"),
        "live_tables_forms": plural_forms("%(count)s table live now", "%(count)s tables live now"),
        "nobody_playing": _("No table is open right now: be the first."),
        # The create-table form's search for bot accounts that are online (SPEC 14)
        "bots_online_forms": plural_forms("%(count)s bot account online", "%(count)s bot accounts online"),
        "rated_if_players": _("Rated, if every player who sits has an account with a verified email address."),
        "no_bots_online": _("No bot account with that name is online now: you can still invite one by its name."),
    }


def table_strings() -> dict[str, object]:
    return {
        **common_strings(),
        **page_strings(),  # the parts the apps above add: the chat (apps/chat), the hints (apps/review)
        # The page and the connection
        "title_your_turn": _("Your turn"),
        "not_connected": _("Not connected: reconnecting. Try again in a moment."),
        "table_closed": _("This table is closed."),
        "watching_turn": _("You are watching. %(name)s is playing."),
        "game_n_of_m": _("Game %(n)s of %(m)s"),
        # Fair deals (static/js/fair.js)
        "fair_label": _("Fair deal"),
        "fair_seeding": _("shuffling with every player's seed (commitment %(commitment)s)"),
        "fair_commitment": _("commitment %(commitment)s"),
        "fair_commitment_title": _("SHA-256 of the server's secret seed, shown before any player's seed: %(commitment)s"),
        "fair_check_link": _("Fair deal: see the check of every deal"),
        "fair_how": _("How it works"),
        "fair_waiting_seeds": _("Shuffling: every player's browser adds a random seed to the deal (a few seconds)."),
        # Seats and badges
        "you": _("you"),
        "tiles_forms": plural_forms("%(count)s tile", "%(count)s tiles"),
        "points_short": _("%(points)s pts"),
        "their_turn": _("their turn"),
        "badge_opened": _("Opened"),
        "badge_twin": _("Twin +50"),
        "badge_twin_title": _("Was dealt the indicator's twin: +50 at the end of the game"),
        "badge_autopilot": _("Autopilot"),
        # Translators: presence (SPEC 13): the player has no connection to the table open.
        "badge_offline": _("Away"),
        "badge_offline_title": _("Not connected to the table right now"),
        "badge_left": _("Left"),
        "badge_host": _("Host"),
        # The waiting room
        "waiting_for_players": _("Waiting for players"),
        "waiting_all_seated": _("Every seat is taken."),
        "waiting_empty_forms": plural_forms("%(count)s seat is still empty.", "%(count)s seats are still empty."),
        "waiting_host": _("The host starts the match when every seat is taken."),
        "sit_here": _("Sit here"),
        "start_match": _("Start the match"),
        "invite_link": _("Invite link"),
        "invite_private": _("This table is private: only people with this link can sit."),
        "invite_public": _("Invite a friend with this link:"),
        "copy_link": _("Copy link"),
        "copied": _("Copied"),
        "sit_in_seat": _("Sit in seat %(n)s"),
        "sit_as_guest": _("No account needed: Sit here makes you a guest player on the spot."),
        "sign_in_first": _("Or sign in first."),
        "leave_before_match": _("Stand up? Your seat becomes free for someone else."),
        "leave_aborts_match": _(
            "Leave the match? It has only just begun, so it ends here for everyone: no places, no rating."
        ),
        "leave_during_match": _(
            "Leave the match? You will be out of it and placed after everyone still playing, "
            "whatever your points."
        ),
        # The middle of the table
        "indicator": _("Indicator"),
        "indicator_is": _("Indicator: %(tile)s"),
        "double_game": _("Double game ×2"),
        "double_game_title": _("The indicator is a 1 or a joker: every point of this game counts twice"),
        "draw_pile": _("Draw pile"),
        "pile_count_forms": plural_forms("Draw pile: %(count)s tile", "Draw pile: %(count)s tiles"),
        "draw_from_pile": _("Draw a tile (%(count)s left in the pile)"),
        "last_discard": _("Last discard"),
        "last_discard_is": _("Last discard: %(tile)s"),
        "take_discard": _("Take the last discard, %(tile)s, into a new meld"),
        "discard_chosen": _("%(tile)s, the last discard, is chosen: select two or more tiles to meld it with"),
        "discards_under_forms": plural_forms("%(count)s tile under it", "%(count)s tiles under it"),
        "drop_to_discard": _("Drop a tile here to discard"),
        "no_melds_yet": _("No melds on the table yet. The first lay of each player is an opening: 45 points or more, with at least one run."),
        "run": _("run"),
        "set": _("set"),
        "meld_label": _("Meld %(n)s: %(kind)s by %(name)s, %(points)s points"),
        "joker_stands_for": _("joker, standing for %(tiles)s"),
        "select_then_meld": _("Select tiles on your rack first, then choose the meld to add them to."),
        # Your bar
        "your_rack_count": _("Your rack, %(count)s tiles"),
        "tile_drawn": _("%(tile)s, just drawn"),
        "waiting_deal": _("Waiting for the deal."),
        "game_over": _("Game over"),
        "bot_thinking": _("%(name)s is thinking…"),
        "their_turn_name": _("%(name)s is playing."),
        "your_turn_draw": _("Your turn: draw a tile."),
        "your_turn_draw_or_take": _("Your turn: draw a tile, or take the last discard into a new meld."),
        "your_turn_first": _("You start with 15 tiles and no draw: open if you can, then discard a tile."),
        "your_turn_play": _("Lay your opening if you have 45 with a run, then discard a tile to end your turn."),
        "your_turn_play_opened": _("Lay melds, lay off, take a joker, then discard a tile to end your turn."),
        # The opening tray
        "your_opening": _("Your opening"),
        "opening_points_of": _("%(points)s of %(needed)s"),
        "opening_points_reached": _("%(points)s points: enough"),
        "needs_a_run": _("needs a run"),
        "opening_progress": _("Opening points"),
        "tray_empty": _("Add melds here: they go down together."),
        "not_a_meld": _("not a meld"),
        "put_back": _("Put back"),
        "put_back_meld": _("Put %(tiles)s back on the rack"),
        "lay_opening": _("Lay the opening"),
        # Buttons and hints
        "draw": _("Draw"),
        "lay_meld": _("Lay meld"),
        "lay_with_discard": _("Lay with the discard"),
        "add_to_opening": _("Add to opening"),
        "discard": _("Discard"),
        "sort_rack": _("Sort your rack"),
        "sort_colour": _("By colour"),
        "sort_number": _("By number"),
        "hint_plan": _("Not your turn: you can sort your rack and plan your opening."),
        "hint_plan_opened": _("Not your turn: you can sort your rack and plan your next turn."),
        "hint_draw": _("Draw from the pile to start your turn."),
        "hint_take_select": _("Select two or more tiles to meld with the last discard."),
        "hint_select": _("Select three or more tiles for a meld, or one tile to discard."),
        "hint_select_opened": _("Select tiles: three or more for a new meld, one to discard, or tiles to add to a meld on the table."),
        "hint_selected": _("Selected: %(tiles)s"),
        "hint_one": _("%(tile)s: press Discard to end your turn."),
        "hint_one_opened": _("%(tile)s: discard it, or choose a meld on the table to add it to."),
        "hint_two": _("Select one more tile for a meld."),
        "hint_two_opened": _("Choose a meld on the table to add them to, or select one more for a new meld."),
        "hint_meld_ok": _("A %(kind)s worth %(points)s points."),
        "hint_not_meld": _("These tiles do not make a meld yet."),
        "hint_not_meld_layoff": _("Not a meld on their own: choose a meld on the table to add them to."),
        "select_one_to_discard": _("Select exactly one tile to discard."),
        "select_three": _("Select at least three tiles for a meld."),
        # Scores and results
        "game_n_of_m_over": _("Game %(n)s of %(m)s: the scores"),
        "match_over": _("The match is over"),
        "match_aborted": _("Match aborted"),
        "aborted_reasons": aborted_reasons(),
        "reason_out": _("%(name)s went out."),
        "reason_out_you": _("You went out!"),
        "you_won": _("You won!"),
        "your_place": _("Place %(place)s of %(count)s"),
        "keep_account": _("Keep this account: choose a name and a password, and your games and rating stay yours."),
        "keep_account_link": _("Keep my account"),
        "reason_pile": _("The draw pile ran out: nobody went out."),
        "reason_left": _("Too few players are left in the game."),
        "reason_blocked": _("Nobody could play: the lowest rack wins."),
        "score_caption": _("The scoring of this game, line by line"),
        "score_line": _("Line"),
        "score_table": _("Tiles put on the table"),
        "score_jokers": _("Jokers first put on the table (+50 each)"),
        "score_rack": _("Tiles left on the rack"),
        "score_unopened": _("never opened"),
        "score_out": _("Went out"),
        "score_twin": _("Dealt the indicator's twin"),
        "score_joker_out": _("Went out by discarding a joker (×2)"),
        "score_double": _("Double game (×2)"),
        "score_shared": _("Shared win: split equally, points left over one each to the earlier seats"),
        "score_shared_split": _("%(points)s split %(ways)s ways"),
        "score_shared_split_extra": _("%(points)s split %(ways)s ways, +1 left over"),
        "game_total": _("This game"),
        "match_scores": _("The match so far"),
        "game": _("Game"),
        "total": _("Total"),
        "winner": _("Went out"),
        "next_deal_in": _("Next deal in %(seconds)s s"),
        "ready": _("Ready"),
        "ready_waiting": _("Waiting for %(names)s…"),
        "dealing": _("Dealing…"),
        "place_1": _("1st"),
        "place_2": _("2nd"),
        "place_3": _("3rd"),
        "place_4": _("4th"),
        "rematch": _("Rematch"),
        "rematch_asked": _("Rematch asked"),
        "rematch_wanted_by": _("Rematch wanted by: %(names)s"),
        "rematch_waiting_for": _("The rematch starts when %(names)s presses Rematch too."),
        "new_match": _("New match at this table"),
        "back_to_lobby": _("Back to the lobby"),
        "see_the_table": _("See the table"),
        "replay_game": _("Replay"),
        "review_game": _("Review"),
        # The rearrange game
        "pool": _("Pool"),
        "pool_count_forms": plural_forms("Pool: %(count)s tile", "Pool: %(count)s tiles"),
        "draw_from_pool": _("Draw a tile and end your turn (%(count)s in the pool)"),
        "draw_tile": _("Draw a tile"),
        "pass": _("Pass"),
        "end_turn": _("End turn"),
        "new_set": _("New set"),
        "take_back": _("Take back"),
        "undo_turn": _("Undo turn"),
        "group": _("group"),
        "not_a_set": _("not a set"),
        "set_label": _("Set %(n)s: %(kind)s, %(points)s points"),
        "set_label_invalid": _("Set %(n)s: not a set yet"),
        "add_to_set": _("Add the selected tiles to set %(n)s"),
        "rr_no_sets": _("No sets on the table yet. Your first play needs 30 points in new sets from your own rack."),
        "who_starts": _("Who starts"),
        "drew_tile": _("%(name)s drew %(tile)s"),
        "starts_name": _("%(name)s drew highest and starts."),
        "badge_passed": _("Passed"),
        "rr_your_turn": _("Your turn: rebuild the table as you like and press End turn, or draw a tile."),
        "rr_your_turn_opening": _("Your turn: your first play needs %(needed)s points in new sets from your own rack. Or draw a tile."),
        "why_not_a_set_forms": plural_forms(
            "End turn is off: %(count)s set on the table is not legal yet.",
            "End turn is off: %(count)s sets on the table are not legal yet.",
        ),
        "why_nothing_placed": _("End turn is off: nothing has left your rack yet."),
        "why_opening": _("End turn is off: your opening is %(points)s of %(needed)s points, in new sets from your rack."),
        "why_opening_table": _("End turn is off: on your opening turn the sets already on the table stay as they were."),
        "why_ready": _("Every set is legal: press End turn."),
        "table_tiles_stay": _("Tiles from the table stay on the table: only your own tiles go back to your rack."),
        "hint_plan_rr": _("Not your turn: you can sort your rack and plan."),
        "hint_rr_select": _("Select tiles on your rack or on the table, then press + on a set or New set."),
        "hint_rr_selected_forms": plural_forms(
            "%(count)s tile selected: press + on a set, or New set.",
            "%(count)s tiles selected: press + on a set, or New set.",
        ),
        "changed_since_your_turn": _("placed or moved since your last turn"),
        "changed_since_last_turn": _("placed or moved in the last turn"),
        "score_won": _("Won: the losers' points"),
        "score_left": _("Left the game"),
        "score_none": _("No score this game"),
        "reason_out_rr": _("%(name)s emptied the rack: Rummy!"),
        "reason_out_rr_you": _("You emptied your rack: Rummy!"),
        "reason_pile_rr": _("The pool ran out and everyone passed: the lowest rack wins."),
        # What happened
        "log_new_game": _("Game %(n)s: a new deal."),
        "log_opened": _("%(name)s opened with %(points)s points: %(tiles)s."),
        "log_laid": _("%(name)s laid %(tiles)s."),
        "log_laid_off": _("%(name)s laid off %(tiles)s."),
        "log_joker": _("%(name)s took a joker from the table."),
        "log_discarded": _("%(name)s discarded %(tile)s."),
        "log_took_discard": _("%(name)s took the last discard, %(tile)s, into %(tiles)s."),
        "log_left": _("%(name)s left the game."),
        "log_played_forms": plural_forms("%(name)s played %(count)s tile.", "%(name)s played %(count)s tiles."),
        "log_drew_forms": plural_forms("%(name)s drew %(count)s tile.", "%(name)s drew %(count)s tiles."),
        "log_passed": _("%(name)s passed."),
        # Rearrange: the tiles a player put on the table this turn, and how many sets of the table they changed.
        "log_placed": _("%(name)s placed %(tiles)s."),
        "log_placed_rebuilt_forms": plural_forms("%(name)s placed %(tiles)s and rebuilt %(count)s set.",
                                           "%(name)s placed %(tiles)s and rebuilt %(count)s sets."),
        "log_autopilot": _("%(name)s is on autopilot."),
        "log_back": _("%(name)s is back."),
    }
