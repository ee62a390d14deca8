from django.apps import AppConfig


class AccountsConfig(AppConfig):
    verbose_name = "Accounts"
    name = "apps.accounts"
    label = "accounts"
