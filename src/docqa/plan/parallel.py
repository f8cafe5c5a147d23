"""Parts read from parallel wording, with no measure named: two phrases of the same shape joined by
"and", "as well as", "along with" or "vs", each a figure of its own.

- two places or parts after the same kind of preposition: "revenue in EMEA and in APAC", "cash in the
  United States and outside the U.S.", "Biopharma revenues in the U.S., as well as internationally",
  "deferred revenue at July 29, 2023 and at January 28, 2023";
- a second question that asks "how many" or "how much" again, without a verb of its own: "How many
  Fios internet connections did Verizon have at the end of 2022, and how many Fios video connections?"
  takes the first's verb and period.

Each part is the question with one of the phrases in place of both. The first phrase starts at the
last preposition before the join; what follows the second phrase (a period, an owner) is both's.
"""

from __future__ import annotations

import re

from docqa.plan.list_words import MONTH

_JOINED = re.compile(r",?\s+(?:and|&|as\s+well\s+as|along\s+with|together\s+with|vs\.?|versus)\s+", re.I)
_PREPOSITION = r"(?:in|at|outside(?:\s+of)?|inside|within|from|for|to|on|by|of)"
_STARTS_PHRASE = re.compile(rf"^(?:{_PREPOSITION})\s+\S", re.I)
# A place said by an adverb: "as well as internationally"
_ADVERB = re.compile(r"^(?:internationally|domestically|overseas|abroad|globally|worldwide|elsewhere)\b", re.I)
_LAST_PREPOSITION = re.compile(rf"\b(?:{_PREPOSITION})\s+(?=\S)", re.I)
# What follows the second phrase for both: a period or a day ("at May 29, 2022", "in fiscal 2023").
_TAIL = re.compile(rf"\s+(?:(?:at|as\s+of|on|in|for|during)\s+(?:the\s+)?(?:end\s+of\s+)?"
                   rf"(?:(?:fiscal\s+)?(?:year\s+)?(?:19|20)\d\d\b|{MONTH}\s+\d|fy\s?\d|q[1-4]\b|fiscal\b|"
                   rf"(?:first|second|third|fourth)\s+quarter|(?:(?:first|last)\s+)?(?:three|six|nine|twelve)\s+months))", re.I)
_DATED = re.compile(rf"^(?:at|as\s+of|on)\s+(?:{MONTH}\s+\d{{1,2}},?\s+)?(?:19|20)\d\d\b", re.I)
_ASKS_AGAIN = re.compile(r"^(?:how\s+(?:many|much))\s+(?P<what>[^?]+?)\s*\??$", re.I)
_VERB = re.compile(r"\b(?:did|does|do|was|were|is|are|has|have|had|will|would)\b", re.I)
_FIRST_ASKS = re.compile(r"^\W*how\s+(?:many|much)\s+(?P<what>.+?)\s+(?P<rest>(?:did|does|do|was|were|is|are|has|have|had)\b.*?)"
                         r"\s*[?.]?\s*$", re.I)
_CLAUSE_JOIN = re.compile(r"(?:\?\s*|,\s*)(?:and\s+)?(?=how\s+(?:many|much)\b)", re.I)
_A_YEAR_ONLY = re.compile(r"(?:(?:in|for|during|at|as\s+of|by)\s+)?(?:the\s+)?(?:end\s+of\s+)?(?:fiscal\s+)?(?:year\s+)?"
                          r"(?P<year>(?:19|20)\d\d)", re.I)
