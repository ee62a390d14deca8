"""Whether a match is rated, and why not (SPEC 5, 11 and 14): the one place that decides.

`verdict` is the rule, on plain facts about the seats (no database): a seat of a site bot, a guest, a
bot account among people, two bot accounts of one owner, a registered person without a verified email
address, an account a moderator marked as a booster (barred from rated play), a table without a turn
timer, or the same accounts having already played their rated matches of the day together: each makes
the match unrated, and each goes by its reason code (declared here: the frames carry these codes, the
pages word them, `apps/tables/ui_strings.py`). Bot accounts alone are rated among themselves, on their
own board (SPEC 14), without email addresses; one person's bot accounts are one player there (a person
could otherwise rate one bot up by losing with another), so bot accounts of the same owner never play a
rated match together, and the daily cap on the same opponents counts among bot accounts both by bot and
by owner.

`judge` gathers those facts for a table's seats from the database (a few small queries, only when seats
change and when a match starts: never on a move) and asks `verdict`.

The abort window (SPEC 11) is decided here too: `window_open` says whether a rated match is still young
enough that a seat standing up aborts it (no places, no rating) instead of losing it. Bot accounts have it
like people (SPEC 14).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.selectors import is_booster
from apps.bots.selectors import bots_of_owners, is_bot_account, owner_id_of, owner_ids_of
from apps.tables.models import AbortReason, Match, MatchPlayer

# Why a match is unrated: the reason codes, in the order the pages list them.
BOT = "bot"  # a site bot in a seat
GUEST = "guest"  # a guest account in a seat
BOT_ACCOUNT = "bot_account"  # bot accounts mixed with people
SAME_OWNER = "same_owner"  # two bot accounts of one owner: one person playing themselves (SPEC 14)
UNVERIFIED_EMAIL = "unverified_email"  # a registered person without a verified email address
NO_TIMER = "no_timer"  # turn_seconds == 0: a loser could stall it for ever
REPEAT_OPPONENTS = "repeat_opponents"  # the same accounts' rated matches of the last hours are used up
CASUAL = "casual"  # the players asked for a casual match (a casual pool, challenge or arena)
BARRED = "barred"  # an account a moderator marked as a booster: barred from rated play (SPEC 11)
REASONS = (CASUAL, BOT, GUEST, BOT_ACCOUNT, SAME_OWNER, UNVERIFIED_EMAIL, BARRED, NO_TIMER, REPEAT_OPPONENTS)

# Why a match was aborted (SPEC 11): the seat stood up itself, or was stood up (a moderator, a ban).
ABORT_LEFT = AbortReason.LEFT.value
ABORT_REMOVED = AbortReason.REMOVED.value
ABORT_ABSENT = AbortReason.ABSENT.value


def repeat_limit() -> int:
    """How many rated matches the same accounts may start together within `repeat_window()`."""
    return int(getattr(settings, "RATED_REPEAT_LIMIT", 3))


def repeat_window() -> timedelta:
    return timedelta(hours=float(getattr(settings, "RATED_REPEAT_HOURS", 24)))


def abort_turns() -> int:
    """How many turns of its own every human seat plays in the first game before the abort window closes."""
    return int(getattr(settings, "RATED_ABORT_TURNS", 3))


@dataclass(frozen=True)
class SeatFacts:
    """What the rule needs to know of one taken seat."""

    user_id: int | None = None
    bot: bool = False  # a site bot
    guest: bool = False
    bot_account: bool = False
    verified: bool = False  # the account has a verified email address
    barred: bool = False  # marked as a booster (apps/accounts/selectors.py)
    owner_id: int | None = None  # a bot account's owner (None: not a bot account, or not known)


@dataclass(frozen=True)
class Verdict:
    rated: bool
    reasons: tuple[str, ...] = ()
    among_bots: bool = False  # rated on the bot accounts' own board


def verdict(
    seats: Sequence[SeatFacts], *, turn_seconds: int, earlier: int = 0, limit: int | None = None, casual: bool = False
) -> Verdict:
    """Whether a match of these seats would be rated, and every reason it would not. `earlier`: the rated
    matches the same accounts already started together within the window; `limit`: how many they may
    (`repeat_limit()` when not given); `casual`: the players asked for an unrated match.

    >>> alice, bob = SeatFacts(1, verified=True), SeatFacts(2, verified=True)
    >>> verdict([alice, bob], turn_seconds=60)
    Verdict(rated=True, reasons=(), among_bots=False)
    >>> verdict([alice, SeatFacts(bot=True)], turn_seconds=0).reasons
    ('bot', 'no_timer')
    >>> verdict([alice, SeatFacts(3, guest=True)], turn_seconds=60).reasons
    ('guest',)
    >>> verdict([alice, SeatFacts(2)], turn_seconds=60).reasons
    ('unverified_email',)
    >>> verdict([alice, bob], turn_seconds=60, earlier=3, limit=3).reasons
    ('repeat_opponents',)
    >>> verdict([alice, SeatFacts(4, bot_account=True)], turn_seconds=60).reasons
    ('bot_account',)
    >>> verdict([alice, SeatFacts(5, verified=True, barred=True)], turn_seconds=60).reasons
    ('barred',)
    >>> verdict([alice, bob], turn_seconds=60, casual=True).reasons
    ('casual',)

    Bot accounts alone need no email address; they are rated on their own board, held to the daily cap
    like people (`judge` counts it by bot and by owner), and never two of one owner together:

    >>> robo, droid = SeatFacts(4, bot_account=True, owner_id=1), SeatFacts(5, bot_account=True, owner_id=2)
    >>> verdict([robo, droid], turn_seconds=60)
    Verdict(rated=True, reasons=(), among_bots=True)
    >>> verdict([robo, droid], turn_seconds=60, earlier=3, limit=3).reasons
    ('repeat_opponents',)
    >>> verdict([robo, SeatFacts(6, bot_account=True, owner_id=1)], turn_seconds=60).reasons
    ('same_owner',)
    """
    limit = repeat_limit() if limit is None else limit
    found: set[str] = {CASUAL} if casual else set()
    accounts = [seat for seat in seats if seat.bot_account]
    among_bots = bool(seats) and len(accounts) == len(seats)
    if any(seat.bot for seat in seats):
        found.add(BOT)
    if any(seat.guest for seat in seats):
        found.add(GUEST)
    if accounts and any(not seat.bot and not seat.bot_account for seat in seats):
        found.add(BOT_ACCOUNT)
    owners = [seat.owner_id for seat in accounts if seat.owner_id is not None]
    if len(owners) != len(set(owners)):
        found.add(SAME_OWNER)
    if any(not seat.bot and not seat.guest and not seat.bot_account and not seat.verified for seat in seats):
        found.add(UNVERIFIED_EMAIL)
    if any(seat.barred for seat in seats):
        found.add(BARRED)
    if not turn_seconds:
        found.add(NO_TIMER)
    if earlier >= limit:
        found.add(REPEAT_OPPONENTS)
    reasons = tuple(code for code in REASONS if code in found)
    return Verdict(not reasons, reasons, among_bots=among_bots and not reasons)


def verified_user_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Which of these accounts have a verified email address (allauth's; one query)."""
    wanted = {user_id for user_id in user_ids if user_id is not None}
    if not wanted:
        return set()
    return set(EmailAddress.objects.filter(user_id__in=wanted, verified=True).values_list("user_id", flat=True))


