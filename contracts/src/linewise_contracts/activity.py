"""Builders for contract 1.3's entries that several CLIs produce: a plan, a permission request.

Plugins whose CLI keeps a to-do list (Codex's ``todo_list``, its ``update_plan``
tool) or asks before running a tool (Claude's ``can_use_tool``, Codex's
approval requests) build the same entries through these, so a plan or a
request reads the same whatever CLI wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.declared import MAX_CHOICES

__all__ = [
    "PERMISSION_CHOICES",
    "PLAN_SCHEMA",
    "PLAN_STATUSES",
    "plan_activity",
    "runtime_request",
]

#: The payload schema of a plan, Paperclip's (``steps`` of ``{stepId, body, status}``).
PLAN_SCHEMA: Final = "paperclip.plan.updated.v1"
#: The statuses of a plan step.
PLAN_STATUSES: Final = ("pending", "in_progress", "completed")
#: The buttons of an approval, as Paperclip labels them.
PERMISSION_CHOICES: Final = (
    ("accept", "Allow once"),
    ("accept_for_session", "Allow for session"),
    ("decline", "Deny"),
    ("cancel", "Cancel"),
)


def plan_activity(
    ts: str,
    steps: Sequence[tuple[str, str]],
    *,
    explanation: str = "",
    plan_id: str = "",
    event_type: str = "plan.updated",
) -> dict[str, Any]:
    """A ``provider_activity`` plan card: ``steps`` are (status, text) pairs.

    A status outside :data:`PLAN_STATUSES` counts as pending. The plan is
    running until every step is completed.
    """
    payload_steps = [
        {
            "stepId": str(number),
            "body": text,
            "status": status if status in PLAN_STATUSES else "pending",
        }
        for number, (status, text) in enumerate(steps, 1)
    ]
    complete = bool(payload_steps) and all(s["status"] == "completed" for s in payload_steps)
    payload: dict[str, Any] = {"schema": PLAN_SCHEMA}
    if plan_id:
        payload["planId"] = plan_id
    payload["complete"] = complete
    if explanation:
        payload["explanation"] = explanation
    payload["steps"] = payload_steps
    return {
        "kind": "provider_activity",
        "ts": ts,
        "family": "plan",
        "eventType": event_type,
        "status": "completed" if complete else "running",
        "title": "Plan",
        "summary": explanation or event_type,
        "payload": payload,
    }


def runtime_request(
    ts: str,
    request_id: str,
    prompt: str,
    *,
    request_kind: str | None,
    request_type: str = "permission",
    status: str = "pending",
    choices: Sequence[tuple[str, str]] = PERMISSION_CHOICES,
    question_set: dict[str, Any] | None = None,
    resolved_action: str | None = None,
    response: dict[str, Any] | None = None,
    turn_id: str | None = None,
) -> dict[str, Any]:
    """A ``runtime_request`` snapshot (the latest for a ``request_id`` replaces earlier ones)."""
    return {
        "kind": "runtime_request",
        "ts": ts,
        "requestId": request_id,
        "requestKind": request_kind,
        "turnId": turn_id,
        "requestType": request_type,
        "status": status,
        "prompt": prompt,
        "choices": [{"key": key, "label": label} for key, label in choices[:MAX_CHOICES]],
        "fields": [],
        "questionSet": question_set,
        "resolvedAction": resolved_action,
        "response": response,
    }
