from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "apps.chat"
    label = "chat"
    verbose_name = _("Chat and reports")

    def ready(self) -> None:
        from apps.chat.consumers import ChatPart
        from apps.chat.ui_strings import chat_strings
        from apps.tables.parts import register_page_strings, register_socket_part

        # The chat sits above the tables: it adds its frames to every table's socket, and its words to
        # the table's page (apps/tables/parts.py), so the tables app never names it.
        register_socket_part(ChatPart)
        register_page_strings(chat_strings)
