"""The TranscriptEntry kinds: typed for plugin authors, plain JSON dicts at run time."""

from typing import Final, Literal, NotRequired, TypeAlias, TypedDict

from linewise_contracts.outcomes import Outcome

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
    "provider_activity",
    "workspace_change",
    "workspace_file_reference",
    "runtime_request",
    "run_result",
    "run_terminal",
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
    "provider_activity",
    "workspace_change",
    "workspace_file_reference",
    "runtime_request",
    "run_result",
    "run_terminal",
)

#: The kinds contract 1.3 added (Paperclip's 2026 union); a 1.2 consumer does not know them.
KINDS_1_3: Final[tuple[EntryKind, ...]] = ENTRY_KINDS[11:]

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


AssistantChannel: TypeAlias = Literal["progress", "final", "unknown"]
ThinkingChannel: TypeAlias = Literal["summary", "detail", "unknown"]
ThinkingLifecycle: TypeAlias = Literal["started", "completed"]

#: ``assistant.channel``: interim commentary, the final answer, or not stated (1.3).
ASSISTANT_CHANNELS: Final[tuple[AssistantChannel, ...]] = ("progress", "final", "unknown")
#: ``thinking.channel``: a reasoning summary, the detailed trace, or not stated (1.3).
THINKING_CHANNELS: Final[tuple[ThinkingChannel, ...]] = ("summary", "detail", "unknown")
#: ``thinking.lifecycle``: the reasoning item started or completed (1.3).
THINKING_LIFECYCLES: Final[tuple[ThinkingLifecycle, ...]] = ("started", "completed")


class AssistantEntry(TypedDict):
    """Text the agent wrote for the user; ``delta`` marks a streamed fragment."""

    kind: Literal["assistant"]
    ts: str
    text: str
    delta: NotRequired[bool]
    #: Interim commentary (``progress``) or the final answer (``final``) (contract 1.3).
    channel: NotRequired[AssistantChannel]
    #: The provider's item id, correlating fragments with their item (contract 1.3).
    itemId: NotRequired[str]
    parentToolUseId: NotRequired[str]


class ThinkingEntry(TypedDict):
    """The agent's reasoning; ``delta`` marks a streamed fragment."""

    kind: Literal["thinking"]
    ts: str
    text: str
    delta: NotRequired[bool]
    #: Set on item boundaries (the text is then often empty), never on deltas (1.3).
    lifecycle: NotRequired[ThinkingLifecycle]
    #: A reasoning summary or the detailed trace (contract 1.3).
    channel: NotRequired[ThinkingChannel]
    #: The provider's item id (contract 1.3).
    itemId: NotRequired[str]
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
    #: The call starts a subagent (Claude's Task, Codex's spawn_agent) (contract 1.5).
    startsSubagent: NotRequired[bool]
    parentToolUseId: NotRequired[str]


class ToolResultEntry(TypedDict):
    """The outcome of a tool invocation, as text."""

    kind: Literal["tool_result"]
    ts: str
    toolUseId: str
    toolName: NotRequired[str]
    content: str
    isError: bool
    #: ``content`` is one streamed fragment of the output (command stdout) (contract 1.3).
    delta: NotRequired[bool]
    parentToolUseId: NotRequired[str]


#: An init entry's ``model`` when the CLI named none (``model`` is required): the word
#: parsers write, which a host reads as no model (contract 1.9 names it).
UNKNOWN_MODEL: Final = "unknown"


def model_name(value: object) -> str | None:
    """``value`` when it names a model as contract 1.10's ``result.model`` may (a str with
    more than blanks, not :data:`UNKNOWN_MODEL`), else None: the one test of a model name."""
    if type(value) is not str or not value.strip() or value == UNKNOWN_MODEL:
        return None
    return value


class InitEntry(TypedDict):
    """The agent started a session with a model (:data:`UNKNOWN_MODEL` when it named none)."""

    kind: Literal["init"]
    ts: str
    model: str
    sessionId: str
    #: The working directory the agent ran in, where the CLI says (contract 1.2).
    cwd: NotRequired[str]
    parentToolUseId: NotRequired[str]


