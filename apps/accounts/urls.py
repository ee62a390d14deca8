from django.urls import path

from apps.accounts import views

app_name = "accounts"
urlpatterns = [
    path("accounts/guest/", views.guest_start, name="guest"),
    path("accounts/guest/keep/", views.guest_convert, name="guest_convert"),
]
