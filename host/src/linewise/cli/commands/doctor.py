"""``linewise doctor``: can each installed agent CLI run here? Its plugin's environment checks."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from linewise.cli.common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, fail
from linewise.plugins.parser_info import DEPRECATED_SHAPE
from linewise.plugins.registry import Registry
from linewise.render import STATUS_ROLES, paint
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from linewise.plugins.doctor import EnvironmentReport
    from linewise.plugins.hot_path import HotPathStatus

__all__ = ["register"]

_DEFAULT_TIMEOUT = 30.0  # linewise.plugins.doctor.DEFAULT_CHECK_TIMEOUT
_ORDER = ("pass", "warn", "fail", "not_installed", "unchecked")


def register(commands: Any) -> None:
    """Add the ``doctor`` subcommand."""
    doctor = commands.add_parser(
        "doctor",
        help="run the plugins' environment checks (pass / warn / fail per adapter type)",
        description="Run each installed plugin's environment checks. An agent CLI that is "
        "not on this machine shows as NOT INSTALLED, which is not a failure. Exit status 1 "
        "when an adapter type fails (its CLI is installed but cannot run here, or its plugin "
        "is broken), or when an adapter type named on the command line is not installed; "
        "else 0.",
    )
    doctor.add_argument(
        "adapter_types",
        nargs="*",
        metavar="TYPE",
        help="adapter types to check (default: every installed plugin)",
    )
    doctor.add_argument("--json", action="store_true", help="print JSON instead of text")
    doctor.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    doctor.add_argument(
        "--timeout",
        type=float,
        default=_DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"fail a plugin whose checks take longer (default {_DEFAULT_TIMEOUT:g})",
    )
    doctor.set_defaults(handler=run)


def _masker() -> Any:
    # Checks describe this machine's environment: never print a secret value they quote.
    from linewise.run.agent import Redactor

    return Redactor.for_environment(os.environ).text


def _text(reports: list[EnvironmentReport], color: bool) -> str:
    mask = _masker()

    def clean(text: str) -> str:
        return neutralize(mask(text))

    def painted(text: str, key: object) -> str:
        # A plugin's level may be anything: only the known ones are coloured.
        role = STATUS_ROLES.get(key.replace("_", " ")) if isinstance(key, str) else None
        return paint(text, role, color)

    lines: list[str] = []
    width = max((len(report.adapter_type) for report in reports), default=0)
    for report in reports:
        who = f"{report.distribution} {report.version}" if report.distribution else "built in"
        status = report.status or "unchecked"
        shown = status.replace("_", " ").upper()
        head = f"{clean(report.adapter_type).ljust(width)}  {painted(shown, status)}"
        head += f"  {clean(who)}" + (f" · {clean(report.label)}" if report.label else "")
        lines.append(head)
        if report.note:
            lines.append(f"  {clean(report.note)}")
        code_width = max((len(check.code) for check in report.checks), default=0)
        for check in report.checks:
            level = painted(check.level.ljust(5), check.level)
            lines.append(
                f"  {level}  {clean(check.code.ljust(code_width))}  {clean(check.message)}"
            )
            pad = " " * (code_width + 11)
            if check.detail:
                lines.append(pad + clean(check.detail).replace("\n", "\n" + pad))
            if check.hint:
                lines.append(f"{pad}hint: {clean(check.hint)}")
    counts: dict[str, int] = {}
    for report in reports:
        key = report.status or "unchecked"
        counts[key] = counts.get(key, 0) + 1
    tally = ", ".join(f"{counts[key]} {key.replace('_', ' ')}" for key in _ORDER if key in counts)
    noun = "adapter type" if len(reports) == 1 else "adapter types"
    old_shape = sorted({r.distribution or r.adapter_type for r in reports if r.deprecated})
    if old_shape:
        lines.append(f"{', '.join(clean(n) for n in old_shape)}: {clean(DEPRECATED_SHAPE)}")
    lines.append(f"{len(reports)} {noun}: {tally or 'nothing installed'}")
    return "\n".join(lines) + "\n"


def _hot_text(statuses: list[HotPathStatus]) -> str:
    from linewise.plugins.hot_path import status_lines

    lines = ["hot path (compiled with mypyc where the wheels were built with a C compiler):"]
    lines += [f"  {neutralize(line)}" for line in status_lines(statuses)]
    return "\n".join(lines) + "\n"


def _json(reports: list[EnvironmentReport], hot: list[HotPathStatus] | None) -> str:
    mask = _masker()

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            return mask(value)
        if isinstance(value, list):
            return [scrub(item) for item in value]
        if isinstance(value, dict):
            return {key: scrub(item) for key, item in value.items()}
        return value

    statuses = [report.status for report in reports]
    overall = "fail" if "fail" in statuses else "warn" if "warn" in statuses else "pass"
    # Not installed is not a failure: the overall status is that of what is installed.
    payload: dict[str, Any] = {
        "status": overall,
        "adapters": [scrub(report.to_json()) for report in reports],
    }
    if hot is not None:
        payload["hotPath"] = [scrub(status.to_json()) for status in hot]
    return json.dumps(payload, ensure_ascii=False) + "\n"


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Check every named (or installed) adapter type; exit 1 if one fails.

    An adapter type whose CLI is not installed does not fail, unless it was named.
    """
    from linewise.plugins.doctor import check_environments
    from linewise.plugins.hot_path import hot_path_statuses
    from linewise.render import use_color

    known = registry.adapter_types
    for name in args.adapter_types:
        if name not in known:
            from linewise.plugins.suggest import unknown_adapter  # a mistyped name only

            fail(str(unknown_adapter(name, known)), EXIT_USAGE)
    timeout = args.timeout if args.timeout > 0 else None
    names = list(dict.fromkeys(args.adapter_types)) or None
    reports = check_environments(names, registry=registry, timeout=timeout)
    # The whole check (no adapter type named) also says whether the hot path is compiled.
    hot = None if args.adapter_types else hot_path_statuses()
    if args.json:
        sys.stdout.write(_json(reports, hot))
    else:
        text = _text(reports, use_color(sys.stdout, args.color))
        sys.stdout.write((_hot_text(hot) if hot is not None else "") + text)
    failing = {"fail", "not_installed"} if args.adapter_types else {"fail"}
    return EXIT_FAILURE if any(report.status in failing for report in reports) else EXIT_OK
