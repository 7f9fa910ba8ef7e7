"""Loading one plugin: import its entry point, check and guard its exports, or record why not."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from linewise_contracts.exports import exports_problem, parser_problem
from linewise_contracts.protocols import (
    CHECK_ENVIRONMENT,
    CREATE_STDOUT_PARSER,
    FORMAT_ENTRIES,
    FORMAT_STDOUT_LINE,
    PARSE_STDOUT_LINE,
    SESSION_KEYS,
    SESSION_RECORDS,
    SESSION_STORES,
    SNIFF,
    SUMMARIZE_RUN,
)

from linewise.plugins.candidate import Candidate
from linewise.plugins.discovery import adapter_type_problem, entry_point_value_problem
from linewise.plugins.gate import GateDecision, check_contract, contract_hint
from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.guard import (
    GuardedCall,
    GuardedEntryFormatter,
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
from linewise.plugins.loaded import (
    LoadedParser,
    PluginExports,
    generic_loaded,
    metadata_models,
    metadata_str,
)
from linewise.settings.errors import JavaScriptLoadError, PluginLoadError
from linewise.settings.logs import logger

if TYPE_CHECKING:
    from linewise_contracts.agent import Format
    from linewise_contracts.entries import TranscriptEntry
    from linewise_contracts.protocols import StdoutParser

    from linewise.plugins.failed_load import FailureStage
    from linewise.plugins.registry import Registry
    from linewise.settings.environment import Settings


class _StaticParser:
    """A static ``parse_stdout_line`` in the stateful parser shape."""

    __slots__ = ("parse_line",)

    def __init__(self, parse: Callable[[str, str], list[TranscriptEntry]]) -> None:
        self.parse_line = parse

    def reset(self) -> None:
        return None


def static_problem(
    candidate: Candidate, decision: GateDecision, host_contract: str
) -> tuple[FailureStage, str, str] | None:
    """What is wrong with a claim that metadata alone reveals: (stage, reason, hint), or None."""
    problem = adapter_type_problem(candidate.adapter_type)
    if problem is None and candidate.adapter_type == GENERIC_ADAPTER_TYPE:
        problem = f"adapter type {GENERIC_ADAPTER_TYPE!r} is reserved for the built-in parser"
    if problem is not None:
        return ("entry point", problem, "rename the entry point in the plugin's pyproject.toml")
    problem = entry_point_value_problem(candidate.value)
    if problem is not None:
        return ("entry point", problem, "fix the entry point in the plugin's pyproject.toml")
    if not decision.loads:
        hint = contract_hint(decision, candidate.distribution, host_contract)
        return ("contract", decision.reason, hint)
    return None


class PluginLoader:
    """Imports the winning claim of an adapter type for a :class:`.registry.Registry`.

    It records loads and failures in the registry's maps and reports them on
    its hooks; the registry holds the lock while :meth:`load_locked` runs.
    """

    def __init__(self, registry: Registry) -> None:
        self._registry = registry

    def load_locked(self, adapter_type: str) -> LoadedParser:
        loaded = self._registry._loaded.get(adapter_type)
        if loaded is not None:
            return loaded
        # Gated already when its sniff was imported: said once what the gate had to say.
        winner = self._gated(adapter_type, quiet=adapter_type in self._registry._fields)
        if isinstance(winner, LoadedParser):
            return winner
        return self._load_winner(winner)

    def _load_winner(self, winner: Candidate) -> LoadedParser:
        # JavaScript parsers run in their engine's sandbox already.
        isolated = self._registry.isolation.covers(winner.adapter_type, winner.distribution)
        if isolated and winner.kind != "javascript":
            return self._load_isolated(winner)
        if winner.kind == "javascript":
            target, error = _import(partial(_javascript, winner, self._registry.settings))
        else:
            target, error = _import(winner.entry_point.load)
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

    def _gated(self, adapter_type: str, *, quiet: bool = False) -> Candidate | LoadedParser:
        """The claim of ``adapter_type`` that may load, or the fallback parser when none may
        (a failure recorded before, a disabled type, a refused contract range); ``quiet``
        when the gate's warnings were given already."""
        failure = self._registry._failed.get(adapter_type)
        if failure is not None:
            return generic_loaded(adapter_type, failure.describe())
        if adapter_type not in self._registry._by_type():
            from linewise.plugins.suggest import unknown_adapter  # a mistyped name only

            raise unknown_adapter(adapter_type, self._registry.adapter_types)
        winner, shadowed, disabled = self._registry._contenders(adapter_type)
        if winner is None:
            return generic_loaded(adapter_type, disabled or "disabled")
        if shadowed and not quiet:
            logger.warning(
                "%s is claimed by %s and by %s; using %s (first on sys.path)",
                adapter_type,
                winner.distribution,
                ", ".join(str(c.distribution) for c in shadowed),
                winner.distribution,
            )
        decision = check_contract(winner.requires, self._registry.host_contract)
        problem = static_problem(winner, decision, self._registry.host_contract)
        if problem is not None:
            return self._fail(winner, *problem)
        if decision.verdict == "undeclared" and not quiet:
            logger.info(
                "%s (%s) declares no linewise-contracts range; loading it (grace period)",
                adapter_type,
                winner.distribution,
            )
        return winner

    def _load_isolated(self, winner: Candidate) -> LoadedParser:
        from linewise.plugins.isolation._load import load_isolated

        registry = self._registry
        result = load_isolated(
            winner.adapter_type,
            winner.value,
            registry.isolation,
            registry.call_failures,
            fallback_label=winner.summary,
        )
        if isinstance(result, tuple):
            stage, reason, hint = result
            return self._fail(winner, cast("FailureStage", stage), reason, hint)
        registry._loaded[winner.adapter_type] = result
        if registry.hooks.listens("linewise_parser_loaded"):
            registry.hooks.parser_loaded(registry.info(winner.adapter_type))
        return result

    def _import_failed(self, winner: Candidate, error: BaseException) -> LoadedParser:
        return self._fail(winner, *_import_failure(winner, error), error)

    def _adopt(self, candidate: Candidate, target: object) -> LoadedParser:
        who = candidate.adapter_type
        record = self._registry.call_failures
        agent: str | None = None
        if type(target).__module__ == _DECLARED_MODULE:
            # Contract 1.5: a Format of a declared Agent. Its fields carry the 1.x export
            # names, so the lookups below read it as they read a module.
            refused = declared_problem(target, who)
            if refused is not None:
                stage, reason, hint, error = refused
                return self._fail(candidate, stage, reason, hint, error)
            agent = cast("Format", target).agent.name
        lookups: list[tuple[str, str]] = []

        def export(name: str) -> object:
            value, problem = lookup(target, name)
            if problem is not None:
                lookups.append((name, problem))
            return value

        try:
            return self._adopt_exports(candidate, export, agent)
        finally:
            if lookups:
                # One record (and one warning) for every lookup that raised.
                reason = lookups[0][1]
                if len(lookups) > 1:
                    others = ", ".join(repr(name) for name, _ in lookups[1:])
                    reason += f"; so did looking up {others}"
                reason += "; getattr must raise AttributeError for a name the plugin lacks"
                record.add(PluginCallFailure(who, "exports", reason))

    def _adopt_exports(
        self, candidate: Candidate, export: Callable[[str], object], agent: str | None
    ) -> LoadedParser:
        who = candidate.adapter_type
        record = self._registry.call_failures

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
            session_stores=_optional(export, SESSION_STORES, who, record, GuardedCall),
            session_records=_optional(export, SESSION_RECORDS, who, record, GuardedCall),
            session_keys=_optional(export, SESSION_KEYS, who, record, GuardedCall),
            # Contract 1.7, a declared format's field only: no 1.x module export of the name.
            format_entries=(
                _optional(export, FORMAT_ENTRIES, who, record, GuardedEntryFormatter)
                if agent is not None
                else None
            ),
        )
        loaded = LoadedParser(
            adapter_type=candidate.adapter_type,
            new_parser=new_parser,
            stateful=factory is not None,
            label=metadata_str(export("label")) or candidate.summary,
            models=metadata_models(export("models")),
            agent_configuration_doc=metadata_str(export("agent_configuration_doc")),
            summarize_run=exports.summarize_run,
            target=exports,
            sniff=exports.sniff,
            check_environment=exports.check_environment,
            format_stdout_line=exports.format_stdout_line,
            session_stores=exports.session_stores,
            session_records=exports.session_records,
            session_keys=exports.session_keys,
            agent=agent,
            format_entries=exports.format_entries,
        )
        if agent is None:
            logger.info(
                "%s (%s) uses contract 1.x loose exports, deprecated: read until contract 2.0",
                who,
                candidate.distribution,
            )
        self._registry._loaded[candidate.adapter_type] = loaded
        if self._registry.hooks.listens("linewise_parser_loaded"):  # built for a listener only
            self._registry.hooks.parser_loaded(self._registry.info(candidate.adapter_type))
        return loaded

    def _fail(
        self,
        candidate: Candidate,
        stage: FailureStage,
        reason: str,
        hint: str,
        error: BaseException | None = None,
    ) -> LoadedParser:
        from linewise.plugins.failed_load import FailedLoad

        failure = FailedLoad(
            adapter_type=candidate.adapter_type,
            distribution=candidate.distribution,
            version=candidate.version,
            stage=stage,
            reason=reason,
            hint=hint,
            error=error,
        )
        self._registry._failed[candidate.adapter_type] = failure
        logger.warning("%s; using the generic parser", failure.describe())
        self._registry.hooks.parser_failed(failure)
        if self._registry.strict:
            raise PluginLoadError(failure) from error
        return generic_loaded(candidate.adapter_type, failure.describe())


