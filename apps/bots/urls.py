from django.urls import path

from apps.bots import views

app_name = "bots"
urlpatterns = [
    path("", views.my_bots, name="mine"),
    path("online/", views.online, name="online"),
    path("api/", views.api_file, name="docs"),
    path("api/<str:name>", views.api_file, name="api_file"),
    # Under a word of their own: a bot account may be called anything a username may be, "online" too.
    path("manage/<str:name>/", views.bot_page, name="bot"),
    path("manage/<str:name>/tokens/", views.token_new, name="token_new"),
    path("manage/<str:name>/tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
]
