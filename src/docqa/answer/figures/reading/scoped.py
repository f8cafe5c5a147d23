"""A figure of the part of the company the question names (plan.scope: "the Electronics and Energy
segment", "in Russia"), never the company's total in its place.

Every printed figure an answer uses must sit where the filing prints that name: its row's label,
the heading above the row, the table's title or the figure's own column header. A named formula
("operating margin of the Domestic segment") is computed from the segment's own lines: its inputs
become the rows that name the segment.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from collections.abc import Callable

from docqa.answer.figures.reading.abbreviated import other_spellings
from docqa.answer.figures.reading.evaluated import Evaluated, Measure
from docqa.answer.figures.reading.line_item_words import printed_words
from docqa.answer.figures.reading.located import Located
from docqa.answer.figures.reading.measures import ExprMeasure, FormulaMeasure, MetricMeasure
from docqa.answer.figures.reading.printed_rows import RowMeasure
from docqa.finance import compose as C
from docqa.finance.abbreviations import abbreviates
from docqa.finance.lexicon import load_lexicon
from docqa.finance.rowlookup import LABEL_NEUTRAL, PART_NOUN, STOP, closing_total, has_word, normalized, sum_row
from docqa.finance.text import clean_label, stems
from docqa.plan import QuestionPlan
from docqa.plan.measures import GrossOf

_DIVISION = re.compile(r"^\s*([a-z][\w\s&'-]*?)\s*/\s*([a-z][\w\s&'-]*?)\s*$", re.I)


def scope_words(scope: tuple[str, ...]) -> list[list[list[str]]]:
    """Each name asked, as its spellings' content stems ("Electronics and Energy" -> [[electronic,
    energy]]; "Beverages North America|PBNA" -> [[beverage, north, america], [pbna]])."""
    out = []
    for name in scope:
        spellings = [[s for s in normalized(stems(alt)) if s not in STOP] for alt in name.split("|")]
        spellings = [w for w in spellings if w]
        if spellings:
            out.append(spellings)
    return out


def honours(found: Located, names: list[list[list[str]]]) -> bool:
    """Is the figure printed under every name asked, in one of its spellings (in its row, heading,
    title or column)?"""
    column = next((c for c in found.table.columns if c.index == found.cell.column), None)
    context = " ".join(x for x in (found.row.label, found.row.section or "", found.table.title,
                                   column.header if column else "", _closing_total(found.table, found.row)) if x)
    return names_all(context, names)


# A section heading that names a part of the company: "Verizon Consumer Group", "Segment Results"
_PART_HEADING = re.compile(r"\b(?:group|segments?|divisions?|sectors?|regions?|operations|markets|business)\b", re.I)
_HEADINGS: dict[tuple, str] = {}
PAGES_BACK = 3


def section_heading(source, table) -> str:
    """The last heading naming a part of the company above the table: on its page before its title,
    else on the pages before (a segment's section runs over pages of tables titled alike)."""
    key = (source.document_id, table.page, table.bbox)   # (a source holds every page of its filing)
    if key not in _HEADINGS:
        if len(_HEADINGS) > 4096:
            _HEADINGS.clear()
        _HEADINGS[key] = _heading_above(source, table)
    return _HEADINGS[key]


def _heading_above(source, table) -> str:
    for number in range(table.page, max(0, table.page - PAGES_BACK) - 1, -1):
        page = source.pages.get(number)
        if page is None:
            continue
        lines = [ln.strip() for ln in page.text.split("\n") if ln.strip()]
        if number == table.page:
            title = (table.title or "").split(" / ")[0].strip()
            at = next((k for k, ln in enumerate(lines) if title and ln.startswith(title[:40])), None)
            if at is None:
                return ""   # where the table sits on its page is not known: no heading is read for it
            lines = lines[:at + 1]  # (the title's own first line may be the section's heading: "Retail/LTC Segment")
        for line in reversed(lines):
            if _a_heading(line) and _PART_HEADING.search(line):
                return line
    return ""


def _naming(heading: str, names) -> str:
    """The heading when it names a part asked, else "" (another part's section is no context)."""
    return heading if heading and any(names_all(heading, [name]) for name in names) else ""


def _a_heading(line: str) -> bool:
    """A short line in title case, with no figure, no sentence's end and no run of cells (a table's
    column headings: "Consumer  Business  Other  Total")."""
    words = line.split()
    return (1 <= len(words) <= 6 and not re.search(r"\d|[.:;,]$|\s\s", line)
            and all(w[:1].isupper() or w.lower() in ("and", "of", "the", "&", "for", "in") for w in words))


def _closing_total(table, row) -> str:
    """The total that closes the row's block, else a last row adding up the rows above: it names what
    the rows are parts of."""
    closing = closing_total(table, row)
    last = sum_row(table) if not closing else None
    return last.label if last is not None and last is not row else closing


def names_all(context: str, names: list[list[list[str]]]) -> bool:
    """Does ``context`` name every name asked, in one of its spellings?"""
    if not names:
        return False
    held = set(normalized(stems(context)))
    return all(any(all(has_word(held, w) or any(h.startswith(w) or w.startswith(h) for h in held if len(h) >= 4)
                       for w in words) for words in spellings) for spellings in names)


def spelled_by_the_filing(scope: tuple[str, ...], sources) -> tuple[str, ...]:
    """Each name with the other spelling the filing gives it: the short form its text defines
    ("Frito-Lay North America (“FLNA”)"; its tables often print only that), or the words a short
    form asked stands for ("EMEA": "Europe, Middle East and Africa")."""
    if len(scope) > 1:
        # "Europe, Middle East and Africa": one part the filing abbreviates ("EMEA"), not three
        joined = ", ".join(name.split("|")[0] for name in scope)
        if shorts := [x for source in sources for x in other_spellings(joined, source)]:
            return ("|".join(dict.fromkeys([joined, *shorts])),)
    out = []
    for name in scope:
        spelt = name.split("|")
        spelt += [x for source in sources for x in other_spellings(spelt[0], source) if x not in spelt]
        out.append("|".join(dict.fromkeys(spelt)))
    return tuple(out)


@dataclass
class Scoped(Measure):
    """A measure read only from figures printed under the names asked."""

    inner: Measure
    names: tuple[str, ...]       # the names asked ("Beverages North America|PBNA": either spelling)
    scope: str

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.inner.label

    def evaluate(self, sources, period) -> Evaluated | None:
        spelt = spelled_by_the_filing(self.names, sources)
        names = scope_words(spelt)
        # Of columns split by part ("Pharmacy Services | Retail/LTC | ... | Consolidated"), the part asked.
        # (of two names asked, a segment and a region, the column may name one and the row the other)
        scoped = [replace(s, part=lambda c, n=names: any(names_all(c.header, [name]) for name in n)) for s in sources]
        value = self._read(sources, scoped, period, names, spelt)
        if value is None:
            return None
        for first, *others in (name.split("|") for name in spelt):
            for other in others:  # "EMEA (capex)" said as asked: "Europe, Middle East and Africa (capex)"
                value.label = re.sub(rf"(?<![\w&]){re.escape(other)}(?![\w&])", first, value.label)
        if not all(any(set(w) <= set(normalized(stems(value.label))) for w in spellings)
                   for spellings in scope_words((self.scope,))):
            value.label = f"{value.label} ({self.scope})"
        return value

    def _read(self, sources, scoped, period, names, spelt: tuple[str, ...]) -> Evaluated | None:
        value = _honoured_value(self.inner, scoped, period, names)
        if value is None:
            # no table names the part: one printed under its section heading ("Verizon Consumer Group"
            # pages before a table titled as every segment's is)
            value = _honoured_value(self.inner, [replace(s, section=lambda t, s=s: _naming(section_heading(s, t), names))
                                                 for s in scoped], period, names)
        return value


@dataclass
class ByCompanyLabel(Scoped):
    """The part's figure of the line the filing prints for the whole company, found by that line's own
    label ("Research, development and engineering expenses" for "R&D", "Capital expenditures" for
    "capex") where the part's name heads its column, or names its row under that label as a heading.
    Of two names (a segment's column, a region's row), each is printed in one of those places. Tried
    after every other reading of the part."""

    kinds: frozenset[str] = frozenset()  # the kind of number asked
    forms: tuple[str, ...] = ()          # the lexicon's printed forms of the line asked ("capital expenditures")
    rate_asked: bool = False             # the line asked is a rate, a margin or a share ("gross profit rate")

    def _read(self, sources, scoped, period, names, spelt: tuple[str, ...]) -> Evaluated | None:
        if isinstance(self.inner, Scoped) or not 1 <= len(spelt) <= 2:
            return None
        inner = self.inner
        if isinstance(inner, RowMeasure):   # "Optical Communications segment R&D": the company's R&D
            phrase = inner.phrase
            for name in spelt:
                phrase = _without_the_part(phrase, name.split("|"))
            if phrase == inner.phrase or not phrase:
                return None
            # "net sales came": the lexicon's item, once the words no table prints ("came") are left out
            inner = (_the_lexicons(phrase) or _the_lexicons(_printed_words_only(phrase, sources))
                     or replace(inner, phrase=phrase, asked=""))
        company = inner.evaluate(sources, period)
        if company is None or len(company.used) != 1 or company.computed:
            return None
        if self.rate_asked and company.kind not in _RATES and not _RATE.search(company.label):
            return None   # "gross profit rate" asked: the company's gross profit is another measure
        row = company.used[0].row
        label = clean_label(row.label).rstrip(":")
        if not label or any(names_all(label, [name]) for name in names):
            return None   # the company's line names the part already: it was read above
        every = " ".join(name.replace("|", " ") for name in spelt)
        spellings = [" ".join(p) for p in itertools.islice(itertools.product(*(dict.fromkeys(n.split("|")) for n in spelt)),
                                                            MAX_SPELLINGS)]
        # the note may label the line otherwise than the statement ("Capital expenditures" by segment,
        # "Payments for property and equipment" on the cash-flow statement): the lexicon's printed forms next
        # ... then under a section heading naming the part ("FedEx Ground Segment" over its MD&A tables)
        headed = [replace(s, section=lambda t, s=s: _naming(section_heading(s, t), names)) for s in scoped]
        for form, spelling, read in itertools.product(dict.fromkeys([label, *self.forms]), spellings, (scoped, headed)):
            measure = RowMeasure(f"{spelling} {form}", asked=company.label, kinds=self.kinds)
            value = _honoured_value(measure, read, period, names)
            if (value is not None and not any(u.row is row for u in value.used)
                    and all(_labelled_as(u.row.label, form, every) for u in value.used)):
                value.label = company.label   # the company's line, as the question was read to ask it
                return value
        return None


MAX_SPELLINGS = 12


def _printed_words_only(phrase: str, sources) -> str:
    """The phrase without the words after its line item that no table of the filings prints, nor a word
    of the same root: a verb of the question's ("net sales came") goes; a word before the item is a
    qualifier ("e-commerce sales" is no sales total) and stays, as does "internationally" where tables
    print "International"."""
    found = [m for m in load_lexicon().match(phrase) if m.kind == "metric"]
    if len(found) != 1:
        return phrase
    printed = set().union(*(printed_words(s) for s in sources)) if sources else set()
    roots = {p[:6] for p in printed if len(p) >= 6}

    def kept(word: str) -> bool:
        st = stems(word)
        return not st or not printed or all(x in printed or (len(x) >= 6 and x[:6] in roots) for x in st)

    end = found[0].span[1]
    return " ".join([phrase[:end].strip(), *(w for w in phrase[end:].split() if kept(w))]).strip()


def _labelled_as(label: str, measure: str, names: str) -> bool:
    """Does the row's label say only the measure, the part or both ("EMEA", "Capital expenditures",
    "Foreign")? "Gain on sale of the operations of The Mirage" is another line, whatever it shares."""
    allowed = set(normalized(stems(f"{measure} {names.replace('|', ' ')}")))
    words = [w for w in normalized(stems(clean_label(label))) if w not in STOP and w not in LABEL_NEUTRAL]
    return bool(words) and all(has_word(allowed, w) for w in words)


_RATE = re.compile(r"\b(?:rates?|margins?|ratios?|percent(?:age)?s?|shares?|yields?|returns?)\b", re.I)
_RATES = ("percent", "percent_points", "ratio", "times")
_GROUP = rf"(?:\s+{PART_NOUN})?"
# "operations outside the United States", "jurisdictions outside the U.S.": what the place's figures are of
_PLACES = r"(?:(?:(?:from|in|for)\s+)?(?:operations|jurisdictions|countries|markets|locations|subsidiaries)\s+)?"


def _without_the_part(phrase: str, spellings: list[str]) -> str:
    """The phrase without the part's name and the noun that says what it is ("Optical Communications
    segment R&D" -> "R&D")."""
    for spelling in spellings:
        if words := _mention(spelling):
            phrase = re.sub(rf"(?<![\w&]){_PLACES}{words}(?:'s|\u2019s)?{_GROUP}(?![\w&])", " ", phrase, flags=re.I)
    return re.sub(r"\s+", " ", phrase).strip(" ,;:'")


def _mention(spelling: str) -> str:
    """A pattern of the name word by word, whatever stands between ("non-U.S." asked, "non-U S" in the
    line's words; "outside the United States" or "outside United States")."""
    words = r"[\W_]+(?:the\s+)?".join(re.escape(w) for w in re.findall(r"[\w&]+", spelling) if w.lower() != "the")
    return rf"(?:the\s+)?{words}\.?" if words else ""


def _the_lexicons(phrase: str) -> Measure | None:
    """The line item the lexicon reads the whole phrase as ("capex": the cash-flow statement's line,
    whatever the filer calls it), else None."""
    found = [m for m in load_lexicon().match(phrase) if m.kind == "metric"]
    if len(found) != 1 or re.sub(r"\W", "", found[0].text.lower()) != re.sub(r"\W", "", phrase.lower()):
        return None
    return MetricMeasure(load_lexicon().metric(found[0].key))


def _honoured_value(inner: Measure, sources, period, names) -> Evaluated | None:
    """The inner measure's value when every figure it uses is printed under the names asked."""
    value = inner.evaluate(sources, period)
    if value is None or not value.used or not all(honours(u, names) for u in value.used):
        return None
    return value


def _compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


@dataclass
class BySpelling(Measure):
    """A measure whose words name the part asked, tried with each spelling the question or the
    filing gives it ("Frito-Lay North America", "FLNA")."""

    label: str
    build: Callable[[str], Measure | None]
    names: tuple[str, ...]

    def evaluate(self, sources, period) -> Evaluated | None:
        first = spelled_by_the_filing(self.names, sources)[0] if self.names else ""
        for spelling in dict.fromkeys(first.split("|")):
            measure = self.build(spelling)
            value = measure.evaluate(sources, period) if measure is not None else None
            if value is not None:
                return value
        return None


def scoped_kinds(plan: QuestionPlan) -> frozenset[str]:
    """The kinds a part's measure is read as: an amount's line of the part is read in a table of
    amounts, not of its share ("33.9 %")."""
    lexicon = load_lexicon()
    amounts = not plan.kinds and any(lexicon.metric(k).kind == "currency" for k in plan.metric_keys)
    return frozenset({"amount"}) if amounts else plan.kinds


def scoped_measures(measures: list[Measure], scope: tuple[str, ...], subject: str,
                    kinds: frozenset[str], company_words: frozenset[str],
                    gross_of: tuple[GrossOf, ...] = (), forms: tuple[str, ...] = ()) -> list[Measure]:
    """The measures asked, each read from the part of the company named; a named ratio of two
    lines is recomputed from the lines that name it."""
    if not scope_words(scope):
        return measures
    label = " / ".join(name.split("|")[0] for name in scope)
    first = scope[0].split("|")[0]
    out: list[Measure] = []
    for measure in measures:
        if isinstance(measure, FormulaMeasure) and _a_ratio_of_two_lines(measure):
            out.append(Scoped(BySpelling(measure.label, lambda name, m=measure: _from_scoped_inputs(m, name, company_words),
                                         scope), scope, label))
        out.append(Scoped(measure, scope, label))
    # the row under each spelling of the part's name ("Missiles and Fire Control" is "MFC" in its columns)
    spelled = "|" in scope[0] or not any(isinstance(m, Scoped) and isinstance(m.inner, RowMeasure) for m in out)
    if subject and spelled:
        phrase = subject
        names = [n.split("|")[0] for n in scope]
        out.append(Scoped(BySpelling(subject, lambda name: RowMeasure(_put_part(phrase, names, name), asked=phrase,
                                                                      kinds=kinds, gross_of=gross_of), scope), scope, label))
    # last, each by the label the filing gives the company's line ("Payments for property and equipment"
    # asked as "capex"), under the part's name in a note that labels it alike
    rate = bool(_RATE.search(subject))
    out += [ByCompanyLabel(m, scope, label, kinds, forms, rate) for m in measures
            if not (isinstance(m, FormulaMeasure) and _a_ratio_of_two_lines(m))]
    return out


def _put_part(phrase: str, names: list[str], spelling: str) -> str:
    """The phrase with the part's name as spelt (a name asked as a list, "Europe, Middle East and
    Africa", replaced whole when the spelling is the list's)."""
    if len(names) == 1 or spelling in names or not abbreviates(spelling, " ".join(names)):
        words = _mention(names[0])
        return re.sub(rf"(?<![\w&]){words}(?![\w&])", lambda m: spelling, phrase, count=1, flags=re.I) if words else phrase
    words = r"[\s,]+".join(re.escape(w) for name in names for w in name.replace(",", " ").split())
    return re.sub(words, spelling, phrase, count=1)


def _a_ratio_of_two_lines(measure: FormulaMeasure) -> bool:
    return len(measure.formula.inputs) == 2 and bool(_DIVISION.match(measure.formula.expression or ""))


def _from_scoped_inputs(measure: FormulaMeasure, scope: str, company_words: frozenset[str]) -> ExprMeasure | None:
    """"Operating income / revenue" of a segment: the segment's operating income over its revenue."""
    formula = measure.formula
    lexicon = load_lexicon()
    try:
        top, bottom = (lexicon.metric(k) for k in formula.inputs)
    except KeyError:
        return None
    kind = formula.kind if formula.kind != "same" else None
    return ExprMeasure(formula.label, C.BinOp("/", C.Leaf(f"{scope} {top.label}"), C.Leaf(f"{scope} {bottom.label}")),
                       kind, company_words, one_table=True, part_of_whole=formula.key.endswith("margin"))
