"""A direction a filing states in a sentence: "Adjusted Free Cash Flow for fiscal 2023 was $848
million and compares with $1,066 million last year", "adjusted EPS of $10.15 increasing by 3.6%",
"declared a quarterly cash dividend of 12.25 cents per share (compared with 12.0 cents per share
in the same quarter last year)".

Runs after the tables found no figure for "did X go up / was X higher": a measure a filer prints
only in prose (a non-GAAP measure, a dividend rate) still has a verdict. A sentence answers when it
holds every word of what is asked (``plan.judged``), is about the period asked (the filing's own
year, or a sentence naming it; a quarter asked or a full year, not the other), is not an outlook,
and says the direction right after the asked words: a verb of moving ("increased", "declined") or
two amounts set against each other ("$848 million ... compares with $1,066 million"). Sentences that
disagree are no answer: wrong is worse than not found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.answer.contract import Evidence
from docqa.answer.extractive import units
from docqa.answer.sentence_figures import asked_words, filing_pages, holds_word
from docqa.finance.periods import quarters_named
from docqa.finance.rowlookup import normalized
from docqa.finance.text import stems
from docqa.plan import QuestionPlan
from docqa.text import fold
from docqa.types import Citation, Draft, EvidencePage
from docqa.verify.numbers import numbers_at

ANSWERER = "sentence moves"
MAX_WORDS_TO_MOVE = 8      # words between the asked measure and its verb of moving ("EPS of $10.15 increasing")
MAX_CHARS_TO_AMOUNTS = 90  # characters from the measure to the comparison's second amount
# "diluted" is how a filing's prose leaves EPS unsaid: "adjusted EPS" is the diluted figure
_UNSAID = frozenset(stems("diluted"))
_WORD = re.compile(r"[A-Za-z][A-Za-z'’&-]*")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_UP = re.compile(r"^(?:increas\w*|grew|grow|grows|growing|rose|rise|rises|rising|up|higher|improv\w*|expand\w*|climb\w*)$")
_DOWN = re.compile(r"^(?:decreas\w*|declin\w*|fell|fall|falls|falling|down|lower|drop\w*|reduc\w*|shrank|shrunk|"
                   r"contract\w*)$")
# "$848 million and compares with $1,066 million", "versus", "(compared with 12.0 cents ...)"
_SET_AGAINST = re.compile(r"\b(?:compar\w*\s+(?:with|to|against)|versus|vs\.?|against|from)\s*$", re.I)
_SET_AGAINST_BEFORE = re.compile(r"\b(?:compar\w*\s+(?:with|to)|versus|vs\.?|from)\b(?:[^.;]|\.\d)*$", re.I)  # "22.9%": no full stop
_OUTLOOK = re.compile(r"\b(?:guidance|outlook|expect\w*|anticipat\w*|forecast\w*|project\w*|will|target\w*|"
                      r"plan(?:s|ned)?\s+to|range)\b", re.I)
_FULL_YEAR = re.compile(r"\b(?:full[\s-]+year|fiscal\s+(?:year\s+)?(?:19|20)\d\d|twelve\s+months|year\s+ended)\b", re.I)
_QUARTER_WORD = re.compile(r"\bquarter\b|\bq[1-4]\b", re.I)


@dataclass(frozen=True)
class Move:
    rose: bool
    sentence: str
    page: EvidencePage
    rank: int


class SentenceMoveAnswerer:
    name = ANSWERER

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None:
        if plan.judgement not in ("up", "down") or not plan.judged or plan.sides is not None:
            return None
        subject, hard = asked_words(plan, plan.judged)
        if not hard:
            return None
        year = max(plan.years) if plan.years else None
        pages = list(evidence.pages)
        if evidence.filings is not None:
            pages += filing_pages(plan, evidence, evidence.filings)
        said = plan.as_the_filer_names(year)   # how the filing's sentences name the year asked
        moves = [m for rank, page in enumerate(pages) for m in _moves(page, rank, hard, year, plan.quarter, said)]
        if not moves or len({m.rose for m in moves}) > 1:
            return None
        best = min(moves, key=lambda m: m.rank)
        return _draft(best, subject, plan)


def _moves(page: EvidencePage, rank: int, hard: list[str], year: int | None, quarter: int | None,
           said: int | None = None) -> list[Move]:
    out = []
    for sentence in units(page):
        if "  " in sentence or _OUTLOOK.search(sentence):
            continue  # a table row (the tables were read before); an outlook is no move that happened
        if not _of_the_period(sentence, page, year, quarter, said):
            continue
        folded = fold(sentence)
        words = [(m.start(), m.end(), normalized(stems(m.group(0)))) for m in _WORD.finditer(folded)]
        at = _measure_at(words, hard)
        if at is None or not _of_the_span(folded[:words[at][0]], quarter):
            continue
        rose = _direction_after(folded, words, at)
        if rose is None:
            rose = _direction_before(folded, words, at, hard)
        if rose is not None:
            out.append(Move(rose, sentence, page, rank))
    return out


def _of_the_period(sentence: str, page: EvidencePage, year: int | None, quarter: int | None,
                   said: int | None = None) -> bool:
    """``year`` as the index dates the filing; ``said`` as its sentences name it (the same but for a
    filer that names a year by the calendar year it starts in)."""
    said = year if said is None else said
    years = {int(y) for y in _YEAR.findall(sentence)}
    if said is not None and years and said not in years and not (page.year == year and _only_the_year_before(sentence, said)):
        return False  # about another year
    if year is not None and not years and page.year != year:
        return False  # undated, in another year's filing
    if quarter is not None:
        named = quarters_named(sentence)
        # a quarter's filing speaks of its quarter when the sentence names no period at all
        return named == {quarter} or (not named and not years and not _FULL_YEAR.search(sentence))
    return not _QUARTER_WORD.search(sentence) or bool(_FULL_YEAR.search(sentence))


def _only_the_year_before(sentence: str, year: int) -> bool:
    """"The tax rate increased to 24.6% compared to 22.9% in the fourth quarter of fiscal 2021", in
    the fiscal 2022 filing: the only year named is the one it is set against."""
    named = [m for m in _YEAR.finditer(sentence)]
    return all(int(m.group(0)) == year - 1 and _SET_AGAINST_BEFORE.search(sentence[:m.start()]) for m in named)


_SPAN = re.compile(r"\b(?:full[\s-]+year|twelve\s+months|fiscal\s+year|year\s+ended)\b|(?P<quarter>\bquarter\b|\bq[1-4]\b)",
                   re.I)


def _of_the_span(before: str, quarter: int | None) -> bool:
    """The span the words before the measure last name ("2022 Fourth-Quarter ... EPS", "Full-Year ...
    EPS") is the one asked: a quarter when one is asked, the year otherwise."""
    spans = list(_SPAN.finditer(before))
    if not spans:
        return True
    return bool(spans[-1].group("quarter")) == (quarter is not None)


def _measure_at(words: list[tuple[int, int, list[str]]], hard: list[str]) -> int | None:
    """The index of the measure's last word where all its words stand together (within a few words)."""
    needed = [w for w in hard if w not in _UNSAID]
    for i, (_, _, st) in enumerate(words):
        if not holds_word(set(st), needed[-1]):
            continue
        # (the words of a segment may open the sentence: "Our Domestic segment experienced a decrease in gross profit rate")
        near = {s for _, _, ss in words[max(0, i - 4 - len(needed)):i + 1] for s in ss}
        if all(holds_word(near, w) for w in needed):
            return i
    return None


def _direction_after(folded: str, words: list[tuple[int, int, list[str]]], at: int) -> bool | None:
    """Rose (True), fell (False), or None: a verb of moving a few words after the measure, with at
    most its amount between, or its amount set against an earlier one."""
    end = words[at][1]
    for start, stop, _ in words[at + 1:at + 1 + MAX_WORDS_TO_MOVE]:
        word = folded[start:stop].lower()
        if _UP.match(word):
            return True
        if _DOWN.match(word):
            return False
        if word in {"and", "while", "but", "whereas"} or re.search(r"[;:]", folded[end:start]):
            break  # another clause: its verb is another measure's
    amounts = [(s, e, n) for s, e, n in numbers_at(folded[end:end + MAX_CHARS_TO_AMOUNTS], claims_only=True)
               if n.explicit and not n.percent]
    if len(amounts) >= 2:
        (_, first_end, now), (second_start, _, before) = amounts[0], amounts[1]
        if _SET_AGAINST.search(folded[end + first_end:end + second_start]) and now.magnitude != before.magnitude:
            return now.magnitude > before.magnitude
    return None


# "experienced a decrease in gross profit rate to 23.3% ... from 23.4%": the move named before the measure
_MOVE_NOUN = re.compile(r"^(?:increas\w*|decreas\w*|declin\w*|rise|rises|drop\w*|improv\w*|deteriorat\w*|"
                        r"reduc\w*|growth|expansion|contraction)$")
_MOVE_NOUN_DOWN = re.compile(r"^(?:decreas\w*|declin\w*|drop\w*|deteriorat\w*|reduc\w*|contraction)$")


def _direction_before(folded: str, words: list[tuple[int, int, list[str]]], at: int, hard: list[str]) -> bool | None:
    """Rose or fell, said by a noun of moving just before the measure: "a decrease in gross profit
    rate", "an increase of 5% in comparable sales"."""
    begins = at
    while begins > 0 and any(holds_word(set(words[begins - 1][2]), w) for w in hard):
        begins -= 1  # the measure's first word
    for start, stop, _ in reversed(words[max(0, begins - 4):begins]):
        word = folded[start:stop].lower()
        if _MOVE_NOUN.match(word) and re.match(r"\s+(?:of\s+[^,;]{1,20}?\s+)?in\s", folded[stop:]):
            return not _MOVE_NOUN_DOWN.match(word)
    return None


def _draft(move: Move, subject: str, plan: QuestionPlan) -> Draft:
    page = move.page
    asked_up = plan.judgement == "up"
    verdict = "Yes" if move.rose == asked_up else "No"
    label = subject[:1].upper() + subject[1:]
    moved = "rose" if move.rose else "fell"
    return Draft(
        text=f"{verdict}. {label} {moved}, as the filing states: “{move.sentence}” ({page.document} p. {page.page}).",
        found=True, answerer=ANSWERER, measure=label,
        citations=(Citation(document=page.document, document_id=page.document_id, page=page.page, quote=move.sentence),))
