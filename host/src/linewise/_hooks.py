"""The host's own extension points, served by pluggy once a host app registers a hook."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pluggy

    from linewise._registry import FailedLoad, ParserInfo

__all__ = ["HookRelay"]

PROJECT = "linewise"
logger = logging.getLogger("linewise")


class HookRelay:
    """Forwards host events to registered hook plugins; a no-op until one is registered.

    Events are notifications: a hook implementation that raises is logged and
    never interrupts parsing. Per-line parsing itself never goes through a hook.
    """

    def __init__(self) -> None:
        self._manager: pluggy.PluginManager | None = None

    @property
    def manager(self) -> pluggy.PluginManager:
        """The pluggy PluginManager, created (and pluggy imported) on first access."""
        if self._manager is None:
            import pluggy

            from linewise import hookspecs

            manager = pluggy.PluginManager(PROJECT)
            manager.add_hookspecs(hookspecs)
            self._manager = manager
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

    def _notify(self, hook_name: str, **kwargs: Any) -> None:
        if not self.active:
            return
        assert self._manager is not None
        # Each implementation is called on its own: pluggy would abort the whole
        # call at the first one that raises, silencing every other observer.
        for implementation in getattr(self._manager.hook, hook_name).get_hookimpls():
            try:
                implementation.function(*(kwargs[name] for name in implementation.argnames))
            except Exception:
                logger.exception(
                    "linewise hook %s of %s raised; ignored", hook_name, implementation.plugin_name
                )

    def collect(self, hook_name: str, **kwargs: Any) -> list[tuple[str, Any]]:
        """Call every implementation of ``hook_name``; ``(plugin name, result)`` for each
        that returned something other than None. One that raises is logged and skipped."""
        if not self.active:
            return []
        assert self._manager is not None
        results: list[tuple[str, Any]] = []
        for implementation in getattr(self._manager.hook, hook_name).get_hookimpls():
            try:
                value = implementation.function(*(kwargs[name] for name in implementation.argnames))
            except Exception:
                logger.warning(
                    "linewise hook %s of %s raised; ignored",
                    hook_name,
                    implementation.plugin_name,
                    exc_info=True,
                )
                continue
            if value is not None:
                results.append((implementation.plugin_name, value))
        return results

    def parser_loaded(self, info: ParserInfo) -> None:
        """A plugin was imported and passed the export checks."""
        self._notify("linewise_parser_loaded", info=info)

    def parser_failed(self, failure: FailedLoad) -> None:
        """A plugin was refused or failed to load."""
        self._notify("linewise_parser_failed", failure=failure)

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
