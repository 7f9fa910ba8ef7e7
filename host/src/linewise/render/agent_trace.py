"""The Agent Trace format (``-f agent-trace``): which lines of which files the run's agent
wrote, linked to its conversation and model, as one Agent Trace record (v0.1.0).

Files and line ranges come from what the transcript shows of each edit: a
``Write`` (the whole file), an ``Edit`` or ``MultiEdit`` (the lines of the new
text in the numbered snippet its result shows, when it shows one), an
``apply_patch`` (added files, and the ``+`` lines of unified-diff hunks),
diff entries and ``workspace_change`` entries (their hunks). Where the
transcript does not say which lines an edit touched, the file is listed with
no ranges and ``"lines": "unknown"`` in its metadata, never a guessed range.
A VCS revision is written only when given (``revision``): no CLI's output
carries it.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import IO, Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise.settings.version import __version__

__all__ = ["VERSION", "AgentTraceRenderer", "added_lines"]

#: The Agent Trace specification version written.
VERSION: Final = "0.1.0"
_WRITE_TOOLS: Final = frozenset({"Write", "write_file", "create_file", "WriteFile"})
_EDIT_TOOLS: Final = frozenset({"Edit", "MultiEdit", "edit", "replace", "edit_file", "str_replace"})
_PATCH_TOOLS: Final = frozenset({"apply_patch", "ApplyPatch"})
_PATH_KEYS: Final = ("file_path", "filePath", "path", "absolute_path")
_HUNK: Final = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_NUMBERED: Final = re.compile(r"^\s{0,8}(\d{1,9})(?:→|\t)(.*)$")
# Files remembered at most; past it, further files are counted, not listed.
_MAX_FILES: Final = 10_000


def _ranges(lines: list[int]) -> list[tuple[int, int]]:
    """Line numbers as inclusive (start, end) runs."""
    out: list[tuple[int, int]] = []
    for number in sorted(set(lines)):
        if out and number == out[-1][1] + 1:
            out[-1] = (out[-1][0], number)
        else:
            out.append((number, number))
    return out


def added_lines(diff: str) -> dict[str, list[int]]:
    """The new-file line numbers of the ``+`` lines of a unified diff, by file path
    (``+++ b/path``; an ``*** Add File: path`` of apply_patch counts all its lines)."""
    found: dict[str, list[int]] = {}
    path: str | None = None
    number: int | None = None
    adding: str | None = None  # an apply_patch "Add File" whose lines are counted
    for line in diff.split("\n"):
        if line.startswith("*** Add File: "):
            adding, path, number = line[14:].strip(), None, 0
            found.setdefault(adding, [])
            continue
        if line.startswith(("*** Update File: ", "*** Delete File: ", "*** End Patch")):
            adding = None
            if line.startswith("*** Update File: "):
                path, number = line[17:].strip(), None
                found.setdefault(path, [])
            continue
        if adding is not None:
            if line.startswith("+") and number is not None:
                number += 1
                found[adding].append(number)
            continue
        if line.startswith("+++ "):
            target = line[4:].strip()
            path = target[2:] if target.startswith("b/") else target
            if path != "/dev/null":
                found.setdefault(path, [])
            number = None
            continue
        hunk = _HUNK.match(line)
        if hunk:
            number = int(hunk.group(1))
            continue
        if path is None or number is None or line.startswith("--- "):
            continue
        if line.startswith("+"):
            found.setdefault(path, []).append(number)
            number += 1
        elif line.startswith(" ") or line == "":
            number += 1
    return found


def _diff_line(item: Mapping[str, Any]) -> str:
    """A diff entry as its unified-diff line (the marker added when the plugin left it out)."""
    text: str = item["text"]
    marker = {"add": "+", "remove": "-", "context": " "}.get(item["changeType"], "")
    return text if not marker or text.startswith(marker) else marker + text


class AgentTraceRenderer:
    """Gathers the files the run's agent wrote, with their lines; writes the record at close."""

    def __init__(
        self,
        stream: IO[str],
        *,
        title: str = "transcript",
        adapter_type: str = "process",
        revision: str | None = None,
    ) -> None:
        self._stream = stream
        self._title = title
        self._adapter_type = adapter_type
        self._revision = revision
        self._files: dict[str, list[int]] = {}
        self._unknown: set[str] = set()  # files whose lines the transcript does not show
        self._edits: dict[str, tuple[str, list[str]]] = {}  # toolUseId -> (path, new lines)
        self._session: str | None = None
        self._model: str | None = None
        self._dropped = 0
        self._diff: list[str] = []  # diff entries' lines, read as one diff when they end

    def _add(self, path: str, lines: list[int] | None) -> None:
        if path not in self._files and len(self._files) >= _MAX_FILES:
            self._dropped += 1
            return
        self._files.setdefault(path, [])
        if lines is None:
            self._unknown.add(path)
        else:
            self._files[path] += lines

    def write(self, entry: TranscriptEntry) -> None:
        """Take what one entry says about files written."""
        item: Mapping[str, Any] = entry
        kind = item["kind"]
        if kind != "diff":
            self._end_diff()
        if kind == "init":
            self._session = self._session or item.get("sessionId") or None
            self._model = self._model or item.get("model") or None
        elif kind == "tool_call":
            self._tool_call(item)
        elif kind == "tool_result":
            self._tool_result(item)
        elif kind == "diff":
            self._diff.append(_diff_line(item))
        elif kind == "workspace_change":
            changes = item.get("files")
            for change in changes if isinstance(changes, list) else []:
                diff = change.get("diff")
                path = change.get("path")
                if not isinstance(path, str) or change.get("operation") == "delete":
                    continue
                if isinstance(diff, str) and diff:
                    lines = added_lines(diff if "+++ " in diff else f"+++ b/{path}\n{diff}")
                    self._add(path, lines.get(path, []) if lines else None)
                else:
                    self._add(path, None)

    def _end_diff(self) -> None:
        if self._diff:
            diff, self._diff = "\n".join(self._diff), []
            for path, lines in added_lines(diff).items():
                self._add(path, lines or None)

    def _tool_call(self, item: Mapping[str, Any]) -> None:
        name = item["name"]
        value = item["input"] if isinstance(item["input"], dict) else {}
        path = next((value[k] for k in _PATH_KEYS if isinstance(value.get(k), str)), None)
        if name in _WRITE_TOOLS and path and isinstance(value.get("content"), str):
            count = value["content"].count("\n") + (not value["content"].endswith("\n"))
            self._add(path, list(range(1, count + 1)))
        elif name in _EDIT_TOOLS and path:
            listed = value.get("edits")
            edits: list[Any] = listed if isinstance(listed, list) else [value]
            new: list[str] = []
            for edit in edits:
                text = edit.get("new_string") if isinstance(edit, dict) else None
                if isinstance(text, str):
                    new += [line for line in text.split("\n") if line.strip()]
            ident = item.get("toolUseId")
            if isinstance(ident, str) and ident and new:
                self._edits[ident] = (path, new)
            else:
                self._add(path, None)
        elif name in _PATCH_TOOLS or (name in ("shell", "Bash") and "apply_patch" in str(value)):
            patch = None
            for key in ("patch", "input", "command"):
                field = value.get(key)
                if isinstance(field, list):  # Codex's shell: ["bash", "-lc", "apply_patch <<..."]
                    field = "\n".join(part for part in field if isinstance(part, str))
                if isinstance(field, str):
                    patch = field
                    break
            if patch is None and isinstance(item["input"], str):
                patch = item["input"]
            for file, lines in added_lines(patch or "").items():
                self._add(file, lines or None)

    def _tool_result(self, item: Mapping[str, Any]) -> None:
        edit = self._edits.pop(item["toolUseId"], None)
        if edit is None:
            return
        path, new = edit
        if item["isError"]:
            return
        wanted = set(new)
        lines = []
        for line in item["content"].split("\n"):
            numbered = _NUMBERED.match(line)
            if numbered and numbered.group(2).strip() and numbered.group(2) in wanted:
                lines.append(int(numbered.group(1)))
        self._add(path, lines or None)

    def close(self, *, summary: RunSummary | None = None) -> None:
        """Write the Agent Trace record as one JSON document."""
        self._end_diff()
        for path, _ in self._edits.values():  # edits whose result never came
            self._add(path, None)
        model = (summary.model if summary else None) or self._model
        session = self._session or (summary.session_id if summary else None)
        files = []
        for path, lines in self._files.items():
            contributor: dict[str, Any] = {"type": "ai"}
            if model:
                contributor["model_id"] = model
            conversation: dict[str, Any] = {
                "contributor": contributor,
                "ranges": [{"start_line": a, "end_line": b} for a, b in _ranges(lines)],
            }
            if session:
                conversation["related"] = [
                    {"type": "session", "url": f"{self._adapter_type}:{session}"}
                ]
            record: dict[str, Any] = {"path": path, "conversations": [conversation]}
            if path in self._unknown:
                record["metadata"] = {"lines": "unknown" if not lines else "partly known"}
            files.append(record)
        document: dict[str, Any] = {
            "version": VERSION,
            "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"linewise:{session or self._title}")),
            "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "tool": {"name": "linewise", "version": __version__},
            "files": files,
            "metadata": {"source": self._title, "adapter_type": self._adapter_type},
        }
        if self._revision:
            document["vcs"] = {"type": "git", "revision": self._revision}
        if self._dropped:
            document["metadata"]["files_not_listed"] = self._dropped
        json.dump(document, self._stream, ensure_ascii=False, indent=2)
        self._stream.write("\n")
        self._stream.flush()
