"""The question is read in one place: no module outside docqa/plan/ runs a regular expression
over it. A function that takes the question's words (a parameter named ``question``) and matches
a pattern against them is a second parser, and every fix written there is one more special case.

``STILL_READING`` lists the functions not yet moved into a plan slot (none now). The list only
shrinks: a function that no longer reads the question must leave it, and a new reader fails the test.
"""

from __future__ import annotations

import ast
from pathlib import Path

import docqa

SRC = Path(docqa.__file__).parent
_REGEX_CALLS = {"search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}
_NAMES = {"question"}

# module:function -> still reads the raw question (to be moved into a plan slot). Empty: a function
# added here is a second parser of the question, to be moved into a plan slot instead.
STILL_READING: frozenset[str] = frozenset()


def _reads_question(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    if not params & _NAMES:
        return False
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in _REGEX_CALLS:
            continue
        if isinstance(node.func.value, ast.Name) and node.func.value.id in _NAMES:
            continue  # question.split("?"): a string method, not a pattern
        args = [*node.args, *(k.value for k in node.keywords)]
        if any(isinstance(a, ast.Name) and a.id in _NAMES for a in args):
            return True
    return False


def readers() -> set[str]:
    found: set[str] = set()
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        if rel.parts[0] == "plan":
            continue
        module = ".".join(rel.with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _reads_question(node):
                found.add(f"{module}:{node.name}")
    return found


def test_no_new_module_reads_the_raw_question():
    new = readers() - STILL_READING
    assert not new, f"these functions run a pattern over the question outside docqa/plan/: {sorted(new)}"


def test_the_list_of_modules_still_reading_the_question_only_shrinks():
    gone = STILL_READING - readers()
    assert not gone, f"no longer read the question; take them off STILL_READING: {sorted(gone)}"


def test_the_checker_finds_a_reader():
    source = "def f(question):\n    import re\n    return re.search('x', question)\n"
    fn = ast.parse(source).body[0]
    assert _reads_question(fn)
    assert not _reads_question(ast.parse("def g(question):\n    return question.split('?')\n").body[0])