# "of those were covered by ...", "of them are franchised": a part of what the first counts
_OF_THOSE = re.compile(r"^of\s+(?:those|them|these|which)\s+(?P<rest>(?:were|was|are|is|had|have)\b.+)$", re.I)
_HAD = re.compile(r"^(?:did|does|do)\s+(?P<owner>.+?)\s+(?:have|has|had|employ|operate|serve|own)\b(?P<tail>.*)$", re.I)
_DID_AGAIN = re.compile(r"^(?:did|does|do|will|would)\s+(?:it|they|the\s+company|the\s+group)\s+(?P<verb>[a-z]+)\b(?P<tail>.*)$", re.I)
_DID_WHAT = re.compile(r"^(?P<aux>did|does|do|will|would)\s+(?P<owner>.+?)\s+(?P<verb>[a-z]+)\b(?P<tail>(?:\s+(?:in|during|for|at|by|as\s+of)\b.*)?)$")
_LABEL = re.compile(r"^[^?:;]{1,60}:\s+(?=how\s+(?:many|much)\b)", re.I)
MAX_WORDS = 8


def by_parallel(question: str) -> tuple[str, ...]:
    """The parts of a question that joins two phrases of one shape, or () when it does not."""
    return _second_question(question) or _verb_after_both(question) or _two_phrases(question)


# "How many stores and how many employees did Best Buy have at ...": both asked first, the verb after them
_BOTH_FIRST = re.compile(r"^\W*(?P<lead>how\s+(?:many|much))\s+(?P<a>[^?,]+?)\s+and\s+how\s+(?:many|much)\s+(?P<b>[^?,]+?)\s+"
                         r"(?P<rest>(?:did|does|do|was|were|is|are|has|have|had)\b[^?]*?)\s*(?P<end>[?.]?)\s*$", re.I)


def _verb_after_both(question: str) -> tuple[str, ...]:
    found = _BOTH_FIRST.match(question)
    if found is None or _VERB.search(found.group("a")) or _VERB.search(found.group("b")):
        return ()
    return tuple(f"{found.group('lead')} {found.group(k)} {found.group('rest')}{found.group('end')}" for k in ("a", "b"))


def _two_phrases(question: str) -> tuple[str, ...]:
    text = question.rstrip(" ?.")
    end = "?" if question.rstrip()[-1:] == "?" else ""
    handed_out = _RESPECTIVELY.search(text) is not None
    text = _RESPECTIVELY.sub("", text)
    joins = [j for j in _JOINED.finditer(text) if _STARTS_PHRASE.match(text[j.end():]) or _ADVERB.match(text[j.end():])]
    shared = False   # the second phrase takes the first's preposition: "for Cash App and Seller, respectively"
    if not joins:
        joins = [j for j in _JOINED.finditer(text) if handed_out or _same_head(text, j)]
        shared = True
    if len(joins) != 1 or _BETWEEN.search(text[:joins[0].start()]):
        return ()  # "between the end of fiscal 2019 and March 26, 2019": one span, not two figures
    join = joins[0]
    right = text[join.end():]
    tail = _TAIL.search(right, 1) if not _DATED.match(right) else None
    if tail is not None:
        right, rest = right[:tail.start()], right[tail.start():]
    else:
        right, rest = right, ""
    opened = list(_LAST_PREPOSITION.finditer(text, 0, join.start()))
    if not opened:
        return ()
    own = _STARTS_PHRASE.match(right.strip())
    same = [o for o in opened if own and o.group(0).split()[0].lower() == right.strip().split()[0].lower()]
    if same and not shared:
        # "for the second quarter of 2023 and for the first six months of 2023": the left phrase opens
        # with the right one's preposition, not with the last one inside it ("of 2023")
        opened = same
    left_start = opened[-1].start()
    left = text[left_start:join.start()].strip(" ,")
    head = text[:left_start].rstrip()
    if shared:
        right = f"{opened[-1].group(0)}{right.strip()}"
    if not left or not head or len(left.split()) > MAX_WORDS or len(right.split()) > MAX_WORDS:
        return ()
    if _a_period(left) != _a_period(right):
        return ()  # "in fiscal 2021 and in the U.S.": not two of a kind
    if _VERB.search(left) or _VERB.search(right):
        return ()  # a clause, not a phrase
    return (f"{head} {left}{rest}{end}", f"{head} {right.strip()}{rest}{end}")


