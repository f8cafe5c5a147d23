"""A filing's outline: the headings it prints, found on each page (``quote_labels.headings``), and
the heading that names a topic an open question asks about, with the lines under it.

No list of section names is needed: "Competition and Related Trends", "Revenue Recognition",
"Litigation" are found because the question's words are printed in them. A topic's usual headings
(topics.yaml: "lawsuits" is headed "Legal Proceedings") widen the match; they never gate it.

A heading's section runs to the next heading printed at least as large (its level), a new Item or
Note, or ``MAX_PAGES`` pages; an Item that only points to a note ("see Note 12 - Commitments and
Contingencies") is followed into that note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from docqa.answer.quote_labels import headings
from docqa.text import stem, tokens

MAX_PAGES = 3            # a section read past this many pages is a chapter, not an answer
MIN_MATCH = 0.5          # how well a heading must name the topic (its word roots against the question's)
RECALL_WEIGHT = 0.7      # share of that score from the question's words the heading names
ALTERNATES_UP_TO = 3     # a topic's usual headings stand in for a short topic; a longer question names its own
PREFERRED = 0.1          # a heading in the Items where a known topic usually sits ranks this much higher
ROOT = 5                 # a stem this long may carry a suffix the stemmer left on its kin
LEVEL_SLACK = 0.4        # points a heading may be smaller than another and still be its peer
MIN_BODY_WORDS = 15      # fewer words under a heading before the next: it heads sub-sections
TOC_HEADINGS = 12        # a page listing more headings than this, with page numbers, is a table of contents

_FRAME = frozenset("item items note notes part section and or of the a an in on for to its our with by as at "
                   "from other related general".split())
_NUMBERED = re.compile(r"^(?:item|note|part)\s+[\divx]+[a-z]?\b|^\d{1,2}[.:)]\s", re.I)
_NOTE_POINTER = re.compile(r"\bNote\s+(\d{1,2})\b(?:\s*[,–—-]+\s*|\s+to\s+the\s+|\s+in\s+)?", re.I)
_PAGE_NUMBER_LINE = re.compile(r"\s\d{1,3}$")


@dataclass(frozen=True)
class Heading:
    page: int          # index into the filing's pages
    line: int          # index of its line on the page
    text: str
    height: float      # the printed line's height: larger type heads a larger section
    section: bool      # title or upper case
    lead_in: bool      # sentence case with a colon ("Operating income:"): a run-in label, not a heading


@dataclass(frozen=True)
class Section:
    heading: Heading
    score: float
    lines: tuple[tuple[int, tuple[str, ...]], ...]  # (page index, the lines under the heading on that page)


def outline(pages: Sequence) -> list[Heading]:
    """Every heading of the filing, in reading order (a table of contents' entries left out)."""
    found: list[Heading] = []
    for index, page in enumerate(pages):
        text = page.text
        on_page = headings(text)
        lines = list(page.lines)
        if len(on_page) > TOC_HEADINGS and sum(bool(_PAGE_NUMBER_LINE.search(ln.text)) for ln in lines) > TOC_HEADINGS:
            continue
        for h in on_page:
            box = lines[h.line].bbox if h.line < len(lines) else None
            height = (box[3] - box[1]) if box is not None else 0.0
            found.append(Heading(page=index, line=h.line, text=h.text, height=height, section=h.section,
                                 lead_in=h.lead_in))
    return found


def roots(text: str) -> list[str]:
    return [w for w in tokens(text) if w not in _FRAME and not w.isdigit() and len(w) > 1]


def same_root(a: str, b: str) -> bool:
    """"competition" and "compete", "recognize" and "recognition": one root; "investigations" and
    "investments" are not (Snowball stems, and a suffix the stemmer leaves on one of them)."""
    if a == b:
        return True
    x, y = stem(_BRITISH.sub(r"iz\1", a)), stem(_BRITISH.sub(r"iz\1", b))
    if x == y:
        return True
    short, long_ = (x, y) if len(x) <= len(y) else (y, x)
    return len(short) >= ROOT and long_.startswith(short) and long_[len(short):] in _LEFT_SUFFIXES


# "recognise", "amortisation": the -ize spelling the stemmer joins to "recognition", "amortization"
_BRITISH = re.compile(r"(?<=\w{4})is(e|es|ed|ing|ation|ations)$")
_LEFT_SUFFIXES = frozenset({"it", "at", "iv", "or", "er", "ic", "al", "ment", "e", "itor", "ition"})


def match(heading: str, words: Sequence[str], alternates: Sequence[str] = ()) -> float:
    """How well ``heading`` names the topic: the Dice overlap of its word roots with the question's,
    or with a usual heading of the topic printed whole in it."""
    printed = roots(_NUMBERED.sub("", heading))
    if not printed:
        return 0.0
    best = _dice(printed, list(words))
    for alternate in alternates:
        wanted = roots(alternate)
        if wanted and all(any(same_root(w, p) for p in printed) for w in wanted):
            best = max(best, 0.9 * _dice(printed, wanted))
    return best


def _dice(printed: list[str], wanted: list[str]) -> float:
    """Mostly how much of what is asked the heading names, partly how little else it names: a
    heading's frame ("Quantitative and Qualitative Disclosures About Market Risk") costs less than a
    word asked that it lacks."""
    if not wanted:
        return 0.0
    hit_printed = sum(any(same_root(p, w) for w in wanted) for p in printed)
    hit_wanted = sum(any(same_root(w, p) for p in printed) for w in wanted)
    return RECALL_WEIGHT * hit_wanted / len(wanted) + (1 - RECALL_WEIGHT) * hit_printed / len(printed)


def find_section(pages: Sequence, words: Sequence[str], alternates: Sequence[str] = (),
                 prefer: frozenset[str] = frozenset(), heads: list[Heading] | None = None) -> Section | None:
    """The section whose heading best names the topic, with its lines; an Item that points to a
    note is followed there. ``prefer``: the Items where the topic usually sits (ties go to them).
    The question's own words come first; the topic's usual headings only when they find none.
    ``heads``: the filing's outline, when the caller has read it already."""
    heads = outline(pages) if heads is None else heads
    if not heads:
        return None
    scored = [(match(h.text, words), h) for h in heads]
    if alternates and len(words) <= ALTERNATES_UP_TO and max(s for s, _ in scored) < MIN_MATCH:
        scored = [(match(h.text, words, alternates), h) for h in heads]

    def rank(item: tuple[float, Heading]) -> tuple:
        score, h = item
        info = getattr(pages[h.page], "info", None)
        preferred = bool(info is not None and in_items(info.section, prefer))
        return (round(score + (PREFERRED if preferred and score >= MIN_MATCH else 0.0), 2), h.section, h.height, -h.page)

    best = max(scored, key=rank)
    if best[0] < MIN_MATCH:
        return None
    section = Section(best[1], best[0], _lines_under(pages, heads, best[1]))
    pointed = _pointed_note(pages, heads, section, words, alternates)
    return pointed or section


def in_items(section: str | None, items) -> bool:
    """Is the page's section one of ``items`` ("Part II, Item 7" is Item 7)?"""
    return bool(section) and any(section == i or section.endswith(f", {i}") for i in items)


def _end_of(pages: Sequence, heads: list[Heading], head: Heading) -> Heading | None:
    """The heading that ends ``head``'s section: the next of its level or above, a new Item or Note (a
    heading with no text of its own before the next one heads sub-sections: it runs past them)."""
    after = (h for h in heads if (h.page, h.line) > (head.page, head.line))
    return next((h for h in after if _closes(h, head) and (_hard_stop(h) or _words_between(pages, head, h) >= MIN_BODY_WORDS)),
                None)


def heads_under(pages: Sequence, heads: list[Heading], section: Section, up_to: int) -> list[Heading]:
    """The headings inside ``section`` (its sub-sections), within ``up_to`` pages of its heading: a
    section the question names as where to read ("per the market risk section") is a chapter, longer
    than the part of it that answers."""
    head = section.heading
    # its sub-headings are often printed as large as it is: only a new Item or Note, or a larger
    # heading, ends a named section
    end = next((h for h in heads if (h.page, h.line) > (head.page, head.line)
                and (_hard_stop(h) or (not h.lead_in and h.height > head.height + LEVEL_SLACK))), None)
    stop = (end.page, end.line) if end is not None else (head.page + up_to, 0)
    return [h for h in heads if (head.page, head.line) < (h.page, h.line) < stop and h.page < head.page + up_to]


def _lines_under(pages: Sequence, heads: list[Heading], head: Heading) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The lines from ``head`` to the next heading of its level or above, a new Item or Note."""
    after = [h for h in heads if (h.page, h.line) > (head.page, head.line)]
    end = _end_of(pages, heads, head)
    out: list[tuple[int, tuple[str, ...]]] = []
    # a sub-heading is no part of a sentence: "Hedging Instruments In countries outside ..." is not quoted
    titled = {(h.page, h.line) for h in after}
    for index in range(head.page, min(len(pages), head.page + MAX_PAGES)):
        lines = pages[index].text.split("\n")
        start = head.line + 1 if index == head.page else 0
        stop = end.line if end is not None and end.page == index else len(lines)
        if end is not None and end.page < index:
            break
        out.append((index, tuple("" if (index, i) in titled else lines[i] for i in range(start, stop))))
        if end is not None and end.page == index:
            break
    return tuple(out)


def _closes(other: Heading, head: Heading) -> bool:
    return _hard_stop(other) or (not other.lead_in and other.height >= head.height - LEVEL_SLACK)


def _hard_stop(other: Heading) -> bool:
    """A new Item or Note ends any section."""
    return bool(_NUMBERED.match(other.text) and re.match(r"(?:item|note)\b", other.text, re.I))


def _words_between(pages: Sequence, head: Heading, other: Heading) -> int:
    count = 0
    for index in range(head.page, other.page + 1):
        lines = pages[index].text.split("\n")
        start = head.line + 1 if index == head.page else 0
        stop = other.line if index == other.page else len(lines)
        count += sum(len(line.split()) for line in lines[start:stop])
    return count


def _pointed_note(pages: Sequence, heads: list[Heading], section: Section, words: Sequence[str],
                  alternates: Sequence[str]) -> Section | None:
    """"See Note 12 - Commitments and Contingencies": an Item that says no more than where the topic
    is discussed is answered from that note (its sub-heading that names the topic, if it has one)."""
    body = " ".join(line for _, lines in section.lines for line in lines)
    if len(body.split()) > 120:
        return None
    pointer = _NOTE_POINTER.search(body)
    if pointer is None:
        return None
    number = pointer.group(1)
    opens = re.compile(rf"^(?:note\s+)?{number}(?:[.:)]|\s+[–—-])?\s+\S", re.I)
    start = next((h for h in heads if h.page > section.heading.page and opens.match(h.text)), None)
    if start is None:
        return None
    inside = _lines_under(pages, heads, start)
    last_page = inside[-1][0] if inside else start.page
    within = [h for h in heads if (start.page, start.line) < (h.page, h.line) and h.page <= last_page + MAX_PAGES]
    named = [(match(h.text, words), h) for h in within]
    if max((s for s, _ in named), default=0.0) < MIN_MATCH:
        named = [(match(h.text, words, alternates), h) for h in within]
    best = max(named, key=lambda x: (x[0], -x[1].page), default=(0.0, None))
    if best[1] is not None and best[0] >= MIN_MATCH:
        return Section(best[1], best[0], _lines_under(pages, heads, best[1]))
    return Section(start, section.score, inside)
