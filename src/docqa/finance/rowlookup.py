"""Any printed row is a line item: find the row whose label best matches a phrase.

The lexicon knows ~50 metrics; filings print thousands of rows ("Other current liabilities",
"King", "Bitcoin revenue", "Treasury stock, at cost"). ``find_rows`` scores every row of every
table against the words of a phrase the question uses:

* the phrase's content words (stems; generic words such as "total", "GAAP", "segment" are soft)
  must be found in the row's label, its parent headings ("Current liabilities" above "Other
  current liabilities") or the table's title, with interchangeable words ("sales" ~ "revenue",
  "short-term" ~ "current", "unearned" ~ "deferred") counted as the same word;
* a row whose own label holds words the phrase does not ask for scores lower (precision), so
  "Goodwill" beats "Goodwill impairment" when goodwill is asked;
* a score below ``MIN_SCORE`` is no match: a weak match stays "not found".

Pure functions over ``StatementTable``s: tested from JSON fixtures, no PDFs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from docqa.finance.lexicon import load_lexicon
from docqa.finance.tables import Row, StatementTable
from docqa.finance.text import clean_label, stems, without_sign_alternatives

MIN_SCORE = 0.72       # below this the best row is not the item asked
MIN_RECALL = 0.99      # every hard word of the phrase must be printed around the row
LABEL_WEIGHT = 0.55    # share of the score from the label's precision (the rest: recall)
CONTEXT_FACTOR = 0.93  # a hard word found only in the headings or title, not the label
HEADING_FACTOR = 0.95  # ... found in the heading the row sits under ("Long-lived assets" over "U.S. operations")
TOTAL_BONUS = 0.03     # "Total X" over a component "X" when both match equally
NARROWER_PENALTY = 0.02  # each word a block's total adds to the measure asked ("subscription" revenue)
SOFT_BONUS = 0.01      # "Net interest income" over "Interest income" when "net interest income" is asked

# Words that say little about which row: they may be missing from the label without a penalty.
SOFT = frozenset(stems(
    "total net gaap reported consolidated company annual fiscal year quarter quarterly the a an of "
    "and for in on at to its their our amount value figure balance sheet statement income statement "
    "segment segments division business unit line item number figure reportable operating "
    "sheet end ending period as by from within level carrying reported basis overall "
    "worldwide global group"))
# Soft words that name what is measured: where a table prints them (a column "Operating Income
# 2018" beside "Net Sales 2018"), the figure must sit under them.
MEASURE_SOFT = frozenset(stems("operating income"))

# Words a printed label may add without changing what it is.
LABEL_NEUTRAL = frozenset(stems(
    "total net consolidated the and of a an in for to other from on at by s"))
STOP = frozenset(stems("the a an of and for in on at to by from with its their our as is was were be through via into within across"))


@dataclass(frozen=True)
class RowMatch:
    table: StatementTable
    row: Row
    score: float
    order: int = 0        # position of the table in the list given (earlier: preferred on ties)


@lru_cache(maxsize=1)
def _synonym_groups() -> dict[str, frozenset[str]]:
    """stem -> the stems interchangeable with it (lexicon ``words:`` groups)."""
    out: dict[str, set[str]] = {}
    for group in load_lexicon().words:
        group_stems = {stems(w)[0] for w in group if len(stems(w)) == 1}
        for s in group_stems:
            out.setdefault(s, set()).update(group_stems)
    return {k: frozenset(v) for k, v in out.items()}


def variants(word: str) -> frozenset[str]:
    """The stem and the stems interchangeable with it."""
    return _synonym_groups().get(word, frozenset()) | {word}


_variants = variants


def has_word(words: set[str], word: str) -> bool:
    """Is ``word`` (a stem) among ``words``, itself or as an interchangeable word?"""
    return bool(_variants(word) & words)


_has = has_word


_SMALL = frozenset(stems("in of and the a an for per"))


@lru_cache(maxsize=1)
def _rewrites() -> tuple[tuple[tuple[str, ...], str], ...]:
    """Multi-word members of a ``words`` group, as stems -> the group's first member."""
    out = []
    for group in load_lexicon().words:
        head = stems(group[0])
        for w in group[1:]:
            if len(stems(w)) > 1 and len(head) == 1:
                out.append((stems(w), head[0]))
                # the same words without their small words: a question's line words drop "in", "and"
                bare = tuple(x for x in stems(w) if x not in _SMALL)
                if len(bare) > 1 and bare != stems(w):
                    out.append((bare, head[0]))
    return tuple(sorted(out, key=lambda r: -len(r[0])))


