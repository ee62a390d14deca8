"""Every string the trainer's script shows (static/js/puzzle.js and the table modules it reuses:
tiles.js, rack.js, game-table.js, rearrange.js), translated on the server and rendered into the page as
JSON (static/js/i18n.js reads them). The table's words are the same msgids as the table page's
(apps/tables/ui_strings.py, a floor above this app), so they share one translation; the words that
differ on a puzzle (Check, not End turn) are the puzzle's own."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def _forms(singular: str, plural: str) -> list[str]:
    return [ngettext(singular, plural, count) for count in (1, 2, 20)]


def puzzle_strings() -> dict[str, object]:
    return {
        # Tiles (tiles.js)
        "red": _("red"),
        "yellow": _("yellow"),
        "blue": _("blue"),
        "black": _("black"),
        "joker": _("joker"),
        # Translators: a tile's name, e.g. "red 5".
        "tile_name": _("%(colour)s %(number)s"),
        "joker_stands_for": _("joker, standing for %(tiles)s"),
        # The rack and your bar (rack.js, game-table.js)
        "your_rack_count": _("Your rack, %(count)s tiles"),
        "tile_drawn": _("%(tile)s, just drawn"),
        "tiles_forms": _forms("%(count)s tile", "%(count)s tiles"),
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
        "pool_count_forms": _forms("Pool: %(count)s tile", "Pool: %(count)s tiles"),
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
        "why_not_a_set_forms": _forms(
            "Check is off: %(count)s set on the table is not legal yet.",
            "Check is off: %(count)s sets on the table are not legal yet.",
        ),
        "why_nothing_placed": _("Check is off: nothing has left your rack yet."),
        "why_ready": _("Every set is legal: press Check."),
        "table_tiles_stay": _("Tiles from the table stay on the table: only your own tiles go back to your rack."),
        "hint_plan_rr": _("Not your turn: you can sort your rack and plan."),
        "hint_rr_select": _("Select tiles on your rack or on the table, then press + on a set or New set."),
        "hint_rr_selected_forms": _forms(
            "%(count)s tile selected: press + on a set, or New set.",
            "%(count)s tiles selected: press + on a set, or New set.",
        ),
        "changed_since_your_turn": _("placed or moved since your last turn"),
        "changed_since_last_turn": _("placed or moved in the last turn"),
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
        "verdict_short_forms": _forms(
            "A legal play, but %(count)s tile short: the best play places %(target)s.",
            "A legal play, but %(count)s tiles short: the best play places %(target)s.",
        ),
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
    }
