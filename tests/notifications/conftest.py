"""Fixtures of the notifications tests: players, and what the live bus was told."""

from __future__ import annotations

import json
from typing import Any

import pytest

from apps.notifications import services
from tests.tables.helpers import make_user


class Told:
    """The bus as the notifications' services see it: every publish, by topic."""

    def __init__(self) -> None:
        self.frames: list[tuple[str, dict[str, Any]]] = []

    def publish(self, topic: str, text: str) -> None:
        self.frames.append((topic, json.loads(text)))

    def to(self, user_id: int) -> list[dict[str, Any]]:
        return [frame for topic, frame in self.frames if topic == services.user_topic(user_id)]


@pytest.fixture
def told(monkeypatch) -> Told:
    recorder = Told()
    monkeypatch.setattr(services, "bus", lambda: recorder)
    return recorder


@pytest.fixture
def alice():
    return make_user("alice")


@pytest.fixture
def bob():
    return make_user("bob")


@pytest.fixture
def carol():
    return make_user("carol")
