"""``linewise query``: SQL over an export folder (views ``runs`` and ``entries``) with DuckDB."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any, Final

from linewise.cli.common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, fail
from linewise.plugins.registry import Registry
from linewise.settings.sanitising import neutralize

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``query`` subcommand."""
    query = commands.add_parser(
        "query",
        help="run SQL over an export folder (views runs and entries) with DuckDB",
        description="Run SQL over a `linewise export` folder with DuckDB: the views `runs` "
        "and `entries`. Needs the export extra: pip install 'linewise[export]'.",
    )
    query.add_argument("sql", nargs="?", metavar="SQL", help="the query")
    query.add_argument(
        "--from",
        dest="directory",
        default=".",
        metavar="DIR",
        help="the export folder (default: the current folder)",
    )
    query.add_argument(
        "-e",
        "--example",
        metavar="NAME",
        help="run an example query instead of SQL (see --show-examples): "
        "cost-per-model-per-day, top-failing-tools, runs-that-hit-limits",
    )
    query.add_argument(
        "--show-examples", action="store_true", help="print the example queries and stop"
    )
    output = query.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON object per row")
    output.add_argument("--csv", action="store_true", help="CSV with a header row")
    query.set_defaults(handler=run)


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


# JSON escapes C0 controls itself; C1 controls (U+0080..U+009F, such as the one-byte
# CSI) are escaped too, so the same value reaches the reader and nothing acts on it.
_C1_ESCAPES: Final = {code: f"\\u{code:04x}" for code in range(0x80, 0xA0)}


def _csv_cell(value: Any) -> Any:
    return neutralize(value) if isinstance(value, str) else value


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return neutralize(str(value))


def _table(columns: list[str], rows: list[tuple[Any, ...]]) -> str:
    # Cells come from agent logs: neutralised before they are measured or shown.
    cells = [[neutralize(name) for name in columns], *([_cell(v) for v in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in cells
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Run the query and print its rows."""
    from linewise.export import EXAMPLE_QUERIES, MissingExtraError, run_query
    from linewise.export._folder import InconsistentExportError

    if args.show_examples:
        for name, sql in EXAMPLE_QUERIES.items():
            sys.stdout.write(f"-- {name}\n{sql};\n\n")
        return EXIT_OK
    if (args.sql is None) == (args.example is None):
        fail("give either SQL or --example NAME", EXIT_USAGE)
    if args.example is not None and args.example not in EXAMPLE_QUERIES:
        known = ", ".join(EXAMPLE_QUERIES)
        fail(f"unknown example {args.example!r}; the examples are {known}", EXIT_USAGE)
    sql = args.sql if args.example is None else EXAMPLE_QUERIES[args.example]
    try:
        result = run_query(args.directory, sql)
    except MissingExtraError as error:
        fail(str(error), EXIT_FAILURE)
    except (FileNotFoundError, InconsistentExportError) as error:
        fail(str(error), EXIT_FAILURE)
    except Exception as error:
        import duckdb

        if not isinstance(error, duckdb.Error):
            raise
        # A query DuckDB refuses, or a damaged file: its message says which.
        fail(f"the query failed: {error}", EXIT_FAILURE)
    out = sys.stdout
    if args.json:
        for row in result.rows:
            record = dict(zip(result.columns, row, strict=True))
            text = json.dumps(record, ensure_ascii=False, default=_json_value)
            out.write(text.translate(_C1_ESCAPES) + "\n")
    elif args.csv:
        writer = csv.writer(out, lineterminator="\n")
        # Cells come from agent logs: a spreadsheet or a terminal must not act on them.
        writer.writerow([neutralize(name) for name in result.columns])
        writer.writerows([_csv_cell(value) for value in row] for row in result.rows)
    elif result.columns:
        out.write(_table(result.columns, result.rows))
    return EXIT_OK
