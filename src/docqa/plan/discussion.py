"""An open question about what a filing says on a topic: "What does Verizon say about competition?",
"How does Adobe recognize subscription revenue?", "Walk me through Corning's liquidity", "Summarize
the legal proceedings". Read once, here: whether the question asks for the filing's discussion, and
the words that name the topic (the section answerer finds the heading the filing prints for them).

A figure, a verdict or an explanation of a change is asked otherwise ("how much", "did", "why"),
and is left to those readings."""

from __future__ import annotations

import re

from docqa.text import tokens

# "what does X say / disclose about Y", "what is said about Y", "X's commentary on Y"
_SAYS_ABOUT = re.compile(
    r"\b(?:say|says|said|state|states|disclose|discloses|disclosed|mention|mentions|note|notes|report|reports|"
    r"highlight|highlights|comment|comments|commentary|discussion|disclosures?|tell\s+(?:me|us)|language)\s+"
    r"(?:about|on|regarding|concerning|around|re)\b", re.I)
# "describe / summarize / outline / walk me through / give an overview of Y"
_DESCRIBE = re.compile(
    r"^\W*(?:(?:can|could|would)\s+you\s+|please\s+|briefly\s+)*(?:describe|summari[sz]e|outline|discuss|"
    r"walk\s+(?:me|us)\s+through|tell\s+(?:me|us)\s+about|give\s+(?:me\s+|us\s+)?(?:an?\s+)?(?:overview|summary|rundown)|"
    r"(?:provide|give)\s+(?:me\s+)?(?:an?\s+)?(?:overview|summary|description)|overview\s+of|elaborate\s+on|"
    r"explain\s+how|explain\s+(?:the|its|their)\b)", re.I)
# "what risks does X see / face / highlight", "who does X say it competes with", "what strategy does X lay out"
_DOES_SAY = re.compile(
    r"^\W*(?:what|which|who|whom)\b.{0,80}?\b(?:does|do|did)\b.{0,60}?\b(?:say|lay\s+out|set\s+out|outline|"
    r"highlight|identify|cite|flag|describe|discuss|mention|see|face|consider)\b", re.I)
# "What is PepsiCo's Juice Transaction described in the FY2021 10-K?"
# ("What is the quantity of restructuring costs outlined in its income statement" asks an amount.)
_AS_DESCRIBED = re.compile(r"^\W*(?:what|who)\s+(?:is|are|was|were)\s+(?!(?:the\s+)?(?:quantity|amount|value|number|total|"
                           r"figure|size|level|percentage|ratio|sum)\b).*\b(?:as\s+)?(?:described|discussed|explained|"
                           r"outlined|set\s+out)\s+in\b", re.I)
# "how does X recognize / account for / value / test / manage / fund Y": a policy or a practice
_HOW_DOES = re.compile(
    r"^\W*(?:(?:can|could)\s+you\s+)?(?:explain\s+)?how\s+(?:does|do|did|is|are|was|were|has|have|will|would|should)\b"
    r"(?P<rest>.*)$", re.I)
_PRACTICE = re.compile(
    r"\b(?:recogni[sz]\w*|account(?:s|ed|ing)?\s+for|accounts?|valu(?:e|es|ed|ing)|measur\w*|test(?:s|ed|ing)?|"
    r"amortiz\w*|amortis\w*|depreciat\w*|determin\w*|estimat\w*|manag\w*|fund(?:s|ed|ing)?|financ(?:e|es|ed|ing)|"
    r"mitigat\w*|hedg\w*|assess\w*|evaluat\w*|compet\w*|approach\w*|treat\w*|calculat\w*|allocat\w*|protect\w*|"
    r"address\w*|handl\w*|monitor\w*|plan(?:s|ned|ning)?\s+to|intend\w*|impair\w*|review\w*|classif\w*|defin\w*|"
    r"present(?:s|ed)?|disclos\w*|describ\w*|characteri[sz]\w*|view(?:s|ed)?|expect(?:s|ed)?\s+to|generat\w*|"
    r"make\s+money|earn\s+(?:its\s+)?(?:revenue|money)|prioriti[sz]\w*|deploy\w*|differentiat\w*|distribut\w*|"
    r"oversee\w*|govern\w*|compensat\w*|retain\w*|attract\w*|sourc\w*|procur\w*)\b", re.I)
# "explain the reasons for the change", "what drove": why a figure moved, not what is said on a topic
_WHY = re.compile(r"\b(?:why|drove|drive[sn]?|drivers?|reasons?|caus\w*|due\s+to|contribut\w*)\b", re.I)
_HOW_MUCH = re.compile(r"^\W*how\s+(?:much|many|big|large|high|low|far|long)\b", re.I)
# "cvs health 2022: status and terms of ...", "PepsiCo 2022 - describe ...": a label before the question
# (the company, the year, often the section: "McDonald's 2022 10-K outlook: what does ...")
_LEAD = re.compile(r"^\W*(?P<lead>[^:?.!]{2,70}?)(?::|\s[-–—]+)\s+(?P<rest>\S.*)$", re.S)
# What a discussion is framed as: the terms, status or policy of a thing, never an amount of it
# ("what are the terms of the proposed acquisition", "X's stock repurchase program policy",
# "status and terms of the acquisition", "where does the acquisition stand")
_FRAMED = re.compile(
    r"^\W*(?:(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+)?(?:(?!(?:under|of|per|in|on|by|for|with)\b)\S+\s+){0,7}?)?"
    r"(?:polic(?:y|ies)|terms|status|stand(?:ing)?)\b(?!\s+(?:amount|value|balance|cost)s?\b)", re.I)
