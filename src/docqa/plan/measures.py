"""Measure reading: which measures the question asks (not the ones a definition names), what it
asks of them over periods (growth, a change), which it joins by an operator in its own words
("EBITDA less capex"), and which it qualifies ("revenue of the Americas segment")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.finance.formulas import SUBJECT_FORMULAS
from docqa.finance.lexicon import MetricMatch, load_lexicon
from docqa.finance.text import stems
from docqa.plan.intent import asks_verdict, asks_why
from docqa.plan.line_text import OF_FILLERS, SCAFFOLD, SOFT_WORDS
from docqa.text import STOPWORDS

_OPERATORS = (
    (re.compile(r"^(?:less|minus|-|\u2013|\u2212|subtract(?:ing)?|after\s+deducting)$", re.I), "-"),
    (re.compile(r"^(?:plus|\+|added\s+to)$", re.I), "+"),
    (re.compile(r"^(?:/|divided\s+by|over|per)$", re.I), "/"),
    (re.compile(r"^(?:as\s+an?\s+)?(?:%|percent|percentage|share|proportion|fraction)\s+of(?:\s+the)?$", re.I), "%"),
    (re.compile(r"^(?:as\s+a\s+)?ratio\s+(?:to|of)$|^relative\s+to$|^to$", re.I), "/"),
)
_DEFINITION = re.compile(
    r"\b(?:is|are|be)\s+defined\s+as\b|\bdefined\s+as\b|^\s*(?:define|defining)\b|\b(?:calculat|comput)\w*\s+[\w\s%&/-]{0,60}?\b(?:using|as|from)\b",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.?!])\s+")
_TIME_FORMULAS = {"growth", "cagr", "multi_year_average"}
_CHANGE = re.compile(
    r"\b(?P<noun>(?:change|increase|decrease|difference|movement|variation)\s+in)\b"
    r"|\bhow\s+much\s+(?:did|has|have|was|were)\b.{0,80}?\b(?P<verb>(?:increase|decrease|grow|decline|change|rise|fall|drop)\w*)\b"
    r"|\b(?P<by>by\s+how\s+(?:much|many\s+(?:percentage\s+|basis\s+)?points))\b"
    r"|\bhow\s+many\s+(?:percentage\s+|basis\s+)?points\s+(?:did|has|have|was|were)\b.{0,120}?\b(?P<points>(?:change|increase|decrease|grow|decline|rise|fall|drop|move|expand|contract)\w*)\b"
    r"|^\s*how\s+(?:does|did|do)\b.{0,120}?\b(?P<compare>compare[sd]?)\s+(?:to|with|against)\b"
    # "net sales in 2019 versus 2018": the two years side by side, and how far apart
    r"|(?<![\w-])(?:FY\s?|fiscal\s+)?(?:19|20)\d{2}\s+(?P<versus>versus|vs\.?|compared\s+(?:with|to))\s+(?:the\s+)?"
    r"(?:prior\s+year|(?:FY\s?|fiscal\s+)?(?:19|20)\d{2}\b)",
    re.I,
)
_GROWTH = re.compile(
    r"\b(?:by\s+)?what\s+(?:percent(?:age)?|%|rate)\s+(?:did|does|has|have|was|were)\b[^?]{0,120}?"
    r"\b(?:grow|grew|increase|rise|rose|decline|decrease|fall|fell|drop|change|expand|shrink|contract)\w*", re.I)


def _definition_spans(question: str) -> list[tuple[int, int]]:
    """Character spans of the sentences that define terms ("Define EBITDA as ..."): what they
    name are the ingredients of what is asked, not what is asked."""
    spans, start = [], 0
    for part in _SENTENCE.split(question):
        begin = question.find(part, start)
        end = begin + len(part)
        if _DEFINITION.search(part):
            spans.append((begin, end))
        start = end
    return spans


@dataclass(frozen=True)
class Joined:
    """Two measures the question joins by an operator in its own words: "EBITDA less capex"."""

    left: MetricMatch
    op: str
    right: MetricMatch
    label: str


@dataclass(frozen=True)
class MeasureReading:
    asked: tuple[MetricMatch, ...] = ()            # the measures asked (a definition's ingredients left out)
    over_time: str | None = None                    # growth | cagr | multi_year_average | change
    joined: tuple[Joined, ...] = ()                 # pairs joined by an operator, in order
    qualified: frozenset[tuple[int, int]] = frozenset()  # spans of line items the question qualifies
    heads: tuple[tuple[tuple[int, int], str], ...] = ()  # a qualified item's span and its head noun ("impairments")
    labelled: str = ""                              # the line named after a label naming its table ("... inventories: raw materials")
    # spans of line items whose own phrase runs on in words the item does not account for ("sales return
    # reserves", "dividends payable"): another line, which only a row printing those words answers
    runs_on: frozenset[tuple[int, int]] = frozenset()


def read_measures(question: str, matches: tuple[MetricMatch, ...] | list[MetricMatch],
                  names: tuple[str, ...] = ()) -> MeasureReading:
    """How the question reads its measures; ``names`` are the company's, no words of a line."""
    definitions = _definition_spans(question)

    def defining(m: MetricMatch) -> bool:
        return any(a <= m.span[0] < b for a, b in definitions)

    asked = [m for m in matches if not defining(m)] or list(matches)
    by_position = sorted(asked, key=lambda m: (m.span[0], -(m.span[1] - m.span[0])))
    joined = []
    plain = [m for m in by_position if not (m.kind == "formula" and m.key in SUBJECT_FORMULAS)]
    for a, b in zip(plain, plain[1:]):
        between = question[a.span[1]:b.span[0]].strip(" ,")
        op = next((o for pattern, o in _OPERATORS if pattern.match(between)), None)
        if op is not None and a.span[1] <= b.span[0] and a.key != b.key:
            joined.append(Joined(a, op, b, question[a.span[0]:b.span[1]].strip()))
    headed = [(m.span, head) for m in matches if m.kind == "metric" and _head_after(question, m, matches)
              and (head := head_noun_after(question, m))]
    by_label = [m.span for m in matches if m.kind == "metric" and _labels_a_table(question, m, matches)]
    return MeasureReading(asked=tuple(asked), over_time=_over_time(question, asked, list(matches), definitions),
                          joined=tuple(joined), heads=tuple(headed),
                          qualified=frozenset([m.span for m in matches if m.kind == "metric" and _qualified(question, m)]
                                              + by_label + [span for span, _ in headed]),
                          labelled=_labelled_line(question) if by_label else "",
                          runs_on=frozenset(m.span for m in matches if _an_amount(m) and not asks_verdict(question)
                                            and _runs_on(question, m, matches, names)))


