"""Detection's load of a plugin: a declared format's ``sniff`` alone, the rest left for later.

Auto-detection asks every installed format for its ``sniff``. Of a declared
format (contract 1.5) only the ``sniff`` field is imported here, after the same
gate a load passes (:meth:`.loading.PluginLoader._gated`): with light plugin
packages (contract 1.8, ``linewise_contracts.lazy``) that imports no parser.
The format detection picks is loaded whole afterwards; a failure here is
recorded as that load's would be, and not retried.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from linewise_contracts.protocols import SNIFF

from linewise.plugins.guard import GuardedSniff
from linewise.plugins.loaded import LoadedParser
from linewise.plugins.loading import _DECLARED_MODULE, _import, _optional, declared_problem

if TYPE_CHECKING:
    from linewise.plugins.candidate import Candidate
    from linewise.plugins.loading import PluginLoader

__all__ = ["SniffLoader"]


class SniffLoader:
    """Imports the ``sniff`` of one adapter type's winning claim for a registry's loader;
    the registry holds the lock while :meth:`sniffer_locked` runs."""

    def __init__(self, loader: PluginLoader) -> None:
        self._loader = loader

    def sniffer_locked(self, adapter_type: str) -> GuardedSniff | None:
        """``adapter_type``'s guarded ``sniff``, importing no more of its plugin than that.

        A declared format (contract 1.5) is checked and only its ``sniff`` reference is
        imported: what detection asks of every installed format. The rest is imported when
        the format is loaded (:meth:`.PluginLoader.load_locked`), for the one detection picks. A 1.x
        module, an isolated or a JavaScript parser is loaded whole, as before. None when
        the format has no ``sniff`` or cannot be used (the failure is recorded as a load's).
        """
        registry = self._loader._registry
        loaded = registry._loaded.get(adapter_type)
        if loaded is not None:
            return _sniff_of(loaded)
        if adapter_type in registry._sniffers:
            return registry._sniffers[adapter_type]
        winner = self._loader._gated(adapter_type)
        if isinstance(winner, LoadedParser):
            return _sniff_of(winner)
        if winner.kind != "python" or registry.isolation.covers(adapter_type, winner.distribution):
            return _sniff_of(self._loader._load_winner(winner))
        target, error = _import(winner.entry_point.load)
        if error is not None:
            return _sniff_of(self._loader._import_failed(winner, error))
        if type(target).__module__ != _DECLARED_MODULE:
            return _sniff_of(self._loader._load_winner(winner))  # a 1.x module: imported whole
        sniff, failed = self._declared_sniff(winner, target)
        if failed is not None:
            return _sniff_of(failed)
        registry._sniffers[adapter_type] = sniff
        return sniff

    def _declared_sniff(
        self, winner: Candidate, target: object
    ) -> tuple[GuardedSniff | None, LoadedParser | None]:
        """A declared format's guarded ``sniff`` (its reference imported, nothing else), or the
        fallback a failed check or import leaves."""
        refused = declared_problem(target, winner.adapter_type, field=SNIFF)
        if refused is not None:
            stage, reason, hint, error = refused
            return None, self._loader._fail(winner, stage, reason, hint, error)
        # Imported by the check: a read of the field now runs no plugin code.
        value = getattr(target, SNIFF)
        if value is None:
            return None, None
        record = self._loader._registry.call_failures
        return _optional(lambda _: value, SNIFF, winner.adapter_type, record, GuardedSniff), None


def _sniff_of(loaded: LoadedParser) -> GuardedSniff | None:
    return None if loaded.is_fallback else cast("GuardedSniff | None", loaded.sniff)
