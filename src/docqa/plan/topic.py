"""Topic slot: Y of "did X disclose / report / pay Y?" and of "is X subject to Y?": the parts a
sentence must print (slots of stemmed phrases), the verb, and whether it asks that something happened."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from docqa.finance.lexicon import load_lexicon
from docqa.finance.topics import Topic, load_topics

# Verbs that ask whether the filing says something (a mention is enough) ...
_MENTION_VERBS = ("mention", "discuss", "describe", "outline", "address", "reference", "highlight", "cite",
                  "talk", "note", "list", "detail", "explain", "identify", "acknowledge")
# ... and verbs that ask whether something happened (the filing must state it, not suppose it).
_EVENT_VERBS = ("disclose", "announce", "report", "record", "recognize", "recognise", "reveal", "book", "take",
                "incur", "declare", "approve", "pay", "complete", "authorize", "authorise", "launch", "introduce",
                "initiate", "undertake", "conduct", "file", "settle", "face", "experience", "make", "issue",
                "adopt", "implement", "execute", "suffer", "undergo", "receive", "confirm")
# Verbs whose own meaning is part of what is asked ("approve the say-on-pay vote", "pay dividends").
_ACTION_VERBS = frozenset(("approve", "pay", "declare", "authorize", "authorise", "settle", "launch", "introduce",
                           "complete", "initiate", "issue"))
_VERB_FORMS_OF = {"pay": ("paid", "paying", "pays", "payment", "payments"), "approve": ("approval", "ratified", "adopted"),
                  "declare": ("declaration",), "settle": ("settlement", "resolved", "resolve", "resolution"), "launch": ("introduced",),
                  "introduce": ("introduction", "launched"), "complete": ("completion", "closed"),
                  "initiate": ("initiated", "commenced"), "issue": ("issued", "issuance", "issuing"), "authorize": ("authorization", "approved"),
                  "authorise": ("authorisation", "approved")}
# Verbs that ask whether a deal or a transaction happened, with the words a filing states it in
# ("did X buy out ..." / "completed a buyout of ..."): a synonym table, read after the verbs above.
DEAL_VERBS = {
    "buy": ("bought", "buying", "buys", "buyout", "purchase", "purchased", "acquire", "acquired", "acquisition"),
    "sell": ("sold", "selling", "sells", "sale", "dispose", "disposed", "disposal", "divest", "divested", "divestiture"),
    "acquire": ("acquired", "acquisition", "purchase", "purchased", "bought"),
    "repay": ("repaid", "repayment", "repayments", "prepaid", "prepayment", "extinguished", "retired", "payoff",
              "paid off", "paid in full"),
    "repurchase": ("repurchased", "repurchases", "buyback", "buybacks", "bought back"),
    "raise": ("raised", "raising", "proceeds", "issued", "placement", "placing", "subscription"),
    "borrow": ("borrowed", "borrowings", "drew", "drawn", "draw"),
    "close": ("closed", "closing", "completed", "completion"),
    "meet": ("met", "achieved", "achieve", "achieving", "reached"),
    "open": ("opened", "opening", "openings"),
    "exit": ("exited", "withdrew", "withdrawal"),
    "hire": ("hired", "appointed", "appointment"),
    "win": ("won", "awarded", "award"),
    "lose": ("lost", "loss"),
    "spin": ("spun", "spin-off", "spinoff", "separation", "separated"),
    "redeem": ("redeemed", "redemption"),
    "refinance": ("refinanced", "refinancing"),
}
# "pay off", "buy back": the verb and its particle are one verb.
_PHRASAL = {("pay", "off"): "repay", ("pay", "down"): "repay", ("pay", "back"): "repay", ("buy", "back"): "repurchase",
            ("buy", "out"): "buy", ("bring", "in"): "raise", ("take", "out"): "borrow", ("sell", "off"): "sell",
            ("spin", "off"): "spin", ("take", "over"): "acquire", ("close", "down"): "close"}
_IRREGULAR = {"paid": "pay", "took": "take", "taken": "take", "made": "make", "undertook": "undertake",
              "undertaken": "undertake", "underwent": "undergo", "undergone": "undergo", "suffered": "suffer"}

# Past forms a statement is told in ("Square acquired", "sales grew"), to ask it as "did ... <base>".
_PAST = {"paid": "pay", "took": "take", "made": "make", "sold": "sell", "bought": "buy", "drew": "draw", "grew": "grow",
         "rose": "rise", "fell": "fall", "won": "win", "spun": "spin", "met": "meet", "held": "hold", "lost": "lose",
         "began": "begin", "led": "lead", "gave": "give", "underwent": "undergo", "undertook": "undertake", "kept": "keep",
         "spent": "spend", "brought": "bring", "became": "become", "left": "leave", "sent": "send", "built": "build",
         "struck": "strike", "wrote": "write", "raised": "raise", "closed": "close", "issued": "issue",
         "repaid": "repay", "prepaid": "prepay"}


# every verb this module knows by its base form, read once: verb_base runs on words of every sentence scanned
_KNOWN_VERBS = frozenset((*_MENTION_VERBS, *_EVENT_VERBS, *DEAL_VERBS, *_VERB_FORMS_OF, *_PAST.values()))


def verb_base(word: str, past: bool = False) -> str | None:
    """The verb a lower-case word is a form of ("acquired": "acquire", "ratified": "ratify"), or
    None when it is no verb form this module knows; ``past`` takes past forms only."""
    w = word.lower()
    if w != word or not w.isalpha():
        return None  # a capitalised word is a name ("United", "Limited"), not the statement's verb
    if w in _PAST:
        return _PAST[w]
    if w in _IRREGULAR and not past:
        return _IRREGULAR[w]
    if not w.endswith("ed") or len(w) < 5:
        return None
    for base in (w[:-1], w[:-2], w[:-3] + "y" if w.endswith("ied") else "", w[:-3] if w[-3] == w[-4] else ""):
        if base and base in _KNOWN_VERBS:
            return base
    return w[:-3] + "y" if w.endswith("ied") else w[:-2]


_AUX = r"(?:did|does|do|has|have|had)"
_VERB_FORMS = "|".join(sorted({f"{v}(?:s|es|d|ed|ing)?" for v in (*_MENTION_VERBS, *_EVENT_VERBS)} |
                              set(_IRREGULAR), key=len, reverse=True))
_DISCLOSURE_Q = re.compile(
    rf"^\s*(?P<aux>{_AUX})\s+(?P<subject>(?:(?!\b(?:have|has|had|be|been|is|are|was|were|any)\b)[^?])+?)\s+(?:(?:ever|also|actually|formally|publicly|specifically|officially)\s+)?"
    rf"(?P<verb>{_VERB_FORMS})\b(?:\s+(?:or|and|/)\s+(?:{_VERB_FORMS})\b)*(?:\s+(?:on|of|about|to))?\s+(?P<topic>.+?)\s*[?.!]*\s*$",
    re.I,
)
# "Is X subject to Y?", "Was X able to Y?", "Is X spinning off Y?": whether the filing says so.
_STATE_Q = re.compile(r"^\s*(?:as\s+of\s+[^,]{1,30},\s*)?(?P<aux>is|are|was|were|does|do|has|have|had|did)\s+(?P<rest>[^?]+?)\s*\?", re.I)
_STATE_FILLER = frozenset("able there any anything subject outstanding have has had".split())

# Where the topic ends and the period or the document begins: "... in its fiscal 2017 10-K".
_SCOPE_TAIL = re.compile(
    r"\s+(?:(?:in|within|during|for|at|from|according\s+to|as\s+of|over|throughout|since|on|by|before|prior\s+to|per|"
    r"until|by\s+the\s+end\s+of)\s+"
    r"(?:(?:its|their|the|his|her|this|that|a|an|fiscal|fy|calendar|q[1-4]|first|second|third|fourth|"
    r"latest|most|recent|last|annual|quarterly|full|company'?s?|[\w.&'’-]+'s|[\w.&-]+’s)\s+){0,4}"
    r"(?:(?:fy|fiscal\s*)?'?\d{2,4}\b|10-?[kq]\b|8-?k\b|annual\s+(?:report|meeting|filing)|quarterly\s+report|"
    r"filing|report|year|quarter|proxy|form|meeting|agm\b|period|q[1-4]\b|fiscal\b)).*$"
    # the label a question opened with, moved behind it ("..., PepsiCo 2023 AGM"): a year or a filing in it
    r"|,\s+(?:(?-i:[A-Z])[\w.&'’-]*\s+|&\s+){0,4}(?:fy\s?'?\d{2,4}|q[1-4]\s+(?:19|20)\d\d|(?:19|20)\d\d|10-?[kq]|8-?k)"
    r"(?:\s+[\w-]+){0,2}\s*$",
    re.I,
)

_STOP = frozenset(
    "a an the any its their his her our of to in on for at by with and or as from over about into this that these "
    "those such some other is was were be been being are it there which who whom whose what how s".split())
# Words that grade or frame the topic but are not what must be printed ("any material legal battles").
_QUALIFIERS = frozenset(
    "material materially important significant major key ongoing notable substantial substantially large entire whole full "
    "big meaningful certain specific particular formal formally official officially public publicly new "
    "recent recently current currently potential possible actual actually company company's companies anything "
    "business firm fiscal year years annual quarter quarterly report reports filing 10 k q fy "
    "inc corp corporation ltd llc plc co "
    # linking words: "an impairment tied to bermekimab" is an impairment of bermekimab
    "tied related relating associated linked connected connection attributable under between among part portion "
    "million billion thousand".split())

_WORD = re.compile(r"[a-z0-9]+")
_PERIOD_TOKEN = re.compile(r"^(?:fy|q[1-4]|h[12])'?\d{2,4}$|^\d{1,2}q\d{2}$")
_DATE_WORDS = frozenset("january february march april may june july august september october november december".split())
# "Any material legal battles": a matter the filing itself calls immaterial is no.
_MATERIAL_ASKED = frozenset("material materially significant significantly important major substantial".split())


@lru_cache(maxsize=65536)  # every word of every page of a filing, for each yes/no question about it
def _stem(word: str) -> str:
    """A light stemmer: "restructuring" and "restructure", "impaired" and "impairment" meet."""
    w = word.lower().replace("’", "'")
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if len(w) <= 3:
        return w
    if w.endswith("ies") and len(w) > 5:
        return w[:-3] + "y"
    if w.endswith("ied") and len(w) > 5:
        return w[:-3] + "y"
    for suffix in ("ations", "ation", "ments", "ment", "ings", "ing", "als", "al", "ed", "es", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 4 and not (suffix == "s" and w.endswith("ss")):
            w = w[: -len(suffix)]
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'").replace("'s ", " ").replace("'", ""))


def _stems(text: str) -> list[str]:
    return [_stem(w) for w in _words(text)]



@dataclass(frozen=True)
class Slot:
    """One part of the topic that a sentence must print: any one of its phrases (stem tuples)."""

    label: str
    phrases: tuple[tuple[str, ...], ...]
    shown: tuple[str, ...] = ()             # the phrases as written, for the answer's scope
    key: str | None = None                  # the topic of topics.yaml it stands for


@dataclass
class Topic_:
    text: str                               # Y as asked
    slots: list[Slot]
    verb: str                               # the question's verb, as a stem
    event: bool                             # the verb asks whether something happened
    material: bool = False                  # "any material ...": a matter the filing calls immaterial is no
    optional: list[Slot] = field(default_factory=list)  # implied parts: a bonus when printed, not required
    state: bool = False                     # "is X subject to Y?": Yes on evidence, No only when denied
    existential: bool = False               # "were there any X", "was any X outstanding": whether X was there at all
    topics: list[Topic] = field(default_factory=list)

    def searched(self) -> list[str]:
        """The words and phrases scanned for, as a person reads them."""
        out: list[str] = []
        for slot in self.slots:
            out.append(slot.label)
        return out


def disclosure_question(question: str) -> re.Match | None:
    """The question's first sentence when it asks "did X <disclosure verb> Y"; the sentences after
    it ("If X is not useful, explain why.") say how to answer, not what."""
    first = re.split(r"(?<=\?)\s", question.strip(), maxsplit=1)[0]
    m = _DISCLOSURE_Q.match(first)
    if m is not None and m.group("verb")[:1].isupper():
        return None  # "... its Guaranteed Senior Notes": a capitalised word mid-sentence is a name, not the verb
    return m


def parse_topic(question: str, company_words: set[str] | None = None) -> Topic_ | None:
    """Y and the verb of a disclosure question; None when the question is not one."""
    m = disclosure_question(question)
    if not m:
        return None
    verb = _stem(m.group("verb"))
    base = next((v for v in (*_MENTION_VERBS, *_EVENT_VERBS) if _stem(v) == verb or m.group("verb").lower().startswith(v)),
                _IRREGULAR.get(m.group("verb").lower(), verb))
    topic_text, base = _particle(m.group("topic"), base)
    words = topic_text.split(maxsplit=1)
    if base == "report" and len(words) == 2 and (again := re.match(rf"(?:{_VERB_FORMS})$", words[0], re.I)):
        # "did X's 2022 annual report disclose Y": "report" was the subject's noun, the verb comes next
        base = _IRREGULAR.get(again.group(0).lower(), _stem(again.group(0)))
        base = next((v for v in (*_MENTION_VERBS, *_EVENT_VERBS) if _stem(v) == base), base)
        topic_text = words[1]
    return _topic(topic_text, base, company_words)


# "Did Walmart buy out ...", "Did Starvest sell ...": a named company, then what it did.
_DID_Q = re.compile(r"^\s*(?:[Dd]id|[Hh]as|[Hh]ave|[Hh]ad)\s+(?P<subject>(?:[A-Z&][\w.&’'-]*\s+){1,5})"
                    r"(?:(?:actually|ever|also|really|already|finally|formally|officially|publicly|successfully)\s+)?"
                    r"(?P<verb>[a-z]+)\s+(?P<topic>[^?]+?)\s*[?.!]*\s*$")
_OWNED_SUBJECT = tuple(
    re.compile(r"^\s*(?:[Dd]id|[Hh]as|[Hh]ave|[Hh]ad)\s+(?P<subject>(?:[A-Z&][\w.&’'-]*\s+){0,4}"
               rf"[A-Z&][\w.&-]*(?:'s|’s)\s+(?:[A-Za-z-]+\s+){{{n}}})"
               r"(?:(?:actually|ever|also|really|already|finally|formally|officially|publicly|successfully)\s+)?"
               r"(?P<verb>[a-z]+)\s+(?P<topic>[^?]+?)\s*[?.!]*\s*$")
    for n in range(3))
_NOT_A_VERB = frozenset("have has had be been being any ever also the a an its their total net gross".split())


def deal_topic(question: str, company_words: set[str] | None = None) -> Topic_ | None:
    """"Did X <verb> Y?" with a verb the disclosure verbs do not list: whether the filing states that
    X did it (an event), the verb's own forms and synonyms part of what must be stated when it
    names a transaction ("buy", "sell", "repay"); its object's words alone otherwise."""
    first = re.split(r"(?<=\?)\s", question.strip(), maxsplit=1)[0]
    m = _DID_Q.match(first)
    if m is not None and re.search(r"(?:'s|’s|s'|s’)\s", m.group("subject")) and m.group("verb") not in _KNOWN_VERBS \
            and verb_base(m.group("verb")) is None:
        # "Did Costco's Japanese subsidiary repay ...": the subject goes on to its noun; the verb is
        # the first word after it that is one
        m = next((o for o in (pattern.match(first) for pattern in _OWNED_SUBJECT)
                  if o is not None and (verb_base(o.group("verb")) is not None or o.group("verb") in _KNOWN_VERBS)),
                 None)
    if m is None or m.group("verb") in _NOT_A_VERB:
        return None
    verb = _IRREGULAR.get(m.group("verb"), m.group("verb"))
    topic_text, verb = _particle(m.group("topic"), verb)
    topic = _topic(topic_text, verb, company_words)
    if topic is not None:
        topic.event = True
    return topic


