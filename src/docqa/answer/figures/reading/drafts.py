"""The answer a value makes: its text, the figures it states, their citations and formula."""

from __future__ import annotations

import re
from collections.abc import Sequence

from docqa.answer.figures.reading.evaluated import Evaluated
from docqa.answer.figures.reading.located import COUNTED_IN_THOUSANDS, Located
from docqa.finance import formulas as F
from docqa.types import Citation, Draft, Figure

ANSWERER = "figures"


def value_draft(value: Evaluated, fmt: F.Format, parts: Sequence[Evaluated] = (), also: str = "") -> Draft:
    """The answer for one value; ``parts`` are computed values the text also states (a change's
    two ends), shown as figures of their own so that each can be checked."""
    if not value.computed:
        found = value.used[0]
        if value.kind == "per_share" and fmt.decimals is None:
            printed = re.search(r"\.(\d+)", found.cell.raw)
            fmt = fmt.model_copy(update={"decimals": max(2, len(printed.group(1)) if printed else 2)})
        text = (f"{found.value:g}%" if value.kind == "percent_points"  # printed as 21.6, not a fraction
                else _count(found, fmt) if value.kind == "count"
                else F.render(found.value, value.kind, fmt, found.table.unit))  # type: ignore[arg-type]
        return Draft(
            text=f"{value.label} for {value.period.label}: {text} (as printed: {found.cell.raw}"
                 f"{' ' + found.table.unit if found.table.unit and value.kind == 'currency' else ''}, "
                 f"{found.document} p. {found.table.page}{'; tagged ' + found.concept if found.concept else ''}).",
            found=True, citations=(found.citation(),), figures=(found.figure(),), answerer=ANSWERER,
            measure=value.label,
        )
    shown = F.render(value.value, value.kind, fmt, value.unit)  # type: ignore[arg-type]
    as_percent: Figure | None = None
    if value.kind == "ratio" and abs(value.value) < 1.5 and not value.points:
        # A ratio below one and a half is often quoted as a percentage (payout, return on equity).
        pct = F.render(value.value, "percent", fmt.model_copy(update={"decimals": fmt.decimals if fmt.decimals is not None else 1}))
        shown = f"{shown} ({pct})"
        as_percent = Figure(name=f"{value.label} as a percentage", value=value.value * 100, text=pct, unit="%",
                            period=value.period.short, computed=True)
    if value.points:
        shown = f"{value.stated:+.{1 if fmt.decimals is None else fmt.decimals}f} percentage points"
    # A computed part the text states is checked by its own formula, shown before the whole's.
    formula = "; ".join([p.formula for p in parts if p.formula] + [value.formula or ""]).strip("; ") or None
    figures = tuple(u.figure() for u in value.used) + (
        Figure(name=value.label, value=value.stated, text=shown,
               unit="%" if value.kind == "percent" else None, period=value.period.short, computed=True),
    ) + tuple(computed_figure(p) for p in parts if p.computed) + ((as_percent,) if as_percent else ())
    inputs = "; ".join(f"{u.metric.label} {u.period.label.replace('fiscal ', '')}: {u.cell.raw} "
                       f"({u.document} p. {u.table.page})" for u in unique_used(value.used))
    return Draft(
        text=f"{value.label}{'' if value.titled else ' for ' + value.period.label}: {shown}"
             f"{' (' + also + ')' if also else ''}. Computed as {formula}. Inputs: {inputs}.",
        found=True, citations=citations_of(value.used), figures=figures, formula=formula, answerer=ANSWERER,
        measure=value.label,
    )


def _count(found: Located, fmt: F.Format) -> str:
    """A count as printed, in the table's scale: "1,889.8 million" claims in a table "In millions"."""
    printed = re.search(r"\.(\d+)", found.cell.raw or "")
    decimals = fmt.decimals if fmt.decimals is not None else len(printed.group(1)) if printed else 0
    # (a whole number of stores in a table headed "in millions" of dollars is still stores: only a
    # count printed with decimals is read in the table's scale)
    scale = (found.table.unit or "").lower() if printed or found.table.unit_text == COUNTED_IN_THOUSANDS else ""
    word = {"millions": " million", "thousands": " thousand", "billions": " billion"}.get(scale, "")
    return f"{found.value:,.{decimals}f}{word}"


def judged_draft(values: list[Evaluated], text: str) -> Draft:
    """A verdict's answer: the text given, every value it rests on shown and cited."""
    used = [u for v in values for u in v.used]
    formulas = [v.formula for v in values if v.formula]
    figures = tuple(u.figure() for u in unique_used(used))
    figures += tuple(computed_figure(v) for v in values if v.computed)
    return Draft(text=text, found=True, citations=citations_of(used), figures=figures,
                 formula="; ".join(formulas) or None, answerer=ANSWERER, measure=values[-1].label if values else None)


def computed_figure(value: Evaluated) -> Figure:
    """A value the answer states that no page prints: checked against the formula shown with it."""
    return Figure(name=value.label, value=value.stated,
                  text=f"{value.value:.4g}", period=value.period.short, computed=True)


def unique_used(used: list[Located]) -> list[Located]:
    """Each cell once, though two values of an answer read it."""
    out: list[Located] = []
    for u in used:
        if not any(u is o or (u.cell == o.cell and u.table.page == o.table.page and u.document_id == o.document_id)
                   for o in out):
            out.append(u)
    return out


def citations_of(used: list[Located]) -> tuple[Citation, ...]:
    citations: list[Citation] = []
    for u in used:
        c = u.citation()
        if c not in citations:
            citations.append(c)
    return tuple(citations)
