"""``linewise usage``: tokens and cost by period, session, model, project or billing block."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from linewise.cli.common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, fail
from linewise.plugins.registry import Registry
from linewise.settings.defaults import EXIT_INTERRUPTED
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from linewise.sessions.usage import Block, Report, Totals, UsageRecord
    from linewise.sessions.usage._sources import LogProblem

__all__ = ["REPORTS", "register"]

#: The reports ``linewise usage`` makes, the first one by default.
REPORTS: Final = ("daily", "weekly", "monthly", "session", "model", "project", "blocks")
#: Each report's first column: what a row is.
_KEY_COLUMN: Final = {
    "daily": "DAY (UTC)",
    "weekly": "WEEK (from Monday, UTC)",
    "monthly": "MONTH (UTC)",
    "session": "SESSION",
    "model": "MODEL",
    "project": "PROJECT",
    "blocks": "BLOCK (UTC, 5 h)",
}
_FIGURES: Final = (
    "SESSIONS",
    "UNCACHED-IN",
    "CACHE-WRITE",
    "CACHE-READ",
    "OUTPUT",
    "REASONING",
    "TOTAL-TOKENS",
    "COST-USD",
    "COST-SOURCE",
)
_LEFT: Final = frozenset({"COST-SOURCE", "MODELS", "STATUS"})
_MODELS_SHOWN: Final = 3
_KEY_CHARS: Final = 40


def register(commands: Any) -> None:
    """Add the ``usage`` subcommand."""
    usage = commands.add_parser(
        "usage",
        help="tokens and cost by day, week, month, session, model, project or billing block",
        description="Tokens and cost of the sessions the agent CLIs keep on this machine (or of "
        "the logs and session files given), by day, week, month, session, model or project, "
        "or in Claude's 5-hour billing blocks, with a totals row. A cost the CLI did not "
        "record is estimated from list prices and marked so. Times are UTC.",
    )
    usage.add_argument(
        "words",
        nargs="*",
        metavar="[REPORT] [PATH ...]",
        help=f"the report: {', '.join(REPORTS)} (default daily); then logs, session files or "
        "folders (walked, sorted) to report on instead of the sessions on disk",
    )
    usage.add_argument("--since", metavar="DATE", help="only sessions started since DATE (UTC)")
    usage.add_argument(
        "--until", metavar="DATE", help="only sessions started by the end of DATE (UTC)"
    )
    usage.add_argument(
        "--cli", metavar="NAME", help="only this CLI's sessions (claude, codex, gemini...)"
    )
    usage.add_argument(
        "--project", metavar="TEXT", help="only sessions whose working directory or path holds TEXT"
    )
    usage.add_argument("--breakdown", action="store_true", help="a row per model under each row")
    usage.add_argument("--json", action="store_true", help="print JSON instead of a table")
    usage.add_argument(
        "--censor-usernames",
        action="store_true",
        help="mask user names in home-directory paths (/Users/dotta -> /Users/d****)",
    )
    usage.add_argument(
        "--no-cache", action="store_true", help="read every session again, without the cache"
    )
    usage.set_defaults(handler=run)


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Make the report asked for."""
    from linewise.sessions.inputs import terminal_progress
    from linewise.sessions.usage._sources import UsageFilter, bounds, log_records, session_records
    from linewise.transcript.prices import warn_unpriced

    words = list(args.words)
    report = words.pop(0) if words and words[0] in REPORTS else "daily"
    try:
        since, until = bounds(args.since, args.until)
    except ValueError as error:
        fail(str(error), EXIT_USAGE)
    keep = UsageFilter(cli=args.cli, project=args.project, since=since, until=until)
    progress, done = terminal_progress()
    try:
        if words:
            records, problems = log_records(words, keep, registry=registry)
        else:
            records, problems = session_records(
                keep, registry=registry, use_cache=not args.no_cache, progress=progress
            )
    except KeyboardInterrupt:
        done()
        sys.stderr.write("linewise: interrupted; the sessions read so far are cached\n")
        return EXIT_INTERRUPTED
    finally:
        done()
    shown = _shown(args.censor_usernames)
    _warn(problems, shown)
    warn_unpriced(model for record in records for model in record.unpriced)
    now = datetime.now(UTC)
    if args.json:
        data = _json(report, records, problems, now)
        if shown is not _unchanged:
            data = _masked(data, shown)
        sys.stdout.write(json.dumps(data, ensure_ascii=False, allow_nan=False) + "\n")
    elif records:
        sys.stdout.write(_text(report, records, now, breakdown=args.breakdown, shown=shown))
    else:
        sys.stderr.write("linewise: no sessions to report on\n")
    return EXIT_FAILURE if any(problem.unreadable for problem in problems) else EXIT_OK


