"""``-f agent-trace``: the files and lines a run's agent wrote, linked to its conversation
and model, as an Agent Trace record; never a guessed range."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import jsonschema
from linewise.cli import main
from linewise.render.agent_trace import AgentTraceRenderer, added_lines
from support import TS, corpus_path

# Agent Trace v0.1.0 as its specification describes a record (written for these tests).
_RANGE = {
    "type": "object",
    "required": ["start_line", "end_line"],
    "properties": {
        "start_line": {"type": "integer", "minimum": 1},
        "end_line": {"type": "integer", "minimum": 1},
        "content_hash": {"type": "string"},
    },
}
SCHEMA = {
    "type": "object",
    "required": ["version", "id", "timestamp", "files"],
    "properties": {
        "version": {"const": "0.1.0"},
        "id": {
            "type": "string",
            "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
        },
        "timestamp": {"type": "string", "pattern": "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"},
        "vcs": {
            "type": "object",
            "required": ["type", "revision"],
            "properties": {
                "type": {"enum": ["git", "jj", "hg", "svn"]},
                "revision": {"type": "string"},
            },
        },
        "tool": {"type": "object", "required": ["name"]},
        "files": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["path", "conversations"],
                "properties": {
                    "path": {"type": "string", "minLength": 1},
                    "conversations": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["ranges"],
                            "properties": {
                                "url": {"type": "string"},
                                "contributor": {
                                    "type": "object",
                                    "required": ["type"],
                                    "properties": {
                                        "type": {"enum": ["ai", "human", "mixed", "unknown"]},
                                        "model_id": {"type": "string"},
                                    },
                                },
                                "ranges": {"type": "array", "items": _RANGE},
                                "related": {"type": "array", "items": {"type": "object"}},
                            },
                        },
                    },
                },
            },
        },
        "metadata": {"type": "object"},
    },
}


def record(entries: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    out = io.StringIO()
    renderer = AgentTraceRenderer(out, adapter_type="claude_local", **options)
    for entry in entries:
        renderer.write({"ts": TS, **entry})  # type: ignore[arg-type]
    renderer.close()
    document: dict[str, Any] = json.loads(out.getvalue())
    jsonschema.validate(document, SCHEMA)
    return document


def ranges(document: dict[str, Any]) -> dict[str, list[tuple[int, int]]]:
    return {
        f["path"]: [(r["start_line"], r["end_line"]) for r in f["conversations"][0]["ranges"]]
        for f in document["files"]
    }


def call(ident: str, name: str, value: Any) -> dict[str, Any]:
    return {"kind": "tool_call", "name": name, "input": value, "toolUseId": ident}


def result(ident: str, content: str) -> dict[str, Any]:
    return {"kind": "tool_result", "toolUseId": ident, "content": content, "isError": False}


def test_a_written_file_is_attributed_whole_to_the_model_and_the_conversation() -> None:
    document = record(
        [
            {"kind": "init", "model": "claude-x", "sessionId": "s-1"},
            call("t1", "Write", {"file_path": "src/app.py", "content": "a\nb\nc\n"}),
        ],
        revision="a1b2c3",
    )
    assert ranges(document) == {"src/app.py": [(1, 3)]}
    conversation = document["files"][0]["conversations"][0]
    assert conversation["contributor"] == {"type": "ai", "model_id": "claude-x"}
    assert conversation["related"] == [{"type": "session", "url": "claude_local:s-1"}]
    assert document["vcs"] == {"type": "git", "revision": "a1b2c3"}


def test_an_edit_takes_its_lines_from_the_numbered_snippet_of_its_result() -> None:
    snippet = "    9→def f():\n    10→    return 2\n    11→\n    12→x = f()"
    document = record(
        [
            call(
                "t1",
                "Edit",
                {"file_path": "a.py", "old_string": "return 1", "new_string": "    return 2"},
            ),
            result("t1", f"The file a.py has been updated. Here's the result:\n{snippet}"),
        ]
    )
    assert ranges(document) == {"a.py": [(10, 10)]}
    assert "metadata" not in document["files"][0]


def test_an_edit_whose_lines_the_transcript_does_not_show_has_no_guessed_range() -> None:
    document = record(
        [
            call("t1", "Edit", {"file_path": "a.py", "old_string": "x", "new_string": "y"}),
            result("t1", "The file a.py has been updated."),
        ]
    )
    assert ranges(document) == {"a.py": []}
    assert document["files"][0]["metadata"] == {"lines": "unknown"}
    assert "vcs" not in document  # no CLI reports the revision


def test_patches_and_diffs_give_the_lines_they_add() -> None:
    patch = "*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** End Patch"
    diff = "--- a/b.py\n+++ b/b.py\n@@ -3,3 +3,4 @@\n ctx\n-old\n+new\n+newer\n ctx"
    document = record(
        [
            call("t1", "shell", {"command": ["bash", "-lc", f"apply_patch <<'P'\n{patch}\nP"]}),
            {"kind": "diff", "changeType": "file_header", "text": "--- a/c.py"},
            {"kind": "diff", "changeType": "file_header", "text": "+++ b/c.py"},
            {"kind": "diff", "changeType": "hunk", "text": "@@ -1 +1,2 @@"},
            {"kind": "diff", "changeType": "add", "text": "+x"},
            {"kind": "diff", "changeType": "context", "text": " y"},
            {
                "kind": "workspace_change",
                "files": [{"path": "b.py", "operation": "modify", "diff": diff}],
            },
        ]
    )
    assert ranges(document) == {"new.txt": [(1, 2)], "c.py": [(1, 1)], "b.py": [(4, 5)]}


def test_added_lines_follows_hunk_numbering_through_context_and_removals() -> None:
    diff = "+++ b/f\n@@ -10,4 +20,5 @@\n a\n-b\n+c\n a\n+d\n+e"
    assert added_lines(diff) == {"f": [21, 23, 24]}


def _corpus() -> list[Path]:
    return [
        p
        for folder in (corpus_path("real-logs"), corpus_path("real-sessions"))
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix in (".jsonl", ".log")
    ]


def test_every_real_log_and_session_gives_a_valid_record(tmp_path: Path) -> None:
    with_ranges = 0
    for path in _corpus():
        out = tmp_path / (path.name + ".json")
        assert main(["render", str(path), "-f", "agent-trace", "-q", "-o", str(out)]) == 0, path
        document = json.loads(out.read_text())
        jsonschema.validate(document, SCHEMA)
        for file in document["files"]:
            for found in file["conversations"][0]["ranges"]:
                assert found["start_line"] <= found["end_line"], path
        with_ranges += any(ranges(document).values())
    assert with_ranges >= 3  # Claude edits with snippets, Codex patches adding files
