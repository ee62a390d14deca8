from django.urls import path

from apps.tables import api

app_name = "tables_api"
urlpatterns = [
    path("tables", api.tables, name="tables"),
    path("tables/<int:table_id>", api.table, name="table"),
    path("tables/<int:table_id>/join", api.join, name="join"),
    path("invitations", api.invitations, name="invitations"),
    path("invitations/<int:table_id>/accept", api.accept, name="accept"),
    path("invitations/<int:table_id>/decline", api.decline, name="decline"),
    path("games/<int:game_id>/record", api.record, name="record"),
]