def _unchanged(text: str) -> str:
    return text


def _shown(censor_usernames: bool) -> Callable[[str], str]:
    """What every printed text goes through, as in ``linewise sessions``: the values of
    secret-named environment variables masked, user names censored on demand."""
    import os

    from linewise.render.redaction.redactor import Redactor

    redactor = Redactor.for_environment(os.environ)
    mask = redactor.text if redactor.active else _unchanged
    if not censor_usernames:
        return mask
    from linewise.transcript.privacy import censor_text

    return lambda text: censor_text(mask(text))


def _masked(value: Any, shown: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {shown(key): _masked(item, shown) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item, shown) for item in value]
    return value


def _warn(problems: list[LogProblem], shown: Callable[[str], str]) -> None:
    for problem in problems:
        kind = "error" if problem.unreadable else "warning"
        where, why = neutralize(shown(problem.path)), neutralize(shown(problem.reason))
        sys.stderr.write(f"linewise: {kind}: {where}: {why}\n")


def _price_data(records: list[UsageRecord]) -> list[str]:
    return sorted({r.price_data for r in records if r.cost_source == "estimated" and r.price_data})


def _json(
    report: str, records: list[UsageRecord], problems: list[LogProblem], now: datetime
) -> dict[str, Any]:
    from linewise.sessions.usage import billing_blocks, usage_report

    data: dict[str, Any] = {"report": report, "timeZone": "UTC"}
    if report == "blocks":
        blocks = billing_blocks(records, now)
        data["rows"] = [block.to_json(now) for block in blocks]
        data["totals"] = usage_report(records, "daily").total.to_json()
    else:
        made = usage_report(records, report)  # type: ignore[arg-type]
        data["rows"] = [{"key": key, **totals.to_json()} for key, totals in made.rows]
        if report == "session":
            from linewise.sessions.usage._report import session_keys

            # Which session a row is: its CLI, id, file and project.
            about = dict(zip(session_keys(records), records, strict=True))
            for row in data["rows"]:
                one = about[row["key"]]
                row.update(cli=one.cli, sessionId=one.session, path=one.path, project=one.project)
        data["totals"] = made.total.to_json()
    data["priceData"] = _price_data(records)
    data["unpricedModels"] = sorted({model for record in records for model in record.unpriced})
    data["problems"] = [
        {"path": problem.path, "reason": problem.reason, "unreadable": problem.unreadable}
        for problem in problems
    ]
    return data


def _count(value: int | None) -> str:
    return "unknown" if value is None else f"{value:,}"


def _cost(totals: Totals) -> str:
    cost = totals.cost_usd
    if cost is None:
        return "unknown"
    # ≥: some sessions' cost is unknown, so the sum is a floor, not the whole.
    floor = "≥" if totals.unknown_cost else ""
    if 0 < cost < 0.0001:
        return floor + "<$0.0001"  # not $0.0000: it cost something
    return floor + (f"${cost:,.2f}" if cost >= 10 else f"${cost:.4f}")


def _figures(totals: Totals) -> list[str]:
    tokens = totals.tokens
    return [
        f"{totals.sessions:,}",
        _count(tokens.uncached_input),
        _count(tokens.cache_write),
        _count(tokens.cache_read),
        _count(tokens.output),
        _count(tokens.reasoning),
        _count(tokens.total),
        _cost(totals),
        totals.cost_source or "-",
    ]


def _models(totals: Totals) -> str:
    names = sorted(totals.models)
    if len(names) <= _MODELS_SHOWN:
        return ", ".join(names) or "-"
    return ", ".join(names[:_MODELS_SHOWN]) + f" +{len(names) - _MODELS_SHOWN}"


def _cut(text: str) -> str:
    return text if len(text) <= _KEY_CHARS else "…" + text[-(_KEY_CHARS - 1) :]


