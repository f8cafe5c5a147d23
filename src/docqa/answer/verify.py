"""Check an answerer's draft against the pages it cites; what cannot be checked does not survive.

Every answerer (extractive, figures, language models) hands its ``Draft`` through ``verify``:

* a citation survives only if its quote occurs on the cited page as stored (whitespace, case,
  curly quotes, dashes, line-end hyphenation and table-cell spacing do not matter);
* every number in the answer text must be printed on a surviving cited page (across a unit
  shift and the answer's own rounding), be given in the question, or follow from the draft's
  arithmetic (a formula or a ``Figure(computed=True)``) whose inputs are printed on cited pages;
* years, item/note/page numbers, quarters and form names are references, not claims, and are
  not checked.

The outcome is ``verified`` (everything checked), ``partial`` (something was dropped but a cited,
grounded answer is left) or ``not_found`` (nothing verifiable is left: ``found=False``, a reason).
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Iterable, Literal

from docqa.injection import looks_like_instruction
from docqa.text import fold, normalize_for_match, tokens
from docqa.types import Answer, Citation, Draft, Figure

NOT_FOUND_TEXT = "Not found in the documents."

REASON_NO_CITATIONS = "the answer cites no evidence"
REASON_CITATIONS_NOT_FOUND = "the answer's citations could not be found on the cited pages"
REASON_INSTRUCTION = ("the answer repeats a passage that tries to instruct the reader (an instruction planted in "
                      "the document), so it is not given")
REASON_DROPPED_QUOTE = "the answer repeats a passage that is not on the page it cites"
REASON_NUMBERS = "none of the answer's figures ({}) are printed on the cited pages or follow from them"

# --- whose filing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Grounding:
    """Whose filings an answer may stand on.

    ``allowed`` holds the document ids and file names of the question's company (or companies, or
    the documents it was scoped to); empty means the question named none and the index holds one company or
    the caller scoped nothing. ``company_of`` maps document ids and file names to their company.
    Whatever ``allowed`` says, one answer's figures come from one company's filings unless the
    question compares companies.
    """

    allowed: frozenset[str] = frozenset()
    company_of: Mapping[str, str | None] = field(default_factory=dict)
    companies_asked: int = 0

    def company(self, document: str | None) -> str | None:
        return self.company_of.get(document or "")


def _ground(draft: Draft, grounding: Grounding) -> tuple[Draft, int, str | None]:
    """The draft with citations of other companies' filings removed, how many were, and a reason
    to refuse it outright: a figure read from another company's filing, or one formula fed by two
    companies' figures."""
    dropped = 0
    if grounding.allowed:
        foreign = [f for f in draft.figures if not f.computed and f.document and f.document not in grounding.allowed]
        if foreign:
            f = foreign[0]
            return draft, 0, (f"the figure {f.text!r} was read from {f.document} "
                              f"({grounding.company(f.document) or 'company unknown'}), not a filing of the company asked about")
        kept = tuple(c for c in draft.citations if c.document_id in grounding.allowed)
        dropped = len(draft.citations) - len(kept)
        draft = draft.model_copy(update={"citations": kept})
    if grounding.companies_asked <= 1 and draft.figures:
        sources = {grounding.company(f.document) for f in draft.figures if not f.computed and f.document}
        sources |= {grounding.company(c.document_id) for c in draft.citations}
        if len(sources) > 1:
            shown = ", ".join(sorted(s or "company unknown" for s in sources))
            return draft, dropped, f"the answer's figures come from more than one company's filings ({shown})"
    return draft, dropped, None


# --- what is asked ----------------------------------------------------------------------------

REASON_MEASURE_PREFIX = "the draft answers"
# Words of a label that say how it was computed or whose it is, not which line item it reads.
_GENERIC_MEASURE_WORDS = frozenset(
    "total net of for the and in a an to as s fiscal year quarter share percent percentage proportion fraction "
    "portion ratio change growth rate average per over divided by less minus plus segment segments".split())


