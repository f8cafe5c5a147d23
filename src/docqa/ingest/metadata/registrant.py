"""Who filed the document, by weight of evidence.

The filer's name is read from every place a report prints it, each a candidate with a weight:
the SEC cover's labelled name, the auditor's report ("To the members of X", "We have audited the
financial statements of X"), the directors' report ("The directors present their report on X"),
the definition of "the Company", the title page, the statements' headings ("X and
subsidiaries"), a press release's dateline, and the legal-entity name printed most often.
Candidates that name the same entity (after dropping case, punctuation and legal suffixes) add
up; the best-supported entity wins, with a confidence and the line it was read from. A phrase
that names no one ("The Group", "the Company", "N/a") is never a candidate.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from docqa.ingest.metadata.names import (
    LEGAL_FORM,
    SUBSIDIARIES,
    is_generic_name,
    name_key,
    name_like,
    names_on_cover,
    readable,
    short_name,
)
from docqa.ingest.metadata.text import flat_text
from docqa.types import Page

_WEIGHTS = {  # how much one source says about who filed the document
    "cover": 3.0, "auditor": 2.0, "audited": 2.0, "directors": 2.0, "release": 2.0, "defined": 1.5,
    "title": 1.5, "statements": 1.0, "headline": 1.0, "frequent": 1.0,
}
_PRIORITY = list(_WEIGHTS)  # whose spelling is shown when several agree
MIN_SUPPORT = 1.5       # below this the best candidate is reported as a guess, not stored
MIN_CONFIDENCE = 0.25
# A word's letters are taken possessively (*+): a comma or a space must follow them, and neither is one
# of them, so giving letters back never finds a match; it only cost the backtracking, at every
# capitalised word of a filing (the same names are found a third faster).
_NAME_TOKEN = r"(?:[A-Z0-9][\w.'’&\-]*+|\([A-Z][\w.&\- ]{0,20}\)|&|and|of|de|du|la|für|y)"
_LEGAL_NAME = re.compile(  # a registered name: capitalised words ending in a legal form
    rf"(?<![\w&])((?:[A-Z0-9][\w.'’&\-]*+,?\s+(?:{_NAME_TOKEN},?\s+){{0,5}}?)?(?:[A-Z0-9][\w.'’&\-]*+|\([A-Z][\w.&\-]{{0,20}}\)),?\s+"
    rf"(?:{LEGAL_FORM}|Pty\.?\s+Ltd\.?|Co\.,?\s+Ltd\.?|Limited\s+Partnership|Bancorp|Bancshares|Trust))(?![\w])"
)
_ADDRESSEE = re.compile(  # "Independent auditor's report to the members of X", "To the Board of Directors and Shareholders of X"
    r"(?i:\bto\s+the\s+(?:(?:board\s+of\s+directors|directors|(?:share|stock|unit)holders|members|owners|partners|trustees?)"
    r"\s*(?:and\s+(?:the\s+)?|,\s*)?){1,3}\s*(?:of\s+)?)(?P<name>.*)$"
)
_AUDITED = re.compile(
    r"(?i:\bwe\s+have\s+audited\s+(?:the\s+)?(?:accompanying\s+)?(?:(?:consolidated|group|parent|company|and|separate)\s+)*"
    r"(?:financial\s+(?:statements|report)|balance\s+sheets?|statements?\s+of\s+financial\s+position)\s+of\s+)"
    r"(?P<name>[A-Z](?:[^()“\"]|\([A-Z][\w.&\-]{0,20}\)){1,80}?)(?=\s*(?:\(|\band\s+(?:its\s+)?(?:controlled\s+entities|subsidiaries)|,\s+which|"
    r"\s+as\s+(?:of|at)\b|\s+for\s+the\b|\s+\(the|[’']s\b))"
)
_DIRECTORS = re.compile(
    r"(?i:\b(?:the\s+)?directors\s+(?:present|submit|have\s+pleasure\s+in\s+(?:presenting|submitting))\s+their\s+"
    r"(?:[\w-]+\s+){0,4}?report\s+(?:[\w-]+\s+){0,8}?(?:of|on|for)\s+(?:the\s+affairs\s+of\s+)?)"
    r"(?P<name>[A-Z][^(),.;“\"]{1,80}?)(?=\s*(?:\(|,|\.|;|\band\s+(?:its\s+)?(?:controlled\s+entities|subsidiaries)|\bfor\s+the\b))"
)
_DEFINED_AS = re.compile(  # 'Baker Steel Resources Trust Limited (the "Company")', 'X ("the Group" or "Mercia")'
    r"\(\s*(?:[^()]{0,40}?[,;]?\s*)?(?i:collectively\s*,?\s*)?(?i:the\s+)?[“\"‘'’]?\s*(?i:the\s+)?"
    r"(?i:company|group|registrant|parent(?:\s+company)?|issuer)\s*[”\"’'‘]?[,)\s“\"]"
)
_AND_SUBSIDIARIES = re.compile(r"(?i)^and\s+(?:its\s+)?subsidiaries\b")
_SUBSIDIARIES_TAIL = re.compile(r"[\s,]+(?i:and\s+(?:its\s+)?(?:consolidated\s+|controlled\s+)?(?:subsidiaries|controlled\s+entities)).*$")
_DESCRIPTION = re.compile(r"(?i:\b(?:a|an|is|as|any|each|every|such|other|certain|our|this|that)\s*$)")
_NOT_A_FILER = re.compile(  # names that appear in every report but never file it
    r"(?i:\bLLP\b|\baudit\b|chartered\s+accountants|exchange\s+commission|stock\s+exchange|securities\s+exchange|"
    r"\bcommission\b|registry|registrars?\b|share\s+registry|computershare|depositary|trustee)"
)



def tidy(name: str) -> str:
    """A candidate as printed, without trailing clutter: "STARVEST PLC, continued" -> "STARVEST PLC"."""
    name = re.sub(r"\s+", " ", name.replace("‌", "")).strip()
    name = re.sub(r"\s+,", ",", name)                                   # "Bridgewater Bancshares , Inc."
    name = _SUBSIDIARIES_TAIL.sub("", name)
    name = re.sub(r"(?i)[\s,(]+(?:continued|cont['’]?d|contd)\b.*$", "", name)
    name = re.sub(r"\s*[(:;].*$", "", name) if not re.match(r"^[^(]*\([A-Z][\w.&\- ]{0,20}\)", name) else name
    name = re.sub(r"[’']s$", "", name)
    name = re.sub(r"\s+\d{1,3}(?:\s*[-–]\s*\d{1,3})?$", "", name)  # a contents line's page number
    # "The Consolidated Financial Statements of X", "Board of Directors of X": the name is X
    name = re.sub(r"^(?:[\w’']+\s+){0,4}?(?i:statements?|report|accounts|directors|members|shareholders|stockholders)\s+of\s+(?=[A-Z])", "", name)
    return name.strip(" ,;:-–—“”\"'‘’")


def acceptable(name: str) -> bool:
    return (
        2 <= len(name) <= 90
        and name[:1].isalnum() and name[:1] == name[:1].upper()
        and len(name.split()) <= 10
        and name_like(name.replace("(", "").replace(")", ""))
        and not is_generic_name(name)
        and not _NOT_A_FILER.search(name)
    )


class Candidates:
    def __init__(self) -> None:
        self.found: list[tuple[str, str, str, int]] = []  # (name, source, evidence line, page)

    def add(self, name: str | None, source: str, line: str, page: int) -> None:
        if not name:
            return
        name = tidy(name)
        if acceptable(name):
            self.found.append((name, source, line.strip()[:200], page))


def _key_of(name: str) -> str:
    """One key per entity: "EPI (Holdings) Limited", "EPI Holdings Ltd" and "EPI" agree."""
    name = re.sub(r"\((?i:holdings?|group|international|plc|limited|ltd)\)", " ", readable(name))
    return name_key(short_name(re.sub(r"\s+", " ", name).strip()))


def legal_names(text: str) -> list[str]:
    out = []
    for m in _LEGAL_NAME.finditer(text):
        name = m.group(1)
        if _DESCRIPTION.search(text[max(0, m.start() - 12) : m.start()]):
            continue  # "is a Delaware Corporation", "a German Stock Corporation": a description
        out.append(re.sub(r"\s+", " ", name))
    return out


def registrant_candidates(
    pages: Sequence[Page], cover_lines: list[str], cover_page: int | None, title_pages: Sequence[Page],
    flats: Sequence[str] | None = None,
) -> Candidates:
    """``flats``: each page's ``flat_text``, when the caller has them."""
    found = Candidates()
    cover = names_on_cover(cover_lines) if cover_page else []
    for name in cover:
        line = next((ln for ln in cover_lines if name in ln), name)
        found.add(name, "cover", line, cover_page or 1)

    # the title page: a short line that is a registered name ("Starvest plc", "EPI (Holdings) Limited")
    for page in title_pages:
        for line in page.lines[:25]:
            text = tidy(line.text)
            if len(line.text.split()) <= 8:
                for name in legal_names(text + " "):
                    if len(name) >= len(text) - 3:
                        found.add(name, "title", line.text, page.number)

    statement_heads: Counter[str] = Counter()
    head_evidence: dict[str, tuple[str, int]] = {}
    addressed = audited = directors = defined = 0
    for k, page in enumerate(pages):
        lines = [line.text.strip() for line in page.lines]
        for i, text in enumerate(lines):
            if len(text) > 400:
                continue
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            m = _ADDRESSEE.search(text) if addressed < 3 else None
            if m and re.search(r"(?i)\b(?:report|opinion|auditor|to\s+the)\b", text):
                name = m.group("name").strip() or nxt
                if not m.group("name").strip() or re.fullmatch(r"[^,]+,?", name) and nxt and re.match(
                        rf"^(?:{LEGAL_FORM})\b", nxt):
                    name = (name + " " + nxt).strip() if m.group("name").strip() else nxt
                before = len(found.found)
                found.add(name, "auditor", text if m.group("name").strip() else f"{text} {nxt}", page.number)
                addressed += len(found.found) > before
            if defined < 3 and (d := _DEFINED_AS.search(text)):
                names = legal_names(_SUBSIDIARIES_TAIL.sub("", text[: d.start()]).rstrip(" ,") + " ")
                if names and text[: d.start()].rstrip(" ,").endswith(names[-1].rstrip(" ,")) or names and _SUBSIDIARIES_TAIL.search(text[: d.start()]):
                    before = len(found.found)
                    found.add(names[-1], "defined", text, page.number)
                    defined += len(found.found) > before
            # a statement heading: the name alone on its line, "and subsidiaries" on it or the next
            if len(text) <= 80:
                joined = f"{text} {nxt}" if _AND_SUBSIDIARIES.match(nxt) else text
                sm = SUBSIDIARIES.match(joined)
                if sm and name_like(sm.group(1)) and not is_generic_name(sm.group(1)):
                    key = tidy(sm.group(1))
                    statement_heads[key] += 1
                    head_evidence.setdefault(key, (joined, page.number))
        flat = flats[k] if flats is not None else flat_text(page.text)
        if audited < 3:
            for m in _AUDITED.finditer(flat):
                before = len(found.found)
                found.add(m.group("name"), "audited", flat[max(0, m.start()) : m.end() + 40], page.number)
                audited += len(found.found) > before
        if directors < 2:
            for m in _DIRECTORS.finditer(flat):
                before = len(found.found)
                found.add(m.group("name"), "directors", flat[m.start() : m.end() + 40], page.number)
                directors += len(found.found) > before
    for name, _ in statement_heads.most_common(2):
        line, number = head_evidence[name]
        found.add(name, "statements", line, number)
    return found


