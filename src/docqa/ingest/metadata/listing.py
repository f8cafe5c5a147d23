"""Where the filer's shares trade: the ticker and exchange as printed (the cover's securities table,
"(NYSE: JNJ)", "ASX:ODY")."""

from __future__ import annotations

import re

_TICKER_CELL = re.compile(r"^[A-Z]{1,5}(?:[.\-][A-Z])?$")
_NOT_TICKER = {"NYSE", "NASDAQ", "LLC", "N/A", "NA", "USD", "THE", "INC", "CHX", "LSE", "ASX", "TSX", "NONE"}


def _cover_ticker(lines: list[str]) -> str | None:
    """The symbol cell of the cover's securities table; its header row may sit above or below."""
    for i, line in enumerate(lines):
        if re.search(r"trading\s+symbol", line, re.I):
            for row in lines[i + 1 : i + 8] + lines[max(0, i - 2) : i][::-1]:
                cells = re.split(r"\s{2,}", row.strip())
                if not re.search(r"stock|shares|notes|exchange|nyse|nasdaq|market", row, re.I):
                    continue  # only the rows that list a security carry its symbol
                for cell in cells[1:]:  # the first cell names the class of security
                    if _TICKER_CELL.match(cell) and cell not in _NOT_TICKER:
                        return cell
            return None
    return None


_EXCHANGES = [  # how reports name an exchange -> the short name people use
    (r"nasdaq", "Nasdaq"), (r"nyse\s+american|nyse\s+mkt", "NYSE American"), (r"new\s+york\s+stock\s+exchange|\bnyse\b", "NYSE"),
    (r"australian\s+securities\s+exchange|\basx\b", "ASX"), (r"\baim\b|alternative\s+investment\s+market", "AIM"),
    (r"london\s+stock\s+exchange|\blse\b", "LSE"), (r"tsx\s+venture|\btsxv\b", "TSXV"),
    (r"toronto\s+stock\s+exchange|\btsx\b", "TSX"),
    (r"hong\s+kong\s+(?:stock\s+exchange|exchanges)|stock\s+exchange\s+of\s+hong\s+kong|\bhkex\b|\bsehk\b", "HKEX"),
    (r"tel[\s-]+aviv\s+stock\s+exchange|\btase\b", "TASE"), (r"international\s+stock\s+exchange|\btise\b", "TISE"),
    (r"euronext", "Euronext"), (r"frankfurt|xetra", "Frankfurt"), (r"six\s+swiss|\bsix\b", "SIX"), (r"tokyo\s+stock\s+exchange", "TSE"),
]
_LISTING = re.compile(
    r"(?i:\b(NYSE(?:\s+American)?|NASDAQ|ASX|AIM|LSE|TSXV?|HKEX|SEHK|TASE)\s*(?:code|symbol|ticker)?\s*:\s*)([A-Z0-9][A-Z0-9.]{0,6})\b"
    r"|(?i:\bticker(?:\s+symbol)?\s*:\s*)([A-Z][A-Z.]{0,6})\s*\((?i:(NYSE|Nasdaq|ASX|AIM|LSE|TSX))\)"
)


def exchange_name(text: str) -> str | None:
    for pattern, short in _EXCHANGES:
        if re.search(pattern, text, re.I):
            return short
    return None


def listing(cover_lines: list[str], head: str) -> tuple[str | None, str | None]:
    """(ticker, exchange) as printed: the cover's securities table, "(NYSE: JNJ)", "ASX:ODY"."""
    ticker, exchange = _cover_ticker(cover_lines), None
    for i, line in enumerate(cover_lines):
        if re.search(r"name\s+of\s+each\s+exchange", line, re.I):
            for row in cover_lines[i : i + 6]:
                if (ticker and ticker in row.split()) or re.search(r"exchange|market|nasdaq|nyse", row, re.I):
                    if (found := exchange_name(re.sub(r"(?i)name\s+of\s+each\s+exchange.*", "", row))):
                        exchange = found
                        break
            break
    m = _LISTING.search(head)
    if m:
        ticker = ticker or m.group(2) or m.group(3)
        exchange = exchange or exchange_name(m.group(1) or m.group(4) or "")
    if not exchange:
        m = re.search(r"(?i)\b(?:listed|quoted|traded)\s+on\s+(?:the\s+)?([A-Z][\w\s]{2,60}?(?:exchange|market|nasdaq|nyse|asx|aim)\b)", head)
        exchange = exchange_name(m.group(1)) if m else None
    return ticker, exchange
