"""A private table is, to anyone without its link, a table that does not exist (SPEC 11): the page, a
seat asked for and its socket answer byte for byte as for a missing table (its number aside)."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from apps.tables import services
from tests.tables.helpers import make_user
from tests.tables.test_consumers import codes_until_closed, connect

pytestmark = pytest.mark.django_db(transaction=True)


def private_and_missing() -> tuple[int, int]:
    table = services.table_open(by=make_user("alice"), game="tile-rummy", seat_count=2, private=True)
    return table.pk, table.pk + 1000


def same_page(text: str, table_id: int) -> str:
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    text = re.sub(r'nonce="[^"]+"|nonce-[A-Za-z0-9+/=_-]+', "", text)
    return text.replace(f"/t/{table_id}/", "/t/N/").replace(f"table {table_id}.", "table N.")


def answer(client: Client, method: str, url: str, table_id: int, follow: bool = False) -> tuple[int, str]:
    response = getattr(client, method)(url, follow=follow)
    return response.status_code, same_page(response.content.decode(), table_id)


def test_the_page_of_a_private_table_without_its_link_is_the_page_of_a_missing_one():
    private, missing = private_and_missing()
    client = Client()
    client.force_login(make_user("eve"))
    seen = [answer(client, "get", reverse("tables:table", args=[t]), t) for t in (private, missing)]
    assert seen[0] == seen[1] and seen[0][0] == 404


def test_asking_for_a_seat_at_a_private_table_without_its_link_is_answered_as_for_a_missing_one():
    private, missing = private_and_missing()
    client = Client()
    client.force_login(make_user("eve"))
    seen = [answer(client, "post", reverse("tables:join", args=[t]), t, follow=True) for t in (private, missing)]
    assert seen[0] == seen[1]
    assert "There is no table N" in seen[0][1]


@pytest.mark.asyncio
async def test_the_socket_of_a_private_table_without_its_link_closes_as_for_a_missing_one():
    private, missing = await sync_to_async(private_and_missing)()
    eve = await sync_to_async(make_user)("eve")
    closes = [await codes_until_closed(await connect(f"/ws/tables/{t}/", eve)) for t in (private, missing)]
    assert closes[0] == closes[1] == ([], 4404)
