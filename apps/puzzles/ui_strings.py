"""Every string the trainer's script shows (static/js/puzzle.js and the table modules it reuses:
tiles.js, rack.js, game-table.js, rearrange.js), translated on the server and rendered into the page as
JSON (static/js/i18n.js reads them). The table's words are the same msgids as the table page's
(apps/tables/ui_strings.py, a floor above this app), so they share one translation; the words that
differ on a puzzle (Check, not End turn) are the puzzle's own."""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.lib.script_words import plural_forms, tile_words


def puzzle_strings() -> dict[str, object]:
    return {
        # Tiles (tiles.js)
        **tile_words(),
        "joker_stands_for": _("joker, standing for %(tiles)s"),
        # The rack and your bar (rack.js, game-table.js)
        "your_rack_count": _("Your rack, %(count)s tiles"),
        "tile_drawn": _("%(tile)s, just drawn"),
        "tiles_forms": plural_forms("%(count)s tile", "%(count)s tiles"),
        "you": _("you"),
        "points_short": _("%(points)s pts"),
        "badge_opened": _("Opened"),
        "badge_passed": _("Passed"),
        "badge_autopilot": _("Autopilot"),
        "badge_left": _("Left"),
        "game_over": _("Game over"),
        "waiting_deal": _("Waiting for the deal."),
        "your_opening": _("Your opening"),
        "opening_points_of": _("%(points)s of %(needed)s"),
        "opening_points_reached": _("%(points)s points: enough"),
        "opening_progress": _("Opening points"),
        # The Rearrange table (rearrange.js)
        "pool": _("Pool"),
        "pool_count_forms": plural_forms("Pool: %(count)s tile", "Pool: %(count)s tiles"),
        "draw_tile": _("Draw a tile"),
        "pass": _("Pass"),
        "new_set": _("New set"),
        "take_back": _("Take back"),
        "undo_turn": _("Start again"),
        "run": _("run"),
        "group": _("group"),
        "not_a_set": _("not a set"),
        "set_label": _("Set %(n)s: %(kind)s, %(points)s points"),
        "set_label_invalid": _("Set %(n)s: not a set yet"),
        "add_to_set": _("Add the selected tiles to set %(n)s"),
        "rr_no_sets": _("No sets on the table yet. Your first play needs 30 points in new sets from your own rack."),
        "why_not_a_set_forms": plural_forms(
            "Check is off: %(count)s set on the table is not legal yet.",
            "Check is off: %(count)s sets on the table are not legal yet.",
        ),
        "why_nothing_placed": _("Check is off: nothing has left your rack yet."),
        "why_ready": _("Every set is legal: press Check."),
        "table_tiles_stay": _("Tiles from the table stay on the table: only your own tiles go back to your rack."),
        "hint_plan_rr": _("Not your turn: you can sort your rack and plan."),
        "hint_rr_select": _("Select tiles on your rack or on the table, then press + on a set or New set."),
        "hint_rr_selected_forms": plural_forms(
            "%(count)s tile selected: press + on a set, or New set.",
            "%(count)s tiles selected: press + on a set, or New set.",
        ),
        "changed_since_your_turn": _("placed or moved since your last turn"),
        "changed_since_last_turn": _("placed or moved in the last turn"),
        # The house game's table (house.js)
        "add_to_opening": _("Add to opening"),
        "badge_twin": _("Twin +50"),
        "badge_twin_title": _("Was dealt the indicator's twin: +50 at the end of the game"),
        "discard": _("Discard"),
        "double_game": _("Double game ×2"),
        "double_game_title": _("The indicator is a 1 or a joker: every point of this game counts twice"),
        "draw": _("Draw"),
        "draw_from_pile": _("Draw a tile (%(count)s left in the pile)"),
        "draw_pile": _("Draw pile"),
        "drop_to_discard": _("Drop a tile here to discard"),
        "hint_draw": _("Draw from the pile to start your turn."),
        "hint_meld_ok": _("A %(kind)s worth %(points)s points."),
        "hint_not_meld": _("These tiles do not make a meld yet."),
        "hint_not_meld_layoff": _("Not a meld on their own: choose a meld on the table to add them to."),
        "hint_one": _("%(tile)s: press Discard to end your turn."),
        "hint_one_opened": _("%(tile)s: discard it, or choose a meld on the table to add it to."),
        "hint_select": _("Select three or more tiles for a meld, or one tile to discard."),
        "hint_select_opened": _(
            "Select tiles: three or more for a new meld, one to discard, or tiles to add to a meld on the table."
        ),
        "hint_selected": _("Selected: %(tiles)s"),
        "hint_take_select": _("Select two or more tiles to meld with the last discard."),
        "hint_two": _("Select one more tile for a meld."),
        "hint_two_opened": _("Choose a meld on the table to add them to, or select one more for a new meld."),
        "indicator": _("Indicator"),
        "indicator_is": _("Indicator: %(tile)s"),
        "last_discard": _("Last discard"),
        "last_discard_is": _("Last discard: %(tile)s"),
        "lay_meld": _("Lay meld"),
        "lay_opening": _("Lay the opening"),
        "lay_with_discard": _("Lay with the discard"),
        "meld_label": _("Meld %(n)s: %(kind)s by %(name)s, %(points)s points"),
        "needs_a_run": _("needs a run"),
        "no_melds_yet": _(
            "No melds on the table yet. The first lay of each player is an opening: 45 points or more, with at least one run."
        ),
        "not_a_meld": _("not a meld"),
        "put_back": _("Put back"),
        "put_back_meld": _("Put %(tiles)s back on the rack"),
        "select_one_to_discard": _("Select exactly one tile to discard."),
        "select_then_meld": _("Select tiles on your rack first, then choose the meld to add them to."),
        "select_three": _("Select at least three tiles for a meld."),
        "set": _("set"),
        "tray_empty": _("Add melds here: they go down together."),
        "your_turn_draw": _("Your turn: draw a tile."),
        "your_turn_draw_or_take": _("Your turn: draw a tile, or take the last discard into a new meld."),
        "your_turn_first": _("You start with 15 tiles and no draw: open if you can, then discard a tile."),
        "your_turn_play": _("Lay your opening if you have 45 with a run, then discard a tile to end your turn."),
        "your_turn_play_opened": _("Lay melds, lay off, take a joker, then discard a tile to end your turn."),
        "discards_under_forms": plural_forms("%(count)s tile under it", "%(count)s tiles under it"),
        "pile_count_forms": plural_forms("Draw pile: %(count)s tile", "Draw pile: %(count)s tiles"),
        "take_discard": _("Take the last discard, %(tile)s, into a new meld"),
        "discard_chosen": _("%(tile)s, the last discard, is chosen: select two or more tiles to meld it with"),
        # The puzzle's own words
        "end_turn": _("Check"),
        "rr_your_turn": _("Rebuild the table and add tiles from your rack, then press Check."),
        "checking": _("Checking…"),
        "verdict_best": _(
            "Right! That is the best play there is: %(reached)s tiles placed, and the solver proves no play places more."
        ),
        "verdict_best_out": _(
            "Right! You go out: every tile of your rack is on the table. That is the best play there is."
        ),
        "verdict_short_forms": plural_forms(
            "A legal play, but %(count)s tile short: the best play places %(target)s.",
            "A legal play, but %(count)s tiles short: the best play places %(target)s.",
        ),
        "verdict_best_go_out_moves": _("Right! You go out this turn: that is the best play there is."),
        "verdict_best_open": _("Right! You open this turn: melds worth 45 points or more, with a run among them."),
        "verdict_not_opened": _("You did not open: lay melds worth at least 45, with a run among them, then discard."),
        "verdict_illegal_moves": _("The rules do not allow this move here."),
        "verdict_illegal": _(
            "Not a legal play: every set must be a run or a group, and every tile of the table stays on the table."
        ),
        "verdict_gave_up": _("You gave up. Here is a best play."),
        "rating_moved": _("Your puzzle rating: %(before)s → %(after)s"),
        "not_rated_again": _("You answered this puzzle before: this answer is not rated again."),
        "solution_title": _("A best play"),
        "show_solution": _("Show the solution"),
        "next_puzzle": _("Next puzzle"),
        "solution_placed": _("Tiles placed: %(tiles)s"),
        "streak_now": _("Streak: %(count)s"),
        "streak_over": _("The streak ends at %(count)s."),
        "error_server": _("Something went wrong. Try again in a moment."),
        "too_many_guests": _("Sign up or sign in to keep answering puzzles."),
        "solution_moves": _("The turn: %(moves)s"),
    }
