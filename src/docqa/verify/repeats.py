"""Rule: the answer says nothing a dropped quote said, nor anything that instructs the reader.

A dropped quote may be an instruction planted in a filing, a line not on its page or another
company's line. An answer made of its quotes is rebuilt from the quotes kept; any other answer
that still repeats a dropped quote, or instructs, is refused.
"""

from __future__ import annotations

from docqa.injection import looks_like_instruction
from docqa.types import Citation, Draft
from docqa.verify.citations import Cited, citation_key
from docqa.verify.quotes import carries, quoted_text

REASON_INSTRUCTION = ("the answer repeats a passage that tries to instruct the reader (an instruction planted in "
                      "the document), so it is not given")
REASON_DROPPED_QUOTE = "the answer repeats a passage that is not on the page it cites"


def without_dropped_quotes(draft: Draft, offered: tuple[Citation, ...], cited: Cited) -> tuple[Draft, str | None]:
    """The draft (its text rebuilt from the kept quotes when it is made of its quotes) and a reason
    to refuse it: it repeats a dropped quote or instructs the reader."""
    rejected = [c.quote for c in offered if citation_key(c) not in cited.seen]
    carried = [q for q in rejected if carries(draft.text, q)]
    if not (carried or looks_like_instruction(draft.text)):
        return draft, None
    if draft.text == quoted_text(offered) or draft.text == quoted_text(draft.citations):
        draft = draft.model_copy(update={"text": quoted_text(cited.kept)})
    if carried and any(carries(draft.text, q) for q in carried) or looks_like_instruction(draft.text):
        injected = any(looks_like_instruction(q) for q in carried) or looks_like_instruction(draft.text)
        return draft, REASON_INSTRUCTION if injected else REASON_DROPPED_QUOTE
    return draft, None
