"""The permission to see the hidden information (every rack, the pile, the deal, the prepared play) of a
game in progress in the admin (issue 40): a staff account with only "view game" no longer sees it.
Not declared in Game.Meta: apps/tables/admin.py also makes it again after every migrate or flush, as
Django makes its default permissions (a flush in a test empties auth_permission)."""

from django.db import migrations

CODENAME = "view_hidden"
NAME = "Can view the hidden information of a game in progress"


def create(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    content_type, _ = ContentType.objects.get_or_create(app_label="tables", model="game")
    Permission.objects.get_or_create(content_type=content_type, codename=CODENAME, defaults={"name": NAME})


def remove(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    Permission.objects.filter(content_type__app_label="tables", codename=CODENAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0008_game_log"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create, remove)]