_BETWEEN = re.compile(r"\bbetween\b", re.I)
_RESPECTIVELY = re.compile(r",?\s+respectively\s*$", re.I)


def _a_period(phrase: str) -> bool:
    return bool(_DATED.match(phrase) or _TAIL.match(f" {phrase}"))


def _same_head(text: str, join: re.Match) -> bool:
    """"of U.S. operations and non-U.S. operations": the same noun ends both, after one preposition."""
    opened = list(_LAST_PREPOSITION.finditer(text, 0, join.start()))
    if not opened:
        return False
    left = text[opened[-1].end():join.start()].split()
    right = text[join.end():]
    tail = _TAIL.search(right)
    right_words = (right[:tail.start()] if tail else right).split()
    return (1 <= len(left) <= MAX_WORDS and 1 <= len(right_words) <= MAX_WORDS and len(right_words) >= 2
            and left[-1].lower() == right_words[-1].lower() and left != right_words)


def _second_question(question: str) -> tuple[str, ...]:
    """"How many X did Y have at Z, and how many W?": the second asks W of Y at Z."""
    cuts = list(_CLAUSE_JOIN.finditer(question))
    if len(cuts) != 1:
        return ()
    first, second = question[:cuts[0].start()].strip(), question[cuts[0].end():].strip()
    label = _LABEL.match(first)
    if label:  # "PG&E 2022: how many ...": the label is both questions'
        head, first = label.group(0), first[label.end():]
        return tuple(f"{head}{part}" for part in _second_of(first, second))
    return _second_of(first, second)


def _second_of(first: str, second: str) -> tuple[str, ...]:
    asked, again = _FIRST_ASKS.match(first), _ASKS_AGAIN.match(second)
    if asked is None or again is None:
        return ()
    what = again.group("what")
    lead = re.match(r"^\W*how\s+(?:many|much)", first, re.I).group(0)
    if (part := _OF_THOSE.match(what)) and (whose := _HAD.match(asked.group("rest"))):
        # "How many regular employees did the Utility have at ..., and how many of those were covered
        # by ...?": a part of the first count, of the same owner at the same day
        noun = asked.group("what").strip()
        return (f"{first.rstrip(' ?.')}?",
                f"{lead} of {whose.group('owner')}'s {noun} {part.group('rest').rstrip(' ?.')}{whose.group('tail').rstrip(' ?.')}?")
    if (verb := _DID_AGAIN.match(what)) and (did := _DID_WHAT.match(asked.group("rest"))):
        # "How many restaurants did McDonald's open in 2022? And how many did it close?": the first's
        # noun, owner and period, the second's verb
        tail = verb.group("tail").rstrip(" ?.") or did.group("tail").rstrip(" ?.")
        return (f"{first.rstrip(' ?.')}?",
                f"{lead} {asked.group('what').strip()} {did.group('aux')} {did.group('owner')} {verb.group('verb')}{tail}?")
    if _VERB.search(what):
        return ()
    if (year := _A_YEAR_ONLY.fullmatch(what)) and (said := list(re.finditer(r"(?<!\d)(?:19|20)\d\d(?!\d)", first))):
        # "..., and how many in 2017?": the same count for another year
        last = said[-1]
        return (f"{first.rstrip(' ?.')}?", f"{first[:last.start()]}{year.group('year')}{first[last.end():].rstrip(' ?.')}?")
    rest = asked.group("rest").rstrip(" ?.")
    # "... in the Domestic segment": the second's own place goes after the verb it borrows
    place = re.search(rf"\s+(?:{_PREPOSITION})\s+.*$", what, re.I)
    noun, own = (what[:place.start()], place.group(0)) if place else (what, "")
    return (f"{first.rstrip(' ?.')}?", f"{lead} {noun} {rest}{own}?")
