"""build_plan(): a question read once into a QuestionPlan, against the documents the index holds.

Each slot has its own parser module (subject, periods, filing_types, statistic, intent,
judgement, wording); this module only calls them in order and decides, from what they read, which
filings each named company's question reads (choice.py).
"""

from __future__ import annotations

import re
from dataclasses import replace

from docqa.finance.lexicon import MetricMatch, load_lexicon
from docqa.finance.topics import topics_for
from docqa.plan.choice import choose_documents
from docqa.plan.companies import _held, company_names, normalize_name
from docqa.plan.composition import compose, convention, defined_inputs, filers_own_asked, main_clause
from docqa.plan.direct import asked_directly
from docqa.plan.discussion import asks_discussion, discussed_words, section_named, what_lines_hold
from docqa.plan.facts import asked_fact
from docqa.plan.filing_types import detect_doc_types
from docqa.plan.lines import line_asked
from docqa.plan.lists import asked_noun
from docqa.plan.ranking import asks_which, listed_activities, ranked_members, which_is_most
from docqa.plan.format import (asked_currency, asks_amount, asks_figure, counted_noun, kinds_asked, looks_up_a_figure,
                               part_of_whole, requested_format)
from docqa.plan.intent import classify
from docqa.plan.judgement import (band_asked, bottom_line_asked, compared, judged_phrase, judgement, moved_as_verb, moves,
                                  parse_threshold, sign_asked, tied_to_one)
from docqa.plan.model import Intent, QuestionPlan, Statistic
from docqa.plan.line_text import bracketed_asides, names_a_statement
from docqa.plan.measures import gross_of, linking_words, narrowed_by, nouns_of, read_measures, without_asked_verb
from docqa.plan.names import LabelCheck, OwnerCheck, WordCheck
from docqa.plan.parts import split_parts
from docqa.plan.scope import scope_asked
from docqa.plan.periods import (
    _LATEST,
    AskedPeriods,
    _YEAR_END_ASKED,
    asked_day,
    asked_period_end,
    year_closing_days,
    quarter_span,
    balance_date,
    year_to_date,
    detect_quarter,
    detect_years,
    fiscal_year_of,
    is_forward_looking,
    filing_years,
    scheduled_reading,
    scheduled_years,
    read_periods,
)
from docqa.plan.intent import asks_verdict, asks_why
from docqa.plan.statistic import stats_question
from docqa.plan.subject import _mentions, _respelt, _unheld_companies, not_deal_parties, owner_as_the_company
from docqa.plan.topic import _STATE_Q, _stem, _words, deal_topic, disclosure_question, parse_state, parse_topic
from docqa.plan.wording import asks_about_boilerplate, content_text, question_first, without_provisos
from docqa.text import query_tokens, tokens
from docqa.types import Document, SearchFilters


