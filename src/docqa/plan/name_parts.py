"""Names handed out one by one are parts of a question: "the Domestic and International segments",
"both North America and Western Europe", "… — United States and Canada", "in Developed Europe and
Emerging Markets", "the U.S. segment and the International Operated Markets segment"; a single name
that holds "and" ("Safety and Industrial") is left whole."""

from __future__ import annotations

import re

from docqa.finance.lexicon import load_lexicon
from docqa.plan.list_words import LIST_JOIN, VERSUS as _VERSUS

NAME = r"[A-Z][A-Za-z.&'’-]*(?:\s+[A-Z][A-Za-z.&'’-]*)*"
GROUPS = re.compile(rf"(?<![\w'’])(?P<names>{NAME}(?:{LIST_JOIN}{NAME})+)\s+"
                     r"(?P<noun>(?:reportable\s+|operating\s+|business\s+)?"
                     r"(?:segments|regions|divisions|businesses|units|geographies))\b")


def by_group(question: str) -> tuple[str, ...]:
    """"Revenue of the Domestic and International segments": each segment's figure, named by its
    own name ("the Domestic segment"); a single name that holds "and" ("Safety and Industrial
    segment") is left whole, as the noun is not plural."""
    found = list(GROUPS.finditer(question))
    if len(found) != 1:
        return _by_named(question)
    match = found[0]
    names = [n.strip() for n in re.split(LIST_JOIN, match.group("names")) if n.strip()]
    start = match.start()
    owner = re.match(r".*['’]s\s+", names[0])
    if owner:  # "Best Buy's Domestic and International segments": the owner stays before the list
        start += owner.end()
        names[0] = names[0][owner.end():]
    if len(names) < 2 or len(set(names)) < len(names):
        return ()
    noun = match.group("noun")
    singular = noun[:-3] + "y" if noun.endswith("ies") else noun[:-2] if noun.endswith("sses") else noun[:-1]
    head, tail = question[:start], question[match.end():]
    if tail[:1] in ("'", "’"):
        tail = tail[:1] + "s" + tail[1:]  # "the segments' revenues": the segment's
    return tuple(f"{head}{name} {singular}{tail}" for name in names)


# Names handed out one by one without a plural noun: "both Canadian Operations and Other International
# Operations operating income", "Segment Adjusted EBITDA for 2019 — Canada and EMEA?". ("Safety and
# Industrial operating income" is one name: without "both" or the list set apart, "and" may be a name's.)
_BOTH = re.compile(rf"\b(?i:both)\s+(?:the\s+)?(?P<names>{NAME}(?:{LIST_JOIN}(?:the\s+)?{NAME})+)(?=\s+[a-z(])")
SET_APART = re.compile(rf"\s*(?:[:\u2013\u2014]|\s-)\s*(?P<names>{NAME}(?:{LIST_JOIN}{NAME})+)\s*(?P<end>[?.]?)\s*$")


# "rev in Developed Europe and Emerging Markets": places of two or more words each, after "in" at the
# end (one-word names joined by "and" may be one name: "in Safety and Industrial")
_NAME_OF_TWO = r"[A-Z][A-Za-z.&'’-]*(?:\s+[A-Z][A-Za-z.&'’-]*)+"
_IN_NAMES = re.compile(rf"\s(?P<prep>in|for|across)\s+(?:the\s+)?(?P<names>{_NAME_OF_TWO}(?:{LIST_JOIN}(?:the\s+)?{_NAME_OF_TWO})+)"
                       r"\s*(?P<end>[?.]?)\s*$")
# "EBIT for North America vs Greater China in fiscal 2021", "revenue from Americas, EMEA and Asia Pacific
# for 2017": members after a preposition, a period after them for all; one-word names only in a list
# of three or more, or set against each other by "vs" ("in Safety and Industrial" stays one name)
_MEMBERS = re.compile(rf"\s(?P<prep>in|for|across|of|from)\s+(?:the\s+)?(?P<names>{NAME}(?:(?:{LIST_JOIN}|{_VERSUS})(?:the\s+)?{NAME})+)"
                      r"(?P<end>(?:,?\s+(?:in|for|during|at|as\s+of|on|within)\s+[^?]*?)?\s*[?.]?)\s*$")
