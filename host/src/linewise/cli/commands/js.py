"""``linewise js``: register, list and remove JavaScript ui-parser packages."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from linewise.cli.common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, fail
from linewise.plugins.registry import Registry
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from linewise.plugins.javascript._package import UiParserPackage

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``js`` subcommand and its ``add``, ``list`` and ``remove``."""
    js = commands.add_parser("js", help="register JavaScript ui-parser packages (npm adapters)")
    actions = js.add_subparsers(dest="js_command", required=True, metavar="ACTION")
    add = actions.add_parser(
        "add", help="register a package's ui-parser (a folder, a .tgz or an npm spec)"
    )
    add.add_argument("source", metavar="SOURCE", help="package folder, npm pack .tgz, or npm spec")
    add.add_argument(
        "--as",
        dest="adapter_type",
        metavar="TYPE",
        help="adapter type to serve (default: the main module's `export const type`)",
    )
    add.add_argument(
        "--export",
        default="./ui-parser",
        metavar="./PATH",
        help='the package.json export to load (default "./ui-parser")',
    )
    add.set_defaults(handler=run_add)
    listing = actions.add_parser("list", help="list the registered JavaScript parsers")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.set_defaults(handler=run_list)
    remove = actions.add_parser("remove", help="remove a registered JavaScript parser")
    remove.add_argument("adapter_type", metavar="TYPE")
    remove.set_defaults(handler=run_remove)


def _warn(message: str) -> None:
    sys.stderr.write(f"linewise: warning: {neutralize(message)}\n")


def _adapter_type(args: argparse.Namespace, package: UiParserPackage) -> str:
    from linewise_contracts.protocols import adapter_type_problem

    from linewise.plugins.generic import GENERIC_ADAPTER_TYPE

    chosen = args.adapter_type or package.declared_type
    if not chosen:
        fail(
            f"{package.name} declares no `export const type` in its main module: "
            "name the adapter type with --as TYPE",
            EXIT_USAGE,
        )
    problem = adapter_type_problem(chosen)
    if problem is None and chosen == GENERIC_ADAPTER_TYPE:
        problem = f"{GENERIC_ADAPTER_TYPE!r} is the built-in parser's adapter type"
    if problem is not None:
        fail(f"{problem}: choose another with --as TYPE", EXIT_USAGE)
    return str(chosen)


def _check_module(package: UiParserPackage, registry: Registry) -> str:
    """The module style and the export that makes parsers; fails when it cannot run."""
    from linewise.plugins.javascript._engine import (
        EngineLimits,
        JavaScriptError,
        engine_missing,
        start_context,
    )
    from linewise.plugins.javascript._module import ModuleError, read_module

    try:
        module = read_module(package.module_source, package.module_path)
    except ModuleError as error:
        fail(f"{package.module_path} cannot be registered: {error}", EXIT_FAILURE)
    missing = engine_missing()
    if missing is not None:
        _warn(f"{missing}; registered without trying the module")
        return module.style
    try:
        _, used = start_context(module, EngineLimits.from_settings(registry.settings))
    except JavaScriptError as error:
        fail(f"{package.module_path} cannot be registered: {error}", EXIT_FAILURE)
    return f"{module.style}, {used}"


def _contract_warning(package: UiParserPackage, registry: Registry) -> None:
    from linewise.plugins.gate import check_contract
    from linewise.plugins.javascript._package import contract_requirement

    if package.contract is None:
        _warn(
            f"{package.name} declares no paperclip.adapterUiParser: "
            "it loads during the grace period"
        )
        return
    decision = check_contract(contract_requirement(package.contract), registry.host_contract)
    if not decision.loads:
        _warn(
            f"{package.name} declares ui-parser contract {package.contract}, and this host "
            f"supports 1.x: it is registered but will not load (the generic parser serves)"
        )


def run_add(args: argparse.Namespace, registry: Registry) -> int:
    """Read, check, copy and record one package's ui-parser."""
    from linewise.plugins.javascript._package import PackageError, open_package
    from linewise.plugins.javascript._store import save_registration

    try:
        package = open_package(args.source, args.export)
    except (PackageError, OSError) as error:
        fail(f"cannot register {args.source}: {error}", EXIT_FAILURE)
    adapter_type = _adapter_type(args, package)
    shape = _check_module(package, registry)
    for warning in package.warnings:
        _warn(warning)
    _contract_warning(package, registry)
    claimed = [
        info.distribution
        for info in registry.parsers()
        if info.adapter_type == adapter_type and info.kind == "python"
    ]
    if claimed:
        _warn(f"{adapter_type} is also claimed by {claimed[0]}: the JavaScript parser wins")
    from linewise.plugins.javascript._store import javascript_dir

    if (javascript_dir() / adapter_type).exists():
        _warn(f"replacing the earlier registration of {adapter_type}")
    registration = save_registration(adapter_type, package, args.source)
    registry.reload(adapter_type)  # the next look-up sees the registration
    size = len(package.module_source.encode("utf-8"))
    sys.stdout.write(
        f"registered {adapter_type}: {neutralize(package.name)} "
        f"{neutralize(package.version or '')} {package.export} -> {package.module_path} "
        f"({shape}, {size / 1024:.1f} KB) in {registration.folder}\n"
    )
    return EXIT_OK


def run_list(args: argparse.Namespace, registry: Registry) -> int:
    """Print the registrations, each with whether its copies still match their hashes."""
    from linewise.plugins.javascript._store import StoreError, registrations, verified_module

    found, skipped = registrations()
    rows: list[dict[str, Any]] = []
    for registration in found:
        try:
            verified_module(registration)
            state = "ok"
        except StoreError as error:
            state = str(error)
        rows.append({**registration.to_json(), "folder": str(registration.folder), "state": state})
    if args.json:
        sys.stdout.write(json.dumps({"parsers": rows, "skipped": skipped}) + "\n")
        return EXIT_OK
    if not rows:
        sys.stdout.write("no JavaScript parsers registered (linewise js add SOURCE --as TYPE)\n")
    for row in rows:
        sys.stdout.write(
            neutralize(
                f"{row['adapterType']}  {row['package']} {row['version'] or ''}  "
                f"{row['export']} -> {row['module']}  "
                f"contract {row['contract'] or 'none (grace period)'}  {row['state']}"
            )
            + "\n"
        )
        sys.stdout.write(neutralize(f"    from {row['source']}, added {row['added']}") + "\n")
    for reason in skipped:
        sys.stdout.write(f"skipped: {neutralize(reason)}\n")
    return EXIT_OK


def run_remove(args: argparse.Namespace, registry: Registry) -> int:
    """Delete one registration and its copies."""
    from linewise.plugins.javascript._store import StoreError, remove_registration

    try:
        registration = remove_registration(args.adapter_type)
    except StoreError as error:
        fail(str(error), EXIT_FAILURE)
    registry.reload(registration.adapter_type)
    sys.stdout.write(f"removed {registration.adapter_type} ({neutralize(registration.package)})\n")
    return EXIT_OK
