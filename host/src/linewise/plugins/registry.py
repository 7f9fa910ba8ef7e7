"""The registry: which parser serves each adapter type, loaded on first use; failures kept."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from linewise_contracts._version import CONTRACT_VERSION
from linewise_contracts.protocols import SESSION_STORES, SNIFF

from linewise.plugins.candidate import Candidate
from linewise.plugins.discovery import scan
from linewise.plugins.field_loading import FieldLoader
from linewise.plugins.gate import check_contract
from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.guard import GuardedSniff, PluginCallRecord
from linewise.plugins.hooks import HookRelay
from linewise.plugins.isolation._policy import IsolationPolicy
from linewise.plugins.loaded import LoadedParser, PluginExports, generic_loaded
from linewise.plugins.loading import PluginLoader, static_problem
from linewise.settings.environment import Settings

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from linewise_contracts.sessions import SessionStore

    from linewise.plugins.failed_load import FailedLoad
    from linewise.plugins.parser_info import ParserInfo, ParserStatus

__all__ = [
    "FailedLoad",
    "LoadedParser",
    "ParserInfo",
    "ParserStatus",
    "PluginExports",
    "Registry",
    "get_registry",
    "reset_registry",
]

# Re-exported names whose modules are imported on first use: a render that loads
# its plugin without trouble needs neither.
_LAZY = {
    "FailedLoad": "linewise.plugins.failed_load",
    "ParserInfo": "linewise.plugins.parser_info",
    "ParserStatus": "linewise.plugins.parser_info",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'linewise.plugins.registry' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def _split_names(value: str | None) -> frozenset[str]:
    if not value:
        return frozenset()
    return frozenset(_normal(part) for part in value.split(",") if part.strip())


def _normal(name: str) -> str:
    # Adapter types and distribution names compared case- and separator-blind.
    return name.strip().lower().replace("-", "_").replace(".", "_")


class Registry:
    """Every parser plugin of an environment, discovered once and imported on first use.

    ``disable`` and ``only`` name adapter types or distributions; they default
    to the comma-separated ``LINEWISE_DISABLE`` and ``LINEWISE_ONLY``
    variables. ``strict`` (default ``LINEWISE_STRICT=1``) turns load failures
    and parser exceptions into exceptions. ``entry_points`` replaces the
    environment's ``linewise.parsers`` group. The variables come from ``settings``
    (:class:`~linewise.settings.environment.Settings`, read from the environment
    when none is given); the registry reads none itself, nor does its isolation.
    """

    def __init__(
        self,
        *,
        disable: Iterable[str] | None = None,
        only: Iterable[str] | None = None,
        strict: bool | None = None,
        entry_points: Iterable[EntryPoint] | None = None,
        host_contract: str = CONTRACT_VERSION,
        isolate: Iterable[str] | str | bool | None = None,
        line_timeout: float | None = None,
        worker_memory: int | None = None,
        settings: Settings | None = None,
    ) -> None:
        settings = Settings.from_environment() if settings is None else settings
        #: The settings it was made with (``LINEWISE_*`` as read at the edge).
        self.settings = settings
        self._disabled = (
            _split_names(settings.disable)
            if disable is None
            else frozenset(_normal(n) for n in disable)
        )
        only_env = settings.only if only is None else None
        self._only: frozenset[str] | None = (
            (_split_names(only_env) if only_env and only_env.strip() else None)
            if only is None
            else frozenset(_normal(n) for n in only)
        )
        self.strict = settings.strict_on if strict is None else strict
        self.host_contract = host_contract
        #: Which parsers run in worker processes, and their limits (see linewise.plugins.isolation).
        self.isolation = IsolationPolicy.build(
            isolate, line_timeout=line_timeout, worker_memory=worker_memory, settings=settings
        )
        self.hooks = HookRelay()
        self.call_failures = PluginCallRecord(self.hooks.plugin_call_failed)
        self._points = None if entry_points is None else list(entry_points)
        self._lock = threading.RLock()
        self._claims: dict[str, list[Candidate]] | None = None
        self._skipped: list[str] = []
        self._loaded: dict[str, LoadedParser] = {}
        self._failed: dict[str, FailedLoad] = {}
        #: The guarded ``sniff`` of declared formats imported for detection only.
        # Of declared formats not loaded whole: the fields asked alone (sniff, session_stores).
        self._fields: dict[str, dict[str, Any]] = {}
        self._loader = PluginLoader(self)
        self._field_loader = FieldLoader(self._loader)

    # -- discovery -----------------------------------------------------------

    def _by_type(self) -> dict[str, list[Candidate]]:
        if self._claims is None:
            with self._lock:
                if self._claims is None:
                    found = scan(self._points)
                    self._skipped = found.skipped
                    self._claims = _claims_by_type(found.candidates)
        return self._claims

    def _is_disabled(self, candidate: Candidate) -> str | None:
        names = {_normal(candidate.adapter_type)}
        if candidate.distribution:
            names.add(_normal(candidate.distribution))
        if names & self._disabled:
            return "disabled by LINEWISE_DISABLE (or Registry(disable=...))"
        if self._only is not None and not names & self._only:
            return "not in LINEWISE_ONLY (or Registry(only=...))"
        return None

    def _contenders(
        self, adapter_type: str
    ) -> tuple[Candidate | None, list[Candidate], str | None]:
        """The winning claim, the shadowed ones, and why there is no winner."""
        group = self._by_type().get(adapter_type, [])
        allowed = [c for c in group if self._is_disabled(c) is None]
        if not allowed:
            reason = self._is_disabled(group[0]) if group else None
            return None, [], reason
        return allowed[0], allowed[1:], None

    @property
    def skipped_distributions(self) -> list[str]:
        """Installed distributions left out because their metadata cannot be read, and why."""
        self._by_type()
        return list(self._skipped)

    @property
    def adapter_types(self) -> list[str]:
        """Every adapter type this registry can serve (discovered ones and the built-in generic)."""
        return sorted({GENERIC_ADAPTER_TYPE, *self._by_type()})

    # -- enumeration ---------------------------------------------------------

    def parsers(self) -> list[ParserInfo]:
        """One :class:`ParserInfo` per claim, sorted by adapter type; imports nothing."""
        from linewise.plugins.parser_info import ParserInfo, ParserStatus

        infos = [
            ParserInfo(
                adapter_type=GENERIC_ADAPTER_TYPE,
                status=ParserStatus.LOADED,
                label="Generic (raw stdout)",
                reason="built in: every line becomes a stdout entry",
                builtin=True,
            )
        ]
        for adapter_type, group in sorted(self._by_type().items()):
            winner, shadowed, _ = self._contenders(adapter_type)
            for candidate in group:
                infos.append(_claim_info(self, candidate, winner, shadowed))
        return infos

    def info(self, adapter_type: str) -> ParserInfo:
        """The :class:`ParserInfo` of the claim that serves (or would serve) ``adapter_type``."""
        if adapter_type == GENERIC_ADAPTER_TYPE:
            return self.parsers()[0]
        group = self._by_type().get(adapter_type)
        if not group:
            from linewise.plugins.suggest import unknown_adapter  # a mistyped name only

            raise unknown_adapter(adapter_type, self.adapter_types)
        winner, shadowed, _ = self._contenders(adapter_type)
        return _claim_info(self, winner or group[0], winner, shadowed)

    @property
    def failed_loads(self) -> Mapping[str, FailedLoad]:
        """Adapter types whose plugin was refused or failed, with why (not retried until reload)."""
        return dict(self._failed)

    # -- loading -------------------------------------------------------------

    def load(self, adapter_type: str) -> LoadedParser:
        """The parser for ``adapter_type``, importing its plugin on first use.

        Never raises for a broken plugin (unless strict): the generic parser
        stands in and the failure is in :attr:`failed_loads`. Raises
        :class:`UnknownAdapterError` when nothing claims ``adapter_type``.
        """
        if adapter_type == GENERIC_ADAPTER_TYPE:
            return generic_loaded(GENERIC_ADAPTER_TYPE, None)
        loaded = self._loaded.get(adapter_type)
        if loaded is not None:
            return loaded
        with self._lock:
            return self._loader.load_locked(adapter_type)

    def already_loaded(self, adapter_type: str) -> LoadedParser | None:
        """The parser :meth:`load` gave ``adapter_type`` so far; None when it was not loaded
        (nothing is imported to answer)."""
        return self._loaded.get(adapter_type)

    def sniffer(self, adapter_type: str) -> Callable[[Sequence[str]], float | None] | None:
        """``adapter_type``'s guarded ``sniff`` (a score, or None when it fails), or None when
        it has none or its plugin cannot load; of a declared format only that is imported
        (the rest when it is loaded), so asking every installed format stays cheap."""
        return cast("GuardedSniff | None", self._field(adapter_type, SNIFF))

    def session_stores(self, adapter_type: str) -> Callable[..., list[SessionStore]] | None:
        """``adapter_type``'s guarded ``session_stores(environ, home)``, or None when it has
        none or its plugin cannot load; of a declared format only that is imported, so
        asking every installed format where it keeps sessions stays cheap. An isolated
        plugin's is None (an isolated worker may not read files, see ``not_searched``)."""
        return cast(
            "Callable[..., list[SessionStore]] | None", self._field(adapter_type, SESSION_STORES)
        )

    def _field(self, adapter_type: str, field: str) -> Any:
        """One field of ``adapter_type``'s format: the loaded parser's, else imported alone."""
        if adapter_type == GENERIC_ADAPTER_TYPE:
            return None
        loaded = self._loaded.get(adapter_type)
        if loaded is not None:
            return None if loaded.is_fallback else getattr(loaded, field)
        with self._lock:
            return self._field_loader.field_locked(adapter_type, field)

    def reload(self, adapter_type: str | None = None) -> None:
        """Forget loads and failures (of one adapter type, or all) and rescan entry points.

        The next :meth:`load` imports again; a module that imported fine
        before stays in ``sys.modules`` and is not re-executed.
        """
        import importlib

        with self._lock:
            importlib.invalidate_caches()
            if adapter_type is None:
                self._loaded.clear()
                self._failed.clear()
                self._fields.clear()
            else:
                self._loaded.pop(adapter_type, None)
                self._failed.pop(adapter_type, None)
                self._fields.pop(adapter_type, None)
            self.call_failures.forget(adapter_type)
            self._claims = None

    # -- API equivalents of the environment variables -------------------------

    def disable(self, *names: str) -> None:
        """Disable adapter types or distributions (like ``LINEWISE_DISABLE``) before they load."""
        with self._lock:
            self._disabled = self._disabled | {_normal(n) for n in names}
            for name in names:
                self._loaded.pop(name, None)
                self._fields.pop(name, None)

    def only(self, *names: str) -> None:
        """Allow only these adapter types or distributions (like ``LINEWISE_ONLY``)."""
        with self._lock:
            self._only = frozenset(_normal(n) for n in names)
            self._loaded = {k: v for k, v in self._loaded.items() if _normal(k) in self._only}
            self._fields = {k: v for k, v in self._fields.items() if _normal(k) in self._only}

    def isolate(
        self,
        names: Iterable[str] | str | bool = True,
        *,
        line_timeout: float | None = None,
        worker_memory: int | None = None,
    ) -> None:
        """Run these adapter types or distributions (``True``: all) in worker processes.

        Like ``LINEWISE_ISOLATE``; the limits default to ``LINEWISE_LINE_TIMEOUT``
        and ``LINEWISE_WORKER_MEMORY`` (as the registry's settings had them).
        Parsers loaded before are loaded again.
        """
        policy = IsolationPolicy.build(
            names, line_timeout=line_timeout, worker_memory=worker_memory, settings=self.settings
        )
        with self._lock:
            self.isolation = policy
            self._loaded = {}
            self._failed = {}


