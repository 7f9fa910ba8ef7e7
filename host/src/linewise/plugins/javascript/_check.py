"""``linewise check PATH`` for a JavaScript ui-parser package (a folder or a .tgz).

The same report as for a Python plugin: the package.json gate, each
``*ui-parser`` export's path and size, the module's style and imports, that
it starts, and its parser over awkward and generated lines (entries valid,
nothing thrown, nothing past the time limit, same entries from a fresh
instance). The module runs only inside the engine.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any, Final

from linewise_contracts.compliance import CheckResult, Report
from linewise_contracts.validation import entry_problem

from linewise.plugins.gate import check_contract
from linewise.plugins.javascript._engine import (
    EngineLimits,
    JavaScriptError,
    JavaScriptParser,
    engine_missing,
    start_context,
)
from linewise.plugins.javascript._module import ModuleError, ParserModule, read_module
from linewise.plugins.javascript._package import (
    DEFAULT_EXPORT,
    PackageError,
    UiParserPackage,
    contract_requirement,
    export_names,
    open_package,
)

__all__ = ["check_package", "is_package_path"]

_TS: Final = "2026-01-01T00:00:00.000Z"
_AWKWARD: Final = (
    "hello",
    "{}",
    "[]",
    "null",
    '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}',
    '{"type": 1, "message": null}',
    '{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}',
    "\x1b[31mred\x1b[0m text",
    "┊ 💬 thinking about it",
    "[done] ┊ $ ls — ok  0.3s",
    "{" * 200,
    "x" * 100_000,
    "\u202e\u0000\ufffd\U0001f600 mixed",
    "undefined",
    "__proto__",
    '{"__proto__": {"polluted": true}}',
)
_PIECES: Final = (
    '{"type":"',
    '"}',
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    '"text"',
    "tool_use",
    "result",
    "\x1b[0m",
    "┊",
    "💬",
    "$ ",
    "\\",
    '\\"',
    "0.3s",
    "null",
    "true",
    "-1e309",
    " ",
    "é",
    "\u2028",
)


def is_package_path(target: str) -> bool:
    """True when ``target`` is a folder with a package.json, or a ``.tgz`` file."""
    path = Path(target).expanduser()
    if path.is_dir():
        return (path / "package.json").is_file() and not (path / "pyproject.toml").exists()
    return path.is_file() and path.name.endswith((".tgz", ".tar.gz"))


def _lines(examples: int) -> Iterator[str]:
    yield from _AWKWARD
    chooser = random.Random(0)
    for _ in range(examples):
        yield "".join(chooser.choice(_PIECES) for _ in range(chooser.randint(1, 24)))


def _gate(package: UiParserPackage, host_contract: str) -> CheckResult:
    decision = check_contract(contract_requirement(package.contract), host_contract)
    if package.contract is None:
        return CheckResult(
            "package.json", "warn", "declares no paperclip.adapterUiParser (grace period)"
        )
    if not decision.loads:
        return CheckResult(
            "package.json",
            "fail",
            f"declares ui-parser contract {package.contract}; this host supports 1.x",
        )
    return CheckResult("package.json", "pass", f"ui-parser contract {package.contract}")


def _static(package: UiParserPackage, who: str) -> tuple[list[CheckResult], ParserModule | None]:
    size = len(package.module_source.encode("utf-8"))
    results = [
        CheckResult("export", "pass", f"{package.export} -> {package.module_path}", who),
        CheckResult(
            "size",
            "warn" if package.warnings else "pass",
            package.warnings[0] if package.warnings else f"{size / 1024:.1f} KB",
            who,
        ),
    ]
    try:
        module = read_module(package.module_source, package.module_path)
    except ModuleError as error:
        results.append(CheckResult("module", "fail", str(error), who))
        return results, None
    results.append(CheckResult("module", "pass", f"{module.style}, zero imports", who))
    return results, module


def _run(module: ParserModule, lines: list[str], limits: EngineLimits) -> list[Any]:
    parser = JavaScriptParser(module, limits)
    out: list[Any] = []
    for line in lines:
        try:
            result = parser.parse_line(line, _TS)
        except JavaScriptError as error:
            out.append(("error", str(error)))
            with suppress(JavaScriptError):  # the next line shows whether it recovered
                parser.reset()
            continue
        out.append(result)
    return out


def _line_checks(
    module: ParserModule, examples: int, who: str, timeout: float
) -> list[CheckResult]:
    limits = EngineLimits(time_limit=timeout, heap_mib=EngineLimits().heap_mib)
    lines = list(_lines(examples))
    first = _run(module, lines, limits)
    problems: list[str] = []
    for line, result in zip(lines, first, strict=True):
        shown = json.dumps(line[:60])
        if isinstance(result, tuple):
            problems.append(f"{shown}: {result[1]}")
        elif type(result) is not list:
            problems.append(f"{shown}: returned {type(result).__name__}, not a list")
        else:
            for entry in result:
                problem = entry_problem(entry)
                if problem is not None:
                    problems.append(f"{shown}: {problem}")
                    break
    results = [
        CheckResult(
            "lines",
            "fail" if problems else "pass",
            f"{len(problems)} of {len(lines)} lines failed"
            if problems
            else f"{len(lines)} awkward and generated lines, every entry valid",
            who,
            tuple(problems[:10]),
        )
    ]
    second = _run(module, lines, limits)
    differing = [
        json.dumps(line[:60]) for line, a, b in zip(lines, first, second, strict=True) if a != b
    ]
    results.append(
        CheckResult(
            "deterministic",
            "fail" if differing else "pass",
            f"a fresh parser gave other entries for {len(differing)} lines"
            if differing
            else "a fresh parser gives the same entries",
            who,
            tuple(differing[:10]),
        )
    )
    return results


def _check_export(
    target: str, export: str, examples: int, line_timeout: float, host_contract: str
) -> tuple[list[CheckResult], UiParserPackage | None]:
    who = export
    try:
        package = open_package(target, export)
    except PackageError as error:
        return [CheckResult("export", "fail", str(error), who)], None
    results, module = _static(package, who)
    if module is None:
        return results, package
    missing = engine_missing()
    if missing is not None:
        results.append(CheckResult("load", "skip", missing, who))
        return results, package
    try:
        _, used = start_context(module, EngineLimits(time_limit=line_timeout))
    except JavaScriptError as error:
        results.append(CheckResult("load", "fail", str(error), who))
        return results, package
    results.append(CheckResult("load", "pass", f"starts; {used} makes the parser", who))
    results.extend(_line_checks(module, examples, who, line_timeout))
    return results, package


def check_package(
    target: str,
    *,
    examples: int,
    line_timeout: float,
    host_contract: str,
    exports: list[str] | None = None,
) -> Report:
    """The report for the JavaScript package at ``target`` (``exports``, or every ui-parser)."""
    started = time.perf_counter()
    try:
        exports = exports or export_names(target) or [DEFAULT_EXPORT]
    except PackageError as error:
        failed = (CheckResult("package.json", "fail", str(error)),)
        return Report(target, None, None, (), failed, time.perf_counter() - started)
    results: list[CheckResult] = []
    package: UiParserPackage | None = None
    for export in exports:
        found, opened = _check_export(target, export, examples, line_timeout, host_contract)
        results.extend(found)
        package = package or opened
    if package is not None:
        results.insert(0, _gate(package, host_contract))
    return Report(
        target=target,
        distribution=package.name if package else None,
        version=package.version if package else None,
        adapter_types=tuple(exports),
        results=tuple(results),
        seconds=time.perf_counter() - started,
    )
