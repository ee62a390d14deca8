from django.urls import path

from apps.bots import api

app_name = "bots_api"
urlpatterns = [
    path("account", api.account, name="account"),
]
