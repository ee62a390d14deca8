from django.urls import path

from apps.notifications import views

app_name = "notifications"
urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.mark_read, name="read"),
    path("<int:notification_id>/open/", views.open_notification, name="open"),
    path("settings/", views.push_settings, name="settings"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
]
