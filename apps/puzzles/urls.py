from django.urls import path

from apps.puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("", views.trainer, name="trainer"),
    path("daily/", views.daily_page, name="daily"),
    path("streak/", views.streak_page, name="streak"),
    path("streak/restart/", views.streak_restart, name="streak_restart"),
    path("themes/", views.themes_page, name="themes"),
    path("themes/<slug:theme>/", views.theme_page, name="theme"),
    path("history/", views.history_page, name="history"),
    path("<int:pk>/", views.puzzle_page, name="puzzle"),
    path("<int:pk>/answer/", views.answer, name="answer"),
    path("<int:pk>/give-up/", views.give_up, name="give_up"),
    path("<int:pk>/step/", views.step, name="step"),
    path("<int:pk>/solution/", views.solution, name="solution"),
]