def _labelled_line(question: str) -> str:
    found = _TOPIC_LABEL.match(question)
    return found.group("asked").strip(" ?.") if found else ""


def _over_time(question: str, asked: list[MetricMatch], matches: list[MetricMatch],
               definitions: list[tuple[int, int]]) -> str | None:
    over = [m for m in asked if m.kind == "formula" and m.key in _TIME_FORMULAS]
    changes = [c for c in _CHANGE.finditer(question) if not any(a <= c.start() < b for a, b in definitions)]
    # Only the words that say "change" count for the overlap test: in "how much has the tax rate
    # changed" the metric sits between them, in "net change in cash" the words are the metric.
    # ("Did gross margin improve in 2023 compared with 2022" asks a verdict of the change, read by its judgement.)
    said = [(c.start(g), c.end(g)) for c in changes[:1] for g in ("noun", "verb", "by", "compare", "points", "versus")
            if c.group(g) and not (g == "versus" and asks_verdict(question))]
    grows = _GROWTH.search(question)
    if over:
        return over[0].key
    if grows and not any(a <= grows.start() < b for a, b in definitions):
        return "growth"  # "by what percentage did discount revenue grow in 2022 versus 2021"
    if said and not asks_why(question) and not any(m.span[0] < said[0][1] and said[0][0] < m.span[1] for m in matches):
        # "the change in total assets between FY2021 and FY2022": a difference. ("Net change in
        # cash" is a line item of its own.)
        return "change"
    return None


_QUALIFIER = re.compile(
    r"^\s*(?:(?:that\s+(?:came|comes)\s+)?from|generated\s+(?:by|from|in)|derived\s+from|earned\s+(?:from|in|by)|"
    r"(?:of|in|for|at)\s+(?:the|its|their)\s+[\w&\s-]{1,40}?\s(?:segment|division|business|unit|region|product\s+line)"
    # "sales of petroleum", "revenue of services": what was sold, a line of its own (lower case: no name);
    # "capital expenditures on information technology": what the money went to
    r"|(?:of|on)\s+(?!(?:the|its|their|a|an|all|each|any|approximately|about|over|more|less|years?|months?|quarters?)\b)"
    r"(?-i:[a-z][a-z-]{3,}))\b"
    r"(?!\s+(?:the\s+)?(?:income|cash|balance|statements?|p&l|10-?[kq]|annual|quarterly|filings?|operations|"
    r"operating|continuing|financ\w*|invest\w*|company|fiscal|last|prior|previous|this|that|same|year|quarter|"
    r"period|fy|q[1-4])\b|\s+(?:fy|q[1-4]|fiscal)?\s*'?\d)",
    re.I,
)


