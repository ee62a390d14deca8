from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "apps.review"
    label = "review"

    def ready(self) -> None:
        from apps.review import subscribers
        from apps.review.consumers import HintPart
        from apps.review.ui_strings import hint_strings
        from apps.tables.parts import register_page_strings, register_socket_part

        subscribers.connect()  # a finished game is reviewed
        # The hints sit above the tables: their frame joins every table's socket, their words the table's
        # page (apps/tables/parts.py), so the tables app never names the review.
        register_socket_part(HintPart)
        register_page_strings(hint_strings)
