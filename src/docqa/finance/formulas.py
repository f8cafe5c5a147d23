"""Financial formulas as pure functions, each showing its arithmetic.

Every function returns a ``FormulaResult``: the value plus the formula with the inputs
substituted ("capex / revenue = 1,577 / 32,765 = 4.81%"), so an answer can show its work and a
verifier can re-check each number against the page. Inputs are plain floats in one unit (the
statement's); outflows printed negative (capex, dividends) are taken as positive amounts.

``render`` writes a number the way the question's plan wants it (``Format``: "in USD billions",
"round to two decimal places", "in units of percents"; read in plan/format.py).
"""

from __future__ import annotations

import math

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from docqa.finance.tables import UNIT_SCALE, Unit

ResultKind = Literal["percent", "ratio", "days", "currency", "times"]
DAYS_IN_YEAR = 365


class FormulaError(ValueError):
    """The inputs cannot give a meaningful result (a zero denominator, a missing year)."""


class FormulaResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    value: float             # percent results are fractions (0.0481), rendered as 4.81%
    kind: ResultKind
    formula: str             # with inputs substituted
    inputs: dict[str, float]


# ---------------------------------------------------------------------------------- number text
def fmt_number(value: float, decimals: int | None = None) -> str:
    """1577 -> "1,577"; 1577.5 -> "1,577.5"; keeps up to 4 significant decimals for small ratios."""
    if decimals is None:
        if float(value).is_integer():
            decimals = 0
        elif abs(value) >= 100:
            decimals = 1 if round(value, 1) == round(value, 2) else 2
        else:
            decimals = min(4, max(2, len(f"{abs(value):.4f}".rstrip("0").split(".")[1])))
    return f"{value:,.{decimals}f}"


def _show(kind: ResultKind, value: float) -> str:
    if kind == "percent":
        return f"{value * 100:.2f}%"
    if kind == "days":
        return f"{value:.2f} days"
    if kind == "times":
        return f"{value:.2f}x"
    if kind == "ratio":
        return f"{value:.4f}".rstrip("0").rstrip(".") if abs(value) < 1 else f"{value:.2f}"
    return fmt_number(value)


def show(kind: ResultKind, value: float) -> str:
    """How a formula writes its result: "4.81%", "0.6639", "93.86 days", "4.84x", "1,832"."""
    return _show(kind, value)


def _result(key: str, kind: ResultKind, value: float, symbolic: str, numeric: str, inputs: Mapping[str, float]) -> FormulaResult:
    return FormulaResult(key=key, value=value, kind=kind, formula=f"{symbolic} = {numeric} = {_show(kind, value)}",
                         inputs=dict(inputs))


def _div(numerator: float, denominator: float, what: str) -> float:
    if denominator == 0:
        raise FormulaError(f"{what} is zero; the ratio is undefined")
    return numerator / denominator


def _avg(prior: float, current: float) -> float:
    return (prior + current) / 2


def _avg_text(prior: float, current: float) -> str:
    return f"(({fmt_number(prior)} + {fmt_number(current)}) / 2)"


# ---------------------------------------------------------------------------------- margins
def ratio_of(key: str, name: str, numerator: float, denominator_name: str, denominator: float,
             kind: ResultKind = "percent", numerator_text: str | None = None) -> FormulaResult:
    """Any "x / y" figure, e.g. a cost as a share of revenue. ``numerator_text``: the numerator's
    own arithmetic ("(9,963 + 140,676)"), so that every figure shown is a printed one."""
    value = _div(numerator, denominator, denominator_name)
    return _result(key, kind, value, f"{name} / {denominator_name}",
                   f"{numerator_text or fmt_number(numerator)} / {fmt_number(denominator)}",
                   {name: numerator, denominator_name: denominator})


def margin(part: float, revenue: float, name: str = "amount") -> FormulaResult:
    return ratio_of("margin", name, part, "revenue", revenue)


def gross_margin(revenue: float, gross_profit: float | None = None, cost_of_revenue: float | None = None) -> FormulaResult:
    if gross_profit is None:
        if cost_of_revenue is None:
            raise FormulaError("gross margin needs gross profit or cost of revenue")
        gross_profit = revenue - abs(cost_of_revenue)
        value = _div(gross_profit, revenue, "revenue")
        return _result("gross_margin", "percent", value, "(revenue - cost of revenue) / revenue",
                       f"({fmt_number(revenue)} - {fmt_number(abs(cost_of_revenue))}) / {fmt_number(revenue)}",
                       {"revenue": revenue, "cost_of_revenue": cost_of_revenue})
    return ratio_of("gross_margin", "gross profit", gross_profit, "revenue", revenue)


