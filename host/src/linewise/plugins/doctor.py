"""Environment checks: each plugin's ``check_environment``, run safely, with pass/warn/fail."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, TypeAlias, cast

from linewise_contracts.environment import EnvironmentCheck, overall_status
from linewise_contracts.protocols import CHECK_ENVIRONMENT

from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.guard import PluginCallError, describe, guarded, safe_repr
from linewise.plugins.parser_info import DEPRECATED_SHAPE
from linewise.plugins.registry import ParserStatus, Registry, get_registry
from linewise.settings.clock import utc_now

__all__ = [
    "DEFAULT_CHECK_TIMEOUT",
    "NOT_INSTALLED",
    "EnvironmentReport",
    "ReportStatus",
    "check_environment",
    "check_environments",
    "not_installed",
]

#: Seconds a plugin's ``check_environment`` may take before it counts as failed.
DEFAULT_CHECK_TIMEOUT: Final = 30.0

#: The status of an adapter type whose agent CLI is not on this machine: not a failure.
NOT_INSTALLED: Final = "not_installed"

#: ``pass``, ``warn`` and ``fail`` as the contract's ``overall_status`` says, or
#: :data:`NOT_INSTALLED`.
ReportStatus: TypeAlias = Literal["pass", "warn", "fail", "not_installed"]

_LEVELS: Final = ("info", "warn", "error")


def not_installed(checks: Sequence[EnvironmentCheck]) -> bool:
    """Whether failed ``checks`` only say that the agent CLI is not on this machine.

    The checks' codes tell, following the convention of the first-party
    plugins (``command_check`` with ``missing_code="<cli>_command_missing"``):
    every error is a ``..._missing`` code (the command, or what a cloud adapter
    needs instead of one) and no check reports a command found
    (``..._command_found``). An installed CLI that fails a check still fails.
    """
    errors = [check for check in checks if check.level == "error"]
    return (
        bool(errors)
        and all(check.code.endswith("_missing") for check in errors)
        and not any(check.code.endswith("_command_found") for check in checks)
    )


@dataclass(frozen=True, slots=True)
class EnvironmentReport:
    """One adapter type's environment checks and their overall status.

    ``status`` is None when nothing was checked (the plugin exports no
    ``check_environment``, or it is disabled); ``note`` then says why. It is
    :data:`NOT_INSTALLED` when the only errors say the agent CLI is not on this
    machine (see :func:`not_installed`), which is not a failure. A plugin that
    fails to load, raises, hangs or returns something that is not a list of
    :class:`EnvironmentCheck` gets ``fail`` with an error check saying so (the
    reference's ``AdapterEnvironmentTestResult``).
    """

    adapter_type: str
    status: ReportStatus | None
    checks: tuple[EnvironmentCheck, ...] = ()
    note: str | None = None
    label: str | None = None
    distribution: str | None = None
    version: str | None = None
    tested_at: str = ""
    #: Set when the plugin still uses contract 1.x loose exports: what to do about it.
    deprecated: str | None = None

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
            "deprecated": self.deprecated,
        }


def _error(code: str, message: str, hint: str, detail: str | None = None) -> EnvironmentCheck:
    return EnvironmentCheck(code=code, level="error", message=message, detail=detail, hint=hint)


def _call(function: Callable[[], object], timeout: float | None) -> tuple[bool, object]:
    """``function()`` within ``timeout`` seconds: (finished, result or the exception)."""
    if timeout is None:
        result, error = guarded(function)
        return True, result if error is None else error
    outcome: list[object] = []

    def target() -> None:
        result, error = guarded(function)
        outcome.append(result if error is None else error)

    # A daemon thread: a check that never returns cannot keep the process alive.
    worker = threading.Thread(target=target, name="linewise-check-environment", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        return False, None
    return True, outcome[0]


def _fields(check: EnvironmentCheck) -> tuple[object, ...]:
    return (check.code, check.level, check.message, check.detail, check.hint)


def _plain(check: object) -> EnvironmentCheck | str:
    """A plain copy of a plugin's check, or what is wrong with it.

    Every field is read once, behind the guard, and must be a plain ``str``
    (``detail`` and ``hint`` may be None): the copy is what gets printed.
    """
    if not isinstance(check, EnvironmentCheck):
        return f"a {type(check).__name__}"
    fields, error = guarded(_fields, check)
    if fields is None:
        return f"a check whose fields cannot be read ({describe(error or Exception())})"
    code, level, message, detail, hint = fields
    if type(level) is not str or level not in _LEVELS:
        return f"level {safe_repr(level)}"
    if type(code) is not str or type(message) is not str:
        return "a check whose code or message is not a string"
    if not all(value is None or type(value) is str for value in (detail, hint)):
        return "a check whose detail or hint is not a string"
    return EnvironmentCheck(
        code=code,
        level=level,  # type: ignore[arg-type]
        message=message,
        detail=detail,  # type: ignore[arg-type]
        hint=hint,  # type: ignore[arg-type]
    )


def _validated(result: object, who: str) -> tuple[EnvironmentCheck, ...]:
    hint = f"{CHECK_ENVIRONMENT}() must return a list of linewise_contracts.EnvironmentCheck"
    if type(result) not in (list, tuple):
        message = f"{CHECK_ENVIRONMENT}() returned a {type(result).__name__}, not a list"
        return (_error("invalid_checks", message, f"{hint} ({who})"),)
    checks: list[EnvironmentCheck] = []
    for index, item in enumerate(cast("Sequence[object]", result)):
        check = _plain(item)
        if isinstance(check, str):
            message = f"{CHECK_ENVIRONMENT}() returned {check} as check {index + 1}"
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
    if registry.info(adapter_type).shape == "exports":
        base = replace(base, deprecated=DEPRECATED_SHAPE)
    function = loaded.check_environment
    if function is None:
        problems = [
            failure.reason
            for failure in registry.call_failures.of(adapter_type)
            if failure.call == CHECK_ENVIRONMENT
        ]
        if problems:
            invalid = _error(
                "invalid_checks",
                f"{CHECK_ENVIRONMENT} {problems[0]}",
                f"make {CHECK_ENVIRONMENT} a function ({who})",
            )
            return replace(base, status="fail", checks=(invalid,))
        return replace(base, note=f"the plugin exports no {CHECK_ENVIRONMENT}: nothing to check")
    failed: EnvironmentCheck | None = None
    finished, result = _call(function, timeout)
    if not finished:
        failed = _error(
            "check_timed_out",
            f"{CHECK_ENVIRONMENT}() did not finish within {timeout:g}s",
            f"environment checks must be quick; report this to {who}",
        )
    elif isinstance(result, BaseException):
        original = result.error if isinstance(result, PluginCallError) else result
        reason = f"raised {describe(original or result)}"
        failed = _error(
            "check_raised",
            f"{CHECK_ENVIRONMENT}() {reason}",
            f"this is a bug in {who}: checks must report findings, not raise",
        )
    if failed is not None:
        return replace(base, status="fail", checks=(failed,))
    checks = _validated(result, who)
    status: ReportStatus = overall_status(checks)
    if status == "fail" and not_installed(checks):
        status = NOT_INSTALLED
    return replace(base, status=status, checks=checks)


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
