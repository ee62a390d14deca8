from django.core.management.base import BaseCommand

from apps.catalog.services import catalog_load


class Command(BaseCommand):
    help = "Write the games of the catalog to the database (safe to run again)."

    def handle(self, *args: object, **options: object) -> None:
        count = catalog_load()
        self.stdout.write(f"Catalog loaded: {count} games.")
