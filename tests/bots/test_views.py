"""The bot account pages: a player makes a bot account and its tokens (shown once, listed with their last
use, revocable), nobody else sees them, and the lobby's search offers only bot accounts that are online."""

from __future__ import annotations

import json

import pytest
from django.contrib.sessions.models import Session

from apps.accounts.models import User
from apps.bots import presence, tokens
from apps.bots.models import AccessToken, BotAccount
from apps.bots.tokens import digest
from tests.bots.helpers import make_bot, make_owner

pytestmark = pytest.mark.django_db


def test_a_registered_player_makes_a_bot_account_from_the_page(client):
    owner = make_owner("ada")
    client.force_login(owner)
    response = client.post("/bots/", {"username": "robo", "description": "plays fast"})
    assert response.status_code == 302 and response["Location"] == "/bots/manage/robo/"
    bot = BotAccount.objects.get(user__username="robo")
    assert bot.owner == owner and not bot.user.has_usable_password()


def test_a_guest_makes_no_bot_account(client):
    guest = User.objects.create_user(username="Guest-000001", is_guest=True)
    client.force_login(guest)
    response = client.post("/bots/", {"username": "robo"})
    assert response.status_code == 400 and not BotAccount.objects.exists()


def test_a_bot_account_name_follows_the_sign_up_rules(client):
    client.force_login(make_owner("ada"))
    for name in ("ada", "Guest-12", "has space"):
        assert client.post("/bots/", {"username": name}).status_code == 400
    assert not BotAccount.objects.exists()


def test_a_new_token_is_shown_once_in_the_answer_that_made_it_and_only_its_digest_is_kept(client):
    owner = make_owner("ada")
    bot, _secret = make_bot("robo", owner)
    client.force_login(owner)
    made = client.post("/bots/manage/robo/tokens/", {"name": "laptop"})
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    secret = made.context["secret"]
    assert secret.startswith("rbt_") and secret in made.content.decode()
    # The address becomes the page's own (static/js/token-once.js): a reload shows it without the token.
    assert 'data-page-url="/bots/manage/robo/"' in made.content.decode() and "token-once.js" in made.content.decode()
    token = AccessToken.objects.get(name="laptop")
    assert token.digest == digest(secret) and secret not in (token.prefix, token.digest, token.name)
    again = client.get("/bots/manage/robo/")
    assert secret not in again.content.decode() and token.prefix in again.content.decode()
    assert "laptop" in again.content.decode() and again.context["secret"] == ""


def test_a_new_token_never_waits_in_the_session_store(client):
    """The session row lives for days: a token kept there in plain text until the page is next viewed
    could be read from it (a backup of the database, say). After the token is made, no session row holds
    a token, decoded or not."""
    owner = make_owner("ada")
    make_bot("robo", owner)
    client.force_login(owner)
    client.post("/bots/manage/robo/tokens/", {"name": "laptop"})
    token = AccessToken.objects.get(name="laptop")
    rows = list(Session.objects.all())
    assert rows
    for row in rows:
        stored = row.session_data + json.dumps(row.get_decoded())
        assert tokens.PREFIX not in stored and token.prefix not in stored


def test_the_owner_revokes_a_token_from_the_page(client):
    owner = make_owner("ada")
    bot, _secret = make_bot("robo", owner)
    token = AccessToken.objects.get(bot__user=bot)
    client.force_login(owner)
    client.post(f"/bots/manage/robo/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked


def test_nobody_else_sees_or_changes_a_bots_tokens(client):
    bot, _secret = make_bot("robo")
    token = AccessToken.objects.get(bot__user=bot)
    client.force_login(make_owner("mallory"))
    assert client.get("/bots/manage/robo/").status_code == 404
    assert client.post("/bots/manage/robo/tokens/", {"name": "mine now"}).status_code == 404
    assert client.post(f"/bots/manage/robo/tokens/{token.pk}/revoke/").status_code == 404
    token.refresh_from_db()
    assert not token.revoked and AccessToken.objects.count() == 1


def test_the_search_offers_only_bot_accounts_that_are_online(client):
    online, _ = make_bot("robo-one")
    make_bot("robo-two")
    presence.arrived(online.pk)
    try:
        found = client.get("/bots/online/", {"q": "robo"}).json()["bots"]
    finally:
        presence.departed(online.pk)
    assert [bot["name"] for bot in found] == ["robo-one"]


def test_the_command_line_makes_a_bot_account_and_prints_a_token(capsys):
    from django.core.management import call_command

    make_owner("ada")
    call_command("bot_account", "create", "robo", "--owner", "ada")
    call_command("bot_token", "create", "robo")
    printed = capsys.readouterr().out.split()
    assert printed[0] == "robo" and printed[1].startswith("rbt_")
    assert AccessToken.objects.get(bot__user__username="robo").digest == digest(printed[1])


def test_the_bot_api_page_serves_the_documentation(client):
    response = client.get("/bots/api/")
    assert response.status_code == 200 and b"# The bot API" in b"".join(response.streaming_content)
