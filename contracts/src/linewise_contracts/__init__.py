"""linewise-contracts: the adapter parser contract every linewise plugin implements."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from linewise_contracts._version import CONTRACT_VERSION, __version__

if TYPE_CHECKING:
    from linewise_contracts.agent import Agent, Format
    from linewise_contracts.entries import (
        DIFF_CHANGE_TYPES,
        ENTRY_KINDS,
        AssistantEntry,
        DiffChangeType,
        DiffEntry,
        EntryKind,
        InitEntry,
        JsonValue,
        ResultEntry,
        StderrEntry,
        StdoutEntry,
        SystemEntry,
        ThinkingEntry,
        ToolCallEntry,
        ToolResultEntry,
        TranscriptEntry,
        UserEntry,
    )
    from linewise_contracts.environment import (
        CheckLevel,
        CheckStatus,
        EnvironmentCheck,
        command_check,
        overall_status,
        variable_check,
    )
    from linewise_contracts.outcomes import OUTCOMES, Outcome
    from linewise_contracts.protocols import (
        CHECK_ENVIRONMENT,
        CREATE_STDOUT_PARSER,
        ENTRY_POINT_GROUP,
        METADATA_NAMES,
        PARSE_STDOUT_LINE,
        SNIFF,
        SUMMARIZE_RUN,
        ModelOption,
        ParseStdoutLine,
        StdoutParser,
        StdoutParserFactory,
    )
    from linewise_contracts.schema import load_entry_schema
    from linewise_contracts.sessions import (
        SESSION_KEYS,
        SESSION_RECORDS,
        SESSION_STORES,
        SessionStore,
    )
    from linewise_contracts.summary import COST_SOURCES, RunSummary, Usage
    from linewise_contracts.usage import TokenUsage
    from linewise_contracts.validation import (
        InvalidEntryError,
        entry_problem,
        is_valid_entry,
        validate_entry,
    )

# Public names and their modules, imported on first access: a host that only
# needs the contract version or the validator does not pay for the rest.
_EXPORTS = {
    "Agent": "linewise_contracts.agent",
    "Format": "linewise_contracts.agent",
    "DIFF_CHANGE_TYPES": "linewise_contracts.entries",
    "ENTRY_KINDS": "linewise_contracts.entries",
    "AssistantEntry": "linewise_contracts.entries",
    "DiffChangeType": "linewise_contracts.entries",
    "DiffEntry": "linewise_contracts.entries",
    "EntryKind": "linewise_contracts.entries",
    "InitEntry": "linewise_contracts.entries",
    "JsonValue": "linewise_contracts.entries",
    "ResultEntry": "linewise_contracts.entries",
    "StderrEntry": "linewise_contracts.entries",
    "StdoutEntry": "linewise_contracts.entries",
    "SystemEntry": "linewise_contracts.entries",
    "ThinkingEntry": "linewise_contracts.entries",
    "ToolCallEntry": "linewise_contracts.entries",
    "ToolResultEntry": "linewise_contracts.entries",
    "TranscriptEntry": "linewise_contracts.entries",
    "UserEntry": "linewise_contracts.entries",
    "CheckLevel": "linewise_contracts.environment",
    "CheckStatus": "linewise_contracts.environment",
    "EnvironmentCheck": "linewise_contracts.environment",
    "command_check": "linewise_contracts.environment",
    "overall_status": "linewise_contracts.environment",
    "variable_check": "linewise_contracts.environment",
    "CREATE_STDOUT_PARSER": "linewise_contracts.protocols",
    "ENTRY_POINT_GROUP": "linewise_contracts.protocols",
    "METADATA_NAMES": "linewise_contracts.protocols",
    "PARSE_STDOUT_LINE": "linewise_contracts.protocols",
    "SUMMARIZE_RUN": "linewise_contracts.protocols",
    "SNIFF": "linewise_contracts.protocols",
    "CHECK_ENVIRONMENT": "linewise_contracts.protocols",
    "ModelOption": "linewise_contracts.protocols",
    "ParseStdoutLine": "linewise_contracts.protocols",
    "StdoutParser": "linewise_contracts.protocols",
    "StdoutParserFactory": "linewise_contracts.protocols",
    "load_entry_schema": "linewise_contracts.schema",
    "SESSION_KEYS": "linewise_contracts.sessions",
    "SESSION_RECORDS": "linewise_contracts.sessions",
    "SESSION_STORES": "linewise_contracts.sessions",
    "SessionStore": "linewise_contracts.sessions",
    "OUTCOMES": "linewise_contracts.outcomes",
    "Outcome": "linewise_contracts.outcomes",
    "COST_SOURCES": "linewise_contracts.summary",
    "RunSummary": "linewise_contracts.summary",
    "TokenUsage": "linewise_contracts.usage",
    "Usage": "linewise_contracts.summary",
    "InvalidEntryError": "linewise_contracts.validation",
    "entry_problem": "linewise_contracts.validation",
    "is_valid_entry": "linewise_contracts.validation",
    "validate_entry": "linewise_contracts.validation",
}

__all__ = [
    "CHECK_ENVIRONMENT",
    "CONTRACT_VERSION",
    "COST_SOURCES",
    "CREATE_STDOUT_PARSER",
    "DIFF_CHANGE_TYPES",
    "ENTRY_KINDS",
    "ENTRY_POINT_GROUP",
    "METADATA_NAMES",
    "OUTCOMES",
    "PARSE_STDOUT_LINE",
    "SESSION_KEYS",
    "SESSION_RECORDS",
    "SESSION_STORES",
    "SNIFF",
    "SUMMARIZE_RUN",
    "Agent",
    "AssistantEntry",
    "CheckLevel",
    "CheckStatus",
    "DiffChangeType",
    "DiffEntry",
    "EntryKind",
    "EnvironmentCheck",
    "Format",
    "InitEntry",
    "InvalidEntryError",
    "JsonValue",
    "ModelOption",
    "Outcome",
    "ParseStdoutLine",
    "ResultEntry",
    "RunSummary",
    "SessionStore",
    "StderrEntry",
    "StdoutEntry",
    "StdoutParser",
    "StdoutParserFactory",
    "SystemEntry",
    "ThinkingEntry",
    "TokenUsage",
    "ToolCallEntry",
    "ToolResultEntry",
    "TranscriptEntry",
    "Usage",
    "UserEntry",
    "__version__",
    "command_check",
    "entry_problem",
    "is_valid_entry",
    "load_entry_schema",
    "overall_status",
    "validate_entry",
    "variable_check",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'linewise_contracts' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