CostSource: TypeAlias = Literal["reported", "estimated"]

#: Where a cost came from: the CLI reported it, or linewise estimated it from a price table
#: (``result.costSource``, contract 1.5; ``RunSummary.cost_source``, contract 1.3).
COST_SOURCES: Final[tuple[CostSource, ...]] = ("reported", "estimated")


class TokenUsageCounts(TypedDict, total=False):
    """A result's tokens in the one usage vocabulary (``TokenUsage.to_json()``), contract 1.5:
    each count a non-negative int, or null / absent when the CLI did not report it."""

    uncachedInput: int | None
    cacheRead: int | None
    cacheWrite: int | None
    output: int | None
    reasoning: int | None


class ResultEntry(TypedDict):
    """The run's final result with its usage and cost.

    Contract 1.5 adds what a run summary needs, all optional: ``usage``, the
    tokens in the one vocabulary; ``costSource``, where ``costUsd`` came from
    (null: no cost is known, and ``costUsd`` is not one); ``outcome``, one of
    :data:`linewise_contracts.outcomes.OUTCOMES`; ``sessionId``, the session
    the result ends. With ``sessionId``, ``usage`` and ``costUsd`` are that
    session's so far (what Claude's and Codex's results report): a later
    result of the session replaces an earlier one's, sessions add up.

    Contract 1.9 adds, optional: ``turns``, the count of turns the CLI
    reports for this result's run (Claude Code's ``num_turns``: the model's
    round trips in its agent loop), given only where the CLI reports one (a
    count a plugin would make of events is not it), its own even where
    ``usage`` is its session's so far, so results' turns add up; and
    ``modelUsage``, the same tokens as ``usage`` per model (a model name ->
    the usage vocabulary), with ``usage``'s meaning: its session's so far
    when the result names ``sessionId``, else its own.

    Contract 1.10 adds, optional: ``model``, the model that answered this
    result's run as the CLI names it (on its messages, a model change or its
    final event; the last one named by the result), for a CLI whose ``init``
    names none or none at all. A non-empty name; a CLI that named none gives no
    ``model`` (never :data:`UNKNOWN_MODEL`). A host reads the latest model an
    ``init`` or a result names as the run's.
    """

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
    usage: NotRequired[TokenUsageCounts]
    costSource: NotRequired[CostSource | None]
    outcome: NotRequired[Outcome]
    sessionId: NotRequired[str]
    turns: NotRequired[int]
    modelUsage: NotRequired[dict[str, TokenUsageCounts]]
    model: NotRequired[str]
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


# -- contract 1.3: Paperclip's 2026 kinds ------------------------------------------

ProviderActivityFamily: TypeAlias = Literal[
    "plan",
    "tool_execution",
    "research",
    "delegation",
    "model_identity",
    "context",
    "artifact",
    "review",
    "hook",
    "memory",
    "safety",
    "terminal",
    "wait",
    "provider_notice",
]
ProviderActivityStatus: TypeAlias = Literal[
    "running", "completed", "failed", "interrupted", "informational"
]
WorkspaceChangeSource: TypeAlias = Literal["harness_reported", "runner_verified"]
WorkspaceFileOperation: TypeAlias = Literal["create", "modify", "delete", "rename", "mode_change"]
FilePresentation: TypeAlias = Literal["document", "code", "image", "generic"]
RuntimeRequestKind: TypeAlias = Literal[
    "runtime",
    "command_approval",
    "file_approval",
    "permission_approval",
    "user_input",
    "elicitation",
]
RuntimeRequestType: TypeAlias = Literal["permission", "input"]
RuntimeRequestStatus: TypeAlias = Literal["pending", "resolved", "expired", "cancelled"]
RunDisposition: TypeAlias = Literal["done", "blocked", "needs_review", "yielded"]
VerificationStatus: TypeAlias = Literal["passed", "failed", "not_run"]
TurnState: TypeAlias = Literal["completed", "failed", "interrupted", "cancelled"]
RunState: TypeAlias = Literal["succeeded", "failed", "cancelled"]
AnswerMode: TypeAlias = Literal["single_select", "multi_select", "text"]

