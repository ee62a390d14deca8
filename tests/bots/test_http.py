"""The bot API's door (apps/bots/http.py) and its account endpoint: a token and only a token gets in,
refusals are JSON with a code and change nothing, and a bot account is held to its rate, all its tokens
together (SPEC 14)."""

from __future__ import annotations

import doctest
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from apps.bots import http
from apps.bots.http import over_rate
from apps.bots.models import AccessToken
from apps.bots.services import token_create, token_revoke
from apps.tables.models import Table
from tests.bots.helpers import make_bot, make_owner

pytestmark = pytest.mark.django_db


def auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def test_a_request_without_a_token_is_refused_even_with_a_signed_in_session(client):
    person = make_owner("person")
    client.force_login(person)
    response = client.get("/api/bot/account")
    assert response.status_code == 401
    assert response.json()["type"] == "error" and response.json()["code"] == "no_token"


def test_a_post_with_a_session_and_no_token_opens_nothing(client):
    client.force_login(make_owner("person"))
    response = client.post("/api/bot/tables", data=json.dumps({"game": "tile-rummy"}), content_type="application/json")
    assert response.status_code == 401
    assert Table.objects.count() == 0


def test_the_account_is_the_tokens_bot_account(client):
    owner = make_owner("ada")
    bot, secret = make_bot("robo", owner)
    body = client.get("/api/bot/account", headers=auth(secret)).json()
    assert body["type"] == "account"
    assert body["account"]["name"] == "robo" and body["account"]["owner"] == "ada"
    assert body["account"]["bot_account"] is True
    assert body["token"]["prefix"] == secret[:10]


def test_a_revoked_token_opens_nothing(client):
    bot, secret = make_bot("robo")
    token = AccessToken.objects.get(bot__user=bot)
    token_revoke(token_id=token.pk, by=token.bot.owner)
    response = client.get("/api/bot/account", headers=auth(secret))
    assert response.status_code == 401 and response.json()["code"] == "bad_token"


def test_a_bot_account_is_held_to_its_rate_and_the_refusal_says_when_to_come_back(client, settings):
    settings.BOT_API_REQUESTS_PER_MINUTE = 3
    bot, secret = make_bot("robo")
    codes = [client.get("/api/bot/account", headers=auth(secret)).status_code for _ in range(3)]
    refused = client.get("/api/bot/account", headers=auth(secret))
    assert codes == [200, 200, 200]
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert 1 <= int(refused["Retry-After"]) <= 120


def test_a_rate_limited_request_changes_nothing(client, settings):
    settings.BOT_API_REQUESTS_PER_MINUTE = 1
    bot, secret = make_bot("robo")
    client.get("/api/bot/account", headers=auth(secret))
    response = client.post("/api/bot/tables", data=json.dumps({"seat_1": "easy"}), content_type="application/json",
                           headers=auth(secret))
    assert response.status_code == 429 and Table.objects.count() == 0


def test_two_tokens_of_one_bot_account_share_its_rate(client, settings):
    settings.BOT_API_REQUESTS_PER_MINUTE = 3
    bot, first = make_bot("robo")
    _token, second = token_create(bot_id=bot.pk, by=bot.bot_account.owner, name="second")
    codes = [client.get("/api/bot/account", headers=auth(secret)).status_code for secret in (first, second, first)]
    refused = client.get("/api/bot/account", headers=auth(second))
    assert codes == [200, 200, 200]
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert 1 <= int(refused["Retry-After"]) <= 120
    assert "per bot account" in refused.json()["message"]


def test_ten_tokens_of_one_bot_account_get_no_more_requests_than_one(client, settings):
    settings.BOT_API_REQUESTS_PER_MINUTE = 5
    bot, first = make_bot("robo")
    owner = bot.bot_account.owner
    secrets = [first] + [token_create(bot_id=bot.pk, by=owner, name=f"t{n}")[1] for n in range(9)]
    codes = [client.get("/api/bot/account", headers=auth(secret)).status_code for secret in secrets]
    assert codes == [200] * 5 + [429] * 5


