"""QuestionPlan: what a question asks, read once, in typed slots that every later stage reads.

Nothing after the planner reads the question's words to decide what was asked: search derives
its query from the plan, the asker picks answerers by ``intent``, and the answerers read the
slots. A follow-up's plan states what it took from the conversation (``inherited``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from docqa.finance.currency import Currency
from docqa.finance.formulas import Format
from docqa.finance.lexicon import MetricMatch
from docqa.finance.periods import Period
from docqa.plan.composition import Composition
from docqa.plan.judgement import STABLE_BAND, Compared, Threshold
from docqa.plan.lines import LineAsked
from docqa.plan.topic import Topic_
from docqa.plan.measures import GrossOf, MeasureReading
from docqa.plan.periods import AskedPeriods, Scheduled
from docqa.plan.ranking import Ranked
from docqa.types import DocType, SearchFilters, StatementKind


class Intent(str, Enum):
    """The kind of answer asked for; the asker's table maps each to the answerers that give it."""

    STATISTIC = "statistic"      # a count over a whole document: pages, words, mentions of a term
    PARTS = "parts"              # several measures asked at once: each part answered, one reply
    FILING_FACT = "filing_fact"  # a fact the cover or signature page prints: auditor, state, signer
    LIST = "list"                # "which products / segments ...": what a sentence enumerates
    EVENT = "event"              # "did X report a goodwill impairment": what the filing says happened
    YES_NO = "yes_no"            # a verdict on a figure: its direction, sign, level, a threshold
    WHY = "why"                  # "what drove ...": the filing's explanation
    SECTION = "section"          # "what are the main risks?": the Item that discusses it, quoted
    RANK = "rank"                # "which segment had the highest operating income?": the group's table, ranked
    SCHEDULED = "scheduled"      # "debt maturing in 2025": a later year's figure the filing schedules or expects
    VALUE = "value"              # a figure, a ratio, a change: read and computed from the statements
    TEXT = "text"                # anything else: the lines that answer it


@dataclass(frozen=True)
class Statistic:
    kind: str                    # "pages" | "words" | "count"
    term: str | None = None


