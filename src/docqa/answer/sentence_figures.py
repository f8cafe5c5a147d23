"""Figures a filing states only in a sentence: "At December 31, 2018, the Company employed 93,516
people", "we repurchased $2.5 billion of common stock", "dividends declared were $0.45 per share".

Runs after the statement tables found nothing. A sentence answers when it holds every word that
names what is asked (the line item's words, with the synonym table and a shared stem: "employees"
~ "employed"), an amount of the kind asked (a count, a per-share amount, a percentage, money), and
the period asked: a year it names, or none, in the filing of that year. The amount taken is the
first of that kind after the asked words (the first before them when none follows), next to the
year asked when the sentence names several. Two sentences that state different amounts equally
well are no answer: wrong is worse than not found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from docqa.answer.contract import Evidence
from docqa.answer.extractive import units
from docqa.finance import formulas as F
from docqa.finance.periods import quarters_named
from docqa.finance.rowlookup import STOP, has_word, normalized, phrase_words, variants
from docqa.finance.text import stems
from docqa.plan import QuestionPlan
from docqa.plan.format import fits_kind_asked
from docqa.plan.topic import DEAL_VERBS
from docqa.plan.line_text import leaf_text
from docqa.text import fold
from docqa.types import Citation, Draft, EvidencePage, Figure
from docqa.verify.numbers import Number, numbers_at

ANSWERER = "sentences"
MIN_STEM = 5           # a shared stem this long makes two words one ("employees", "employed")
MAX_GAP = 160          # characters between the asked words and the amount
MAX_CHAIN = 2          # sentences a sentence may speak of through "these actions", "the offering"
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_PER_SHARE_AFTER = re.compile(r"^\s*(?:per|a)\s+(?:diluted\s+|basic\s+|common\s+)?(?:share|cdi|ads|unit)\b", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’&-]*")
# a sentence of what is to come: "we project capital expenditures will be approximately $17 billion"
_FORWARD_SAID = re.compile(r"\b(?:expect\w*|anticipat\w*|project(?:s|ed)?|plan(?:s|ned)?|estimat\w*|will|"
                           r"guidance|outlook|forecast\w*|intend\w*)\b", re.I)


@dataclass(frozen=True)
class Stated:
    """An amount a sentence states for what was asked."""

    number: Number
    kind: str            # count | per_share | percent | currency
    sentence: str
    page: EvidencePage
    gap: int             # characters between the asked words and the amount
    rank: int            # the page's place in the evidence
    upto: str = ""       # the range's other end as printed: "$650 million to $700 million"


class SentenceFigureAnswerer:
    name = ANSWERER

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None:
        if not _asks_one_stated_figure(plan):
            return None
        subject, hard = asked_words(plan, plan.main_clause)
        return stated_answer(plan, evidence, subject, hard)


def stated_answer(plan: QuestionPlan, evidence: Evidence, subject: str, hard: list[str], ahead: bool = False,
                  kind: str | None = None) -> Draft | None:
    """The amount sentences state for the ``hard`` words, when one sentence states it best; ``ahead``:
    the year asked is the one after the filing's, which a forward sentence may leave unnamed; ``kind``:
    the kind of amount, when the caller knows it better than the plan's words."""
    if not hard:
        return None
    found = stated_for(plan, evidence, hard, kind or _kind_asked(plan), plan.counted or "", ahead)
    if not found:
        return None
    found.sort(key=lambda s: (s.gap, s.rank))
    best = found[0]
    rival = next((s for s in found[1:] if s.sentence != best.sentence
                  and abs(s.number.magnitude - best.number.magnitude) > best.number.tolerance), None)
    if rival is not None and rival.gap <= best.gap * 1.25 + 10:
        return None  # two sentences state different amounts about as well
    return _draft(best, subject, max(plan.years) if plan.years else best.page.year, plan)


