"""The chat's limits hold when many arrive at once (CONVENTIONS 25: a count is reserved before the row is
written, apps/accounts/limits.py): messages and reports sent together from many sockets, and a bot
account's owner counted once however many bot accounts they have (issue 40, sections 4 and 5)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from apps.accounts.models import User
from apps.chat.models import ChatMessage, Report
from apps.chat.services import ChatRefused, chat_say, report_make
from apps.tables import services
from apps.tables.models import Table
from tests.bots.helpers import make_bot, make_owner
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db(transaction=True)

AT_ONCE = 19


def table_of_two() -> tuple[Table, User, User]:
    alice, bob = make_user("alice"), make_user("bob")
    table = services.table_open(by=alice, game="tile-rummy", seat_count=2, turn_seconds=60)
    services.table_join(table_id=table.pk, by=bob)
    services.table_start(table_id=table.pk, by=alice)
    return table, alice, bob


def all_at_once(count: int, work: Callable[[int], Any]) -> tuple[int, list[str]]:
    """Run `work(i)` for i < count in as many threads, released together: (how many returned, the codes of
    the refusals). Each thread has its own database connection, as each socket's database thread does."""
    start = threading.Barrier(count)
    done: list[Any] = []
    refused: list[str] = []
    failed: list[BaseException] = []

    def run(number: int) -> None:
        try:
            start.wait(timeout=60)
            done.append(work(number))
        except ChatRefused as refusal:
            refused.append(refusal.error_code)
        except BaseException as error:  # reported by the test
            failed.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failed, failed
    return len(done), refused


needs_concurrent_writes = pytest.mark.skipif(
    "sqlite" in connection.settings_dict["ENGINE"], reason="SQLite's test database takes one writer at a time"
)


@needs_concurrent_writes
def test_nineteen_messages_sent_at_once_store_at_most_five():
    table, alice, _bob = table_of_two()
    sent, refused = all_at_once(AT_ONCE, lambda number: chat_say(table_id=table.pk, by=alice, text=f"m{number}"))
    stored = ChatMessage.objects.filter(author=alice).count()
    assert stored == sent == 5
    assert refused == ["chat_rate_limited"] * (AT_ONCE - 5)


@needs_concurrent_writes
def test_nineteen_reports_sent_at_once_store_at_most_five():
    table, alice, bob = table_of_two()
    said = [ChatMessage.objects.create(table=table, author=bob, text=f"rude {n}") for n in range(AT_ONCE)]
    made, refused = all_at_once(
        AT_ONCE, lambda number: report_make(table_id=table.pk, by=alice, message_id=said[number].pk, reason="abuse")
    )
    assert Report.objects.filter(reporter=alice).count() == made == 5
    assert refused == ["report_rate_limited"] * (AT_ONCE - 5)


def test_the_sixth_message_in_the_window_is_refused_one_after_the_other_too():
    table, alice, bob = table_of_two()
    for number in range(5):
        chat_say(table_id=table.pk, by=alice, text=f"m{number}")
    with pytest.raises(ChatRefused) as refused:
        chat_say(table_id=table.pk, by=alice, text="one too many")
    assert refused.value.error_code == "chat_rate_limited"
    chat_say(table_id=table.pk, by=bob, text="bob has a count of his own")


def test_the_report_past_the_limit_is_refused_with_its_reason(settings):
    settings.REPORT_RATE_REPORTS = 1
    table, alice, bob = table_of_two()
    said = ChatMessage.objects.create(table=table, author=bob, text="rude")
    report_make(table_id=table.pk, by=alice, user_id=bob.pk, reason="abuse")
    with pytest.raises(ChatRefused) as refused:
        report_make(table_id=table.pk, by=alice, message_id=said.pk, reason="abuse")
    assert refused.value.error_code == "report_rate_limited" and "1" in str(refused.value)


def test_a_duplicate_report_costs_no_place_in_the_window(settings):
    settings.REPORT_RATE_REPORTS = 2
    table, alice, bob = table_of_two()
    said = ChatMessage.objects.create(table=table, author=bob, text="rude")
    report_make(table_id=table.pk, by=alice, user_id=bob.pk, reason="abuse")
    for _attempt in range(3):
        with pytest.raises(ChatRefused, match="already"):
            report_make(table_id=table.pk, by=alice, user_id=bob.pk, reason="abuse")
    report_make(table_id=table.pk, by=alice, message_id=said.pk, reason="abuse")  # the second place is still free


# -- bot accounts -------------------------------------------------------------------------------------


def test_a_bot_account_not_seated_at_a_table_of_people_can_neither_chat_nor_report_there():
    table, _alice, bob = table_of_two()
    bot, _secret = make_bot("robo")
    said = ChatMessage.objects.create(table=table, author=bob, text="hello")
    for attempt in (
        lambda: chat_say(table_id=table.pk, by=bot, text="buy my stuff"),
        lambda: chat_say(table_id=table.pk, by=bot, phrase="gl"),
        lambda: report_make(table_id=table.pk, by=bot, user_id=bob.pk, reason="abuse"),
        lambda: report_make(table_id=table.pk, by=bot, message_id=said.pk, reason="spam"),
    ):
        with pytest.raises(ChatRefused) as refused:
            attempt()
        assert refused.value.error_code == "chat_bot_not_seated"
    assert not ChatMessage.objects.filter(author=bot).exists() and not Report.objects.exists()


def bots_at_one_table(*names: str, owner: User) -> tuple[Table, list[User]]:
    bots = [make_bot(name, owner)[0] for name in names]
    table = services.table_open(by=bots[0], game="tile-rummy", seat_count=len(bots), turn_seconds=60)
    for bot in bots[1:]:
        services.table_join(table_id=table.pk, by=bot)
    return table, bots


def test_a_seated_bot_account_chats_at_its_table():
    table, (robo, _droid) = bots_at_one_table("robo", "droid", owner=make_owner("olga"))
    frame = chat_say(table_id=table.pk, by=User.objects.get(pk=robo.pk), text="good game")
    assert frame["message"]["text"] == "good game"


def test_the_bot_accounts_of_one_owner_share_one_chat_count(settings):
    settings.CHAT_RATE_MESSAGES = 3
    settings.CHAT_RATE_SECONDS = 3600  # a window no machine is slow enough to leave within the test
    table, (robo, droid) = bots_at_one_table("robo", "droid", owner=make_owner("olga"))
    chat_say(table_id=table.pk, by=robo, text="one")
    chat_say(table_id=table.pk, by=droid, text="two")
    chat_say(table_id=table.pk, by=robo, text="three")
    with pytest.raises(ChatRefused) as refused:
        chat_say(table_id=table.pk, by=droid, text="four")
    assert refused.value.error_code == "chat_rate_limited"
    other, (stranger, _partner) = bots_at_one_table("stranger", "partner", owner=make_owner("oscar"))
    chat_say(table_id=other.pk, by=stranger, text="another owner, another count")
