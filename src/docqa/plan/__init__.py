"""The question, read once: ``build_plan(question, documents, filters) -> QuestionPlan``.

One parser per slot (subject, periods, filing types, statistic, topic, judgement, intent); no
module outside this package reads the question's words to decide what was asked.
"""

from docqa.plan.build import build_plan
from docqa.plan.model import Intent, QuestionPlan, Statistic

__all__ = ["Intent", "QuestionPlan", "Statistic", "build_plan"]