def operating_margin(operating_income: float, revenue: float) -> FormulaResult:
    return ratio_of("operating_margin", "operating income", operating_income, "revenue", revenue)


def net_margin(net_income: float, revenue: float) -> FormulaResult:
    return ratio_of("net_margin", "net income", net_income, "revenue", revenue)


def ebitda(operating_income: float, depreciation_amortization: float) -> FormulaResult:
    da = abs(depreciation_amortization)
    return _result("ebitda", "currency", operating_income + da, "operating income + D&A",
                   f"{fmt_number(operating_income)} + {fmt_number(da)}",
                   {"operating_income": operating_income, "depreciation_amortization": da})


def ebitda_margin(operating_income: float, depreciation_amortization: float, revenue: float) -> FormulaResult:
    da = abs(depreciation_amortization)
    value = _div(operating_income + da, revenue, "revenue")
    return _result("ebitda_margin", "percent", value, "(operating income + D&A) / revenue",
                   f"({fmt_number(operating_income)} + {fmt_number(da)}) / {fmt_number(revenue)}",
                   {"operating_income": operating_income, "depreciation_amortization": da, "revenue": revenue})


def capex_to_revenue(capex: float, revenue: float) -> FormulaResult:
    return ratio_of("capex_to_revenue", "capex", abs(capex), "revenue", revenue)


def effective_tax_rate(income_tax: float, pretax_income: float) -> FormulaResult:
    # The tax as its label signs it (a benefit is negative: finance.text.expense_amount).
    return ratio_of("effective_tax_rate_calc", "income tax expense", income_tax, "income before income taxes", pretax_income)


# ---------------------------------------------------------------------------------- change
def growth(current: float, prior: float) -> FormulaResult:
    value = _div(current - prior, abs(prior), "the prior-year value")
    return _result("growth", "percent", value, "(current - prior) / prior",
                   f"({fmt_number(current)} - {fmt_number(prior)}) / {fmt_number(abs(prior))}",
                   {"current": current, "prior": prior})


def cagr(first: float, last: float, years: int) -> FormulaResult:
    if years <= 0:
        raise FormulaError("CAGR needs at least one year between the two values")
    if first <= 0 or last <= 0:
        raise FormulaError("CAGR is undefined for zero or negative values")
    value = (last / first) ** (1 / years) - 1
    return _result("cagr", "percent", value, f"(last / first)^(1/{years}) - 1",
                   f"({fmt_number(last)} / {fmt_number(first)})^(1/{years}) - 1", {"first": first, "last": last})


def average(values: Sequence[float], kind: ResultKind = "currency") -> FormulaResult:
    if not values:
        raise FormulaError("nothing to average")
    value = sum(values) / len(values)
    shown = [_show(kind, v) if kind == "percent" else fmt_number(v) for v in values]
    return _result("multi_year_average", kind, value, f"mean of {len(values)} values",
                   f"({' + '.join(shown)}) / {len(values)}", {f"v{i}": v for i, v in enumerate(values)})


# ---------------------------------------------------------------------------------- liquidity
def current_ratio(current_assets: float, current_liabilities: float) -> FormulaResult:
    return ratio_of("current_ratio", "current assets", current_assets, "current liabilities", current_liabilities, "ratio")


def quick_ratio(cash: float, marketable_securities: float, receivables: float, current_liabilities: float) -> FormulaResult:
    quick = cash + marketable_securities + receivables
    value = _div(quick, current_liabilities, "current liabilities")
    return _result("quick_ratio", "ratio", value, "(cash + short-term investments + receivables) / current liabilities",
                   f"({fmt_number(cash)} + {fmt_number(marketable_securities)} + {fmt_number(receivables)}) / {fmt_number(current_liabilities)}",
                   {"cash": cash, "marketable_securities": marketable_securities, "receivables": receivables,
                    "current_liabilities": current_liabilities})