def build_plan(question: str, documents: list[Document], explicit: SearchFilters | None = None,
               is_word: WordCheck | None = None, owner: OwnerCheck | None = None,
               inherited: tuple[str, ...] = (), labels: LabelCheck | None = None) -> QuestionPlan:
    """The plan of ``question`` over ``documents``; ``explicit`` filters are filters, not hints.
    ``is_word`` and ``owner`` ask the index about words (a typo of a name is printed nowhere; a
    word that only one company's filings print names it); ``labels`` whether a table prints a phrase
    as a row's label (a list the filing prints as one line is no parts)."""
    lexicon = load_lexicon()
    explicit = explicit or SearchFilters()
    content = content_text(question)
    named = lexicon.match(question)
    phrases = [" ".join(tokens(p)) for p in lexicon.expansion_terms(named)]
    sections: set[str] = set()
    answered_by_section = []
    headed_as: list[str] = []
    for topic in topics_for(content):
        phrases.extend(p for p in (" ".join(tokens(x)) for x in topic.prints) if p not in phrases)
        headed_as.extend(p for p in (*topic.asks, *topic.prints) if p not in headed_as)
        sections.update(topic.sections)
        if topic.section_answer and topic.sections:
            answered_by_section.append(topic)
    plan = QuestionPlan(
        question=question, content=content, terms=tuple(query_tokens(content)), words=tuple(_WORD.findall(question)),
        phrases=tuple(phrases),
        years=tuple(detect_years(question)), quarter=detect_quarter(question),
        doc_types=tuple(explicit.doc_types) or tuple(detect_doc_types(question)),
        statements=frozenset(lexicon.statements_for(question, named)), sections=frozenset(sections),
        latest=bool(_LATEST.search(question)), period_end=asked_period_end(question),
        balance_day=balance_date(question), day=asked_day(question), ytd_months=year_to_date(question),
        quarter_span=quarter_span(question), year_ended=_YEAR_END_ASKED.search(question) is not None,
        forward_looking=is_forward_looking(question), inherited=inherited,
        section_topics=tuple(t.key for t in answered_by_section),
        section_items=tuple(dict.fromkeys(s for t in answered_by_section for s in t.sections)),
        section_words=tuple(dict.fromkeys(p for t in answered_by_section for p in t.asks)),
        discussed_as=tuple(headed_as),
    )
    plan = _with_subject(plan, documents, explicit, is_word, owner)
    plan = _with_ask(plan, labels)
    plan = replace(plan, intent=classify(plan))
    if plan.intent is Intent.SECTION and not plan.discussed:  # "what are X's key risks around cybersecurity"
        plan = replace(plan, discussed=discussed_words(content_text(plan.asked), plan.named_as))
    if plan.intent is Intent.SECTION:
        plan = replace(plan, section_named=section_named(plan.asked, plan.named_as), lines_hold=what_lines_hold(plan.asked))
    return _with_scope(_with_topic(_with_filings(plan, documents, explicit), documents), documents)


def _with_scope(plan: QuestionPlan, documents: list[Document]) -> QuestionPlan:
    """The part of the company asked about: capitalised names that are not the company's own."""
    canonical = _held(documents).canonical
    own = [d for d in documents if canonical.get(d.id) in plan.companies]
    # the names the question gives it: every alias the filings print ("Kraft Canada Inc") would make
    # "in Canada" the company's own words
    asked = f" {normalize_name(plan.asked)} "
    held_names = {n for d in own for n in company_names(d)}
    printed = {n for n in held_names if f" {n} " in asked}   # as the question (respelt) writes them
    names = {normalize_name(c) for c in (*plan.companies, *plan.named_as)} | (printed if plan.named_as else held_names)
    tickers = {d.meta.ticker.lower() for d in own if d.meta.ticker}
    words = frozenset(re.sub(r"[^a-z0-9]", "", w) for n in names for w in n.split()) | tickers
    words |= {re.sub(r"[^a-z0-9]", "", n) for n in names}  # "Coca-Cola", "PG&E", "J&J" run together
    words -= {""}
    named_as = tuple(dict.fromkeys((*plan.named_as, *sorted(printed)))) if plan.named_as else plan.named_as
    return replace(plan, scope=scope_asked(plan.asked, plan.measures, words), named_as=named_as)


_WORD = re.compile(r"[A-Za-z][\w'\u2019-]*")
_ANY_OUTSTANDING = re.compile(r"\bany\b[^?]{0,80}\boutstanding\b|\boutstanding\b[^?]{0,40}\bany\b", re.I)


