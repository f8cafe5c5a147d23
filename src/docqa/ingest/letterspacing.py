"""Rejoin words that the text layer split inside a heading: "Cash Flow s" -> "Cash Flows".

Some filings position heading glyphs with kerning adjustments (tracking, justified bold headings);
where the pen moves a little too far between two letters the text extraction reads a word break,
so "LIQUIDI TY" and "Incom e" reach the index, the snippets and the quotes.

Gap sizes alone cannot tell such a break from a real word space: fonts kern the space before "A",
"T" or "W" to about 0.78 of its width, and some fonts' glyph boxes make the gap after "m" small,
so normal prose is full of small gaps. Two pieces of the page's own evidence must agree instead:

- the row: the gap is much narrower than the row's other word gaps (or, in a two-word row, tiny
  for its font size), between letters of the same size;
- the page: the joined word is printed elsewhere on the same page as one word ("Flows" in
  "Cash Flows from Operating Activities" below the "Cash Flow s" heading).

No word list: the page is its own dictionary. Figures and "$ 1,577" are never touched (every part
of a join must be letters), nor table cells (their gaps are far wider than a word space).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from docqa.types import Word

# A break is narrower than this share of the row's typical word gap. A real space kerned before
# "A" keeps ~0.78 of its width, so this alone admits kerned spaces: the page's vocabulary decides.
GAP_RATIO = 0.8
# With no other word gap in the row, a break must be this narrow for the font size (row height);
# a real space is 0.2-0.3 em.
LONE_GAP_HEIGHT = 0.12
# A word space is well under this share of the row height; wider gaps are cell or column joins.
WORD_GAP_HEIGHT = 0.6
# Both sides of a join are set in the same size: a subscript ("NO x") or a footnote mark is not a
# broken word.
SAME_HEIGHT = 0.15

_EDGE = "\"'“”‘’()[]{},.;:!?*"  # punctuation allowed around a joined word: "(Incom e)" -> "(Income)"

RawWord = tuple[float, float, float, float, str]  # PyMuPDF's (x0, y0, x1, y1, text), as parse.py keeps words


def merge_fragments(words: Sequence[Word], vocabulary: Collection[str]) -> tuple[Word, ...]:
    """One visual row's words with split words rejoined; a joined Word's box is the union of its parts.

    ``vocabulary``: the words printed on the same page, as ``page_vocabulary`` makes it.
    """
    raw = [(*w.bbox, w.text) for w in words]
    merged = merge_row(raw, vocabulary)
    if merged is raw:
        return tuple(words)
    return tuple(Word(text=t, bbox=(x0, y0, x1, y1)) for x0, y0, x1, y1, t in merged)


def merge_rows(rows: list[list[RawWord]]) -> list[list[RawWord]]:
    """A page's rows with split words rejoined (``rows`` itself when nothing changed)."""
    vocabulary = _PageWords(rows)
    out = rows
    for i, row in enumerate(rows):
        if not may_apply(row):
            continue
        merged = merge_row(row, vocabulary)
        if merged is not row:
            if out is rows:
                out = list(rows)
            out[i] = merged
    return out


def page_vocabulary(texts: Iterable[str]) -> set[str]:
    return {t.strip(_EDGE).lower() for t in texts}


class _PageWords(Collection[str]):
    """A page's vocabulary, read the first time a join asks for it: most pages never do."""

    def __init__(self, rows: list[list[RawWord]]):
        self._rows = rows
        self._words: set[str] | None = None

    def _get(self) -> set[str]:
        if self._words is None:
            self._words = page_vocabulary(w[4] for r in self._rows for w in r)
        return self._words

    def __contains__(self, word: object) -> bool:
        return word in self._get()

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def may_apply(row: list[RawWord]) -> bool:
    """Cheap test: some word-sized gap is narrow next to the row's widest one, or tiny for the font."""
    if len(row) < 2:
        return False
    height = row[0][3] - row[0][1]
    limit = WORD_GAP_HEIGHT * height
    lo, hi = limit, 0.0
    prev = row[0][2]
    for w in row[1:]:
        g = w[0] - prev
        prev = w[2]
        if 0 <= g < limit:
            if g < lo:
                lo = g
            if g > hi:
                hi = g
    return lo < GAP_RATIO * hi or lo < LONE_GAP_HEIGHT * height


