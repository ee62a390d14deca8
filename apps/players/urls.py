from django.urls import path, reverse_lazy
from django.utils.text import format_lazy
from django.views.generic import RedirectView

from apps.players import social_views, views

app_name = "players"
urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
    path("u/<str:username>/relation/", social_views.relation, name="relation"),
    path("friends/", social_views.friends_page, name="friends"),
    path("settings/", social_views.settings_page, name="settings"),
    # The challenges received and sent are listed on the friends page.
    path("challenges/", RedirectView.as_view(url=format_lazy("{}#challenges-title", reverse_lazy("players:friends")), permanent=False), name="challenges"),
    path("challenges/new/", social_views.challenge_new, name="challenge_new"),
    path("challenges/<int:challenge_id>/", social_views.challenge_page, name="challenge"),
    path("challenges/<int:challenge_id>/<str:action>/", social_views.challenge_answer, name="challenge_answer"),
]