def working_capital(current_assets: float, current_liabilities: float) -> FormulaResult:
    return _result("working_capital", "currency", current_assets - current_liabilities,
                   "current assets - current liabilities", f"{fmt_number(current_assets)} - {fmt_number(current_liabilities)}",
                   {"current_assets": current_assets, "current_liabilities": current_liabilities})


def operating_cash_flow_ratio(operating_cash_flow: float, current_liabilities: float) -> FormulaResult:
    return ratio_of("operating_cash_flow_ratio", "cash from operations", operating_cash_flow,
                    "current liabilities", current_liabilities, "ratio")


# ---------------------------------------------------------------------------------- leverage
def total_debt(*parts: float) -> FormulaResult:
    if not parts:
        raise FormulaError("no debt line (short-term, current portion or long-term debt) was read")
    value = sum(abs(p) for p in parts)
    return _result("total_debt", "currency", value, "sum of debt lines", " + ".join(fmt_number(abs(p)) for p in parts),
                   {f"part{i}": p for i, p in enumerate(parts)})


def debt_to_equity(debt: float, equity: float, debt_text: str | None = None) -> FormulaResult:
    return ratio_of("debt_to_equity", "total debt", debt, "shareholders' equity", equity, "ratio", debt_text)


def debt_to_assets(debt: float, total_assets: float, debt_text: str | None = None) -> FormulaResult:
    return ratio_of("debt_to_assets", "total debt", debt, "total assets", total_assets, "ratio", debt_text)


def liabilities_to_equity(total_liabilities: float, equity: float) -> FormulaResult:
    return ratio_of("liabilities_to_equity", "total liabilities", total_liabilities, "shareholders' equity", equity, "ratio")


def net_debt(debt: float, cash: float, debt_text: str | None = None) -> FormulaResult:
    return _result("net_debt", "currency", debt - cash, "total debt - cash",
                   f"{debt_text or fmt_number(debt)} - {fmt_number(cash)}", {"debt": debt, "cash": cash})


def interest_coverage(operating_income: float, interest_expense: float) -> FormulaResult:
    return ratio_of("interest_coverage", "operating income", operating_income, "interest expense", abs(interest_expense), "times")


# ---------------------------------------------------------------------------------- efficiency
def _turnover(key: str, flow_name: str, flow: float, stock_name: str, prior: float, current: float) -> FormulaResult:
    value = _div(flow, _avg(prior, current), f"average {stock_name}")
    return _result(key, "ratio", value, f"{flow_name} / average {stock_name}",
                   f"{fmt_number(flow)} / {_avg_text(prior, current)}", {flow_name: flow, f"{stock_name} prior": prior,
                                                                          f"{stock_name} current": current})


def asset_turnover(revenue: float, assets_prior: float, assets_current: float) -> FormulaResult:
    return _turnover("asset_turnover", "revenue", revenue, "total assets", assets_prior, assets_current)


def fixed_asset_turnover(revenue: float, ppe_prior: float, ppe_current: float) -> FormulaResult:
    return _turnover("fixed_asset_turnover", "revenue", revenue, "PP&E", ppe_prior, ppe_current)


def inventory_turnover(cost_of_revenue: float, inventory_prior: float, inventory_current: float) -> FormulaResult:
    return _turnover("inventory_turnover", "cost of revenue", abs(cost_of_revenue), "inventory", inventory_prior, inventory_current)


def receivables_turnover(revenue: float, receivables_prior: float, receivables_current: float) -> FormulaResult:
    return _turnover("receivables_turnover", "revenue", revenue, "accounts receivable", receivables_prior, receivables_current)


def _days(key: str, stock_name: str, prior: float, current: float, flow_name: str, flow: float, flow_text: str | None = None) -> FormulaResult:
    value = DAYS_IN_YEAR * _div(_avg(prior, current), flow, flow_name)
    return _result(key, "days", value, f"{DAYS_IN_YEAR} * average {stock_name} / {flow_name}",
                   f"{DAYS_IN_YEAR} * {_avg_text(prior, current)} / {flow_text or fmt_number(flow)}",
                   {f"{stock_name} prior": prior, f"{stock_name} current": current, flow_name: flow})


def dso(revenue: float, receivables_prior: float, receivables_current: float) -> FormulaResult:
    return _days("dso", "accounts receivable", receivables_prior, receivables_current, "revenue", revenue)


def dio(cost_of_revenue: float, inventory_prior: float, inventory_current: float) -> FormulaResult:
    return _days("dio", "inventory", inventory_prior, inventory_current, "cost of revenue", abs(cost_of_revenue))