# Nouns that, after a line item, make it another measure: "goodwill impairments", "inventory
# reserves", "debt issuance costs", "dividend increase" are not the goodwill, the inventory, ...
_HEAD_NOUNS = frozenset(stems(
    "impairment impairments writedown writedowns write-down write-downs reserve reserves allowance allowances "
    "amortization accretion issuance issuances repayment repayments costs cost fees fee charge charges "
    "obligation obligations commitment commitments guarantee guarantees hedge hedges"))


@dataclass(frozen=True)
class GrossOf:
    """"sales of petroleum before deducting royalties": the amount before what a "net of royalties"
    line has taken off. ``text`` is the question's words for it, to be left out of the line's words;
    ``deducted`` is what the amount is before ("royalties")."""

    text: str
    deducted: str

    def left_out_of(self, words: str) -> str:
        """``words`` (the question's line words, maybe without its "before") without this."""
        for form in (self.text, self.text.split(None, 1)[-1]):
            at = words.lower().find(form.lower())
            if at >= 0:
                return " ".join(f"{words[:at]} {words[at + len(form):]}".split())
        return words


# "before deducting royalties", "gross of fees", "excluding royalties", "without royalties"
_GROSS_OF = re.compile(r"\b(?:(?:before\s+)?(?:deducting|deduction(?:\s+of)?)|gross\s+of|excluding|without)\s+"
                       r"(?:the\s+)?([a-z][\w-]+)", re.I)


def gross_of(question: str) -> tuple[GrossOf, ...]:
    """What the question asks an amount before ("before deducting royalties"), each as its words."""
    return tuple(GrossOf(m.group(0), m.group(1)) for m in _GROSS_OF.finditer(question))


def head_noun_after(question: str, m: MetricMatch) -> str | None:
    """The noun after the line item that makes it another measure ("impairments" of "goodwill
    impairments"), if there is one."""
    word = re.match(r"\s+([A-Za-z-]+)", question[m.span[1]:])
    return word.group(1) if word and set(stems(word.group(1))) & _HEAD_NOUNS else None


def _head_after(question: str, m: MetricMatch, matches) -> bool:
    """The word after the line item is a noun that makes it another measure, and no other measure
    the lexicon reads starts there ("revenue growth" is growth, "operating income margin" a margin)."""
    head = head_noun_after(question, m)
    if head is None:
        return False
    at = question.find(head, m.span[1])
    return not any(o is not m and o.span[0] <= at < o.span[1] for o in matches)


def _runs_on(question: str, m: MetricMatch, matches, names: tuple[str, ...] = ()) -> bool:
    """Do the words that run on from the line item, in its own phrase, name another line: "sales
    return reserves" is no revenue, "dividends payable" no dividends paid, "long-term debt maturing
    within one year" no total debt; and "accruals for capital expenditures", "proceeds from sales"
    are the noun before, not the item. The phrase ends at punctuation, a preposition, a verb of the
    question's frame ("did", "was", "go up"), an adverb or a past participle ("directly outlined"). (In a
    verdict the words after the item are what is judged of it: "was net income positive", not read here.)"""
    lexicon = load_lexicon()
    entry = lexicon.metric(m.key) if m.kind == "metric" else lexicon.formula(m.key)
    vocabulary = {x for p in (entry.label, *entry.asks, *getattr(entry, "prints", ())) for x in stems(p)}
    # "revenue CAGR", "revenue growth": a formula asked of the item, not another line
    formulas = {x for o in matches if o.kind == "formula" for x in stems(o.text)}
    named = {x for name in names for x in stems(name)}  # "the income tax benefit MGM Resorts booked"

    def naming(word: str) -> bool:
        st = set(stems(word))
        return (bool(st) and not st <= (vocabulary | SCAFFOLD | SOFT_WORDS | OF_FILLERS | formulas | named)
                and not re.search(r"\d", word))

    after = re.match(r"[ \t]*((?:[A-Za-z][\w&'\u2019-]*[ \t]*){1,4})", question[m.span[1]:])
    for word in after.group(1).split() if after else ():
        if word.lower() in _PHRASE_ENDS or word.lower() in STOPWORDS or _FRAME_WORD.search(word):
            break
        if naming(word):
            return True
    before = re.search(r"([A-Za-z][\w&-]*)\s+(?:for|from)\s+(?:the\s+)?$", question[:m.span[0]])
    if before and naming(before.group(1)) and before.group(1).lower() not in _PHRASE_ENDS:
        return True
    if m.kind == "formula":
        # a composed amount's words before it name a line of their own ("foreign currency denominated
        # debt", "convertible debt"): the words back to the owner, a frame word or a preposition
        for word in reversed(re.findall(r"[A-Za-z][\w&'\u2019.-]*|[^\sA-Za-z]", question[:m.span[0]])[-3:]):
            if (not word[:1].isalpha() or word.lower() in _PHRASE_ENDS or word.lower() in STOPWORDS
                    or word.endswith(("'s", "\u2019s", "'", "\u2019")) or word[:1].isupper()):
                break
            if naming(word):
                return True
    return False


