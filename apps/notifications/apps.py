from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    label = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from apps.notifications import subscribers
        from apps.notifications.presence import TablePresencePart
        from apps.tables.parts import register_socket_part

        subscribers.connect()  # challenges, a friend's table, a slow table's turn become notifications
        # Who has a socket open at which table, counted across processes: a push waits for that.
        register_socket_part(TablePresencePart)