def measure_asked(question: str, measure: str | None) -> bool:
    """Is the draft's measure the question's? Each content word of the measure's label must be the
    question's own (or interchangeable with one, as the lexicon's ``words`` say), unless the
    lexicon reads the question as that very measure ("capex" is "Capital expenditures"). An
    answer to a neighbour ("Operating margin" for a net interest margin) fails."""
    if not measure:
        return True
    from docqa.finance.lexicon import load_lexicon
    from docqa.finance.rowlookup import has_word, normalized
    from docqa.finance.text import stems

    lexicon = load_lexicon()
    labels = set()
    for m in lexicon.match(question):
        entry = lexicon.metric(m.key) if m.kind == "metric" else lexicon.formula(m.key)
        labels.add(entry.label.lower())
    said = measure.lower()
    if any(label in said for label in labels):
        return True  # "Change in revenue from ...", "2015-2017 average cost of revenue (cogs) ..."
    from docqa.plan.intent import asks_verdict

    if asks_verdict(question):
        return True  # a yes/no verdict shows the figures it judged by, under their own names
    said = re.sub(r"\([^)]*\)|\bfrom\b.*$", " ", measure)  # "(cogs)", "from fiscal 2016 ($135,987 million) to ..."
    asked = set(normalized(stems(question)))
    # names (a company's, a segment's as the answerer spells it) are whose figure it is, not which
    words = re.findall(r"[\w&'’.-]+", said)
    plain = " ".join(w for i, w in enumerate(words) if not w.endswith(("'s", "’s"))
                     and (i == 0 or not w[:1].isupper() or w.isupper() and len(w) <= 5))
    wanted = [w for w in normalized(stems(plain)) if w not in _GENERIC_MEASURE_WORDS and not w.isdigit()]
    return all(has_word(asked, w) for w in wanted)


# --- numbers ---------------------------------------------------------------------------------

_SCALES = {
    "thousand": 1e3, "thousands": 1e3, "k": 1e3,
    "million": 1e6, "millions": 1e6, "mn": 1e6, "mm": 1e6, "m": 1e6,
    "billion": 1e9, "billions": 1e9, "bn": 1e9, "b": 1e9,
    "trillion": 1e12, "trillions": 1e12, "tn": 1e12,
}

_NUMBER = re.compile(
    r"""
    (?P<open>\()?
    (?P<sign>[-+])?
    (?:(?P<cur>[$\u20ac\u00a3\u00a5])[ ]?)?
    (?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
    (?P<close>\))?
    (?:[ ]?(?P<pct>%|percent\b|per[ ]?cent\b|pct\b))?
    (?:(?P<sp>[ ]?)(?P<scale>thousands?|millions?|billions?|trillions?|mn|mm|bn|tn|[kmb])(?![a-z]))?
    """,
    re.X | re.I,
)

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_REFERENCE_BEFORE = re.compile(
    r"(?:\b(?:items?|parts?|notes?|pages?|p\.|pp\.|sections?|exhibits?|schedules?|forms?|rules?|articles?"
    r"|chapters?|tables?|figures?|footnotes?|lines?|steps?|levels?|tiers?|phases?|no\.|nos\.|#)"
    r"|\b(?:" + _MONTHS + r")\.?)\s*$",
    re.I,
)
_MONTH_AFTER = re.compile(r"^,?\s*(?:" + _MONTHS + r")\b", re.I)
_FORM_AFTER = re.compile(r"^-[a-z]\b", re.I)
_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b")

# Constants of arithmetic that a formula may use without a page printing them.
_CONSTANTS = {1.0, 2.0, 4.0, 12.0, 100.0, 360.0, 365.0, 1000.0}


@dataclass(frozen=True)
class Number:
    """A number as written: ``magnitude`` is unsigned and already multiplied by its scale word."""

    raw: str
    magnitude: float
    decimals: int      # significant digits after the point: sets the rounding tolerance
    scale: float       # 1e6 for "million"; the tolerance is in these units
    percent: bool
    explicit: bool     # has a currency sign, % or scale word: never a year or a reference

    @property
    def tolerance(self) -> float:
        # Half a unit of the last digit written: "4.8%" stands for anything in [4.75, 4.85].
        return 0.5 * 10 ** (-self.decimals) * self.scale * (1 + 1e-9) + 1e-12 * self.magnitude


