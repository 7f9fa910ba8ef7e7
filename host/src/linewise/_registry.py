"""The registry: which parser serves each adapter type, loaded on first use; failures kept."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from importlib.metadata import EntryPoint
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from linewise_contracts._version import CONTRACT_VERSION
from linewise_contracts.exports import exports_problem, parser_problem
from linewise_contracts.protocols import (
    CHECK_ENVIRONMENT,
    CREATE_STDOUT_PARSER,
    FORMAT_STDOUT_LINE,
    PARSE_STDOUT_LINE,
    SNIFF,
    SUMMARIZE_RUN,
)

from linewise._discovery import (
    Candidate,
    adapter_type_problem,
    entry_point_value_problem,
    scan,
)
from linewise._gate import GateDecision, check_contract, contract_hint
from linewise._generic import GENERIC_ADAPTER_TYPE, GenericParser
from linewise._guard import (
    GuardedCall,
    GuardedFactory,
    GuardedFormatter,
    GuardedSniff,
    PluginCallFailure,
    PluginCallRecord,
    describe,
    guarded,
    is_import_failure,
    lookup,
    safe_repr,
)
from linewise._hooks import HookRelay
from linewise.errors import PluginLoadError, UnknownAdapterError

if TYPE_CHECKING:
    from linewise_contracts.entries import TranscriptEntry
    from linewise_contracts.environment import EnvironmentCheck
    from linewise_contracts.protocols import CompactLine, StdoutParser
    from linewise_contracts.summary import RunSummary

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

logger = logging.getLogger("linewise")

FailureStage: TypeAlias = Literal["entry point", "contract", "import", "exports"]


class ParserStatus(StrEnum):
    """Where an adapter type's plugin stands in this process."""

    AVAILABLE = "available"  # discovered, allowed, not imported yet
    LOADED = "loaded"  # imported and serving
    INCOMPATIBLE = "incompatible"  # refused by the contract gate; generic parser serves
    FAILED = "failed"  # failed to load; generic parser serves
    DISABLED = "disabled"  # switched off by LINEWISE_DISABLE / LINEWISE_ONLY or the API
    SHADOWED = "shadowed"  # another distribution won the same adapter type


@dataclass(frozen=True, slots=True)
class FailedLoad:
    """Why an adapter type is served by the generic parser instead of its plugin."""

    adapter_type: str
    distribution: str | None
    version: str | None
    stage: FailureStage
    reason: str
    hint: str
    error: BaseException | None = field(default=None, compare=False)

    def describe(self) -> str:
        """One line naming the plugin, what went wrong and what to do."""
        who = f"{self.distribution} {self.version}" if self.distribution else "unknown distribution"
        return f"{self.adapter_type} ({who}): {self.reason}. {self.hint}"