def asked_words(plan: QuestionPlan, text: str) -> tuple[str, list[str]]:
    """The words of what is asked (the line's words, the company's names left out) and their stems
    that a sentence must hold."""
    company = plan.company_stems
    subject = leaf_text(text, company)
    return subject, [w for w in phrase_words(subject)[0] if w not in company]


def stated_for(plan: QuestionPlan, evidence: Evidence, hard: list[str], kind: str, counted: str,
               ahead: bool = False) -> list[Stated]:
    """The amounts of ``kind`` sentences state for the asked words: the retrieved pages first, then,
    when they state none, every page of the filing asked (search ranks pages by the question's words,
    and a sentence may say it in others: "how many people ... employ" / "we had 6 employees")."""
    year = max(plan.years) if plan.years else None
    nouns = [w for w in phrase_words(counted)[0][-1:]] or hard
    # "Fios internet connections": the words that say which kind of the noun is counted
    kinds = [w for w in phrase_words(counted)[0][:-1] if w not in _COUNTED_AS and w not in _OWN]
    change = plan.reading.over_time is not None or plan.moves is not None
    said = plan.as_the_filer_names(year)   # how the filing's sentences name the year asked
    asked = frozenset(w for term in plan.terms for w in normalized(stems(term)))
    found = [s for rank, page in enumerate(evidence.pages)
             for s in stated_in(page, rank, hard, kind, year, nouns, plan.quarter, kinds, change, said, asked, ahead)]
    if not found and evidence.filings is not None:
        found = [s for rank, page in enumerate(filing_pages(plan, evidence, evidence.filings), len(evidence.pages))
                 for s in stated_in(page, rank, hard, kind, year, nouns, plan.quarter, kinds, change, said, asked, ahead)]
    return found


MAX_FILING_PAGES = 400   # a longer document is a compilation, not one filing to read whole


def filing_pages(plan: QuestionPlan, evidence: Evidence, filings) -> list[EvidencePage]:
    """Every page of the filing asked: the plan's first company's filings when it chose one, else
    the best retrieved page's; the rest of the retrieved pages' sentences were read already."""
    ids = [i for g in plan.groups[:1] for i in g.document_ids]
    if len(ids) != 1:
        ids = [p.document_id for p in evidence.pages[:1]]
    seen = {(p.document_id, p.page) for p in evidence.pages}
    out: list[EvidencePage] = []
    for document_id in ids:
        document = filings.document(document_id)
        if document is None:
            continue
        pages = filings.pages(document_id)
        if len(pages) > MAX_FILING_PAGES:
            continue
        out += [EvidencePage(label="P", document=document.file_name, document_id=document_id, page=page.number,
                             text=page.text, company=document.meta.company, year=document.meta.fiscal_year)
                for page in pages if (document_id, page.number) not in seen]
    return out


def _asks_one_stated_figure(plan: QuestionPlan) -> bool:
    return (plan.asks_figure and not plan.verdict and not plan.why and plan.composition is None
            and not plan.parts and plan.pick is None and plan.judgement is None
            and not (plan.quarter_span and plan.quarter is None)  # a quarter by its end date: the tables' column
            and (plan.reading.over_time is None or (plan.reading.over_time == "growth" and "percent" in plan.kinds))
            and not plan.which and plan.line is None)


def _kind_asked(plan: QuestionPlan) -> str:
    if "per_share" in plan.kinds:
        return "per_share"
    if "count" in plan.kinds:
        return "count"
    if "share_of" in plan.kinds or "percent" in plan.kinds:
        return "percent"
    return "currency"


def holds_word(sentence_stems: set[str], word: str) -> bool:
    """The word, a synonym, or a form of it ("employees", "employed": a stem shared to all but
    the last two letters of the shorter)."""
    if has_word(sentence_stems, word):
        return True
    if any(has_word(sentence_stems, form) for form in _deal_forms(word)):
        return True  # "sell" ~ "disposed", "buy back" ~ "repurchased": a deal in the filing's verb
    # a form of the word or of a synonym ("people" ~ "employees" ~ "employed")
    return any(_shared(s, v) >= max(MIN_STEM, min(len(s), len(v)) - 2)
               for v in variants(word) if len(v) >= MIN_STEM for s in sentence_stems)