def _to_number(match: re.Match) -> Number | None:
    num = match.group("num").replace(",", "")
    try:
        value = float(num)
    except ValueError:
        return None
    # Trailing zeros are formatting, not precision: "$4.60" and "1577.00" claim what "$4.6" and "1577" do.
    decimals = len(num.split(".", 1)[1].rstrip("0")) if "." in num else 0
    scale_word = (match.group("scale") or "").lower()
    # A lone letter (k, m, b) is a scale only glued to an amount ("$5m"; not "5 m", "3M", "10K").
    if scale_word in {"k", "m", "b"} and (match.group("sp") or not match.group("cur")):
        scale_word = ""
    scale = _SCALES.get(scale_word, 1.0)
    raw = match.group(0).strip()
    if not scale_word and match.group("scale"):
        raw = raw[: len(raw) - len(match.group("scale"))].strip()
    return Number(
        raw=raw,
        magnitude=abs(value) * scale,
        decimals=decimals,
        scale=scale,
        percent=bool(match.group("pct")),
        explicit=bool(match.group("cur") or match.group("pct") or scale_word),
    )


def _is_reference(text: str, match: re.Match, number: Number) -> bool:
    """Years, item numbers, quarters, form names and dates: references, not claims."""
    if number.explicit:
        return False
    start, end = match.start("num"), match.end("num")
    before = text[max(0, start - 14) : start]
    after = text[end : end + 12]
    if before[-1:].isalpha() or before[-1:] in {"'", "\u2019"}:
        return True  # Q2, P1, FY2018, H1, '18
    if len(before) >= 2 and before[-1] == "-" and before[-2].isalpha():
        return True  # COVID-19, S-1
    if after[:1].isalpha() and not (after[:1].lower() == "x" and not after[1:2].isalpha()):
        return True  # 10K, 7A, 2nd, 3rd
    if _FORM_AFTER.match(after):
        return True  # 10-K, 8-K, 20-F
    if _REFERENCE_BEFORE.search(before):
        return True  # Item 7, Note 5, page 38, December 31
    if _MONTH_AFTER.match(after):
        return True  # 31 December
    if number.decimals == 0 and "," not in match.group("num") and 1900 <= number.magnitude <= 2100:
        return True  # a year
    return False


def numbers_in(text: str, claims_only: bool = False) -> list[Number]:
    """Numbers written in ``text``; with ``claims_only`` years and references are left out."""
    text = fold(text)
    if claims_only:  # dates (12/31/2017, 2017-12-31) are references: blank them out, keep offsets
        text = _DATE.sub(lambda m: " " * len(m.group(0)), text)
    out = []
    for match in _NUMBER.finditer(text):
        # A bare number glued to a preceding digit or point is the tail of a longer token ("1.2.3").
        start = match.start("num")
        if match.start() == start and start > 0 and (text[start - 1].isdigit() or text[start - 1] == "."):
            continue
        number = _to_number(match)
        if number is None:
            continue
        if claims_only and _is_reference(text, match, number):
            continue
        out.append(number)
    return out


def _shifts(claim: Number) -> tuple[int, ...]:
    # Unit shifts ($1,577 million = $1.577 billion = 1577.00) apply to amounts, not to percentages.
    return (0,) if claim.percent else (-4, -3, -2, -1, 0, 1, 2, 3, 4)


def matches(claim: Number, values: Iterable[float], percent_of_ratio: bool = False) -> bool:
    """Does ``claim`` (as rounded) agree with any of ``values`` across a unit shift?

    With ``percent_of_ratio`` a percentage claim also matches a ratio (37.1% ~ 0.3707).
    """
    tol = claim.tolerance
    for value in values:
        value = abs(value)
        candidates = [value]
        if percent_of_ratio and claim.percent:
            candidates.append(value * 100)
        for candidate in candidates:
            for k in _shifts(claim):
                if abs(claim.magnitude - candidate * 1000.0**k) <= tol:
                    return True
    return False


# --- quotes ----------------------------------------------------------------------------------

_HYPHEN_BREAK = re.compile(r"(\w)-\s*\n\s*(\w)")
_INNER_HYPHEN = re.compile(r"(\w)-(\w)")
_ELLIPSIS = re.compile(r"\s*(?:\.\s?\.\s?\.|\u2026)\s*")
_QUOTE_MARKS = "\"'`\u201c\u201d\u2018\u2019 "
# A "quote" that tells a model what to do is an injection attempt, not evidence of anything
# (docqa.injection.looks_like_instruction decides).
MIN_CARRIED_TOKENS = 6  # a run this long of a dropped quote's words in the answer means the answer repeats it


