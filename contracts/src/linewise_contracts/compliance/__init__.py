"""The compliance kit: does a parser plugin keep the contract? (``linewise check`` and pytest)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias

from linewise_contracts._version import CONTRACT_VERSION
from linewise_contracts.compliance._target import (
    Target,
    TargetError,
    canonical,
    installed_claims,
    resolve_target,
)
from linewise_contracts.protocols import adapter_type_problem, entry_point_value_problem

__all__ = [
    "DEFAULT_EXAMPLES",
    "CheckResult",
    "Report",
    "Status",
    "TargetError",
    "run_checks",
]

Status: TypeAlias = Literal["pass", "warn", "fail", "skip"]

#: Hostile inputs generated per adapter type unless asked otherwise.
DEFAULT_EXAMPLES: Final = 1000
_CODE_BUDGET: Final = 50_000  # bytes of parser source, the reference contract's limit

# What each check is about, in the order they run.
TITLES: Final = {
    "metadata.entry_points": "entry point group, names and values",
    "metadata.contract": "contract dependency declared and compatible",
    "metadata.duplicates": "no other distribution claims the adapter type",
    "import": "the module imports",
    "import.side_effects": "no side effects at import",
    "exports": "parse_stdout_line / create_stdout_parser with the right signatures",
    "parse.valid": "every entry valid on the sample lines",
    "parse.deterministic": "same input, same output",
    "parse.reset": "reset() really resets",
    "parse.side_effects": "no side effects while parsing",
    "parse.never_throws": "never throws, even on hostile input",
    "cost": "time and memory per line",
    "size.code": "the parser's own code is small",
    "size.dependencies": "runtime dependencies are declared",
}


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check's outcome for one adapter type (or for the whole distribution)."""

    check: str
    status: Status
    message: str
    adapter_type: str | None = None
    details: tuple[str, ...] = ()
    figures: dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """What the check is about."""
        return TITLES.get(self.check, self.check)

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {
            "check": self.check,
            "title": self.title,
            "adapterType": self.adapter_type,
            "status": self.status,
            "message": self.message,
            "details": list(self.details),
            "figures": self.figures,
        }


