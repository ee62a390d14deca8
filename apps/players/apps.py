from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """The top floor of the player's pages (docs/architecture.md): a player's profile and the bot API's
    `account` compose what the apps below know of a player (identity, bot accounts, ratings, matches),
    so that none of those apps has to read another's."""

    name = "apps.players"
    label = "players"
