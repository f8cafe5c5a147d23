"""Narrative topics (legal proceedings, risk factors, segments...): how questions name them,
how filings print them, and which Items hold them. Data in topics.yaml; used by query planning."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

from docqa.finance.text import stems

TOPICS_PATH = Path(__file__).with_name("topics.yaml")


class Topic(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    asks: tuple[str, ...]
    prints: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    synonyms: tuple[str, ...] = ()   # more printed forms, for scanning a full text (not searched)
    implies: tuple[str, ...] = ()    # topics this one goes without saying ("dividends" are paid to shareholders)
    # An open question about the topic ("what are the main risks?") is answered by its section,
    # quoted: the Items in ``sections`` are where the filing discusses it as a whole.
    section_answer: bool = False

    @property
    def phrases(self) -> tuple[str, ...]:
        """Every way a filing may print the topic, once each: the asks and the synonyms (the
        search hints in ``prints`` stand in when a topic lists no synonyms)."""
        return tuple(dict.fromkeys((*self.asks, *(self.synonyms or self.prints))))


@lru_cache(maxsize=1)
def load_topics() -> tuple[Topic, ...]:
    data = yaml.load(TOPICS_PATH.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml: 10x less CPU
    if data.get("version") != 1:
        raise ValueError(f"{TOPICS_PATH}: unsupported version {data.get('version')!r}")
    return tuple(Topic.model_validate(t) for t in data["topics"])


@lru_cache(maxsize=1)  # every question is matched against every ask: stem them once
def _ask_stems() -> tuple[tuple[Topic, tuple[tuple[str, ...], ...]], ...]:
    return tuple((t, tuple(tuple(stems(a)) for a in t.asks)) for t in load_topics())


def topics_for(question: str) -> list[Topic]:
    """The topics a question asks about; a topic read only inside a longer ask of another is not
    asked ("foreign currency risk" is market risk, not the risk factors)."""
    words = tuple(stems(question))
    present = set(words)  # an ask whose first word the question lacks cannot be in it
    spans = {t.key: [s for a in asks if a and a[0] in present for s in _spans(words, a)] for t, asks in _ask_stems()}
    found = [t for t in load_topics() if spans[t.key]]

    def inside_another(topic: Topic) -> bool:
        return all(any(o is not topic and any(a <= s and e <= b and (b - a) > (e - s) for a, b in spans[o.key])
                       for o in found) for s, e in spans[topic.key])
    return [t for t in found if not inside_another(t)]


def _spans(words: tuple[str, ...], ask: tuple[str, ...]) -> list[tuple[int, int]]:
    n = len(ask)
    return [(i, i + n) for i in range(len(words) - n + 1) if words[i:i + n] == ask]
