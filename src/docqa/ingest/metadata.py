"""What a filing is, read from its own pages: company, filing type, fiscal period, and per page
the 10-K/10-Q Item and the primary statement printed on it.

Nothing here looks at the file name: users name their files anything. Document fields come
from the first pages (the SEC cover, or a press release's headline), so detection costs a few
regexes per document; per page only cheap regexes run over a page's first lines.

Fiscal year convention (matches the labelled corpus): a fiscal year is named by the calendar
year in which it ends, so Best Buy's year ended January 28, 2023 is 2023, and a 52/53-week year
that ends in the first days of January (J&J: January 1, 2023) belongs to the year before.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from datetime import date

from docqa.types import DocType, DocumentMeta, Page, PageInfo, StatementKind

HEAD_PAGES = 3      # the cover and the headline live here
NAME_PAGES = 40     # pages read to learn the short name a filer uses for itself
SHORT_NAME_MIN = 8  # standalone uses before a short form ("Adobe", "AMD") counts as an alias

# ----------------------------------------------------------------------------- dates

_MONTHS = {
    m[:3].lower(): i
    for i, m in enumerate(
        "January February March April May June July August September October November December".split(), 1
    )
}
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
# "December 31, 2022" (US) or "31 December 2022" (UK / non-US annual reports)
_DATE = rf"(?:{_MONTH}\s+\d{{1,2}}\s*,?\s*(?:19|20)\d\d|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\s+(?:19|20)\d\d)"


def parse_date(text: str) -> date | None:
    m = re.match(r"([A-Za-z]+)\.?\s+(\d{1,2})\s*,?\s*(\d{4})", text)
    if m:
        month, day, year = m.group(1), m.group(2), m.group(3)
    else:
        m = re.match(r"(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?\s+(\d{4})", text)
        if not m:
            return None
        day, month, year = m.group(1), m.group(2), m.group(3)
    number = _MONTHS.get(month[:3].lower())
    try:
        return date(int(year), number, int(day)) if number else None
    except ValueError:
        return None


def fiscal_year_ending(end: date, quarter: int | None = None) -> int:
    """Year of the fiscal year that a period ending on ``end`` (quarter ``quarter``) belongs to."""
    month, year = end.month + 3 * (4 - (quarter or 4)), end.year
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    # a 52/53-week year ending January 1-7 is the previous calendar year's fiscal year
    return year - 1 if month == 1 and end.day <= 7 else year


# ----------------------------------------------------------------------------- filing type

_FORM_TITLE = re.compile(
    r"^(?:[☒☐xý¨o■\s]*)(?:form\s+(10-?k|10-?q|8-?k|20-?f|40-?f|6-?k)\b"
    r"|(annual|quarterly|current)\s+report\s+(?:pursuant|under)\b"
    r"|(current)\s+report\s*$)",
    re.I,
)
_FORM_TYPES = {
    "10k": DocType.ANNUAL, "20f": DocType.F20, "40f": DocType.F40, "annual": DocType.ANNUAL,
    "10q": DocType.QUARTERLY, "quarterly": DocType.QUARTERLY,
    "8k": DocType.CURRENT, "6k": DocType.CURRENT, "current": DocType.CURRENT,
}
_RELEASE = re.compile(
    r"\b(?:reports?|reported|announces?|announced|posts?|delivers?)\b[^.]{0,100}?\b(?:results|earnings)\b"
    r"|for immediate release"
    r"|\bresults\s+for\s+the\s+(?:\w+[\s-]+){0,3}(?:quarter|year|half|months|weeks)\b"
    r"|\b(?:first|second|third|fourth|full|half)[\s-]+(?:quarter|year)\b[^.]{0,40}?\bresults\b"
    r"|\bQ[1-4]\s+(?:FY\s?)?(?:20)?\d\d\s+results\b",
    re.I,
)
_REPORT_TITLE = re.compile(
    r"\b(annual report|annual financial report|financial report|integrated report|annual review"
    r"|report and (?:financial statements|accounts)|half[- ]year(?:ly)? report|interim report"
    r"|(?:interim |condensed |consolidated )*financial statements)\b",
    re.I,
)
_SEC_COVER = re.compile(r"exact\s+name\s+of\s+(?:the\s+)?registrant|securities\s+and\s+exchange\s+commission", re.I)
COVER_PAGES = 12  # a glossy annual report may carry the SEC cover a few pages in
DEEP_COVER_PAGES = 100  # ... or after a proxy statement, where only the cover's label is trusted


def _form_on(lines: list[str]) -> DocType | None:
    """The form a cover's title block names: a numbered form ("FORM 20-F") beats "Annual report pursuant"."""
    found: list[str] = []
    for line in lines[:150]:
        m = _FORM_TITLE.match(line)
        if m and (len(line) <= 40 or not m.group(1)):  # "FORM 10-K" stands alone on its line
            found.append(next(g for g in m.groups() if g).lower().replace("-", ""))
    numbered = [k for k in found if k[0].isdigit()]
    key = (numbered or found or [None])[0]
    return _FORM_TYPES[key] if key else None


def _title_type(head_lines: list[str]) -> DocType | None:
    """A report without an SEC cover announces itself in a short title line ("Annual Report 2022",
    "Report and Financial Statements", "Consolidated Financial Statements")."""
    short = [line for line in head_lines[:40] if len(line.split()) <= 8]
    # a title broken over lines ("Annual" / "Report") is read joined
    joined = short + [f"{a} {b}" for a, b in zip(short, short[1:]) if len(f"{a} {b}".split()) <= 8]
    kinds = []
    for line in joined:
        m = _REPORT_TITLE.search(line)
        if m:
            title = m.group(1).lower()
            if re.search(r"half|interim", title):
                kinds.append(DocType.QUARTERLY)
            elif title.endswith("financial statements") and "report" not in title:
                # the title itself, not "Notes to the financial statements" in a contents list
                if re.match(r"^(?:(?:19|20)\d\d\s+)?(?:audited\s+|annual\s+)?(?:consolidated\s+|combined\s+)?"
                            r"financial\s+statements\b", line, re.I):
                    kinds.append(DocType.FINANCIAL_STATEMENTS)
            else:
                kinds.append(DocType.ANNUAL_REPORT)
    for kind in (DocType.QUARTERLY, DocType.ANNUAL_REPORT, DocType.FINANCIAL_STATEMENTS):
        if kind in kinds:
            return kind
    return None


