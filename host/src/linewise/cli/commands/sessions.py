"""``linewise sessions``: the sessions the CLIs keep on this machine, newest first."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from linewise.cli.common import EXIT_OK, EXIT_USAGE, fail, positive_int
from linewise.plugins.registry import Registry
from linewise.sessions.inputs import terminal_progress
from linewise.settings.defaults import EXIT_INTERRUPTED
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from linewise.sessions import SessionInfo

__all__ = ["register"]

_COLUMNS: Final = (
    "LAST-ACTIVE",
    "CLI",
    "ID",
    "PROJECT",
    "MODEL",
    "MSGS",
    "TOOLS",
    "TOKENS",
    "COST",
    "OUTCOME",
    "FIRST-PROMPT",
)
_NUMERIC: Final = frozenset({"MSGS", "TOOLS", "TOKENS", "COST"})
#: Fewest characters of an id the table shows (more when needed to tell ids apart).
ID_CHARS: Final = 8
PROJECT_CHARS: Final = 32
PROMPT_CHARS: Final = 60
_LEGEND: Final = (
    "render one with `linewise render ID` (an unambiguous prefix is enough); "
    "tokens: every input token (uncached, cache reads and writes) + output; "
    "unknown: the CLI recorded none\n"
)


def register(commands: Any) -> None:
    """Add the ``sessions`` subcommand."""
    sessions = commands.add_parser(
        "sessions",
        help="list the sessions the agent CLIs keep on this machine",
        description="List the sessions the agent CLIs keep on disk (Claude Code, Codex, ... "
        "as far as their plugins are installed), newest first. What each came to is "
        "cached (readable by you only) and read again when a file changes.",
    )
    sessions.add_argument(
        "--cli", metavar="NAME", help="only this CLI's sessions (claude, codex...)"
    )
    sessions.add_argument(
        "--project", metavar="TEXT", help="only sessions whose working directory holds TEXT"
    )
    sessions.add_argument(
        "--since", metavar="DATE", help="only sessions active since DATE (2026-01-31, UTC)"
    )
    sessions.add_argument(
        "--search", metavar="TEXT", help="only sessions whose messages hold TEXT (case ignored)"
    )
    sessions.add_argument(
        "--live",
        action="store_true",
        help="only sessions being written now (their file changed in the last two minutes; "
        "follow one with `linewise render ID --follow`)",
    )
    sessions.add_argument("--limit", type=positive_int, metavar="N", help="at most N sessions")
    sessions.add_argument("--json", action="store_true", help="print JSON instead of a table")
    sessions.add_argument(
        "--censor-usernames",
        action="store_true",
        help="mask user names in home-directory paths (/Users/dotta -> /Users/d****)",
    )
    sessions.add_argument(
        "--no-cache", action="store_true", help="read every session again, without the cache"
    )
    sessions.set_defaults(handler=run)


def _shown(args: argparse.Namespace) -> Callable[[str], str]:
    """What every printed text goes through: secrets masked, user names censored on demand
    (:func:`_unchanged` itself when neither changes anything)."""
    from linewise.render.redaction.redactor import Redactor

    redactor = Redactor.for_environment(os.environ)
    if not args.censor_usernames:
        return redactor.text if redactor.active else _unchanged
    mask = redactor.text
    from linewise.transcript.privacy import censor_text

    return lambda text: censor_text(mask(text))


def _unchanged(text: str) -> str:
    """No secret to mask, no user name to censor: every text as it is."""
    return text


def _check_cli(name: str, registry: Registry) -> None:
    """A ``--cli`` that names no CLI linewise knows is a usage error, with "did you mean".

    Known: the CLIs of the installed plugins' session stores, and those of the
    first-party plugins (one not installed gets the listing's own message).
    """
    import difflib
    from pathlib import Path

    from linewise.plugins.suggest import FIRST_PARTY
    from linewise.sessions._stores import store_declarations, stores_of

    home = Path.home()
    installed = {
        found.store.cli.casefold()
        for declared in store_declarations(registry)
        for found in stores_of(declared, os.environ, home, registry)
    }
    known = sorted(installed | {adapter.split("_", 1)[0] for adapter in FIRST_PARTY})
    if name.casefold() in known:
        return
    close = difflib.get_close_matches(name.casefold(), known, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    fail(f"unknown CLI {name!r} for --cli; {hint}known: {', '.join(known)}", EXIT_USAGE)


def run(args: argparse.Namespace, registry: Registry) -> int:
    """List the sessions found."""
    from linewise.sessions import find_sessions

    if args.cli is not None:
        _check_cli(args.cli, registry)
    progress, done = terminal_progress()
    try:
        found = find_sessions(
            cli=args.cli,
            project=args.project,
            since=args.since,
            search=args.search,
            # Live ones are picked from all: the limit counts what is shown.
            limit=None if args.live else args.limit,
            registry=registry,
            use_cache=not args.no_cache,
            progress=progress,
        )
    except ValueError as error:
        fail(str(error), EXIT_USAGE)
    except KeyboardInterrupt:
        done()
        sys.stderr.write("linewise: interrupted; the sessions read so far are cached\n")
        return EXIT_INTERRUPTED
    finally:
        done()
    if args.live:
        from linewise.sessions.live import live_sessions

        found = live_sessions(found)[: args.limit]
    shown = _shown(args)
    for info in found:
        if info.problem:
            sys.stderr.write(
                f"linewise: warning: {neutralize(shown(info.path))}: {neutralize(info.problem)}\n"
            )
    if args.json:
        rows = [info.to_json() for info in found]
        if shown is not _unchanged:  # else every string would come back as it is
            rows = [_json(row, shown) for row in rows]
        sys.stdout.write(json.dumps({"sessions": rows}, ensure_ascii=False, allow_nan=False))
        sys.stdout.write("\n")
        return EXIT_OK
    if not found and args.live:
        sys.stderr.write(
            "linewise: no session is being written now (no session file changed "
            "in the last two minutes)\n"
        )
        return EXIT_OK
    if not found:
        _say_where(args, registry, shown)
        return EXIT_OK
    prefixes = unique_prefixes([info.id for info in found])
    table = [list(_COLUMNS), *(_row(info, shown, prefixes[info.id]) for info in found)]
    tables = sorted({info.price_data or "" for info in found if info.cost_source == "estimated"})
    legend = _LEGEND
    if tables:
        # One line, as ever: est says where the estimates came from.
        legend = _LEGEND.rstrip("\n") + (
            f"; est: the CLI recorded no cost, estimated from list prices ({', '.join(tables)})\n"
        )
    if any(info.times_from == "file" for info in found):
        legend = legend.rstrip("\n") + (
            "; ~ before a time: the file's modification time (its records carry no time)\n"
        )
    sys.stdout.write(_table(table) + legend)
    return EXIT_OK


def _say_where(args: argparse.Namespace, registry: Registry, shown: Callable[[str], str]) -> None:
    """No session found: say where linewise looked, or that no plugin declares a store."""
    from linewise.sessions import known_stores

    stores = known_stores(registry=registry)
    if args.cli:
        stores = [
            (kind, store) for kind, store in stores if store.cli.casefold() == args.cli.casefold()
        ]
    if not stores:
        which = f" for {args.cli}" if args.cli else ""
        sys.stderr.write(
            f"linewise: no sessions found: no installed parser declares a session store{which} "
            "(see `linewise list`)\n"
        )
        return
    sys.stderr.write("linewise: no sessions found; looked in:\n")
    for adapter_type, store in stores:
        patterns = ", ".join(store.patterns)
        where = neutralize(shown(str(store.root)))
        sys.stderr.write(f"linewise:   {where} ({neutralize(patterns)}; {adapter_type})\n")


def _json(value: Any, shown: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {key: _json(item, shown) for key, item in value.items()}
    return value


def _tokens(info: SessionInfo) -> str:
    total = info.token_usage.total
    if total is None and info.input_tokens is not None and info.output_tokens is not None:
        # A plugin before contract 1.3 gave only its wire-format counts: those, as before.
        total = info.input_tokens + info.output_tokens
    return "unknown" if total is None else f"{total:,}"


def _cost(info: SessionInfo) -> str:
    if info.cost_usd is None:
        return "unknown"
    return f"${info.cost_usd:.4f}" + (" est" if info.cost_source == "estimated" else "")


def _cut(text: str | None, width: int, *, keep_end: bool = False) -> str:
    if not text:
        return "-"
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    return "…" + flat[-(width - 1) :] if keep_end else flat[: width - 1] + "…"


def unique_prefixes(ids: list[str], least: int = ID_CHARS) -> dict[str, str]:
    """Each id's shortest prefix (at least ``least`` characters) that no other id starts with
    (the whole id when another id is that id plus more, or the same)."""
    ordered = sorted(set(ids))
    # Sorted, an id shares its longest prefix with a neighbour: only those are compared.
    shared = [0] * len(ordered)
    for index in range(1, len(ordered)):
        one, other = ordered[index - 1], ordered[index]
        if one[:least] == other[:least]:  # else they share fewer than ``least``: no matter
            common = _common(one, other)
            shared[index - 1] = max(shared[index - 1], common)
            shared[index] = common
    return {
        ident: ident[: max(least, common + 1)]
        for ident, common in zip(ordered, shared, strict=True)
    }


def _common(one: str, other: str) -> int:
    """How many leading characters two strings share."""
    count = 0
    for a, b in zip(one, other, strict=False):
        if a != b:
            break
        count += 1
    return count


def _row(info: SessionInfo, shown: Callable[[str], str], prefix: str) -> list[str]:
    when = info.newest[:16].replace("T", " ") if info.newest else "-"
    if info.times_from == "file" and info.newest:
        when = "~" + when
    return [
        when,
        info.cli,
        prefix,
        _cut(shown(info.project or ""), PROJECT_CHARS, keep_end=True),
        info.model or "-",
        str(info.messages),
        str(info.tool_calls),
        _tokens(info),
        _cost(info),
        info.outcome,
        _cut(shown(info.first_prompt or ""), PROMPT_CHARS),
    ]


def _table(rows: list[list[str]]) -> str:
    cells = rows
    joined = "\n".join("\t".join(row) for row in rows)
    if neutralize(joined) is not joined:  # some cell holds a control or invisible character
        cells = [[neutralize(cell) for cell in row] for row in rows]
    widths = [max(map(len, column)) for column in zip(*cells, strict=True)]
    # One format for every row: each cell padded as ljust / rjust would (by characters).
    line = "  ".join(
        f"{{:{'>' if name in _NUMERIC else '<'}{width}}}"
        for name, width in zip(_COLUMNS, widths, strict=True)
    )
    return "\n".join(line.format(*row).rstrip() for row in cells) + "\n"