def _with_topic(plan: QuestionPlan, documents: list[Document]) -> QuestionPlan:
    """Y of "did X disclose / report Y" or "is X subject to Y", without the words of X's own names
    (as the filings of the companies asked print them)."""
    asked = plan.asked
    discloses = disclosure_question(asked) is not None or _STATE_Q.match(asked.strip()) is not None
    if not discloses:
        return plan
    canonical = _held(documents).canonical
    own = [d for d in documents if canonical.get(d.id) in plan.companies]
    words = {_stem(w) for d in own for n in company_names(d) for w in n.split()}
    words |= {_stem(w) for d in own for w in _words(d.meta.company or "")}
    topic = parse_topic(asked, words)
    if topic is None and (not plan.measures or plan.judgement == "exists"):
        # "did X sell Y": what X did, in the filing's words (when a line item is named, its printed
        # figure decides first: "did Verizon buy back shares" reads the repurchases line, then this)
        topic = deal_topic(asked, words)
    if topic is None and (not plan.measures or _ANY_OUTSTANDING.search(asked)):
        # a figure's state ("is working capital positive") is a figure's; whether any of it was
        # outstanding on a day ("was any commercial paper outstanding") is what a sentence says
        topic = parse_state(asked, words)
    return replace(plan, discloses=True, topic=topic)


def _redated(periods: AskedPeriods, plan: QuestionPlan) -> AskedPeriods:
    """The years a day names, as the subject slot dated them by the filer's calendar ("as of January 1,
    2023" closes fiscal 2022)."""
    day = plan.balance_day or plan.period_end
    if periods.quarters:
        return periods
    if day and int(day[:4]) not in plan.years and int(day[:4]) in periods.years:
        return replace(periods, years=tuple(sorted({y for y in periods.years if y != int(day[:4])} | set(plan.years))))
    closing = [d for d in year_closing_days(plan.question) if int(d[:4]) in periods.years]
    if closing:
        # "from January 2, 2022 to January 1, 2023": the two years those days close
        years = [y for y in periods.years if y not in {int(d[:4]) for d in closing}]
        return replace(periods, years=tuple(sorted(set(years) | {fiscal_year_of(d) for d in closing})))
    return periods


def _renamed(periods: AskedPeriods, renamed: tuple[tuple[int, int], ...]) -> AskedPeriods:
    """The periods named, their years as the index holds them (``QuestionPlan.renamed``)."""
    if not renamed:
        return periods
    to = dict(renamed)
    return replace(periods, years=tuple(to.get(y, y) for y in periods.years),
                   quarters=tuple((q, to.get(y, y) if y is not None else None) for q, y in periods.quarters))


def _with_ask(plan: QuestionPlan, labels: LabelCheck | None = None) -> QuestionPlan:
    """What kind of answer is asked, read from the question as the answerers read it (names spelt
    as the filings spell them, so that a measure's offsets hold in that text)."""
    asked = plan.asked
    routed = stats_question(asked)
    measures = tuple(m for m in load_lexicon().match(asked) if not _VARIANT_BEFORE.search(asked[:m.span[0]])
                     and not _HOLDS_THE_ASKED.search(asked[:m.span[0]]) and not _names_where(asked, m))
    composition, judged, pick = compose(asked, measures), judgement(asked), which_is_most(asked)
    if judged is None and _DID.match(asked) and any(m.kind == "metric" for m in measures):
        # "Did 3M repurchase shares in 2018?": the line item's figure for the period settles it
        judged = "exists"
    reading = read_measures(asked, measures, names=(*plan.companies, *plan.named_as))
    judged_of = judged_phrase(asked) if judged in ("up", "down", "threshold") else ""
    one_question = (composition is not None or judged is not None or pick is not None or asks_verdict(asked)
                    or asks_discussion(asked))  # "how does X prioritize dividends and buybacks": one discussion
    return replace(
        plan, measures=measures, reading=reading, periods=_renamed(_redated(read_periods(asked), plan), plan.renamed),
        core=without_provisos(asked), expansions=tuple(load_lexicon().expansion_terms(measures)),
        boilerplate=asks_about_boilerplate(asked), statistic=Statistic(*routed) if routed else None,
        verdict=asks_verdict(asked), why=asks_why(asked), judgement=judged, sign=sign_asked(asked),
        gross_of=gross_of(asked), loss_named=any(_LOSS.search(m.text) for m in measures),
        bottom_line=bottom_line_asked(asked), threshold=parse_threshold(asked), sides=compared(asked),
        band=band_asked(asked), moves=moves(asked), judged=judged_of,
        on_a_figure=judged in ("threshold", "compare") or (judged in ("up", "down") and moved_as_verb(asked)),
        tied=tied_to_one(asked), amount=asks_amount(asked, measures) and not asks_discussion(asked), counted=counted_noun(asked), kinds=kinds_asked(asked),
        asks_figure=asks_figure(asked) or (looks_up_a_figure(asked) and not asks_why(asked)),
        part_of_whole=part_of_whole(asked),
        format=requested_format(asked), currency=asked_currency(asked), pick=pick,
        ranked=None if listed_activities(asked) else ranked_members(asked, measures),
        listed=tuple(listed_activities(asked)), which=asks_which(asked, list(measures)), line=line_asked(asked),
        fact=asked_fact(asked), list_noun=_noun(asked_noun(asked)), composition=composition,
        parts=split_parts(asked, measures, one_question or bool(routed) or asks_why(asked),
                          over_time=reading.over_time is not None, counts=counted_noun(asked) is not None,
                          names=(*plan.named_as, *plan.companies), printed=labels),
        convention=convention(asked), defined_inputs=tuple(defined_inputs(asked)), main_clause=main_clause(asked),
        filers_own=filers_own_asked(asked),
        # a verdict's line is what it judges: "higher than", "more than $1 billion" are no row's words
        line_clause=without_asked_verb(judged_of or main_clause(asked), counts=counted_noun(asked) is not None), nouns_of=nouns_of(main_clause(asked), measures),
        narrowed_by=narrowed_by(main_clause(asked), measures),
        statement_named=names_a_statement(asked), asides=bracketed_asides(main_clause(asked)),
        linking=linking_words(main_clause(asked), measures),
        discussed=discussed_words(content_text(asked), plan.named_as) if asks_discussion(asked) else ())


