from django.contrib import admin
from django.urls import include, path

from rummysite import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("games/", include("apps.catalog.urls")),
    path("play/", include("apps.tables.urls")),
    path("leaderboards/", include("apps.leaderboards.urls")),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
