from django.urls import path

from apps.tables import views

app_name = "tables"
urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("play/new/", views.open_table, name="open"),
    path("play/now/", views.play_now, name="play_now"),
    path("t/<int:table_id>/", views.table_page, name="table"),
    path("t/<int:table_id>/join/", views.join_table, name="join"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path("records/<int:game_id>.json", views.game_record_download, name="game_record"),
    path("fair-deals/", views.fair_deals, name="fair_deals"),
    path("fair-deals/<str:name>", views.fair_deals_file, name="fair_deals_file"),
]
