"""The translation catalogues (SPEC 12): extract, refresh the overrides, compile. `make messages` and
`make run` call this; so does the Dockerfile. Run `python -m rummysite.catalogues --help`.

- `extract`: Django's makemessages for the site's own strings, into locale/<lang>/LC_MESSAGES/django.po
  (templates, Python, and the table's strings, which live in apps/tables/ui_strings.py). New strings come
  out untranslated and changed ones fuzzy: the catalogue check (tests/site/test_catalogues.py) fails
  until they are translated.
- `overrides`: the msgids of Django's and allauth's own catalogues that the site shows (allauth's account
  pages and e-mails, Django's form and password errors), merged into locale/overrides/<lang>/...: their
  Romanian is written without diacritics (allauth) or with cedilla letters (Django), so the site says
  them again in its own words. Needs GNU gettext (msgmerge, like makemessages).
- `compile`: every .po under locale/ to its .mo, with msgfmt when it is installed, else with the small
  pure-Python compiler below (same output), so a fresh clone serves Romanian without GNU gettext.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
OVERRIDES = LOCALE / "overrides"
SITE_PO = LOCALE / "ro" / "LC_MESSAGES" / "django.po"
OVERRIDES_PO = OVERRIDES / "ro" / "LC_MESSAGES" / "django.po"
LANGUAGES = ("ro",)

#: makemessages' arguments, the same for `make messages` and for the check that the catalogue is
#: complete (it runs them on a copy of the tree). Locations are file names only: line numbers would
#: change the catalogue (and conflict in merges) whenever code moves.
MAKEMESSAGES_ARGS = [
    "--ignore=.venv",
    "--ignore=tests",
    "--ignore=bench",
    "--ignore=docs",
    "--ignore=docker",
    "--ignore=staticfiles",
    "--ignore=build",  # (not "examples": that would skip apps/catalog/examples too; ignore patterns match any directory name)
    "--ignore=locale",
    "--add-location=file",
]

#: Where the site shows third-party strings: (package, locale dir in it, the source files whose strings
#: the site shows, and whether to say all of them again or only those its own Romanian gets wrong).
#: allauth's Romanian has no diacritics at all ("Parola", "Tine-ma minte"): all of its account strings.
#: Django's is good but for a few cedilla letters, gaps, the formal register and a few slips (FORMAL,
#: REWORDED): those only.
THIRD_PARTY = [
    # allauth's account pages, forms, messages and e-mails (the site uses allauth.account only).
    ("allauth", "locale", ["account/*", "templates/account/*", "templates/allauth/*"], True),
    # Django's form field errors and validators (sign-up, the table forms), its dates and the CSRF page.
    ("django", "conf/locale", ["forms/*", "core/validators.py", "db/models/base.py", "utils/*", "views/csrf.py"], False),
    # Django's Romanian writes month and day names with a capital ("30 Noiembrie 2026"): Romanian does not.
    ("django", "conf/locale", ["utils/dates.py"], True),
    # Password rules and the username rule of sign-up and guest conversion.
    ("django.contrib.auth", "locale", ["contrib/auth/password_validation.py", "contrib/auth/validators.py", "contrib/auth/models.py", "contrib/auth/forms.py"], False),
    ("django.contrib.humanize", "locale", ["contrib/humanize/templatetags/*"], False),
]

#: Django's Romanian addresses the reader as *dumneavoastră* ("Introduceți…", "Asigurați-vă…", "Vă rugăm…"),
#: the site says *tu* (locale/GLOSSARY.md): such a string is said again like a missing one. Formal is "vă",
#: "dumneavoastră", or a sentence that opens on a verb in -ți ("Introduceți", "Selectați"; not "trimiți").
FORMAL = re.compile(r"\b(?:[Vv]ă|[Dd]umneavoastră)\b|(?:^|[.!?]\s+)[A-ZĂÂÎȘȚ]\w*(?:ați|eți|iți|îți)\b")

#: Django strings the site shows whose Romanian is wrong in another way: a typo ("Acestă parolă"), a
#: missing diacritic ("sa" for "să"), "nume utilizator" (no "de"), which the password-similarity error
#: puts in a sentence, and the stiff password rules under every password field.
REWORDED = {
    "This password is entirely numeric.",
    "This password is too common.",
    "The password is too similar to the %(verbose_name)s.",
    "Your password can’t be too similar to your other personal information.",
    "Your password can’t be a commonly used password.",
    "Your password can’t be entirely numeric.",
    "username",
}

#: The header of a new catalogue: Romanian's three plural forms (1; 0 and 2-19; 20 and more: "20 de piese").
HEADER = [
    "Project-Id-Version: tile-rummy\n",
    "PO-Revision-Date: 2026-12-01 00:00+0000\n",
    "Last-Translator: Tile Rummy <noreply@localhost>\n",
    "Language-Team: Romanian\n",
    "Language: ro\n",
    "MIME-Version: 1.0\n",
    "Content-Type: text/plain; charset=UTF-8\n",
    "Content-Transfer-Encoding: 8bit\n",
    "Plural-Forms: nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);\n",
]

CEDILLAS = "\u015f\u0163\u015e\u0162"  # ş ţ Ş Ţ: never Romanian letters (SPEC 12)


# --- Reading .po files ------------------------------------------------------------------------------


@dataclass
class Entry:
    msgid: str
    msgstr: dict[int, str]
    msgctxt: str | None = None
    msgid_plural: str | None = None
    flags: set[str] = field(default_factory=set)
    locations: list[str] = field(default_factory=list)

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values()) and "fuzzy" not in self.flags


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header is the entry with msgid ""), obsolete ones left out.
    Entries are separated by blank lines, as every gettext tool writes them."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry = Entry(msgid="", msgstr={})
        key: tuple[str, int] | None = None
        seen_msgid = False
        for raw in block.splitlines():
            line = raw.strip()
            if line.startswith("#,"):
                entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#:"):
                entry.locations += line[2:].split()
            elif not line or line.startswith("#"):
                continue  # other comments, and obsolete entries (#~)
            elif line.startswith('"'):
                if key is None:
                    raise ValueError(f"{path}: a string continues nothing: {raw!r}")
                _append(entry, key, ast.literal_eval(line))
            else:
                word, _, rest = line.partition(" ")
                key = ("msgstr", int(word[7:-1])) if word.startswith("msgstr[") else (word, 0)
                if key[0] not in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
                    raise ValueError(f"{path}: cannot read {raw!r}")
                if key[0] == "msgid":
                    seen_msgid = True
                if key[0] == "msgctxt":
                    entry.msgctxt = ""
                elif key[0] == "msgid_plural":
                    entry.msgid_plural = ""
                elif key[0] == "msgstr":
                    entry.msgstr[key[1]] = ""
                _append(entry, key, ast.literal_eval(rest))
        if seen_msgid:
            entries.append(entry)
    return entries


def _append(entry: Entry, key: tuple[str, int], value: str) -> None:
    name, index = key
    if name == "msgctxt":
        entry.msgctxt = (entry.msgctxt or "") + value
    elif name == "msgid":
        entry.msgid += value
    elif name == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + value
    else:
        entry.msgstr[index] += value


# --- Compiling ----------------------------------------------------------------------------------------


def mo_bytes(entries: Iterable[Entry]) -> bytes:
    """The GNU .mo file of these entries, as msgfmt writes it: untranslated and fuzzy entries are left
    out (the header is kept even though it is marked fuzzy in a new catalogue)."""
    catalog: dict[bytes, bytes] = {}
    for entry in entries:
        is_header = entry.msgid == "" and entry.msgctxt is None
        if not is_header and not entry.translated:
            continue
        key = entry.msgid if entry.msgid_plural is None else f"{entry.msgid}\0{entry.msgid_plural}"
        if entry.msgctxt is not None:
            key = f"{entry.msgctxt}\x04{key}"
        value = "\0".join(entry.msgstr[index] for index in sorted(entry.msgstr))
        if is_header:  # msgfmt leaves the extraction date out of the compiled header
            value = "".join(line for line in value.splitlines(keepends=True) if not line.startswith("POT-Creation-Date:"))
        catalog[key.encode("utf-8")] = value.encode("utf-8")
    keys = sorted(catalog)
    ids = b"".join(key + b"\0" for key in keys)
    strs = b"".join(catalog[key] + b"\0" for key in keys)
    header_size = 7 * 4
    table_size = len(keys) * 8
    ids_start = header_size + 2 * table_size
    strs_start = ids_start + len(ids)
    offsets_ids, offsets_strs = [], []
    position = 0
    for msgid in keys:
        offsets_ids += [len(msgid), ids_start + position]
        position += len(msgid) + 1
    position = 0
    for msgid in keys:
        offsets_strs += [len(catalog[msgid]), strs_start + position]
        position += len(catalog[msgid]) + 1
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), header_size, header_size + table_size, 0, 0)
    tables = struct.pack(f"<{len(offsets_ids)}I", *offsets_ids) + struct.pack(f"<{len(offsets_strs)}I", *offsets_strs)
    return header + tables + ids + strs


def catalogue_files(root: Path = LOCALE) -> Iterator[Path]:
    """Every .po file under `root` (the site's own and the overrides)."""
    yield from sorted(root.glob("**/LC_MESSAGES/*.po"))


def compile_all(root: Path = LOCALE, *, use_msgfmt: bool | None = None) -> list[Path]:
    """Compile every catalogue under `root`; the .mo files written."""
    if use_msgfmt is None:
        use_msgfmt = shutil.which("msgfmt") is not None
    written = []
    for po in catalogue_files(root):
        mo = po.with_suffix(".mo")
        if use_msgfmt:
            subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)
        else:
            mo.write_bytes(mo_bytes(read_po(po)))
        written.append(mo)
    return written