def facts_of(seats: Iterable[tuple[Any, str]]) -> list[SeatFacts]:
    """The facts of taken seats given as (user or None, site bot level): one query for the emails. The
    users are read with their bot account (`select_related("bot_account")`), as the seat rows are."""
    seats = list(seats)
    verified = verified_user_ids(user.pk for user, _level in seats if user is not None)
    return [
        SeatFacts(bot=True)
        if level
        else SeatFacts(
            user.pk,
            guest=bool(user.is_guest),
            bot_account=is_bot_account(user),
            verified=user.pk in verified,
            barred=is_booster(user),
            owner_id=owner_id_of(user),
        )
        for user, level in seats
        if user is not None or level
    ]


def earlier_rated(user_ids: Sequence[int], *, now: datetime | None = None) -> int:
    """The rated matches that started within the window among exactly these accounts (one query, from
    the first account's matches by the players' index)."""
    if not user_ids:
        return 0
    ids = sorted(set(user_ids))
    since = (now or timezone.now()) - repeat_window()
    return (
        Match.objects.filter(
            pk__in=MatchPlayer.objects.filter(user_id=ids[0]).values("match_id"), rated=True, started_at__gte=since
        )
        .annotate(seats=Count("players"), among=Count("players", filter=Q(players__user_id__in=ids)))
        .filter(seats=len(ids), among=len(ids))
        .count()
    )


def earlier_rated_among_owners(owner_ids: Sequence[int], *, now: datetime | None = None) -> int:
    """The rated matches that started within the window among bot accounts of exactly these owners, one
    seat each, whichever of their bot accounts played (an owner's bot accounts are one opponent: SPEC 14).
    Three queries: the owners' bot accounts (a few each), the matches of the first owner's among them
    with as many seats, and those matches' players."""
    owners = sorted(set(owner_ids))
    if not owners:
        return 0
    bots = bots_of_owners(owners)
    since = (now or timezone.now()) - repeat_window()
    candidates = (
        Match.objects.filter(
            pk__in=MatchPlayer.objects.filter(user_id__in=[bot for bot, owner in bots.items() if owner == owners[0]])
            .values("match_id"),
            rated=True,
            started_at__gte=since,
        )
        .annotate(seats=Count("players"), among=Count("players", filter=Q(players__user_id__in=list(bots))))
        .filter(seats=len(owners), among=len(owners))
        .values("pk")
    )
    seated: dict[int, set[int]] = {}
    for match_id, user_id in MatchPlayer.objects.filter(match_id__in=candidates).values_list("match_id", "user_id"):
        seated.setdefault(match_id, set()).add(bots[user_id])
    return sum(1 for found in seated.values() if found == set(owners))


