"""The sentences a disclosure yes/no reads: every sentence of a filing that prints the topic's words
(``scan``), and what each one says of it: whether it is negated, supposed (a possibility, a policy, a
method), stated (a past verb, an amount), or dated another year, after the period, or not on the day
asked. The verdict is ``disclosure.py``'s."""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.answer.extractive import units
from docqa.plan.topic import (_STOP, DEAL_VERBS, Slot, Topic_, _stem, _words, verb_base)
from docqa.store.base import StoredPage
from docqa.types import Document, EvidencePage

MAX_QUOTE_CHARS = 420  # a long paragraph is quoted as the stretch of words around the match

# --- sentences -----------------------------------------------------------------------------------

_NEGATIONS = frozenset(
    "no not none never neither nor without cannot didn doesn don wasn weren hasn haven hadn isn aren won "
    "wouldn nothing nobody".split())
_NEGATION_BEFORE = 8   # words before the match a "no"/"not" governs ("None of our reporting units incurred any ...")
_NEGATION_AFTER = 4    # ... and after it ("goodwill was not impaired")
_SUPPOSED = re.compile(
    r"\b(?:may|might|could|would|should|shall|can|if|hereby|herein|hereunder|whether|unless|potential(?:ly)?|possibl[ey]|possibility|"
    r"in\s+the\s+event|risks?\s+(?:of|that)|there\s+(?:can|is)\s+no\s+assurance|to\s+the\s+extent|"
    r"annually|at\s+least\s+annually|whenever|policy|policies|we\s+(?:test|evaluate|assess|review)|"
    r"(?:is|are)\s+(?:tested|evaluated|assessed|reviewed|calculated|computed|determined)|generally|typically|"
    r"from\s+time\s+to\s+time)\b",
    re.I,
)
# Words that make the matched words a prospect, a permission or a rule rather than something that
# happened ("will balance ... through the payment of dividends", "restricted from paying
# dividends", "rests within the discretion of our board"): looked for near the match only, since a
# sentence that reports an event may go on to say what it will bring.
_FRAMING = re.compile(
    r"\b(?:will|expects?|expected|anticipates?|intends?|believes?|restrict\w*|prohibit\w*|ability|discretion|entitled|"
    r"permit|permits|permitted|in\s+order\s+to|subject\s+to)\b")
_EVENT_SPAN = 8       # words between an event's verb and its object ("paid ... dividends")
_FRAMING_BEFORE = 8   # words before the match, and after it, within its clauses
_FRAMING_AFTER = 14
# "Dividend income is recognised ... when the right to receive payment is established": an
# accounting policy, in the present tense, says what is done whenever it happens, not that it did.
_POLICY = re.compile(r"\b(?:is|are)\s+(?:recogni[sz]ed|recorded|measured|accrued)\b(?:\W+\w+){0,12}?\W+when\b", re.I)
_PROCEDURE_WORDS = (
    "test", "tests", "testing", "analysis", "analyses", "assessment", "assessments", "review", "evaluation",
    "process", "policy", "policies", "model", "methodology", "considerations", "indicators", "triggers",
    "triggering", "assumptions", "estimates", "framework", "guidance", "standard", "accounting")
# A sentence that states something happened, and one that gives its size.
_STATED = re.compile(
    r"\b(?:recorded|recognized|recognised|incurred|announced|completed|approved|declared|paid|increased|raised|"
    r"acquired|filed|settled|launched|introduced|initiated|commenced|authorized|adopted|took|taken|reported|"
    r"entered\s+into|agreed\s+to|resulted\s+in|elected|appointed|named|implemented|repurchased|issued)\b", re.I)
# A deal done, when a deal is asked ("did X sell Y"): "disposed of its full holdings", "repaid the term loan".
_DONE = re.compile(r"\b(?:sold|disposed|divested|bought|purchased|repaid|prepaid|redeemed|refinanced|borrowed|drew|"
                   r"opened|closed|exited|hired|won|spun|met|achieved|extinguished)\b", re.I)
