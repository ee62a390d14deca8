from django.urls import path

from apps.leaderboards import views

app_name = "leaderboards"
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.game_leaderboard, name="game"),
    path("<slug:slug>/bots/", views.bot_leaderboard, name="bots"),
]