# --- Extracting -------------------------------------------------------------------------------------


def extract(root: Path = ROOT) -> None:
    """makemessages for the site's own strings, in `root` (the tree, or a copy of it for the check).
    The extraction date is left out of the header: it would change on every run and conflict in merges."""
    for language in LANGUAGES:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", language, *MAKEMESSAGES_ARGS],
            cwd=root,
            check=True,
        )
        po = root / "locale" / language / "LC_MESSAGES" / "django.po"
        lines = po.read_text(encoding="utf-8").splitlines(keepends=True)
        po.write_text("".join(line for line in lines if not line.startswith('"POT-Creation-Date:')), encoding="utf-8")


def third_party_entries(language: str) -> list[Entry]:
    """What the site shows of Django's and allauth's catalogues (THIRD_PARTY) and must say itself in
    `language`. The English catalogue of each package names the source files (the translated ones
    often do not)."""
    chosen: dict[tuple[str | None, str], Entry] = {}
    for package, locale_dir, patterns, everything in THIRD_PARTY:
        base = package_dir(package) / locale_dir
        theirs = {(entry.msgctxt, entry.msgid): entry for entry in read_po(base / language / "LC_MESSAGES" / "django.po")}
        for entry in read_po(base / "en" / "LC_MESSAGES" / "django.po"):
            files = [location.rsplit(":", 1)[0] for location in entry.locations]
            if not entry.msgid or not any(fnmatch(name, pattern) for name in files for pattern in patterns):
                continue
            translation = theirs.get((entry.msgctxt, entry.msgid))
            wrong = (
                translation is None
                or not translation.translated
                or any(letter in text for text in translation.msgstr.values() for letter in CEDILLAS)
                or any(FORMAL.search(text) for text in translation.msgstr.values())
                or entry.msgid in REWORDED
            )
            if everything or wrong:
                chosen.setdefault((entry.msgctxt, entry.msgid), entry)
    return list(chosen.values())


