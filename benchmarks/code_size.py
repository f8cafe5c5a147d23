"""Sizes of the source: lines, modules over a limit, functions over a limit.

    .venv/bin/python benchmarks/code_size.py [--src src] [--module-lines 600] [--function-lines 80]
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default="src")
    ap.add_argument("--module-lines", type=int, default=600)
    ap.add_argument("--function-lines", type=int, default=80)
    args = ap.parse_args()
    modules, long_functions, total = [], [], 0
    for path in sorted(Path(args.src).rglob("*.py")):
        text = path.read_text()
        lines = text.count("\n")
        total += lines
        modules.append((lines, str(path)))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > args.function_lines:
                    long_functions.append((length, f"{path}:{node.name}"))
    print(f"{len(modules)} modules, {total:,} lines")
    print("largest:", ", ".join(f"{p} {n}" for n, p in sorted(modules, reverse=True)[:3]))
    over = [(n, p) for n, p in modules if n > args.module_lines]
    print(f"modules over {args.module_lines} lines: {len(over)}", *(f"  {p} {n}" for n, p in sorted(over, reverse=True)), sep="\n")
    print(f"functions over {args.function_lines} lines: {len(long_functions)}",
          *(f"  {p} {n}" for n, p in sorted(long_functions, reverse=True)), sep="\n")


if __name__ == "__main__":
    main()
