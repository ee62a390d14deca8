from django.urls import path

from apps.players import api

app_name = "players_api"
urlpatterns = [
    path("account", api.account, name="account"),
]
