"""The company's name as a filing prints it: the SEC cover's labelled name, a press release's
dateline, its readable form ('ADOBE SYSTEMS INCORPORATED' -> 'Adobe Systems Incorporated'), its
short name and the aliases the filer uses for itself; and the phrases that name no one."""

from __future__ import annotations

import re
from collections.abc import Sequence

from docqa.ingest.metadata.period import REPORT_DATE

SHORT_NAME_MIN = 8  # standalone uses before a short form ("Adobe", "AMD") counts as an alias

LEGAL_FORM = (  # what a registered name ends in
    r"Inc\.?|Incorporated|Corporation|Corp\.?|Company|Co\.?|plc|PLC|Ltd\.?|Limited|LLC|L\.P\.|LP|"
    r"N\.V\.|S\.A\.|SE|AG|A/S|ASA|AB|S\.p\.A\.|GmbH|N\.A\."
)
_LEGAL = LEGAL_FORM + r"|Holdings?|Group|International"  # also dropped to get the short name
LEGAL_TAIL = re.compile(rf"(?:[\s,]+(?:{_LEGAL}))+\.?$", re.I)
_EXACT_NAME = re.compile(r"\(?\s*exact\s+name\s+of\s+(?:the\s+)?registrant", re.I)
_TRANSLATION = re.compile(r"\(\s*translation\s+of\s+registrant", re.I)
_COMMISSION = re.compile(r"commission\s+file\s+(?:number|no)", re.I)
_NOT_A_NAME = re.compile(
    r"commission|report|pursuant|transition|period|fiscal|exchange act|address|telephone|zip|"
    r"jurisdiction|incorporation|identification|state of|\(|\)|:|☐|☒|securities",
    re.I,
)
_EXCHANGE_TICKER = re.compile(
    r"\(?\b(?:NYSE|NASDAQ|Nasdaq|NYSE American|NYSE Arca|TSX|ASX|LSE|SIX)\s*:\s*([A-Z][A-Z.]{0,6})\b\)?"
)
SUBSIDIARIES = re.compile(r"^(.{3,60}?)\s+and\s+(?:its\s+)?(?:consolidated\s+)?subsidiaries\b", re.I)
HEADLINE_SUBJECT = re.compile(r"^((?:[A-Z0-9][\w.'’&\-]*\s+){1,4}?)(?:reports?|announces?|posts?|delivers?)\b")


def name_like(text: str) -> bool:
    words = text.split()
    return (
        0 < len(words) <= 10
        and any(c.isalpha() for c in text)
        and len(re.findall(r"\d", text)) < 3
        and not _NOT_A_NAME.search(text)
    )


def _labelled_name(lines: list[str], label: re.Pattern) -> str | None:
    """The name printed just above its cover label, "(Exact name of registrant ...)"."""
    for i, line in enumerate(lines):
        if found := label.search(line):
            before = line[: found.start()].strip()
            if before and name_like(before):
                return before
            for prev in reversed(lines[max(0, i - 3) : i]):  # blank or address lines are skipped
                if name_like(prev):
                    return prev
                if _COMMISSION.search(prev) or REPORT_DATE.search(prev):
                    break
            return None
    return None


def names_on_cover(lines: list[str]) -> list[str]:
    """Registrant names on an SEC cover, the one to show first.

    Foreign filers print the legal name and its English translation: the translation is the name
    people use. Covers without the label (3M, Microsoft) print the name under the file number.
    """
    names = [n for n in (_labelled_name(lines, _TRANSLATION), _labelled_name(lines, _EXACT_NAME)) if n]
    if not names:
        for i, line in enumerate(lines[:60]):
            if _COMMISSION.search(line) and i + 1 < len(lines):
                nxt = lines[i + 1]
                if name_like(nxt) and (nxt.isupper() or LEGAL_TAIL.search(nxt)):
                    return [nxt]
    return names


def name_in_release(text: str) -> tuple[str | None, str | None]:
    """"Johnson & Johnson (NYSE: JNJ) today announced": the name is the capitalised run before it."""
    first_ticker = None
    for m in _EXCHANGE_TICKER.finditer(text):
        first_ticker = first_ticker or m.group(1)
        tokens = text[max(0, m.start() - 150) : m.start()].split()
        name: list[str] = []
        for token in reversed(tokens):
            if re.fullmatch(r"[A-Z0-9][\w.'’&\-]*,?", token) or token in {"&", "and", "of", "de"}:
                name.insert(0, token)
            else:
                break
        while name and name[0] in {"&", "and", "of", "de"}:
            name.pop(0)
        if name:
            return " ".join(name).rstrip(","), m.group(1)
    return None, first_ticker