_DEAL_STEMS = frozenset(_stem(w) for verb, forms in DEAL_VERBS.items() for w in (verb, *forms) if " " not in w)


_COMPLETING = frozenset({"close", "complete", "finalize", "finalise", "consummate"})


@lru_cache(maxsize=1024)
def _deal_family(stem: str) -> tuple[str, ...]:
    """"sale": the words a filing states a sale in ("sold", "divested", ...)."""
    for verb, forms in DEAL_VERBS.items():
        words = [w for w in (verb, *forms) if " " not in w]
        if verb not in _COMPLETING and any(_stem(w) == stem for w in words):
            return tuple(dict.fromkeys(w for w in words if _stem(w) != stem))
    return ()


@lru_cache(maxsize=4096)
def _alike(stem: str) -> tuple[str, ...]:
    """The synonym table's words for a word ("minority": "noncontrolling", "non-controlling")."""
    if stem in _DEAL_STEMS:
        return ()  # "sale" is no "revenue" where a deal is asked
    out: list[str] = []
    for group in load_lexicon().words:
        singles = [w for w in group if " " not in w]
        if any(_stem(w) == stem for w in singles):
            out += [w for w in singles if _stem(w) != stem]
    return tuple(dict.fromkeys(out))


def _particle(topic: str, verb: str) -> tuple[str, str]:
    """"pay | off its term loan" -> "repay | its term loan"."""
    words = topic.split(maxsplit=1)
    if words and (verb, words[0].lower()) in _PHRASAL:
        return (words[1] if len(words) > 1 else ""), _PHRASAL[(verb, words[0].lower())]
    return topic, verb


