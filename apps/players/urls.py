from django.urls import path

from apps.players import views

app_name = "players"
urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
]