# "the votes were cast for the proposal", "the compensation was approved": a past passive.
_PASSIVE_PAST = re.compile(
    r"\b(?:was|were|has\s+been|have\s+been|had\s+been)\s+(?:\w+ly\s+)?(?:\w+ed|cast|held|made|paid|set|sold|spent|"
    r"taken|given|done|won|lost|brought|bought|granted|issued|begun|undertaken)\b", re.I)
_AMOUNT = re.compile(r"[$€£]\s?\d|\d\s?%|\b\d[\d,.]*\s+(?:million|billion|thousand)\b", re.I)
# "Any material legal battles": the filing's own word that the matter is not material answers it.
_IMMATERIAL = re.compile(
    r"\b(?:not|no)\s+(?:\w+\s+){0,4}?(?:a\s+)?material(?:ly)?\b|\bimmaterial\b|\bnot\s+(?:be\s+)?(?:significant|material)\b",
    re.I)
_BOILERPLATE = re.compile(r"forward[\s-]looking\s+statements?|safe\s+harbor|cautionary\s+(?:note|statement)", re.I)


_PROCEDURE = frozenset(_stem(w) for w in _PROCEDURE_WORDS)


# --- scanning --------------------------------------------------------------------------------------

@dataclass
class Found:
    document: Document
    page: int
    sentence: str           # as printed (a stretch of it when long)
    negated: bool
    supposed: bool
    score: float
    stated: bool = False     # says something happened, or gives its size
    immaterial: bool = False  # calls the matter not material


def _phrase_at(stems: list[str], phrase: tuple[str, ...]) -> list[int]:
    """Positions of the phrase's words in the sentence, in order, with at most a word or two
    between them besides small words ("increased the quarterly dividend"); [] when absent."""
    if len(phrase) == 1:
        return next(([i] for i, s in enumerate(stems) if s == phrase[0]), [])
    slack = 1 if len(phrase) == 2 else 2
    content = [i for i, s in enumerate(stems) if s not in _STOP]
    order = {pos: k for k, pos in enumerate(content)}
    for pos in content:
        if stems[pos] != phrase[0]:
            continue
        positions = [pos]
        k = order[pos]
        for word in phrase[1:]:
            nxt = next((content[j] for j in range(k + 1, min(len(content), k + 2 + slack))
                        if stems[content[j]] == word), None)
            if nxt is None:
                positions = []
                break
            positions.append(nxt)
            k = order[nxt]
        if positions:
            return positions
    return []


def _match(sentence_stems: list[str], slots: list[Slot]) -> list[int] | None:
    """Positions of every slot's match in the sentence; None when a slot is missing."""
    positions: list[int] = []
    for slot in slots:
        hit = next((p for p in (_phrase_at(sentence_stems, ph) for ph in slot.phrases) if p), None)
        if hit is None:
            return None
        positions.extend(hit)
    return positions


def _verb_far_from_object(stems: list[str], topic: Topic_) -> bool:
    """"... opportunities to sell equity, ..., repurchase common stock, pay dividends": the asked
    verb ("pay") must stand near the topic's first words, when the verb is one of the topic's slots."""
    verb = next((slot for slot in topic.slots if slot.label == topic.verb), None)
    objects = [slot for slot in topic.slots if slot is not verb]
    if verb is None or not objects:
        return False

    def places(slot: Slot) -> list[int]:
        return [i for i, stem in enumerate(stems) if any(stem == phrase[0] for phrase in slot.phrases)]

    at_verb, at_object = places(verb), places(objects[0])
    if not at_verb or not at_object:
        return False
    return min(abs(a - b) for a in at_verb for b in at_object) > _EVENT_SPAN


def _negated_later(stems: list[str], words: list[str], at: list[int], slots: list[Slot]) -> bool:
    """The words asked, named again later in the sentence under a negation: "Commercial Paper and
    Back-up Credit Facilities The Company did not have any commercial paper outstanding" (a heading
    run into its sentence names them first)."""
    for _ in range(2):
        rest = ["" if i <= min(at) else s for i, s in enumerate(stems)]
        again = _match(rest, slots)
        if again is None:
            return False
        if _negated(words, again):
            return True
        at = again
    return False