def _doc_type(head_lines: list[str], headline: str) -> DocType:
    # The SEC cover names the form in its title block. Matching whole title lines (not "our
    # Annual Report on Form 10-K" in prose) keeps press releases apart.
    if form := _form_on(head_lines):
        return form
    # No SEC cover: a non-US annual/interim report announces itself in a short title line, an
    # earnings release in its headline ("X reports fourth quarter results"). An 8-K that carries
    # a release has the 8-K cover and was caught above.
    if title := _title_type(head_lines):
        return title
    if _RELEASE.search(headline):
        return DocType.EARNINGS
    return DocType.OTHER


# ----------------------------------------------------------------------------- fiscal period

_YEAR_ENDED = re.compile(rf"(?:fiscal\s+)?year\s+ended\s*:?\s*({_DATE})", re.I)
# how reports without an SEC cover name their period: "for the year ended 30 June 2022", "52 weeks
# ended January 29, 2022", "FY to 31 Mar 2022", "financial year ended", "as at 31 December 2022"
_PERIOD_PHRASE = re.compile(
    rf"(?:\b(?:financial|fiscal)\s+)?\b(?:years?|periods?|(?:\d{{2}}|fifty-\w+)\s+weeks|twelve\s+months|12\s+months)\s+"
    rf"ended\s*:?\s*(?:on\s+)?({_DATE})"  # not "ending": that is guidance for the next year
    rf"|\bFY\s*(?:to|ended)\s+({_DATE})|\byear\s+to\s+({_DATE})|\bas\s+at\s+({_DATE})",
    re.I,
)
# two-column covers interleave text: "For the quarterly period ended  Commission file  March 31, 2021"
_QUARTER_ENDED = re.compile(rf"(?:quarterly\s+period|quarter|period)\s+ended\s*:?\s*(?:[^\d]{{0,40}}?)({_DATE})", re.I)
_REPORT_DATE = re.compile(rf"date\s+of\s+(?:report|earliest\s+event)[^:]{{0,60}}:\s*({_DATE})", re.I)
_RELEASE_ENDED = re.compile(
    rf"(?:quarter|period|year|weeks|months)\s+(?:\([^)]{{0,40}}\)\s*)?ended\s+({_DATE})", re.I
)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_QUARTER_WORD = re.compile(r"\b(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter\b|\bQ([1-4])\b|\b([1-4])Q\d\d\b", re.I)
_QUARTER_YEAR = re.compile(
    r"\b(?:(20\d\d)\s+(first|second|third|fourth)[\s-]+quarter"
    r"|(first|second|third|fourth)[\s-]+quarter(?:\s+(?:and|of|&|full|year|fiscal|results|financial))*[\s-]+(20\d\d)"
    r"|fiscal\s+(?:year\s+)?(20\d\d)|full[\s-]+year\s+(20\d\d))",
    re.I,
)
_HALF_YEAR = re.compile(r"\b(?:half[\s-]+year|first\s+half|six\s+months|interim\s+results)\b", re.I)
_FULL_YEAR = re.compile(r"\b(full[\s-]+year|fiscal\s+(?:year\s+)?20\d\d\s+results|annual results|year[- ]end results)\b", re.I)


def _report_date(doc_type: DocType, head: str) -> str | None:
    """An 8-K's "date of report (date of earliest event reported)", ISO: the day the filing speaks of."""
    if doc_type is not DocType.CURRENT:
        return None
    m = _REPORT_DATE.search(head) or re.search(f"({_DATE})", head, re.I)
    day = parse_date(m.group(1)) if m else None
    return day.isoformat() if day else None


def _likeliest_year(text: str) -> int | None:
    """Last resort: the year printed most often on the first pages."""
    years = Counter(re.findall(r"\b(20\d\d)\b", text[:3000]))
    return int(years.most_common(1)[0][0]) if years else None


def _voted_period_end(text: str) -> date | None:
    votes: Counter[date] = Counter()
    for m in _PERIOD_PHRASE.finditer(text):
        found = parse_date(next(g for g in m.groups() if g))
        if found:
            votes[found] += 1
    if not votes:
        return None
    return max(votes, key=lambda d: (votes[d], d))


def _quarter_from_year_to_date(text: str) -> int:
    """A 10-Q reports three months plus the year to date: six months means Q2, nine means Q3."""
    nine = len(re.findall(r"\b(?:nine|9)\s+months\s+ended|\b(?:thirty-nine|39|forty|40)\s+weeks\s+ended", text, re.I))
    six = len(re.findall(r"\b(?:six|6)\s+months\s+ended|\b(?:twenty-six|26|twenty-four|24)\s+weeks\s+ended", text, re.I))
    return 3 if nine >= 2 else 2 if six >= 2 else 1


