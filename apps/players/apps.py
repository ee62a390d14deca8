from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """The top floor of the player's pages (docs/architecture.md): a player's profile and the bot API's
    `account` compose what the apps below know of a player (identity, bot accounts, ratings, matches),
    so that none of those apps has to read another's."""

    name = "apps.players"
    label = "players"

    def ready(self) -> None:
        # A seat's menu at a table links to its player's profile (follow, challenge, block: SPEC 17).
        from apps.players.social_views import table_page_strings
        from apps.tables.parts import register_page_strings

        register_page_strings(table_page_strings)
