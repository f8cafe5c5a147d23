"""A figure as a person reads it beside an answer: the value as printed with its unit and scale
("11,692,713 (USD thousands)"), a margin computed as a fraction shown as a percentage (0.8818 -> 88.2 %).

The web page's figure table and the Markdown export show these words; the figure itself (value,
unit, scale, as printed) is unchanged in every JSON reply.
"""

from __future__ import annotations

import re

from docqa.types import Figure

SCALE_WORDS = {1e3: "thousands", 1e6: "millions", 1e9: "billions"}
UNIT_WORDS = {"USD/share": "USD per share", "x": "times"}
# Names of what is a share of a whole: a fraction under 1.5 of one of these is a percentage.
_SHARE_OF_WHOLE = re.compile(r"\b(?:margin|percentage|percent|rate|share|yield|ratio as a percentage)\b", re.I)
_FRACTION_UNITS = {None, "", "x", "ratio", "fraction"}


def as_percent(figure: Figure) -> bool:
    """A computed margin (or rate, share) given as a fraction of one, e.g. gross margin 0.8818."""
    return (figure.computed and figure.unit in _FRACTION_UNITS and "%" not in figure.text
            and bool(_SHARE_OF_WHOLE.search(figure.name)) and 0 < abs(figure.value) <= 1.5)


def unit_words(figure: Figure) -> str:
    """"USD millions", "shares", "USD per share"; "" for a percentage or a figure with no unit."""
    unit = figure.unit or ""
    if unit in ("%", "") and figure.scale == 1:
        return ""
    scale = SCALE_WORDS.get(float(figure.scale), "" if figure.scale == 1 else f"× {figure.scale:g}")
    words = UNIT_WORDS.get(unit, unit)
    return " ".join(w for w in (words, scale) if w)


def figure_value(figure: Figure) -> str:
    """The figure's value in words: as printed (or computed), with its unit and scale."""
    if as_percent(figure):
        return f"{figure.value * 100:.1f} %"
    text = figure.text.strip()
    unit = unit_words(figure)
    if not unit or unit.lower() in text.lower():
        return text
    return f"{text} ({unit})"


__all__ = ["as_percent", "figure_value", "unit_words"]