@lru_cache(maxsize=1)
def _rewrites_by_first() -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """``_rewrites`` by their first stem, longest first as there: a word that starts none is passed over at once."""
    out: dict[str, list] = {}
    for form, head in _rewrites():
        out.setdefault(form[0], []).append((form, head))
    return {first: tuple(forms) for first, forms in out.items()}


def normalized(words: tuple[str, ...] | list[str]) -> list[str]:
    """Stems with multi-word synonyms folded ("short term" -> "current")."""
    return list(_normalized(tuple(words)))


@lru_cache(maxsize=65536)  # every row label of a filing is scored against each phrase asked
def _normalized(words: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    by_first = _rewrites_by_first()
    i = 0
    while i < len(words):
        for form, head in by_first.get(words[i], ()):
            if tuple(words[i:i + len(form)]) == form:
                out.append(head)
                i += len(form)
                break
        else:
            out.append(words[i])
            i += 1
    return tuple(out)


def phrase_words(phrase: str) -> tuple[list[str], list[str]]:
    """(hard, soft) content stems of a phrase, duplicates dropped."""
    hard: list[str] = []
    soft: list[str] = []
    for s in normalized(stems(phrase)):
        if s in STOP:
            continue
        (soft if s in SOFT else hard).append(s)
    return list(dict.fromkeys(hard)), list(dict.fromkeys(soft))


HEAD_FACTOR = 0.96     # the label's head ("Treasury stock" of "Treasury stock, shares at cost: ...")
# A roll-forward's balance line: what the table is about, at a date ("Balance at December 31, 2022",
# "Net balance", "Ending balance").
_BALANCE = re.compile(r"^\s*(?:(?:net|ending|closing|opening|beginning)\s+)?balances?\b(?:\s*,)?(?:\s+(?:as\s+of|at|on)\b.*)?$",
                      re.I)
_BALANCE_WORDS = frozenset(stems("balance balances net ending closing opening beginning end year period as of at on january february march "
                                  "april may june july august september october november december"))
_AT_DAY = re.compile(r"[\s,]+(?:at|as\s+of|as\s+at|on)\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
                     r"\s+\d{1,2},?\s+(?:19|20)\d\d\s*$", re.I)
_OPENING = re.compile(r"\b(?:beginning|opening|start)\b|\bjanuary\s+1\b(?!\d)", re.I)
_HEAD = re.compile(r",|\(|:|;| \u2014 | - ")


def score_row(phrase: str, row: Row, table: StatementTable) -> float:
    """How well ``row`` (under its headings, in ``table``) is the line item ``phrase`` names."""
    label = clean_label(row.label)
    score = _score(phrase, label, row, table)
    # a part of the label read alone keeps what the whole says of the day: "Unrecognized tax benefits,
    # beginning of year" is the year before's balance, whichever words of it match
    opening = TOTAL_BONUS if _OPENING.search(label) and not _OPENING.search(phrase) else 0.0
    head = _HEAD.split(without_sign_alternatives(label), 1)[0]
    if head.strip() and head != label:
        score = max(score, round(HEAD_FACTOR * _score(phrase, head, row, table) - opening, 4))
    short = _SHORT_NAME.search(label)
    if short:
        # "Revenue per available room (REVPAR)": the row is also its short name
        score = max(score, round(HEAD_FACTOR * _score(phrase, short.group(1), row, table) - opening, 4))
    named = _named_lead(phrase, label)
    if named:
        # "Vyndaqel family ATTR-CM and polyneuropathy": a product's name, then what it treats
        score = max(score, round(HEAD_FACTOR * _score(phrase, named, row, table) - opening, 4))
    return score


@lru_cache(maxsize=65536)  # every row label of a filing is scored against each phrase asked
def _named_lead(phrase: str, label: str) -> str | None:
    """The label's leading words when they are words asked and hold a name the lexicon does not
    know (a product, a brand), and the label goes on with words not asked: its description."""
    hard, soft = phrase_words(phrase)
    asked = set(hard) | set(soft)
    words = label.split()
    lead = 0
    for word in words:
        st = [x for x in normalized(stems(word)) if x not in STOP]
        if not st or not all(_has(asked, x) for x in st):
            break
        lead += 1
    if lead == 0 or lead == len(words) or not words[lead][:1].isupper():
        return None  # the description goes on in a name of its own ("ATTR-CM", "Nonvalvular ..."), not "at end of year"
    named = [x for w in words[:lead] for x in normalized(stems(w))]
    return " ".join(words[:lead]) if any(x in hard and x not in _ordinary_words() for x in named) else None


@lru_cache(maxsize=1)
def _ordinary_words() -> frozenset[str]:
    """Every stem the lexicon uses to name or print a line item: none of them is a product's name."""
    lexicon = load_lexicon()
    texts = [t for m in lexicon.metrics for t in (m.label, *m.asks, *m.prints)]
    texts += [t for f in lexicon.formulas for t in (f.label, *f.asks)]
    texts += [w for group in lexicon.words for w in group]
    return frozenset(x for t in texts for x in normalized(stems(t))) | SOFT | STOP


_SHORT_NAME = re.compile(r"\(\s*([A-Za-z][A-Za-z&.]{1,9})\s*\)")


def _score(phrase: str, label_text: str, row: Row, table: StatementTable) -> float:
    hard, soft = phrase_words(phrase)
    if not hard:
        # "total segment net operating income": what is measured is all the phrase names
        hard = [w for w in soft if w in MEASURE_SOFT]
        soft = [w for w in soft if w not in MEASURE_SOFT]
    if not hard:
        return 0.0
    # "Goodwill at January 1, 2023": the day a balance is struck at is no word of what it is
    label = [s for s in normalized(stems(_AT_DAY.sub("", label_text))) if s not in STOP and not s.isdigit()]
    if not label:
        return 0.0
    defined = _defined_in(table.title or "")
    if defined and any(s in defined for s in label):
        # "Gross UTB Balance" under "... gross unrecognized tax benefits (UTB) is as follows:"
        label = [x for s in label for x in defined.get(s, (s,))]
    label_set = set(label)
    title = set(_title_words(table.title or ""))
    heading = set(normalized(stems(row.section))) if row.section else set()
    label, label_set = _label_in_context(label_text, label, label_set, title, heading, hard)
    if not any(_has(label_set, w) for w in hard + [w for w in soft if w in MEASURE_SOFT]):
        return 0.0  # the label itself must name something asked ("King", "Goodwill", "Operating income")
    context = heading | title
    context |= _header_words(table)  # a segment's name may head the column ("2019 King")
    if not table.title:
        # An untitled table says what it holds in its totals ("Total International revenue")
        context |= _total_words(table)
    # the "Appliances" row under "International:" is international appliances revenue, as the total
    # that closes its block says
    closing = _closing_total_words(table, row)
    context |= closing
    found = 0.0
    narrower = 0   # words the block's total adds to a word asked that only it supplies
    for w in hard:
        if _has(label_set, w):
            found += 1.0
        elif heading and _has(heading, w):
            found += HEADING_FACTOR  # the row's own heading says more of it than the table's title
        elif _has(context, w):
            found += CONTEXT_FACTOR
            if _has(closing, w):
                narrower = max(narrower, len([s for s in closing if s not in LABEL_NEUTRAL
                                              and not any(_has({s}, a) for a in hard + soft)]))
    if found < len(hard) - 1 + CONTEXT_FACTOR and _ends_in_a_plural_of(phrase, hard[-1]) \
            and _elides_the_head(hard, label, label_set | heading | context):
        found = len(hard) - 1 + CONTEXT_FACTOR * CONTEXT_FACTOR
    recall = found / len(hard)
    if recall < MIN_RECALL * CONTEXT_FACTOR:  # a word asked that nothing around the row prints
        return 0.0
    asked = set(hard) | set(soft)
    extra = [s for s in label if s not in LABEL_NEUTRAL and not any(_has({s}, w) for w in asked)
             and not _has(set(asked), s)]
    precision = 1.0 - len(extra) / max(len(label), 1)
    score = (1 - LABEL_WEIGHT) * recall + LABEL_WEIGHT * precision
    said = [w for w in soft if w != "total"]
    if said and all(_has(label_set, w) for w in hard):
        # Soft words may be missing without a penalty; printed, they tell apart two labels that
        # both print every word asked (not a label whose heading supplies the segment's name).
        score += SOFT_BONUS * sum(_has(label_set, w) for w in said) / len(said)
        # the heading the row sits under ("Operating Income:" over "Intelligent Cloud") tells apart
        # the segment's rows of one table that print the same name under each measure
        score += SOFT_BONUS * sum(_has(heading, w) for w in said) / len(said)
    # "Digital Media" closing to "Total subscription revenue" is a part of its revenue; under "Total
    # revenue", all of it
    score -= NARROWER_PENALTY * min(narrower, 2)
    if _OPENING.search(label_text) and not _OPENING.search(phrase):
        score -= TOTAL_BONUS  # "Balance at beginning of year" is the year before's: the year's own is at its end
    if "total" in soft and label and label[0] == "total":
        score += TOTAL_BONUS
    elif label and label[0] == "total" and "total" not in soft:
        score -= TOTAL_BONUS / 2
    if label and label[0] == "other" and "other" not in asked:
        score -= TOTAL_BONUS  # "Other regulated revenue" is what is left of regulated revenue, not all of it
    return round(score, 4)


def _ends_in_a_plural_of(phrase: str, last: str) -> bool:
    """Does the phrase end with ``last`` as a plural of things ("restaurants")? A label may leave
    such a noun out, never what is measured ("rate", "margin") or a word of manner ("basis")."""
    words = re.findall(r"[A-Za-z]+", phrase)
    return bool(words) and stems(words[-1]) == (last,) and re.search(r"[^siu]s$", words[-1].lower()) is not None


def _label_in_context(label_text: str, label: list[str], label_set: set[str], title: set[str], heading: set[str],
                      hard: list[str]) -> tuple[list[str], set[str]]:
    """A label that says only what kind of line it is takes its words from around it: "Balance as of
    June 30, 2023" in "Goodwill ... by reportable segment", "Balance at end of year" under "Reserve for
    LIFO valuation:" (the balance of what the table or heading is about; its day no word of a line
    item), a bare "Total" under "Pharmacy claims processed:" (the heading's total)."""
    if _BALANCE.match(label_text) and any(_has(title | heading, w) for w in hard):
        return [s for s in label if s not in _BALANCE_WORDS], label_set | title | heading
    if heading and set(label) <= {"total"}:
        return [*label, *(s for s in heading if s not in STOP)], label_set | heading
    return label, label_set


def _elides_the_head(hard: list[str], label: list[str], around: set[str]) -> bool:
    """"Developmental licensed" under "Ownership type" for "franchised sales from developmental
    licensed restaurants": the label is the words right before the phrase's last noun, which it
    leaves out, and every other word asked is printed around the row."""
    if len(hard) < 3 or not label:
        return False
    words = [w for w in label if w not in LABEL_NEUTRAL]
    before = hard[-1 - len(words):-1]
    return (bool(words) and before == words and not _has(around, hard[-1])
            and all(_has(around, w) for w in hard[:-1]))


_TOTAL = re.compile(r"^\s*total\b", re.I)
# "The business segment operating income impact of these restructuring charges": the words before
# "impact" say what the charges touched, not what the table holds.
_TOUCHED = re.compile(r"(?:\b[\w-]+\s+){1,2}(?:impacts?|effects?)\s+of\b", re.I)


_DEFINES = re.compile(r"((?:[A-Za-z][\w'-]*\s+){1,5}?)\(\s*([A-Z][A-Z&]{1,7})\s*\)")


@lru_cache(maxsize=8192)
def _defined_in(title: str) -> dict[str, tuple[str, ...]]:
    """Short names a table's title defines, "gross unrecognized tax benefits (UTB)": the short name's
    stem -> the words it stands for (as many words before it as it has letters)."""
    out: dict[str, tuple[str, ...]] = {}
    for found in _DEFINES.finditer(title):
        abbreviation = found.group(2)
        words = found.group(1).split()[-len(abbreviation):]
        short = stems(abbreviation)
        if len(short) == 1 and words:
            out[short[0]] = tuple(x for x in normalized(stems(" ".join(words))) if x not in STOP)
    return out


@lru_cache(maxsize=8192)
def _title_words(title: str) -> tuple[str, ...]:
    return tuple(normalized(stems(_TOUCHED.sub(" ", title))))


def _total_words(table: StatementTable) -> frozenset[str]:
    # read once per table, not once per row scored (find_rows scores every row of every table)
    cached = _TOTALS.get(id(table))
    if cached is None or cached[0] is not table:
        if len(_TOTALS) > 4096:
            _TOTALS.clear()
        totals = tuple(r.label for r in table.rows if _TOTAL.match(r.label))
        if not totals and (last := sum_row(table)) is not None:
            totals = (last.label,)  # "North America ... Asia Pacific" summed by a last row "Net sales"
        cached = _TOTALS[id(table)] = (table, _words_of_totals(totals))
    return cached[1]


_TOTALS: dict[int, tuple[StatementTable, frozenset[str]]] = {}
_CLOSING: dict[int, tuple[StatementTable, dict[int, str]]] = {}


def closing_total(table: StatementTable, row: Row) -> str:
    """The label of the first "Total ..." row after ``row``: what the block the row sits in adds up
    to ("Best Buy Mobile stand-alone" ... "Total Domestic segment stores"). Read once per table."""
    cached = _CLOSING.get(id(table))
    if cached is None or cached[0] is not table:
        if len(_CLOSING) > 4096:
            _CLOSING.clear()
        by_row: dict[int, str] = {}
        closing = ""
        for r in reversed(table.rows):
            if _TOTAL.match(r.label):
                closing = r.label
            else:
                by_row[id(r)] = closing
        cached = _CLOSING[id(table)] = (table, by_row)
    return cached[1].get(id(row), "")


def _closing_total_words(table: StatementTable, row: Row) -> frozenset[str]:
    return _words_of_total(closing_total(table, row))


@lru_cache(maxsize=4096)
def _words_of_total(label: str) -> frozenset[str]:
    return frozenset(w for w in normalized(stems(label)) if not w.isdigit() and w != "total")


def sum_row(table: StatementTable) -> Row | None:
    """The table's last row when it adds up the rows above it in every column that has figures (a
    total printed without the word "Total": "Net sales" under the regions)."""
    rows = [r for r in table.rows if any(c.value is not None for c in r.cells)]
    if len(rows) < 3:
        return None
    last, parts = rows[-1], rows[:-1]
    checked = 0
    for cell in last.cells:
        if cell.value is None:
            continue
        values = [c.value for r in parts if (c := r.cell(cell.column)) is not None and c.value is not None]
        if len(values) < 2:
            continue
        # each part rounded as printed may be off by half a unit
        if abs(sum(values) - cell.value) >= max(0.5 * len(values), abs(cell.value) * 0.0005):
            return None
        checked += 1
    return last if checked else None


@lru_cache(maxsize=4096)
def _words_of_totals(labels: tuple[str, ...]) -> frozenset[str]:
    """The words every total prints ("revenue" of "Total Domestic revenue" and "Total International
    revenue"): what the table holds, not which part."""
    words = [frozenset(w for w in normalized(stems(label)) if not w.isdigit() and w != "total") for label in labels]
    return frozenset.intersection(*words) if words else frozenset()


def _header_words(table: StatementTable) -> frozenset[str]:
    return _words_of_headers(tuple(c.header for c in table.columns))


@lru_cache(maxsize=4096)
def _words_of_headers(headers: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w for h in headers for w in normalized(stems(h)) if not w.isdigit())


def entity_column(phrase: str, row: Row, table: StatementTable, columns: list) -> object | None:
    """Of several columns for one period ("2019 Activision", "2019 King", "2019 Total"), the one
    whose header names a word of the phrase the row's label does not."""
    hard, soft = phrase_words(phrase)
    label = set(normalized(stems(row.label))) | set(normalized(stems(row.section or "")))
    # Soft words count here: "Operating Income 2018" beside "Net Sales 2018" is told apart by them.
    wanted = [w for w in hard + soft if not _has(label, w)]
    best, tied = None, False
    for column in columns:
        header = set(normalized(stems(column.header)))
        hits = sum(_has(header, w) for w in wanted)
        if hits and (best is None or hits > best[0]):
            best, tied = (hits, column), False
        elif hits and best is not None and hits == best[0]:
            tied = True
    return best[1] if best and not tied else None


_GROUP_NOUNS = frozenset(stems("segment segments division divisions region regions business businesses unit units"))
# the nouns that say a name is a part of the company ("the Greater China segment"), as a pattern
PART_NOUN = r"(?:segments?|divisions?|business(?:es)?|units?|regions?|sectors?|operations|groups?)"


def words_beyond_label(phrase: str, row: Row) -> str:
    """The words of ``phrase`` that the row's own label does not print, as asked: what its headings
    or columns supplied ("International segment" for a "Net sales" row under that segment), so that
    an answer states the whole of what was asked."""
    label = set(normalized(stems(clean_label(row.label)))) | set(stems(clean_label(row.label)))
    words = phrase.split()
    kept = [i for i, w in enumerate(words)
            if (st := normalized(stems(w))) and all(x not in STOP and (x not in SOFT or x in MEASURE_SOFT)
                                                    and not _has(label, x) for x in st)]
    runs: list[str] = []
    i = 0
    while i < len(words):
        if i not in kept:
            i += 1
            continue
        end = i + 1
        while end < len(words) and end in kept:
            end += 1
        if end < len(words) and set(stems(words[end])) <= _GROUP_NOUNS:
            end += 1
        # every run the label lacks: "Balance as of June 30, 2023" is "Rigid Packaging segment goodwill"
        runs.append(" ".join(words[i:end]).strip(" ,;:"))
        i = end
    return " ".join(r for r in runs if r)


def measure_words_missing(phrase: str, row: Row, table: StatementTable, column: int | None) -> bool:
    """Does the phrase name what is measured ("operating income") in soft words that neither the
    row, its heading, the title nor the figure's column prints?"""
    _, soft = phrase_words(phrase)
    asked = [w for w in soft if w in MEASURE_SOFT]
    if not asked:
        return False
    around = set(normalized(stems(" ".join((row.label, row.section or ""))))) | set(_title_words(table.title or ""))
    header = next((c.header for c in table.columns if c.index == column), "")
    held = around | set(normalized(stems(header)))
    return not all(_has(held, w) for w in asked)


def find_rows(tables: list[StatementTable], phrase: str, min_score: float = MIN_SCORE) -> list[RowMatch]:
    """Rows with a figure whose label (with headings) names ``phrase``, best first."""
    out: list[RowMatch] = []
    for k, table in enumerate(tables):
        for row in table.rows:
            if not any(c.value is not None for c in row.cells):
                continue
            score = score_row(phrase, row, table)
            if score >= min_score:
                out.append(RowMatch(table, row, score, k))
    out.sort(key=lambda m: (-m.score, m.order, m.row.bbox[1]))
    return out
