"""The six kinds contract 1.3 added, declared once: their fields, their bounds, their schema.

Paperclip's 2026 TranscriptEntry union (``packages/adapter-utils/src/types.ts``)
as linewise validates it. Upstream caps few of these things in its parser;
linewise caps every list and every long text (the limits below), so that an
entry stays small enough to validate, render and store, and a producer that
has more says so visibly (``previewTruncated``, a ``truncation`` marker line at
the end of a cut diff, a count in ``totals``) rather than emitting an entry the
host must refuse. Every other string is bounded by the host's per-line output
budget, as for every kind.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import (
    ANSWER_MODES,
    FILE_PRESENTATIONS,
    PROVIDER_ACTIVITY_FAMILIES,
    PROVIDER_ACTIVITY_STATUSES,
    QUESTION_RESPONSE_SCHEMA,
    QUESTION_SET_SCHEMA,
    RUN_DISPOSITIONS,
    RUN_STATES,
    RUNTIME_REQUEST_KINDS,
    RUNTIME_REQUEST_STATUSES,
    RUNTIME_REQUEST_TYPES,
    TURN_STATES,
    VERIFICATION_STATUSES,
    WORKSPACE_CHANGE_SOURCES,
    WORKSPACE_FILE_OPERATIONS,
)
from linewise_contracts.shapes import (
    Bool,
    Const,
    DictOf,
    JsonObject,
    ListOf,
    Nullable,
    Number,
    Obj,
    OneOf,
    SafePath,
    Shape,
    Str,
    TrueOnly,
)

__all__ = [
    "KIND_SHAPES",
    "MAX_ANSWERS",
    "MAX_CHANGE_FILES",
    "MAX_CHOICES",
    "MAX_DIFF_CHARS",
    "MAX_FIELDS",
    "MAX_OPTIONS",
    "MAX_PAYLOAD_VALUES",
    "MAX_PREVIEW_CHARS",
    "MAX_QUESTIONS",
    "MAX_RUN_ITEMS",
    "MAX_SELECTED_OPTIONS",
    "entry_schema_def",
]

#: Files in one ``workspace_change`` (the runner's own bound).
MAX_CHANGE_FILES: Final = 2_000
#: Characters of one file's ``diff`` (the Codex harness's cut, the largest producer bound).
MAX_DIFF_CHARS: Final = 262_144
#: Characters of a ``workspace_file_reference`` preview.
MAX_PREVIEW_CHARS: Final = 262_144
#: Values (every dict, list and scalar, nested) in a ``provider_activity`` payload.
MAX_PAYLOAD_VALUES: Final = 100_000
#: Buttons of a runtime request (explicit choices; 4 when derived from actions).
MAX_CHOICES: Final = 32
#: Input fields of a runtime request.
MAX_FIELDS: Final = 16
#: Questions of a question set, options of a question, answers of a response.
MAX_QUESTIONS: Final = 64
MAX_OPTIONS: Final = 128
MAX_ANSWERS: Final = 64
MAX_SELECTED_OPTIONS: Final = 128
#: Verification checks, remaining work items and artifacts of a run result, each.
MAX_RUN_ITEMS: Final = 64

_ID: Final = Str(160)
_SHORT: Final = Str(1_000)
_LONG: Final = Str(4_000)
_ANSWER_TEXT: Final = Str(12_000)
_COUNT: Final = Number(minimum=0)

_SOURCE: Final = OneOf(WORKSPACE_CHANGE_SOURCES)
_DISPOSITION: Final = OneOf(RUN_DISPOSITIONS)

_CHANGE_FILE: Final = Obj(
    {
        "path": SafePath(),
        "operation": OneOf(WORKSPACE_FILE_OPERATIONS),
        "previousPath": Nullable(SafePath()),
        "additions": Nullable(_COUNT),
        "deletions": Nullable(_COUNT),
        "binary": Bool(),
        "diff": Nullable(Str(MAX_DIFF_CHARS)),
    }
)

_OPTION: Final = Obj(
    {"id": _ID, "label": _SHORT},
    {"description": _LONG, "recommended": Bool()},
)

_QUESTION: Final = Obj(
    {"id": _ID, "prompt": _LONG, "required": Bool(), "answerMode": OneOf(ANSWER_MODES)},
    {
        "header": _SHORT,
        "helpText": _LONG,
        "options": ListOf(_OPTION, MAX_OPTIONS),
        "customAnswer": Obj({"enabled": TrueOnly()}, {"label": _SHORT, "placeholder": _SHORT}),
        "textValidation": Obj(
            {},
            {
                "minLength": Number(),
                "maxLength": Number(),
                "pattern": _SHORT,
                "inputType": OneOf(("text", "number", "integer")),
                "minimum": Number(),
                "maximum": Number(),
            },
        ),
        "initialText": _ANSWER_TEXT,
    },
)

_QUESTION_SET: Final = Obj(
    {"schema": Const(QUESTION_SET_SCHEMA), "questions": ListOf(_QUESTION, MAX_QUESTIONS)},
    # 100,000: the largest description a runner revision accepts (Revision C and later).
    {"title": _SHORT, "description": Str(100_000), "submitLabel": Str(200)},
)

_ANSWER: Final = Obj(
    {},
    {
        "selectedOptionIds": ListOf(_ID, MAX_SELECTED_OPTIONS),
        "text": _ANSWER_TEXT,
        "customText": _ANSWER_TEXT,
    },
)

_RESPONSE: Final = Obj(
    {
        "schema": Const(QUESTION_RESPONSE_SCHEMA),
        "answers": DictOf(_ANSWER, MAX_ANSWERS, max_key=160),
    }
)

#: kind -> its declared fields (``kind``, ``ts`` and ``parentToolUseId`` aside).
KIND_SHAPES: Final[dict[str, Obj]] = {
    "provider_activity": Obj(
        {
            "family": OneOf(PROVIDER_ACTIVITY_FAMILIES),
            "eventType": Str(),
            "status": OneOf(PROVIDER_ACTIVITY_STATUSES),
            "title": Str(),
            "summary": Str(),
            "payload": JsonObject(MAX_PAYLOAD_VALUES),
        }
    ),
    "workspace_change": Obj(
        {
            "changeSetId": Str(),
            "revision": Number(minimum=1),
            "source": _SOURCE,
            "complete": Bool(),
            "files": ListOf(_CHANGE_FILE, MAX_CHANGE_FILES),
            "totals": Obj(
                {"files": _COUNT, "additions": Nullable(_COUNT), "deletions": Nullable(_COUNT)}
            ),
            "patchArtifactRef": Nullable(Str()),
        }
    ),
    "workspace_file_reference": Obj(
        {
            "referenceId": Str(),
            "source": _SOURCE,
            "path": SafePath(),
            "displayName": Str(),
            "mediaType": Nullable(Str()),
            "presentation": OneOf(FILE_PRESENTATIONS),
            "line": Nullable(_COUNT),
            "preview": Nullable(Str(MAX_PREVIEW_CHARS)),
            "previewTruncated": Bool(),
            "contentDigest": Nullable(Str()),
        }
    ),
    "runtime_request": Obj(
        {
            "requestId": Str(),
            "requestKind": Nullable(OneOf(RUNTIME_REQUEST_KINDS)),
            "turnId": Nullable(Str()),
            "requestType": OneOf(RUNTIME_REQUEST_TYPES),
            "status": OneOf(RUNTIME_REQUEST_STATUSES),
            "prompt": Str(),
            "choices": ListOf(Obj({"key": Str(), "label": Str()}), MAX_CHOICES),
            "fields": ListOf(
                Obj({"name": Str(160), "label": Str(240), "placeholder": Nullable(Str(500))}),
                MAX_FIELDS,
            ),
        },
        {
            "questionSet": Nullable(_QUESTION_SET),
            "resolvedAction": Nullable(Str()),
            "response": Nullable(_RESPONSE),
        },
    ),
    "run_result": Obj(
        {
            "disposition": _DISPOSITION,
            "summary": Str(),
            "objectiveSatisfied": Nullable(Bool()),
            "verification": ListOf(
                Obj(
                    {"commandOrCheck": Str(), "status": OneOf(VERIFICATION_STATUSES)},
                    {"detail": Str(), "artifactRef": Str()},
                ),
                MAX_RUN_ITEMS,
            ),
            "remainingWork": ListOf(
                Obj({"description": Str(), "blocksCompletion": Bool()}), MAX_RUN_ITEMS
            ),
            "blocker": Nullable(
                Obj(
                    {
                        "reasonCode": Str(),
                        "unblockAction": Str(),
                        "scope": OneOf(("current_track", "task_wide")),
                    }
                )
            ),
            "artifacts": ListOf(
                Obj({"kind": Str(), "ref": Str()}, {"title": Str()}), MAX_RUN_ITEMS
            ),
        },
        {"acceptedResponseWake": Obj({"runId": Str(), "sourceEventId": Str()})},
    ),
    "run_terminal": Obj(
        {
            "turnState": OneOf(TURN_STATES),
            "runState": OneOf(RUN_STATES),
            "disposition": _DISPOSITION,
        },
        {"stopReason": Str()},
    ),
}

_DESCRIPTIONS: Final[dict[str, str]] = {
    "provider_activity": "Structured provider activity (plan, hook, model route, ...) shown as "
    "a card; payload is the provider's event payload as it came (contract 1.3).",
    "workspace_change": "A snapshot of a set of workspace file changes; a later revision of "
    "the same changeSetId supersedes it (contract 1.3).",
    "workspace_file_reference": "One workspace file the agent pointed to (contract 1.3).",
    "runtime_request": "An approval or input request; the latest entry for a requestId "
    "replaces the earlier ones (contract 1.3).",
    "run_result": "The run's claim about its work: disposition, verification, remaining "
    "work (contract 1.3).",
    "run_terminal": "The final state of the turn and of the run (contract 1.3).",
}

_TS: Final[dict[str, Any]] = {
    "type": "string",
    "description": "When the line was received (ISO 8601 in practice).",
}
_PARENT: Final[dict[str, Any]] = {
    "type": "string",
    "description": "The toolUseId of the tool call whose subagent produced this entry; "
    "absent on the main thread (contract 1.1).",
}


def entry_schema_def(kind: str) -> dict[str, Any]:
    """The JSON Schema definition of a 1.3 ``kind``, as the shipped schema holds it."""
    fields = KIND_SHAPES[kind]
    schema = fields.schema()
    properties: dict[str, Any] = {"kind": {"const": kind}, "ts": dict(_TS)}
    properties.update(schema["properties"])
    properties["parentToolUseId"] = dict(_PARENT)
    return {
        "type": "object",
        "description": _DESCRIPTIONS[kind],
        "properties": properties,
        "required": ["kind", "ts", *schema["required"]],
        "additionalProperties": False,
    }


def field_shapes(kind: str) -> tuple[tuple[str, Shape], ...]:
    """The required fields of a 1.3 kind, in order (``ts`` first)."""
    return (("ts", Str()), *KIND_SHAPES[kind].required.items())


def optional_shapes(kind: str) -> tuple[tuple[str, Shape], ...]:
    """The optional fields of a 1.3 kind."""
    return tuple(KIND_SHAPES[kind].optional.items())