_STANDS = re.compile(r"^\W*where\s+(?:does|do|did|is|are|was|were)\b.{1,120}\bstand(?:s|ing)?\b", re.I)
# "who are X's main competitors": names, never a figure (a filing fact, "who is the auditor", is read first)
_WHO = re.compile(r"^\W*who\s+(?:are|were)\b", re.I)
# "what does X expect for 2023 capital expenditures": the outlook as the filing words it
_EXPECTS = re.compile(r"^\W*what\s+(?:does|do|did)\b.{0,60}?\b(?:expect|anticipate|forecast|project|guide)\s+"
                      r"(?:for|in|regarding|about|from|on)\b", re.I)
# "per the market risk section", "in the 2022 human capital section", "(critical accounting policy, FY2022)"
_SECTION_NAMED = re.compile(
    r"\b(?:in|per|from|under|within)\s+(?:the\s+|its\s+|their\s+)?(?P<named>[\w' &-]{3,60}?)\s+(?:section|discussion|"
    r"disclosures?|note|chapter)\b|\((?P<policy>[\w' &-]{3,60}?\b(?:polic(?:y|ies)|estimates?))\b", re.I)

# The question's own scaffolding: words that ask, never name what is discussed.
_ASKING = frozenset(
    "what which whats how does do did is are was were has have had will would should can could please briefly "
    "say says said state states disclose discloses disclosed mention mentions note notes report reports "
    "highlight highlights comment comments commentary discussion disclosure disclosures tell me us language "
    "about on regarding concerning around re describe described summarize summarise outline discuss walk through "
    "give provide overview summary rundown description elaborate explain the a an its their our his her of in for "
    "to and or with by as at from this that these those it they them key main primary major "
    "company company's companys firm filing filings form annual report quarterly 10k 10-k 10q 10-q 20f 20-f 8k 8-k "
    "fiscal fy year years quarter period you i we any all some there s according per amid during end ending ended "
    "described lay lays set sets out forth around regarding concerning see sees face faces faced facing lay out outline highlight identify cite flag consider who whom "
    # a topic's frame, not its name: "liquidity position", "capital allocation approach"
    "position profile situation status picture overview approach where stand stands standing terms section sections".split())
_YEARISH = re.compile(r"^(?:fy)?'?\d{2,4}$|^q[1-4]$", re.I)


def asks_discussion(question: str) -> bool:
    """Does the question ask what the filing says about a topic (or how the company does a thing),
    rather than a figure, a verdict or why something changed?"""
    asked = asked_after_lead(question)
    if _HOW_MUCH.match(asked) or _WHY.search(asked):
        return False
    if (_SAYS_ABOUT.search(asked) or _DESCRIBE.match(asked) or _DOES_SAY.match(asked)
            or _AS_DESCRIBED.search(asked) or _FRAMED.match(asked) or _STANDS.match(asked) or _WHO.match(asked)
            or _EXPECTS.match(asked)):
        return True
    how = _HOW_DOES.match(asked)
    return bool(how and _PRACTICE.search(how.group("rest")))


# What the lines that answer hold: names ("who are X's competitors") or figures ("the terms of the deal",
# "what does X expect for capital expenditures")
_NAMES_ASKED = re.compile(r"^\W*(?:who|whom)\b|\b(?:competitors?|rivals|customers|clients|suppliers|vendors|peers)\b", re.I)
_FIGURES_ASKED = re.compile(r"\b(?:terms|outlook|guidance|expects?|expected|forecasts?|how\s+(?:much|many)|price|"
                            r"consideration|proceeds|settlement)\b", re.I)


def what_lines_hold(question: str) -> str | None:
    """"names" or "figures" when the question asks for them in what the filing says; else None."""
    asked = asked_after_lead(question)
    if _NAMES_ASKED.search(asked):
        return "names"
    if _FIGURES_ASKED.search(asked):
        return "figures"
    return None


def asked_after_lead(question: str) -> str:
    """The question after a label that leads it ("netflix 2017 liquidity - how does it plan to fund
    ..." -> "how does it plan to fund ..."); the question itself when none does."""
    lead = _LEAD.match(question)
    return lead.group("rest") if lead else question


def section_named(question: str, naming: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The words of the section a question names as where to read ("per the FY2018 10-K market risk
    section" -> ("market", "risk"); a label that leads it, "McDonald's 2022 10-K outlook: ..." ->
    ("outlook",); "(critical accounting policy, FY2022)" -> ("critical", "accounting", "policy"))."""
    named = _SECTION_NAMED.search(question)
    if named:
        return discussed_words(named.group("named") or named.group("policy"), naming)
    lead = _LEAD.match(question)
    return discussed_words(lead.group("lead"), naming) if lead else ()


def discussed_words(question: str, naming: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The words that name what an open question asks about, in order, once each: the question
    without its asking words, the company's names as the question writes them, years and filing
    words ("What does Verizon's 2021 10-K say about competition?" -> ("competition",))."""
    names = {t for n in naming for t in tokens(n)}
    out: list[str] = []
    for word in tokens(question):
        if word in _ASKING or word in names or _YEARISH.match(word) or len(word) < 2:
            continue
        if word not in out:
            out.append(word)
    return tuple(out)