def asks_event(question: str) -> bool:
    """"Did X report a goodwill impairment / announce a dividend increase?": an event the filing
    discloses (a topic of topics.yaml), which a balance or a direction of a figure does not answer."""
    topic = parse_topic(question)
    return bool(topic is not None and topic.topics)


def asks_deal(question: str) -> bool:
    """"Did X buy out / sell / complete Y?": something that happened, which the filing states or does not."""
    topic = parse_topic(question) or deal_topic(question)
    return topic is not None and topic.event


# A participle's verb where its form is no regular one ("drawn": borrow, "ratified": approve).
_FORM_OF = {f: verb for table in (DEAL_VERBS, _VERB_FORMS_OF) for verb, forms in table.items() for f in forms
            if " " not in f and f.endswith(("ed", "en", "wn", "id", "ld", "ght"))}
_EVENT_BASES = frozenset((*_EVENT_VERBS, *DEAL_VERBS, *_ACTION_VERBS))
# "a settlement was reached", "an agreement was entered into": the noun is the event, the verb says only that it was
_LIGHT = frozenset(("reached", "entered", "struck"))


def _passive(aux: str, words: list[str], company_words: set[str] | None) -> Topic_ | None:
    """"Was an impairment recorded (by X) on its Farmers Edge investment?", "Were the notes issued in
    June?", "Was anything drawn on the revolver?": "did X record / issue / borrow ...", an event the
    filing states or does not, with the participle as the question's verb."""
    if aux.lower() not in {"was", "were", "has", "have", "had"}:
        return None
    for i, word in enumerate(words[1:], start=1):
        plain = word.strip(",.;:")
        base = "record" if plain.lower() in _LIGHT else verb_base(plain, past=True)
        if base not in _EVENT_BASES and plain.islower():
            base = _FORM_OF.get(plain)   # "drawn": borrow, "ratified": approve
        if base is None or base not in _EVENT_BASES:
            continue
        before = [w for w in words[:i] if w.lower() not in {"been", "already", "actually", "ever", "also"}]
        topic_text, base = _particle(" ".join(words[i + 1:]), base)
        topic = _topic(" ".join((*before, topic_text)), base, company_words)
        if topic is not None:
            topic.event = True
        return topic
    return None