def _text(
    report: str,
    records: list[UsageRecord],
    now: datetime,
    *,
    breakdown: bool,
    shown: Callable[[str], str],
) -> str:
    from linewise.sessions.usage import billing_blocks, usage_report

    by_model = report == "model"
    header = [_KEY_COLUMN[report], *(["STATUS"] if report == "blocks" else []), *_FIGURES]
    if not by_model:
        header.append("MODELS")
    rows: list[list[str]] = [header]
    made: Report = usage_report(records, "daily" if report == "blocks" else report)  # type: ignore[arg-type]
    listed: list[tuple[str, list[str], Totals]]
    blocks: list[Block] = []
    if report == "blocks":
        blocks = billing_blocks(records, now)
        listed = [
            (
                block.start.strftime("%Y-%m-%d %H:%M"),
                ["active" if block.active else "ended"],
                block.totals,
            )
            for block in blocks
        ]
    else:
        keys = _session_keys(made) if report == "session" else {}
        listed = [
            (keys[key] if key in keys else _cut(key), [], totals) for key, totals in made.rows
        ]
    for key, extra, totals in listed:
        rows.append([key, *extra, *_figures(totals), *([] if by_model else [_models(totals)])])
        if breakdown and not by_model:
            for model, share in sorted(totals.models.items()):
                rows.append([f"  └ {_cut(model)}", *[""] * len(extra), *_figures(share), ""])
    rows.append(
        [
            "TOTAL",
            *([""] if report == "blocks" else []),
            *_figures(made.total),
            *([] if by_model else [_models(made.total)]),
        ]
    )
    text = _table([[shown(cell) for cell in row] for row in rows])
    active = [block for block in blocks if block.active]
    if active:
        text += _active(active[0], now)
    return text + _legend(report, records, made.total)


def _session_keys(made: Report) -> dict[str, str]:
    """Each session row's key as the table shows it: its CLI and the shortest id prefix
    that tells it apart (what ``linewise render`` takes)."""
    from linewise.cli.commands.sessions import unique_prefixes

    ids = [key.split(" ", 2)[1] for key, _ in made.rows]
    prefixes = unique_prefixes(ids)
    shown = {}
    for key, _ in made.rows:
        cli, ident, *path = key.split(" ", 2)
        # A file named where two sessions share an id.
        shown[key] = " ".join([cli, prefixes.get(ident, ident), *path])
    return shown


def _active(block: Block, now: datetime) -> str:
    per_minute, per_hour = block.burn_rate()
    tokens, cost = block.projection()
    left = max(int((block.end - now).total_seconds() // 60), 0)
    source = block.totals.cost_source
    mark = (
        " (estimated)"
        if source == "estimated"
        else " (partly estimated)"
        if source == "mixed"
        else ""
    )
    rate = (
        "burn rate unknown (one moment of activity so far)"
        if per_minute is None
        else f"burn rate {per_minute:,.0f} tokens/min"
        + ("" if per_hour is None else f", ${per_hour:.2f}/h{mark}")
    )
    projected = (
        ""
        if tokens is None
        else f"; at this rate by {block.end.strftime('%H:%M')} UTC: {tokens:,} tokens"
        + ("" if cost is None else f", ${cost:.2f}{mark}")
    )
    return f"active block: {left // 60}h {left % 60:02d}m left; {rate}{projected}\n"


def _legend(report: str, records: list[UsageRecord], total: Totals) -> str:
    lines = [
        "tokens: UNCACHED-IN input neither read from nor written to a prompt cache; CACHE-WRITE "
        "and CACHE-READ input written to and read from it; OUTPUT every generated token, "
        "REASONING (a part of OUTPUT) included; TOTAL-TOKENS the four together; unknown: no "
        "session in the row reported that count",
    ]
    tables = _price_data(records)
    estimate = (
        f"estimated: the CLI recorded no cost, priced from list prices ({', '.join(tables)}); "
        if tables
        else ""
    )
    lines.append(
        "cost: COST-SOURCE reported (by the CLI), estimated or mixed; "
        + estimate
        + "≥: the sum of the known costs, some sessions' cost is unknown; unknown: none known"
    )
    lines.append(
        "a session counts whole on the day (week, month"
        + (", billing block" if report == "blocks" else "")
        + ") of its first event"
    )
    if total.unknown_cost:
        lines.append(f"{total.unknown_cost:,} of {total.sessions:,} sessions: cost unknown")
    if total.file_dated:
        lines.append(
            f"{total.file_dated:,} of {total.sessions:,} sessions dated by their file's "
            "modification time (their records carry no time)"
        )
    if report == "blocks":
        from linewise.sessions.usage._blocks import billed

        unbilled = sum(not billed(record) for record in records)
        if unbilled:
            lines.append(
                f"{unbilled:,} sessions reported no usage (or no time) and are in no block; "
                "TOTAL counts every session"
            )
    return "".join(line + "\n" for line in lines)


def _table(rows: list[list[str]]) -> str:
    cells = [[neutralize(cell) for cell in row] for row in rows]
    header = rows[0]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = []
    for row in cells:
        padded = [
            cell.ljust(width) if index == 0 or name in _LEFT else cell.rjust(width)
            for index, (name, cell, width) in enumerate(zip(header, row, widths, strict=True))
        ]
        lines.append("  ".join(padded).rstrip())
    return "\n".join(lines) + "\n"
