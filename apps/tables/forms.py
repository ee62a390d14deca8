from __future__ import annotations

from django import forms
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import User
from apps.bots.selectors import bot_account_named
from apps.catalog.data import CATALOG
from apps.tables import rated, services
from apps.tables.models import BotLevel, Table
from apps.tables.options import MATCH_LENGTHS, PACES, SEAT_COUNTS, pace_label


def pace_choices() -> list[tuple[int, str]]:
    """Read when the form is drawn (in the visitor's language), not when the module is imported."""
    return sorted({(p, pace_label(p)) for paces in PACES.values() for p in paces}, reverse=True)


#: A seat's choice: a player, a site bot, or a bot account invited by name (SPEC 14).
BOT_ACCOUNT = "account"
BOT_CHOICES = [
    ("", _("A player")),
    (BotLevel.EASY, _("Bot · Easy")),
    (BotLevel.HARD, _("Bot · Hard")),
    (BOT_ACCOUNT, _("Invite a bot account")),
]


class OpenTableForm(forms.Form):
    """Every option a host chooses (SPEC 5): the game, seats, match length, pace, a bot or a player for
    each other seat (or a bot account invited into it by name: SPEC 14), and whether the table is
    private (an invite link). The bot API opens tables with this same form (apps/tables/api.py)."""

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
    seat_1_account = forms.CharField(label=_("Name of the bot account to invite"), max_length=150, required=False)
    seat_2_account = forms.CharField(label=_("Name of the bot account to invite"), max_length=150, required=False)
    seat_3_account = forms.CharField(label=_("Name of the bot account to invite"), max_length=150, required=False)
    private = forms.BooleanField(label=_("Private: only people with the invite link can sit"), required=False)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        game, pace = data.get("game"), data.get("turn_seconds")
        if game in PACES and pace is not None and pace not in PACES[str(game)]:
            self.add_error(
                "turn_seconds",
                _("This game's paces are: %(paces)s.") % {"paces": ", ".join(pace_label(p) for p in PACES[str(game)])},
            )
        self.invited: dict[int, User] = {}
        for index in range(1, int(data.get("seats") or 2)):
            if data.get(f"seat_{index}") != BOT_ACCOUNT:
                continue
            name = (data.get(f"seat_{index}_account") or "").strip()
            bot = bot_account_named(name) if name else None
            if bot is None:
                self.add_error(
                    f"seat_{index}_account",
                    _("There is no bot account called “%(name)s” that can play now.") % {"name": name}
                    if name
                    else _("Name the bot account to invite."),
                )
            else:
                self.invited[index] = bot.user
        return data

    def bot_levels(self) -> list[str]:
        """The site bot of each other seat ("" for a player's seat or an invited bot account's)."""
        seats = int(self.cleaned_data["seats"])
        levels = [self.cleaned_data.get(f"seat_{i}") or "" for i in range(1, seats)]
        return ["" if level == BOT_ACCOUNT else level for level in levels]

    def invitations(self) -> dict[int, User]:
        """The bot accounts invited, by seat."""
        return dict(self.invited)

    def open_table(self, *, by: User) -> Table:
        """Open the table these options describe, hosted by `by`; a table whose other seats are all site
        bots starts at once (nobody to wait for). Both or nothing: services.TableError if either refuses.
        The lobby's page and the bot API both open tables through this."""
        data = self.cleaned_data
        with transaction.atomic():
            table = services.table_open(
                by=by,
                game=data["game"],
                seat_count=data["seats"],
                match_length=data["match_length"],
                turn_seconds=data["turn_seconds"],
                private=data["private"],
                bots=self.bot_levels(),
                invite=self.invitations(),
            )
            if self.every_seat_is_a_bot():
                services.table_start(table_id=table.pk, by=by)
        return table

    def every_seat_is_a_bot(self) -> bool:
        """Only bots besides the host: nobody to wait for, the match can start at once."""
        return all(self.bot_levels())

    def seat_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """Each other seat's choice, with the name of the bot account it invites."""
        return [(self[f"seat_{i}"], self[f"seat_{i}_account"]) for i in range(1, 4)]


def rated_previews(user: object) -> dict[str, list[str]]:
    """What the create-table form tells its host before the table exists (SPEC 11): for each choice of
    the form that changes the verdict, the reasons the table would be unrated with the host seated
    (asked of apps/tables/rated.py: the page copies no rule). The key is three digits: a site bot in
    some seat, a bot account invited, no timer (1: yes). A visitor plays as a guest."""
    host = (
        rated.facts_of([(user, "")])[0]
        if getattr(user, "is_authenticated", False)
        else rated.SeatFacts(guest=True)
    )
    previews = {}
    for bot in (0, 1):
        for account in (0, 1):
            for no_timer in (0, 1):
                seats = [host] + [rated.SeatFacts(bot=True)] * bot + [rated.SeatFacts(bot_account=True)] * account
                verdict = rated.verdict(seats, turn_seconds=0 if no_timer else 60)
                previews[f"{bot}{account}{no_timer}"] = list(verdict.reasons)
    return previews
