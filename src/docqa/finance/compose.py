"""The question's arithmetic as an expression whose leaves are line items.

Analysts compose ratios in words: "A to B", "A/B", "A as a percentage of B", "what share of B
did A account for", "A minus B", "(A + B) / C", "the average of the 2018 and 2019 year-end A",
and define the measure they want ("measured as X divided by Y", "defined as A plus B minus C",
"counting A plus B against C"). ``parse_words`` turns such a phrase into a tree; ``compose``
finds the phrase in a question; ``parse_formula`` reads the lexicon's formulas as data
("(cash_and_equivalents + marketable_securities) / current_liabilities").

Leaves are the question's own words (``Leaf``) or lexicon keys (``Name``); the figures answerer
resolves them to printed rows. In words a division binds loosest: "A plus B divided by C" is
(A + B) / C, as people mean it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


# ---------------------------------------------------------------------------------- the tree
@dataclass(frozen=True)
class Leaf:
    text: str                       # the question's words for a line item ("trade payables")


@dataclass(frozen=True)
class Name:
    key: str                        # a lexicon metric or formula key


@dataclass(frozen=True)
class Num:
    value: float


@dataclass(frozen=True)
class Avg:
    arg: "Node"                     # the mean of the period's and the prior period's year-end values


@dataclass(frozen=True)
class BinOp:
    op: str                         # + - * /
    left: "Node"
    right: "Node"


Node = Leaf | Name | Num | Avg | BinOp


def leaves(node: Node) -> list[Node]:
    if isinstance(node, BinOp):
        return leaves(node.left) + leaves(node.right)
    if isinstance(node, Avg):
        return leaves(node.arg)
    return [node]


def has_operator(node: Node) -> bool:
    return isinstance(node, BinOp) or (isinstance(node, Avg))


def show(node: Node, name=lambda n: n.text if isinstance(n, Leaf) else n.key) -> str:
    """The expression in words, parenthesised where precedence needs it."""
    if isinstance(node, (Leaf, Name)):
        return name(node)
    if isinstance(node, Num):
        return f"{node.value:g}"
    if isinstance(node, Avg):
        return f"average {show(node.arg, name)}"
    left, right = show(node.left, name), show(node.right, name)
    if isinstance(node.left, BinOp) and _prec(node.left.op) < _prec(node.op):
        left = f"({left})"
    if isinstance(node.right, BinOp) and (_prec(node.right.op) < _prec(node.op) or
                                          (_prec(node.right.op) == _prec(node.op) and node.op in "-/")):
        right = f"({right})"
    return f"{left} {node.op} {right}"


def _prec(op: str) -> int:
    return 1 if op in "+-" else 2


# ---------------------------------------------------------------------------------- formulas as data
_FTOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([a-z_][a-z0-9_]*)|(.))")


def parse_formula(text: str) -> Node:
    """A lexicon ``compose`` string: names, numbers, avg(...), + - * /, parentheses."""
    tokens = [(m.group(1), m.group(2), m.group(3)) for m in _FTOKEN.finditer(text) if m.group(0).strip()]
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else (None, None, None)

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def expr() -> Node:
        node = term()
        while peek()[2] in ("+", "-"):
            op = take()[2]
            node = BinOp(op, node, term())
        return node

    def term() -> Node:
        node = atom()
        while peek()[2] in ("*", "/"):
            op = take()[2]
            node = BinOp(op, node, atom())
        return node

    def atom() -> Node:
        num, name, sym = take()
        if num is not None:
            return Num(float(num))
        if name is not None:
            if name == "avg" and peek()[2] == "(":
                take()
                inner = expr()
                _expect(")")
                return Avg(inner)
            return Name(name)
        if sym == "(":
            inner = expr()
            _expect(")")
            return inner
        raise ValueError(f"unexpected {sym!r} in formula {text!r}")

    def _expect(sym: str) -> None:
        if take()[2] != sym:
            raise ValueError(f"expected {sym!r} in formula {text!r}")

    node = expr()
    if pos != len(tokens):
        raise ValueError(f"trailing text in formula {text!r}")
    return node


# ---------------------------------------------------------------------------------- words
# Lowest precedence first: a comma before "over" / "divided by" divides everything before it.
_COMMA_DIV = re.compile(r",\s*(?:and\s+)?(?:then\s+)?(?:divided\s+by|over|against|relative\s+to|as\s+a\s+(?:share|percent(?:age)?)\s+of)\s+", re.I)
_DIV = re.compile(r"\s+(?:divided\s+by|over|against|relative\s+to)\s+|\s*/\s*|\s+as\s+an?\s+(?:share|percent(?:age)?|%|proportion|fraction)\s+of\s+", re.I)
_ADD = re.compile(r"\s+(?:plus|added\s+to)\s+|\s+\+\s+", re.I)
_SUB = re.compile(r"\s+(?:minus|less|net\s+of|after\s+subtracting|after\s+deducting)\s+|\s+[-\u2013\u2212]\s+", re.I)
_MUL = re.compile(r"\s+(?:times|multiplied\s+by)\s+|\s+[x*\u00d7]\s+", re.I)
_AVERAGE = re.compile(
    r"^(?:the\s+)?(?:simple\s+)?(?:average|mean)\s+(?:of\s+)?(?:the\s+)?"
    r"(?:(?:beginning|opening|prior)[\w\s-]{0,20}?\s+and\s+(?:ending|closing|current)[\w\s-]{0,12}?\s+"
    r"|(?:(?:fiscal\s+)?(?:19|20)\d\d|\w+\s+\d{1,2},\s+(?:19|20)\d\d)\s+and\s+(?:(?:fiscal\s+)?(?:19|20)\d\d|\w+\s+\d{1,2},\s+(?:19|20)\d\d)\s+"
    r"|two\s+|(?:last\s+)?two\s+years'?\s+)?"
    r"(?:year[- ]end\s+|fiscal[- ]year[- ]end\s+|balance\s+of\s+)?(?P<x>.+?)(?:\s+balances?)?"
    r"(?:\s*\((?:mean|average)[^)]*\))?\s*$",
    re.I,
)
_AVERAGE_AFTER = re.compile(r"^(?P<x>.+?)\s*,?\s*(?<!not\s)averaged\b.*$|^(?P<y>.+?)\s+\((?:average|mean)\b[^)]*\)\s*$", re.I)


def _split_top(text: str, pattern: re.Pattern[str]) -> list[str] | None:
    """Split on ``pattern`` outside parentheses; None when it does not occur there."""
    depth, masked = 0, []
    for ch in text:
        depth += ch == "("
        masked.append("\0" if depth > 0 and ch not in "()" else ch)
        depth -= ch == ")"
    masked_text = "".join(masked)
    cuts = [(m.start(), m.end()) for m in pattern.finditer(masked_text)]
    if not cuts:
        return None
    parts, start = [], 0
    for a, b in cuts:
        parts.append(text[start:a])
        start = b
    parts.append(text[start:])
    if any(not p.strip(" ,") for p in parts):
        return None
    return parts


def parse_words(text: str) -> Node:
    """A phrase of the question's arithmetic as a tree of leaves (see the module doc)."""
    text = " ".join(text.strip().strip(",;:.").split())
    if enclosed(text):
        return parse_words(text[1:-1])
    for pattern, op in ((_COMMA_DIV, "/"), (_DIV, "/"), (_SUB, "-"), (_ADD, "+"), (_MUL, "*")):
        parts = _split_top(text, pattern)
        if parts is None:
            continue
        if op == "-" and pattern is _SUB:
            # "A minus B plus C": split on the first binary operator of either kind, left to right.
            pass
        nodes = [parse_words(p) for p in parts]
        node = nodes[0]
        for n in nodes[1:]:
            node = BinOp(op, node, n)
        if op in "+-":
            return _left_to_right(text) or node
        return node
    bare = re.sub(r"\s*\([^)]*\)", "", text).strip()
    if bare and bare != text and re.search(r"\((?:[^)]*\b)?(?:mean|average)\b[^)]*\)", text, re.I) and not re.search(
            r"\bnot\s+averag", text, re.I):
        return Avg(Leaf(bare))  # "trade payables (average of the two year-ends)"
    m = _AVERAGE.match(text)
    if m and m.group("x").strip():
        return Avg(parse_words(m.group("x")))
    m = _AVERAGE_AFTER.match(text)
    if m:
        return Avg(parse_words(m.group("x") or m.group("y")))
    return Leaf(text)


_ADDSUB = re.compile(_ADD.pattern + "|" + _SUB.pattern, re.I)


def _left_to_right(text: str) -> Node | None:
    """"A plus B minus C" as ((A + B) - C): additions and subtractions in the order said."""
    depth, masked = 0, []
    for ch in text:
        depth += ch == "("
        masked.append("\0" if depth > 0 and ch not in "()" else ch)
        depth -= ch == ")"
    matches = list(_ADDSUB.finditer("".join(masked)))
    if not matches:
        return None
    node: Node | None = None
    start = 0
    ops = []
    parts = []
    for m in matches:
        parts.append(text[start:m.start()])
        ops.append("+" if _ADD.fullmatch(m.group(0)) else "-")
        start = m.end()
    parts.append(text[start:])
    if any(not p.strip(" ,") for p in parts):
        return None
    node = parse_words(parts[0])
    for op, part in zip(ops, parts[1:]):
        node = BinOp(op, node, parse_words(part))
    return node


def enclosed(text: str) -> bool:
    """Is the whole text one parenthesised group ("(a + b)", not "(a) + (b)")?"""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for k, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and k < len(text) - 1:
            return False
    return True