def judge(
    seats: Iterable[tuple[Any, str]],
    *,
    turn_seconds: int,
    now: datetime | None = None,
    starting: bool = False,
    casual: bool = False,
) -> Verdict:
    """The verdict on these taken seats (user or None, site bot level) at a table of that pace, from the
    database: the daily cap is counted only for a table that would otherwise be rated; among bot accounts
    by bot and by owner (the larger count). `starting`: the match starts on this verdict, so the accounts'
    rows (and the bot accounts' owners') are locked (in id order) before the count, and two tables of the
    same accounts (or owners) starting at the same moment count each other (the caller's transaction holds
    the locks until the new match is saved)."""
    facts = facts_of(seats)
    first = verdict(facts, turn_seconds=turn_seconds, casual=casual)
    if not first.rated:
        return first
    user_ids = sorted(seat.user_id for seat in facts if seat.user_id is not None)
    owner_ids = sorted(seat.owner_id for seat in facts if seat.owner_id is not None) if first.among_bots else []
    if starting:
        locked = sorted(set(user_ids) | set(owner_ids))
        list(User.objects.select_for_update().filter(pk__in=locked).order_by("pk").values_list("pk", flat=True))
    earlier = earlier_rated(user_ids, now=now)
    if owner_ids:
        earlier = max(earlier, earlier_rated_among_owners(owner_ids, now=now))
    return verdict(facts, turn_seconds=turn_seconds, earlier=earlier)


def seating_verdict(seating: Sequence[dict[str, Any]], *, turn_seconds: int) -> Verdict:
    """The verdict read from a table's `seating`, for a bot account weighing an invitation: with a bot
    account seated, only a table of bot accounts can be rated, and those need no email address, so the
    facts `seating` lacks change only the list of reasons of a table of people (where the email check is
    left out). The bot accounts' owners are read (one query, only when every seat taken is a bot
    account's); the daily cap is not counted here (the table says it once the seats are taken)."""
    taken = [seat for seat in seating if not seat.get("empty")]
    among_bots = bool(taken) and all(seat.get("bot_account") for seat in taken)
    owners = owner_ids_of(seat.get("user_id") for seat in taken) if among_bots else {}
    facts = [
        SeatFacts(
            seat.get("user_id"),
            bot=bool(seat.get("bot")),
            guest=bool(seat.get("guest")),
            bot_account=bool(seat.get("bot_account")),
            verified=True,
            owner_id=owners.get(seat.get("user_id")),  # type: ignore[arg-type]  # a bot account's seat has a user id
        )
        for seat in taken
    ]
    return verdict(facts, turn_seconds=turn_seconds)


def window_open(seating: Sequence[dict[str, Any]], own_turns: Sequence[int], *, first_game: bool, over: bool) -> bool:
    """Whether a rated match is still in its abort window (SPEC 11): in the first game (or before it is
    dealt), while some human seat has made fewer than `abort_turns()` turns of its own (autopilot and
    timeout turns are not its own). Once the first game is over the window is closed. Every seat but a
    site bot's counts: bot accounts have the window like people (SPEC 14), so a match among bot accounts
    is aborted, not rated, when one of them leaves before each has made its own turns.

    >>> people = [{"bot": None, "bot_account": False}, {"bot": None, "bot_account": False}]
    >>> window_open(people, [3, 2], first_game=True, over=False)
    True
    >>> window_open(people, [3, 3], first_game=True, over=False)
    False
    >>> window_open(people, [], first_game=True, over=False)
    True
    >>> window_open(people, [0, 0], first_game=False, over=False)
    False
    >>> window_open([{"bot": None, "bot_account": True}] * 2, [0, 2], first_game=True, over=False)
    True
    >>> window_open([{"bot": None, "bot_account": True}] * 2, [3, 3], first_game=True, over=False)
    False
    """
    if not first_game or over:
        return False
    return absent_seat(seating, own_turns) is not None


def leaving_aborts(table: Any, game: Any, match: Any) -> bool:
    """Whether a seat standing up now aborts the table's match (SPEC 11): a rated match in play whose
    first game is not dealt yet, or whose seats (but the site's bots) have not all made their own turns in
    it. `table`, `game` (its current game, or None) and `match` (or None) are rows."""
    if table.status != "playing" or match is None or not match.rated:
        return False
    if game is None:
        return True  # the players' seeds are being taken: nothing is dealt yet
    return window_open(table.seating, game.own_turns or (), first_game=game.number == 1, over=game.finished_at is not None)


def absent_seat(seating: Sequence[dict[str, Any]], own_turns: Sequence[int]) -> int | None:
    """The first seat (not a site bot's) that has made fewer than `abort_turns()` turns of its own in the
    first game, or None.

    >>> absent_seat([{"bot": None}, {"bot": "easy"}, {"bot": None}], [4, 0, 2])
    2
    >>> absent_seat([{"bot": None}, {"bot": "easy"}], [3, 0]) is None
    True
    """
    needed = abort_turns()
    counts = list(own_turns) + [0] * (len(seating) - len(own_turns))
    return next((index for index, seat in enumerate(seating) if not seat.get("bot") and counts[index] < needed), None)