def _period(doc_type: DocType, head: str, headline: str, body: str):
    """(fiscal_year, fiscal_quarter, period_end) as printed on the first pages."""
    if doc_type in (DocType.ANNUAL, DocType.F20, DocType.F40):
        # the cover says it
        m = _YEAR_ENDED.search(head) or _YEAR_ENDED.search(body)
        if m and (end := parse_date(m.group(1))):
            return fiscal_year_ending(end), None, end
        return _likeliest_year(headline), None, None
    if doc_type.is_annual:
        # no SEC cover: the period end the report names most often ("for the year ended 30 June
        # 2022" heads every statement); a tie goes to the later date (the prior year is compared)
        end = _voted_period_end(head + " " + body)
        if end:
            return fiscal_year_ending(end), None, end
        dates = [d for d in (parse_date(m.group(0)) for m in re.finditer(_DATE, headline, re.I)) if d]
        if dates:  # a title page that prints the date alone: "Financial Report  30 June 2022"
            return fiscal_year_ending(max(dates)), None, max(dates)
        return _likeliest_year(headline), None, None
    if doc_type is DocType.QUARTERLY:
        m = _QUARTER_ENDED.search(head)
        end = parse_date(m.group(1)) if m else None
        quarter = _quarter_from_year_to_date(body)
        return (fiscal_year_ending(end, quarter) if end else _likeliest_year(headline)), quarter, end
    if doc_type is DocType.CURRENT:
        # the report date follows its label, or on some covers sits above it: the first date then
        m = _REPORT_DATE.search(head) or re.search(f"({_DATE})", head, re.I)
        end = parse_date(m.group(1)) if m else None
        return (end.year if end else _likeliest_year(headline)), None, None
    if doc_type is DocType.EARNINGS:
        # the release's title names its period first: the earliest of quarter, half or full year wins
        top = headline[:1500]
        marks = [(m.start(), _ORDINAL.get((m.group(1) or "").lower()) or int(m.group(2) or m.group(3)))
                 for m in [_QUARTER_WORD.search(top)] if m]
        marks += [(m.start(), 2) for m in [_HALF_YEAR.search(top)] if m]
        marks += [(m.start(), 4) for m in [_FULL_YEAR.search(top)] if m]
        quarter = min(marks)[1] if marks else None
        # the current period is the latest one named ("quarter ended June 30, 2023 ... 2022")
        ends = [d for d in (parse_date(m.group(1)) for m in _RELEASE_ENDED.finditer(headline)) if d]
        end = max(ends, default=None)
        if end:
            return fiscal_year_ending(end, quarter), quarter, end
        y = _QUARTER_YEAR.search(headline)
        year = next((int(g) for g in (y.groups() if y else ()) if g and g.isdigit()), None)
        return year, quarter, None
    return None, None, None


# ----------------------------------------------------------------------------- company

_LEGAL_FORM = (  # what a registered name ends in
    r"Inc\.?|Incorporated|Corporation|Corp\.?|Company|Co\.?|plc|PLC|Ltd\.?|Limited|LLC|L\.P\.|LP|"
    r"N\.V\.|S\.A\.|SE|AG|A/S|ASA|AB|S\.p\.A\.|GmbH|N\.A\."
)
_LEGAL = _LEGAL_FORM + r"|Holdings?|Group|International"  # also dropped to get the short name
_LEGAL_TAIL = re.compile(rf"(?:[\s,]+(?:{_LEGAL}))+\.?$", re.I)
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
_TICKER_CELL = re.compile(r"^[A-Z]{1,5}(?:[.\-][A-Z])?$")
_NOT_TICKER = {"NYSE", "NASDAQ", "LLC", "N/A", "NA", "USD", "THE", "INC", "CHX", "LSE", "ASX", "TSX", "NONE"}
_SUBSIDIARIES = re.compile(r"^(.{3,60}?)\s+and\s+(?:its\s+)?(?:consolidated\s+)?subsidiaries\b", re.I)
_SUFFIXED_NAME = re.compile(
    rf"\b((?:The\s+)?(?:[A-Z0-9][\w.'’&\-]*\s+){{0,4}}?[A-Z0-9][\w.'’&\-]*,?\s+(?:{_LEGAL}))(?![\w])"
)
_HEADLINE_SUBJECT = re.compile(r"^((?:[A-Z0-9][\w.'’&\-]*\s+){1,4}?)(?:reports?|announces?|posts?|delivers?)\b")


def _name_like(text: str) -> bool:
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
            if before and _name_like(before):
                return before
            for prev in reversed(lines[max(0, i - 3) : i]):  # blank or address lines are skipped
                if _name_like(prev):
                    return prev
                if _COMMISSION.search(prev) or _REPORT_DATE.search(prev):
                    break
            return None
    return None


def _cover_names(lines: list[str]) -> list[str]:
    """Registrant names on an SEC cover, the one to show first.

    Foreign filers print the legal name and its English translation: the translation is the name
    people use. Covers without the label (3M, Microsoft) print the name under the file number.
    """
    names = [n for n in (_labelled_name(lines, _TRANSLATION), _labelled_name(lines, _EXACT_NAME)) if n]
    if not names:
        for i, line in enumerate(lines[:60]):
            if _COMMISSION.search(line) and i + 1 < len(lines):
                nxt = lines[i + 1]
                if _name_like(nxt) and (nxt.isupper() or _LEGAL_TAIL.search(nxt)):
                    return [nxt]
    return names


def _release_name(text: str) -> tuple[str | None, str | None]:
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


def _frequent_name(text: str) -> str | None:
    """Last resort (logo-only covers, non-US reports): the legal name printed most often."""
    counts: Counter[str] = Counter()
    for m in _SUFFIXED_NAME.finditer(text):
        name = m.group(1)
        if not re.search(r"\bLLP\b|Exchange|Commission|Securities", name):
            counts[re.sub(r"\s+", " ", name)] += 1
    return counts.most_common(1)[0][0] if counts else None


def _cover_ticker(lines: list[str]) -> str | None:
    """The symbol cell of the cover's securities table; its header row may sit above or below."""
    for i, line in enumerate(lines):
        if re.search(r"trading\s+symbol", line, re.I):
            for row in lines[i + 1 : i + 8] + lines[max(0, i - 2) : i][::-1]:
                cells = re.split(r"\s{2,}", row.strip())
                if not re.search(r"stock|shares|notes|exchange|nyse|nasdaq|market", row, re.I):
                    continue  # only the rows that list a security carry its symbol
                for cell in cells[1:]:  # the first cell names the class of security
                    if _TICKER_CELL.match(cell) and cell not in _NOT_TICKER:
                        return cell
            return None
    return None


def _readable(name: str) -> str:
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
    name = _LEGAL_TAIL.sub("", name).strip(" ,.")
    name = re.sub(r"\s*(?:&|\band)$", "", name)  # "JPMorgan Chase & Co." -> "JPMorgan Chase"
    return re.sub(r"\.com$", "", name, flags=re.I)


_GENERIC = {"company", "registrant", "we", "us", "our", "firm", "corporation", "group", "issuer", "parent"}


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _aliases(company: str, text: str, extra: Sequence[str]) -> tuple[str, ...]:
    out: list[str] = []
    seen = {_key(company)}

    def add(alias: str | None) -> None:
        alias = (alias or "").strip(" ,.;")
        if len(alias) > 1 and _key(alias) not in seen and alias.lower() not in _GENERIC and not is_generic_name(alias):
            seen.add(_key(alias))
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