_IMPORT_HINT = (
    "a parser module must only define functions at import; import it in Python to see the traceback"
)


def _import_failure(winner: Candidate, error: BaseException) -> tuple[FailureStage, str, str]:
    """(stage, reason, hint) of an entry point whose import raised ``error``."""
    if isinstance(error, JavaScriptLoadError):
        return error.stage, error.reason, error.hint
    if isinstance(error, SystemExit):
        return "import", f"called sys.exit({safe_repr(error.code)}) at import", _IMPORT_HINT
    if isinstance(error, ImportError):
        hint = (
            "check that the distribution is completely installed and its dependencies too "
            f"(pip install --force-reinstall {winner.distribution})"
        )
        return "import", f"import failed: {describe(error)}", hint
    if isinstance(error, AttributeError):
        missing = describe(error).removeprefix("AttributeError: ")
        hint = "fix the attribute named after ':' in the entry point"
        return "exports", f"entry point target not found: {missing}", hint
    return "import", f"raised at import: {describe(error)}", _IMPORT_HINT


def _static_factory(
    static: Callable[[str, str], list[TranscriptEntry]],
) -> Callable[[], StdoutParser]:
    def new_parser() -> StdoutParser:
        return _StaticParser(static)

    return new_parser


_DECLARED_MODULE = "linewise_contracts.agent"
_REFERENCE_HINT = (
    "each 'module:attribute' reference of a Format must name an importable callable; "
    "run `linewise check` on the plugin to see more"
)


