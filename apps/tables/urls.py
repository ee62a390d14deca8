from django.urls import path

from apps.tables import views

app_name = "tables"
urlpatterns = [
    path("", views.lobby, name="lobby"),
]
