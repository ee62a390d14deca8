from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "apps.leaderboards"
    label = "leaderboards"

    def ready(self) -> None:
        from apps.leaderboards import subscribers

        subscribers.connect()  # a finished rated match is rated
