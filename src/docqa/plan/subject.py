"""Subject slot: the companies a question names (held), the names it gives that no held company
answers to (unheld), and the held companies nearest those."""

from __future__ import annotations

import re

from docqa.plan.companies import _Held, _full_name, _held, common_word, normalize_name
from docqa.plan.names import OwnerCheck, WordCheck, closest, fuzzy_mentions, name_like_phrases
from docqa.text import fold
from docqa.types import Document

def detect_companies(question: str, documents: list[Document], is_word: WordCheck | None = None,
                     owner: OwnerCheck | None = None) -> list[str]:
    """Companies (by their canonical name) that the question mentions, in order of mention:
    names, aliases and tickers as the filings print them, then near-misses (search.names)."""
    return _detect_companies(question, _held(documents), is_word, owner)


def _detect_companies(question: str, held: _Held, is_word: WordCheck | None, owner: OwnerCheck | None) -> list[str]:
    return _mentions(question, held, is_word, owner)[0]


def _mentions(question: str, held: _Held, is_word: WordCheck | None,
              owner: OwnerCheck | None) -> tuple[list[str], tuple[str, ...]]:
    """The companies named, in order of mention, and the words the question names them with as it
    writes them ("J&J", "MSFT", "Lockheed"): those are no words of the line item asked."""
    norm = " " + normalize_name(question) + " "
    surfaces: list[str] = []
    mentions: set[tuple[int, int, str]] = set()  # (start, end, company) in the normalised question
    found: dict[str, int] = {}
    # "Annual Report" read as a company is no mention of one: held.exact leaves such names out.
    for name, company in held.exact:
        start = norm.find(" " + name + " ")
        while start >= 0:
            mentions.add((start, start + len(name) + 1, company))
            start = norm.find(" " + name + " ", start + 1)
    for company, ticker, pattern in held.tickers:
        if (hit := pattern.search(question)) is not None:
            found.setdefault(company, question.find(ticker))
            surfaces.append(hit.group(0))
    # A one-word name that is also an ordinary word ("First" of First Mid Bancshares) names the
    # company only when the question writes it as a name, capitalised, or when that company's
    # filings alone print the word: "the first quarter" names no bank.
    mentions = {m for m in mentions if not _ordinary_word_mention(norm[m[0]:m[1]].strip(), m[2], question, owner)}
    # Longest names first, and a name inside a longer one is not a second company:
    # "American Express" is not also "American" (Water Works). Two filers read by the same words
    # ("Odyssey" is both "Odyssey Gold Ltd" and "Odyssey Group Holdings, Inc.") are told apart by
    # the full name the question spells out; without one, both are meant.
    strict = " " + _full_name(question) + " "
    spelt = {company for full, company in held.full if f" {full} " in strict}
    taken: list[tuple[int, int, bool]] = []
    for start, end, company in sorted(mentions, key=lambda m: (m[0] - m[1], m[0], m[2] not in spelt, m[2])):
        if any(start < e and s < end and not ((s, e) == (start, end) and not was_spelt and company not in spelt)
               for s, e, was_spelt in taken):
            continue
        taken.append((start, end, company in spelt))
        found[company] = min(found.get(company, start), start)
        surfaces.extend(_as_written(norm[start:end], question))
    read = {norm[s:e].replace(" ", "") for s, e, _ in mentions}
    for m in fuzzy_mentions(question, held.table, is_word):
        if m.exact and m.text in read:
            continue  # a name the exact pass read, and gave to the company it names
        if re.search(rf"\b{re.escape(m.text)}\b", question, re.I) and _ordinary_word_mention(m.text, m.company, question, owner):
            continue
        found.setdefault(m.company, m.start)
        surfaces.append(question[m.start:m.end])
    if owner is not None:
        # "Lockheed's segment": the first word of a held name, when the filings that print that
        # word are (nearly all) that company's own.
        for word in dict.fromkeys(norm.split()):
            holders = held.firsts.get(word, frozenset())
            start = norm.find(" " + word + " ")
            if (len(holders) != 1 or len(word) < 4 or common_word(word)
                    or any(s <= start < e for s, e, _ in taken)):  # part of a name already read
                continue
            company = next(iter(holders))
            if company not in found and owner(word) == company:
                found[company] = start
                surfaces.extend(_as_written(word, question))
    return sorted(found, key=found.get), tuple(dict.fromkeys(s.strip() for s in surfaces if s.strip()))


