"""What "no English on a Romanian screen" means, for the page tests and the browser tests (SPEC 12):
no English sentence of the catalogues' msgids, and none of the English words Romanian never writes."""

from __future__ import annotations

import re
from functools import cache

from rummysite.catalogues import OVERRIDES_PO, SITE_PO, read_po

PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%\(\w+\)\.\d+r|%[sd]|\{\w+\}|<[^>]+>")
#: Words of English that Romanian never writes ("are" and "of" are Romanian too): one of them on a
#: Romanian page is a string left out of the catalogue.
ENGLISH_WORDS = re.compile(r"\b(the|and|your|you|with|this|that|is|to|for|not|has|have|will)\b", re.IGNORECASE)


@cache
def english_sentences() -> list[str]:
    """The English of every translated msgid that is a sentence: its runs of three or more words
    between placeholders and tags (the words around a name or a number)."""
    sentences = set()
    for po in (SITE_PO, OVERRIDES_PO):
        for entry in read_po(po):
            if not entry.msgid or not entry.translated or entry.msgstr.get(0) == entry.msgid:
                continue
            for english in filter(None, [entry.msgid, entry.msgid_plural]):
                for fragment in PLACEHOLDER.split(english.replace("%%", "%")):
                    fragment = " ".join(fragment.split()).strip(" .,:;!?()“”\"'")
                    if len(re.findall(r"[A-Za-z]{2,}", fragment)) >= 3:
                        sentences.add(fragment)
    return sorted(sentences, key=len, reverse=True)


def english_in(text: str) -> list[str]:
    """The English sentences and words in `text` (a page's text, a toast, an e-mail), if any."""
    text = " ".join(text.split())
    found = [sentence for sentence in english_sentences() if sentence in text]
    return found + sorted({match.group(0) for match in ENGLISH_WORDS.finditer(text)})
