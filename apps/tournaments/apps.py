from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "apps.tournaments"
    label = "tournaments"

    def ready(self) -> None:
        from apps.tournaments import subscribers

        subscribers.connect()  # a finished arena match is scored; a voided one loses its points
