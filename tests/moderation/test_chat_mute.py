"""A moderator's mute of an account's chat (SPEC 13): from the account list, for some hours, with a
reason; logged, lifted by another action; the muted account is refused at every table and plays on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.chat.models import ChatMessage, ModeratorMute
from apps.chat.services import ChatRefused, chat_say, muted_until
from apps.moderation.models import ModerationAction
from apps.moderation.services import account_mute_chat, account_unmute_chat
from apps.tables import services
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db

USERS = reverse("admin:accounts_user_changelist")


@pytest.fixture
def moderator(client):
    staff = User.objects.create_superuser("mod", "mod@example.com", "a long passphrase 42")
    client.force_login(staff)
    return staff


def playing(name: str):
    user = make_user(name)
    table = services.table_open(by=user, game="tile-rummy", seat_count=2, bots=["easy"], turn_seconds=60)
    services.table_start(table_id=table.pk, by=user)
    return user, table


def test_muting_from_the_admin_asks_for_hours_and_a_reason_then_mutes_and_logs_it(client, moderator):
    troll = make_user("troll")
    asked = client.post(USERS, {"action": "mute_chat", "_selected_action": [troll.pk, moderator.pk]})
    assert asked.status_code == 200 and b"hours" in asked.content and b"troll" in asked.content
    assert not ModeratorMute.objects.exists()
    before = timezone.now()
    done = client.post(USERS, {"action": "mute_chat", "_selected_action": [troll.pk, moderator.pk], "apply": "1",
                               "hours": "6", "reason": "insults in chat"})
    assert done.status_code == 302
    mute = ModeratorMute.objects.get()  # never one's own account
    assert mute.user_id == troll.pk and mute.by_id == moderator.pk and mute.reason == "insults in chat"
    assert before + timedelta(hours=6) <= mute.until <= timezone.now() + timedelta(hours=6)
    [logged] = ModerationAction.objects.all()
    assert (logged.action, logged.target_id, logged.by_id, logged.reason) == ("mute_chat", troll.pk, moderator.pk,
                                                                              "insults in chat")
    assert logged.details == {"until": mute.until.isoformat()}


def test_lifting_a_mute_from_the_admin_is_logged_and_lifting_none_logs_nothing(client, moderator):
    troll, quiet = make_user("troll"), make_user("quiet")
    account_mute_chat(user_id=troll.pk, until=timezone.now() + timedelta(hours=1), by=moderator, reason="spam")
    assert client.post(USERS, {"action": "unmute_chat", "_selected_action": [troll.pk, quiet.pk]}).status_code == 302
    assert not ModeratorMute.objects.exists()
    rows = list(ModerationAction.objects.order_by("id").values_list("action", "target_id", "by_id"))
    assert rows == [("mute_chat", troll.pk, moderator.pk), ("unmute_chat", troll.pk, moderator.pk)]


def test_a_muted_account_is_refused_with_the_reason_and_its_end_and_may_talk_again_once_lifted(moderator):
    troll, table = playing("troll")
    until = timezone.now() + timedelta(hours=2)
    account_mute_chat(user_id=troll.pk, until=until, by=moderator, reason="insults")
    for said in ({"text": "you all stink"}, {"phrase": "gg"}):
        with pytest.raises(ChatRefused) as refused:
            chat_say(table_id=table.pk, by=troll, **said)
        assert refused.value.error_code == "chat_muted" and "play" in str(refused.value)
    assert not ChatMessage.objects.exists()
    assert account_unmute_chat(user_id=troll.pk, by=moderator)
    assert chat_say(table_id=table.pk, by=troll, phrase="gg")["message"]["phrase"] == "gg"


def test_a_mute_ends_by_itself_at_its_end(moderator):
    troll, table = playing("troll")
    account_mute_chat(user_id=troll.pk, until=timezone.now() + timedelta(hours=1), by=moderator, reason="insults")
    assert muted_until(troll.pk) is not None
    assert muted_until(troll.pk, now=timezone.now() + timedelta(hours=2)) is None
    ModeratorMute.objects.update(until=timezone.now() - timedelta(seconds=1))
    chat_say(table_id=table.pk, by=troll, text="back")
    assert not account_unmute_chat(user_id=troll.pk, by=moderator)  # nothing in force: nothing logged
    assert list(ModerationAction.objects.values_list("action", flat=True)) == ["mute_chat"]


def test_the_mutes_list_renders_read_only(client, moderator):
    troll = make_user("troll")
    account_mute_chat(user_id=troll.pk, until=timezone.now() + timedelta(hours=1), by=moderator, reason="spam")
    assert client.get(reverse("admin:chat_moderatormute_changelist")).status_code == 200
    assert client.get(reverse("admin:chat_moderatormute_add")).status_code == 403
