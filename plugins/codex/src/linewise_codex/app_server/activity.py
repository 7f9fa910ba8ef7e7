"""The app-server's plans, turn diffs and approval requests as contract 1.3 entries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import (
    ProviderActivityEntry,
    RequestChoice,
    RuntimeRequestEntry,
    RuntimeRequestKind,
    WorkspaceChangeEntry,
    WorkspaceChangeFile,
    WorkspaceFileOperation,
)
from linewise_contracts.extract import as_list, as_object, as_string, json_or_placeholder
from linewise_contracts.shapes import is_safe_workspace_path

__all__ = ["REQUEST_KINDS", "plan_activity", "runtime_request", "workspace_change"]

# Plan step statuses as Paperclip's plan payload spells them.
_STEP_STATUSES: Final = {"inProgress": "in_progress", "in_progress": "in_progress"}
# Server requests that ask the person at the client, and what they ask for.
REQUEST_KINDS: Final[dict[str, tuple[RuntimeRequestKind, str]]] = {
    "item/commandExecution/requestApproval": ("command_approval", "permission"),
    "item/fileChange/requestApproval": ("file_approval", "permission"),
    "item/permissions/requestApproval": ("permission_approval", "permission"),
    "item/tool/requestUserInput": ("user_input", "input"),
    "mcpServer/elicitation/request": ("elicitation", "input"),
    # The v1 names, which app-servers of 2025 still send.
    "execCommandApproval": ("command_approval", "permission"),
    "applyPatchApproval": ("file_approval", "permission"),
}
_DEFAULT_DECISIONS: Final = ("accept", "acceptForSession", "decline", "cancel")
# A turn diff is cut at this many characters per file (a generated file can be huge).
_MAX_DIFF_CHARS: Final = 200_000
_MAX_FILES: Final = 500


def plan_activity(params: dict[str, Any], ts: str) -> ProviderActivityEntry:
    """``turn/plan/updated`` (``{turnId, explanation?, plan: [{step, status}]}``) as a plan card."""
    steps = []
    for number, raw in enumerate(as_list(params.get("plan")), 1):
        step = as_object(raw)
        status = as_string(step.get("status"), "pending")
        steps.append(
            {
                "stepId": f"step-{number}",
                "body": as_string(step.get("step")),
                "status": _STEP_STATUSES.get(status, status),
            }
        )
    done = sum(1 for step in steps if step["status"] == "completed")
    complete = bool(steps) and done == len(steps)
    explanation = as_string(params.get("explanation"))
    payload: dict[str, Any] = {
        "schema": "paperclip.plan.updated.v1",
        "planId": as_string(params.get("turnId"), "plan"),
        "complete": complete,
        "explanation": explanation,
        "steps": steps,
    }
    return {
        "kind": "provider_activity",
        "ts": ts,
        "family": "plan",
        "eventType": "turn/plan/updated",
        "status": "completed" if complete else "running",
        "title": "Plan",
        "summary": f"{done}/{len(steps)} steps completed"
        + (f": {explanation}" if explanation else ""),
        "payload": payload,
    }


def _operation(header: list[str]) -> WorkspaceFileOperation:
    for line in header:
        if line.startswith("new file mode"):
            return "create"
        if line.startswith("deleted file mode"):
            return "delete"
        if line.startswith("rename from"):
            return "rename"
    if any(line.startswith("old mode") for line in header):
        return "mode_change"
    return "modify"


def _path(header: list[str], prefix: str) -> str:
    for line in header:
        if line.startswith(prefix):
            path = line[len(prefix) :].split("\t", 1)[0].strip()
            return path[2:] if path[:2] in ("a/", "b/") else path
    return ""


def _file(lines: list[str]) -> WorkspaceChangeFile | None:
    hunk = next((n for n, line in enumerate(lines) if line.startswith("@@")), len(lines))
    header = lines[:hunk]
    path = _path(header, "+++ ")
    if path in ("", "/dev/null", "dev/null"):
        path = _path(header, "--- ") or _path(header, "rename to ")
    if not path and lines[0].startswith("diff --git "):
        path = lines[0].rsplit(" b/", 1)[-1]
    if not is_safe_workspace_path(path):
        return None
    body = lines[hunk:]
    diff = "\n".join(lines)
    if len(diff) > _MAX_DIFF_CHARS:
        hidden = len(diff) - _MAX_DIFF_CHARS
        diff = diff[:_MAX_DIFF_CHARS] + f"\n[linewise: diff cut; {hidden:,} more characters]"
    previous = _path(header, "rename from ") or None
    return {
        "path": path,
        "operation": _operation(header),
        "previousPath": previous if previous and is_safe_workspace_path(previous) else None,
        "additions": sum(1 for line in body if line.startswith("+")),
        "deletions": sum(1 for line in body if line.startswith("-")),
        "binary": any(line.startswith(("Binary files", "GIT binary patch")) for line in header),
        "diff": diff,
    }


def _split(diff: str) -> list[list[str]]:
    files: list[list[str]] = []
    for line in diff.splitlines():
        starts = line.startswith("diff --git ") or (
            line.startswith("--- ") and (not files or any(x.startswith("@@") for x in files[-1]))
        )
        if starts or not files:
            files.append([line])
        else:
            files[-1].append(line)
    return files


def workspace_change(
    params: dict[str, Any], ts: str, revision: int
) -> tuple[WorkspaceChangeEntry, int]:
    """``turn/diff/updated`` as a snapshot of the turn's changes, and how many paths were unsafe.

    The diff is the whole turn's so far, so each notification supersedes the
    one before (same ``changeSetId``, next ``revision``). Files whose path is
    absolute or climbs out with ``..`` are left out and counted.
    """
    files: list[WorkspaceChangeFile] = []
    unsafe = 0
    for lines in _split(as_string(params.get("diff"))):
        if not any(
            line.startswith(("@@", "+++ ", "Binary files", "diff --git ")) for line in lines
        ):
            continue
        file = _file(lines)
        if file is None:
            unsafe += 1
        elif len(files) < _MAX_FILES:
            files.append(file)
    thread, turn = as_string(params.get("threadId")), as_string(params.get("turnId"), "turn")
    entry: WorkspaceChangeEntry = {
        "kind": "workspace_change",
        "ts": ts,
        "changeSetId": f"codex:{thread}:{turn}" if thread else f"codex:{turn}",
        "revision": revision,
        "source": "harness_reported",
        "complete": False,
        "files": files,
        "totals": {
            "files": len(files),
            "additions": sum(int(f["additions"] or 0) for f in files),
            "deletions": sum(int(f["deletions"] or 0) for f in files),
        },
        "patchArtifactRef": None,
    }
    return entry, unsafe


def _choices(params: dict[str, Any]) -> list[RequestChoice]:
    decisions = [
        as_string(d) or next(iter(as_object(d)), "")
        for d in as_list(params.get("availableDecisions"))
    ]
    return [{"key": d, "label": d} for d in (decisions or list(_DEFAULT_DECISIONS)) if d]


def _prompt(method: str, params: dict[str, Any]) -> str:
    reason = as_string(params.get("reason"))
    if "command" in params:
        command = params["command"]
        shown = (
            " ".join(p for p in command if type(p) is str)
            if type(command) is list
            else as_string(command)
        )
        return f"run `{shown}`?" + (f" ({reason})" if reason else "")
    if method == "item/tool/requestUserInput":
        questions = [
            as_string(as_object(q).get("question")) or as_string(as_object(q).get("header"))
            for q in as_list(params.get("questions"))
        ]
        return "\n".join(q for q in questions if q) or "the agent asks for input"
    if method == "mcpServer/elicitation/request":
        server = as_string(params.get("serverName"), "an MCP server")
        return f"{server} asks: {as_string(params.get('message'))}".strip()
    if method == "item/permissions/requestApproval":
        wanted = json_or_placeholder(params.get("permissions"))
        return (reason or "grant permissions?") + f" {wanted}"
    return reason or "apply the file changes?"


def runtime_request(
    method: str, ident: str, params: dict[str, Any], ts: str
) -> RuntimeRequestEntry:
    """A server request asking for an approval or input, as a pending ``runtime_request``."""
    kind, request_type = REQUEST_KINDS[method]
    return {
        "kind": "runtime_request",
        "ts": ts,
        "requestId": ident,
        "requestKind": kind,
        "turnId": as_string(params.get("turnId")) or None,
        "requestType": "permission" if request_type == "permission" else "input",
        "status": "pending",
        "prompt": _prompt(method, params),
        "choices": _choices(params) if request_type == "permission" else [],
        "fields": [],
    }
