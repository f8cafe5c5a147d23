"""The powers of ten a filing may print its amounts in, shared by ingest (iXBRL facts) and tables."""

from __future__ import annotations

from decimal import Decimal

# The powers of ten a filing prints amounts in. EDGAR filings use -2 (percents as hundredths), 0, 3, 6
# and 9; the Inline XBRL spec allows any integer, but 10^400 overflows a float and 10^30000000 takes
# a minute of CPU to compute. Millionths (-6, parts per million) to trillions (12) leave room for
# every unit a statement heading names.
SCALES = range(-6, 13)


def unscaled(value: float, scale: int) -> float:
    """``|value| / 10^scale`` without the float noise of a division (1234000000.0, 6 -> 1234.0)."""
    return float(abs(Decimal(repr(value))).scaleb(-scale))