def quoted_text(citations: Iterable[Citation]) -> str:
    """The text of an answer made of its quotes (the extractive answerer's): each quote once, cited,
    after what it is about when the answer says ("Safety and Graphics Business (2018): “...”")."""
    parts, seen = [], set()
    for c in citations:
        key = normalize_for_match(c.quote)
        if key not in seen:
            seen.add(key)
            about = f"{c.about}: " if c.about else ""
            parts.append(f"{about}\u201c{c.quote}\u201d (p. {c.page})")
    return " \u2026 ".join(parts)


def _carries(text: str, quote: str) -> bool:
    """Does ``text`` repeat ``quote`` (a run of ``MIN_CARRIED_TOKENS`` of its words; all of a
    shorter quote only when it instructs: a short row label shared with the answer is no repeat)?"""
    words = tokens(quote)
    if not words or (len(words) < MIN_CARRIED_TOKENS and not looks_like_instruction(quote)):
        return False
    haystack = " " + " ".join(tokens(text)) + " "
    n = min(MIN_CARRIED_TOKENS, len(words))
    return any(" " + " ".join(words[i:i + n]) + " " in haystack for i in range(len(words) - n + 1))


def _token_string(text: str) -> str:
    return " " + " ".join(tokens(_HYPHEN_BREAK.sub(r"\1\2", fold(text)))) + " "


def _fragment_on_page(fragment: str, page_norm: str, page_tokens: str) -> bool:
    if normalize_for_match(fragment) in page_norm:
        return True
    # Token form: spacing between table cells, "$" cells and thousands commas do not matter.
    wanted = _token_string(fragment)
    return wanted.strip() != "" and wanted in page_tokens


def quote_on_page(quote: str, page_text: str) -> bool:
    """Does ``quote`` occur on the page? An elided quote ("a ... b") needs each part, in order."""
    quote = quote.strip().strip(_QUOTE_MARKS)
    qtokens = tokens(quote)
    # One-word quotes ("Yes", "the") prove nothing; a single figure ("177,866") may.
    if not qtokens or (len(qtokens) < 2 and not any(ch.isdigit() for ch in qtokens[0])):
        return False
    page_norm = normalize_for_match(page_text)
    page_tokens = _token_string(page_text)
    parts = [p for p in _ELLIPSIS.split(fold(quote)) if tokens(p)]
    if len(parts) <= 1:
        # A compound broken at its own hyphen ("co-\nsourced") reads "cosourced" once rejoined.
        return _fragment_on_page(quote, page_norm, page_tokens) or _fragment_on_page(
            _INNER_HYPHEN.sub(r"\1\2", quote), page_norm, page_tokens)
    position = 0
    for part in parts:
        # Parts are found in order on the token form of the page.
        wanted = _token_string(part)
        found = page_tokens.find(wanted, position)
        if found < 0:
            return False
        position = found + len(wanted) - 1
    return True


# --- formulas --------------------------------------------------------------------------------

_FORMULA_NUMBER = re.compile(
    r"[$\u20ac\u00a3]?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s?(%)?"
    r"(?:\s?(thousands?|millions?|billions?|trillions?)\b)?",
    re.I,
)
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.Pow: lambda a, b: a ** b if abs(b) <= 12 else float("nan")}  # CAGR roots; no huge powers