def _defined_names(company: str, text: str) -> list[str]:
    """Names the document defines for its filer: 'MGM Resorts International ("MGM Resorts" or ...'."""
    out = []
    for m in re.finditer(re.escape(company) + r"[^“\"(]{0,40}\(([^)]{1,80})\)", text):
        for term in re.findall(r"[“\"]([A-Z][^”\"]{1,40})[”\"]", m.group(1)):
            term = term.strip(" ,.;")
            if term.lower() not in _GENERIC:
                out.append(term)
    return out


def _former_name(lines: list[str]) -> str | None:
    for i, line in enumerate(lines):
        if re.search(r"\(former name", line, re.I) and i > 0:
            prev = lines[i - 1].strip()
            if _name_like(prev) and not re.fullmatch(r"n/?a|none|not applicable", prev, re.I):
                return prev
    return None


# ----------------------------------------------------------------------------- registrant evidence
#
# The filer's name is read from every place a report prints it, each a candidate with a weight:
# the SEC cover's labelled name, the auditor's report ("To the members of X", "We have audited the
# financial statements of X"), the directors' report ("The directors present their report on X"),
# the definition of "the Company", the title page, the statements' headings ("X and
# subsidiaries"), a press release's dateline, and the legal-entity name printed most often.
# Candidates that name the same entity (after dropping case, punctuation and legal suffixes) add
# up; the best-supported entity wins, with a confidence and the line it was read from. A phrase
# that names no one ("The Group", "the Company", "N/a") is never a candidate.