def asks_passive_event(question: str) -> bool:
    """"Was an impairment recorded ...?": an event asked in the passive."""
    m = _STATE_Q.match(re.split(r"(?<=\?)\s", question.strip(), maxsplit=1)[0])
    return m is not None and _passive(m.group("aux"), m.group("rest").split(), None) is not None


def parse_state(question: str, company_words: set[str] | None = None) -> Topic_ | None:
    """Y of "is X subject to Y?", "was X able to Y?": every content word past the company's name."""
    if disclosure_question(question):
        return None
    first = re.split(r"(?<=\?)\s", question.strip(), maxsplit=1)[0]
    m = _STATE_Q.match(first)
    if not m:
        return None
    words = m.group("rest").split()
    if (passive := _passive(m.group("aux"), words, company_words)) is not None:
        return passive
    rest = " ".join(w for w in words if _stem(w.strip(",.;:")) not in _STATE_FILLER
                    and w.strip(",.;:").lower() not in _STATE_FILLER)
    topic = _topic(rest, "state", company_words)
    if topic is not None:
        topic.state = True
        topic.existential = any(w.lower() in ("any", "anything", "there") for w in words[:4])
        names = company_words or set()
        plain = re.sub(r"\b(?:able\s+to|subject\s+to|there|any)\s+", "", _without_period(m.group("rest")), flags=re.I)
        shown = [w for w in plain.split() if not (set(_stems(w)) & names)]
        text = re.sub(r"\s+(?:at|in|of|on|for|by|from|to)(?:$|(?=\s+(?:tied|related|relating|linked|connected|attributable|"
                      r"associated)\b))", "", " ".join(shown).strip(" ,;:"), flags=re.I)
        topic.text = text or topic.text
    return topic


