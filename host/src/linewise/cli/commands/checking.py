"""``linewise check``: the compliance kit on a plugin, saying where it breaks the contract."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from linewise.cli.common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, fail
from linewise.plugins.registry import Registry
from linewise.render import STATUS_ROLES, paint
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from linewise_contracts.compliance import Report

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``check`` subcommand."""
    check = commands.add_parser(
        "check", help="check a parser plugin against the contract (adapter type, dist or path)"
    )
    check.add_argument(
        "target",
        metavar="TARGET",
        help="an adapter type (a registered JavaScript one too), an installed distribution, "
        "a project path, or a JavaScript ui-parser package (folder or .tgz)",
    )
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument(
        "--examples",
        type=int,
        default=None,
        metavar="N",
        help="hostile inputs generated per adapter type (default 1000; 0 turns fuzzing off)",
    )
    check.add_argument(
        "--timeout", type=float, default=600.0, metavar="SECONDS", help="limit for the whole run"
    )
    check.add_argument(
        "--line-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="a line that takes longer is reported as a hang (default 5)",
    )
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    check.set_defaults(handler=run)


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Check one target."""
    from linewise_contracts.compliance import DEFAULT_EXAMPLES, TargetError, run_checks

    examples = DEFAULT_EXAMPLES if args.examples is None else max(args.examples, 0)
    try:
        report = _javascript_report(args, examples, registry) or run_checks(
            args.target, examples=examples, timeout=args.timeout, line_timeout=args.line_timeout
        )
    except TargetError as error:
        fail(str(error), EXIT_USAGE)
    if args.json:
        sys.stdout.write(json.dumps(report.to_json(), ensure_ascii=False, default=repr) + "\n")
    else:
        from linewise.render import use_color

        _print(report, use_color(sys.stdout, args.color))
    return EXIT_OK if report.ok else EXIT_FAILURE


def _javascript_report(
    args: argparse.Namespace, examples: int, registry: Registry
) -> Report | None:
    """The report for a JavaScript package path or registered adapter type, else None."""
    from linewise.plugins.javascript._check import is_package_path

    target, exports = args.target, None
    if not is_package_path(target):
        from linewise_contracts.protocols import adapter_type_problem

        from linewise.plugins.javascript._store import StoreError, javascript_dir, read_registration

        # Only a bare adapter type can name a registration (a path joined to the
        # data folder would be the path itself).
        if adapter_type_problem(target) is not None or not (javascript_dir() / target).is_dir():
            return None
        try:
            registration = read_registration(target)
        except StoreError as error:
            fail(str(error), EXIT_USAGE)
        # The copies that run, checked for the one export registered.
        target, exports = str(registration.folder / "package"), [registration.export]
    from linewise.plugins.javascript._check import check_package

    return check_package(
        target,
        examples=examples,
        line_timeout=args.line_timeout,
        host_contract=registry.host_contract,
        exports=exports,
    )


def _print(report: Report, color: bool) -> None:
    out = sys.stdout
    who = f"{report.distribution} {report.version}" if report.distribution else report.target
    from linewise_contracts import CONTRACT_VERSION

    out.write(
        f"linewise check {neutralize(report.target)}: {neutralize(who)}, "
        f"host contract {CONTRACT_VERSION}\n"
    )
    width = max(len(result.check) for result in report.results) if report.results else 10
    current: str | None = "\0"
    for result in report.results:
        if result.adapter_type != current:
            current = result.adapter_type
            out.write(f"\n{current or 'distribution'}\n")
        status = paint(result.status.upper().ljust(4), STATUS_ROLES.get(result.status), color)
        out.write(f"  {status}  {result.check.ljust(width)}  {neutralize(result.message)}\n")
        for detail in result.details[:10]:
            out.write(f"  {'':4}  {'':{width}}    {neutralize(detail)}\n")
    counts = report.counts()
    out.write(
        f"\n{counts['pass']} passed, {counts['warn']} warnings, {counts['fail']} failed, "
        f"{counts['skip']} skipped in {report.seconds:.1f} s\n"
    )