def _claim_info(
    registry: Registry, candidate: Candidate, winner: Candidate | None, shadowed: list[Candidate]
) -> ParserInfo:
    """What ``registry`` says of one claim: its status, and why."""
    from dataclasses import replace

    from linewise.plugins.parser_info import ParserStatus, available_info

    decision = check_contract(candidate.requires, registry.host_contract)
    base = available_info(candidate, decision)
    disabled = registry._is_disabled(candidate)
    if disabled is not None:
        return replace(base, status=ParserStatus.DISABLED, reason=disabled)
    if candidate is not winner:
        assert winner is not None
        return replace(
            base,
            status=ParserStatus.SHADOWED,
            shadowed_by=winner.distribution,
            reason=f"{winner.distribution} also claims {candidate.adapter_type} and wins",
            hint="set LINEWISE_DISABLE to the winning distribution's name to use this one",
        )
    failure = registry._failed.get(candidate.adapter_type)
    if failure is not None:
        status = ParserStatus.INCOMPATIBLE if failure.stage == "contract" else ParserStatus.FAILED
        return replace(base, status=status, reason=failure.reason, hint=failure.hint)
    problem = static_problem(candidate, decision, registry.host_contract)
    if problem is not None:
        stage, reason, hint = problem
        status = ParserStatus.INCOMPATIBLE if stage == "contract" else ParserStatus.FAILED
        return replace(base, status=status, reason=reason, hint=hint)
    if shadowed:
        others = ", ".join(str(c.distribution) for c in shadowed)
        base = replace(base, reason=f"also claimed by {others} (shadowed)")
    problems = tuple(f.describe() for f in registry.call_failures.of(candidate.adapter_type))
    loaded = registry._loaded.get(candidate.adapter_type)
    if loaded is not None:
        return _loaded_info(base, loaded, candidate, problems)
    return replace(base, problems=problems)


