"""The translation catalogues (rummysite/catalogues.py, SPEC 12): complete, in correct Romanian letters,
in step with the source, and compiled the same way with or without GNU gettext."""

from __future__ import annotations

import gettext
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from apps.puzzles.ui_strings import puzzle_strings
from apps.review.ui_strings import replay_strings
from apps.tables.ui_strings import lobby_strings, table_strings
from rummysite.catalogues import (
    CEDILLAS,
    FORMAL,
    LOCALE,
    OVERRIDES_PO,
    ROOT,
    SITE_PO,
    catalogue_files,
    extract,
    mo_bytes,
    read_po,
    third_party_entries,
)


def msgfmt() -> str:
    path = shutil.which("msgfmt")
    assert path is not None, "GNU gettext is not installed: apt-get install gettext (.ci/run does it)"
    return path


def keys(po: Path) -> set[tuple[str | None, str]]:
    return {(entry.msgctxt, entry.msgid) for entry in read_po(po) if entry.msgid}


def test_there_are_romanian_catalogues_for_the_site_and_for_what_it_shows_of_django_and_allauth():
    assert list(catalogue_files()) == [OVERRIDES_PO, SITE_PO]


@pytest.mark.parametrize("po", list(catalogue_files()), ids=lambda path: str(path.relative_to(ROOT)))
def test_msgfmt_finds_every_string_translated_and_none_fuzzy(po):
    result = subprocess.run([msgfmt(), "--check", "--statistics", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    statistics = result.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ translated messages?\.", statistics), statistics


def test_the_catalogue_holds_every_string_of_the_source_as_make_messages_would_extract_it(tmp_path):
    # `make messages` run on a copy of the tree: a string added to a template, to Python or to the
    # table's strings without re-extracting shows up here as missing (or, if changed, as fuzzy).
    for name in ("apps", "rummysite", "templates", "locale"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    # A string only the copy has: proof that the extraction read the copy (and wrote the copy's catalogue).
    sentinel = (None, "A string only the copy of the tree has")
    (tmp_path / "templates" / "sentinel.html").write_text('{% load i18n %}{% translate "A string only the copy of the tree has" %}')
    extract(tmp_path)
    extracted = tmp_path / "locale" / "ro" / "LC_MESSAGES" / "django.po"
    assert sentinel in keys(extracted) and sentinel not in keys(SITE_PO)
    missing = keys(extracted) - keys(SITE_PO) - {sentinel}
    assert not missing, f"strings not in the catalogue (run `make messages` and translate them): {sorted(missing)[:10]}"
    stale = keys(SITE_PO) - keys(extracted)
    assert not stale, f"strings no longer in the source (run `make messages`): {sorted(stale)[:10]}"
    untranslated = [entry.msgid for entry in read_po(extracted) if entry.msgid and not entry.translated and entry.msgid != sentinel[1]]
    assert not untranslated, untranslated[:10]


def test_the_overrides_say_again_every_allauth_and_django_string_the_site_shows_in_bad_romanian():
    shown = {(entry.msgctxt, entry.msgid) for entry in third_party_entries("ro")}
    assert len(shown) > 200  # allauth's account pages and e-mails at least
    missing = shown - keys(OVERRIDES_PO)
    assert not missing, f"run `make messages` and translate: {sorted(missing)[:10]}"
    assert all(entry.translated for entry in read_po(OVERRIDES_PO) if entry.msgid)


def test_the_overrides_hold_nothing_a_refresh_would_drop():
    # `make messages` merges the overrides with what the site shows: an entry written by hand for a string
    # third_party_entries does not choose would be thrown away at the next refresh.
    shown = {(entry.msgctxt, entry.msgid) for entry in third_party_entries("ro")}
    assert keys(OVERRIDES_PO) - shown == set()


@pytest.mark.parametrize("po", list(catalogue_files()), ids=lambda path: str(path.relative_to(ROOT)))
def test_the_catalogues_say_tu_never_dumneavoastra(po):
    formal = [(entry.msgid, text) for entry in read_po(po) if entry.msgid for text in entry.msgstr.values() if FORMAL.search(text)]
    assert not formal, formal[:5]


@pytest.mark.parametrize(
    ("english", "romanian"),
    [
        # Django's own Romanian, said again in the site's words (issue 41, item 11; the native review's worst)
        ("Enter a valid email address.", "Scrie o adresă de e-mail validă."),
        (
            "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.",
            "Scrie un nume de utilizator valid: poate conține doar litere, cifre și caracterele @/./+/-/_.",
        ),
        ("This password is entirely numeric.", "Parola are doar cifre: adaugă și litere."),
        ("Your password can’t be too similar to your other personal information.", "Parola nu poate semăna prea mult cu celelalte date ale tale."),
        ("username", "nume de utilizator"),
        # the site's own: "trage" is the game's draw, never a drag
        ("Drop a tile here to discard", "Lasă aici piesa pe care o arunci"),
        ("Sit here", "Așază-te aici"),
        ("Which tile takes the joker?", "Cu ce piesă se ia jokerul?"),
        ("A message may be at most %(n)s characters.", "Un mesaj poate avea cel mult %(n)s de caractere."),
        ("Records", "Fișele partidelor"),
    ],
)
def test_the_native_reviews_worst_strings_read_as_a_romanian_writes_them(english, romanian):
    with translation.override("ro"):
        assert translation.gettext(english) == romanian


@pytest.mark.parametrize(("count", "said"), [(1, "Indiciu (mai ai 1)"), (3, "Indicii (mai ai 3)"), (20, "Indicii (mai ai 20)")])
def test_the_hints_counter_says_how_many_are_left(count, said):
    with translation.override("ro"):
        assert translation.ngettext("Hint (%(count)s left)", "Hints (%(count)s left)", count) % {"count": count} == said


@pytest.mark.parametrize(("limit", "said"), [(1, "cel mult 1 caracter"), (19, "cel mult 19 caractere"), (150, "cel mult 150 de caractere")])
def test_djangos_length_limit_takes_de_from_twenty(limit, said):
    english = "Ensure this value has at most %(limit_value)d character (it has %(show_value)d)."
    plural = "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d)."
    with translation.override("ro"):
        text = translation.ngettext(english, plural, limit) % {"limit_value": limit, "show_value": limit + 10}
    assert text.startswith(f"Poate avea {said} (acum are")


def test_the_overrides_win_over_allauths_own_romanian():
    with translation.override("ro"):
        assert translation.gettext("Remember Me") == "Ține-mă minte"  # allauth's own says "Tine-ma minte"
        assert translation.gettext("Enter a whole number.") == "Scrie un număr întreg."  # Django's has ţ


@pytest.mark.parametrize("path", sorted(p for p in LOCALE.rglob("*") if p.is_file() and p.suffix != ".mo"), ids=str)
def test_no_file_in_locale_has_a_cedilla_letter(path):
    text = path.read_text(encoding="utf-8")
    found = [(number, line) for number, line in enumerate(text.splitlines(), 1) if any(c in line for c in CEDILLAS)]
    assert not found, f"ş ţ Ş Ţ are not Romanian letters: write ș ț Ș Ț (comma below): {found[:5]}"


def test_the_romanian_catalogue_is_written_with_romanian_letters():
    text = SITE_PO.read_text(encoding="utf-8")
    for letter in "ăâîșțÎ":
        assert letter in text


@pytest.mark.parametrize("po", list(catalogue_files()), ids=lambda path: str(path.relative_to(ROOT)))
def test_the_pure_python_compiler_writes_the_catalogue_msgfmt_writes(po, tmp_path):
    by_msgfmt = tmp_path / "msgfmt.mo"
    subprocess.run([msgfmt(), "-o", str(by_msgfmt), str(po)], check=True)
    ours = gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(po))))
    theirs = gettext.GNUTranslations(by_msgfmt.open("rb"))
    assert ours._catalog == theirs._catalog  # type: ignore[attr-defined]
    assert [ours.plural(n) for n in range(200)] == [theirs.plural(n) for n in range(200)]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("count", "form"), [(1, "1 piesă"), (0, "0 piese"), (2, "2 piese"), (19, "19 piese"), (20, "20 de piese"), (101, "101 piese"), (119, "119 piese"), (120, "120 de piese")]
)
def test_romanian_counts_take_the_form_of_their_number(count, form):
    with translation.override("ro"):
        assert translation.ngettext("%(count)s tile", "%(count)s tiles", count) % {"count": count} == form


