from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "apps.tournaments"
    label = "tournaments"

    def ready(self) -> None:
        from apps.tables.parts import register_page_strings, register_socket_part
        from apps.tournaments import subscribers
        from apps.tournaments.berserk_part import BerserkPart
        from apps.tournaments.table_part import ArenaPart, arena_strings

        subscribers.connect()  # a finished arena match is scored; a voided one loses its points
        # A player at an arena's table sees its standing and time left (apps/tournaments/table_part.py).
        register_socket_part(ArenaPart)
        # ... and may go berserk there, before the first move, with a `berserk` frame (berserk_part.py).
        register_socket_part(BerserkPart)
        register_page_strings(arena_strings)
