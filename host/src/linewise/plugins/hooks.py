"""The host's own extension points, served by pluggy once a host app registers a hook."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Final

from linewise.plugins.guard import is_plugin_failure, sniff_score
from linewise.settings.logs import logger

if TYPE_CHECKING:
    import pluggy

    from linewise.plugins.failed_load import FailedLoad
    from linewise.plugins.guard import PluginCallFailure
    from linewise.plugins.parser_info import ParserInfo

__all__ = ["HOST_PLUGIN_PREFIX", "HookRelay"]

PROJECT = "linewise"

#: Hook plugins the host registers itself (a plugin's ``sniff`` served through
#: ``linewise_sniff``, say) have names starting with this. Registering such a
#: name again is a no-op, so threads racing through a first use never fail.
HOST_PLUGIN_PREFIX: Final = "linewise-"


def _new_manager(lock: threading.RLock) -> pluggy.PluginManager:
    import pluggy

    from linewise import hookspecs

    class _Manager(pluggy.PluginManager):
        """A PluginManager whose registrations are locked, and idempotent for host names."""

        def register(self, plugin: object, name: str | None = None) -> str | None:
            with lock:
                if (
                    name is not None
                    and name.startswith(HOST_PLUGIN_PREFIX)
                    and self.has_plugin(name)
                ):
                    return name  # the first registration of a host name wins
                return super().register(plugin, name)

        def unregister(self, plugin: object | None = None, name: str | None = None) -> Any:
            with lock:
                return super().unregister(plugin, name)

    manager = _Manager(PROJECT)
    manager.add_hookspecs(hookspecs)
    return manager


def _sniff_result(value: object) -> tuple[tuple[str, float] | None, bool]:
    """A ``linewise_sniff`` result as ``(adapter type, score from 0 to 1)``, or None, and
    whether it was unusable (a score of None is a sniffer that failed and said so)."""
    if type(value) is not tuple or len(value) != 2 or type(value[0]) is not str:
        return None, True
    if value[1] is None:
        return None, False
    score, problem = sniff_score(value[1])
    return (None, True) if problem is not None else ((value[0], score), False)


#: Results of these hooks are checked before a caller sees them.
_RESULT_CHECKS: Final = {"linewise_sniff": _sniff_result}


class HookRelay:
    """Forwards host events to registered hook plugins; a no-op until one is registered.

    Events are notifications: a hook implementation that raises is logged and
    never interrupts parsing. Per-line parsing itself never goes through a hook.
    """

    def __init__(self) -> None:
        self._manager: pluggy.PluginManager | None = None
        self._lock = threading.RLock()

    @property
    def manager(self) -> pluggy.PluginManager:
        """The pluggy PluginManager, created (and pluggy imported) once, on first access.

        Registering is thread-safe; registering a name that starts with
        :data:`HOST_PLUGIN_PREFIX` a second time is a no-op.
        """
        if self._manager is None:
            with self._lock:
                if self._manager is None:
                    self._manager = _new_manager(self._lock)
        return self._manager

    def register(self, plugin: object, name: str | None = None) -> None:
        """Register an object or module with ``@linewise.hookspecs.hookimpl`` functions."""
        self.manager.register(plugin, name)

    def unregister(self, plugin: object) -> None:
        """Stop forwarding events to ``plugin``."""
        self.manager.unregister(plugin)

    @property
    def active(self) -> bool:
        """True when at least one hook plugin is registered."""
        return self._manager is not None and bool(self._manager.get_plugins())

    def listens(self, hook_name: str) -> bool:
        """True when a registered hook plugin implements ``hook_name`` (an event worth building)."""
        if not self.active:
            return False
        assert self._manager is not None
        return bool(getattr(self._manager.hook, hook_name).get_hookimpls())

    def _notify(self, hook_name: str, **kwargs: Any) -> None:
        if not self.active:
            return
        assert self._manager is not None
        # Each implementation is called on its own: pluggy would abort the whole
        # call at the first one that raises, silencing every other observer.
        for implementation in getattr(self._manager.hook, hook_name).get_hookimpls():
            try:
                implementation.function(*(kwargs[name] for name in implementation.argnames))
            except BaseException as error:  # an observer never stops the host (but Ctrl-C does)
                if not is_plugin_failure(error):
                    raise
                logger.error(
                    "linewise hook %s of %s raised; ignored",
                    hook_name,
                    implementation.plugin_name,
                    exc_info=(type(error), error, error.__traceback__),
                )

    def collect(self, hook_name: str, **kwargs: Any) -> list[tuple[str, Any]]:
        """Call every implementation of ``hook_name``; ``(plugin name, result)`` for each
        that returned something other than None.

        One that raises (anything but a real Ctrl-C) is logged and skipped.
        Each implementation gets its own copy of a list argument, so one that
        mutates it changes nothing for the others. A ``linewise_sniff`` result
        is checked: ``(adapter type, score)`` with the score clamped to 0..1;
        anything else (NaN, a huge integer, not a pair) is logged and skipped.
        """
        if not self.active:
            return []
        assert self._manager is not None
        check = _RESULT_CHECKS.get(hook_name)
        results: list[tuple[str, Any]] = []
        for implementation in getattr(self._manager.hook, hook_name).get_hookimpls():
            arguments = [kwargs[name] for name in implementation.argnames]
            arguments = [list(a) if type(a) is list else a for a in arguments]
            try:
                value = implementation.function(*arguments)
            except BaseException as error:  # a hook never stops the host (but Ctrl-C does)
                if not is_plugin_failure(error):
                    raise
                logger.warning(
                    "linewise hook %s of %s raised; ignored",
                    hook_name,
                    implementation.plugin_name,
                    exc_info=(type(error), error, error.__traceback__),
                )
                continue
            if value is None:
                continue
            if check is not None:
                value, unusable = check(value)
                if value is None:
                    if not unusable:
                        continue
                    logger.warning(
                        "linewise hook %s of %s returned an unusable result; ignored",
                        hook_name,
                        implementation.plugin_name,
                    )
                    continue
            results.append((implementation.plugin_name, value))
        return results

    def parser_loaded(self, info: ParserInfo) -> None:
        """A plugin was imported and passed the export checks."""
        self._notify("linewise_parser_loaded", info=info)

    def parser_failed(self, failure: FailedLoad) -> None:
        """A plugin was refused or failed to load."""
        self._notify("linewise_parser_failed", failure=failure)

    def plugin_call_failed(self, failure: PluginCallFailure) -> None:
        """A call into a loaded plugin (a sniffer, a formatter, a metadata lookup) failed."""
        self._notify("linewise_plugin_call_failed", failure=failure)

    def line_failed(
        self, adapter_type: str, line_number: int, line: str, error: BaseException
    ) -> None:
        """A parser raised on a line (which then went through the generic parser)."""
        self._notify(
            "linewise_line_failed",
            adapter_type=adapter_type,
            line_number=line_number,
            line=line,
            error=error,
        )