def choose(found: Candidates, body: str) -> tuple[str | None, float | None, str, list[str]]:
    """(company, confidence, evidence, other spellings) from the candidates, by weight of evidence."""
    if not found.found:
        return None, None, "no registrant found: no cover, auditor's report, title or legal-entity name names the filer", []
    groups: dict[str, dict[str, tuple[str, str, int]]] = {}  # key -> source -> (name, line, page)
    for name, source, line, page in found.found:
        groups.setdefault(_key_of(name), {}).setdefault(source, (name, line, page))
    # a short form and its full legal name are one entity: "Zegona" + "Zegona Communications plc"
    scores: dict[str, float] = {}
    for key, sources in groups.items():
        score = sum(_WEIGHTS[s] for s in sources)
        # how often the document names it: a filer names itself throughout
        short = short_name(readable(next(iter(sources.values()))[0]))
        mentions = len(re.findall(rf"(?i)\b{re.escape(short)}\b", body)) if len(short) > 2 else 0
        scores[key] = score + min(1.0, mentions / 30)
    total = sum(scores.values())
    best = max(scores, key=lambda k: scores[k])
    support, sources = scores[best], groups[best]
    confidence = round(min(1.0, support / 4.0) * support / total, 2)
    source = min(sources, key=_PRIORITY.index)
    name, line, page = sources[source]
    # show the name as printed in mixed case when a source prints it so ("TRANSUNION" -> "TransUnion")
    if name.isupper():
        mixed = [n for n, _, _ in sources.values() if not n.isupper() and name_key(n) == name_key(name)]
        name = mixed[0] if mixed else name
    agreeing = "+".join(s for s in _PRIORITY if s in sources)
    evidence = f"p.{page} [{agreeing}]: {line}"
    if support < MIN_SUPPORT or confidence < MIN_CONFIDENCE:
        return None, confidence, f"unsure (confidence {confidence}): best guess {readable(name)!r} from {evidence}", []
    others = [n for s, (n, _, _) in sources.items() if s != source]
    return name, confidence, evidence, others

