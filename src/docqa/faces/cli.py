"""The command line. Holds no logic: parses flags, calls the Engine, prints.

The subcommands live in faces/commands/, one module per group; this module puts them on the app
in the order `docqa --help` lists them.
"""

from __future__ import annotations

import logging
import sys

import typer

from docqa.faces.commands import evaluation, indexing, reading, serving
from docqa.faces.commands.errors import DEBUG, CliGroup
from docqa.faces.commands.output import err

app = typer.Typer(cls=CliGroup, add_completion=False, no_args_is_help=True, suggest_commands=False,
                  help="Questions about company filings, answered with proof. Exit codes: 0 ok, 1 failed, "
                       "2 bad input, 3 some files failed (ingest), 4 not found (ask).")
eval_app = typer.Typer(no_args_is_help=True, help="Measure retrieval and answers on labeled questions.")
app.add_typer(eval_app, name="eval")


@app.callback()
def _options(debug: bool = typer.Option(False, "--debug", help="show the full traceback of an error")):
    DEBUG["on"] = debug
    from docqa.embed import on_load_wait

    # A command that needs the sentence model waits 7-14 s the first time: say why it is quiet.
    on_load_wait(lambda: err.print("loading the sentence model...", highlight=False))


app.command()(indexing.ingest)
app.command()(indexing.fetch)
app.command()(reading.search)
app.command()(reading.docs)
app.command()(reading.ask)
app.command()(reading.stats)
app.command()(reading.show)
app.command()(serving.mcp)
app.command()(serving.serve)
app.command("export-log")(reading.export_log)
eval_app.command("retrieval")(evaluation.eval_retrieval)
eval_app.command("answers")(evaluation.eval_answers)
eval_app.command("compare")(evaluation.eval_compare)


def main() -> None:  # pragma: no cover
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
