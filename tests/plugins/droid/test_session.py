"""droid_session: the sessions Droid keeps in ~/.factory/sessions, with their settings file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from linewise_contracts.usage import TokenUsage
from linewise_droid import session
from session_checks import HOST_TS, problems, render, session_entries
from support import corpus_path

SETTINGS = {
    "model": "claude-opus-4-6",
    "providerLock": "anthropic",
    "tokenUsage": {
        "inputTokens": 5120,
        "outputTokens": 2048,
        "cacheCreationTokens": 1024,
        "cacheReadTokens": 65536,
        "thinkingTokens": 512,
    },
}


def _home(tmp_path: Path) -> Path:
    folder = tmp_path / ".factory" / "sessions" / "-work"
    folder.mkdir(parents=True)
    shutil.copy(
        corpus_path("field-samples", "droid", "agi-cli-session-droid-execute-create.jsonl"),
        folder / "s-droid-exec-create.jsonl",
    )
    (folder / "s-droid-exec-create.settings.json").write_text(json.dumps(SETTINGS))
    return tmp_path


def test_the_store_is_under_the_home_folder(tmp_path: Path) -> None:
    (store,) = session.session_stores({}, tmp_path)
    assert (store.cli, store.root) == ("droid", tmp_path / ".factory" / "sessions")
    found = [path for pattern in store.patterns for path in store.root.glob(pattern)]
    assert found == []  # a missing folder finds nothing
    home = _home(tmp_path)
    found = [path for pattern in store.patterns for path in store.root.glob(pattern)]
    assert [path.name for path in found] == ["s-droid-exec-create.jsonl"]
    assert home == tmp_path


def test_a_session_with_its_settings_names_the_model_and_pairs_every_tool_call(
    tmp_path: Path,
) -> None:
    path = _home(tmp_path) / ".factory" / "sessions" / "-work" / "s-droid-exec-create.jsonl"
    records = list(session.session_records(path))
    assert json.loads(records[0])["type"] == "droid_settings"
    entries = session_entries(session.create_stdout_parser, records)
    assert entries[0]["model"] == "claude-opus-4-6"
    assert entries[0]["sessionId"] == "s-droid-exec-create"
    # the session_start record has no time of its own; everything else has
    assert [problem for problem in problems(entries) if problem != "host time on init"] == [
        "host time on system"
    ]
    summary = session.summarize_run(records)
    assert summary.token_usage == TokenUsage(
        uncached_input=5120, cache_read=65536, cache_write=1024, output=2048, reasoning=512
    )
    assert (summary.model, summary.session_id) == ("claude-opus-4-6", "s-droid-exec-create")
    assert summary.details["title"] == "droid execute+create fixture"


def test_without_a_settings_file_usage_is_unknown_not_zero(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    shutil.copy(corpus_path("field-samples", "droid", "agi-cli-session-render-droid.jsonl"), path)
    records = list(session.session_records(path))
    assert len(records) == 3
    summary = session.summarize_run(records)
    assert summary.token_usage.is_empty and summary.model is None


def test_droids_system_reminders_are_notes_not_the_persons_words() -> None:
    record = {
        "type": "message",
        "timestamp": "2026-07-01T10:00:00Z",
        "message": {
            "role": "user",
            "content": [
                {
                    "type": "text",
                    "text": "<system-reminder>\n" + "Context. " * 200 + "</system-reminder>",
                },
                {"type": "text", "text": "Add a CHANGELOG entry"},
                {"type": "image", "source": {"data": "..."}},
            ],
        },
    }
    entries = session.create_stdout_parser().parse_line(json.dumps(record), HOST_TS)
    assert [entry["kind"] for entry in entries] == ["system", "user", "system"]
    assert entries[0]["text"].startswith("system reminder: <system-reminder> Context.")
    assert len(entries[0]["text"]) < 400
    assert entries[2]["text"] == "(image block)"


def test_a_session_file_renders_auto_detected(tmp_path: Path) -> None:
    path = _home(tmp_path) / ".factory" / "sessions" / "-work" / "s-droid-exec-create.jsonl"
    stderr, entries = render(path)
    assert "droid_session" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]


@pytest.mark.parametrize(
    "lines",
    [
        ['{"type":"message","id":"1","parentId":null,"message":{"role":"user","content":"x"}}'] * 3,
        ['{"type":"user","message":{"role":"user","content":"x"}}'],
        ["not json"],
    ],
)
def test_what_is_not_a_droid_session_scores_zero(lines: list[str]) -> None:
    assert session.sniff(lines) == 0.0
