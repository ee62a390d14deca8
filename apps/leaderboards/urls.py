from django.urls import path

from apps.leaderboards import views

app_name = "leaderboards"
urlpatterns = [
    path("", views.index, name="index"),
]