def _negated(words: list[str], positions: list[int]) -> bool:
    lo, hi = min(positions), max(positions)
    start = max(0, lo - _NEGATION_BEFORE)
    window = words[start: hi + _NEGATION_AFTER + 1]
    return any(w in _NEGATIONS or (w in _NONE_AMOUNTS and _an_amount_of_none(words, start + i))
               for i, w in enumerate(window))


# "(with zero drawn)", "nil outstanding": an amount of none; "net zero emissions" and "zero-coupon notes" are not.
_NONE_AMOUNTS = frozenset(("zero", "nil"))
_NOT_NONE_AFTER = frozenset("coupon emissions emission carbon waste based sum tolerance".split())


def _an_amount_of_none(words: list[str], at: int) -> bool:
    before = words[at - 1] if at else ""
    after = words[at + 1] if at + 1 < len(words) else ""
    return before != "net" and after not in _NOT_NONE_AFTER


_CLAUSE_BREAK = re.compile(r"[,;:()\u2014\u2013]|\s-\s")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
# "fully paid and non-assessable shares", "paid-in capital": words of share capital, no payment.
_SHARE_CAPITAL = re.compile(r"\bfully[\s-]+paid\b|\bpaid[\s-]+(?:in|up)\s+(?:share\s+)?capital\b|\bpaid[\s-]up\b", re.I)
ADDRESSED = re.compile(r"\byou(?:r)?\b", re.I)


_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
# a flow over the period that closes on the day, not the balance on it
_OVER_A_PERIOD = re.compile(r"\b(?:during|(?:year|years|months|quarter|weeks)\s+ended|at\s+any\s+time|average|maximum)\b",
                            re.I)


# "Events subsequent to balance date: On 2 May 2022, the Group completed ...": after the period asked
_SUBSEQUENT = re.compile(r"\bsubsequent\s+(?:events?|to\s+(?:the\s+)?(?:balance(?:\s+sheet)?\s+date|year[\s-]end|"
                         r"reporting\s+date|period\s+end|end\s+of\s+the\s+(?:fiscal\s+)?(?:year|period)))\b", re.I)
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+((?:19|20)\d\d)\b"
                             r"|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2}),?\s+((?:19|20)\d\d)\b",
                             re.I)
_MONTH_OF = {m[:3]: i for i, m in enumerate(_MONTH_NAMES, start=1)}


def after_the_period(sentence: str, period_end: str | None) -> bool:
    """The sentence tells of the event after the period asked closed: a subsequent event, or every
    date it prints falls after the period's last day (asked "within the year ended 31 March 2022")."""
    if _SUBSEQUENT.search(sentence):
        return True
    if not period_end:
        return False
    days = []
    for m in _DAY_MONTH_YEAR.finditer(sentence):
        day, month, year = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(4), m.group(6))
        days.append(f"{int(year):04d}-{_MONTH_OF[month.lower()[:3]]:02d}-{int(day):02d}")
    return bool(days) and all(d > period_end for d in days)


def said_of_the_day(found: list[Found], day: str) -> bool:
    """Some sentence states the balance on ``day`` (ISO): it prints the date, not as the end of a period."""
    year, month, dom = day.split("-")
    name = _MONTH_NAMES[int(month) - 1]
    printed = re.compile(rf"\b{name}\s+{int(dom)},?\s+{year}\b|\b{int(dom)}\s+{name},?\s+{year}\b", re.I)
    return any(printed.search(f.sentence) and not _OVER_A_PERIOD.search(f.sentence) for f in found)


def dated_found(found: list[Found], years, amounts: bool = False) -> list[Found]:
    """The sentences that name a year asked (or, with ``amounts``, state an amount)."""
    return [f for f in found if {int(y) for y in _YEAR.findall(f.sentence)} & set(years)
            or (amounts and _AMOUNT.search(f.sentence))]


_MONTHS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
# What follows the event's verb: a few words, then the day it happened ("sold on January 1, 2022").
_ITS_DATE = re.compile(rf"^\W*(?:[\w$.,%-]+\s+){{0,3}}?(?:on|in|during|effective)\s+(?:{_MONTHS}\s+(?:\d{{1,2}},?\s+)?)?"
                       r"(?P<year>(?:19|20)\d\d)\b")


