"""``linewise list``: every discovered parser with its contract and status."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from linewise_contracts._version import CONTRACT_VERSION

from linewise.cli.common import EXIT_OK
from linewise.plugins.parser_info import DEPRECATED_SHAPE
from linewise.plugins.registry import ParserInfo, ParserStatus, Registry
from linewise.settings.sanitising import neutralize
from linewise.settings.version import __version__

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``list`` subcommand."""
    listing = commands.add_parser("list", help="list the installed parser plugins and their status")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.add_argument(
        "--load", action="store_true", help="import every plugin to report load failures too"
    )
    listing.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    listing.set_defaults(handler=run)


def _contract_cell(info: ParserInfo) -> str:
    if info.builtin:
        return "built in"
    if info.contract_verdict == "undeclared":
        return "none (grace period)"
    return info.contract or "?"


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Print the table (or JSON) of parsers."""
    if args.load:
        for adapter_type in registry.adapter_types:
            registry.load(adapter_type)
    infos = registry.parsers()
    out = sys.stdout
    if args.json:
        payload = {
            "linewise": __version__,
            "contract": CONTRACT_VERSION,
            "parsers": [info.to_json() for info in infos],
            "skipped": registry.skipped_distributions,
        }
        out.write(json.dumps(payload, ensure_ascii=False) + "\n")
        return EXIT_OK
    from linewise.render import STATUS_ROLES, paint, use_color

    color = use_color(out, args.color)
    rows = [("ADAPTER TYPE", "STATUS", "KIND", "DISTRIBUTION", "CONTRACT", "LABEL / REASON")]
    for info in infos:
        dist = f"{info.distribution} {info.version}" if info.distribution else "-"
        note = info.label or ""
        if info.status not in (ParserStatus.AVAILABLE, ParserStatus.LOADED) or not note:
            note = info.reason or note
        kind = "built in" if info.builtin else info.kind
        rows.append((info.adapter_type, info.status.value, kind, dist, _contract_cell(info), note))
    columns = len(rows[0]) - 1
    widths = [max(len(neutralize(row[i])) for row in rows) for i in range(columns)]
    out.write(f"linewise {__version__} · contract {CONTRACT_VERSION}\n")
    for index, row in enumerate(rows):
        cells = [neutralize(cell) for cell in row]
        padded = [cells[i].ljust(widths[i]) for i in range(columns)]
        if index:
            padded[1] = paint(padded[1], STATUS_ROLES.get(row[1]), color)
        out.write("  ".join([*padded, cells[columns]]).rstrip() + "\n")
        shown = infos[index - 1] if index else None
        indent = " " * (sum(widths) + 2 * columns)
        if shown is not None and shown.source:
            out.write(indent + f"source: {neutralize(shown.source)}\n")
        if shown is not None and shown.hint and shown.status is not ParserStatus.AVAILABLE:
            out.write(indent + f"hint: {neutralize(shown.hint)}\n")
        if shown is not None and shown.shape == "exports":
            out.write(indent + f"deprecated: {DEPRECATED_SHAPE}\n")
        for problem in shown.problems if shown is not None else ():
            out.write(indent + f"problem: {neutralize(problem)}\n")
    for reason in registry.skipped_distributions:
        out.write(f"skipped (unreadable metadata): {neutralize(reason)}\n")
    return EXIT_OK