# "Adjusted EBITDA", "non-GAAP operating income", "organic sales": the company's own variant of the
# measure, printed as its own line (or not at all); never the measure computed or read as defined.
_VARIANT_BEFORE = re.compile(r"(?<![\w-])(?:adjusted|adj\.|non[\s-]?gaap|underlying|organic|core|comparable|normali[sz]ed|"
                             r"pro[\s-]forma)(?:\s+(?:non[\s-]?gaap|constant[\s-]currency|property|consolidated))*\s+$",
                             re.I)
# "shipping expenses recorded in cost of revenue": the line where the asked item sits, not what is asked
_HOLDS_THE_ASKED = re.compile(r"\w\s+(?:(?:that|which)\s+(?:was|were|is|are)\s+)?(?:recorded|included|reported|classified|"
                              r"presented|recogni[sz]ed|booked)\s+(?:in|within|under|as\s+part\s+of)\s+(?:the\s+|its\s+)?$", re.I)
_LOSS = re.compile(r"\bloss(?:es)?\b", re.I)
# "construction work in progress in the 2022 10-K PP&E note": the note where the line is, not the line
_IN_THE = re.compile(r"\b(?:in|from|per|under|within|according\s+to|see)\s+(?:the\s+|its\s+|their\s+)?"
                     r"(?:(?:fiscal\s+)?(?:19|20)\d\d\s+)?(?:(?:10-?[KQ]|annual\s+report|filing)(?:['\u2019]s)?\s+)?$", re.I)
_A_NOTE = re.compile(r"^\s*(?:note|footnote)s?\b", re.I)


def _names_where(question: str, m: MetricMatch) -> bool:
    """Does the match name the note or table to read ("in the PP&E note"), not the line asked?"""
    return bool(_A_NOTE.match(question[m.span[1]:]) and _IN_THE.search(question[:m.span[0]]))


_DID = re.compile(r"^\W*(?:did|has|have|had)\b", re.I)


def _noun(found: tuple[str, list[str]] | None) -> tuple[str, tuple[str, ...]] | None:
    return (found[0], tuple(found[1])) if found else None


