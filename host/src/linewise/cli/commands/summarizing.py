"""``linewise summarize``: what each run came to (tokens, cost, outcome), and the totals."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from linewise.cli.common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, add_isolation_options, fail
from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.registry import Registry
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from linewise_contracts.summary import RunSummary

    from linewise.transcript.run_report import RunReport, RunTotals

from linewise_contracts.usage import TokenUsage

from linewise.render.outcome import summary_tokens, tokens_text

__all__ = ["describe", "register"]

_SESSION_WIDTH = 12
_COLUMNS = (
    "FILE",
    "ADAPTER",
    "SESSION",
    "MODEL",
    "TURNS",
    "TOOLS",
    "ERRORS",
    "UNCACHED-IN",
    "CACHE-READ",
    "CACHE-WRITE",
    "OUTPUT",
    "COST",
    "STATUS",
    "OUTCOME",
)
_NUMERIC = frozenset(
    {"TURNS", "TOOLS", "ERRORS", "UNCACHED-IN", "CACHE-READ", "CACHE-WRITE", "OUTPUT", "COST"}
)
#: What the token and cost columns are, said under the table.
_LEGEND = (
    "TURNS: the model's round trips as the CLI reported them (Claude Code's num_turns); "
    "-: the CLI reports none; ≥: TOTAL leaves out runs whose CLI reports none\n"
    "tokens and cost: whole run, as the CLI reported them, in one vocabulary for every CLI: "
    "UNCACHED-IN input neither read from nor written to a cache, CACHE-READ / CACHE-WRITE "
    "input read from / written to a prompt cache, OUTPUT every generated token (reasoning "
    "included); unknown: the CLI did not report it; TOTAL adds what was reported\n"
)


def register(commands: Any) -> None:
    """Add the ``summarize`` subcommand."""
    summarize = commands.add_parser(
        "summarize", help="summarise finished runs: tokens, cost, tool calls, outcome"
    )
    summarize.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="stdout logs of agent runs; a directory is walked (every file in it, sorted); "
        "- reads one log from stdin",
    )
    summarize.add_argument(
        "-a",
        "--adapter",
        default="auto",
        metavar="TYPE",
        help="adapter type of the CLI that wrote the logs; auto (the default) detects it per file",
    )
    summarize.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_isolation_options(summarize)
    summarize.set_defaults(handler=run)


def _tokens(value: int) -> str:
    return f"{value:,}"


def tokens_known(report: RunReport) -> bool:
    """False when the plugin says the CLI reported no tokens (``usageBasis`` ``none``), or,
    without a plugin summary, when no result entry reported any: zeros are then unknown."""
    if report.summary_source == "transcript" and not report.stats.results:
        return False
    return report.summary.details.get("usageBasis") != "none"


def _run_tokens(report: RunReport, value: int) -> str:
    return _tokens(value) if tokens_known(report) else "unknown"


def _cost(value: float | None, source: str | None = None) -> str:
    """A cost cell: ``est`` marks an estimate (``mixed``: a sum with estimates in it)."""
    if value is None:
        return "unknown"
    mark = {"estimated": " est", "mixed": " incl. est"}.get(source or "", "")
    return f"${value:.4f}{mark}"


def _legend(estimated: bool, totals: RunTotals) -> str:
    """The lines under the table: what each figure is."""
    legend = _LEGEND.rstrip("\n")
    if estimated:
        from linewise.transcript.prices import price_data

        legend += f"; est: the CLI reported no cost, estimated from list prices ({price_data()})"
    if totals.runs > 1 and totals.unknown_cost and totals.cost_usd is not None:
        legend += f"; ≥: the known costs' sum ({totals.unknown_cost} runs' cost is unknown)"
    return legend + "\n"


def _short(value: str | None, width: int = _SESSION_WIDTH) -> str:
    if not value:
        return "-"
    return value if len(value) <= width else value[: width - 1] + "…"


def describe(report: RunReport) -> str:
    """The run in one line: adapter, session, model, turns, tool calls, tokens, cost, status."""
    summary: RunSummary = report.summary
    parts = [report.adapter_type]
    if summary.session_id:
        parts.append(f"session {_short(summary.session_id)}")
    if summary.model:
        parts.append(summary.model)
    if summary.turns is not None:
        parts.append(f"{summary.turns} turns")
    parts.append(f"{report.stats.tool_calls} tool calls")
    if summary.errors:
        parts.append(f"{len(summary.errors)} errors")
    tokens = summary_tokens(summary)
    parts.append(tokens_text(tokens) if tokens is not None else "tokens in the CLI's own counts")
    parts.append(f"cost {_cost(summary.cost_usd, summary.cost_source)}")
    parts.append(report.status)
    parts.append(_outcome(report))
    return neutralize(" · ".join(parts))


def _vocabulary(tokens: TokenUsage | None) -> list[str]:
    """The four token columns; unknown where the CLI did not report the count."""
    if tokens is None:
        return ["unknown"] * 4
    return [
        "unknown" if count is None else f"{count:,}"
        for count in (tokens.uncached_input, tokens.cache_read, tokens.cache_write, tokens.output)
    ]


def _row(report: RunReport) -> list[str]:
    summary = report.summary
    return [
        report.source,
        report.adapter_type,
        _short(summary.session_id),
        summary.model or "-",
        "-" if summary.turns is None else str(summary.turns),
        str(report.stats.tool_calls),
        str(len(summary.errors)),
        *_vocabulary(summary_tokens(summary)),
        _cost(summary.cost_usd, summary.cost_source),
        report.status,
        _outcome(report),
    ]


def _count(value: object) -> str:
    return f"{value:,}" if type(value) is int else "-"


def _subagent_rows(report: RunReport) -> list[list[str]]:
    """One row per subagent the plugin's summary lists (``details["subagents"]``), under its run.

    The run's own row counts everything (main thread and subagents); these
    rows show each subagent apart: type, description, tool calls, errors, tokens.
    """
    found: object = report.summary.details.get("subagents")
    rows: list[list[str]] = []
    for agent in found if isinstance(found, list) else []:
        if not isinstance(agent, dict):
            continue
        tokens = TokenUsage.from_json(agent.get("tokenUsage")) if "tokenUsage" in agent else None
        kind, about = str(agent.get("type") or ""), str(agent.get("description") or "")
        name = f"{kind}: {about}" if kind and about else kind or about
        cost = agent.get("costUsd")
        rows.append(
            [
                f"  ⤷ subagent {_short(name or str(agent.get('toolUseId') or '?'), 60)}",
                "",
                "",
                str(agent.get("model") or ""),
                "",
                _count(agent.get("toolCalls")),
                _count(agent.get("errors")),
                *(_vocabulary(tokens) if tokens is not None else ["-"] * 4),
                _cost(float(cost)) if type(cost) is int or type(cost) is float else "-",
                str(agent.get("status") or ""),
                "",
            ]
        )
    return rows


def _outcome(report: RunReport) -> str:
    """How the run ended, in the words every view of it uses (text, compact, HTML)."""
    from linewise.render.outcome import summary_outcome

    if report.status == "unknown":
        return "unknown"  # the transcript cannot tell (no plugin summary, no result)
    return summary_outcome(report.summary)


def _at_least(turns: int | None, unknown: int) -> str:
    """The runs' reported turns; ``≥`` when some runs' are unknown, ``-`` when all are."""
    if turns is None:
        return "-"
    return ("≥" if unknown else "") + str(turns)


def _total_row(totals: RunTotals) -> list[str]:
    statuses = ", ".join(f"{count} {status}" for status, count in sorted(totals.statuses.items()))
    return [
        f"TOTAL ({totals.runs} runs)",
        "",
        "",
        "",
        _at_least(totals.turns, totals.unknown_turns),
        str(totals.tool_calls),
        str(totals.errors),
        *_vocabulary(totals.token_usage),
        # ≥: the sum leaves out the runs whose cost is unknown.
        "overflowed"
        if totals.cost_overflowed
        else ("≥" if totals.unknown_cost and totals.cost_usd is not None else "")
        + _cost(totals.cost_usd, totals.cost_source),
        statuses,
        "",
    ]


def _table(rows: list[list[str]]) -> str:
    # Everything shown came from a log or a file name: neutralised before measuring.
    cells = [[neutralize(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(_COLUMNS))]
    lines = []
    for row in cells:
        padded = [
            cell.rjust(width) if name in _NUMERIC else cell.ljust(width)
            for name, cell, width in zip(_COLUMNS, row, widths, strict=True)
        ]
        lines.append("  ".join(padded).rstrip())
    return "\n".join(lines) + "\n"


def _logs(paths: list[str]) -> Iterator[str]:
    """The logs named: files as given, every regular file under a directory (sorted), ``-``.

    In a directory, anything but a regular file (a FIFO, a socket, a device)
    is skipped with a warning: opening a FIFO nobody writes to would block.
    """
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            yield path
            continue
        found = False
        for folder, folders, files in os.walk(path):
            folders.sort()
            for name in sorted(files):
                file = os.path.join(folder, name)
                if not _regular(file):
                    sys.stderr.write(
                        f"linewise: warning: {neutralize(file)}: not a regular file; skipped\n"
                    )
                    continue
                found = True
                yield file
        if not found:
            sys.stderr.write(f"linewise: warning: {neutralize(path)}: no files in this directory\n")


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # gone or unreadable: reading it reports why


def _summarize_one(path: str, adapter_type: str, registry: Registry) -> RunReport:
    """One log's report; stdin is copied to a temporary file first (it is read twice)."""
    from linewise.cli.inputs import session_report
    from linewise.transcript.run_report import summarize_log, summarize_stream

    if (report := session_report(path, adapter_type, registry)) is not None:
        return report
    if path != "-":
        return summarize_log(path, adapter_type, registry=registry)
    with tempfile.TemporaryFile() as copy:
        shutil.copyfileobj(sys.stdin.buffer, copy)
        copy.seek(0)
        return summarize_stream(copy, "stdin", adapter_type, registry=registry)


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Summarise every log named; unreadable ones are reported and the rest still summarised."""
    from linewise.transcript.run_report import total

    if args.adapter != "auto" and args.adapter not in registry.adapter_types:
        from linewise.plugins.suggest import unknown_adapter  # a mistyped name only

        fail(str(unknown_adapter(args.adapter, registry.adapter_types)), EXIT_USAGE)
    reports: list[RunReport] = []
    unreadable: list[dict[str, str]] = []
    for path in _logs(args.paths):
        try:
            report = _summarize_one(path, args.adapter, registry)
        except OSError as error:
            reason = error.strerror or str(error)
            sys.stderr.write(f"linewise: error: cannot read {neutralize(path)}: {reason}\n")
            unreadable.append({"path": path, "error": reason})
            continue
        if report.summary_problem:
            sys.stderr.write(
                f"linewise: warning: {neutralize(path)}: {neutralize(report.summary_problem)}; "
                "summarised from the transcript\n"
            )
        if args.adapter == "auto" and report.adapter_type == GENERIC_ADAPTER_TYPE:
            # The detection's own reason says which it was: none recognised, or several.
            why = report.detection or "no installed parser recognises it"
            sys.stderr.write(
                f"linewise: warning: {neutralize(path)}: {neutralize(why)}; "
                "summarised with the generic parser (try -a TYPE)\n"
            )
        reports.append(report)
    totals = total(reports)
    if args.json:
        payload = {
            "runs": [report.to_json() for report in reports],
            "unreadable": unreadable,
            "totals": totals.to_json(),
        }
        # allow_nan=False: a number JSON cannot carry is a bug, never output.
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, allow_nan=False) + "\n")
    elif reports:
        rows = [list(_COLUMNS)]
        for report in reports:
            rows.append(_row(report))
            rows.extend(_subagent_rows(report))
        if len(reports) > 1:
            rows.append(_total_row(totals))
        estimated = any(report.summary.cost_source == "estimated" for report in reports)
        sys.stdout.write(_table(rows) + _legend(estimated, totals))
    return EXIT_FAILURE if unreadable else EXIT_OK
