"""How the CLI fails: its exit codes, and every command's user errors turned into one line and an exit."""

from __future__ import annotations

import sys

import click
import typer
from rich.markup import escape

from docqa.faces.commands.output import err

# Exit codes (README "Exit codes"): scripts can tell these apart.
EXIT_OK = 0
EXIT_ERROR = 1         # the work failed: every file failed to index, a page too large to render, ...
EXIT_INPUT = 2         # bad input: a flag or argument, an unknown document, a page out of range, no index there
EXIT_SOME_FAILED = 3   # ingest: some files were indexed, some failed
EXIT_NOT_FOUND = 4     # ask: the filings do not support an answer

DEBUG = {"on": False}  # set by the app's --debug: a user error then keeps its traceback


class UserError(Exception):
    """A mistake the user can fix: printed as one line, exit 2, no traceback."""


def _user_error_line(exc: BaseException) -> str | None:
    """The one line for an error the user can act on; None for a bug (which keeps its traceback)."""
    from docqa.engine import PageOutOfRange
    from docqa.app.errors import AmbiguousDocument, DocumentNotFound, EmbedderMismatch, ParseError

    if isinstance(exc, UserError):
        return str(exc)
    if (full := _disk_full(exc)) is not None:
        at = f" ({full.where})" if full.where else ""
        return (f"no space left on the index's disk{at}: free some space there, or use an index on a disk with "
                "room (--index or DOCQA_INDEX), then run the command again (files already indexed are skipped)")
    if isinstance(exc, AmbiguousDocument):
        return str(exc)
    if isinstance(exc, DocumentNotFound):
        if not exc.known:
            return f"unknown document {exc.name!r}: the index holds no documents yet; add some with `docqa ingest FILES`"
        known = ", ".join(exc.known[:5]) + (f" and {len(exc.known) - 5} more" if len(exc.known) > 5 else "")
        return f"unknown document {exc.name!r}; closest: {known}. List them all with `docqa docs`"
    if isinstance(exc, PageOutOfRange):
        return (f"{exc.document.file_name} has pages 1-{exc.document.pages}; page {exc.page} does not exist "
                "(pages are 1-based physical pages of the PDF)")
    if isinstance(exc, (ValueError, ParseError, EmbedderMismatch)):  # bad k/mode/doc_type/question, unreadable PDF
        return str(exc)
    if isinstance(exc, OSError) and exc.filename:  # a questions file that is not there, an --out folder that is not
        return f"{exc.filename}: {exc.strerror or exc}"
    return None


def _disk_full(exc: BaseException):
    """The store's DiskFull, or SQLite saying so where the store does not (opening an index): not any
    ENOSPC, since ``show --out`` on a full disk is about that file (and says so with its name)."""
    import sqlite3

    from docqa.app.errors import DiskFull, disk_full

    if isinstance(exc, DiskFull):
        return exc
    return disk_full(exc) if isinstance(exc, sqlite3.Error) else None


class CliGroup(typer.core.TyperGroup):
    """Every command's user errors become one line on stderr and a non-zero exit (tracebacks only with --debug)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except Exception as exc:
            line = _user_error_line(exc)
            if line is None or DEBUG["on"]:
                raise
            err.print(f"[red]error[/red] {escape(line)}", highlight=False, soft_wrap=True)
            # a full disk is no mistake in the input: the work failed
            raise click.exceptions.Exit(EXIT_ERROR if _disk_full(exc) is not None else EXIT_INPUT) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            from typer import rich_utils

            rich_utils.rich_format_error(exc)
            sys.exit(exc.exit_code)
        except click.UsageError as exc:  # one line: what is wrong, where to read more
            where = exc.ctx.command_path if exc.ctx else "docqa"
            err.print(f"[red]error[/red] {exc.format_message()} (see `{where} --help`)", highlight=False,
                      soft_wrap=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            err.print(f"[red]error[/red] {exc.format_message()}", highlight=False, soft_wrap=True)
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            err.print("aborted")
            sys.exit(EXIT_ERROR)
        sys.exit(result if isinstance(result, int) else EXIT_OK)