@dataclass(frozen=True)
class QuestionPlan:
    question: str                                  # as asked (a follow-up: made whole)
    content: str = ""                              # without the instructions around it ("Round to ...")
    core: str = ""                                 # without provisos ("If X is not useful, say why")
    expansions: tuple[str, ...] = ()               # printed forms of the line items it names (the lexicon's)
    boilerplate: bool = False                      # asks about forward-looking statements / safe harbor
    rewritten: str = ""                            # misspelt company names spelt as the filings spell them
    # subject
    companies: tuple[str, ...] = ()                # held companies named, canonical names, in order of mention
    named_as: tuple[str, ...] = ()                 # the words naming them, as written ("J&J", "MSFT"): no line item's
    unheld: tuple[str, ...] = ()                   # name-like phrases that match no held company
    closest: tuple[str, ...] = ()                  # held companies nearest the first unheld name
    # periods
    years: tuple[int, ...] = ()                    # fiscal years named (a period end's year by the filer's calendar)
    quarter: int | None = None
    period_end: str | None = None                  # "for the fiscal year ending May 28, 2023" (ISO)
    day: str | None = None                         # "as of May 26, 2023" (ISO): a current report of that day
    balance_day: str | None = None                 # "as of July 29, 2023": the filing that closes on it
    ytd_months: int | None = None                  # "the six months ended": 6 or 9; 0: "year to date"
    quarter_span: bool = False                     # "the three months ended <date>": a quarter, by its end
    year_ended: bool = False                       # "the year ended <date>", "at year-end": a whole year, by its end
    latest: bool = False                           # "the most recent 10-Q"
    forward_looking: bool = False                  # "guidance", "expects": published the year before
    periods: AskedPeriods = field(default_factory=AskedPeriods)
    scheduled: Scheduled | None = None             # a year after the filing's own, read off that filing
    # filings
    doc_types: tuple[DocType, ...] = ()
    groups: tuple[SearchFilters, ...] = ()         # the filings each company's question reads, in turn
    notes: tuple[str, ...] = ()                    # why a period could not be honoured exactly
    # measures and topics
    measures: tuple[MetricMatch, ...] = ()         # lexicon matches: metrics and formulas named
    reading: MeasureReading = field(default_factory=MeasureReading)  # which are asked, joined, qualified, over time
    terms: tuple[str, ...] = ()                    # the content's words, for lexical search
    words: tuple[str, ...] = ()                    # the question's words in order, as written: what a short form spells
    phrases: tuple[str, ...] = ()                  # printed forms of what is asked (lexicon, topics)
    statements: frozenset[StatementKind] = frozenset()
    statement_named: bool = False                   # the question names where the line is printed ("on the 2021 income statement")
    sections: frozenset[str] = frozenset()         # Items that usually hold the topic asked about
    discloses: bool = False                        # "did X disclose / report Y", "is X subject to Y"
    topic: Topic_ | None = None                    # Y of "did X <verb> Y" (or of "is X subject to Y": state)
    section_topics: tuple[str, ...] = ()           # topics whose open questions their section answers
    section_items: tuple[str, ...] = ()            # ... and those sections ("Item 1A")
    section_words: tuple[str, ...] = ()            # how filings print those topics ("risk factors")
    discussed: tuple[str, ...] = ()                # an open question's topic words ("say about competition")
    section_named: tuple[str, ...] = ()            # where the question says to read ("per the market risk section")
    lines_hold: str | None = None                  # what the quotes should hold: "names" (competitors), "figures" (terms)
    discussed_as: tuple[str, ...] = ()             # how filings head that topic (topics.yaml: "legal proceedings")
    # what kind of answer
    intent: Intent = Intent.TEXT
    statistic: Statistic | None = None
    verdict: bool = False                          # "is / did / has X ...?"
    why: bool = False                              # "what drove ...", "why ..."
    judgement: str | None = None                   # what a yes/no about a figure asks: "up", "positive" ...
    judged: str = ""                               # the words of what a direction is asked of ("adjusted free cash flow")
    # the verdict is a figure's: its direction as the question's verb ("did paid memberships increase"), its
    # level, or another figure beside it; not an event a noun of moving names ("announce a dividend increase")
    on_a_figure: bool = False
    tied: bool = False        # an event asked of one program or level ("under its $1.0 billion program")
    # years named as the filer names them, read as the index dates them: Ulta's "fiscal 2022" ends in
    # January 2023 and is held as fiscal 2023 (from, to)
    renamed: tuple[tuple[int, int], ...] = ()
    sign: bool = False                             # "did X report a net loss": a line's sign
    gross_of: tuple[GrossOf, ...] = ()             # "before deducting royalties": the amount before what is taken off
    loss_named: bool = False                       # "did the net loss shrink": the measure is named as a loss
    bottom_line: bool = False                      # "was X profitable": the bottom line's sign, no line named
    threshold: Threshold | None = None             # "more than 10%", "below $5 billion"
    sides: Compared | None = None                  # "was A larger than B": the two sides' words
    band: float = STABLE_BAND                      # "not more than roughly 2%": how far a stable measure may move
    moves: str | None = None                       # "up" / "down": the question's words of a direction
    amount: bool = False                           # a number is asked ("how much", "in USD millions", a line item)
    counted: str | None = None                     # "how many stores ...": the noun counted
    kinds: frozenset[str] = frozenset()            # the kind of number asked: per_share, share_of, count
    asks_figure: bool = False                      # "what / how much ...", not "what drove": a figure asked
    part_of_whole: bool = False                    # "what percentage of FY2023 buybacks occurred in Q4"
    format: Format = field(default_factory=Format)  # scale, decimals, percent asked
    currency: Currency | None = None               # "in euros"
    pick: bool | None = None                       # "which ... the most" (True) / "the least" (False)
    ranked: Ranked | None = None                   # "which segment had the highest ...": a group's member ranked
    listed: tuple[str, ...] = ()                   # metric keys the question lists to compare
    which: bool = False                            # "which segment ...": an entity is asked, not the figure
    line: LineAsked | None = None                  # "the largest current liability": a line of a kind
    fact: str | None = None                        # a cover or signature fact: address, incorporation, auditor, signer
    list_noun: tuple[str, tuple[str, ...]] | None = None  # "what are its business segments": noun, qualifiers
    composition: Composition | None = None         # arithmetic the question states ("A as a share of B")
    convention: str | None = None                  # "average" | "year_end": the balances asked
    defined_inputs: tuple[str, ...] = ()           # "ROA using net income and total assets": the inputs named
    filers_own: bool = False                       # "as reported by the company", "did Amcor report": the filer's own figure
    main_clause: str = ""                          # the question without its format instructions and definition
    line_clause: str = ""                          # ... and without the verb "did X's segment make" asks with
    # words in brackets that may say where the row sits ("property, plant and equipment (deferred tax
    # liabilities)", "compensation expense (after-tax)"): read as the row's, when a row prints them
    asides: tuple[str, ...] = ()
    nouns_of: tuple[tuple[tuple[int, int], str], ...] = ()  # "an impairment of | plant and equipment": span, noun
    narrowed_by: tuple[tuple[tuple[int, int], str], ...] = ()  # "capital expenditures for | pollution control"
    linking: tuple[str, ...] = ()                  # "goodwill | sat | in the segment": a verb no label prints, if none does
    parts: tuple[str, ...] = ()                    # "revenue and operating income": one question per measure
    scope: tuple[str, ...] = ()                    # "the Electronics and Energy segment", "in Russia": a part of the company
    inherited: tuple[str, ...] = ()                # of "company", "period", "metric", "scope"

    @property
    def dated(self) -> str | None:
        """The date a filing asked for closes on: a period end, else a balance's date."""
        return self.period_end or self.balance_day

    @property
    def asked(self) -> str:
        """The question as the answerers read it: names spelt as the filings do."""
        return self.rewritten or self.question

    def as_the_filer_names(self, year: int | None) -> int | None:
        """The year as the filer's own text names it (``renamed`` read back): what its sentences print."""
        return next((said for said, held in self.renamed if held == year), year)

    def asked_periods(self, default_year: int | None = None) -> list[Period]:
        return self.periods.resolve(default_year)

    @property
    def company_stems(self) -> frozenset[str]:
        """The stems of the companies asked about, as held and as the question names them ("AMD")."""
        from docqa.finance.text import stems

        return frozenset(w for c in (*self.companies, *self.named_as) for w in stems(c))

    @property
    def metric_keys(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m.key for m in self.measures if m.kind == "metric"))
