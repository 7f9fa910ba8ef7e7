"""The compliance kit: does a parser plugin keep the contract? (``linewise check`` and pytest)."""

from __future__ import annotations

import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from linewise_contracts._version import CONTRACT_VERSION
from linewise_contracts.compliance._installed import packages_distributions
from linewise_contracts.compliance._results import TITLES, CheckResult, Status
from linewise_contracts.compliance._sources import imported_names
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
    "TITLES",
    "CheckResult",
    "Report",
    "Status",
    "TargetError",
    "run_checks",
]

#: Hostile inputs generated per adapter type unless asked otherwise.
DEFAULT_EXAMPLES: Final = 1000
_CODE_BUDGET: Final = 50_000  # bytes of parser source, the reference contract's limit


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
    claims, skipped = installed_claims(target.adapter_types)
    unread = f"{len(skipped)} installed distribution(s) with unreadable metadata were not read"
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
        elif skipped:
            # Their claims are unknown: the host skips them too, but say so.
            results.append(
                CheckResult(
                    "metadata.duplicates",
                    "warn",
                    f"{adapter_type} is claimed once; {unread}",
                    adapter_type,
                    tuple(skipped),
                )
            )
        else:
            results.append(
                CheckResult(
                    "metadata.duplicates", "pass", f"{adapter_type} is claimed once", adapter_type
                )
            )
    return results


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
    audit hooks; it sends signed observations that this process judges, and a
    hang or crash there fails the check that was running.
    Raises :class:`TargetError` when the target names nothing checkable.
    """
    started = time.perf_counter()
    resolved = resolve_target(target)
    results = _metadata_checks(resolved)
    if resolved.entry_points:
        from linewise_contracts.compliance._runner import run_worker

        results.extend(run_worker(resolved, examples, timeout, line_timeout))
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


def module_roots(target: Target) -> dict[str, list[Path]]:
    """Where each top-level module of the entry points lives (its package folders, or its
    file), found without importing it."""
    from importlib.machinery import PathFinder

    found: dict[str, list[Path]] = {}
    search = [*target.paths, *sys.path]
    for _, value in target.entry_points:
        top = value.split(":", 1)[0].strip().split(".", 1)[0]
        if top in found:
            continue
        try:
            spec = PathFinder.find_spec(top, search)
        except (ImportError, ValueError, OSError):
            spec = None
        if spec is None:
            continue
        if spec.submodule_search_locations:
            found[top] = [Path(location) for location in spec.submodule_search_locations]
        elif spec.origin:
            found[top] = [Path(spec.origin)]
    return found


def _code_roots(target: Target) -> dict[str, list[Path]]:
    """Each top-level module of the entry points, and its source files (regular ``.py``
    files: a FIFO or a folder named ``x.py`` is no source file)."""
    found: dict[str, list[Path]] = {}
    for top, roots in module_roots(target).items():
        files: list[Path] = []
        for root in roots:
            if root.suffix == ".py":
                files.append(root)
            elif root.is_dir():
                files.extend(sorted(root.rglob("*.py")))
        found[top] = [path for path in files if _regular(path)]
    return found


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _package_checks(target: Target) -> list[CheckResult]:
    """Size of the parser's own code, and imports of undeclared distributions (read, not run)."""
    roots = _code_roots(target)
    files = [path for paths in roots.values() for path in paths]
    if not files:
        return [CheckResult("size.code", "skip", "the plugin's source files were not found")]
    size = sum(path.stat().st_size for path in files)
    names, unread = imported_names(files)
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
    providers, _ = packages_distributions()
    own = set(roots)
    problems = [f"{text}: its imports were not read" for text in unread]
    for name in sorted(names - own - set(sys.stdlib_module_names)):
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
    except (metadata.PackageNotFoundError, ValueError):  # ValueError: unreadable METADATA
        return []


def _requirement_name(requirement: str) -> str:
    import re

    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return match.group(1) if match else requirement
