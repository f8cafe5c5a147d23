"""The --index option and the Engine a command opens on it: writers may create an index, readers may not."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from docqa.config import Settings
from docqa.engine import Engine
from docqa.faces.commands.errors import UserError

IndexOpt = typer.Option(None, "--index", "-i", help="index folder (default: $DOCQA_INDEX or ./.docqa)")


def open_engine(index: Optional[Path], **overrides) -> Engine:
    settings = Settings()
    if index is not None:
        overrides["index"] = index
    return Engine.open(settings.with_(**overrides) if overrides else settings)


def existing_index(index: Optional[Path]) -> Settings:
    """The settings for a command that only reads: an index folder that does not exist is an error, not a new index."""
    settings = Settings()
    path = index if index is not None else settings.index
    if settings.store.url is None and not (path / "docqa.sqlite").exists():
        what = "does not exist" if not path.exists() else "holds no docqa index"
        raise UserError(f"no index at {path}: the folder {what}. Create one with `docqa ingest FILES --index {path}`, "
                        "or pass --index (or set DOCQA_INDEX) to an existing index")
    return settings.with_(index=path)


def open_reader(index: Optional[Path], **overrides) -> Engine:
    existing_index(index)
    return open_engine(index, **overrides)
