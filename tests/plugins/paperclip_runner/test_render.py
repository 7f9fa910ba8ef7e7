"""``linewise render`` of Runner Protocol stdout: auto-detected, no raw JSON, every new kind
drawn in every view, the entries themselves in JSON Lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from linewise.cli import main
from linewise_contracts.entries import KINDS_1_3
from support import corpus_path

SAMPLE = (
    Path(__file__).parents[3]
    / "plugins/paperclip-runner/src/linewise_paperclip_runner/samples/runner-run.jsonl"
)
_ENVELOPE = "paperclip.prp.event"
#: What each view shows for each new kind (a word only that kind's drawing writes).
_SHOWN = {
    "text": {
        "provider_activity": "activity    Plan",
        "workspace_change": "changes     1 file",
        "workspace_file_reference": "file        src/dates.ts:12",
        "runtime_request": "request     permission request",
        "run_result": "run result  needs review",
        "run_terminal": "run end     turn completed",
    },
    "compact": {
        "provider_activity": "[Plan: running",
        "workspace_change": "[changes: 1 file",
        "workspace_file_reference": "[file: src/dates.ts:12",
        "runtime_request": "[request: permission request",
        "run_result": "[run result: needs review",
        "run_terminal": "[run end: turn completed",
    },
    "html": {
        "provider_activity": 'class="entry provider-activity',
        "workspace_change": 'class="entry workspace-change',
        "workspace_file_reference": 'class="entry workspace-file-reference',
        "runtime_request": 'class="entry runtime-request',
        "run_result": 'class="entry run-result',
        "run_terminal": 'class="entry run-terminal',
    },
}


def _render(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> str:
    assert main(["render", str(path), "-q", "--thinking", *options]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("view", "options"),
    [("text", ()), ("compact", ("--style", "compact")), ("html", ("-f", "html"))],
)
def test_every_new_kind_is_drawn_in_every_view_and_no_line_is_shown_raw(
    capsys: pytest.CaptureFixture[str], view: str, options: tuple[str, ...]
) -> None:
    out = _render(capsys, SAMPLE, *options)
    assert _ENVELOPE not in out and '"eventType"' not in out
    assert set(_SHOWN[view]) == set(KINDS_1_3)
    for kind, shown in _SHOWN[view].items():
        assert shown in out, (view, kind)


def test_json_lines_are_the_entries_themselves(capsys: pytest.CaptureFixture[str]) -> None:
    from linewise_paperclip_runner import create_stdout_parser

    out = _render(capsys, SAMPLE, "-f", "jsonl", "--ts", "2026-08-21T12:00:00Z")
    written = [json.loads(line) for line in out.splitlines()]
    parser = create_stdout_parser()
    expected = [
        entry
        for line in SAMPLE.read_text(encoding="utf-8").splitlines()
        for entry in parser.parse_line(line, "2026-08-21T12:00:00.000Z")
    ]
    assert [{k: v for k, v in e.items() if k != "ts"} for e in written] == [
        {k: v for k, v in e.items() if k != "ts"} for e in expected
    ]
    assert {entry["kind"] for entry in written} >= set(KINDS_1_3)


@pytest.mark.parametrize("options", [(), ("--style", "compact"), ("-f", "html"), ("-f", "jsonl")])
def test_the_corpus_samples_render_detected_without_raw_lines(
    capsys: pytest.CaptureFixture[str], options: tuple[str, ...]
) -> None:
    path = corpus_path("field-samples", "paperclip-runner", "prp-events-from-ui-adapter-test.jsonl")
    assert main(["render", str(path), *options]) == 0
    captured = capsys.readouterr()
    assert "detected paperclip_runner" in captured.err
    assert re.search(r"0 fallbacks", captured.err)
    if options != ("-f", "jsonl"):
        assert _ENVELOPE not in captured.out
    else:
        assert all(json.loads(line)["kind"] != "stdout" for line in captured.out.splitlines())