# "an IPR&D impairment in fiscal 2022 tied to bermekimab": what the topic is tied to is part of it,
# wherever the period falls
_LINKED = re.compile(r"\s+(?P<link>(?:tied|related|relating|linked|connected|attributable)\s+to|associated\s+with|in\s+connection\s+with)\s+"
                     r"(?P<object>[^,;?]+)", re.I)


def _without_period(raw: str) -> str:
    """Y without the period or filing it is asked of, keeping what Y is tied to."""
    linked = _LINKED.search(raw)
    if linked is not None:
        main = _SCOPE_TAIL.sub("", f"{raw[:linked.start()]} {raw[linked.end():]}".strip()).strip(" ,;:")
        raw = f"{main} {linked.group('link')} {_SCOPE_TAIL.sub('', linked.group('object')).strip()}"
    return _SCOPE_TAIL.sub("", raw).strip(" ,;:")


def _topic(raw: str, base: str, company_words: set[str] | None) -> Topic_ | None:
    raw = _without_period(raw)
    if not raw:
        return None
    company_words = company_words or set()
    topic_stems = [s for s in _stems(raw)]
    slots: list[Slot] = []
    used = [False] * len(topic_stems)
    matched_topics: list[Topic] = []
    # Longest ask phrases of a known topic first: "advisory say-on-pay vote" before "say-on-pay".
    asks = sorted(((tuple(_content(_stems(a))), t, a) for t in load_topics() for a in t.asks),
                  key=lambda x: -len(x[0]))
    for ask, topic, ask_text in asks:
        if not ask:
            continue
        n = len(ask)
        for i in range(len(topic_stems) - n + 1):
            window = [j for j in range(i, len(topic_stems)) if topic_stems[j] not in _STOP][:n]
            if len(window) == n and tuple(topic_stems[j] for j in window) == ask and not any(used[j] for j in window):
                whole = _stems(ask_text)
                if n == 1 and len(whole) > 1 and tuple(topic_stems[window[0]:window[0] + len(whole)]) != tuple(whole):
                    continue  # "operates in" is not any "operating": a one-word ask of more words is read whole
                for j in window:
                    used[j] = True
                forms: dict[tuple[str, ...], str] = {}
                for p in (ask_text, *topic.phrases):
                    forms.setdefault(tuple(_content(_stems(p))), p)
                slots.append(Slot(ask_text, tuple(p for p in forms if p), tuple(v for k, v in forms.items() if k),
                                  topic.key))
                matched_topics.append(topic)
                break
    # A statement line item named in words ("a net loss", "operating income") is one phrase, its
    # words together: "net increase in the expected credit loss" does not speak to a net loss.
    for m in load_lexicon().match(raw):
        phrase = tuple(_content(_stems(m.text)))
        n = len(phrase)
        if n < 2:
            continue
        for i in range(len(topic_stems)):
            window = [j for j in range(i, len(topic_stems)) if topic_stems[j] not in _STOP][:n]
            if len(window) == n and tuple(topic_stems[j] for j in window) == phrase and not any(used[j] for j in window):
                for j in window:
                    used[j] = True
                slots.append(Slot(m.text, (phrase,), (m.text,)))
                break
    implied = {k for t in matched_topics for k in t.implies}
    optional = [slot for slot in slots if slot.key in implied]  # not needed, but a sentence naming them reads better
    slots = [slot for slot in slots if slot.key not in implied]
    for j, s in enumerate(topic_stems):
        word = _words(raw)[j] if j < len(_words(raw)) else s
        if used[j] or s in _STOP or s in _QUALIFIERS or word in _QUALIFIERS or s in company_words or s.isdigit() \
                or len(word) < 2 or word in _DATE_WORDS or _PERIOD_TOKEN.match(word):  # "A&R", "Mary N."; a date is the period
            continue
        if any(slot.phrases == ((s,),) for slot in slots):
            continue
        alike = _alike(s) or _deal_family(s)   # the synonym table's words ("minority" / "noncontrolling"; "sale" / "sold")
        slots.append(Slot(word, tuple(dict.fromkeys(((s,), *((_stem(a),) for a in alike)))), (word, *alike)))
    if base in _ACTION_VERBS or base in DEAL_VERBS:  # "approve the say-on-pay vote": the sentence must say it was approved
        forms = (base, *_VERB_FORMS_OF.get(base, ()), *DEAL_VERBS.get(base, ()))
        if base in _COMPLETING:
            # "close the sale of X": "we sold X" states that the sale closed
            forms += tuple(f for j, t in enumerate(topic_stems) if not used[j] for f in _deal_family(t))
        slots.append(Slot(base, tuple(dict.fromkeys((_stem(f),) for f in forms)), forms))
    if not slots:
        return None
    material = any(w in _MATERIAL_ASKED for w in _words(raw))
    return Topic_(text=raw, slots=slots, verb=base, event=base not in _MENTION_VERBS, topics=matched_topics,
                  material=material, optional=optional)


def _content(stems: list[str]) -> list[str]:
    return [s for s in stems if s not in _STOP]


_TOPIC_FILLER = frozenset("a an the any of to on in its their".split())


def topic_is_a_line(question: str) -> bool:
    """The thing asked is wholly a line item the lexicon names ("dividends"), not an event that
    merely names one ("a goodwill impairment")."""
    topic = parse_topic(question)
    if topic is None:
        return False
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", topic.text) if w.lower() not in _TOPIC_FILLER]
    covered = {w.lower() for m in load_lexicon().match(topic.text) for w in re.findall(r"[A-Za-z]+", m.text)}
    return bool(words) and all(w in covered for w in words)