def _an_amount(m: MetricMatch) -> bool:
    """A line item, or a formula that composes an amount (total debt, free cash flow), not a ratio."""
    return m.kind == "metric" or load_lexicon().formula(m.key).kind == "currency"


_FRAME_WORD = re.compile(r"(?:ly|ed)$", re.I)
# where the line's own phrase ends: a preposition, a conjunction, the verbs that frame the question
_PHRASE_ENDS = frozenset("in for of from at on by to as during and or but vs versus than did does do was were is are "
                         "has have had be been that which who per with between over across through into since until after "
                         "before under within against among "
                         # a verdict's comparison after the item ("dividend per share higher", "go up vs")
                         "higher lower larger smaller greater bigger more less fewer above below up down go goes went "
                         "exceed exceeds exceeded top topped".split())


def _qualified(question: str, m: MetricMatch) -> bool:
    """"Revenue from the sale of physical stores", "revenue of the Americas segment": a part of
    the line item, which the total does not answer; "the impact of effective net pricing on net revenue
    growth": one driver's share of it, printed as a row or column of its own."""
    return bool(_QUALIFIER.match(question[m.span[1]:]) or _IMPACT_ON.search(question[:m.span[0]]))


_IMPACT_ON = re.compile(r"\b(?:impact|effect|contribution)s?\s+of\s+[^?.;]{3,80}?\s+(?:on|to)\s+(?:the\s+|its\s+)?"
                        r"(?:[\w'\u2019&.-]+\s+){0,4}$", re.I)


# "AES inventory breakdown: what was the fuel and other raw materials balance ...": a label before the
# question proper names the table, the question the row, a part of what the label names.
_TOPIC_LABEL = re.compile(r"^(?P<label>[^?:;\u2013\u2014]{2,80}?)\s*(?::|\s[\u2013\u2014-]+\s)\s*(?P<asked>\S.*)$")
_FRAME = STOPWORDS | frozenset((
    "much many the value amount figure total balance level end ending ended close closing start beginning year years "
    "fiscal fy quarter month months period date reported report recorded show print list tell me can could "
    "january february march april may june july august september october november december jan feb mar apr jun "
    "jul aug sep sept oct nov dec as of at million millions billion thousand dollars usd").split())


def _labels_a_table(question: str, m: MetricMatch, matches) -> bool:
    """A label before the question proper names the table ("Adobe fiscal 2022 operating expenses:
    sales and marketing?", "AES inventory breakdown: what was the fuel balance"), and what follows
    names a line of its own: the label's line item is not what is asked, and neither is a line item
    of the lexicon that reads only some of the line's words ("sales" of "sales and marketing")."""
    found = _TOPIC_LABEL.match(question)
    if found is None:
        return False
    words = _line_words(found.group("asked"))
    if not words:
        return False
    after = [o for o in matches if o.kind == "metric" and o.span[0] >= found.start("asked")]
    if m.span[1] <= found.end("label"):
        labelled = any(o.span[1] <= found.end("label") for o in matches if o.kind == "metric")
        return labelled and (not after or not _reads_all(question, after, words, found.start("asked")))
    labelled = any(o.kind == "metric" and o.span[1] <= found.end("label") for o in matches)
    return labelled and m in after and not _reads_all(question, [m], words, found.start("asked"))


def _line_words(asked: str) -> list[str]:
    return [w for w in re.findall(r"[a-z][a-z&'-]*", asked.lower()) if w not in _FRAME]


def _reads_all(question: str, found: list[MetricMatch], words: list[str], start: int) -> bool:
    """Do the lexicon's line items read every word of the line named after the label?"""
    read = {w for o in found for w in _line_words(question[o.span[0]:o.span[1]])}
    return all(w in read for w in words)


