"""Site-level WebSocket endpoints."""

from __future__ import annotations

from typing import Any, ClassVar

from apps.live.endpoint import Endpoint
from apps.live.guard import Field, FrameSpec


class PingSocket(Endpoint):
    """`/ws/ping/`: answers a `ping` with a `pong` carrying back its `echo` (a short string or number);
    used by health checks, smoke tests and drills. Frames of at most 256 bytes, 4 a second (bursts of 20)."""

    frames: ClassVar[dict[str, FrameSpec]] = {"ping": FrameSpec((Field("echo", (str, int), max_length=64),))}
    max_frame_bytes: ClassVar[int] = 256
    frame_rate: ClassVar[tuple[float, int] | None] = (4.0, 20)

    async def on_ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "echo": content.get("echo")})
