"""openhands_local and openhands_session: SDK events on stdout and conversation folders."""

from __future__ import annotations

import json
from pathlib import Path

import linewise_openhands
from linewise_contracts.compliance import run_checks
from linewise_contracts.usage import TokenUsage
from linewise_openhands import create_stdout_parser, session, sniff, summarize_run
from session_checks import HOST_TS, real_corpus_files, render, session_entries, unpaired
from support import corpus_path, parse_flat

RUN = Path(linewise_openhands.__file__).parent / "samples" / "openhands-headless-json.jsonl"
TRAJECTORY = ("field-samples", "openhands", "trajectory-cli447-events.jsonl")


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_sample_run_pairs_each_action_with_its_observation() -> None:
    entries = parse_flat(create_stdout_parser, _lines(RUN), ts=HOST_TS)
    assert unpaired(entries) == set()
    results = [(e["toolName"], e["isError"]) for e in entries if e["kind"] == "tool_result"]
    assert results == [
        ("execute_bash", False),
        ("file_editor", True),
        ("execute_bash", False),
        ("finish", False),
    ]
    calls = [e for e in entries if e["kind"] == "tool_call"]
    assert calls[0]["input"] == {
        "command": "python -m pytest tests/test_invoice.py -q",
        "security_risk": "LOW",
    }
    assert entries[0] == {
        "kind": "user",
        "ts": "2026-12-01T10:00:00.120Z",
        "text": "The invoice total test fails; fix the rounding.",
    }


def test_the_stats_update_gives_usage_and_cost_with_the_cache_apart() -> None:
    summary = summarize_run(_lines(RUN))
    assert summary.token_usage == TokenUsage(
        uncached_input=58240 - 45056 - 6144,
        cache_read=45056,
        cache_write=6144,
        output=812,
        reasoning=96,
    )
    assert (summary.cost_usd, summary.cost_source) == (0.04212, "reported")
    assert (summary.outcome, summary.complete) == ("completed", True)
    assert (
        summary.final_text == "Totals now round half up (10.005 -> 10.01); both invoice tests pass."
    )
    assert summary.model == "anthropic/claude-sonnet-4-6"


def test_the_recorded_trajectory_renders_auto_detected_with_no_raw_json() -> None:
    stderr, entries = render(corpus_path(*TRAJECTORY))
    assert "detected openhands_local" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    assert unpaired(entries) == set()
    summary = summarize_run(_lines(corpus_path(*TRAJECTORY)))
    assert summary.token_usage.is_empty  # no stats in it: unknown, not 0


def test_a_conversation_folder_is_one_session(tmp_path: Path) -> None:
    (store,) = session.session_stores({}, tmp_path)
    assert store.root == tmp_path / ".openhands" / "conversations"
    (moved,) = session.session_stores(
        {"OPENHANDS_CONVERSATIONS_DIR": str(tmp_path / "c")}, tmp_path
    )
    assert moved.root == tmp_path / "c"
    folder = store.root / "5b7e0c1d2f3a"
    (folder / "events").mkdir(parents=True)
    state = {
        "id": "5b7e0c1d2f3a",
        "agent": {"llm": {"model": "anthropic/claude-sonnet-4-6"}},
        "workspace": {"working_dir": "/home/ana/src/billing"},
    }
    (folder / "base_state.json").write_text(json.dumps(state, indent=2))
    for number, line in enumerate(_lines(RUN)):
        event = json.loads(line)
        (folder / "events" / f"event-{number:05}-{event['id']}.json").write_text(
            json.dumps(event, indent=2)
        )
    (folder / "events" / "event-99999-broken.json").write_text("{not json")
    path = folder / "base_state.json"
    assert [p for pattern in store.patterns for p in store.root.glob(pattern)] == [path]
    records = list(session.session_records(path))
    entries = session_entries(session.create_stdout_parser, records)
    assert entries[0]["kind"] == "init"
    assert (entries[0]["sessionId"], entries[0]["cwd"]) == ("5b7e0c1d2f3a", "/home/ana/src/billing")
    assert unpaired(entries) == set()
    assert entries[-1]["text"].startswith("linewise.UnreadableEvent")  # counted, not lost
    assert session.summarize_run(records).session_id == "5b7e0c1d2f3a"


def test_other_clis_are_not_openhands() -> None:
    paths = real_corpus_files()
    first = {path: _lines(path)[:40] for path in paths}
    assert {path.name: sniff(lines) for path, lines in first.items() if sniff(lines)} == {}


def test_the_compliance_checks_pass() -> None:
    report = run_checks("openhands_local", examples=100)
    assert report.ok, [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]


def test_an_event_whose_source_is_not_a_word_is_no_known_event() -> None:
    # A list or an object where the source's word belongs: no TypeError (unhashable) from
    # sniff, the line is simply not a known OpenHands event.
    for source in ([], ["agent"], {"name": "agent"}):
        line = json.dumps({"kind": "MessageEvent", "source": source, "id": "e1"})
        assert sniff([line]) == 0.0
    known = json.dumps({"kind": "MessageEvent", "source": "agent", "id": "e1"})
    assert sniff([known]) > 0.5
