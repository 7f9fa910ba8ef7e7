"""The TranscriptEntry kinds: typed for plugin authors, plain JSON dicts at run time."""

from __future__ import annotations

from typing import Final, Literal, NotRequired, TypeAlias, TypedDict

# Values that survive a JSON round trip unchanged (finite numbers, str keys).
JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None

EntryKind: TypeAlias = Literal[
    "assistant",
    "thinking",
    "user",
    "tool_call",
    "tool_result",
    "init",
    "result",
    "stderr",
    "system",
    "stdout",
    "diff",
]

#: Every entry kind of the contract, in the order the wire format documents them.
ENTRY_KINDS: Final[tuple[EntryKind, ...]] = (
    "assistant",
    "thinking",
    "user",
    "tool_call",
    "tool_result",
    "init",
    "result",
    "stderr",
    "system",
    "stdout",
    "diff",
)

DiffChangeType: TypeAlias = Literal["add", "remove", "context", "hunk", "file_header", "truncation"]

#: The values a diff entry's ``changeType`` may take.
DIFF_CHANGE_TYPES: Final[tuple[DiffChangeType, ...]] = (
    "add",
    "remove",
    "context",
    "hunk",
    "file_header",
    "truncation",
)


class AssistantEntry(TypedDict):
    """Text the agent wrote for the user; ``delta`` marks a streamed fragment."""

    kind: Literal["assistant"]
    ts: str
    text: str
    delta: NotRequired[bool]
    parentToolUseId: NotRequired[str]


class ThinkingEntry(TypedDict):
    """The agent's reasoning; ``delta`` marks a streamed fragment."""

    kind: Literal["thinking"]
    ts: str
    text: str
    delta: NotRequired[bool]
    parentToolUseId: NotRequired[str]


class UserEntry(TypedDict):
    """A user message seen in the agent's stream (prompts, injected context)."""

    kind: Literal["user"]
    ts: str
    text: str
    parentToolUseId: NotRequired[str]


class ToolCallEntry(TypedDict):
    """A tool invocation; ``toolUseId`` pairs it with its ``tool_result``."""

    kind: Literal["tool_call"]
    ts: str
    name: str
    input: JsonValue
    toolUseId: NotRequired[str]
    invocationId: NotRequired[str]
    actionRequestId: NotRequired[str]
    parentToolUseId: NotRequired[str]


class ToolResultEntry(TypedDict):
    """The outcome of a tool invocation, as text."""

    kind: Literal["tool_result"]
    ts: str
    toolUseId: str
    toolName: NotRequired[str]
    content: str
    isError: bool
    parentToolUseId: NotRequired[str]


class InitEntry(TypedDict):
    """The agent started a session with a model."""

    kind: Literal["init"]
    ts: str
    model: str
    sessionId: str
    #: The working directory the agent ran in, where the CLI says (contract 1.2).
    cwd: NotRequired[str]
    parentToolUseId: NotRequired[str]


class ResultEntry(TypedDict):
    """The run's final result with its usage and cost."""

    kind: Literal["result"]
    ts: str
    text: str
    inputTokens: int | float
    outputTokens: int | float
    cachedTokens: int | float
    costUsd: int | float
    subtype: str
    isError: bool
    errors: list[str]
    parentToolUseId: NotRequired[str]


class StderrEntry(TypedDict):
    """Text the agent wrote to stderr."""

    kind: Literal["stderr"]
    ts: str
    text: str
    parentToolUseId: NotRequired[str]


class SystemEntry(TypedDict):
    """A message from the agent CLI or the adapter itself (lifecycle, retries, hooks)."""

    kind: Literal["system"]
    ts: str
    text: str
    parentToolUseId: NotRequired[str]


class StdoutEntry(TypedDict):
    """A raw stdout line no parser understood (the generic fallback)."""

    kind: Literal["stdout"]
    ts: str
    text: str
    parentToolUseId: NotRequired[str]


class DiffEntry(TypedDict):
    """One line of a diff the agent produced."""

    kind: Literal["diff"]
    ts: str
    changeType: DiffChangeType
    text: str
    parentToolUseId: NotRequired[str]


TranscriptEntry: TypeAlias = (
    AssistantEntry
    | ThinkingEntry
    | UserEntry
    | ToolCallEntry
    | ToolResultEntry
    | InitEntry
    | ResultEntry
    | StderrEntry
    | SystemEntry
    | StdoutEntry
    | DiffEntry
)
