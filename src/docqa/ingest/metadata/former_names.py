"""Former names of the filer: "X (formerly known as Y)", "X, formerly Y", a cover's "(former name ...)"."""

from __future__ import annotations

import re
from collections.abc import Sequence

from docqa.ingest.metadata.names import former_name, is_generic_name, readable, short_name
from docqa.ingest.metadata.registrant import legal_names, tidy
from docqa.ingest.metadata.text import flat_text
from docqa.types import Page

_FORMERLY = re.compile(
    r"(?i:\(?\s*(?:formerly|previously)(?:\s+(?:known|named|called))?(?:\s+as)?\s*[,:]?\s+|\(\s*former\s+name[^)]*\)\s*)"
    r"(?P<name>(?:the\s+)?[A-Z0-9][^();,.\n“”\"]{1,70})"
)


def former_names(company: str, pages: Sequence[Page], cover_lines: list[str],
                 flats: Sequence[str] | None = None) -> list[str]:
    """Former names of the filer: "X (formerly known as Y)", "X, formerly Y", a cover's "(former name ...)".
    ``flats``: each page's ``flat_text``, when the caller has them."""
    out: list[str] = []
    if former := former_name(cover_lines):
        out.append(former)
    short = short_name(company)
    pattern = re.compile(rf"(?i:{re.escape(short)})[^()]{{0,60}}?[\s,(]+(?:the\s+[“\"]?company[”\"]?\)?,?\s*)?(?=\(?\s*(?i:formerly|previously))")
    for k, page in enumerate(pages):
        flat = flats[k] if flats is not None else flat_text(page.text)
        for m in pattern.finditer(flat):
            f = _FORMERLY.match(flat, m.end())
            if f:
                name = tidy(f.group("name"))
                if legal_names(name + " ") and not is_generic_name(name) and name not in out:
                    out.append(name)
        # a heading line under the name: "FORMERLY KNOWN AS JMU LIMITED"
        for line in page.lines[:6]:
            f = re.match(r"(?i)^\(?\s*formerly\s+known\s+as\s+(.+?)\)?\s*$", line.text.strip())
            if f and legal_names(f.group(1) + " ") and readable(tidy(f.group(1))) not in out:
                out.append(readable(tidy(f.group(1))))
        if len(out) >= 3:
            break
    return out