def _strings(builder) -> list[str]:
    values = []
    for value in builder().values():
        if isinstance(value, dict):  # e.g. the games' names by slug
            value = list(value.values())
        values += value if isinstance(value, list) else [value]
    return values


@pytest.mark.parametrize(
    "builder", [table_strings, lobby_strings, replay_strings, puzzle_strings], ids=["table", "lobby", "replay", "puzzle"]
)
def test_every_string_the_table_scripts_show_is_in_the_catalogue_and_translated(builder):
    # A string that xgettext cannot see (a helper it does not know) would stay English for good.
    translated: dict[str, str] = {}
    for entry in read_po(SITE_PO):
        if entry.translated:
            translated[entry.msgid] = entry.msgstr[0]
            if entry.msgid_plural is not None:
                translated[entry.msgid_plural] = entry.msgstr[1]
    with translation.override("en"):
        english = _strings(builder)
    # A string the builder fills in (a bot's name: "Bot (%(level)s)" with the level) is its msgid's pattern.
    patterns = [
        re.compile(re.escape(msgid).replace(re.escape("%(level)s"), ".+") + "$") for msgid in translated if "%(level)s" in msgid
    ]
    missing = [text for text in english if text not in translated and not any(p.match(text) for p in patterns)]
    assert not missing, missing
    with translation.override("ro"):
        romanian = _strings(builder)
    assert len(romanian) == len(english)
    assert sum(a != b for a, b in zip(english, romanian, strict=True)) > 0.9 * len(english)


def test_every_string_key_the_scripts_use_is_a_table_lobby_or_replay_string():
    known = set(table_strings()) | set(lobby_strings()) | set(replay_strings()) | set(puzzle_strings())
    used: set[str] = set()
    for script in (ROOT / "static" / "js").glob("*.js"):
        code = script.read_text(encoding="utf-8")
        # Literal keys only (`t("conn_" + state)` builds its key: not checked here).
        used |= set(re.findall(r"\b(?:t|has)\(\s*\"(\w+)\"\s*[,)]", code))
        used |= {key + "_forms" for key in re.findall(r"\btn\(\s*\"(\w+)\"\s*[,)]", code)}
    assert used, "no t(\"...\") calls found: has the scripts' way of getting strings changed?"
    assert used - known == set()