def done_in_another_year(sentence: str, topic: Topic_, years: list[int]) -> bool:
    """"... New York subsidiary, which was sold on January 1, 2022" asked of 2021: the date the
    event's own verb carries is another year's, whatever other years the sentence names."""
    verb = next((slot for slot in topic.slots if slot.label == topic.verb), None)
    if verb is None or not years:
        return False
    forms = {p[0] for p in verb.phrases if len(p) == 1}
    for word in re.finditer(r"[A-Za-z]+", sentence):
        if _stem(word.group().lower()) in forms:
            dated = _ITS_DATE.match(sentence[word.end():])
            if dated and int(dated.group("year")) not in years:
                return True
    return False


def other_years(sentence: str, years: list[int]) -> bool:
    """The sentence names years, none of them one asked about."""
    named = {int(y) for y in _YEAR.findall(sentence)}
    return bool(years) and bool(named) and not named & set(years)


def _framed(sentence: str, words: list[str], positions: list[int]) -> bool:
    """A framing word in the clauses of the matched words, a few words before them or after."""
    clause_of = _clause_numbers(sentence)
    if len(clause_of) != len(words):
        clause_of = [0] * len(words)
    lo, hi = min(positions), max(positions)
    clauses = {clause_of[p] for p in positions}
    near = [w for i, w in enumerate(words[max(0, lo - _FRAMING_BEFORE): hi + _FRAMING_AFTER + 1], start=max(0, lo - _FRAMING_BEFORE))
            if clause_of[i] in clauses or lo <= i <= hi]
    return _FRAMING.search(" ".join(near)) is not None


def _clause_numbers(sentence: str) -> list[int]:
    """For each word of ``_words(sentence)``, the number of the clause it is in (commas, semicolons,
    brackets and dashes end a clause)."""
    out: list[int] = []
    for k, part in enumerate(_CLAUSE_BREAK.split(sentence)):
        out.extend([k] * len(_words(part)))
    return out


def _excerpt(sentence: str, words_at: list[int]) -> str:
    """The sentence, or the stretch of its words around the match when it is long."""
    if len(sentence) <= MAX_QUOTE_CHARS:
        return sentence
    spans = [m.span() for m in re.finditer(r"\S+", sentence)]
    lo, hi = min(words_at), max(words_at)
    lo, hi = max(0, min(lo, len(spans) - 1)), min(hi, len(spans) - 1)
    start, end = lo, hi
    while start > 0 and spans[end][1] - spans[start - 1][0] < MAX_QUOTE_CHARS * 0.5:
        start -= 1
    while end + 1 < len(spans) and spans[end + 1][1] - spans[start][0] < MAX_QUOTE_CHARS:
        end += 1
    return sentence[spans[start][0]: spans[end][1]]


