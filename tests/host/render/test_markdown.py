"""``-f markdown`` and ``linewise share``: GitHub-flavoured transcripts that read well raw,
render as a person expects, and that agent text cannot break out of."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from linewise.cli import main
from linewise.render import create_renderer
from linewise.render.markdown import SHOWN_LINES, fence
from linewise_contracts.summary import RunSummary, Usage
from markdown_it import MarkdownIt
from markdown_it.token import Token
from support import TS, corpus_path

# GitHub's renderer: CommonMark with tables and strikethrough, raw HTML passed through.
GITHUB = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def draw(entries: list[dict[str, Any]], summary: RunSummary | None = None, **options: Any) -> str:
    out = io.StringIO()
    renderer = create_renderer(out, format="markdown", title="run.jsonl", **options)
    for entry in entries:
        renderer.write({"ts": TS, **entry})  # type: ignore[arg-type]
    renderer.close(summary=summary)
    return out.getvalue()


def tokens(markdown: str) -> list[Token]:
    return GITHUB.parse(markdown)


def html_tokens(markdown: str) -> list[Token]:
    """Raw HTML GitHub would pass through: blocks, and inline pieces at any depth."""
    found = [t for t in tokens(markdown) if t.type == "html_block"]
    for token in tokens(markdown):
        found += [c for c in token.children or [] if c.type == "html_inline"]
    return found


def headings(markdown: str) -> list[str]:
    parsed = tokens(markdown)
    return [parsed[i + 1].content for i, t in enumerate(parsed) if t.type == "heading_open"]


def call(ident: str, name: str, value: Any, **extra: Any) -> dict[str, Any]:
    return {"kind": "tool_call", "name": name, "input": value, "toolUseId": ident, **extra}


def result(ident: str, content: str, **extra: Any) -> dict[str, Any]:
    return {"kind": "tool_result", "toolUseId": ident, "content": content, "isError": False} | extra


# -- structure --------------------------------------------------------------------------------


def test_each_turn_has_a_heading_and_tool_calls_are_fenced_in_their_language() -> None:
    markdown = draw(
        [
            {"kind": "user", "text": "fix the tests"},
            {"kind": "assistant", "text": "Let me look."},
            call("t1", "Bash", {"command": "pytest -q", "description": "run tests"}),
            result("t1", "1 failed"),
            call("t2", "Write", {"file_path": "src/app.py", "content": "def f():\n    return 1\n"}),
            result("t2", "written"),
            {"kind": "assistant", "text": "Done."},
        ]
    )
    assert headings(markdown) == ["run.jsonl", "Turn 1", "Turn 2", "Turn 3"]
    fences = [t for t in tokens(markdown) if t.type == "fence"]
    assert [(f.info, f.content) for f in fences] == [
        ("bash", "pytest -q\n"),
        ("text", "1 failed\n"),
        ("python", "def f():\n    return 1\n\n"),
        ("text", "written\n"),
    ]


def test_edits_and_diff_entries_are_diff_blocks() -> None:
    markdown = draw(
        [
            call("t1", "Edit", {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}),
            {"kind": "diff", "changeType": "file_header", "text": "--- a/b.py"},
            {"kind": "diff", "changeType": "hunk", "text": "@@ -1 +1 @@"},
            {"kind": "diff", "changeType": "remove", "text": "-old"},
            {"kind": "diff", "changeType": "add", "text": "+new"},
        ]
    )
    fences = [(t.info, t.content) for t in tokens(markdown) if t.type == "fence"]
    assert fences == [
        ("diff", "-x = 1\n+x = 2\n"),
        ("diff", "--- a/b.py\n@@ -1 +1 @@\n-old\n+new\n"),
    ]


def test_the_header_tells_the_outcome_usage_and_cost_as_every_view_does() -> None:
    summary = RunSummary(
        model="claude-x",
        usage=Usage(input_tokens=1200, output_tokens=30, cached_tokens=5000),
        cost_usd=0.0123,
        outcome="completed",
        complete=True,
    )
    markdown = draw([{"kind": "assistant", "text": "hi"}], summary)
    table = markdown.split("\n\n")[1]
    assert "| Outcome | completed |" in table
    # an older plugin's wire-format usage, labelled as the CLI's own counts
    assert "whole run: tokens in the CLI's own counts: input 1,200" in table
    assert "cost $0.0123" in table
    assert any(t.type == "table_open" for t in tokens(markdown))


def test_a_subagent_is_nested_one_quote_level_under_the_call_that_started_it() -> None:
    markdown = draw(
        [
            call("t1", "Task", {"description": "map the tests", "prompt": "look around"}),
            {"kind": "assistant", "text": "inner work", "parentToolUseId": "t1"},
            call("t2", "Read", {"file_path": "x.py"}, parentToolUseId="t1"),
            result("t2", "contents", parentToolUseId="t1"),
            result("t1", "subagent report"),
            {"kind": "assistant", "text": "outer again"},
        ]
    )
    lines = markdown.split("\n")
    assert "> > inner work" in lines
    assert "**\\#1 subagent: map the tests**" in lines  # then its work, quoted
    assert "> outer again" in lines
    assert "> ```text" in lines and "```text" in lines  # the subagent's result, then the outer


def test_thinking_is_a_note_unless_asked_for() -> None:
    entries = [
        {"kind": "thinking", "text": "hmm, secret plan"},
        {"kind": "assistant", "text": "ok"},
    ]
    assert "secret plan" not in draw(entries)
    assert "--thinking shows it" in draw(entries)
    assert "> hmm, secret plan" in draw(entries, thinking=True)


def test_streamed_fragments_are_one_quote() -> None:
    parts = ["Hel", "lo ", "world"]
    markdown = draw([{"kind": "assistant", "text": t, "delta": True} for t in parts])
    assert "> Hello world" in markdown.split("\n")


def test_long_outputs_are_shortened_and_say_so_unless_full() -> None:
    output = "\n".join(f"line {n}" for n in range(200))
    entries = [call("t1", "Bash", {"command": "seq 200"}), result("t1", output)]
    short = draw(entries)
    assert f"line {SHOWN_LINES - 1}" in short and f"line {SHOWN_LINES}\n" not in short
    assert f"{200 - SHOWN_LINES} more lines not shown (--full shows all)" in short
    assert "line 199" in draw(entries, full=True)


# -- agent text cannot break out -------------------------------------------------------------

HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "<details open><summary>click</summary>",
    "text with inline <b>bold</b> and <!-- a comment -->",
    "```\nan unclosed fence swallowing the rest",
    "# A heading pretending to be ours",
    "[ref]: https://evil.example",
    "~~~",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_agent_prose_cannot_inject_html_or_break_the_structure(text: str) -> None:
    markdown = draw(
        [
            {"kind": "user", "text": text},
            {"kind": "assistant", "text": text},
            {"kind": "thinking", "text": text},
            call("t1", text, {"command": text, text: text}),
            result("t1", text, toolName=text),
            {"kind": "system", "text": text},
            {"kind": "assistant", "text": "after"},
        ],
        thinking=True,
    )
    assert html_tokens(markdown) == []
    assert headings(markdown) == ["run.jsonl", "Turn 1", "Turn 2"]
    # What follows is still drawn as ours: the last quote is a paragraph of its own.
    parsed = tokens(markdown)
    assert [t.type for t in parsed[-5:]] == [
        "blockquote_open",
        "paragraph_open",
        "inline",
        "paragraph_close",
        "blockquote_close",
    ]
    assert parsed[-3].content == "after" and parsed[-5].level == 0


def test_a_fence_is_longer_than_any_backtick_run_inside() -> None:
    text = "a ``` b\n````\nc"
    block = fence(text, "text")
    assert block[0] == "`````text" and block[-1] == "`````"
    parsed = [t for t in tokens("\n".join(block)) if t.type == "fence"]
    assert [t.content for t in parsed] == [text + "\n"]


def test_an_agent_code_block_in_prose_stays_code_inside_its_quote() -> None:
    markdown = draw([{"kind": "assistant", "text": "see:\n```python\nx = '<b>'\n```\nok"}])
    fences = [t for t in tokens(markdown) if t.type == "fence"]
    assert [(f.info, f.content) for f in fences] == [("python", "x = '<b>'\n")]
    assert html_tokens(markdown) == []


def test_control_sequences_in_agent_text_are_neutralised() -> None:
    markdown = draw([{"kind": "assistant", "text": "red \x1b[31mtext\x1b[0m \x1b]0;title\x07"}])
    assert "\x1b" not in markdown and "\x07" not in markdown


# -- the corpus, through the command ----------------------------------------------------------

CORPUS_LOGS = [
    ("claude", "perfectsnake-run1-max-turns.jsonl"),  # Explore subagents
    ("claude", "trackgentic-mp9xupi7-long-58tools.jsonl"),
    ("claude", "hivemind-2.1.284-subagent-thinking-tokens.jsonl"),
]


def _every_real_log() -> list[Path]:
    found: list[Path] = []
    for folder in (corpus_path("real-logs"), corpus_path("real-sessions")):
        found += [p for p in folder.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".log")]
    # Synthetic fixtures of formats no parser reads (Cursor stores) are shapes, not runs.
    found = [p for p in found if "composite-not-raw" not in p.parts]
    return sorted(found)


def test_every_real_log_and_session_renders_as_markdown_without_raw_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = _every_real_log()
    unrecognised = []
    for path in logs:
        out = tmp_path / (path.name + ".md")
        assert main(["render", str(path), "-f", "markdown", "-q", "-o", str(out)]) == 0, path
        if "using the generic parser" in capsys.readouterr().err:
            unrecognised.append(path.name)  # no parser reads it: its lines are shown raw
            continue
        markdown = out.read_text(encoding="utf-8")
        # JSON is only what the agent itself read or printed, inside its tool's result
        # block; prose and the generic parser's Output blocks never show a log line.
        shown, label = [], ""
        for token in tokens(markdown):
            if token.type == "inline":
                shown.append(token.content)
                label = token.content
            elif token.type == "fence" and not label.startswith("**Result**"):
                shown.append(token.content)
        raw = [
            line.strip()
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
            if line.strip().startswith("{") and len(line.strip()) > 40
        ]
        assert not [line[:80] for line in raw if any(line in text for text in shown)], path
        assert html_tokens(markdown) == [], path
        assert headings(markdown)[0] == path.name.replace("_", "\\_"), path
    assert len(logs) - len(unrecognised) > 80
    assert len(unrecognised) < 5, unrecognised


def test_a_claude_run_with_subagents_nests_their_work_in_markdown(tmp_path: Path) -> None:
    path = corpus_path("real-logs", *CORPUS_LOGS[0])
    out = tmp_path / "run.md"
    assert main(["render", str(path), "-f", "markdown", "-q", "-o", str(out)]) == 0
    markdown = out.read_text(encoding="utf-8")
    assert "`Task` starts Explore: " in markdown
    parsed = tokens(markdown)
    assert max(t.level for t in parsed if t.type == "blockquote_open") >= 1  # a quote in a quote


def test_share_writes_markdown_with_secrets_redacted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "AKIA" + "QX7Z2M4N6P8R0T1V"
    path = tmp_path / "run.jsonl"
    line = {
        "type": "assistant",
        "message": {"id": "m", "role": "assistant", "content": [{"type": "text", "text": key}]},
    }
    path.write_text(json.dumps(line) + "\n")
    out = tmp_path / "run.md"
    assert main(["share", str(path), "-a", "claude_local", "-o", str(out)]) == 0
    markdown = out.read_text()
    assert markdown.startswith("# run.jsonl") and "[redacted: aws-access-key]" in markdown
    assert key not in markdown
    assert "1 secret redacted (aws-access-key 1)" in capsys.readouterr().err
    assert main(["share", str(path), "-a", "claude_local", "--no-redact", "-o", str(out)]) == 0
    assert key in out.read_text()