@dataclass(frozen=True, slots=True)
class Report:
    """Every check's result for one target."""

    target: str
    distribution: str | None
    version: str | None
    adapter_types: tuple[str, ...]
    results: tuple[CheckResult, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        """True when no check failed (warnings allowed)."""
        return not any(result.status == "fail" for result in self.results)

    def counts(self) -> dict[str, int]:
        """How many checks passed, warned, failed and were skipped."""
        counts = {"pass": 0, "warn": 0, "fail": 0, "skip": 0}
        for result in self.results:
            counts[result.status] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {
            "target": self.target,
            "distribution": self.distribution,
            "version": self.version,
            "contract": CONTRACT_VERSION,
            "adapterTypes": list(self.adapter_types),
            "ok": self.ok,
            "counts": self.counts(),
            "seconds": round(self.seconds, 2),
            "results": [result.to_json() for result in self.results],
        }


def _metadata_checks(target: Target) -> list[CheckResult]:
    from linewise_contracts.versioning import check_contract

    results: list[CheckResult] = []
    problems = [
        f"{name}: {problem}"
        for name, value in target.entry_points
        for problem in (adapter_type_problem(name), entry_point_value_problem(value))
        if problem
    ]
    if not target.entry_points:
        results.append(
            CheckResult(
                "metadata.entry_points",
                "fail",
                'no entry point in the group "linewise.parsers"',
                details=('add [project.entry-points."linewise.parsers"] my_agent = "my_module"',),
            )
        )
    elif problems:
        results.append(
            CheckResult("metadata.entry_points", "fail", problems[0], details=tuple(problems))
        )
    else:
        shown = ", ".join(f"{name} = {value}" for name, value in target.entry_points)
        results.append(CheckResult("metadata.entry_points", "pass", shown))
    decision = check_contract(target.requires, CONTRACT_VERSION)
    if decision.verdict == "compatible":
        results.append(
            CheckResult(
                "metadata.contract",
                "pass",
                f"linewise-contracts{decision.declared} admits contract {CONTRACT_VERSION}",
            )
        )
    elif decision.verdict == "undeclared":
        results.append(
            CheckResult(
                "metadata.contract",
                "warn",
                "no linewise-contracts requirement: loads only during the grace period",
                details=('declare dependencies = ["linewise-contracts>=1.0,<2"]',),
            )
        )
    else:
        results.append(CheckResult("metadata.contract", "fail", decision.reason))
    claims = installed_claims(target.adapter_types)
    own = canonical(target.distribution or "")
    for adapter_type in target.adapter_types:
        others = sorted({name for name in claims.get(adapter_type, []) if canonical(name) != own})
        if others:
            results.append(
                CheckResult(
                    "metadata.duplicates",
                    "fail",
                    f"{adapter_type} is also claimed by {', '.join(others)}",
                    adapter_type,
                    ("the host would use only one of them; pick another adapter type",),
                )
            )
        else:
            results.append(
                CheckResult(
                    "metadata.duplicates", "pass", f"{adapter_type} is claimed once", adapter_type
                )
            )
    return results


def _worker(
    target: Target, examples: int, timeout: float, line_timeout: float
) -> tuple[list[CheckResult], dict[str, Any]]:
    """Run the behavioural checks in a fresh interpreter and read back its results."""
    results: list[CheckResult] = []
    extra: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="linewise-check-") as folder:
        config_path = Path(folder) / "config.json"
        results_path = Path(folder) / "results.jsonl"
        results_path.touch()
        config = {
            "paths": list(target.paths),
            "entry_points": [[n, v] for n, v in target.entry_points if n in target.adapter_types],
            "examples": examples,
            "line_timeout": line_timeout,
            "memory_limit_mb": 1024,
            "budget_line_seconds": 0.0005,
            "budget_large_seconds": 2.0,
        }
        config_path.write_text(json.dumps(config), encoding="utf-8")
        command = [
            sys.executable,
            "-X",
            "faulthandler",
            "-m",
            "linewise_contracts.compliance._worker",
            str(config_path),
            str(results_path),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=timeout, env=env, check=False
            )
            ending = (
                None
                if done.returncode == 0
                else f"the worker process died ({_exit(done.returncode)})"
            )
            stderr = done.stderr
        except subprocess.TimeoutExpired as expired:
            ending = (
                f"the worker process was killed after {timeout:g} s "
                "(a hang the per-line limit could not interrupt, e.g. in C code)"
            )
            stderr = (
                expired.stderr.decode(errors="replace")
                if isinstance(expired.stderr, bytes)
                else (expired.stderr or "")
            )
        running: dict[str, Any] | None = None
        for line in results_path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "running" in record:
                running = record
            elif "check" in record:
                running = None
                results.append(
                    CheckResult(
                        record["check"],
                        record["status"],
                        record["message"],
                        record["adapterType"],
                        tuple(record["details"]),
                        record["figures"],
                    )
                )
        if ending is not None and running is not None:
            tail = [line for line in stderr.strip().splitlines()[-8:] if line.strip()]
            results.append(
                CheckResult(
                    running["running"],
                    "fail",
                    f"{ending} while running this check",
                    running["adapterType"],
                    tuple(tail),
                )
            )
        elif ending is not None:
            results.append(
                CheckResult("import", "fail", ending, None, tuple(stderr.strip().splitlines()[-8:]))
            )
    return results, extra


def _exit(code: int) -> str:
    if code < 0:
        import signal

        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return f"killed by {name}"
    return f"exit code {code}"


