"""A WebSocket's frame is sent at once, not on the event loop's next turn (apps/live/daphne.py,
`let_websockets_send_at_once`): on a twisted TCP connection over a real socket pair, with a reactor
that only records what it is asked to watch."""

from __future__ import annotations

import socket

import pytest

pytest.importorskip("daphne")

from twisted.internet import tcp  # noqa: E402

import apps.live.endpoint  # noqa: E402,F401  (applies the corrections)


class RecordingReactor:
    def __init__(self) -> None:
        self.writers: list[object] = []

    def addWriter(self, writer: object) -> None:  # noqa: N802 (twisted's name)
        if writer not in self.writers:
            self.writers.append(writer)

    def removeWriter(self, writer: object) -> None:  # noqa: N802
        if writer in self.writers:
            self.writers.remove(writer)


@pytest.fixture
def pair():
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)
    reactor = RecordingReactor()
    connection = tcp.Connection(ours, protocol=None, reactor=reactor)
    connection.connected = 1
    yield connection, theirs, reactor
    ours.close()
    theirs.close()


def received(peer: socket.socket) -> bytes:
    chunks = []
    while True:
        try:
            chunk = peer.recv(1 << 20)
        except BlockingIOError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_websockets_bytes_go_out_in_the_write_itself(pair):
    connection, peer, reactor = pair
    connection.send_at_once = True
    connection.write(b'{"type":"state"}')
    assert received(peer) == b'{"type":"state"}'
    assert reactor.writers == []  # the loop was not asked to watch the socket


def test_other_connections_keep_twisteds_buffering(pair):
    connection, peer, reactor = pair
    connection.write(b"HTTP/1.1 200 OK\r\n")
    assert received(peer) == b""
    assert reactor.writers == [connection]
    connection.doWrite()
    assert received(peer) == b"HTTP/1.1 200 OK\r\n"
    assert reactor.writers == []


def test_what_the_socket_does_not_take_is_buffered_and_order_is_kept(pair):
    connection, peer, reactor = pair
    connection.send_at_once = True
    big = bytes(range(256)) * (16 << 10)  # 4 MiB: more than a socket buffer holds
    connection.write(big)
    connection.write(b"tail")  # behind the rest of `big`, never before it
    assert reactor.writers == [connection]
    got = received(peer)
    assert len(got) < len(big)
    while reactor.writers:
        connection.doWrite()
        got += received(peer)
    got += received(peer)
    assert got == big + b"tail"


def test_a_lost_connection_goes_twisteds_way(pair):
    connection, peer, reactor = pair
    connection.send_at_once = True
    peer.close()
    connection.write(b"frame")  # the send fails: the bytes wait for doWrite, which reports the loss
    assert reactor.writers == [connection]
    assert isinstance(connection.doWrite(), Exception)


class Producer:
    paused = 0

    def pauseProducing(self) -> None:  # noqa: N802 (twisted's name)
        self.paused += 1

    def resumeProducing(self) -> None:  # noqa: N802
        pass

    def stopProducing(self) -> None:  # noqa: N802
        pass


def test_a_producer_left_registered_by_the_http_channel_does_not_stop_it(pair):
    # After the upgrade, twisted.web's channel stays registered as the socket's streaming producer.
    connection, peer, reactor = pair
    connection.send_at_once = True
    producer = Producer()
    connection.registerProducer(producer, True)
    connection.write(b"frame")
    assert received(peer) == b"frame"
    assert reactor.writers == [] and producer.paused == 0