def dpo(cost_of_revenue: float, payables_prior: float, payables_current: float,
        inventory_prior: float | None = None, inventory_current: float | None = None) -> FormulaResult:
    """365 * average payables / purchases, purchases = COGS + change in inventory (when given)."""
    cogs = abs(cost_of_revenue)
    if inventory_prior is None or inventory_current is None:
        return _days("dpo", "accounts payable", payables_prior, payables_current, "cost of revenue", cogs)
    purchases = cogs + (inventory_current - inventory_prior)
    text = f"({fmt_number(cogs)} + ({fmt_number(inventory_current)} - {fmt_number(inventory_prior)}))"
    return _days("dpo", "accounts payable", payables_prior, payables_current,
                 "(cost of revenue + change in inventory)", purchases, text)


def cash_conversion_cycle(dio_days: FormulaResult, dso_days: FormulaResult, dpo_days: FormulaResult) -> FormulaResult:
    """DIO + DSO - DPO, written out to the printed figures each part is computed from: the parts'
    rounded values are not printed anywhere, so they cannot stand as inputs."""
    value = dio_days.value + dso_days.value - dpo_days.value
    parts = [f"({r.formula.split(' = ')[1]})" for r in (dio_days, dso_days, dpo_days)]
    return _result("cash_conversion_cycle", "days", value, "DIO + DSO - DPO",
                   f"{parts[0]} + {parts[1]} - {parts[2]}",
                   {"dio": dio_days.value, "dso": dso_days.value, "dpo": dpo_days.value})


# ---------------------------------------------------------------------------------- returns
def roa(net_income: float, assets_prior: float, assets_current: float) -> FormulaResult:
    return _turnover("roa", "net income", net_income, "total assets", assets_prior, assets_current)


def roe(net_income: float, equity_prior: float, equity_current: float) -> FormulaResult:
    return _turnover("roe", "net income", net_income, "shareholders' equity", equity_prior, equity_current)


# ---------------------------------------------------------------------------------- cash flow
def free_cash_flow(operating_cash_flow: float, capex: float) -> FormulaResult:
    c = abs(capex)
    return _result("free_cash_flow", "currency", operating_cash_flow - c, "cash from operations - capex",
                   f"{fmt_number(operating_cash_flow)} - {fmt_number(c)}", {"operating_cash_flow": operating_cash_flow, "capex": c})


def fcf_conversion(operating_cash_flow: float, capex: float, net_income: float) -> FormulaResult:
    c = abs(capex)
    value = _div(operating_cash_flow - c, net_income, "net income")
    return _result("fcf_conversion", "percent", value, "(cash from operations - capex) / net income",
                   f"({fmt_number(operating_cash_flow)} - {fmt_number(c)}) / {fmt_number(net_income)}",
                   {"operating_cash_flow": operating_cash_flow, "capex": c, "net_income": net_income})


def dividend_payout_ratio(dividends_paid: float, net_income: float) -> FormulaResult:
    return ratio_of("dividend_payout_ratio", "dividends paid", abs(dividends_paid), "net income", net_income, "ratio")


def retention_ratio(dividends_paid: float, net_income: float) -> FormulaResult:
    d = abs(dividends_paid)
    value = _div(net_income - d, net_income, "net income")
    return _result("retention_ratio", "ratio", value, "(net income - dividends paid) / net income",
                   f"({fmt_number(net_income)} - {fmt_number(d)}) / {fmt_number(net_income)}",
                   {"net_income": net_income, "dividends_paid": d})


# ---------------------------------------------------------------------------------- by name
Values = Mapping[str, float]


_DEBT_LINES = ("short_term_debt", "current_portion_long_term_debt", "long_term_debt")


def _debt(v: Values) -> float:
    """Debt lines a filer does not print count as none, but a filing none of whose lines was read
    has an unknown debt, not a zero one."""
    if not any(k in v for k in _DEBT_LINES):
        raise FormulaError("no debt line (short-term, current portion or long-term debt) was read")
    return sum(abs(v.get(k, 0.0)) for k in _DEBT_LINES)


def _debt_text(v: Values) -> str:
    """The debt lines read, as the sum a formula shows: "(9,963 + 140,676)"."""
    parts = [fmt_number(abs(v[k])) for k in _DEBT_LINES if v.get(k)]
    return f"({' + '.join(parts)})" if len(parts) > 1 else fmt_number(_debt(v))