def run_checks(
    target: str,
    *,
    examples: int = DEFAULT_EXAMPLES,
    timeout: float = 600.0,
    line_timeout: float = 5.0,
) -> Report:
    """Check a plugin against the contract.

    ``target`` is an installed adapter type, an installed distribution, or the
    path of a plugin project (checked from its source, without installing it).
    Plugin code only runs in a separate, throw-away Python process, watched by
    audit hooks; a hang or crash there fails the check that was running.
    Raises :class:`TargetError` when the target names nothing checkable.
    """
    started = time.perf_counter()
    resolved = resolve_target(target)
    results = _metadata_checks(resolved)
    if resolved.entry_points:
        worker_results, _ = _worker(resolved, examples, timeout, line_timeout)
        results.extend(worker_results)
    results.extend(_package_checks(resolved))
    # Distribution-wide checks first, then each adapter type's, in the order they ran.
    results.sort(key=lambda result: result.adapter_type is not None)
    return Report(
        target=target,
        distribution=resolved.distribution,
        version=resolved.version,
        adapter_types=resolved.adapter_types,
        results=tuple(results),
        seconds=time.perf_counter() - started,
    )


def _code_roots(target: Target) -> dict[str, list[Path]]:
    """Each top-level module of the entry points, and its source files, found without importing."""
    from importlib.machinery import PathFinder

    found: dict[str, list[Path]] = {}
    search = [*target.paths, *sys.path]
    for _, value in target.entry_points:
        top = value.split(":", 1)[0].strip().split(".", 1)[0]
        if top in found:
            continue
        spec = PathFinder.find_spec(top, search)
        if spec is None:
            continue
        if spec.submodule_search_locations:
            files = [
                path
                for location in spec.submodule_search_locations
                for path in sorted(Path(location).rglob("*.py"))
            ]
        elif spec.origin and spec.origin.endswith(".py"):
            files = [Path(spec.origin)]
        else:
            files = []
        found[top] = files
    return found


def _imported_names(files: list[Path]) -> set[str]:
    import ast

    names: set[str] = set()
    for path in files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".", 1)[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".", 1)[0])
    return names


def _package_checks(target: Target) -> list[CheckResult]:
    """Size of the parser's own code, and imports of undeclared distributions (read, not run)."""
    from importlib import metadata

    roots = _code_roots(target)
    files = [path for paths in roots.values() for path in paths]
    if not files:
        return [CheckResult("size.code", "skip", "the plugin's source files were not found")]
    size = sum(path.stat().st_size for path in files)
    message = f"{size:,} bytes of Python in {len(files)} file(s)"
    results = [
        CheckResult("size.code", "pass", message, figures={"bytes": size, "files": len(files)})
        if size <= _CODE_BUDGET
        else CheckResult(
            "size.code",
            "warn",
            f"{message}: over the contract's {_CODE_BUDGET:,}-byte budget for a parser",
            figures={"bytes": size, "files": len(files)},
        )
    ]
    declared = {canonical(_requirement_name(text)) for text in target.requires or ()}
    providers = metadata.packages_distributions()
    own = set(roots)
    problems = []
    for name in sorted(_imported_names(files) - own - set(sys.stdlib_module_names)):
        distributions = providers.get(name) or _named_distribution(name)
        if not distributions:
            problems.append(f"imports {name!r}, which no installed distribution provides")
        elif not any(canonical(dist) in declared for dist in distributions):
            problems.append(
                f"imports {name!r} from {', '.join(sorted(set(distributions)))}, "
                "which is not in its dependencies"
            )
    if problems:
        results.append(
            CheckResult("size.dependencies", "fail", problems[0], details=tuple(problems))
        )
    else:
        results.append(
            CheckResult("size.dependencies", "pass", "every imported distribution is declared")
        )
    return results


def _named_distribution(module: str) -> list[str]:
    """The distribution named like ``module`` (editable installs record no top-level names)."""
    from importlib import metadata

    try:
        return [metadata.distribution(canonical(module)).metadata["Name"]]
    except metadata.PackageNotFoundError:
        return []


def _requirement_name(requirement: str) -> str:
    import re

    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return match.group(1) if match else requirement
