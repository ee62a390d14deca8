from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from apps.accounts.language import set_language
from apps.bots import api as bot_api
from rummysite import pwa, views

# The admin signs in through allauth's login page, so it gets the same rate limits (ACCOUNT_RATE_LIMITS).
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]  # wrapped on purpose

urlpatterns = [
    path("", views.home, name="home"),
    path("livez", views.livez, name="livez"),
    path("readyz", views.readyz, name="readyz"),
    path("healthz", views.readyz, name="healthz"),  # the old name of readyz, for checks that still use it
    path("metrics", views.metrics_view, name="metrics"),
    # The installable app: its manifest and a service worker whose scope is the whole site.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("games/", include("apps.catalog.urls")),
    path("", include("apps.tables.urls")),
    path("", include("apps.pairing.urls")),  # quick pairing and seeks: /play/quick/ (SPEC 15)
    path("leaderboards/", include("apps.leaderboards.urls")),
    path("notifications/", include("apps.notifications.urls")),  # the bell's list and Web Push (SPEC 17)
    path("tournaments/", include("apps.tournaments.urls")),
    path("puzzles/", include("apps.puzzles.urls")),  # the puzzle trainer and the daily puzzle (SPEC 18)
    path("bots/", include("apps.bots.urls")),  # a player's bot accounts and their tokens (SPEC 14)
    path("api/bot/", include("apps.players.api_urls")),  # the bot API (docs/bot-api.md): the bot's account
    path("api/bot/", include("apps.tables.api_urls")),
    path("api/bot/<path:rest>", bot_api.not_found),
    path("", include("apps.review.urls")),
    path("", include("apps.players.urls")),  # /u/<username>/ profiles
    path("", include("apps.accounts.urls")),  # /accounts/guest/...
    path("accounts/", include("allauth.urls")),
    path("i18n/setlang/", set_language, name="set_language"),  # Django's view, plus the player's profile
    path("admin/", admin.site.urls),
]