# Formula key (as in lexicon.yaml) -> how to compute it from this year's and last year's values
# by metric key. Averages of year-end balances read ``prior``; everything else reads ``current``.
_BY_KEY: dict[str, Callable[[Values, Values], FormulaResult]] = {
    "gross_margin": lambda c, p: gross_margin(c["revenue"], c.get("gross_profit"), c.get("cost_of_revenue")),
    "operating_margin": lambda c, p: operating_margin(c["operating_income"], c["revenue"]),
    "net_margin": lambda c, p: net_margin(c["net_income"], c["revenue"]),
    "ebitda_margin": lambda c, p: ebitda_margin(c["operating_income"], c["depreciation_amortization"], c["revenue"]),
    "capex_to_revenue": lambda c, p: capex_to_revenue(c["capex"], c["revenue"]),
    "current_ratio": lambda c, p: current_ratio(c["current_assets"], c["current_liabilities"]),
    "quick_ratio": lambda c, p: quick_ratio(c["cash_and_equivalents"], c.get("marketable_securities", 0.0),
                                            c["accounts_receivable"], c["current_liabilities"]),
    "working_capital": lambda c, p: working_capital(c["current_assets"], c["current_liabilities"]),
    "debt_to_equity": lambda c, p: debt_to_equity(_debt(c), c["total_equity"], _debt_text(c)),
    "total_debt": lambda c, p: total_debt(*[c[k] for k in _DEBT_LINES if k in c]),
    "net_debt": lambda c, p: net_debt(_debt(c), c["cash_and_equivalents"], _debt_text(c)),
    "debt_to_assets": lambda c, p: debt_to_assets(_debt(c), c["total_assets"], _debt_text(c)),
    "liabilities_to_equity": lambda c, p: liabilities_to_equity(c["total_liabilities"], c["total_equity"]),
    "asset_turnover": lambda c, p: asset_turnover(c["revenue"], p["total_assets"], c["total_assets"]),
    "fixed_asset_turnover": lambda c, p: fixed_asset_turnover(c["revenue"], p["ppe_net"], c["ppe_net"]),
    "inventory_turnover": lambda c, p: inventory_turnover(c["cost_of_revenue"], p["inventory"], c["inventory"]),
    "receivables_turnover": lambda c, p: receivables_turnover(c["revenue"], p["accounts_receivable"], c["accounts_receivable"]),
    "dso": lambda c, p: dso(c["revenue"], p["accounts_receivable"], c["accounts_receivable"]),
    "dio": lambda c, p: dio(c["cost_of_revenue"], p["inventory"], c["inventory"]),
    "dpo": lambda c, p: dpo(c["cost_of_revenue"], p["accounts_payable"], c["accounts_payable"],
                            p.get("inventory"), c.get("inventory")),
    "cash_conversion_cycle": lambda c, p: cash_conversion_cycle(
        dio(c["cost_of_revenue"], p["inventory"], c["inventory"]),
        dso(c["revenue"], p["accounts_receivable"], c["accounts_receivable"]),
        dpo(c["cost_of_revenue"], p["accounts_payable"], c["accounts_payable"], p.get("inventory"), c.get("inventory"))),
    "roa": lambda c, p: roa(c["net_income"], p["total_assets"], c["total_assets"]),
    "roe": lambda c, p: roe(c["net_income"], p["total_equity"], c["total_equity"]),
    "operating_cash_flow_ratio": lambda c, p: operating_cash_flow_ratio(c["operating_cash_flow"], c["current_liabilities"]),
    "free_cash_flow": lambda c, p: free_cash_flow(c["operating_cash_flow"], c["capex"]),
    "fcf_conversion": lambda c, p: fcf_conversion(c["operating_cash_flow"], c["capex"], c["net_income"]),
    "ebitda": lambda c, p: ebitda(c["operating_income"], c["depreciation_amortization"]),
    "ebit": lambda c, p: _result("ebit", "currency", c["operating_income"], "operating income",
                                 fmt_number(c["operating_income"]), {"operating_income": c["operating_income"]}),
    "dividend_payout_ratio": lambda c, p: dividend_payout_ratio(c["dividends_paid"], c["net_income"]),
    "retention_ratio": lambda c, p: retention_ratio(c["dividends_paid"], c["net_income"]),
    "interest_coverage": lambda c, p: interest_coverage(c["operating_income"], c["interest_expense"]),
    "effective_tax_rate_calc": lambda c, p: effective_tax_rate(c["income_tax"], c["pretax_income"]),
}

