"""Each plugin's ``sniff`` served through the ``linewise_sniff`` hook, for detection to ask.

Apart from :mod:`linewise.stream.detect`, which asks them: pluggy reads the
hook implementation's attributes, which a class compiled with mypyc (the
stream) does not carry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from linewise.hookspecs import hookimpl
from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.registry import Registry

__all__ = ["register_sniffers"]

_SNIFFER_PREFIX: Final = "linewise-sniff:"


class _PluginSniffer:
    """Serves one plugin's ``sniff`` export through the ``linewise_sniff`` hook."""

    def __init__(self, adapter_type: str, sniff: Callable[[Sequence[str]], float | None]) -> None:
        self.adapter_type = adapter_type
        self._sniff = sniff

    def __dir__(self) -> list[str]:
        # pluggy looks for hook implementations under every name dir() lists (some 30
        # inherited ones, for each of a dozen sniffers registered at start-up): just this one.
        return ["linewise_sniff"]

    @hookimpl
    def linewise_sniff(self, lines: Sequence[str]) -> tuple[str, object] | None:
        # The guarded sniff: it copies the lines, records any failure and gives None then.
        score = self._sniff(lines)
        return None if score is None else (self.adapter_type, score)


def register_sniffers(registry: Registry) -> None:
    """Import the plugins' detectors now (a live run does it before the agent starts): of
    each declared format only its ``sniff`` (:meth:`Registry.sniffer`)."""
    manager = registry.hooks.manager
    for adapter_type in registry.adapter_types:
        name = _SNIFFER_PREFIX + adapter_type
        if adapter_type == GENERIC_ADAPTER_TYPE or manager.has_plugin(name):
            continue
        sniff = registry.sniffer(adapter_type)
        if sniff is not None:
            manager.register(_PluginSniffer(adapter_type, sniff), name)
