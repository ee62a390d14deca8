from django.urls import path

from apps.catalog import views

app_name = "catalog"
urlpatterns = [
    path("", views.catalog, name="index"),
    path("<slug:slug>/rules/", views.rules, name="rules"),
]