@dataclass(frozen=True, slots=True)
class ParserInfo:
    """What a host app can know about one discovered parser, without importing it."""

    adapter_type: str
    status: ParserStatus
    label: str | None = None
    distribution: str | None = None
    version: str | None = None
    entry_point: str | None = None
    contract: str | None = None
    contract_verdict: str | None = None
    reason: str | None = None
    hint: str | None = None
    shadowed_by: str | None = None
    builtin: bool = False
    #: What went wrong calling a loaded plugin in this process (a metadata lookup, a
    #: sniffer, a factory...), one line each, oldest first.
    problems: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (camelCase keys, like the entries)."""
        return {
            "adapterType": self.adapter_type,
            "status": self.status.value,
            "label": self.label,
            "distribution": self.distribution,
            "version": self.version,
            "entryPoint": self.entry_point,
            "contract": self.contract,
            "contractVerdict": self.contract_verdict,
            "reason": self.reason,
            "hint": self.hint,
            "shadowedBy": self.shadowed_by,
            "builtin": self.builtin,
            "problems": list(self.problems),
        }


class _StaticParser:
    """A static ``parse_stdout_line`` in the stateful parser shape."""

    __slots__ = ("parse_line",)

    def __init__(self, parse: Callable[[str, str], list[TranscriptEntry]]) -> None:
        self.parse_line = parse

    def reset(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class PluginExports:
    """A loaded plugin's optional exports, each behind the guard; None when it has none.

    The attributes carry the contract's export names, so ``getattr(exports,
    SNIFF)`` works. ``sniff`` and ``format_stdout_line`` never raise (a failure
    is recorded and gives 0, or the line shown plain); ``summarize_run`` and
    ``check_environment`` raise :class:`~linewise._guard.PluginCallError`
    (an ``Exception``) for whatever the plugin raised.
    """

    sniff: Callable[[Sequence[str]], float | None] | None = None
    summarize_run: Callable[[Iterable[str]], RunSummary] | None = None
    check_environment: Callable[..., list[EnvironmentCheck]] | None = None
    format_stdout_line: Callable[[str], list[CompactLine]] | None = None


@dataclass(frozen=True, slots=True)
class LoadedParser:
    """A parser ready to serve an adapter type: the plugin's, or the generic one standing in.

    ``new_parser()`` returns a fresh parser for one transcript (the plugin's
    stateful factory when it exports one, which wins over its static function);
    it raises :class:`~linewise._guard.PluginCallError` (an ``Exception``)
    whatever the plugin's factory raised. ``fallback_reason`` is set when the
    generic parser stands in for a plugin. Every plugin callable handed out
    here goes through the guard (see :mod:`linewise._guard`); ``target`` holds
    the same guarded optional exports as :class:`PluginExports`, never the
    plugin's own module.
    """

    adapter_type: str
    new_parser: Callable[[], StdoutParser]
    stateful: bool
    label: str | None = None
    models: tuple[Mapping[str, Any], ...] = ()
    agent_configuration_doc: str | None = None
    summarize_run: Callable[[Iterable[str]], RunSummary] | None = None
    fallback_reason: str | None = None
    target: PluginExports | None = None
    sniff: Callable[[Sequence[str]], float | None] | None = None
    check_environment: Callable[..., list[EnvironmentCheck]] | None = None
    format_stdout_line: Callable[[str], list[CompactLine]] | None = None

    @property
    def is_fallback(self) -> bool:
        """True when the generic parser serves this adapter type."""
        return self.fallback_reason is not None


def _generic(adapter_type: str, reason: str | None) -> LoadedParser:
    return LoadedParser(
        adapter_type=adapter_type,
        new_parser=GenericParser,
        stateful=False,
        label="Generic (raw stdout)" if reason is None else None,
        fallback_reason=reason,
    )


def _split_names(value: str | None) -> frozenset[str]:
    if not value:
        return frozenset()
    return frozenset(_normal(part) for part in value.split(",") if part.strip())


def _normal(name: str) -> str:
    # Adapter types and distribution names compared case- and separator-blind.
    return name.strip().lower().replace("-", "_").replace(".", "_")


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


class Registry:
    """Every parser plugin of an environment, discovered once and imported on first use.

    ``disable`` and ``only`` name adapter types or distributions; they default
    to the comma-separated ``LINEWISE_DISABLE`` and ``LINEWISE_ONLY``
    variables. ``strict`` (default ``LINEWISE_STRICT=1``) turns load failures
    and parser exceptions into exceptions. ``entry_points`` replaces the
    environment's ``linewise.parsers`` group.
    """

    def __init__(
        self,
        *,
        disable: Iterable[str] | None = None,
        only: Iterable[str] | None = None,
        strict: bool | None = None,
        entry_points: Iterable[EntryPoint] | None = None,
        host_contract: str = CONTRACT_VERSION,
    ) -> None:
        self._disabled = (
            _split_names(os.environ.get("LINEWISE_DISABLE"))
            if disable is None
            else frozenset(_normal(n) for n in disable)
        )
        only_env = os.environ.get("LINEWISE_ONLY") if only is None else None
        self._only: frozenset[str] | None = (
            (_split_names(only_env) if only_env and only_env.strip() else None)
            if only is None
            else frozenset(_normal(n) for n in only)
        )
        self.strict = _env_flag("LINEWISE_STRICT") if strict is None else strict
        self.host_contract = host_contract
        self.hooks = HookRelay()
        self.call_failures = PluginCallRecord(self.hooks.plugin_call_failed)
        self._points = None if entry_points is None else list(entry_points)
        self._lock = threading.RLock()
        self._claims: dict[str, list[Candidate]] | None = None
        self._skipped: list[str] = []
        self._loaded: dict[str, LoadedParser] = {}
        self._failed: dict[str, FailedLoad] = {}

    # -- discovery -----------------------------------------------------------

    def _by_type(self) -> dict[str, list[Candidate]]:
        if self._claims is None:
            with self._lock:
                if self._claims is None:
                    claims: dict[str, list[Candidate]] = {}
                    found = scan(self._points)
                    self._skipped = found.skipped
                    for candidate in found.candidates:
                        claims.setdefault(candidate.adapter_type, []).append(candidate)
                    for group in claims.values():
                        # Deterministic winner: first on sys.path, then by name, then version.
                        group.sort(
                            key=lambda c: (
                                c.path_rank,
                                _normal(c.distribution or ""),
                                c.version or "",
                            )
                        )
                    self._claims = claims
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
                infos.append(self._info(candidate, winner, shadowed))
        return infos

    def info(self, adapter_type: str) -> ParserInfo:
        """The :class:`ParserInfo` of the claim that serves (or would serve) ``adapter_type``."""
        if adapter_type == GENERIC_ADAPTER_TYPE:
            return self.parsers()[0]
        group = self._by_type().get(adapter_type)
        if not group:
            raise unknown_adapter(adapter_type, self.adapter_types)
        winner, shadowed, _ = self._contenders(adapter_type)
        return self._info(winner or group[0], winner, shadowed)

    def _info(
        self, candidate: Candidate, winner: Candidate | None, shadowed: list[Candidate]
    ) -> ParserInfo:
        decision = check_contract(candidate.requires, self.host_contract)
        base = ParserInfo(
            adapter_type=candidate.adapter_type,
            status=ParserStatus.AVAILABLE,
            label=candidate.summary,
            distribution=candidate.distribution,
            version=candidate.version,
            entry_point=candidate.value,
            contract=decision.declared,
            contract_verdict=decision.verdict,
            reason=decision.reason if decision.verdict == "undeclared" else None,
        )
        disabled = self._is_disabled(candidate)
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
        failure = self._failed.get(candidate.adapter_type)
        if failure is not None:
            status = (
                ParserStatus.INCOMPATIBLE if failure.stage == "contract" else ParserStatus.FAILED
            )
            return replace(base, status=status, reason=failure.reason, hint=failure.hint)
        problem = self._static_problem(candidate, decision)
        if problem is not None:
            stage, reason, hint = problem
            status = ParserStatus.INCOMPATIBLE if stage == "contract" else ParserStatus.FAILED
            return replace(base, status=status, reason=reason, hint=hint)
        if shadowed:
            others = ", ".join(str(c.distribution) for c in shadowed)
            base = replace(base, reason=f"also claimed by {others} (shadowed)")
        problems = tuple(f.describe() for f in self.call_failures.of(candidate.adapter_type))
        loaded = self._loaded.get(candidate.adapter_type)
        if loaded is not None:
            return replace(
                base,
                status=ParserStatus.LOADED,
                label=loaded.label or base.label,
                problems=problems,
            )
        return replace(base, problems=problems)

    def _static_problem(
        self, candidate: Candidate, decision: GateDecision
    ) -> tuple[FailureStage, str, str] | None:
        """What is wrong with a claim that metadata alone reveals."""
        problem = adapter_type_problem(candidate.adapter_type)
        if problem is None and candidate.adapter_type == GENERIC_ADAPTER_TYPE:
            problem = f"adapter type {GENERIC_ADAPTER_TYPE!r} is reserved for the built-in parser"
        if problem is not None:
            return ("entry point", problem, "rename the entry point in the plugin's pyproject.toml")
        problem = entry_point_value_problem(candidate.value)
        if problem is not None:
            return ("entry point", problem, "fix the entry point in the plugin's pyproject.toml")
        if not decision.loads:
            hint = contract_hint(decision, candidate.distribution, self.host_contract)
            return ("contract", decision.reason, hint)
        return None

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
            return _generic(GENERIC_ADAPTER_TYPE, None)
        loaded = self._loaded.get(adapter_type)
        if loaded is not None:
            return loaded
        with self._lock:
            return self._load_locked(adapter_type)

    def _load_locked(self, adapter_type: str) -> LoadedParser:
        loaded = self._loaded.get(adapter_type)
        if loaded is not None:
            return loaded
        failure = self._failed.get(adapter_type)
        if failure is not None:
            return _generic(adapter_type, failure.describe())
        if adapter_type not in self._by_type():
            raise unknown_adapter(adapter_type, self.adapter_types)
        winner, shadowed, disabled = self._contenders(adapter_type)
        if winner is None:
            return _generic(adapter_type, disabled or "disabled")
        if shadowed:
            logger.warning(
                "%s is claimed by %s and by %s; using %s (first on sys.path)",
                adapter_type,
                winner.distribution,
                ", ".join(str(c.distribution) for c in shadowed),
                winner.distribution,
            )
        decision = check_contract(winner.requires, self.host_contract)
        problem = self._static_problem(winner, decision)
        if problem is not None:
            return self._fail(winner, *problem)
        if decision.verdict == "undeclared":
            logger.info(
                "%s (%s) declares no linewise-contracts range; loading it (grace period)",
                adapter_type,
                winner.distribution,
            )
        target, error = _import(winner.entry_point)
        if error is not None:
            return self._import_failed(winner, error)
        adopted, error = guarded(self._adopt, winner, target)
        if isinstance(error, PluginLoadError):
            raise error  # strict mode: _adopt already recorded the failure
        if error is not None:
            # Anything the checks of the exports let through (a hostile __signature__, say).
            return self._fail(
                winner, "exports", f"checking the exports raised {describe(error)}", _HINT, error
            )
        assert adopted is not None
        return adopted

    def _import_failed(self, winner: Candidate, error: BaseException) -> LoadedParser:
        if isinstance(error, SystemExit):
            reason = f"called sys.exit({safe_repr(error.code)}) at import"
            return self._fail(winner, "import", reason, _IMPORT_HINT, error)
        if isinstance(error, ImportError):
            return self._fail(
                winner,
                "import",
                f"import failed: {describe(error)}",
                "check that the distribution is completely installed and its dependencies too "
                f"(pip install --force-reinstall {winner.distribution})",
                error,
            )
        if isinstance(error, AttributeError):
            return self._fail(
                winner,
                "exports",
                f"entry point target not found: {describe(error).removeprefix('AttributeError: ')}",
                "fix the attribute named after ':' in the entry point",
                error,
            )
        return self._fail(
            winner, "import", f"raised at import: {describe(error)}", _IMPORT_HINT, error
        )

    def _adopt(self, candidate: Candidate, target: object) -> LoadedParser:
        who = candidate.adapter_type
        record = self.call_failures
        lookups: list[tuple[str, str]] = []

        def export(name: str) -> object:
            value, problem = lookup(target, name)
            if problem is not None:
                lookups.append((name, problem))
            return value

        try:
            return self._adopt_exports(candidate, export)
        finally:
            if lookups:
                # One record (and one warning) for every lookup that raised.
                reason = lookups[0][1]
                if len(lookups) > 1:
                    others = ", ".join(repr(name) for name, _ in lookups[1:])
                    reason += f"; so did looking up {others}"
                reason += "; getattr must raise AttributeError for a name the plugin lacks"
                record.add(PluginCallFailure(who, "exports", reason))

    def _adopt_exports(self, candidate: Candidate, export: Callable[[str], object]) -> LoadedParser:
        who = candidate.adapter_type
        record = self.call_failures

        factory = export(CREATE_STDOUT_PARSER)
        static = export(PARSE_STDOUT_LINE)
        problem = exports_problem(factory, static)
        if problem is not None:
            return self._fail(candidate, "exports", *problem)
        new_parser: GuardedFactory
        if factory is not None:
            new_parser = GuardedFactory(
                who, f"{CREATE_STDOUT_PARSER}()", cast("Callable[[], object]", factory), record
            )
            probe, error = guarded(factory)  # type: ignore[arg-type]
            if error is not None:
                return self._fail(
                    candidate,
                    "exports",
                    f"{CREATE_STDOUT_PARSER}() raised {describe(error)}",
                    f"{CREATE_STDOUT_PARSER}() must return a parser without side effects or errors",
                    error,
                )
            broken = parser_problem(lambda: probe)
            if broken is not None:
                return self._fail(candidate, "exports", *broken)
        else:
            assert static is not None
            parse = cast("Callable[[str, str], list[TranscriptEntry]]", static)
            new_parser = GuardedFactory(who, PARSE_STDOUT_LINE, _static_factory(parse), record)
        exports = PluginExports(
            sniff=_optional(export, SNIFF, who, record, GuardedSniff),
            summarize_run=_optional(export, SUMMARIZE_RUN, who, record, GuardedCall),
            check_environment=_optional(export, CHECK_ENVIRONMENT, who, record, GuardedCall),
            format_stdout_line=_optional(export, FORMAT_STDOUT_LINE, who, record, GuardedFormatter),
        )
        loaded = LoadedParser(
            adapter_type=candidate.adapter_type,
            new_parser=new_parser,
            stateful=factory is not None,
            label=_metadata_str(export("label")) or candidate.summary,
            models=_metadata_models(export("models")),
            agent_configuration_doc=_metadata_str(export("agent_configuration_doc")),
            summarize_run=exports.summarize_run,
            target=exports,
            sniff=exports.sniff,
            check_environment=exports.check_environment,
            format_stdout_line=exports.format_stdout_line,
        )
        self._loaded[candidate.adapter_type] = loaded
        self.hooks.parser_loaded(self.info(candidate.adapter_type))
        return loaded

    def _fail(
        self,
        candidate: Candidate,
        stage: FailureStage,
        reason: str,
        hint: str,
        error: BaseException | None = None,
    ) -> LoadedParser:
        failure = FailedLoad(
            adapter_type=candidate.adapter_type,
            distribution=candidate.distribution,
            version=candidate.version,
            stage=stage,
            reason=reason,
            hint=hint,
            error=error,
        )
        self._failed[candidate.adapter_type] = failure
        logger.warning("%s; using the generic parser", failure.describe())
        self.hooks.parser_failed(failure)
        if self.strict:
            raise PluginLoadError(failure) from error
        return _generic(candidate.adapter_type, failure.describe())

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
            else:
                self._loaded.pop(adapter_type, None)
                self._failed.pop(adapter_type, None)
            self.call_failures.forget(adapter_type)
            self._claims = None

    # -- API equivalents of the environment variables -------------------------

    def disable(self, *names: str) -> None:
        """Disable adapter types or distributions (like ``LINEWISE_DISABLE``) before they load."""
        with self._lock:
            self._disabled = self._disabled | {_normal(n) for n in names}
            for name in names:
                self._loaded.pop(name, None)

    def only(self, *names: str) -> None:
        """Allow only these adapter types or distributions (like ``LINEWISE_ONLY``)."""
        with self._lock:
            self._only = frozenset(_normal(n) for n in names)
            self._loaded = {k: v for k, v in self._loaded.items() if _normal(k) in self._only}


_IMPORT_HINT = (
    "a parser module must only define functions at import; import it in Python to see the traceback"
)


def _static_factory(
    static: Callable[[str, str], list[TranscriptEntry]],
) -> Callable[[], StdoutParser]:
    def new_parser() -> StdoutParser:
        return _StaticParser(static)

    return new_parser


_HINT = "a plugin's exports must be plain functions; run `linewise check` on it to see more"


def _import(point: EntryPoint) -> tuple[object, BaseException | None]:
    """The entry point's target, or what its import raised.

    At import even a KeyboardInterrupt is the plugin's failure: see
    :func:`linewise._guard.is_import_failure`.
    """
    try:
        return point.load(), None
    except BaseException as error:  # whatever a plugin raises at import
        if not is_import_failure(error):  # pragma: no cover - true for every exception
            raise
        return None, error


def unknown_adapter(adapter_type: str, known: list[str]) -> UnknownAdapterError:
    """An :class:`UnknownAdapterError` whose message suggests a close name or what to install."""
    return UnknownAdapterError(adapter_type, known)


def _optional(
    export: Callable[[str], object],
    name: str,
    who: str,
    record: PluginCallRecord,
    kind: type[GuardedCall] | type[GuardedSniff] | type[GuardedFormatter],
) -> Any:
    """An optional export behind the guard, or None when absent or not callable (recorded)."""
    value = export(name)
    if value is None:
        return None
    if not callable(value):
        record.add(PluginCallFailure(who, name, f"is a {type(value).__name__}, not callable"))
        return None
    return kind(who, name, value, record)


def _metadata_str(value: object) -> str | None:
    return value if type(value) is str and value.strip() else None


def _metadata_models(value: object) -> tuple[Mapping[str, Any], ...]:
    if type(value) not in (list, tuple):
        return ()
    return tuple(
        dict(item)
        for item in value  # type: ignore[attr-defined]
        if type(item) is dict and type(item.get("id")) is str
    )


_default: Registry | None = None
_default_lock = threading.Lock()


def get_registry() -> Registry:
    """The process-wide registry (entry points are scanned once per process)."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = Registry()
    return _default


def reset_registry() -> None:
    """Drop the process-wide registry; the next :func:`get_registry` rescans the environment."""
    global _default
    with _default_lock:
        _default = None
