"""Filing-fact slot: a fact the cover or signature pages print (address, state of incorporation,
auditor, the chief executive who signed)."""

from __future__ import annotations

import re

_ASKS = {
    "address": re.compile(
        r"\b(?:principal\s+(?:executive\s+)?offices?|headquarter\w*|head\s+office|registered\s+office)\b", re.I),
    "incorporation": re.compile(r"\b(?:state|jurisdiction|country)\s+of\s+(?:incorporation|organi[sz]ation)\b"
                                r"|\bincorporated\s+in\b|\b(?:where|which\s+(?:state|country|jurisdiction)|what\s+(?:state|country|jurisdiction))"
                                r"\b.*\bincorporated\b", re.I),
    "auditor": re.compile(r"\bwho\s+audit\w*|\b(?:auditor|audit\s+firm|accounting\s+firm|auditing\s+firm)\b", re.I),
    "signer": re.compile(r"\b(?:signed|signatory|sign)\b.*\b(?:principal\s+executive|chief\s+executive|ceo)\b"
                         r"|\b(?:principal\s+executive\s+officer|chief\s+executive|ceo)\b.*\bsign", re.I),
}
# The auditor question about a shareholder vote ("ratify the appointment of KPMG") is answered by
# the vote's own lines, not by a signature.
_NOT_SIGNATURE = re.compile(r"\bratif\w*|\bappoint\w*|\bvot\w*", re.I)


def asked_fact(question: str) -> str | None:
    kinds = [k for k, rx in _ASKS.items() if rx.search(question)]
    if "signer" in kinds:
        return "signer"
    if "auditor" in kinds:
        return None if _NOT_SIGNATURE.search(question) else "auditor"
    return kinds[0] if kinds else None