_THE = re.compile(r"^the\s+", re.I)


# "the U.S. segment and the International Operated Markets segment", "Limbach's GCR segment and its ODR
# segment": two names, each with the same noun after it (a name may hold "and": "US and Utilities SBU")
_CAPS = r"[A-Z][\w.&'’-]*(?:\s+(?:and\s+|&\s+|of\s+)?[A-Z][\w.&'’-]*)*"
_REPEATED = re.compile(rf"(?P<a>{_CAPS})\s+(?P<noun>[A-Za-z]+)\s+and\s+(?:the\s+|its\s+|their\s+)?(?P<b>{_CAPS})\s+(?P=noun)\b")
_POSSESSOR = re.compile(r"^(?:[A-Z][\w.&-]*\s+){0,3}[A-Z][\w.&-]*['’]s?\s+")


def _by_repeated_noun(question: str) -> tuple[str, ...]:
    found = _REPEATED.search(question)
    if found is None or found.group("noun").lower() in _SMALL_NOUNS:
        return ()
    a, start = found.group("a"), found.start()
    owner = _POSSESSOR.match(a)
    if owner:  # "Limbach's GCR segment and its ODR segment": the owner stays before each
        a, start = a[owner.end():], start + owner.end()
    if not a or a == found.group("b"):
        return ()
    noun, head, tail = found.group("noun"), question[:start], question[found.end():]
    return tuple(f"{head}{name} {noun}{tail}" for name in (a, found.group("b")))


_SMALL_NOUNS = frozenset("and or the of in for to from at by on with as".split())


def _by_named(question: str) -> tuple[str, ...]:
    if repeated := _by_repeated_noun(question):
        return repeated
    both = _BOTH.search(question)
    if both:
        # the names end where a measure begins ("Western Europe | EBIT")
        end = min([m.span[0] for m in load_lexicon().match(question, every=True)
                   if both.start("names") < m.span[0] < both.end("names")], default=both.end("names"))
        names = [_THE.sub("", n.strip()) for n in re.split(LIST_JOIN, question[both.start("names"):end]) if n.strip()]
        head, tail = question[:both.start()], question[end:].lstrip()
        tail = f" {tail}" if tail else ""
        return tuple(f"{head}{n}{tail}" for n in names) if len(names) > 1 else ()
    places = _IN_NAMES.search(question)
    if places:
        names = [_THE.sub("", n.strip()) for n in re.split(LIST_JOIN, places.group("names")) if n.strip()]
        head = question[:places.start()]
        return (tuple(f"{head} {places.group('prep')} {n}{places.group('end')}" for n in names)
                if len(set(names)) == len(names) > 1 else ())
    members = _by_members(question)
    if members:
        return members
    apart = SET_APART.search(question)
    if apart and any(m.span[0] < apart.end("names") and apart.start("names") < m.span[1]
                     for m in load_lexicon().match(question, every=True)):
        apart = None  # "...: SG&A?": a measure's own "&", not two names
    if apart and apart.start() > 0:
        names = [n.strip() for n in re.split(LIST_JOIN, apart.group("names")) if n.strip()]
        head = question[:apart.start()].rstrip(" ,")
        return tuple(f"{head} in {n}{apart.group('end')}" for n in names) if len(set(names)) == len(names) > 1 else ()
    return ()


def _by_members(question: str) -> tuple[str, ...]:
    found = _MEMBERS.search(question)
    if found is None:
        return ()
    versus = re.search(_VERSUS, found.group("names")) is not None
    names = [_THE.sub("", n.strip()) for n in re.split(rf"{LIST_JOIN}|{_VERSUS}", found.group("names")) if n.strip()]
    if (len(set(names)) < len(names) or not 2 <= len(names) <= 6
            or (len(names) == 2 and not versus and any(len(n.split()) < 2 for n in names))):
        return ()
    if any(m.span[0] < found.end("names") and found.start("names") < m.span[1]
           for m in load_lexicon().match(question, every=True)):
        return ()  # a measure's own words ("research and development"), not names
    head = question[:found.start()]
    return tuple(f"{head} {found.group('prep')} {n}{found.group('end')}" for n in names)
