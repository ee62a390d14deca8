"""A WebSocket to a path no endpoint serves is closed with 4404 (rummysite/asgi.py), never a server error
that raises an error report anyone can trigger at will (issue 40, section 5)."""

from __future__ import annotations

import logging

import pytest
from channels.testing import WebsocketCommunicator

from rummysite.asgi import UNKNOWN_PATH, application, serves

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


async def close_code(path: str, headers: list[tuple[bytes, bytes]]) -> int | None:
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=30)
    if not connected:
        return code
    output = await communicator.receive_output(timeout=30)
    assert output["type"] == "websocket.close", output
    await communicator.wait(timeout=30)
    return output["code"]


@pytest.mark.parametrize("path", ["/ws/nowhere/", "/ws/tables/abc/", "/ws/tables/12", "/", "/ws/ping/x/", "/admin/"])
async def test_a_socket_to_an_unknown_path_is_closed_with_4404_and_no_error(path, caplog):
    caplog.set_level(logging.WARNING)
    assert await close_code(path, [HOST, ORIGIN]) == UNKNOWN_PATH == 4404
    assert await close_code(path, [HOST, (b"authorization", b"Bearer not-a-token")]) == 4404
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def test_every_endpoint_path_is_still_served():
    for path in ("/ws/ping/", "/ws/lobby/", "/ws/tables/12/"):
        assert serves({"type": "websocket", "path": path})
    assert serves({"type": "websocket", "path": "/rummy/ws/lobby/", "root_path": "/rummy"})
    assert not serves({"type": "websocket", "path": "/ws/lobby/", "root_path": "/rummy"})