def _with_subject(plan: QuestionPlan, documents: list[Document], explicit: SearchFilters,
                  is_word: WordCheck | None, owner: OwnerCheck | None) -> QuestionPlan:
    # "in Swiss francs": the currency asked names no company ("Swiss Water Decaffeinated Coffee")
    currency = asked_currency(plan.question)
    question = currency.asked.sub(lambda m: " " * len(m.group(0)), plan.question) if currency else plan.question
    pool = _pool(documents, explicit, years=False)
    held = _held(documents)  # worked out once per set of documents, and kept while they stay the same
    named_as: tuple[str, ...] = ()
    if explicit.companies:
        companies = sorted({held.canonical[d.id] for d in pool if d.id in held.canonical})
    else:
        among = held if pool is documents else _held(pool)
        companies, named_as = not_deal_parties(question, *_mentions(question, among, is_word, owner), among, is_word, owner)
    unheld: list[str] = []
    closest: list[str] = []
    if not explicit.document_ids and not explicit.companies:
        unheld, closest = _unheld_companies(question, held, companies, owner)
    years = plan.years
    if plan.period_end and not explicit.years and _YEAR_END_ASKED.search(question):
        # "the fiscal year ending January 31, 2020" is fiscal 2020 by the filer's calendar, and
        # "ending January 1, 2023" fiscal 2022: the date says which year, not the digits alone.
        years = _dated_by(years, plan.period_end)
    elif not explicit.years:
        # "as of January 1, 2023": the balance at the close of fiscal 2022 (a 52/53-week year)
        for day in year_closing_days(question):
            years = _dated_by(years, day)
    renamed = _as_the_filer_names(years, [d for d in pool if held.canonical.get(d.id) in companies])
    if renamed:
        years = tuple(sorted({dict(renamed).get(y, y) for y in years}))
    return replace(plan, companies=tuple(companies), named_as=named_as, unheld=tuple(unheld), closest=tuple(closest), years=years,
                   renamed=renamed,
                   rewritten=owner_as_the_company(_respelt(question_first(asked_directly(plan.question)), held if pool is documents
                                                           else _held(pool), is_word), companies))


def _as_the_filer_names(years: tuple[int, ...], filings: list[Document]) -> tuple[tuple[int, int], ...]:
    """"Q4 fiscal 2022" of a filer whose release titles the quarter ended January 28, 2023 "Fourth
    Quarter Fiscal 2022": the year it names, and the year before it named beside it, as the index
    holds them (2023, 2022). A year the filer does not name that way keeps its number ("FY2023")."""
    for d in filings:
        named, held = d.meta.named_year, d.meta.fiscal_year
        if named is not None and held is not None and named in years:
            shift = held - named
            return tuple((y, y + shift) for y in sorted(years) if y in (named, named - 1))
    return ()


def _dated_by(years: tuple[int, ...], day: str) -> tuple[int, ...]:
    """The years named, the day's calendar year read as the fiscal year it closes."""
    return tuple(sorted({y for y in years if str(y) != day[:4]} | {fiscal_year_of(day)}))


def _pool(documents: list[Document], explicit: SearchFilters, years: bool = True) -> list[Document]:
    """The documents the explicit filters leave (the same list object when they leave all)."""
    pool = documents
    if explicit.document_ids:
        pool = [d for d in pool if d.id in explicit.document_ids or d.file_name in explicit.document_ids]
    if explicit.companies:
        wanted = {normalize_name(c) for c in explicit.companies}
        pool = [d for d in pool if company_names(d) & wanted]
    if years and explicit.years:
        pool = [d for d in pool if d.meta.fiscal_year in explicit.years]
    if years and explicit.doc_types:
        accepted = {k for t in explicit.doc_types for k in t.family}
        pool = [d for d in pool if d.meta.doc_type in accepted]
    return pool