_DEAL_NOUN = r"(?:acquisition|deal|merger|takeover|buyout|transaction|combination|purchase|divestiture|spin-?off)"
_DEAL_VERB = (r"(?:acquisition|acquiring|acquires?|acquired|purchases?|purchased|buy(?:ing|s)?|bought|merger|merging|"
              r"takeover|divestiture|sale|selling|sold|spin-?off)")


def _in_a_deal(surface: str, question: str) -> bool:
    """"the Activision Blizzard acquisition", "the acquisition of Arena", "merger with Aetna": the
    other party of a deal, named as what the deal is about, never its owner ("Microsoft's
    acquisition" names the buyer)."""
    name = re.escape(surface)
    return bool(re.search(rf"\b{_DEAL_VERB}\s+(?:of\s+|with\s+|by\s+)?(?:the\s+|its\s+)?(?:proposed\s+|pending\s+)?{name}(?!\w)",
                          question, re.I)
                or re.search(rf"\b(?:the|a|its|their|pending|proposed|planned)\s+(?:\w+\s+)?{name}\s+{_DEAL_NOUN}\b",
                             question, re.I))


def not_deal_parties(question: str, companies: list[str], named_as: tuple[str, ...], held: _Held,
                     is_word: WordCheck | None, owner: OwnerCheck | None) -> tuple[list[str], tuple[str, ...]]:
    """The companies asked about, without a held company named only as the other party of a deal
    the first one made ("MSFT FY23: where does the Activision Blizzard acquisition stand?" asks about
    Microsoft's filing; Activision Blizzard is what the deal is about): its name is a word of the topic."""
    if len(companies) < 2:
        return companies, named_as
    parties = [s for s in named_as if _in_a_deal(s, question)]
    dropped = {c for s in parties for c in _detect_companies(s, held, is_word, owner)}
    kept = [c for c in companies if c not in dropped]
    if not dropped or not kept:
        return companies, named_as
    return kept, tuple(s for s in named_as if s not in parties)


def _as_written(normalised: str, question: str) -> list[str]:
    """A name read in the normalised question ("j and j") as the question writes it ("J&J")."""
    words = [r"(?:and|&|n)" if w == "and" else re.escape(w) for w in normalised.split()]
    if not words:
        return []
    hit = re.search(r"(?<!\w)" + r"[\W_]*".join(words) + r"(?!\w)", fold(question), re.I)
    return [hit.group(0)] if hit is not None else []


def _another_name_goes_on(after: str, own: set[str]) -> bool:
    """The capitalised word after a one-word name is no word of the held company's name."""
    nxt = re.match(r"\s+([A-Z][a-z]+)\b", after)
    return nxt is not None and nxt.group(1).lower() not in own and nxt.group(1).lower() not in _NOT_ANOTHER_NAME


# after a held short name, a period word or a corporate word names the company or its subsidiary
# ("Odyssey Reinsurance Company" of Odyssey Group), not another company ("First Republic")
_NOT_ANOTHER_NAME = frozenset(
    "quarter half year fiscal annual quarterly reinsurance insurance bank bancorp bancshares group holdings holding "
    "capital financial company corporation corp inc ltd limited plc llc partners international global resources "
    "services systems technologies industries energy pharmaceuticals brands foods stores".split())


def _ordinary_word_mention(name: str, company: str, question: str, owner: OwnerCheck | None) -> bool:
    if " " in name or not name.isalpha():
        return False
    found = list(re.finditer(rf"\b{re.escape(name)}\b", question, re.I))
    own = {w.lower() for w in re.findall(r"[A-Za-z]+", company)}
    if found and all(_another_name_goes_on(question[m.end():], own) for m in found):
        return True  # "the First Republic acquisition": another name that begins with the word, not "First Mid"
    if any(m.group(0)[:1].isupper() for m in found):
        return False
    if re.match(rf"^\W*{re.escape(name)}(?:'s|’s)?\s*(?:[:\-–—]|(?:fy|fiscal\s+)?'?\d{{2,4}}\b|q[1-4]\b|10-?[kq]\b)",
                question, re.I):
        return False  # "amazon 2019 - which ...": the label a question opens with names its company
    return owner is None or owner(name) != company


