from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.catalog.data import CATALOG
from apps.tables.models import BotLevel
from apps.tables.options import MATCH_LENGTHS, PACES, SEAT_COUNTS, pace_label


def pace_choices() -> list[tuple[int, str]]:
    """Read when the form is drawn (in the visitor's language), not when the module is imported."""
    return sorted({(p, pace_label(p)) for paces in PACES.values() for p in paces}, reverse=True)


BOT_CHOICES = [("", _("A player")), (BotLevel.EASY, _("Bot · Easy")), (BotLevel.HARD, _("Bot · Hard"))]


class OpenTableForm(forms.Form):
    """Every option a host chooses (SPEC 5): the game, seats, match length, pace, a bot or a player for
    each other seat, and whether the table is private (an invite link)."""

    game = forms.ChoiceField(
        label=_("Game"), choices=[(entry.slug, entry.name) for entry in CATALOG], widget=forms.RadioSelect, initial="tile-rummy"
    )
    seats = forms.TypedChoiceField(
        label=_("Seats"), choices=[(n, str(n)) for n in SEAT_COUNTS], coerce=int, initial=2, widget=forms.RadioSelect
    )
    match_length = forms.TypedChoiceField(
        label=_("Games in the match"),
        choices=[(n, str(n)) for n in MATCH_LENGTHS],
        coerce=int,
        initial=1,
        widget=forms.RadioSelect,
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Pace"),
        choices=pace_choices,
        coerce=int,
        initial=60,
    )
    seat_1 = forms.ChoiceField(label=_("Seat 2"), choices=BOT_CHOICES, required=False, initial=BotLevel.HARD)
    seat_2 = forms.ChoiceField(label=_("Seat 3"), choices=BOT_CHOICES, required=False)
    seat_3 = forms.ChoiceField(label=_("Seat 4"), choices=BOT_CHOICES, required=False)
    private = forms.BooleanField(label=_("Private: only people with the invite link can sit"), required=False)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        game, pace = data.get("game"), data.get("turn_seconds")
        if game in PACES and pace is not None and pace not in PACES[str(game)]:
            self.add_error(
                "turn_seconds",
                _("This game's paces are: %(paces)s.") % {"paces": ", ".join(pace_label(p) for p in PACES[str(game)])},
            )
        return data

    def bot_levels(self) -> list[str]:
        seats = int(self.cleaned_data["seats"])
        return [self.cleaned_data.get(f"seat_{i}") or "" for i in range(1, seats)]

    def every_seat_is_a_bot(self) -> bool:
        """Only bots besides the host: nobody to wait for, the match can start at once."""
        return all(self.bot_levels())

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{i}"] for i in range(1, 4)]
