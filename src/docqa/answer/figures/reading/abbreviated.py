"""A line asked by a short form the filing spells out, or spelt out where the filing prints the
short form: "EMEA capex" read in the row "Europe, Middle East and Africa", "PepsiCo Beverages
North America capex" in the row "PBNA" (the filing defines it once in its text)."""

from __future__ import annotations

import re

from docqa.answer.figures.reading.sources import Source, all_tables
from docqa.finance.abbreviations import abbreviates, definitions, is_short_form, windows_spelling
from docqa.finance.tables import StatementTable
from docqa.finance.text import clean_label, stems

_DEFINED: dict[str, dict[str, str]] = {}  # document id -> its short forms (a filing's text never changes)
_PRINTED: dict[str, set[str]] = {}   # document id -> every row label and heading its tables print
_DEFINED_SIZE = 16
_TOKEN = re.compile(r"[A-Za-z][A-Za-z&./'\u2019-]*[A-Za-z]|[A-Za-z]")


def defined_in(source: Source) -> dict[str, str]:
    """The short forms the filing's text defines, and what each stands for."""
    found = _DEFINED.get(source.document_id)
    if found is None:
        found = definitions(page.text for _, page in sorted(source.pages.items()))
        if len(_DEFINED) >= _DEFINED_SIZE:
            _DEFINED.pop(next(iter(_DEFINED)))
        _DEFINED[source.document_id] = found
    return found


def other_spellings(name: str, source: Source) -> list[str]:
    """Another spelling of a part's name in this filing: what a short form asked stands for (as the
    text defines it, else the one label or heading whose initials spell it), or the short form the
    text defines for the words asked (the owner's name aside: "Beverages North America" is PepsiCo's
    "PBNA")."""
    defined = defined_in(source)
    if is_short_form(name):
        if name in defined:
            return [defined[name]]
        longs = {t.lower(): t for t in _printed_in(source) if not is_short_form(t) and abbreviates(name, t)}
        return list(longs.values()) if len(longs) == 1 else []
    owner = {s for n in source.names for s in stems(n)}
    asked = [s for s in stems(name) if s not in owner]
    if len(asked) < 2:
        return []
    shorts = [short for short, long in defined.items() if [s for s in stems(long) if s not in owner] == asked]
    if not shorts:
        shorts = sorted({t for t in _printed_in(source) if is_short_form(t) and abbreviates(t, name)})
    return shorts if len(shorts) == 1 else []


def _printed_in(source: Source) -> set[str]:
    found = _PRINTED.get(source.document_id)
    if found is None:
        found = _printed_texts(all_tables(source))
        if len(_PRINTED) >= _DEFINED_SIZE:
            _PRINTED.pop(next(iter(_PRINTED)))
        _PRINTED[source.document_id] = found
    return found


def spelt_variants(phrase: str, tables: list[StatementTable], source: Source) -> list[tuple[str, str]]:
    """The phrase with a short form it uses spelt as the filing spells it, or with words the filing
    prints as a short form put as that short form, and that spelling; only readings that name one
    thing."""
    defined = defined_in(source)
    owner = {s for name in source.names for s in stems(name)}
    printed = _printed_texts(tables)
    out: list[tuple[str, str]] = []
    tokens = _TOKEN.findall(phrase)
    for token in dict.fromkeys(t for t in tokens if is_short_form(t)):
        if token in defined:
            longs = {defined[token]}
        elif token not in printed:  # (printed as asked and defined nowhere: nothing to spell)
            longs = {t for t in printed if abbreviates(token, t)}
        else:
            continue
        if len(longs) == 1:
            long = longs.pop()
            out.append((_replace_token(phrase, token, long), long))
    words = phrase.split()
    for short in sorted(t for t in printed if is_short_form(t) and t not in tokens):
        if short in defined:
            long_words = [s for s in stems(defined[short]) if s not in owner]
            if len(long_words) >= 2 and _holds_in_order(stems(phrase), long_words):
                out.append((_put_short(phrase, long_words, short), short))
                continue
        spans = windows_spelling(short, [w.strip(",;:()") for w in words])
        if spans:
            i, j = max(spans, key=lambda s: s[1] - s[0])
            out.append((" ".join(words[:i] + [short] + words[j:]), short))
    return [v for v in dict.fromkeys(out) if v[0] != phrase]


def _printed_texts(tables: list[StatementTable]) -> set[str]:
    """Row labels and section headings as printed (short forms among them kept whole)."""
    out: set[str] = set()
    for table in tables:
        for row in table.rows:
            for text in (row.label, row.section or ""):
                text = clean_label(text).strip(" :")
                if text and len(text) <= 80:
                    out.add(text)
                    out.update(w for w in _TOKEN.findall(text) if is_short_form(w))
    return out


def _replace_token(phrase: str, token: str, long: str) -> str:
    return re.sub(rf"(?<![\w&]){re.escape(token)}(?![\w&])", lambda _: long, phrase, count=1)


def _holds_in_order(words: list[str], wanted: list[str]) -> bool:
    it = iter(words)
    return all(any(w == x for x in it) for w in wanted)


def _put_short(phrase: str, long_words: list[str], short: str) -> str:
    """Drop the words spelt by the short form (by stem; "in-process" is two) and put the short form
    where they began."""
    wanted = list(long_words)
    kept: list[str] = []
    placed = False
    for word in phrase.split():
        s = list(stems(word))
        if wanted and s and wanted[:len(s)] == s:
            del wanted[:len(s)]
            if not placed:
                kept.append(short)
                placed = True
            continue
        kept.append(word)
    return " ".join(kept)


def names_the_row(spelling: str, label: str, section: str | None) -> bool:
    """Does the row itself (its label or the heading it sits under) print the spelling? A short form
    stands for a row's name: a table whose title alone spells it out is not read by it."""
    printed = set(stems(f"{label} {section or ''}"))
    return set(stems(spelling)) <= printed