# Formulas over a metric the question names rather than fixed inputs; callers use the functions.
SUBJECT_FORMULAS = frozenset({"margin", "growth", "cagr", "multi_year_average"})


FORMULA_KEYS = frozenset(_BY_KEY)  # computed by a function here; others are composed from the lexicon's data


def supported() -> frozenset[str]:
    return frozenset(_BY_KEY) | SUBJECT_FORMULAS


def compute(key: str, current: Values, prior: Values | None = None) -> FormulaResult:
    """Compute a named formula from metric values (by lexicon metric key) of one year and the year before."""
    try:
        fn = _BY_KEY[key]
    except KeyError:
        raise FormulaError(f"no fixed-input formula {key!r}; subject formulas ({', '.join(sorted(SUBJECT_FORMULAS))}) "
                           "are called directly") from None
    return fn(_Year(key, "current-year", current), _Year(key, "prior-year", prior or {}))


class _Year(dict):
    """One year's inputs; a missing one is reported by name and year, not as a bare KeyError."""

    def __init__(self, formula: str, which: str, values: Values):
        super().__init__(values)
        self.formula, self.which = formula, which

    def __missing__(self, key: str) -> float:
        raise FormulaError(f"{self.formula} needs the {self.which} value of {key}")


# ---------------------------------------------------------------------------------- units & format
class Format(BaseModel):
    model_config = ConfigDict(frozen=True)

    scale: Unit | None = None     # "in USD billions" -> billions; None: not said
    decimals: int | None = None   # "round to two decimal places" -> 2
    percent: bool | None = None   # "in units of percents" -> True; None: not said


_SCALE_WORDS = {"thousand": "thousands", "thousands": "thousands", "k": "thousands", "million": "millions",
                "millions": "millions", "mm": "millions", "mn": "millions", "m": "millions",
                "billion": "billions", "billions": "billions", "bn": "billions", "b": "billions"}
def convert(value: float, from_unit: Unit | None, to_unit: Unit | None) -> float:
    """Re-express an amount: 1,577 (millions) -> 1.577 (billions). Unknown units leave it as is."""
    if from_unit is None or to_unit is None:
        return value
    return value * UNIT_SCALE[from_unit] / UNIT_SCALE[to_unit]


def render(value: float, kind: ResultKind | Literal["per_share", "shares"], fmt: Format = Format(),
           unit: Unit | None = None) -> str:
    """Write a value as asked: "4.8%", "$1.58 billion", "0.66", "93.86 days".

    ``value`` is in ``unit`` for currency (a statement's "in millions"); percents are fractions.
    """
    if kind == "percent" or (fmt.percent and kind == "ratio"):
        decimals = 1 if fmt.decimals is None else fmt.decimals
        return f"{value * 100:,.{decimals}f}%"
    if kind == "currency":
        # A table that states no unit: its figure is shown as printed, never in the scale asked
        # ("(7,222)" is not "$7,222 million" because the question wanted millions).
        target = (fmt.scale or unit) if unit is not None else None
        amount = convert(value, unit, target)
        decimals = fmt.decimals if fmt.decimals is not None else (2 if target == "billions" else 0 if float(amount).is_integer() else 2)
        if amount and round(abs(amount), decimals) == 0:
            decimals = min(6, -math.floor(math.log10(abs(amount))))  # $0.002 million, not $0.00 million
        suffix = f" {target[:-1]}" if target and target != "units" else ""
        sign = "-" if amount < 0 else ""
        return f"{sign}${abs(amount):,.{decimals}f}{suffix}"
    if kind == "per_share":
        return f"${value:,.{2 if fmt.decimals is None else fmt.decimals}f}"
    decimals = 2 if fmt.decimals is None else fmt.decimals
    if fmt.decimals is None and kind in ("count", "shares") and float(value).is_integer():
        decimals = 0  # 155,800 employees, not 155,800.00
    text = f"{value:,.{decimals}f}"
    return f"{text} days" if kind == "days" else f"{text}x" if kind == "times" else text