def test_each_bot_account_has_its_own_rate(client, settings):
    settings.BOT_API_REQUESTS_PER_MINUTE = 1
    _bot, first = make_bot("robo")
    _other, second = make_bot("droid")
    assert client.get("/api/bot/account", headers=auth(first)).status_code == 200
    assert client.get("/api/bot/account", headers=auth(first)).status_code == 429
    assert client.get("/api/bot/account", headers=auth(second)).status_code == 200


def test_requests_at_the_same_moment_each_take_their_own_place_in_the_count(settings):
    """The count is reserved before the check (cache add + incr): of many requests at once exactly the
    limit pass, whatever their order."""
    settings.BOT_API_REQUESTS_PER_MINUTE = 10
    with ThreadPoolExecutor(8) as pool:
        waits = list(pool.map(lambda _n: over_rate(4242, now=600.0), range(40)))
    assert sum(wait is None for wait in waits) == 10
    assert all(wait >= 60 for wait in waits if wait is not None)  # at a minute's start: its end, and more


def test_a_minutes_boundary_does_not_double_the_rate(settings):
    """Fixed minutes would let the rate's count through at 0:59.9 and as many again at 1:00.0: the last
    60 seconds are what count (the previous minute weighs what of it they still cover)."""
    settings.BOT_API_REQUESTS_PER_MINUTE = 10
    assert [over_rate(7, now=659.9) for _ in range(10)] == [None] * 10
    assert all(over_rate(7, now=660.1) is not None for _ in range(10))
    settings.BOT_API_REQUESTS_PER_MINUTE = 100
    spread = [over_rate(8, now=1200.0 + n * 0.6) for n in range(100)]  # 100 over a minute: all pass
    assert spread == [None] * 100
    assert over_rate(8, now=1260.0) is not None  # but not a 101st in the same 60 s


def test_retry_after_says_when_a_request_would_pass(settings):
    settings.BOT_API_REQUESTS_PER_MINUTE = 10
    waits = {}
    for bot_id in (9, 10):  # two bots with the same history
        for _ in range(10):
            assert over_rate(bot_id, now=1800.0) is None
        waits[bot_id] = over_rate(bot_id, now=1830.0)  # the 11th of the minute: refused
    assert waits[9] == waits[10] and waits[9] is not None
    assert over_rate(9, now=1830.0 + waits[9]) is None  # back when told: it passes
    assert over_rate(10, now=1830.0 + waits[10] - 1.5) is not None  # earlier: not yet


def test_the_rates_examples_hold():
    result = doctest.testmod(http)
    assert result.attempted >= 2 and result.failed == 0


def test_a_token_records_its_last_use_at_most_once_a_minute(client):
    bot, secret = make_bot("robo")
    client.get("/api/bot/account", headers=auth(secret))
    first = AccessToken.objects.get(bot__user=bot).last_used_at
    client.get("/api/bot/account", headers=auth(secret))
    assert first is not None and AccessToken.objects.get(bot__user=bot).last_used_at == first


def test_a_method_the_endpoint_does_not_take_is_refused_as_json(client):
    _bot, secret = make_bot("robo")
    response = client.post("/api/bot/account", headers=auth(secret))
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"
    assert response["Allow"] == "GET"


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b"\"text\""])
def test_a_body_that_is_not_a_json_object_is_refused_and_opens_nothing(client, body):
    _bot, secret = make_bot("robo")
    response = client.post("/api/bot/tables", data=body, content_type="application/json", headers=auth(secret))
    assert response.status_code == 400 and response.json()["code"] == "bad_json"
    assert Table.objects.count() == 0


def test_a_path_that_is_no_endpoint_is_answered_in_json(client):
    _bot, secret = make_bot("robo")
    response = client.get("/api/bot/tabels", headers=auth(secret))
    assert response.status_code == 404 and response.json()["code"] == "not_found"
