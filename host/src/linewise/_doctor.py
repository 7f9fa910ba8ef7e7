"""Environment checks: each plugin's ``check_environment``, run safely, with pass/warn/fail."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Final

from linewise_contracts.environment import (
    CheckStatus,
    EnvironmentCheck,
    overall_status,
)
from linewise_contracts.protocols import CHECK_ENVIRONMENT

from linewise._generic import GENERIC_ADAPTER_TYPE
from linewise._registry import ParserStatus, Registry, get_registry
from linewise._session import utc_now

__all__ = ["DEFAULT_CHECK_TIMEOUT", "EnvironmentReport", "check_environment", "check_environments"]

#: Seconds a plugin's ``check_environment`` may take before it counts as failed.
DEFAULT_CHECK_TIMEOUT: Final = 30.0

_LEVELS: Final = frozenset({"info", "warn", "error"})


@dataclass(frozen=True, slots=True)
class EnvironmentReport:
    """One adapter type's environment checks and their overall status.

    ``status`` is None when nothing was checked (the plugin exports no
    ``check_environment``, or it is disabled); ``note`` then says why. A
    plugin that fails to load, raises, hangs or returns something that is not
    a list of :class:`EnvironmentCheck` gets ``fail`` with an error check
    saying so (the reference's ``AdapterEnvironmentTestResult``).
    """

    adapter_type: str
    status: CheckStatus | None
    checks: tuple[EnvironmentCheck, ...] = ()
    note: str | None = None
    label: str | None = None
    distribution: str | None = None
    version: str | None = None
    tested_at: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (camelCase keys, like the reference)."""
        return {
            "adapterType": self.adapter_type,
            "status": self.status,
            "checks": [check.to_json() for check in self.checks],
            "note": self.note,
            "label": self.label,
            "distribution": self.distribution,
            "version": self.version,
            "testedAt": self.tested_at,
        }


def _error(code: str, message: str, hint: str, detail: str | None = None) -> EnvironmentCheck:
    return EnvironmentCheck(code=code, level="error", message=message, detail=detail, hint=hint)


def _call(function: Callable[[], object], timeout: float | None) -> tuple[bool, object]:
    """``function()`` within ``timeout`` seconds: (finished, result or the exception)."""
    if timeout is None:
        try:
            return True, function()
        except (Exception, SystemExit) as error:
            return True, error
    outcome: list[object] = []

    def target() -> None:
        try:
            outcome.append(function())
        except (Exception, SystemExit) as error:
            outcome.append(error)

    # A daemon thread: a check that never returns cannot keep the process alive.
    worker = threading.Thread(target=target, name="linewise-check-environment", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        return False, None
    return True, outcome[0]


def _validated(result: object, who: str) -> tuple[EnvironmentCheck, ...]:
    hint = f"{CHECK_ENVIRONMENT}() must return a list of linewise_contracts.EnvironmentCheck"
    if not isinstance(result, list | tuple):
        message = f"{CHECK_ENVIRONMENT}() returned a {type(result).__name__}, not a list"
        return (_error("invalid_checks", message, f"{hint} ({who})"),)
    checks: list[EnvironmentCheck] = []
    for index, check in enumerate(result):
        if not isinstance(check, EnvironmentCheck) or check.level not in _LEVELS:
            what = (
                f"level {check.level!r}"
                if isinstance(check, EnvironmentCheck)
                else f"a {type(check).__name__}"
            )
            message = f"{CHECK_ENVIRONMENT}() returned {what} as check {index + 1}"
            checks.append(_error("invalid_checks", message, f"{hint} ({who})"))
            continue
        checks.append(check)
    return tuple(checks)


def check_environment(
    adapter_type: str,
    *,
    registry: Registry | None = None,
    timeout: float | None = DEFAULT_CHECK_TIMEOUT,
) -> EnvironmentReport:
    """Run one adapter type's environment checks; never raises for a broken plugin.

    Raises :class:`~linewise.UnknownAdapterError` when nothing claims
    ``adapter_type``. With a ``timeout``, the checks run in a daemon thread
    that is abandoned (and the adapter failed) when they take longer.
    """
    registry = registry or get_registry()
    info = registry.info(adapter_type)
    base = EnvironmentReport(
        adapter_type=adapter_type,
        status=None,
        label=info.label,
        distribution=info.distribution,
        version=info.version,
        tested_at=utc_now(),
    )
    who = f"{info.distribution} {info.version}" if info.distribution else adapter_type
    if adapter_type == GENERIC_ADAPTER_TYPE:
        return replace(base, note="built in: the generic parser needs nothing")
    if info.status is ParserStatus.DISABLED:
        return replace(base, note=info.reason or "disabled")
    loaded = registry.load(adapter_type)
    if loaded.is_fallback:
        failure = registry.failed_loads.get(adapter_type)
        hint = failure.hint if failure else "see `linewise list --load`"
        message = failure.reason if failure else str(loaded.fallback_reason)
        check = _error("plugin_not_loaded", f"the plugin did not load: {message}", hint)
        return replace(base, status="fail", checks=(check,))
    base = replace(base, label=loaded.label or base.label)
    function = getattr(loaded.target, CHECK_ENVIRONMENT, None)
    if function is None:
        return replace(base, note=f"the plugin exports no {CHECK_ENVIRONMENT}: nothing to check")
    failed: EnvironmentCheck | None = None
    if not callable(function):
        failed = _error(
            "invalid_checks",
            f"{CHECK_ENVIRONMENT} is a {type(function).__name__}, not callable",
            f"make {CHECK_ENVIRONMENT} a function ({who})",
        )
        return replace(base, status="fail", checks=(failed,))
    finished, result = _call(function, timeout)
    if not finished:
        failed = _error(
            "check_timed_out",
            f"{CHECK_ENVIRONMENT}() did not finish within {timeout:g}s",
            f"environment checks must be quick; report this to {who}",
        )
    elif isinstance(result, BaseException):
        failed = _error(
            "check_raised",
            f"{CHECK_ENVIRONMENT}() raised {type(result).__name__}: {result}",
            f"this is a bug in {who}: checks must report findings, not raise",
        )
    if failed is not None:
        return replace(base, status="fail", checks=(failed,))
    checks = _validated(result, who)
    return replace(base, status=overall_status(checks), checks=checks)


def check_environments(
    adapter_types: Iterable[str] | None = None,
    *,
    registry: Registry | None = None,
    timeout: float | None = DEFAULT_CHECK_TIMEOUT,
) -> list[EnvironmentReport]:
    """The environment checks of the named adapter types (default: every installed plugin)."""
    registry = registry or get_registry()
    if adapter_types is None:
        names = [name for name in registry.adapter_types if name != GENERIC_ADAPTER_TYPE]
    else:
        names = list(adapter_types)
    return [check_environment(name, registry=registry, timeout=timeout) for name in names]