# "did <subject> <verb> | in 2022": the last lower-case word before the period, a preposition or the end,
# after a subject that ends in a name or a part's noun ("did the company spend repurchasing shares" has none).
_DID_VERB = re.compile(r"\b(?:did|does|do|has|have|had)\s+(?:\S+\s+){0,6}?(?:\S*[A-Z]\S*|segments?|business(?:es)?|"
                       r"divisions?|units?)\s(?P<verb>[a-z]+)"
                       r"(?=\s+(?:in|during|for|at|on|by|over|as\s+of|through|from|under|within|to)\b|\s*[?.!]?\s*$)")


def without_asked_verb(clause: str, counts: bool = False) -> str:
    """The clause without the verb a "did X ... <verb>" question asks with ("did 3M's Safety and
    Industrial segment make in 2022"): a table's row never prints it (a sentence may: "employed").
    A count keeps a verb of doing: "how many restaurants did it open" counts openings, not
    restaurants ("Pharmacy claims processed"); a verb of having ("operate", "employ") goes."""
    def cut(m: re.Match) -> str:
        kept = m.group(0)[:m.start("verb") - m.start()]
        verb = m.group("verb").lower()
        if counts and verb not in _HAVING:
            # as tables and sentences print the event: "Pharmacy claims processed", "opened 1,576 restaurants"
            return kept + (verb if verb.endswith("ed") else verb + "d" if verb.endswith("e") else verb + "ed")
        return kept
    return _DID_VERB.sub(cut, clause)


# Verbs a count asks a level with: "how many stores did it operate" counts the stores it has.
_HAVING = frozenset("have has had own owns operate operates run runs employ employs serve serves hold holds lease "
                    "leases maintain maintains manage manages count counts report reports record records list lists "
                    "show shows disclose discloses".split())


# "goodwill sat in", "property and equipment, net located in": one word between a line item and the
# preposition that places it is the clause's verb, unless the filing prints it in a label ("payable to").
_LINKING = re.compile(r"^\s*,?\s*([a-z]+)\s+(?:in|into|to|at|within|under|across|by|for|from|on|inside|among)\b")


def linking_words(clause: str, measures: tuple[MetricMatch, ...]) -> tuple[str, ...]:
    """The word after each line item that ties it to a place ("sat" of "goodwill sat in the segment")."""
    out = []
    for m in measures:
        if m.kind == "metric" and m.span[1] <= len(clause) and (found := _LINKING.match(clause[m.span[1]:])):
            out.append(found.group(1))
    # ... and a participle placing any line the lexicon does not name ("long-lived assets located in Korea")
    out += [found.group(1) for found in _PLACED.finditer(clause)]
    return tuple(dict.fromkeys(out))


_PLACED = re.compile(r"(?<=[a-z] )([a-z]{3,}(?:ed|ing))\s+(?:in|into|at|within|inside|among)\b")


# "<noun> of <line item>": the noun may be what is asked of the item ("an impairment of plant and equipment").
_NOUN_OF = re.compile(r"\b([a-z][a-z-]{3,})\s+(?:of|on)\s+(?:the\s+|its\s+|their\s+)?$", re.I)


def narrowed_by(clause: str, measures: tuple[MetricMatch, ...]) -> tuple[tuple[tuple[int, int], str], ...]:
    """Each line item's words after it that may narrow it ("capital expenditures for | pollution control",
    "... required under | legal and binding contractual obligations"), by its span."""
    out = []
    for m in measures:
        if m.kind == "metric" and m.span[1] <= len(clause) and (found := _NARROWED_AFTER.match(clause[m.span[1]:])):
            out.append((m.span, found.group("what")))
    return tuple(out)


_NARROWED_AFTER = re.compile(r"^\s+(?:(?:that|which)\s+)?(?:(?:was|were|is|are)\s+)?(?:required\s+under|related\s+to|relating\s+to|"
                             r"associated\s+with|in\s+connection\s+with|for|from)\s+(?P<what>[^,;:?()]{3,60})", re.I)


def nouns_of(clause: str, measures: tuple[MetricMatch, ...]) -> tuple[tuple[tuple[int, int], str], ...]:
    """Each line item's noun right before "of" ("impairment" of "plant and equipment"), by its span."""
    out = []
    for m in measures:
        if m.kind in ("metric", "formula") and m.span[1] <= len(clause) and (found := _NOUN_OF.search(clause[:m.span[0]])):
            out.append((m.span, found.group(1)))
    return tuple(out)
