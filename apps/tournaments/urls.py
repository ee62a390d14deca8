from django.urls import path

from apps.tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:tournament_id>/", views.detail, name="detail"),
    path("<int:tournament_id>/join/", views.join, name="join"),
    path("<int:tournament_id>/pause/", views.pause, name="pause"),
    path("<int:tournament_id>/play-on/", views.play_on, name="play_on"),
    path("<int:tournament_id>/berserk/", views.berserk, name="berserk"),
]
