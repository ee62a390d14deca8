"""Berserk at the table (SPEC 16): the `berserk` frame of a table's socket (docs/protocol.md, section 4).

A player seated at an arena's table halves their own turn time for this match, before its first move, as
the Berserk button on the arena's page does (`services.tournament_berserk`): a program playing over the
socket, or a page, need not leave the table for it. The table's next `state` frame shows the seat's
`berserk` and its clock; a refusal is an `error` frame (`notallowed`) and changes nothing. With an `id`,
success is answered by `ack` as a move is.

A part of every table's socket (apps/tables/parts.py): it costs nothing until the frame is sent, and then
one indexed read (`ArenaTable.table_id`, unique) before the service.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils import translation
from django.utils.translation import gettext as _

from apps.live.guard import CLIENT_ID, FrameSpec
from apps.live.threads import db
from apps.tables.parts import SocketPart
from apps.tournaments import services
from apps.tournaments.models import ArenaTable
from apps.tournaments.selectors import current_seat


def berserk_at(*, table_id: int, by: Any) -> None:
    """Berserk for `by` at table `table_id`, which must be their arena table now (raises TournamentError)."""
    tournament_id = ArenaTable.objects.filter(table_id=table_id).values_list("tournament_id", flat=True).first()
    seat = current_seat(tournament_id, by.pk) if tournament_id is not None else None
    if tournament_id is None or seat is None or seat.arena_table.table_id != table_id:
        raise services.TournamentError(_("You are not at an arena table now."))
    services.tournament_berserk(tournament_id=tournament_id, by=by)


class BerserkPart(SocketPart):
    frames: ClassVar[dict[str, FrameSpec]] = {"berserk": FrameSpec((CLIENT_ID,))}

    async def on_berserk(self, content: dict[str, Any]) -> None:
        user = self.socket.user
        if user is None:
            await self.socket.send_error("not_signed_in", _("Spectators cannot act: sign in or play as a guest."), ref=content)
            return
        language, table_id = self.socket.language, self.socket.table_id

        def run() -> None:
            with translation.override(language):
                berserk_at(table_id=table_id, by=user)

        try:
            await db(run)()
        except services.TournamentError as error:
            await self.socket.send_error("notallowed", str(error), ref=content)
            return
        if isinstance(content.get("id"), str):
            await self.socket.send_json({"type": "ack", "ref": content["id"]})