def readable(name: str) -> str:
    """'ADOBE SYSTEMS INCORPORATED' -> 'Adobe Systems Incorporated'; mixed case is kept as printed."""
    keep_dot = name.rstrip().endswith(".")  # "Inc." keeps its full stop, stray punctuation goes
    name = re.sub(r"\s+", " ", name).strip(" ,;.-–—") + ("." if keep_dot else "")
    name = re.sub(r"\s+([,.])", r"\1", name)  # "NIKE, Inc ." -> "NIKE, Inc."
    if not name.isupper():
        return name
    name = re.sub(r"\b([A-Z]) ([A-Z]{2,})\b", r"\1\2", name)  # small caps split "R ESORTS"
    words = []
    for word in name.split():
        bare = word.strip(",.")
        if bare in {"PLC", "AND", "OF", "DE"}:
            words.append(word.lower())
        elif re.search(r"\d|&", word) or not re.search(r"[AEIOUY]", bare) or bare in {"N.V", "S.A", "AG", "SE", "LLC", "LP"}:
            words.append(word)  # 3M, AT&T, CVS, MGM: acronyms stay upper case
        else:
            words.append("-".join(part[:1] + part[1:].lower() for part in word.split("-")))
    return " ".join(words)


def short_name(name: str) -> str:
    """The name without a leading 'The' or legal suffixes: 'Best Buy Co., Inc.' -> 'Best Buy'."""
    name = re.sub(r"^the\s+", "", name.strip(), flags=re.I)
    name = LEGAL_TAIL.sub("", name).strip(" ,.")
    name = re.sub(r"\s*(?:&|\band)$", "", name)  # "JPMorgan Chase & Co." -> "JPMorgan Chase"
    return re.sub(r"\.com$", "", name, flags=re.I)


_GENERIC = {"company", "registrant", "we", "us", "our", "firm", "corporation", "group", "issuer", "parent"}


def name_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def aliases(company: str, text: str, extra: Sequence[str]) -> tuple[str, ...]:
    out: list[str] = []
    seen = {name_key(company)}

    def add(alias: str | None) -> None:
        alias = (alias or "").strip(" ,.;")
        if len(alias) > 1 and name_key(alias) not in seen and alias.lower() not in _GENERIC and not is_generic_name(alias):
            seen.add(name_key(alias))
            out.append(alias)

    short = short_name(company)
    add(short)
    words = short.split()
    # the filer's own short forms: "Adobe" for Adobe Systems, "AMD" for Advanced Micro Devices.
    # Counted case-sensitively and outside the full name, so "Best" (Best Buy), "General"
    # (General Mills) or "Johnson" (Johnson & Johnson) never qualify.
    rest = text.replace(short, " ") if len(words) > 1 else text
    for i in range(1, len(words)):
        prefix = " ".join(words[:i])
        if len(prefix) > 2 and len(re.findall(rf"\b{re.escape(prefix)}(?![\w-])", rest)) >= SHORT_NAME_MIN:
            add(prefix)
    if len(words) >= 2:
        acronym = "".join(w[0] for w in words if w[0].isalpha()).upper()
        if len(acronym) >= 2 and len(re.findall(rf"\b{acronym}\b", text)) >= SHORT_NAME_MIN:
            add(acronym)
    # a camel-cased brand token is distinctive on its own: "JPMorgan" of JPMorgan Chase
    if len(words) >= 2 and re.search(r"[a-z][A-Z]|^[A-Z]{2,}[a-z]", words[0]) and len(words[0]) >= 4:
        add(words[0])
    for alias in extra:
        add(alias)
        add(short_name(alias))
    return tuple(out)


def defined_names(company: str, text: str) -> list[str]:
    """Names the document defines for its filer: 'MGM Resorts International ("MGM Resorts" or ...'."""
    out = []
    for m in re.finditer(re.escape(company) + r"[^“\"(]{0,40}\(([^)]{1,80})\)", text):
        for term in re.findall(r"[“\"]([A-Z][^”\"]{1,40})[”\"]", m.group(1)):
            term = term.strip(" ,.;")
            if term.lower() not in _GENERIC:
                out.append(term)
    return out


def former_name(lines: list[str]) -> str | None:
    for i, line in enumerate(lines):
        if re.search(r"\(former name", line, re.I) and i > 0:
            prev = lines[i - 1].strip()
            if name_like(prev) and not re.fullmatch(r"n/?a|none|not applicable", prev, re.I):
                return prev
    return None



# words that describe an entity without naming one: a name made only of these (and legal
# suffixes) is generic ("The Group", "Investment Company", "German Stock Corporation")
_GENERIC_WORDS = {
    "the", "a", "an", "company", "companies", "group", "registrant", "issuer", "parent", "entity", "firm",
    "corporation", "holding", "holdings", "investment", "stock", "public", "private", "joint", "limited",
    "liability", "listed", "german", "we", "us", "our", "n", "na", "none", "not", "applicable", "trust",
    "fund", "bank", "partnership", "subsidiary", "subsidiaries", "consolidated", "board", "directors",
    "members", "shareholders", "stockholders", "report", "annual", "financial", "statements", "its",
    "inc", "incorporated", "corp", "co", "plc", "ltd", "llc", "lp", "sa", "nv", "ag", "se", "spa", "gmbh",
    "ab", "asa", "pty", "bhd", "kk", "kabushiki", "kaisha", "and", "of",
}


def is_generic_name(name: str | None) -> bool:
    """True for phrases that name no one: "The Group", "the Company", "N/a", "Co., Ltd.", "Investment Company"."""
    if not name:
        return True
    words = re.sub(r"[^a-z0-9 ]", " ", name.lower().replace("&", " and ")).split()
    return not words or all(w in _GENERIC_WORDS for w in words)
