from django.urls import path

from apps.pairing import views

app_name = "pairing"
urlpatterns = [
    path("play/quick/", views.quick, name="quick"),
    path("play/quick/join/", views.join, name="join"),
    path("play/quick/wait/", views.wait, name="wait"),
    path("play/quick/cancel/", views.cancel, name="cancel"),
    path("play/quick/seek/", views.seek, name="seek"),
    path("play/quick/seek/<int:seek_id>/take/", views.take, name="take"),
    path("play/quick/seek/cancel/", views.seek_cancel, name="seek_cancel"),
]