def respelt(question: str, documents: list[Document], is_word: WordCheck | None = None) -> str:
    """The question with each near-miss of a held name ("Activison", "Pepsi co") written as the
    filing writes it, so that what is asked is read without a stray word."""
    return _respelt(question, _held(documents), is_word)


def _respelt(question: str, held: _Held, is_word: WordCheck | None) -> str:
    from docqa.ingest.metadata import short_name

    if len(fold(question)) != len(question):
        return question  # offsets of the folded text would not line up
    out = question
    for m in sorted(fuzzy_mentions(question, held.table, is_word), key=lambda m: -m.start):
        if not m.exact or " " in question[m.start:m.end]:
            out = out[:m.start] + short_name(m.company) + out[m.end:]
    return out


_RENAMED = re.compile(r"\b(?:formerly|previously|now\s+(?:known\s+as|called|named)|renamed|\(now|f/k/a|fka)\b", re.I)


def unheld_companies(question: str, documents: list[Document], detected: list[str]) -> tuple[list[str], list[str]]:
    """Name-like phrases of the question that are no held company, and the held companies closest
    to the first of them. A possessive ("Tesla's") counts even beside a held company; a cued name
    ("did Home Depot operate") only when the question names no held company."""
    return _unheld_companies(question, _held(documents), detected)


_A_PUBLIC_BODY = re.compile(r"\b(?:state|city|county|government|republic|commonwealth|province|kingdom|district|"
                            r"department|ministry)\s+of\s+(?:the\s+)?$"
                            # the other party of a deal: "the acquisition of M*Modal's technology business"
                            r"|\b(?:acquisition|purchase|sale|merger|divestiture|disposal)\s+(?:of|with)\s+(?:the\s+)?[\w*&.-]*$",
                            re.I)


def _unheld_companies(question: str, names: _Held, detected: list[str],
                      owner: OwnerCheck | None = None) -> tuple[list[str], list[str]]:
    out: list[str] = []
    for phrase in name_like_phrases(question, common_word):
        norm = normalize_name(phrase.text)
        if not norm or norm in names.known:
            continue
        if detected and owner is not None and norm and all(owner(w) in detected for w in norm.split()):
            continue  # "Sam's Club" beside Walmart: a name the company asked about prints as its own
        norm_words = norm.split()
        if any(norm in words or k in norm_words for k, words in names.known_words):
            continue
        if _detect_companies(phrase.text, names, None, None):
            continue  # a spelling of a held name
        possessive = re.match(r"^(?:'s|’s)", question[phrase.start + len(phrase.text):]) is not None
        if detected and _A_PUBLIC_BODY.search(question[:phrase.start]):
            continue  # "settle the State of Minnesota's lawsuit": a government party, not a filer asked
        if detected and (not possessive or _RENAMED.search(question)):
            continue  # "Block's (formerly known as Square)": one company by two names
        if detected and owner is not None and " " in norm and owner(norm) in detected:
            continue  # "Adobe ... larger than Digital Experience's": a name the company asked about prints as its own
        out.append(phrase.text)
    return out, (closest(out[0], set(names.canonical.values())) if out else [])


_ATTRIBUTABLE = re.compile(r"\b((?:attributable|available)\s+to\s+)([A-Z0-9][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*)*)")


def owner_as_the_company(question: str, companies: tuple[str, ...] | list[str]) -> str:
    """"net income attributable to Verizon": attributable to the company asked, as the lexicon and
    the statements word it ("attributable to the company", "... to Verizon Communications Inc.")."""
    words = {w.lower().strip(".,") for c in companies for w in c.split()}

    def own(m: re.Match) -> str:
        return f"{m.group(1)}the company" if m.group(2).split()[0].lower().strip("'’s") in words else m.group(0)
    return _ATTRIBUTABLE.sub(own, question) if companies else question
