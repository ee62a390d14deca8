from django.urls import path

from apps.review import views

app_name = "review"
urlpatterns = [
    path("replay/<int:game_id>/", views.replay, name="replay"),
    path("replay/<int:game_id>/review.json", views.review_json, name="review_json"),
    path("hints/<int:table_id>.json", views.hints_json, name="hints"),
]
