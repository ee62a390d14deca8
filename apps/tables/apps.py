from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "apps.tables"
    label = "tables"

    def ready(self) -> None:
        # The one import inside a function: apps/tables/wiring.py reads models, which exist only once the
        # registry is ready, and Django's place for that is here (tests/site/test_architecture.py allows it).
        from apps.tables import wiring

        wiring.connect()