@lru_cache(maxsize=1024)
def _deal_forms(word: str) -> tuple[str, ...]:
    for verb, forms in DEAL_VERBS.items():
        if tuple(stems(verb)) == (word,) or any(tuple(stems(f)) == (word,) for f in forms if " " not in f):
            return tuple(s for f in (verb, *forms) if " " not in f for s in stems(f))
    return ()


def _shared(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def stated_in(page: EvidencePage, rank: int, hard: list[str], kind: str, year: int | None,
            counted: list[str], quarter: int | None = None, kinds: list[str] = (), change: bool = False,
            said: int | None = None, asked: frozenset[str] = frozenset(), ahead: bool = False) -> list[Stated]:
    """The amounts of ``kind`` the page's sentences state for the asked words; ``change``: a change
    is what is asked, so "increased by $52.5 million" answers; ``said``: the year asked as the
    filing's sentences name it (``year``: as the index dates the filing); ``asked``: every word of the
    question, which a count's own words must be among ("470 eligible employees" is no headcount)."""
    said = year if said is None else said
    out = []
    headless = not any(any(holds_word({w}, n) for n in _AMOUNT_NOUNS) for w in hard)
    # what the sentences before speak of: the one before, and those before it while each speaks of the
    # one before ("we closed an underwritten offering ... The offering was led by ... The gross proceeds
    # from the offering were $32.5 million")
    prior, told, chained = set(), "", 0
    for sentence in units(page):
        prior_stems, prior_told = prior, told
        prior, told = set(), sentence
        if "  " in sentence or _ABOUT_A_PERSON.match(sentence):
            continue  # a table row (the tables were read before); an officer's career ("She was responsible for ...")
        folded = fold(sentence)
        words = [(m.start(), m.end(), normalized(stems(m.group(0)))) for m in _WORD.finditer(folded)]
        sentence_stems = {s for _, _, st in words for s in st}
        prior = sentence_stems
        if prior_stems and chained < MAX_CHAIN and _refers_back(sentence, prior_stems):
            prior, told, chained = prior_stems | sentence_stems, f"{prior_told} {sentence}", chained + 1
        else:
            chained = 0
        if quarter is not None and quarters_named(sentence) != {quarter}:
            continue  # a quarter asked: the sentence names that quarter, and no other
        missing = [w for w in hard if not holds_word(sentence_stems, w)]
        if missing and not (len(missing) < len(hard) and _refers_back(sentence, prior_stems, hard)
                            and all(holds_word(prior_stems, w) for w in missing)):
            continue
        # "These actions affected approximately 1,300 positions": what they are, the sentences before say
        # (their words are read with it, its own amounts only: from ``own_from``)
        own_from = len(prior_told) + 1 if missing else 0
        if missing:
            sentence, words = f"{prior_told} {sentence}", [(a + own_from, b + own_from, st) for a, b, st in words]
            folded = fold(sentence)
        years = [(m.start(), int(m.group(0))) for m in _YEAR.finditer(sentence)]
        if said is not None and years and said not in {y for _, y in years} \
                and not _counted_at_filing(sentence, page, year, kind):
            continue  # about another year
        if year is not None and not years and page.year != year \
                and not (ahead and page.year == year - 1 and _FORWARD_SAID.search(sentence)):
            continue  # no year named: the filing's own year only (or, ahead, the next that its outlook speaks of)
        # "the book value ... after the impairment was $1,952,597": the amount is what the asked
        # words qualify, not theirs
        holding = [any(holds_word(set(st), w) for w in hard) for _, _, st in words]
        asked_at = [(start, end) for k, (start, end, _) in enumerate(words)
                    if holding[k] and not _qualified_run(folded, words, holding, k)]
        if not asked_at:
            continue
        candidates: list[tuple[int, Stated]] = []
        stated = [(start, end, number) for start, end, number in numbers_at(sentence, claims_only=True)
                  if start >= own_from and _kind_of(sentence, start, end, number) == kind]
        respective = _respective_years(sentence, years, stated)
        for start, end, number in stated:
            if kind == "count" and (not _counts_what_was_asked(sentence, start, end, counted)
                                    or _counts_another_kind(sentence, end, counted, kinds, asked)):
                continue  # "stores in all 50 states", "8 million total broadband connections": other things counted
            if not _of_the_year(start, years, respective, said):
                continue
            if _another_figure_before(folded[:start], change):
                continue
            for gap, between, follows in _sides(folded, start, end, asked_at):
                # "2,100 full-time equivalent employees": words that qualify the noun counted
                qualifies = kind == "count" and follows and _QUALIFIERS.fullmatch(between) is not None
                if change and kind == "percent" and not _MOVED.search(between):
                    continue  # growth asked: the percentage a verb of moving states ("grew by $653.9 million, or 74%")
                if gap <= MAX_GAP and (_links(between, longer=bool(respective), heads=headless, ahead=ahead) or qualifies):
                    upto = _RANGE_END.match(sentence[end:])
                    candidates.append((_reach(words, [w for w in hard if w not in missing], start, end, folded),
                                       Stated(number, kind, sentence, page, gap, rank, upto.group(1) if upto else "")))
                    break
        if candidates:
            # "recognized $3,144,053 impairment loss ..., including $3,111,232 impairment loss of Bitcoins":
            # of the amounts that stand with the asked words, the one all of them stand nearest
            out.append(min(candidates, key=lambda c: c[0])[1])
    return out


_RUN_JOINERS = frozenset(("for", "and", "of", "on"))


def _qualified_run(folded: str, words, holding: list[bool], k: int) -> bool:
    """Does "after", "net of", "excluding" ... lead the run of asked words the ``k``-th word is in
    ("trade receivables, net of allowance for doubtful accounts, was $1.88 billion": not the allowance)?"""
    j = k - 1
    while j >= 0 and (holding[j] or folded[words[j][0]:words[j][1]] in _RUN_JOINERS) and \
            not folded[words[j][1]:words[j + 1][0]].strip():
        if holding[j]:
            k = j
        j -= 1
    start = words[k][0]
    return _QUALIFYING.search(folded[max(0, start - 30):start]) is not None


def _another_figure_before(before: str, change: bool) -> bool:
    """Do the words just before an amount make it another figure than the one asked?"""
    return bool(_A_BOUND.search(before[-30:])          # "more than 180 stores": a bound the sentence sets
                or _PART_OF_THE.search(before)         # "Of the full-time employees, 68 were ...": a part of it
                # "costs increased by $52.5 million", "an increase of $29.6 million in": a change, not the amount
                or (not change and _A_CHANGE.search(before[-40:])))


def _of_the_year(start: int, years: list[tuple[int, int]], respective: dict[int, int], said: int | None) -> bool:
    """The amount at ``start`` is the year asked's: in a list given "respectively", the one in the year's
    place ("$224.7 million, $142.7 million, and $101.9 million, respectively"); else the one nearest it."""
    if said is None:
        return True
    if respective:
        return respective.get(start) == said
    return len(years) <= 1 or _nearest_year(years, start) == said


def _sides(folded: str, start: int, end: int, asked_at: list[tuple[int, int]]) -> list[tuple[int, str, bool]]:
    """(gap, the words between, after?) of the asked words before the amount ("dividends declared were
    $0.45"), else after it ("$2.5 million impairment of plant and equipment")."""
    before = [(start - e, e) for s, e in asked_at if e <= start]
    after = [(s - end, s) for s, e in asked_at if s >= end]
    sides = []
    if before:
        gap, at = min(before)
        sides.append((gap, folded[at:start], False))
    if after and (not before or _PARTS_FOLLOW.search(sides[0][1])
                  or (min(after)[0] <= 1 < sides[0][0] and not _RESTATED.search(sides[0][1]))):
        # an amount after "including" is one part's, named after it ("including $3,111,232 impairment
        # loss of Bitcoins"), and so is a count whose noun stands right after it when the asked words
        # before are not next to it ("Store Development We had 1,138 stores"); otherwise words before
        # that do not link make it another thing's ("reduction of our workforce by approximately 67%,
        # or 12 employees", which restates a change)
        gap, at = min(after)
        sides.append((gap + MAX_GAP // 2, folded[end:at], True))
    return sides


_RESTATED = re.compile(r"[,;:%()]|\b(?:by|or)\b", re.I)
_AS_OF_A_DAY = re.compile(r"\bas\s+of\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+((?:19|20)\d\d)",
                          re.I)


def _counted_at_filing(sentence: str, page: EvidencePage, year: int, kind: str) -> bool:
    """"As of February 22, 2023, we had 107 full-time employees" in the fiscal 2022 annual report: a
    count the year's own filing gives as of a day just after the year closed."""
    dated = _AS_OF_A_DAY.search(sentence)
    return (kind == "count" and page.year == year and dated is not None and int(dated.group(1)) == year + 1
            and all(int(y) == year + 1 for y in _YEAR.findall(sentence)))


def _reach(words: list[tuple[int, int, list[str]]], hard: list[str], start: int, end: int, folded: str) -> int:
    """How far from the amount the farthest asked word stands, each at its nearest place: after the
    amount, or before it within its clause ("employed approximately 295,000 colleagues"); a word before
    it across "and" or a comma is another item's ("... of Bitcoins and $5,864 impairment loss of other
    cryptocurrencies")."""
    far = 0
    for word in hard:
        gaps = [s - end if s >= end else start - e for s, e, st in words
                if holds_word(set(st), word) and (s >= end or (e <= start and not _ANOTHER_ITEM.search(folded[e:start])))]
        far = max(far, min(gaps, default=10 ** 6))
    return far


# "increased by $52.5 million", "an increase of $29.6 million in": the change, not the level
_A_CHANGE = re.compile(r"\b(?:(?:increas|decreas|grew|grow|rose|rise|risen|fell|fall|declin|drop|reduc|jump|climb)\w*\s+by"
                       r"|(?:an?\s+)?(?:increase|decrease|decline|reduction|rise|drop|growth)\s+of)"
                       r"\s+(?:approximately\s+|about\s+|nearly\s+|roughly\s+)?$", re.I)
_PARTS_FOLLOW = re.compile(r"\b(?:including|of\s+which|comprising|consisting\s+of|comprised\s+of)\b", re.I)
_ANOTHER_ITEM = re.compile(r"\band\b|[,;(]")


# Words that may stand between what is asked and its amount: "dividends declared were $0.45",
# "headcount of approximately 93,516", "repurchased shares for $2.5 billion in 2018". Anything else
# ("operating income for 2018 also includes a $43 million loss") makes the amount another thing's.
_LINKING = frozenset(
    "was were is are be been of totaled totalled totaling totalling total amounted amounting to approximately "
    "about nearly roughly around some over more than less almost reached increased decreased grew rose fell "
    "declined by in for the a an at as of during fiscal year years ended ending end we our its their had have "
    "has and which were worth with on "
    # "a workforce made up of approximately 116,000 employees"
    "made up consisting comprised composed "
    # "proceeds to the Company were": the filer
    "company".split())
# "advertising costs for the years ended ... were", "cash proceeds of": the head noun of an amount
# asked without one ("spend on advertising", "cash received"); beside another amount's noun asked
# ("gross proceeds"), "offering expenses of $2.3 million" are another amount
_HEADS = frozenset("cost costs expense expenses proceeds".split())
_AMOUNT_NOUNS = frozenset(stems("proceeds cost expense revenue sales income gain loss price payment fee charge "
                                "consideration"))
_MONTH_WORDS = frozenset("january february march april may june july august september october november december".split())


_PART_OF_THE = re.compile(r"\bof\s+(?:the|our|its|their|these|those|such|all)\s+[^,;]{1,60},\s*(?:approximately\s+|about\s+)?$", re.I)
_A_BOUND = re.compile(r"\b(?:(?:more|fewer|less|greater)\s+than|at\s+least|at\s+most|up\s+to|in\s+excess\s+of|over)\s*[$\u20ac\u00a3]?\s*$",
                      re.I)
_ABOUT_A_PERSON = re.compile(r"^\W*(?:she|he|mr\.?|ms\.?|mrs\.?|dr\.?)\s", re.I)
_QUALIFYING = re.compile(r"\b(?:after|before|net\s+of|following|excluding|less)\s+(?:the\s+|its\s+|any\s+|an?\s+)?$", re.I)
_QUALIFIERS = re.compile(r"\s*(?:[A-Za-z][\w-]*\s+){0,3}")


# what links a later year's amount to its words: "capital expenditures for 2024 are expected to be approximately"
_FORWARD_LINKING = frozenset(
    "will expected expect expects anticipated anticipate anticipates projected project projects estimated estimate "
    "estimates planned plan plans budgeted forecast forecasted range ranging between be".split())


def _links(between: str, longer: bool = False, heads: bool = False, ahead: bool = False) -> bool:
    """``longer``: the words may hold a list of years ("for the years ended December 31, 2020, 2019,
    and 2018 were"). The same change as an amount may stand first ("grew by $653.9 million, or 74%").
    ``heads``: an amount's head noun may stand there ("advertising costs ... were")."""
    between = _SAID_AS_AN_AMOUNT.sub(" ", between.lower())
    if longer:
        between = _AN_AMOUNT.sub(" ", between)  # the list's amounts before this one ("were $224.7 million, ")
    words = re.findall(r"[a-z]+", between)
    return len(words) <= (10 if longer else 6) and all(w in _LINKING or w in _MONTH_WORDS or (heads and w in _HEADS)
                                                       or (ahead and w in _FORWARD_LINKING) for w in words)


# "approximately $650 million to $700 million", "between 4% and 6%": an estimate given as a range
_RANGE_END = re.compile(r"^\s*(?:to|-|\u2013|through)\s*([$€£]?\s?\d[\d,]*(?:\.\d+)?(?:\s*(?:million|billion|thousand)\b|%)?)",
                        re.I)
# "these actions", "this divestiture", "the offering": a noun the sentence before names, pointed back at
_POINTED = re.compile(r"\b(?:this|these|such|those|the)\s+((?:[a-z-]+\s+){0,2}?[a-z][a-z-]{3,})\b", re.I)


def _refers_back(sentence: str, prior: set[str], hard: list[str] | None = None) -> bool:
    """The sentence speaks of what the one before names ("The shares ... were sold at $6.75"); with
    ``hard``, of a thing asked about: "These actions affected ...", "The gross proceeds from the
    offering" after "we closed an underwritten offering"."""
    for m in _POINTED.finditer(fold(sentence)):
        noun = m.group(1).split()[-1].lower()
        if noun in _NOT_A_THING:
            continue
        said = set(normalized(stems(noun)))
        if (hard is None or any(holds_word(said, w) for w in hard)) and \
                (m.group(0).lower().split()[0] != "the" or said & prior):
            return True
    return False


# "the Company", "the year": words that refer to the filer or the period, not to a thing the sentence before names
_NOT_A_THING = frozenset("company group year years period quarter first second third fourth same following other total "
                         "fiscal end".split())
_SAID_AS_AN_AMOUNT = re.compile(r"[$\u20ac\u00a3]?\s?\d[\d,.]*\s*(?:million|billion|thousand)?\s*,?\s*or\s*$")
_AN_AMOUNT = re.compile(r"[$\u20ac\u00a3]?\s?\d[\d,.]*\s*(?:million|billion|thousand)?")
_MOVED = re.compile(r"\b(?:increas|decreas|grew|grow|rose|rise|risen|fell|fall|declin|drop|reduc|jump|climb|up|down)\w*\b", re.I)
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)


def _respective_years(sentence: str, years: list[tuple[int, int]], stated: list[tuple[int, int, Number]]) -> dict[int, int]:
    """Each amount's year when a sentence lists as many years as amounts "respectively" ("$11,925,
    $11,700 and $11,475 for 2015, 2014 and 2013, respectively"): the amount's start -> its year."""
    if len(stated) < 2 or len(stated) != len(years) or not _RESPECTIVELY.search(sentence):
        return {}
    return {start: year for (start, _, _), (_, year) in zip(stated, years)}


def _counts_what_was_asked(sentence: str, start: int, end: int, hard: list[str]) -> bool:
    """A count states what was asked when the noun after it is the noun counted ("1,026 stores") or
    a form of it stands just before it ("employed 93,516 people", "stores: 1,026")."""
    text = fold(sentence)
    after = _WORD.findall(text[end:end + 50])[:5]   # "2,100 full-time equivalent employees", "50,110 full- and part-time employees"
    before = _WORD.findall(text[max(0, start - 40):start])[-3:]
    if _a_modifier_of_another_noun(text[end:end + 60], hard):
        return False  # "10,330 patent matters": matters, not patents
    return any(holds_word(set(normalized(stems(w))), h) for w in after + before for h in hard)


def _a_modifier_of_another_noun(after: str, hard: list[str]) -> bool:
    """The noun asked stands in the words after a count, but another noun ends them: "10,330 patent
    matters worldwide" counts matters."""
    words = []
    for w in _WORD.findall(re.split(r"[,;:()]", after, maxsplit=1)[0]):
        if w.lower() in _PHRASE_ENDS or w.lower().endswith("wide") or (w.lower().endswith("ly") and len(w) > 4):
            break
        words.append(w)
    stemmed = [set(normalized(stems(w))) for w in words]
    at = [i for i, st in enumerate(stemmed) if any(holds_word(st, h) for h in hard)]
    return bool(at) and max(at) < len(words) - 1


# where the noun phrase after a count ends: a preposition, a verb, a conjunction
_PHRASE_ENDS = frozenset("in of at for with within from to by on under over per across through during into after before "
                         "since via about against among between than and or but as were was are is had have has which "
                         "that who consisting comprising including located held issued pending outstanding".split())


# Words a count's noun may carry that say how it is counted, not which things: "2,100 full-time
# equivalent employees", "approximately 1,000 new stores".
_OWN = frozenset(stems("own its their such"))
_COUNTED_AS = frozenset(stems("total full time part full-time part-time equivalent equivalents approximately about "
                              "some over nearly more than net new additional active average retail global worldwide "
                              "common ordinary"))


def _counts_another_kind(sentence: str, end: int, counted: list[str], kinds: list[str],
                         asked: frozenset[str] = frozenset()) -> bool:
    """The words between a count and the noun counted name another kind than the one asked ("8
    million total broadband connections" when Fios internet connections are asked): none of the
    asked kind's words, and some of their own. With no kind asked, a word of its own that the
    question does not hold makes the count a part ("470 eligible employees" is not the headcount)."""
    after = [normalized(stems(w)) for w in _WORD.findall(fold(sentence)[end:end + 80])[:6]]
    head = next((k for k, st in enumerate(after) if any(holds_word(set(st), h) for h in counted)), None)
    if not head:
        return False
    between = {w for st in after[:head] for w in st if w not in _COUNTED_AS and w not in STOP}
    if kinds:
        return bool(between) and not any(holds_word(between, k) for k in kinds)
    return any(not holds_word(set(asked), w) for w in between)


def _kind_of(sentence: str, start: int, end: int, number: Number) -> str | None:
    raw = number.raw
    if number.percent:
        return "percent"
    if "$" in raw or "€" in raw or "£" in raw:
        return "per_share" if _PER_SHARE_AFTER.match(fold(sentence)[end:]) else "currency"
    if number.scale > 1:  # "10.9 million shares" is no amount of money (a count); "2.5 billion dollars" is
        if re.match(r"^\s*(?:u\.?s\.?\s+)?(?:dollars?|usd)\b", fold(sentence)[end:], re.I):
            return "currency"
        return "count" if re.match(r"^\s*[a-z]", fold(sentence)[end:]) else None
    if number.magnitude >= 1 and number.decimals == 0 and not raw.startswith("("):
        return "count"  # "(9) Employee Benefit Plans": a note's number, and no count is negative
    return None


def _day(iso: str) -> str:
    import datetime as dt

    day = dt.date.fromisoformat(iso)
    return f"{day:%B} {day.day}, {day.year}"


def _nearest_year(years: list[tuple[int, int]], at: int) -> int:
    return min(years, key=lambda y: abs(y[0] - at))[1]


def _draft(found: Stated, subject: str, year: int | None, plan: QuestionPlan) -> Draft:
    number, page = found.number, found.page
    # The measure as the question names it ("dividend per share"), else the words asked around it.
    named = plan.reading.asked[0].text if len(plan.reading.asked) == 1 else subject
    if named != subject and not fold(subject).lower().startswith(fold(named).lower().split()[0]):
        named = subject   # "shipping expenses ... cost of revenue": the words before the measure narrow it
    if plan.reading.asked and not fits_kind_asked(plan.reading.asked[0], plan):
        named = subject   # "average price per share repurchase common stock", not the buyback's amount
    if found.kind == "count" and plan.counted and not plan.reading.asked:
        named = f"number of {plan.counted}"   # "How many people did X employ": the number of people
    if plan.reading.over_time == "growth":
        named = f"{named} growth"
    label = named[:1].upper() + named[1:]
    period = f"fiscal {year}" if year else "the filing's period"
    if plan.quarter is not None and year:
        period = f"Q{plan.quarter} fiscal {year}"
    if plan.balance_day and plan.balance_day[:4] in found.sentence:
        period = f"{_day(plan.balance_day)}"   # "as of January 31, 2023": the day the sentence states it
    if found.kind == "currency":
        millions = number.magnitude / 1e6
        shown = F.render(millions, "currency", plan.format, "millions")
        figure = Figure(name=label, value=millions, text=number.raw, unit="USD", scale=1e6,
                        period=str(year) if year else None, document=page.document, page=page.page)
    elif found.kind == "per_share":
        shown = F.render(number.magnitude, "per_share", plan.format)
        figure = Figure(name=label, value=number.magnitude, text=number.raw, unit="USD/share",
                        period=str(year) if year else None, document=page.document, page=page.page)
    elif found.kind == "percent":
        shown = number.raw
        figure = Figure(name=label, value=number.magnitude, text=number.raw, unit="%",
                        period=str(year) if year else None, document=page.document, page=page.page)
    else:
        count = number.magnitude   # "3.8m shares": 3,800,000
        shown = f"{count:,.0f}" if number.scale == 1 else f"{number.raw.strip('()')} ({count:,.0f})"
        figure = Figure(name=label, value=count, text=number.raw,
                        period=str(year) if year else None, document=page.document, page=page.page)
    if found.upto:
        shown = f"{shown} to {found.upto}"   # the range the filing gives, both ends
    return Draft(
        text=f"{label} for {period}: {shown} (as stated: “{found.sentence}”, {page.document} p. {page.page}).",
        found=True, figures=(figure,), answerer=ANSWERER, measure=label,
        citations=(Citation(document=page.document, document_id=page.document_id, page=page.page,
                            quote=found.sentence),))
