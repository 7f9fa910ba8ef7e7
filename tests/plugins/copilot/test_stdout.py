"""copilot_local: `copilot -p ... --output-format json`, the session events plus a live run's own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_copilot
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_copilot import sniff as session_sniff
from linewise_copilot.stdout import check_environment, create_stdout_parser, sniff
from session_checks import HOST_TS, problems, render, session_entries
from support import check_levels, corpus_path, fake_executable, json_values

SAMPLES = Path(linewise_copilot.__file__).parent / "samples"
RUN = SAMPLES / "stdout-run.jsonl"


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_a_streamed_run_shows_each_text_once_and_ends_with_its_session_id() -> None:
    entries = session_entries(create_stdout_parser, _lines(RUN))
    assert [entry for entry in problems(entries) if "first entry" not in entry] == []
    thinking = [entry for entry in entries if entry["kind"] == "thinking"]
    assert [entry["text"] for entry in thinking] == ["I should read ", "the script."]
    assert all(entry.get("delta") is True for entry in thinking)
    said = [entry["text"] for entry in entries if entry["kind"] == "assistant"]
    assert "".join(said) == "It runs `make all`."  # the complete message adds nothing
    init, result = entries[-2:]
    assert init == {
        "kind": "init",
        "ts": "2026-06-03T09:30:08.000Z",
        "model": "",
        "sessionId": "5b1e0c2a-0000-4000-8000-00000000beef",
    }
    assert result["kind"] == "result" and result["isError"] is False


def test_a_failed_run_and_reported_usage() -> None:
    parser = create_stdout_parser()
    start = {
        "type": "session.start",
        "data": {"sessionId": "s-1", "context": {"cwd": "/w"}},
        "id": "1",
        "timestamp": "2026-06-03T09:00:00Z",
        "parentId": None,
    }
    final = {
        "type": "result",
        "timestamp": "2026-06-03T09:00:09Z",
        "sessionId": "s-1",
        "exitCode": 1,
        "usage": {"inputTokens": 10, "outputTokens": 2, "cacheReadTokens": 4},
    }
    assert parser.parse_line(json.dumps(start), HOST_TS)[0]["kind"] == "init"
    [result] = parser.parse_line(json.dumps(final), HOST_TS)  # no second init
    assert (result["isError"], result["errors"], result["inputTokens"], result["cachedTokens"]) == (
        True,
        ["exit code 1"],
        10,
        4,
    )


def test_ephemeral_progress_gives_nothing() -> None:
    parser = create_stdout_parser()
    for kind in ("session.idle", "tool.execution_partial_result", "tool.execution_progress"):
        line = json.dumps(
            {"type": kind, "data": {}, "ephemeral": True, "timestamp": "2026-06-03T09:00:00Z"}
        )
        assert parser.parse_line(line, HOST_TS) == []


def test_detection_tells_stdout_from_session_files() -> None:
    run = _lines(RUN)
    assert sniff(run) >= 0.9 and session_sniff(run) <= 0.6
    session = _lines(SAMPLES / "copilot_session" / "events.jsonl")
    assert session_sniff(session) >= 0.9 and sniff(session) <= 0.5
    for path in corpus_path("real-sessions", "copilot").glob("*.jsonl"):
        assert sniff(_lines(path)[:40]) <= 0.5, path.name
    for folder in sorted(corpus_path("real-logs").iterdir()):
        if folder.is_dir():
            for path in folder.iterdir():
                text = path.read_text(encoding="utf-8", errors="replace")
                lines = [line.strip() for line in text.splitlines() if line.strip()][:40]
                assert sniff(lines) == 0.0, path.name


def test_the_host_detects_a_stdout_run(tmp_path: Path) -> None:
    path = tmp_path / "copilot-run.jsonl"
    path.write_text(RUN.read_text(encoding="utf-8"), encoding="utf-8")
    stderr, entries = render(path)
    assert "detected copilot_local" in stderr, stderr
    assert any(entry["kind"] == "result" for entry in entries)


@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(
                    [
                        "assistant.message_delta",
                        "assistant.reasoning_delta",
                        "assistant.message",
                        "assistant.reasoning",
                        "result",
                        "session.idle",
                        "tool.execution_complete",
                    ]
                ),
                "data": st.dictionaries(
                    st.sampled_from(
                        [
                            "messageId",
                            "reasoningId",
                            "deltaContent",
                            "content",
                            "reasoningText",
                            "toolRequests",
                            "sessionId",
                            "exitCode",
                            "usage",
                        ]
                    ),
                    json_values,
                    max_size=5,
                ),
            }
        ),
        max_size=6,
    )
)
def test_never_raises_on_hostile_events(events: list[dict[str, Any]]) -> None:
    parser = create_stdout_parser()
    for event in events:
        for entry in parser.parse_line(json.dumps(event), HOST_TS):
            assert entry_problem(entry) is None, entry


def test_the_compliance_checks_pass() -> None:
    report = run_checks("copilot_local", examples=200)
    failed = [
        f"{result.check}: {result.message}" for result in report.results if result.status == "fail"
    ]
    assert report.ok, failed


def test_the_environment_check_finds_the_command_and_names_the_token(tmp_path: Path) -> None:
    fake_executable(tmp_path, "copilot")
    checks = check_levels(check_environment({"PATH": str(tmp_path), "GH_TOKEN": "secret-value"}))
    assert checks == {"copilot_command_found": "info", "copilot_token_found": "info"}
    found = check_environment({"PATH": str(tmp_path), "GH_TOKEN": "secret-value"})
    assert all("secret-value" not in (check.message + str(check.detail)) for check in found)
    missing = check_levels(check_environment({"PATH": str(tmp_path / "nowhere")}))
    assert missing == {"copilot_command_missing": "error", "copilot_token_unset": "info"}


def test_copilot_1_0_63_set_up_events_are_read_not_raw() -> None:
    path = corpus_path("field-samples", "copilot", "copilot-1.0.63-json-capture-excerpt.jsonl")
    entries = session_entries(create_stdout_parser, _lines(path))
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    notes = [entry["text"] for entry in entries if entry["kind"] == "system"]
    assert "MCP server github-mcp-server: connected" in notes
    assert "MCP servers: github-mcp-server (connected)" in notes
    assert "tools updated for gpt-5.4" in notes
    lines = [
        '{"type":"session.skills_loaded","data":{"skills":[{"name":"code-review"},{"name":"pdf"}]}}',
        '{"type":"session.mode_changed","data":{"newMode":"plan"}}',
        '{"type":"assistant.usage","data":{"model":"gpt-5.4","inputTokens":10,"outputTokens":2}}',
    ]
    parsed = session_entries(create_stdout_parser, lines)
    assert [entry["text"] for entry in parsed] == ["skills loaded: code-review, pdf", "mode: plan"]
