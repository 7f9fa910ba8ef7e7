"""Provider activity, workspace changes and file references (spec §2.6.1 to §2.6.3).

Upstream passes diffs, previews and payloads through uncapped; linewise's
contract caps them (``linewise_contracts.declared``), so what exceeds a cap is
cut here, visibly: a diff ends in a ``[linewise: ...]`` marker line, a preview
is cut and flagged ``previewTruncated``, an oversized payload keeps its plain
top-level facts and says how many values it left out.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.declared import (
    MAX_CHANGE_FILES,
    MAX_DIFF_CHARS,
    MAX_PAYLOAD_VALUES,
    MAX_PREVIEW_CHARS,
)
from linewise_contracts.validation import is_safe_workspace_path, json_problem

from linewise_paperclip_runner.values import nnum, ntext, num, obj, str_

__all__ = ["FAMILIES", "family_of", "file_reference", "provider_activity", "workspace_change"]

#: Event-type prefix -> (family, title), checked in this order.
FAMILIES: Final = (
    ("plan.", "plan", "Plan"),
    ("tool.execution.", "tool_execution", "Tool execution"),
    ("research.", "research", "Research"),
    ("delegation.", "delegation", "Delegation"),
    ("model.", "model_identity", "Model"),
    ("context.", "context", "Context"),
    ("artifact.", "artifact", "Artifact"),
    ("review.", "review", "Review mode"),
    ("hook.", "hook", "Hook"),
    ("memory.", "memory", "Memory citation"),
    ("safety.", "safety", "Safety review"),
    ("terminal.", "terminal", "Terminal input"),
    ("wait.", "wait", "Intentional wait"),
    ("provider.notice.", "provider_notice", "Provider notice"),
)
_OPERATIONS: Final = frozenset({"create", "delete", "rename", "mode_change"})
_PRESENTATIONS: Final = frozenset({"document", "code", "image"})
UNSAFE_REFERENCE: Final = "Runner: Ignored an unsafe workspace file reference"


def family_of(event_type: str) -> tuple[str, str] | None:
    """The (family, title) of a provider-activity event type, or None."""
    for prefix, family, title in FAMILIES:
        if event_type.startswith(prefix):
            return family, title
    return None


def _status(family: str, event_type: str, payload: dict[str, Any]) -> str:
    status = str_(payload.get("status"))
    complete = payload.get("complete")
    if (
        (family == "plan" and complete is False)
        or status in ("running", "pending")
        or event_type.endswith(("started", "progressed"))
    ):
        return "running"
    if status in ("failed", "denied"):
        return "failed"
    if status in ("interrupted", "cancelled"):
        return "interrupted"
    if (family == "plan" and complete is True) or event_type.endswith("completed"):
        return "completed"
    return "completed" if status == "completed" else "informational"


def _summary(family: str, event_type: str, payload: dict[str, Any]) -> str:
    keys = (
        ("summary", "effectiveModel", "requestedModel", "provider")
        if family == "model_identity"
        else ("summary", "name", "query")
    )
    for key in keys:
        value = payload.get(key)
        if type(value) is str:
            return value
    return event_type


def _bounded_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as it came, or, beyond the contract's size, its plain top-level facts."""
    if json_problem(payload, max_nodes=MAX_PAYLOAD_VALUES) is None:
        return payload
    kept = {
        key: value
        for key, value in payload.items()
        if value is None or type(value) in (str, bool, int, float)
    }
    kept["linewiseOmitted"] = f"the rest of a payload larger than {MAX_PAYLOAD_VALUES:,} values"
    return kept


def provider_activity(
    event_type: str, family: str, title: str, payload: dict[str, Any], ts: str
) -> dict[str, Any]:
    return {
        "kind": "provider_activity",
        "ts": ts,
        "family": family,
        "eventType": event_type,
        "status": _status(family, event_type, payload),
        "title": title,
        "summary": _summary(family, event_type, payload),
        "payload": _bounded_payload(payload),
    }


def _diff(value: object) -> str | None:
    text = ntext(value)
    if text is None or len(text) <= MAX_DIFF_CHARS:
        return text
    hidden = len(text) - MAX_DIFF_CHARS
    marker = f"\n[linewise: diff cut at {MAX_DIFF_CHARS:,} characters; {hidden:,} more]"
    return text[: MAX_DIFF_CHARS - len(marker)] + marker


def _file(raw: dict[str, Any]) -> dict[str, Any]:
    operation = raw.get("operation")
    previous = ntext(raw.get("previousPath"))
    return {
        "path": raw["path"],
        "operation": operation if type(operation) is str and operation in _OPERATIONS else "modify",
        "previousPath": previous if previous and is_safe_workspace_path(previous) else None,
        "additions": nnum(raw.get("additions")),
        "deletions": nnum(raw.get("deletions")),
        "binary": raw.get("binary") is True,
        "diff": _diff(raw.get("diff")),
    }


def workspace_change(payload: dict[str, Any], ts: str) -> dict[str, Any]:
    raw_files = payload.get("files")
    safe = [
        obj(raw)
        for raw in (raw_files if type(raw_files) is list else [])
        if is_safe_workspace_path(str_(obj(raw).get("path")))
    ][:MAX_CHANGE_FILES]
    files = [_file(raw) for raw in safe]
    totals = obj(payload.get("totals"))
    source = payload.get("source")
    return {
        "kind": "workspace_change",
        "ts": ts,
        "changeSetId": str_(payload.get("changeSetId"), "workspace-change"),
        "revision": max(1, num(payload.get("revision"))),
        "source": "runner_verified" if source == "runner_verified" else "harness_reported",
        "complete": payload.get("complete") is True,
        "files": files,
        "totals": {
            "files": max(len(files), num(totals.get("files"))),
            "additions": nnum(totals.get("additions")),
            "deletions": nnum(totals.get("deletions")),
        },
        "patchArtifactRef": ntext(payload.get("patchArtifactRef")),
    }


def file_reference(payload: dict[str, Any], ts: str) -> dict[str, Any]:
    path = str_(payload.get("path"))
    if not is_safe_workspace_path(path):
        return {"kind": "system", "ts": ts, "text": UNSAFE_REFERENCE}
    presentation = str_(payload.get("presentation"))
    preview = ntext(payload.get("preview"))
    truncated = payload.get("previewTruncated") is True
    if preview is not None and len(preview) > MAX_PREVIEW_CHARS:
        preview, truncated = preview[:MAX_PREVIEW_CHARS], True
    source = payload.get("source")
    return {
        "kind": "workspace_file_reference",
        "ts": ts,
        "referenceId": str_(payload.get("referenceId"), "workspace-file:" + path),
        "source": "runner_verified" if source == "runner_verified" else "harness_reported",
        "path": path,
        "displayName": str_(payload.get("displayName"), path.rsplit("/", 1)[-1]),
        "mediaType": ntext(payload.get("mediaType")),
        "presentation": presentation if presentation in _PRESENTATIONS else "generic",
        "line": nnum(payload.get("line")),
        "preview": preview,
        "previewTruncated": truncated,
        "contentDigest": ntext(payload.get("contentDigest")),
    }
