"""Which of a question's words name the line item, by the filings read: the company's names they hold, a
linking verb no table prints, a lexicon item's leftover words (the words themselves: plan/line_text.py)."""

from __future__ import annotations

import re

from docqa.answer.figures.reading.sources import Source, all_tables
from docqa.finance.lexicon import MetricMatch, load_lexicon
from docqa.finance.text import stems
from docqa.plan import QuestionPlan
from docqa.plan.line_text import OF_FILLERS, SCAFFOLD, SOFT_WORDS, leaf_text
from docqa.text import STOPWORDS
from docqa.store.base import Store

def line_words(plan: QuestionPlan, sources: list[Source], company_words: frozenset[str]) -> str:
    """The words of the line asked: the clause's words less the company, periods and scaffolding,
    and less a verb that ties the item to a place ("goodwill sat in the segment") when no table of
    the filings prints it."""
    clause = plan.line_clause or plan.main_clause
    for word in plan.linking:
        if not any(set(stems(word)) <= printed_words(source) for source in sources):
            clause = re.sub(rf"\b{re.escape(word)}\b", " ", clause, count=1)
    return leaf_text(clause, company_words)


_PRINTED: dict[str, frozenset[str]] = {}
_PRINTED_KEPT = 64


def printed_words(source: Source) -> frozenset[str]:
    """Stems of every word a table of the filing prints in a label, heading, title or column header."""
    found = _PRINTED.get(source.document_id)
    if found is None:
        words: set[str] = set()
        for table in all_tables(source):
            words.update(stems(" ".join((table.title, *(c.header for c in table.columns),
                                         *(f"{r.label} {r.section or ''}" for r in table.rows)))))
        if len(_PRINTED) >= _PRINTED_KEPT:
            _PRINTED.pop(next(iter(_PRINTED)))
        found = _PRINTED[source.document_id] = frozenset(words)
    return found


def leftover(text: str, match: MetricMatch, company_words: frozenset[str]) -> list[str]:
    """Words of ``text`` outside the lexicon match that the metric's own vocabulary lacks:
    "King segment net revenues" is not revenue."""
    lexicon = load_lexicon()
    entry = lexicon.metric(match.key) if match.kind == "metric" else lexicon.formula(match.key)
    vocabulary = {s for p in (*entry.asks, *getattr(entry, "prints", ())) for s in stems(p)}
    outside = text[:match.span[0]] + " " + text[match.span[1]:]
    return [s for s in stems(outside) if s not in vocabulary and s not in SCAFFOLD and s not in company_words
            and s not in SOFT_WORDS]




def company_name_words(store: Store, sources: list[Source], plan: QuestionPlan) -> frozenset[str]:
    """Stems of the names the company goes by, so that "Activision's" is not part of a line item."""
    words: set[str] = set()
    for name in (*plan.companies, *plan.named_as):
        words |= set(stems(name))
    for source in sources:
        doc = store.document(source.document_id)
        if doc is None:
            continue
        meta = doc.meta
        # the names the question gives the company (plan.named_as), where it gives one: every alias the
        # filings print ("Kraft Canada Inc") would make "Canada" the company's word, not the part asked
        for name in (meta.company, meta.ticker, *(() if plan.named_as else meta.aliases)):
            if name:
                words |= set(stems(name))
    generic = set(stems("inc corporation corp company co ltd plc group holdings the and of limited llc sa ag nv"))
    return frozenset(words - generic - set(stems("total net revenue sales income")))


_SEGMENT_AFTER = re.compile(r"^[^,;:?]{0,60}?\b(?:segment|division|region|geograph\w*|brand|business\s+unit|reportable)\b", re.I)


def qualifiers(main: str, m: MetricMatch, company_words: frozenset[str], noun_of: str | None = None,
               narrowed: str | None = None) -> list[str]:
    """Words that narrow the line item named at ``m``: premodifiers ("King segment net revenues",
    "short-term unearned revenue") and a segment named after it ("net sales did the Aeronautics
    segment bring in"). Generic words and the company's name do not narrow it."""
    lexicon = load_lexicon()
    entry = lexicon.metric(m.key)
    vocabulary = {s for p in (*entry.asks, *entry.prints) for s in stems(p)}
    before = re.findall(r"[\w&'\u2019.-]+", main[:m.span[0]])
    words: list[str] = []
    for w in reversed(before):
        if (re.search(r"['\u2019]s$|\d", w) or set(stems(w)) <= (SCAFFOLD | company_words) or not stems(w)
                or w.lower() in _PREPOSITIONS):
            break  # a preposition ends the words that modify the item ("put into research and development")
        words.append(w)
    if noun_of and not words and not set(stems(noun_of)) & (SCAFFOLD | _QUESTION_WORDS | OF_FILLERS | company_words):
        words.append(noun_of)  # "an impairment of plant and equipment" (the plan's): the impairment, not the balance
    after = _SEGMENT_AFTER.match(main[m.span[1]:])
    if after:
        words += [w for w in re.findall(r"[\w&-]+", after.group(0)) if w[:1].isupper() or w.lower() == "segment"]
    if narrowed:
        # "capital expenditures for pollution control", "... required under binding contracts" (the plan's): a part
        words += [w for w in re.findall(r"[A-Za-z][\w&-]*", leaf_text(narrowed, company_words))
                  if not w[:1].isupper() and w.lower() not in STOPWORDS
                  and not set(stems(w)) <= (SCAFFOLD | company_words | _QUESTION_WORDS | OF_FILLERS)]
    return [s for w in words for s in stems(w) if s not in vocabulary and s not in SOFT_WORDS and s not in company_words
            and s not in _QUESTION_WORDS and s not in SCAFFOLD]


_PREPOSITIONS = frozenset("into onto upon toward towards with within about across through via".split())


# ... and the verbs a question asks an amount with ("how much did it spend repurchasing shares",
# "pay in dividends"): they precede the line item without narrowing it.
_QUESTION_WORDS = frozenset(stems(
    "amount value level figure number line item reported gaap much many bring brought in during "
    "holders holder per share "
    "spend spent spending pay paid paying earn earned generate generated record recorded incur incurred "
    "make made return returned distribute distributed invest invested "
    # legal forms and group words of a company's name ("Microsoft Corporation pay dividends")
    "inc incorporated corporation corp co company ltd limited plc llc lp group holdings"))
