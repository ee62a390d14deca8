"""The hints' part of a table's socket (registered on it in apps/review/apps.py: apps/tables/parts.py):
the frame `hint`, answered to this viewer only with a `hint` frame or a refusal (docs/protocol.md). The
search runs on the hints' own workers (apps/review/hint_pool.py)."""

from __future__ import annotations

from typing import Any, ClassVar

from apps.live.guard import FrameSpec
from apps.review.hint_pool import hint_frame
from apps.review.services import HintRefused
from apps.tables.parts import SocketPart


class HintPart(SocketPart):
    frames: ClassVar[dict[str, FrameSpec]] = {"hint": FrameSpec()}

    async def on_hint(self, content: dict[str, Any]) -> None:
        """A hint for this viewer only (apps/review/hint_pool.py: searched on the hints' own threads)."""
        socket = self.socket
        try:
            await socket.send_json(await hint_frame(table_id=socket.table_id, by=socket.user, language=socket.language))
        except HintRefused as error:
            message = str(error) if error.engine_error is None else socket.engine_message(error.engine_error)
            await socket.send_error(error.error_code, message, ref=content)