def package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"{package} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def write_template(entries: Iterable[Entry], path: Path) -> None:
    """A .pot file of these msgids (no translations), for msgmerge."""
    lines = ['msgid ""', 'msgstr ""', *(_quote(line) for line in HEADER), ""]
    for entry in entries:
        files = dict.fromkeys(location.rsplit(":", 1)[0] for location in entry.locations)  # no line numbers
        lines += [f"#: {' '.join(files)}"] if files else []
        flags = sorted(flag for flag in entry.flags if flag != "fuzzy")
        lines += [f"#, {', '.join(flags)}"] if flags else []
        lines += [f"msgctxt {_quote(entry.msgctxt)}"] if entry.msgctxt is not None else []
        lines.append(f"msgid {_quote(entry.msgid)}")
        if entry.msgid_plural is not None:
            lines += [f"msgid_plural {_quote(entry.msgid_plural)}", 'msgstr[0] ""', 'msgstr[1] ""', ""]
        else:
            lines += ['msgstr ""', ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def refresh_overrides() -> None:
    """Merge the third-party msgids the site shows into locale/overrides/<lang>/LC_MESSAGES/django.po,
    keeping the translations already written there."""
    for language in LANGUAGES:
        po = OVERRIDES / language / "LC_MESSAGES" / "django.po"
        po.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            pot = Path(tmp) / "overrides.pot"
            write_template(third_party_entries(language), pot)
            if not po.exists():
                shutil.copy(pot, po)
            subprocess.run(
                ["msgmerge", "--quiet", "--update", "--backup=none", "--no-fuzzy-matching", "--add-location=file", str(po), str(pot)],
                check=True,
            )
            subprocess.run(["msgattrib", "--no-obsolete", "-o", str(po), str(po)], check=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m rummysite.catalogues", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["extract", "overrides", "compile"])
    arguments = parser.parse_args(argv)
    os.chdir(ROOT)
    if arguments.command == "extract":
        extract()
    elif arguments.command == "overrides":
        refresh_overrides()
    else:
        for mo in compile_all():
            print(f"compiled {mo.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