PROVIDER_ACTIVITY_FAMILIES: Final[tuple[ProviderActivityFamily, ...]] = (
    "plan",
    "tool_execution",
    "research",
    "delegation",
    "model_identity",
    "context",
    "artifact",
    "review",
    "hook",
    "memory",
    "safety",
    "terminal",
    "wait",
    "provider_notice",
)
PROVIDER_ACTIVITY_STATUSES: Final[tuple[ProviderActivityStatus, ...]] = (
    "running",
    "completed",
    "failed",
    "interrupted",
    "informational",
)
WORKSPACE_CHANGE_SOURCES: Final[tuple[WorkspaceChangeSource, ...]] = (
    "harness_reported",
    "runner_verified",
)
WORKSPACE_FILE_OPERATIONS: Final[tuple[WorkspaceFileOperation, ...]] = (
    "create",
    "modify",
    "delete",
    "rename",
    "mode_change",
)
FILE_PRESENTATIONS: Final[tuple[FilePresentation, ...]] = ("document", "code", "image", "generic")
RUNTIME_REQUEST_KINDS: Final[tuple[RuntimeRequestKind, ...]] = (
    "runtime",
    "command_approval",
    "file_approval",
    "permission_approval",
    "user_input",
    "elicitation",
)
RUNTIME_REQUEST_TYPES: Final[tuple[RuntimeRequestType, ...]] = ("permission", "input")
RUNTIME_REQUEST_STATUSES: Final[tuple[RuntimeRequestStatus, ...]] = (
    "pending",
    "resolved",
    "expired",
    "cancelled",
)
RUN_DISPOSITIONS: Final[tuple[RunDisposition, ...]] = ("done", "blocked", "needs_review", "yielded")
VERIFICATION_STATUSES: Final[tuple[VerificationStatus, ...]] = ("passed", "failed", "not_run")
TURN_STATES: Final[tuple[TurnState, ...]] = ("completed", "failed", "interrupted", "cancelled")
RUN_STATES: Final[tuple[RunState, ...]] = ("succeeded", "failed", "cancelled")
ANSWER_MODES: Final[tuple[AnswerMode, ...]] = ("single_select", "multi_select", "text")

#: The question-set and response schemas a runtime request carries.
QUESTION_SET_SCHEMA: Final = "paperclip.question_set.v1"
QUESTION_RESPONSE_SCHEMA: Final = "paperclip.question_response.v1"


class ProviderActivityEntry(TypedDict):
    """Structured, provider-neutral activity (a plan, a hook, a model route...), shown as a
    card; ``payload`` is the provider's event payload as it came (contract 1.3)."""

    kind: Literal["provider_activity"]
    ts: str
    family: ProviderActivityFamily
    eventType: str
    status: ProviderActivityStatus
    title: str
    summary: str
    payload: dict[str, JsonValue]
    parentToolUseId: NotRequired[str]


class WorkspaceChangeFile(TypedDict):
    """One file of a workspace change: a safe relative path and its unified diff, if any."""

    path: str
    operation: WorkspaceFileOperation
    previousPath: str | None
    additions: int | float | None
    deletions: int | float | None
    binary: bool
    diff: str | None


class WorkspaceChangeTotals(TypedDict):
    files: int | float
    additions: int | float | None
    deletions: int | float | None


class WorkspaceChangeEntry(TypedDict):
    """A snapshot of a set of file changes; a later ``revision`` of the same ``changeSetId``
    supersedes it (contract 1.3)."""

    kind: Literal["workspace_change"]
    ts: str
    changeSetId: str
    revision: int | float
    source: WorkspaceChangeSource
    complete: bool
    files: list[WorkspaceChangeFile]
    totals: WorkspaceChangeTotals
    patchArtifactRef: str | None
    parentToolUseId: NotRequired[str]


class WorkspaceFileReferenceEntry(TypedDict):
    """One workspace file the agent pointed to, with an optional preview (contract 1.3)."""

    kind: Literal["workspace_file_reference"]
    ts: str
    referenceId: str
    source: WorkspaceChangeSource
    path: str
    displayName: str
    mediaType: str | None
    presentation: FilePresentation
    line: int | float | None
    preview: str | None
    previewTruncated: bool
    contentDigest: str | None
    parentToolUseId: NotRequired[str]