def _loaded_info(
    base: ParserInfo, loaded: LoadedParser, candidate: Candidate, problems: tuple[str, ...]
) -> ParserInfo:
    from dataclasses import replace

    from linewise.plugins.parser_info import ParserStatus

    return replace(
        base,
        status=ParserStatus.LOADED,
        label=loaded.label or base.label,
        problems=problems,
        shape=_shape(loaded, candidate),
    )


def _shape(loaded: LoadedParser, candidate: Candidate) -> str | None:
    """ "agent" (contract 1.5), "exports" (1.x, deprecated), or None when not known here."""
    if loaded.agent is not None:
        return "agent"
    if loaded.isolated or loaded.is_fallback or candidate.kind != "python":
        return None
    return "exports"


def _claims_by_type(candidates: Iterable[Candidate]) -> dict[str, list[Candidate]]:
    """Each adapter type's claims, the winner first: first on sys.path, then name, version."""
    claims: dict[str, list[Candidate]] = {}
    for candidate in candidates:
        claims.setdefault(candidate.adapter_type, []).append(candidate)
    for group in claims.values():
        group.sort(key=lambda c: (c.path_rank, _normal(c.distribution or ""), c.version or ""))
    return claims


_default: Registry | None = None
_default_lock = threading.Lock()


def get_registry() -> Registry:
    """The process-wide registry (entry points are scanned once per process)."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                # The edge: the process's environment, read once for the process's registry.
                _default = Registry(settings=Settings.from_environment())
    return _default


def reset_registry() -> None:
    """Drop the process-wide registry; the next :func:`get_registry` rescans the environment."""
    global _default
    with _default_lock:
        _default = None
