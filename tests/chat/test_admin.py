"""The chat and the reports in the Django admin: messages listed by table, match and author with their
deletion; a moderator's delete from the admin marks the message and takes it off the screens (logged);
reports listed with their context, filterable, marked handled."""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.models import LogEntry
from django.db import transaction

from apps.chat import services, wire
from apps.chat.models import ChatMessage, Report
from tests.tables.helpers import make_user
from tests.tables.test_admin import moderator_client, playing_table  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def talk(table, author, text):
    return ChatMessage.objects.get(pk=services.chat_say(table_id=table.pk, by=author, text=text)["message"]["id"])


def test_messages_are_listed_with_their_table_author_and_text(moderator_client):  # noqa: F811
    table = playing_table()
    talk(table, table.host, "good game everyone")
    response = moderator_client.get("/admin/chat/chatmessage/", {"q": "good game"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "good game everyone" in page and "alice" in page
    assert moderator_client.get("/admin/chat/chatmessage/", {"deleted_at__isempty": "1"}).status_code == 200


def test_a_moderator_deletes_from_the_admin_every_screen_is_told_and_the_row_stays(moderator_client, monkeypatch):  # noqa: F811
    table = playing_table()
    message = talk(table, table.host, "rude words")
    published = []
    monkeypatch.setattr(wire, "publish", lambda table_id, frame, **kw: published.append((table_id, frame)))
    monkeypatch.setattr(services, "publish", lambda table_id, frame, **kw: published.append((table_id, frame)))
    response = moderator_client.post(
        "/admin/chat/chatmessage/", {"action": "delete_messages", "_selected_action": [message.pk]}, follow=True
    )
    assert response.status_code == 200
    message.refresh_from_db()
    assert message.deleted_at is not None and message.text == "rude words"
    assert published == [(table.pk, {"type": "chat_deleted", "id": message.pk})]
    assert LogEntry.objects.filter(object_id=str(message.pk), change_message="Deleted the message").exists()


def test_reports_show_their_context_filter_and_are_marked_handled(moderator_client):  # noqa: F811
    table = playing_table()
    bob = table.seats.get(index=1).user
    message = talk(table, bob, "you are terrible")
    report = services.report_make(table_id=table.pk, by=table.host, message_id=message.pk, reason="abuse", text="rude")
    table.refresh_from_db()
    listing = moderator_client.get("/admin/chat/report/", {"handled__exact": "0", "reason": "abuse"})
    assert listing.status_code == 200 and "bob" in listing.content.decode()
    detail = moderator_client.get(f"/admin/chat/report/{report.pk}/change/").content.decode()
    assert "you are terrible" in detail and f"match: {table.match_id}" in detail
    moderator_client.post("/admin/chat/report/", {"action": "mark_handled", "_selected_action": [report.pk]})
    report.refresh_from_db()
    assert report.handled and report.handled_by.username == "moderator"
    assert json.dumps(report.context).count("you are terrible") == 1


def test_one_report_per_reporter_and_player_at_a_table():
    table = playing_table()
    bob = table.seats.get(index=1).user
    services.report_make(table_id=table.pk, by=table.host, user_id=bob.pk, reason="spam")
    with pytest.raises(services.ChatRefused) as refused:
        services.report_make(table_id=table.pk, by=table.host, user_id=bob.pk, reason="abuse")
    assert refused.value.error_code == "report_duplicate"
    other = make_user("carol")
    services.report_make(table_id=table.pk, by=other, user_id=bob.pk, reason="spam")
    assert Report.objects.count() == 2
    with transaction.atomic():
        assert Report.objects.filter(reported=bob).count() == 2