class RequestChoice(TypedDict):
    key: str
    label: str


class RequestField(TypedDict):
    name: str
    label: str
    placeholder: str | None


class QuestionOption(TypedDict):
    id: str
    label: str
    description: NotRequired[str]
    recommended: NotRequired[bool]


class CustomAnswer(TypedDict):
    enabled: Literal[True]
    label: NotRequired[str]
    placeholder: NotRequired[str]


class TextValidation(TypedDict, total=False):
    minLength: int | float
    maxLength: int | float
    pattern: str
    inputType: Literal["text", "number", "integer"]
    minimum: int | float
    maximum: int | float


class Question(TypedDict):
    id: str
    header: NotRequired[str]
    prompt: str
    helpText: NotRequired[str]
    required: bool
    answerMode: AnswerMode
    options: NotRequired[list[QuestionOption]]
    customAnswer: NotRequired[CustomAnswer]
    textValidation: NotRequired[TextValidation]
    initialText: NotRequired[str]


class QuestionSet(TypedDict):
    """Structured questions a runtime request asks (``paperclip.question_set.v1``)."""

    schema: Literal["paperclip.question_set.v1"]
    title: NotRequired[str]
    description: NotRequired[str]
    submitLabel: NotRequired[str]
    questions: list[Question]


class Answer(TypedDict, total=False):
    selectedOptionIds: list[str]
    text: str
    customText: str


class QuestionResponse(TypedDict):
    """The answers submitted to a question set (``paperclip.question_response.v1``)."""

    schema: Literal["paperclip.question_response.v1"]
    answers: dict[str, Answer]


class RuntimeRequestEntry(TypedDict):
    """An approval or input request; every lifecycle event is a full snapshot, and the latest
    entry for a ``requestId`` replaces the earlier ones (contract 1.3)."""

    kind: Literal["runtime_request"]
    ts: str
    requestId: str
    requestKind: RuntimeRequestKind | None
    turnId: str | None
    requestType: RuntimeRequestType
    status: RuntimeRequestStatus
    prompt: str
    choices: list[RequestChoice]
    fields: list[RequestField]
    questionSet: NotRequired[QuestionSet | None]
    resolvedAction: NotRequired[str | None]
    response: NotRequired[QuestionResponse | None]
    parentToolUseId: NotRequired[str]


class RunVerification(TypedDict):
    commandOrCheck: str
    status: VerificationStatus
    detail: NotRequired[str]
    artifactRef: NotRequired[str]


class RemainingWork(TypedDict):
    description: str
    blocksCompletion: bool


class RunBlocker(TypedDict):
    reasonCode: str
    unblockAction: str
    scope: Literal["current_track", "task_wide"]


class RunArtifact(TypedDict):
    kind: str
    ref: str
    title: NotRequired[str]


class ResponseWake(TypedDict):
    runId: str
    sourceEventId: str


class RunResultEntry(TypedDict):
    """The run's claim about its work: disposition, verification, remaining work (1.3)."""

    kind: Literal["run_result"]
    ts: str
    disposition: RunDisposition
    summary: str
    objectiveSatisfied: bool | None
    verification: list[RunVerification]
    remainingWork: list[RemainingWork]
    blocker: RunBlocker | None
    artifacts: list[RunArtifact]
    acceptedResponseWake: NotRequired[ResponseWake]
    parentToolUseId: NotRequired[str]


class RunTerminalEntry(TypedDict):
    """The final state of the turn and of the run (contract 1.3)."""

    kind: Literal["run_terminal"]
    ts: str
    turnState: TurnState
    runState: RunState
    disposition: RunDisposition
    stopReason: NotRequired[str]
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
    | ProviderActivityEntry
    | WorkspaceChangeEntry
    | WorkspaceFileReferenceEntry
    | RuntimeRequestEntry
    | RunResultEntry
    | RunTerminalEntry
)