def _with_filings(plan: QuestionPlan, documents: list[Document], explicit: SearchFilters) -> QuestionPlan:
    """The filings each company's question reads: the period and filing type asked, by each
    company's own calendar (choice.py); one group per company, searched in turn."""
    pool = _pool(documents, explicit)
    if not pool:
        return replace(plan, notes=("no indexed document matches the filters given",))
    if explicit.document_ids:
        return replace(plan, groups=(SearchFilters(document_ids=tuple(d.id for d in pool)),))
    canonical = _held(documents).canonical
    years = [] if explicit.years else list(plan.years)
    groups: list[SearchFilters] = []
    notes: list[str] = []
    ahead: list[int] = []
    for company in plan.companies or (None,):
        candidates = [d for d in pool if company is None or canonical.get(d.id) == company]
        scheduled = _scheduled_in(plan, candidates) if company is not None and not explicit.years else None
        if scheduled is not None:
            ahead.append(scheduled)
        named = [d for d in candidates if d.meta.fiscal_year in (*plan.periods.filings, *ahead[-1:])
                 and (not plan.doc_types or d.meta.doc_type in {k for t in plan.doc_types for k in t.family})]
        if named:
            # "per the 2020 10-K": the filing the question names, for whatever period it asks of it
            groups.append(SearchFilters(document_ids=tuple(d.id for d in named)))
            continue
        chosen, note = choose_documents(candidates, years, plan.quarter, list(plan.doc_types), plan.forward_looking,
                                        latest=plan.latest, period_end=plan.dated,
                                        annual_first=bool(plan.measures) and plan.quarter is None and not plan.doc_types,
                                        day=plan.day, interim=plan.quarter is not None or plan.ytd_months is not None
                                                                    or plan.quarter_span)
        if note:
            notes.append(f"{company or 'all companies'}: {note}")
        if company is None and plan.dated and chosen and len(chosen) < len(candidates):
            groups.append(SearchFilters(document_ids=tuple(d.id for d in chosen)))  # the date singles them out
        elif company is None and not years and not plan.doc_types and not explicit.companies:
            groups.append(SearchFilters())  # nothing named: search everything, unfiltered
        elif chosen:
            groups.append(SearchFilters(document_ids=tuple(d.id for d in chosen)))
    plan = replace(plan, groups=tuple(groups), notes=tuple(notes))
    if ahead:
        # the year asked is the one the filing looks forward to; the filing is where it is read
        target = max(scheduled_years(plan.asked))
        names = frozenset(w.lower() for n in (*plan.companies, *plan.named_as) for w in re.findall(r"[A-Za-z][A-Za-z'-]*", n))
        plan = replace(plan, years=(target,), forward_looking=True,
                       scheduled=scheduled_reading(plan.asked, target, ahead[0], names),
                       periods=replace(plan.periods, years=(target,), quarters=(),
                                       filings=tuple(dict.fromkeys((*plan.periods.filings, *ahead)))))
        if plan.intent in (Intent.VALUE, Intent.TEXT):
            plan = replace(plan, intent=Intent.SCHEDULED)
    return plan


# A 10-K schedules five years ahead and "thereafter"; pension payments run ten years out.
_SCHEDULE_REACH = 10


def _scheduled_in(plan: QuestionPlan, candidates: list[Document]) -> int | None:
    """The fiscal year of the filing that schedules or expects the year asked, when that year lies
    after every filing the company has held ("debt maturing in 2025" of a 2022 10-K): the latest
    filing before it, or the one the question names ("As of FY2021, ... to pay in 2024")."""
    years = scheduled_years(plan.asked)
    held = sorted({d.meta.fiscal_year for d in candidates if d.meta.fiscal_year})
    if not years or not held:
        return None
    before = [y for y in held if max(years) - _SCHEDULE_REACH <= y < max(years)]
    named = [y for y in (*years, *plan.periods.filings, *filing_years(plan.asked)) if y in before]
    if max(years) <= held[-1] and not named:
        return None  # a year held is asked as it was, unless the question names the earlier filing that expected it
    # the schedules are an annual report's: a later quarter's 10-Q or release prints few of them
    annual = [d.meta.fiscal_year for d in candidates if d.meta.fiscal_year in before
              and d.meta.doc_type is not None and d.meta.doc_type.is_annual]
    return max(named or annual or before) if before else None
