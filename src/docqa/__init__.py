"""docqa: answers about company filings that prove themselves (pages, quotes, shown arithmetic)."""

from __future__ import annotations

__all__ = ["Engine", "Settings"]
__version__ = "0.1.0"


def __getattr__(name: str):
    # Lazy, so that importing one submodule (a store, the parser) does not load the whole engine.
    if name == "Engine":
        from docqa.engine import Engine

        return Engine
    if name == "Settings":
        from docqa.config import Settings

        return Settings
    raise AttributeError(name)