def declared_problem(
    target: object, adapter_type: str, *, field: str | None = None
) -> tuple[FailureStage, str, str, BaseException | None] | None:
    """Why a declared Format (or Agent) cannot serve ``adapter_type``: checked, and its
    references imported (only ``field``'s when given), through the guard; None when it can."""
    from linewise_contracts.agent import format_problem

    problem, error = guarded(format_problem, target, adapter_type)
    if error is not None:
        return ("exports", f"checking the declared format raised {describe(error)}", _HINT, error)
    if problem is not None:
        return ("exports", problem[0], problem[1], None)
    declared = cast("Format", target)
    _, error = guarded(declared.resolve if field is None else partial(getattr, declared, field))
    if error is not None:
        return ("import", describe(error), _REFERENCE_HINT, error)
    return None


_HINT = "a plugin's exports must be plain functions; run `linewise check` on it to see more"


def _javascript(candidate: Candidate, settings: Settings) -> object:
    """A JavaScript registration's target, with the limits ``settings`` give its engine."""
    from linewise.plugins.javascript.registered import load_target

    return load_target(candidate.adapter_type, settings)


def _import(load: Callable[[], object]) -> tuple[object, BaseException | None]:
    """The target ``load`` imports (an entry point's), or what its import raised.

    At import even a KeyboardInterrupt is the plugin's failure: see
    :func:`linewise.plugins.guard.is_import_failure`.
    """
    try:
        return load(), None
    except BaseException as error:  # whatever a plugin raises at import
        if not is_import_failure(error):  # pragma: no cover - true for every exception
            raise
        return None, error


def _optional(
    export: Callable[[str], object],
    name: str,
    who: str,
    record: PluginCallRecord,
    kind: type[GuardedCall]
    | type[GuardedSniff]
    | type[GuardedFormatter]
    | type[GuardedEntryFormatter],
) -> Any:
    """An optional export behind the guard, or None when absent or not callable (recorded)."""
    value = export(name)
    if value is None:
        return None
    if not callable(value):
        record.add(PluginCallFailure(who, name, f"is a {type(value).__name__}, not callable"))
        return None
    return kind(who, name, value, record)
