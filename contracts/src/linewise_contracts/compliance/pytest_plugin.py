"""pytest plugin: the linewise compliance checks as ordinary tests (``--linewise-check TARGET``).

Registered through the ``pytest11`` entry point of linewise-contracts, so a
plugin project gets it by depending on linewise-contracts. Nothing runs unless
a target is named, on the command line or in the ini file::

    pytest --linewise-check my_agent          # an installed adapter type
    pytest --linewise-check .                 # this project, from source

    [tool.pytest.ini_options]
    linewise_check = ["my_agent"]
    linewise_examples = "500"

Each check becomes one test per adapter type (``linewise[my_agent:my_agent:parse.valid]``,
named target, adapter type, check):
a failed check fails the test with its reason, a warning is a pytest warning,
a skipped check is skipped. The ``linewise_check`` fixture runs the checks
from a test of your own and returns the report.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from linewise_contracts.compliance import Report

__all__ = ["ComplianceItem", "linewise_check"]

_REPORTS = pytest.StashKey[dict[str, "Report"]]()
_DISTRIBUTION_CHECKS = (
    "metadata.entry_points",
    "metadata.contract",
    "size.code",
    "size.dependencies",
)


class ComplianceWarning(UserWarning):
    """A compliance check passed with a warning (over a cost budget, grace period ...)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("linewise", "linewise parser plugin compliance")
    group.addoption(
        "--linewise-check",
        action="append",
        default=[],
        metavar="TARGET",
        help="check a linewise parser plugin: an adapter type, a distribution or a project path",
    )
    group.addoption(
        "--linewise-examples",
        type=int,
        default=None,
        metavar="N",
        help="hostile inputs generated per adapter type (default 300 here)",
    )
    parser.addini("linewise_check", type="args", help="linewise plugins to check", default=[])
    parser.addini("linewise_examples", help="hostile inputs per adapter type", default="300")


def _examples(config: pytest.Config) -> int:
    value = config.getoption("linewise_examples")
    return int(value if value is not None else config.getini("linewise_examples"))


def _report(config: pytest.Config, target: str) -> Report:
    from linewise_contracts.compliance import run_checks

    reports = config.stash.setdefault(_REPORTS, {})
    if target not in reports:
        reports[target] = run_checks(target, examples=_examples(config))
    return reports[target]


class ComplianceItem(pytest.Item):
    """One compliance check of one adapter type of one target."""

    def __init__(self, *, target: str, check: str, adapter_type: str | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target
        self.check = check
        self.adapter_type = adapter_type

    def runtest(self) -> None:
        report = _report(self.config, self.target)
        results = [
            result
            for result in report.results
            if result.check == self.check
            and (self.adapter_type is None or result.adapter_type in (self.adapter_type, None))
        ]
        if not results:
            pytest.skip(f"{self.check} did not run (an earlier check of this plugin failed)")
        for result in results:
            text = "\n".join([result.message, *result.details])
            if result.status == "fail":
                pytest.fail(f"{self.check}: {text}", pytrace=False)
        for result in results:
            if result.status == "warn":
                warnings.warn(ComplianceWarning(f"{self.check}: {result.message}"), stacklevel=1)
        if all(result.status == "skip" for result in results):
            pytest.skip(results[0].message)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, self.name


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    targets = list(config.getoption("linewise_check")) + list(config.getini("linewise_check"))
    if not targets:
        return
    from linewise_contracts.compliance import TITLES, TargetError
    from linewise_contracts.compliance._target import resolve_target

    for target in targets:
        try:
            resolved = resolve_target(target)
        except TargetError as error:
            raise pytest.UsageError(f"--linewise-check {target}: {error}") from None
        # Named after the target as typed (a path's last part), so several targets never clash.
        prefix = Path(target).name if resolved.kind == "path" else target
        for check in TITLES:
            scopes: list[str | None] = (
                [None] if check in _DISTRIBUTION_CHECKS else list(resolved.adapter_types)
            )
            for adapter_type in scopes:
                label = ":".join(part for part in (prefix, adapter_type, check) if part)
                items.append(
                    ComplianceItem.from_parent(
                        session,
                        name=f"linewise[{label}]",
                        target=target,
                        check=check,
                        adapter_type=adapter_type,
                    )
                )


@pytest.fixture
def linewise_check(pytestconfig: pytest.Config) -> Callable[..., Report]:
    """Run the compliance checks on a target from a test; returns the :class:`Report`."""
    from linewise_contracts.compliance import run_checks

    def run(target: str, **options: Any) -> Report:
        options.setdefault("examples", _examples(pytestconfig))
        return run_checks(target, **options)

    return run