def scan(pages: list[StoredPage], document: Document, topic: Topic_) -> list[Found]:
    found: list[Found] = []
    # Cheap page filter: every slot needs one of its phrases' first stems somewhere on the page.
    # The printed forms too: an irregular form ("paid") holds no stem's start ("pay").
    firsts = [{p[0][:6] for p in slot.phrases} | {f.split()[0][:6].lower() for f in slot.shown if f.split()}
              for slot in topic.slots]
    verb_stems = {p[0] for slot in topic.slots if slot.label == topic.verb for p in slot.phrases if len(p) == 1}
    for page in pages:
        text = page.text
        low = text.lower()
        if not all(any(f in low for f in slot_firsts) for slot_firsts in firsts):
            continue
        ev = EvidencePage(label="P", document=document.file_name, document_id=document.id, page=page.number, text=text)
        for sentence in units(ev):
            if _BOILERPLATE.search(sentence):
                continue
            # the same words, "paid" of share capital read as no payment (positions stay the sentence's)
            words = _words(_verb_in_names(_SHARE_CAPITAL.sub(lambda m: re.sub(r"paid", "held", m.group(0), flags=re.I),
                                                             sentence), verb_stems))
            stems = [_stem(w) for w in words]
            at = _match(stems, topic.slots)
            if at is None or (topic.event and _verb_far_from_object(stems, topic)):
                continue  # a verb and its object a clause or two apart are no one statement
            # Map stem positions (over _words) to whitespace words of the sentence for the excerpt.
            quote = _excerpt(sentence, _whitespace_positions(sentence, at))
            negated = _negated(words, at) or _negated_later(stems, words, at, topic.slots)
            # "our goodwill impairment test", "restructuring accounting policy": a procedure, not an event.
            supposed = (_supposes(quote) or (max(at) + 1 < len(stems) and stems[max(at) + 1] in _PROCEDURE)
                        or _framed(sentence, words, at) or bool(_POLICY.search(quote)))
            done = bool(_STATED.search(quote) or (topic.verb in DEAL_VERBS and _DONE.search(quote))
                        or _states_the_verb(words, topic))
            score = (len(set(at)) + 2.0 * done + 1.0 * bool(_AMOUNT.search(quote))
                     + (1.0 if _stem(topic.verb) in stems else 0.0) - 0.1 * (max(at) - min(at))
                     + 1.5 * sum(_match(stems, [slot]) is not None for slot in topic.optional)
                     - 3.0 * supposed - 0.002 * len(quote))
            stated = bool(done or _AMOUNT.search(quote) or _PASSIVE_PAST.search(quote))
            found.append(Found(document, page.number, quote, negated, supposed, score, stated,
                               bool(_IMMATERIAL.search(sentence))))
    return found


_CAPITALISED = re.compile(r"(?<=\s)[A-Z][a-z]+\b")


def _verb_in_names(sentence: str, verb_stems: set[str]) -> str:
    """The asked verb inside a name is no statement of it: "the Acquired Entities in the Jake Marshall
    Transaction" says nothing was acquired. A capitalised form mid-sentence beside another capitalised
    word is read as a name (one placeholder word, so the word positions hold)."""
    if not verb_stems:
        return sentence

    def masked(m: re.Match) -> str:
        if _stem(m.group(0)) not in verb_stems:
            return m.group(0)
        before = sentence[:m.start()].rstrip().rsplit(None, 1)
        after = sentence[m.end():].split(None, 1)
        beside = [w for w in (before[-1] if before else "", after[0] if after else "") if w]
        return "Name" if any(w[:1].isupper() for w in beside) else m.group(0)

    return _ADJECTIVAL.sub(lambda m: m.group(1) + ("Name" if _stem(m.group(2)) in verb_stems
                                                   and verb_base(m.group(2), past=True) else m.group(2)),
                           _CAPITALISED.sub(masked, sentence))


# "For sold properties, ADR is presented ...", "the acquired businesses": a past form used as an
# adjective, after an article or a preposition, describes; it does not state that it happened.
_ADJECTIVAL = re.compile(r"\b((?i:for|of|the|on|from|with|any|all|newly|recently|previously)\s+)([a-z]+)(?=\s+[a-z])")


def _supposes(quote: str) -> bool:
    """A word of possibility, policy or habit, read as a word: a capitalised one mid-sentence is part
    of a name ("Food Should Taste Good", "May Department Stores")."""
    return any(not (m.group(0)[:1].isupper() and m.start() > 0 and quote[:m.start()].rstrip()[-1:] not in ".!?:")
               for m in _SUPPOSED.finditer(quote))


def _states_the_verb(words: list[str], topic: Topic_) -> bool:
    """The sentence tells the asked verb in a past form ("The shareholders ratified ...", asked "was
    KPMG approved"): the verb's own forms, as the topic's slot for it lists them."""
    pasts = {f.lower() for slot in topic.slots if slot.label == topic.verb for f in slot.shown
             if verb_base(f, past=True) is not None}
    return bool(pasts) and any(w in pasts for w in words)


def _whitespace_positions(sentence: str, at: list[int]) -> list[int]:
    """Indices of whitespace-separated words holding the matched tokens."""
    out = []
    tokens: list[int] = []
    for i, chunk in enumerate(sentence.split()):
        tokens.extend([i] * len(_words(chunk)))
    for p in at:
        if p < len(tokens):
            out.append(tokens[p])
    return out or [0]
