"""Every string the replay page's script shows, translated on the server, and the words of the hints at a
table (`hint_strings`, added to the table page's strings: apps/review/apps.py). The tiles' names are the same msgids as the
table's (static/js/tiles.js asks for them by these keys)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.lib.script_words import plural_forms, tile_words


def replay_strings() -> dict[str, object]:
    return {
        **tile_words(),
        "bot_account_name": _("%(name)s · BOT"),  # a bot account's name (SPEC 14), as at the table
        "empty_seat": _("Empty seat"),
        "step_deal": _("The deal"),
        "step_n": _("Move %(n)s of %(count)s"),
        "placed_by": _("%(name)s placed"),
        "drew": _("%(name)s drew a tile"),
        "winner": _("%(name)s wins"),
        "no_winner": _("Nobody went out"),
        "rack_of": _("%(name)s's rack"),
        "tiles_forms": plural_forms("%(count)s tile", "%(count)s tiles"),
        "table_empty": _("Nothing on the table yet."),
        "indicator": _("Indicator"),
        "pile_forms": plural_forms("Pile: %(count)s tile", "Pile: %(count)s tiles"),
        "pool_forms": plural_forms("Pool: %(count)s tile", "Pool: %(count)s tiles"),
        "discards": _("Discards"),
        "to_move": _("%(name)s to move"),
        "game_over": _("Game over"),
        "points": _("%(points)s points"),
        "meld_of": _("laid by %(name)s"),
        # The review
        "review_pending": _("The review is being prepared…"),
        "review_failed": _("The review could not be prepared for this game."),
        "review_turn": _("Turn %(n)s"),
        "review_played": _("Played: %(play)s"),
        "review_placed": _("Placed:"),
        "review_best": _("Best: %(play)s"),
        "review_best_place": _("Best: place"),
        "review_best_table": _("The table after it"),
        "review_legend": _("✓ the most the rules allowed · ✗ could have placed more"),
        "review_missed_forms": plural_forms(
            "Could have placed %(count)s more tile (%(points)s points)",
            "Could have placed %(count)s more tiles (%(points)s points)",
        ),
        "review_missed_points": _("Could have placed %(points)s more points"),
        "review_by_table": _("played by the table"),
        "review_hint": _("hint used"),
        "summary_missed_forms": plural_forms(
            "%(count)s turn where %(name)s could have placed more: %(tiles)s tiles, %(points)s points",
            "%(count)s turns where %(name)s could have placed more: %(tiles)s tiles, %(points)s points",
        ),
        "summary_missed_you_forms": plural_forms(
            "%(count)s turn where you could have placed more: %(tiles)s tiles, %(points)s points",
            "%(count)s turns where you could have placed more: %(tiles)s tiles, %(points)s points",
        ),
        "summary_clean": _("%(name)s placed the most the rules allowed on every turn."),
        "summary_hints_forms": plural_forms("%(count)s hint used", "%(count)s hints used"),
        "go_to_turn": _("Go to turn %(n)s"),
        # A move in words (the house game's notation, docs/engine.md), followed by its tiles
        "mv_draw": _("drew a tile"),
        "mv_take": _("took the last discard into a new meld:"),
        "mv_lay": _("laid"),
        "mv_add": _("laid off"),
        "mv_joker": _("took a joker, putting in its place"),
        "mv_discard": _("discarded"),
        "mv_leave": _("left the table"),
        "mv_back": _("came back"),
        "mv_timeout": _("ran out of time"),
        "mv_auto": _("the table played for them"),
        "you_badge": _("you"),
    }


def hint_strings() -> dict[str, object]:
    """The words of the hints at unrated tables (static/js/hints.js), with the table page's strings."""
    return {
        "tip_button_forms": plural_forms("Hint (%(count)s left)", "Hints (%(count)s left)"),
        "tip_none_left": _("No hints left this game"),
        "tip_not_your_turn": _("A hint is for your own turn."),
        "tip_draw_first": _("Draw first: then a hint can use the tile you drew."),
        "tip_asking": _("Finding the best play…"),
        "tip_title": _("Hint"),
        "tip_places_forms": plural_forms("You can place %(count)s tile (%(points)s points).", "You can place %(count)s tiles (%(points)s points)."),
        "tip_nothing": _("Nothing can be placed this turn: draw a tile."),
        "tip_target": _("The table after this play (your tiles are marked):"),
        "tip_steps": _("Do this, in this order:"),
        "tip_draw": _("Draw a tile"),
        "tip_take": _("Take the last discard into"),
        "tip_lay": _("Lay"),
        "tip_add": _("Lay off"),
        "tip_on": _("on"),
        "tip_joker": _("Take the joker with"),
        "tip_from": _("from"),
        "tip_discard": _("Discard"),
        "tip_play": _("Play it"),
        "tip_play_step": _("Do the next step"),
        "tip_close": _("Close"),
    }
