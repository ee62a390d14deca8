from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from apps.accounts.language import set_language
from rummysite import views

# The admin signs in through allauth's login page, so it gets the same rate limits (ACCOUNT_RATE_LIMITS).
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("games/", include("apps.catalog.urls")),
    path("", include("apps.tables.urls")),
    path("leaderboards/", include("apps.leaderboards.urls")),
    path("", include("apps.accounts.urls")),  # /u/<username>/ profiles, /accounts/guest/...
    path("accounts/", include("allauth.urls")),
    path("i18n/setlang/", set_language, name="set_language"),  # Django's view, plus the player's profile
    path("admin/", admin.site.urls),
]
