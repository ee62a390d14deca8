"""Site-level WebSocket endpoints."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    """`/ws/ping/`: answers every frame with a pong; used by health checks, smoke tests and drills."""

    async def connect(self) -> None:
        await self.accept()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        echo = content.get("echo") if isinstance(content, dict) else None
        await self.send_json({"type": "pong", "echo": echo})
