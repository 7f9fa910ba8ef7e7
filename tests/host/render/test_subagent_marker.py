"""A tool call's ``startsSubagent`` (contract 1.5) decides whether it starts a subagent in
every view; the tool name is only the fallback for calls without it (1.x plugins)."""

from __future__ import annotations

import io
from typing import Any

from linewise.render import CompactRenderer, TextRenderer
from linewise.render.html import HtmlRenderer
from linewise.render.preview import subagent_kind
from linewise.transcript.fold import RunFold
from support import TS


def _call(ident: str, name: str) -> dict[str, Any]:
    tool_input = {"agent_type": "worker", "message": "write the tests"}
    return {"kind": "tool_call", "ts": TS, "name": name, "input": tool_input, "toolUseId": ident}


def _inside(parent: str) -> dict[str, Any]:
    return {"kind": "assistant", "ts": TS, "text": "working", "parentToolUseId": parent}


def _drawn(renderer_type: Any, entries: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    renderer = renderer_type(out)
    for entry in entries:
        renderer.write(entry)
    renderer.close()
    return out.getvalue()


def test_a_marked_call_with_a_name_no_guess_knows_starts_a_subagent() -> None:
    # Codex's app server names the tool spawnAgent: only the marker says what it does.
    marked = {**_call("c1", "spawnAgent"), "startsSubagent": True}
    entries = [marked, _inside("c1")]
    assert subagent_kind("spawnAgent", marked["input"], marker=True) == "worker"
    assert "subagent worker: write the tests" in _drawn(TextRenderer, entries)
    assert "⤷ worker · working" in _drawn(CompactRenderer, entries)
    page = io.StringIO()
    html = HtmlRenderer(page, title="run")
    for entry in entries:
        html.write(entry)  # type: ignore[arg-type]
    html.close()
    assert '<details class="subagent" open>' in page.getvalue()
    fold = RunFold()
    fold.add(marked)
    assert fold.subagent_calls == 1


def test_a_call_marked_false_is_no_subagent_whatever_its_name() -> None:
    unmarked = {**_call("c1", "Task"), "startsSubagent": False}
    assert subagent_kind("Task", unmarked["input"], marker=False) is None
    assert "subagent" not in _drawn(TextRenderer, [unmarked])
    assert _drawn(CompactRenderer, [unmarked]) == "[Task]\n"  # not "[Task: worker]"
    fold = RunFold()
    fold.add(unmarked)
    assert fold.subagent_calls == 0


def test_without_the_marker_an_older_plugins_task_call_is_still_guessed_by_name() -> None:
    older = _call("c1", "Task")
    assert "subagent worker: write the tests" in _drawn(TextRenderer, [older, _inside("c1")])
    fold = RunFold()
    fold.add(older)
    assert fold.subagent_calls == 1