def _safe_eval(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _safe_eval(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_safe_eval(node.left), _safe_eval(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _safe_eval(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    raise ValueError("not arithmetic")


def evaluate(expression: str) -> float | None:
    """Evaluate plain arithmetic as people write it ("(177,866 - 111,934) / 177,866 x 100")."""

    def number(match: re.Match) -> str:
        value = float(match.group(1).replace(",", ""))
        if match.group(2):
            value /= 100
        if match.group(3):
            value *= _SCALES[match.group(3).lower()]
        return repr(value)

    text = fold(expression).replace("\u00d7", "*").replace("\u00f7", "/").replace("^", "**")
    text = _FORMULA_NUMBER.sub(number, text)
    text = re.sub(r"(?<=[\d)\s])[x\u00b7](?=[\s\d(])", "*", text)
    if not re.fullmatch(r"[\d.eE+\-*/()\s]+", text) or not re.search(r"\d", text):
        return None
    try:
        return _safe_eval(ast.parse(text.strip(), mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError, RecursionError, OverflowError):
        return None


@dataclass
class _Formula:
    inputs: list[Number]
    declared: Number | None
    evaluated: list[float]
    parts: tuple["_Formula", ...] = ()  # a formula per year ("...; ...") when an answer compares years

    @property
    def adds_up(self) -> bool:
        if self.parts:
            return all(p.adds_up for p in self.parts)
        return self.declared is None or not self.evaluated or matches(self.declared, self.evaluated, percent_of_ratio=True)

    @property
    def outputs(self) -> list[float]:
        if self.parts:
            return [v for p in self.parts for v in p.outputs]
        return self.evaluated + ([self.declared.magnitude] if self.declared is not None else [])


def _parse_formula(formula: str | None) -> _Formula:
    if formula and (";" in formula or "\n" in formula):
        parts = tuple(_parse_formula(f) for f in re.split(r"[;\n]", formula) if f.strip())
        return _Formula([n for p in parts for n in p.inputs], None, [v for p in parts for v in p.evaluated], parts)
    if not formula:
        return _Formula([], None, [])
    segments = fold(formula).split("=")
    body, last = segments[:-1], segments[-1]
    # The declared output is a last "= 37.07%" holding one number; "= (a - b) / a" is arithmetic.
    if len(segments) == 1 or len(numbers_in(last)) != 1:
        body, last = segments, ""
    declared = numbers_in(last)[0] if last else None
    inputs = [n for seg in body for n in numbers_in(seg, claims_only=True) if n.magnitude not in _CONSTANTS]
    evaluated = [v for v in (evaluate(seg) for seg in body) if v is not None]
    return _Formula(inputs, declared, evaluated)


# --- the check -------------------------------------------------------------------------------


def _figure_number(figure: Figure) -> Number | None:
    parsed = numbers_in(figure.text)
    if len(parsed) == 1:
        return parsed[0]
    value = abs(figure.value) * figure.scale
    text = f"{figure.value}"
    decimals = len(text.split(".", 1)[1].rstrip("0")) if "." in text else 0
    return Number(figure.text, value, decimals, figure.scale, figure.unit == "%", True)


def _figure_values(figure: Figure) -> list[float]:
    values = [abs(figure.value) * figure.scale, abs(figure.value)]
    values += [n.magnitude for n in numbers_in(figure.text)]
    return values


def verify(draft: Draft, question: str, pages: dict[tuple[str, int], str], grounding: Grounding | None = None) -> Answer:
    """Keep what the cited pages support; say "not found" when nothing verifiable is left."""
    base = dict(question=question, answerer=draft.answerer, formula=draft.formula, measure=draft.measure)

    def not_found(reason: str, dropped: int = 0, unverified: tuple[str, ...] = (), text: str = NOT_FOUND_TEXT) -> Answer:
        return Answer(text=text, found=False, reason=reason, verification="not_found",
                      citations_dropped=dropped, numbers_unverified=unverified, **base)

    if not draft.found:
        return not_found(draft.reason or "the documents do not support an answer", text=draft.text or NOT_FOUND_TEXT)

    # 0. Whose filing: an answer about one company stands on that company's filings only.
    dropped = 0
    offered = draft.citations
    if grounding is not None:
        draft, dropped, refused = _ground(draft, grounding)
        if refused:
            return not_found(refused, dropped)
        if not draft.citations:
            return not_found("the answer cited only other companies' filings than the one asked about", dropped)

    if draft.figures and not measure_asked(question, draft.measure):
        return not_found(f"{REASON_MEASURE_PREFIX} {draft.measure!r}, which the question does not ask for", dropped)

    # 1. Citations: the quote must be on the page it names.
    kept: list[Citation] = []
    seen: set[tuple[str, int, str]] = set()
    for citation in draft.citations:
        text = pages.get((citation.document_id, citation.page))
        ok = (
            text is not None
            and not looks_like_instruction(citation.quote)
            and quote_on_page(citation.quote, text)
        )
        if not ok:
            dropped += 1
            continue
        key = (citation.document_id, citation.page, normalize_for_match(citation.quote))
        if key not in seen:
            seen.add(key)
            kept.append(citation)
    if not kept:
        reason = REASON_CITATIONS_NOT_FOUND if draft.citations else REASON_NO_CITATIONS
        return not_found(reason, dropped)

    # 1b. The answer says nothing a dropped quote said (an instruction planted in a filing, a line
    # not on its page, another company's line), nor anything that instructs the reader. An answer
    # made of its quotes is rebuilt from the quotes kept; any other is refused.
    rejected = [c.quote for c in offered if (c.document_id, c.page, normalize_for_match(c.quote)) not in seen]
    carried = [q for q in rejected if _carries(draft.text, q)]
    if carried or looks_like_instruction(draft.text):
        if draft.text == quoted_text(offered) or draft.text == quoted_text(draft.citations):
            draft = draft.model_copy(update={"text": quoted_text(kept)})
        if carried and any(_carries(draft.text, q) for q in carried) or looks_like_instruction(draft.text):
            injected = any(looks_like_instruction(q) for q in carried) or looks_like_instruction(draft.text)
            return not_found(REASON_INSTRUCTION if injected else REASON_DROPPED_QUOTE, dropped)

    cited_pages = {(c.document_id, c.page) for c in kept}
    page_values = [n.magnitude for key in cited_pages for n in numbers_in(pages[key])]

    # 2. Inputs (figures read off pages, numbers in the formula) must be printed on cited pages.
    formula = _parse_formula(draft.formula)
    inputs = [f for f in draft.figures if not f.computed]
    outputs = [f for f in draft.figures if f.computed]
    verified_inputs = [f for f in inputs if (n := _figure_number(f)) is not None and matches(n, page_values)]
    input_values = [v for f in verified_inputs for v in _figure_values(f)]
    formula_inputs_ok = all(matches(n, page_values + input_values) for n in formula.inputs)
    inputs_ok = (
        bool(inputs or formula.inputs) and len(verified_inputs) == len(inputs) and formula_inputs_ok
    )

    # 3. Outputs are trusted when their inputs are grounded and the stated arithmetic adds up.
    formula_ok = formula.adds_up
    trusted: list[float] = []
    verified_outputs: list[Figure] = []
    if inputs_ok and formula_ok:
        trusted = formula.outputs
        for figure in outputs:
            n = _figure_number(figure)
            if n is not None and (not formula.evaluated or matches(n, trusted, percent_of_ratio=True)):
                verified_outputs.append(figure)
                trusted += _figure_values(figure)

    # 4. Every number the answer states must be grounded somewhere above (or given by the question).
    question_values = [n.magnitude for n in numbers_in(question)]
    claims = numbers_in(draft.text, claims_only=True)
    unverified: list[str] = []
    grounded = 0
    for claim in claims:
        if (
            matches(claim, page_values)
            or matches(claim, input_values + trusted, percent_of_ratio=True)
        ):
            grounded += 1
        elif any(abs(claim.magnitude - q) <= claim.tolerance for q in question_values):
            continue  # the user's own number, restated
        elif draft.formula and claim.magnitude in _CONSTANTS and not claim.explicit:
            continue  # "365 *" or "/ 2" restating the shown formula's arithmetic
        elif claim.raw not in unverified:
            unverified.append(claim.raw)
    for figure in draft.figures:
        if figure not in verified_inputs and figure not in verified_outputs and figure.text not in unverified:
            unverified.append(figure.text)

    if claims and grounded == 0 and len(unverified) > 0:
        shown = ", ".join(unverified[:5])
        return not_found(REASON_NUMBERS.format(shown), dropped, tuple(unverified))

    status: Literal["verified", "partial", "passages"] = "verified" if not dropped and not unverified else "partial"
    if not draft.decisive and not draft.figures:  # proven quotes, but no line that answers: say so
        status = "passages"
    return Answer(
        text=draft.text,
        found=True,
        reason=draft.reason,
        citations=tuple(kept),
        figures=tuple(f for f in draft.figures if f in verified_inputs or f in verified_outputs),
        verification=status,
        citations_dropped=dropped,
        numbers_unverified=tuple(unverified),
        **base,
    )


__all__ = [
    "NOT_FOUND_TEXT",
    "Number",
    "evaluate",
    "matches",
    "numbers_in",
    "quote_on_page",
    "quoted_text",
    "verify",
    "Grounding",
    "REASON_MEASURE_PREFIX",
    "measure_asked",
]