_WEIGHTS = {  # how much one source says about who filed the document
    "cover": 3.0, "auditor": 2.0, "audited": 2.0, "directors": 2.0, "release": 2.0, "defined": 1.5,
    "title": 1.5, "statements": 1.0, "headline": 1.0, "frequent": 1.0,
}
_PRIORITY = list(_WEIGHTS)  # whose spelling is shown when several agree
MIN_SUPPORT = 1.5       # below this the best candidate is reported as a guess, not stored
MIN_CONFIDENCE = 0.25

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
_NAME_TOKEN = r"(?:[A-Z0-9][\w.'’&\-]*|\([A-Z][\w.&\- ]{0,20}\)|&|and|of|de|du|la|für|y)"
_LEGAL_NAME = re.compile(  # a registered name: capitalised words ending in a legal form
    rf"(?<![\w&])((?:[A-Z0-9][\w.'’&\-]*,?\s+(?:{_NAME_TOKEN},?\s+){{0,5}}?)?(?:[A-Z0-9][\w.'’&\-]*|\([A-Z][\w.&\-]{{0,20}}\)),?\s+"
    rf"(?:{_LEGAL_FORM}|Pty\.?\s+Ltd\.?|Co\.,?\s+Ltd\.?|Limited\s+Partnership|Bancorp|Bancshares|Trust))(?![\w])"
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
_SUBSIDIARIES_TAIL = re.compile(r"[\s,]+(?i:and\s+(?:its\s+)?(?:consolidated\s+|controlled\s+)?(?:subsidiaries|controlled\s+entities)).*$")
_DESCRIPTION = re.compile(r"(?i:\b(?:a|an|is|as|any|each|every|such|other|certain|our|this|that)\s*$)")
_NOT_A_FILER = re.compile(  # names that appear in every report but never file it
    r"(?i:\bLLP\b|\baudit\b|chartered\s+accountants|exchange\s+commission|stock\s+exchange|securities\s+exchange|"
    r"\bcommission\b|registry|registrars?\b|share\s+registry|computershare|depositary|trustee)"
)


def is_generic_name(name: str | None) -> bool:
    """True for phrases that name no one: "The Group", "the Company", "N/a", "Co., Ltd.", "Investment Company"."""
    if not name:
        return True
    words = re.sub(r"[^a-z0-9 ]", " ", name.lower().replace("&", " and ")).split()
    return not words or all(w in _GENERIC_WORDS for w in words)


def _tidy(name: str) -> str:
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


def _acceptable(name: str) -> bool:
    return (
        2 <= len(name) <= 90
        and name[:1].isalnum() and name[:1] == name[:1].upper()
        and len(name.split()) <= 10
        and _name_like(name.replace("(", "").replace(")", ""))
        and not is_generic_name(name)
        and not _NOT_A_FILER.search(name)
    )


class _Candidates:
    def __init__(self) -> None:
        self.found: list[tuple[str, str, str, int]] = []  # (name, source, evidence line, page)

    def add(self, name: str | None, source: str, line: str, page: int) -> None:
        if not name:
            return
        name = _tidy(name)
        if _acceptable(name):
            self.found.append((name, source, line.strip()[:200], page))


def _key_of(name: str) -> str:
    """One key per entity: "EPI (Holdings) Limited", "EPI Holdings Ltd" and "EPI" agree."""
    name = re.sub(r"\((?i:holdings?|group|international|plc|limited|ltd)\)", " ", _readable(name))
    return _key(short_name(re.sub(r"\s+", " ", name).strip()))


def _legal_names(text: str) -> list[str]:
    out = []
    for m in _LEGAL_NAME.finditer(text):
        name = m.group(1)
        if _DESCRIPTION.search(text[max(0, m.start() - 12) : m.start()]):
            continue  # "is a Delaware Corporation", "a German Stock Corporation": a description
        out.append(re.sub(r"\s+", " ", name))
    return out


def _registrant_candidates(
    pages: Sequence[Page], cover_lines: list[str], cover_page: int | None, title_pages: Sequence[Page]
) -> _Candidates:
    found = _Candidates()
    cover = _cover_names(cover_lines) if cover_page else []
    for name in cover:
        line = next((ln for ln in cover_lines if name in ln), name)
        found.add(name, "cover", line, cover_page or 1)

    # the title page: a short line that is a registered name ("Starvest plc", "EPI (Holdings) Limited")
    for page in title_pages:
        for line in page.lines[:25]:
            text = _tidy(line.text)
            if len(line.text.split()) <= 8:
                for name in _legal_names(text + " "):
                    if len(name) >= len(text) - 3:
                        found.add(name, "title", line.text, page.number)

    statement_heads: Counter[str] = Counter()
    head_evidence: dict[str, tuple[str, int]] = {}
    addressed = audited = directors = defined = 0
    for page in pages:
        lines = [line.text.strip() for line in page.lines]
        for i, text in enumerate(lines):
            if len(text) > 400:
                continue
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            m = _ADDRESSEE.search(text)
            if m and addressed < 3 and re.search(r"(?i)\b(?:report|opinion|auditor|to\s+the)\b", text):
                name = m.group("name").strip() or nxt
                if not m.group("name").strip() or re.fullmatch(r"[^,]+,?", name) and nxt and re.match(
                        rf"^(?:{_LEGAL_FORM})\b", nxt):
                    name = (name + " " + nxt).strip() if m.group("name").strip() else nxt
                before = len(found.found)
                found.add(name, "auditor", text if m.group("name").strip() else f"{text} {nxt}", page.number)
                addressed += len(found.found) > before
            if defined < 3 and (d := _DEFINED_AS.search(text)):
                names = _legal_names(_SUBSIDIARIES_TAIL.sub("", text[: d.start()]).rstrip(" ,") + " ")
                if names and text[: d.start()].rstrip(" ,").endswith(names[-1].rstrip(" ,")) or names and _SUBSIDIARIES_TAIL.search(text[: d.start()]):
                    before = len(found.found)
                    found.add(names[-1], "defined", text, page.number)
                    defined += len(found.found) > before
            # a statement heading: the name alone on its line, "and subsidiaries" on it or the next
            if len(text) <= 80:
                joined = f"{text} {nxt}" if re.match(r"(?i)^and\s+(?:its\s+)?subsidiaries\b", nxt) else text
                sm = _SUBSIDIARIES.match(joined)
                if sm and _name_like(sm.group(1)) and not is_generic_name(sm.group(1)):
                    key = _tidy(sm.group(1))
                    statement_heads[key] += 1
                    head_evidence.setdefault(key, (joined, page.number))
        flat = _flat(page.text)
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


def _choose(found: _Candidates, body: str) -> tuple[str | None, float | None, str, list[str]]:
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
        short = short_name(_readable(next(iter(sources.values()))[0]))
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
        mixed = [n for n, _, _ in sources.values() if not n.isupper() and _key(n) == _key(name)]
        name = mixed[0] if mixed else name
    agreeing = "+".join(s for s in _PRIORITY if s in sources)
    evidence = f"p.{page} [{agreeing}]: {line}"
    if support < MIN_SUPPORT or confidence < MIN_CONFIDENCE:
        return None, confidence, f"unsure (confidence {confidence}): best guess {_readable(name)!r} from {evidence}", []
    others = [n for s, (n, _, _) in sources.items() if s != source]
    return name, confidence, evidence, others


# ----------------------------------------------------------------------------- exchange, ticker, currency

_EXCHANGES = [  # how reports name an exchange -> the short name people use
    (r"nasdaq", "Nasdaq"), (r"nyse\s+american|nyse\s+mkt", "NYSE American"), (r"new\s+york\s+stock\s+exchange|\bnyse\b", "NYSE"),
    (r"australian\s+securities\s+exchange|\basx\b", "ASX"), (r"\baim\b|alternative\s+investment\s+market", "AIM"),
    (r"london\s+stock\s+exchange|\blse\b", "LSE"), (r"tsx\s+venture|\btsxv\b", "TSXV"),
    (r"toronto\s+stock\s+exchange|\btsx\b", "TSX"),
    (r"hong\s+kong\s+(?:stock\s+exchange|exchanges)|stock\s+exchange\s+of\s+hong\s+kong|\bhkex\b|\bsehk\b", "HKEX"),
    (r"tel[\s-]+aviv\s+stock\s+exchange|\btase\b", "TASE"), (r"international\s+stock\s+exchange|\btise\b", "TISE"),
    (r"euronext", "Euronext"), (r"frankfurt|xetra", "Frankfurt"), (r"six\s+swiss|\bsix\b", "SIX"), (r"tokyo\s+stock\s+exchange", "TSE"),
]
_LISTING = re.compile(
    r"(?i:\b(NYSE(?:\s+American)?|NASDAQ|ASX|AIM|LSE|TSXV?|HKEX|SEHK|TASE)\s*(?:code|symbol|ticker)?\s*:\s*)([A-Z0-9][A-Z0-9.]{0,6})\b"
    r"|(?i:\bticker(?:\s+symbol)?\s*:\s*)([A-Z][A-Z.]{0,6})\s*\((?i:(NYSE|Nasdaq|ASX|AIM|LSE|TSX))\)"
)


def _exchange_name(text: str) -> str | None:
    for pattern, short in _EXCHANGES:
        if re.search(pattern, text, re.I):
            return short
    return None


def _listing(cover_lines: list[str], head: str) -> tuple[str | None, str | None]:
    """(ticker, exchange) as printed: the cover's securities table, "(NYSE: JNJ)", "ASX:ODY"."""
    ticker, exchange = _cover_ticker(cover_lines), None
    for i, line in enumerate(cover_lines):
        if re.search(r"name\s+of\s+each\s+exchange", line, re.I):
            for row in cover_lines[i : i + 6]:
                if (ticker and ticker in row.split()) or re.search(r"exchange|market|nasdaq|nyse", row, re.I):
                    if (found := _exchange_name(re.sub(r"(?i)name\s+of\s+each\s+exchange.*", "", row))):
                        exchange = found
                        break
            break
    m = _LISTING.search(head)
    if m:
        ticker = ticker or m.group(2) or m.group(3)
        exchange = exchange or _exchange_name(m.group(1) or m.group(4) or "")
    if not exchange:
        m = re.search(r"(?i)\b(?:listed|quoted|traded)\s+on\s+(?:the\s+)?([A-Z][\w\s]{2,60}?(?:exchange|market|nasdaq|nyse|asx|aim)\b)", head)
        exchange = _exchange_name(m.group(1)) if m else None
    return ticker, exchange


_DOLLAR_PREFIX = {"US": "USD", "U.S.": "USD", "A": "AUD", "AU": "AUD", "C": "CAD", "CA": "CAD", "CDN": "CAD",
                  "HK": "HKD", "NZ": "NZD", "S": "SGD", "R": "BRL"}
_CURRENCY_NAMES = [  # (pattern, ISO code) for words and codes; "$" alone is resolved below
    (r"USD|U\.?S\.?\s+dollars?|United\s+States\s+dollars?", "USD"), (r"AUD|Australian\s+dollars?", "AUD"),
    (r"CAD|Canadian\s+dollars?", "CAD"), (r"HKD|Hong\s+Kong\s+dollars?", "HKD"), (r"NZD|New\s+Zealand\s+dollars?", "NZD"),
    (r"SGD|Singapore\s+dollars?", "SGD"), (r"GBP|pounds?\s+sterling|sterling", "GBP"), (r"EUR|euros?", "EUR"),
    (r"JPY|yen", "JPY"), (r"RMB|CNY|Renminbi", "CNY"), (r"CHF|Swiss\s+francs?", "CHF"),
    (r"NIS|ILS|New\s+Israeli\s+Shek[e]?ls?", "ILS"), (r"INR|Indian\s+rupees?", "INR"), (r"ZAR|South\s+African\s+rand", "ZAR"),
]
_CURRENCY = re.compile(
    # The lookahead changes no match: every match starts with one of these characters (a symbol, a
    # prefix's or a name's first letter). It lets the regex engine skip the other positions of the
    # text at once instead of trying every alternative at each: the currency vote reads every page.
    r"(?=[$£€¥₹ACEGHIJNRSUZepsy])"
    r"(?:(?:\b(?P<prefix>US|U\.S\.|AU|A|CA|CDN|C|HK|NZ|S|R)\s?)?(?P<symbol>[$£€¥₹])"
    r"|\b(?P<word>" + "|".join(f"(?:{pattern})" for pattern, _ in _CURRENCY_NAMES) + r")\b)"
)
_SYMBOLS = {"£": "GBP", "€": "EUR", "¥": "JPY", "₹": "INR"}


def _currency_code(m: re.Match) -> str:
    if m.group("symbol"):
        if m.group("symbol") != "$":
            return _SYMBOLS[m.group("symbol")]
        return _DOLLAR_PREFIX.get(m.group("prefix") or "", "DOLLAR")
    word = m.group("word")
    return next(code for pattern, code in _CURRENCY_NAMES if re.fullmatch(pattern, word, re.I if len(word) > 3 else 0))


# the unit a statement is printed in: "in thousands of US dollars", "£'000", "US$m", "presented in Australian dollars"
_UNIT_CONTEXT = re.compile(
    r"(?i:\b(?:in|of)\s+(?:thousands|millions|billions)\s+of\b|\b(?:presentation|functional\s+and\s+presentation|reporting)\s+currency\b"
    r"|\b(?:expressed|presented|stated|reported)\s+in\b|['’]000\b|\b000s\b|\(\s*in\s+(?:thousands|millions))"
)



def _currency(pages: Sequence[Page]) -> str | None:
    """The reporting currency: what the statements' unit lines say, else the currency most printed."""
    unit_votes: Counter[str] = Counter()
    votes: Counter[str] = Counter()
    for page in pages:
        text = page.text
        unit_lines: dict[int, bool] = {}
        for m in _CURRENCY.finditer(text):
            code = _currency_code(m)
            votes[code] += 1
            start = text.rfind("\n", 0, m.start()) + 1
            if start not in unit_lines:
                stop = text.find("\n", m.end())
                line = text[start : stop if stop >= 0 else len(text)]
                unit_lines[start] = len(line) < 200 and bool(_UNIT_CONTEXT.search(line))
            if unit_lines[start]:
                unit_votes[code] += 1
    # a bare "$" is the dollar the statements' unit lines name ("in thousands of Australian dollars"),
    # or one the report names far more than US dollars, else the US dollar
    dollar_names = ("USD", "AUD", "CAD", "HKD", "NZD", "SGD")
    dollar = max((c for c in dollar_names if unit_votes[c]), key=lambda c: unit_votes[c], default=None)
    if dollar is None:
        named = max(dollar_names[1:], key=lambda c: votes[c])
        many = max(10, 3 * votes["USD"], 0.1 * votes["DOLLAR"])
        dollar = named if votes[named] >= many else "USD"
    for counter in (votes, unit_votes):
        counter[dollar] += counter.pop("DOLLAR", 0)
    for counter in (unit_votes, votes):
        counter = +counter
        if counter:
            return max(counter, key=lambda c: (counter[c], votes[c]))
    return None


# ----------------------------------------------------------------------------- former names

_FORMERLY = re.compile(
    r"(?i:\(?\s*(?:formerly|previously)(?:\s+(?:known|named|called))?(?:\s+as)?\s*[,:]?\s+|\(\s*former\s+name[^)]*\)\s*)"
    r"(?P<name>(?:the\s+)?[A-Z0-9][^();,.\n“”\"]{1,70})"
)


def _former_names(company: str, pages: Sequence[Page], cover_lines: list[str]) -> list[str]:
    """Former names of the filer: "X (formerly known as Y)", "X, formerly Y", a cover's "(former name ...)"."""
    out: list[str] = []
    if former := _former_name(cover_lines):
        out.append(former)
    short = short_name(company)
    pattern = re.compile(rf"(?i:{re.escape(short)})[^()]{{0,60}}?[\s,(]+(?:the\s+[“\"]?company[”\"]?\)?,?\s*)?(?=\(?\s*(?i:formerly|previously))")
    for page in pages:
        flat = _flat(page.text)
        for m in pattern.finditer(flat):
            f = _FORMERLY.match(flat, m.end())
            if f:
                name = _tidy(f.group("name"))
                if _legal_names(name + " ") and not is_generic_name(name) and name not in out:
                    out.append(name)
        # a heading line under the name: "FORMERLY KNOWN AS JMU LIMITED"
        for line in page.lines[:6]:
            f = re.match(r"(?i)^\(?\s*formerly\s+known\s+as\s+(.+?)\)?\s*$", line.text.strip())
            if f and _legal_names(f.group(1) + " ") and _readable(_tidy(f.group(1))) not in out:
                out.append(_readable(_tidy(f.group(1))))
        if len(out) >= 3:
            break
    return out


# ----------------------------------------------------------------------------- document


def _flat(text: str) -> str:
    return " ".join(text.split())


def _cover_at(pages: Sequence[Page]) -> int | None:
    """Index of the SEC cover: page 1 of a filing, a few pages into a glossy annual report."""
    for i, page in enumerate(pages[:COVER_PAGES]):
        text = page.text
        if re.search(r"exact\s+name\s+of\s+(?:the\s+)?registrant", text, re.I):
            return i
        if _SEC_COVER.search(text) and _form_on([line.text.strip() for line in page.lines]):
            return i
    # a proxy statement and letters may come first ("annual report" = proxy + 10-K): deeper in,
    # only the cover's own label counts
    for i in range(COVER_PAGES, min(len(pages), COVER_PAGES + DEEP_COVER_PAGES)):
        if re.search(r"exact\s+name\s+of\s+(?:the\s+)?registrant", pages[i].text, re.I):
            return i
    return None


def detect_document(pages: Sequence[Page]) -> DocumentMeta:
    """Company, ticker, filing type and fiscal period, from the document's own pages."""
    first = [p for p in pages[: HEAD_PAGES + 2] if p.lines][:HEAD_PAGES]  # skip blank covers
    cover_at = _cover_at(pages)
    head_pages = [p for p in pages[cover_at : cover_at + HEAD_PAGES + 2] if p.lines][:HEAD_PAGES] if cover_at is not None else first
    lines = [line.text.strip() for p in head_pages for line in p.lines if line.text.strip()]
    head = _flat(" ".join(lines))
    headline = _flat(" ".join(lines[:120]))
    body = _flat(" ".join(p.text for p in pages[:NAME_PAGES]))

    doc_type = _doc_type(lines, headline)
    if doc_type is DocType.OTHER and cover_at is None:
        doc_type = _doc_type([line.text.strip() for p in first for line in p.lines], headline)
    fiscal_year, quarter, end = _period(doc_type, head, headline, body)

    # who filed it: every source that names the filer, weighed together
    cover_page = head_pages[0].number if cover_at is not None and head_pages else None
    title_pages = [p for p in pages[: cover_at if cover_at else 2] if p.lines][:2]
    found = _registrant_candidates(pages, lines if cover_page else [], cover_page, title_pages)
    release_name, release_ticker = _release_name(head)
    found.add(release_name, "release", release_name or "", head_pages[0].number if head_pages else 1)
    if subject := _HEADLINE_SUBJECT.match(headline):
        stem = subject.group(1).strip()
        # "Amcor reports ..." -> the registered name that starts with it: "Amcor plc"
        legal = Counter(re.findall(rf"\b{re.escape(stem)}\s*,?\s+(?:{_LEGAL_FORM})(?![\w])", body))
        found.add(legal.most_common(1)[0][0] if legal else stem, "headline", headline[:120], 1)
    whole = _flat(" ".join(p.text for p in pages))
    frequent = Counter(n for n in _legal_names(whole) if _acceptable(_tidy(n)))
    if frequent:
        name, count = frequent.most_common(1)[0]
        if count >= 3:
            found.add(name, "frequent", f"{name} ({count} times)", 1)
    name, confidence, evidence, spellings = _choose(found, whole)

    ticker, exchange = _listing(lines, head if cover_at is not None else _flat(" ".join(p.text for p in pages[:3])))
    ticker = ticker or release_ticker
    currency = _currency(pages)
    common = dict(
        ticker=ticker, doc_type=doc_type, fiscal_year=fiscal_year, fiscal_quarter=quarter,
        period_end=end.isoformat() if end else None, company_confidence=confidence,
        company_evidence=evidence, exchange=exchange, currency=currency, report_date=_report_date(doc_type, head),
    )
    if not name:
        return DocumentMeta(**common)

    company = _readable(name)
    cover_names = _cover_names(lines) if cover_page else []
    extra = [_readable(n) for n in spellings]
    extra += [_readable(n) for n in cover_names if _acceptable(_tidy(n))]
    extra += [release_name] if release_name and not is_generic_name(release_name) else []
    extra += _defined_names(company, head) + _defined_names(name, head)
    extra += [_readable(n) for n in _former_names(company, pages, lines if cover_page else [])]
    return DocumentMeta(company=company, aliases=_aliases(company, body, extra), **common)


# ----------------------------------------------------------------------------- pages

_ITEM = re.compile(
    r"^\s*(?:part\s+(i{1,3}|iv)\s*[,.:\-–—]?\s*)?item\s+(\d{1,2}\.\d\d|\d{1,2}[a-d]?)\s*(?:[.:\-–—]|\s|$)(?!\s*(?:of|in|and|to|above|below)\b)",
    re.I,
)
# an Item named inside a sentence that wrapped to the line start is a cross-reference, not a heading
_CROSS_REFERENCE = re.compile(
    r"\b(?:see|section|included|discussed|described|refer|contained|set forth|incorporated|herein|this (?:report|form))\b", re.I
)
_PART = re.compile(r"^\s*part\s+(i{1,3}|iv)\b(?!\s*,?\s*item)", re.I)
TOC_ITEMS = 5  # a page that opens this many Items is a table of contents, not a section start

# Titles are matched with spaces removed: PDF text splits words ("Balance Shee t", "Cash Flow s").
# A company name may precede the title on the same row ("NIKE, Inc. Consolidated Statements of Income").
_NAME_END = re.compile(
    r"\b(?:subsidiar(?:y|ies)(?:\s+companies)?|inc|incorporated|corporation|company|plc|co|ltd|limited|llc)\b[,.]*\s*", re.I
)
_QUALIFIERS = re.compile(r"(?:unaudited|condensed|consolidated|combined|interim|group|company|the|u\.?s\.?|gaap|ifrs)*")
_KINDS = [  # order matters: "income and comprehensive income" is the income statement
    (StatementKind.BALANCE, re.compile(r"balancesheets?|statements?of(?:consolidated)?financial(?:position|condition)")),
    (StatementKind.CASH_FLOW, re.compile(r"statements?of(?:consolidated)?cashflows?|cashflows?statements?")),
    (StatementKind.INCOME, re.compile(
        r"statements?of(?:consolidated)?(?:operations|income|earnings|\(loss\)|loss|profitorloss|profitandloss)"
        r"|incomestatements?")),
    (StatementKind.COMPREHENSIVE, re.compile(
        r"statements?of(?:consolidated)?comprehensive(?:income|loss|earnings|\(loss\))|comprehensive(?:income|loss)statements?")),
    (StatementKind.EQUITY, re.compile(
        r"statements?of(?:consolidated)?(?:changesin)?(?:total)?(?:(?:stock|share)(?:holder|owner)s?|members|partners)?"
        r"(?:equity|deficit|investment)|(?:(?:stock|share)(?:holder|owner)s?)?(?:equity|deficit)statements?")),
]
# What may follow a title in its cell: a period, "(unaudited)", "(continued)", units, or the rest of
# a combined title ("... and comprehensive income"). Anything else ("... data:", "... as a loan")
# means the words are prose or an MD&A table that quotes a statement's name.
_TITLE_REST = re.compile(
    r"$|\((?![a-z0-9]\))|[\-—–,]|for|as(?:of|at)|(?:fiscal)?years?|periods?|quarters?|(?:three|six|nine|twelve)months|\d+weeks|"
    r"continued|in(?:millions|thousands|billions)|unaudited|and(?:other)?comprehensive|"
    r"and(?:retained|accumulated|changesin|stock|share|equity|redeemable|noncontrolling|temporary|mezzanine"
    r"|(?:statements?of)?(?:operations|income|earnings))"
)
_NOT_A_TITLE = re.compile(r"\bnotes?\b|\bsee\b|accompanying|consolidating|guarantor|supplemental|:\s*$|\s\d{1,3}$", re.I)
_NOT_PRIMARY = re.compile(r"^note\s+\d|^\d{1,2}\.\s+[A-Z]|guarant|consolidating|parent\s+company", re.I)
_FIGURE = re.compile(r"(?<![\w.])(?:\(?\$?\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\)?%?|[—–-])(?![\w.])")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_TITLE_WORD = re.compile(r"statement|balance|financial", re.I)
TITLE_LINES = 12   # a statement's title sits in the first lines of its page
MIN_ROWS = 3       # a statement page is a table (comprehensive income statements can be this short)


def _title_kind(text: str) -> StatementKind | None:
    if not _TITLE_WORD.search(text):
        return None  # cheap exit for the ordinary line
    if not text[:1].isupper() and not text[:1].isdigit() or _NOT_A_TITLE.search(text):
        return None
    cells = re.split(r"\s{2,}", text)
    if len(cells) > 2:
        return None  # a row of column headers ("Balance Sheet  Liabilities  Net Amount"), not a title
    for cell in cells[:1]:  # the title opens its row; a second cell may name the company
        for begin in [0] + [m.end() for m in _NAME_END.finditer(cell[:90])]:
            key = re.sub(r"[\s’'`]+", "", cell[begin:].lower())
            start = _QUALIFIERS.match(key).end()
            for kind, rx in _KINDS:
                m = rx.match(key, start)
                if m and _TITLE_REST.match(key, m.end()):
                    return kind
    return None


def _figure_rows(page: Page) -> int:
    """Rows that end in two or more figures (years excluded): table rows, not prose with numbers."""
    rows = 0
    for line in page.lines:
        figures = 0
        for token in reversed(line.text.split()):
            if token == "$":
                continue
            if not _FIGURE.fullmatch(token) or _YEAR.match(token):
                break
            figures += 1
        rows += figures >= 2
    return rows


def _is_prose(text: str) -> bool:
    words = text.split()
    return len(text) > 100 or (len(words) >= 6 and sum(w[0].islower() for w in words) * 2 >= len(words))


def statement_kind(page: Page) -> StatementKind | None:
    """The primary statement printed on this page: its title atop a table of figures.

    A note that quotes a statement (prose above the title), an index listing the statements,
    or an MD&A table named after one are not statements.
    """
    found: list[StatementKind] = []
    top = [line.text.strip() for line in page.lines[: TITLE_LINES + 1]]
    for i, text in enumerate(top[:TITLE_LINES]):
        kind = _title_kind(text)
        if kind is None and i + 1 < len(top) and len(text) < 60:
            kind = _title_kind(f"{text} {top[i + 1]}")  # a title wrapped onto two rows
        if kind:
            found.append(kind)
        elif not found and (_is_prose(text) or _NOT_PRIMARY.search(text)):
            return None  # a note, an MD&A discussion or a guarantor schedule quoting a statement's name
    if not found or len(set(found)) >= 3:
        return None
    return found[0] if _figure_rows(page) >= MIN_ROWS else None


def detect_pages(pages: Sequence[Page]) -> list[PageInfo]:
    """Per page: the Item it belongs to and the primary statement printed on it.

    A page is labelled with the first Item heading on it, else with the Item carried from the
    pages before. A table of contents (many Items on one page) is not a heading.
    """
    part: str | None = None
    found: list[list[tuple[str | None, str]]] = []
    for page in pages:
        page_part, items = part, []
        for line in page.lines:
            text = line.text
            if len(text) > 160:
                continue
            if p := _PART.match(text):
                page_part = p.group(1).upper()
            if (m := _ITEM.match(text)) and not _CROSS_REFERENCE.search(text, m.end()):
                page_part = m.group(1).upper() if m.group(1) else page_part
                items.append((page_part, m.group(2).upper()))
        if len({item for _, item in items}) >= TOC_ITEMS:
            items = []  # a contents page: its Parts and Items are not where we are
        else:
            part = page_part
        found.append(items)
    # 10-Qs number Items afresh in each Part (Part I Item 2 is MD&A, Part II Item 2 is share
    # repurchases): when an Item number recurs under another Part, labels name the Part.
    parts_of: dict[str, set[str]] = {}
    for items in found:
        for p, item in items:
            if p:
                parts_of.setdefault(item, set()).add(p)
    with_part = any(len(ps) > 1 for ps in parts_of.values())

    def name(p: str | None, item: str) -> str:
        return f"Part {p}, Item {item}" if with_part and p else f"Item {item}"

    out: list[PageInfo] = []
    section: str | None = None
    for page, items in zip(pages, found):
        label = section
        if items:
            label, section = name(*items[0]), name(*items[-1])
        out.append(PageInfo(number=page.number, section=label, statement=statement_kind(page)))
    return out