def merge_row(row: list[RawWord], vocabulary: Collection[str]) -> list[RawWord]:
    """``row`` itself when nothing is joined, else a new list."""
    breaks = narrow_gaps(row)
    if not breaks:
        return row
    joins = _confirmed(row, breaks, vocabulary)
    if not joins:
        return row
    out: list[RawWord] = []
    for k, w in enumerate(row):
        if k - 1 in joins:
            x0, y0, x1, y1, text = out[-1]
            out[-1] = (min(x0, w[0]), min(y0, w[1]), max(x1, w[2]), max(y1, w[3]), text + w[4])
        else:
            out.append(w)
    return out


def narrow_gaps(row: list[RawWord]) -> list[int]:
    """The row's own gap evidence: gaps k (between words k and k+1) between letters that are too
    narrow to be word spaces next to the row's other letter gaps, or, alone in the row, for its font size."""
    if len(row) < 2:
        return []
    heights = sorted([w[3] - w[1] for w in row])
    height = heights[len(heights) // 2]
    limit = WORD_GAP_HEIGHT * height
    letter_gaps: list[tuple[int, float]] = []
    for k, (a, b) in enumerate(zip(row, row[1:])):
        g = b[0] - a[2]
        if 0 <= g < limit and a[4][-1].isalpha() and b[4][0].isalpha():
            letter_gaps.append((k, g))
    if not letter_gaps:
        return []
    return _narrow(letter_gaps, height)


def _narrow(letter_gaps: list[tuple[int, float]], height: float) -> list[int]:
    """The letter gaps too narrow to be word spaces, by the row's other gaps (or the font size).

    The narrow ones must stand apart from the rest: in sorted order, a jump to GAP_RATIO or less
    separates them from every remaining gap. Justified prose whose spaces vary smoothly
    (1.64, 1.65, 1.78, 1.85, ... pt) has no such jump and keeps all of them.
    """
    if len(letter_gaps) == 1:
        k, g = letter_gaps[0]
        return [k] if g < LONE_GAP_HEIGHT * height else []
    sizes = sorted(g for _, g in letter_gaps)
    # breaks are the minority of a row's gaps; the widest qualifying jump keeps every break
    # (a kerned real space caught with them is refused by the page's vocabulary)
    cut = next((sizes[j] for j in range(len(sizes) // 2, 0, -1) if sizes[j - 1] < GAP_RATIO * sizes[j]), None)
    if cut is None:
        return []
    return [k for k, g in letter_gaps if g < cut]


def _confirmed(row: list[RawWord], breaks: list[int], vocabulary: Collection[str]) -> set[int]:
    """The breaks whose joined word the page prints elsewhere; a run of breaks is tried whole first."""
    joins: set[int] = set()
    narrow = set(breaks)
    k = 0
    while k < len(row) - 1:
        if k not in narrow:
            k += 1
            continue
        end = k
        while end + 1 in narrow:
            end += 1
        if _joinable(row[k:end + 2], vocabulary):
            joins.update(range(k, end + 1))
        else:
            for j in range(k, end + 1):
                if j - 1 not in joins and _joinable(row[j:j + 2], vocabulary):
                    joins.add(j)
        k = end + 1
    return joins


def _joinable(words: list[RawWord], vocabulary: Collection[str]) -> bool:
    texts = [w[4] for w in words]
    # punctuation only at the outer edges: "(Incom e)" yes, "Inc. Flow" no
    inner = [texts[0].lstrip(_EDGE)] + texts[1:-1] + [texts[-1].rstrip(_EDGE)]
    if not all(t.isalpha() for t in inner):
        return False
    joined = "".join(inner)
    if not (joined.isupper() or joined.islower() or (joined[0].isupper() and joined[1:].islower())):
        return False
    # a lone capital before a lower-case word is how a sentence opens ("A portion", "I am"), and the
    # space after a capital is often kerned narrow: never a split word by its shape alone
    if len(inner[0]) == 1 and inner[0].isupper() and inner[1][:1].islower():
        return False
    heights = [w[3] - w[1] for w in words]
    if min(heights) < (1 - SAME_HEIGHT) * max(heights):
        return False
    return joined.lower() in vocabulary
