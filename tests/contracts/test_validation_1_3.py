"""Contract 1.3's kinds and fields: accepted in their documented shapes, refused (with a reason)
beyond their bounds, and the shipped JSON Schema generated from the same declarations."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from linewise_contracts import entry_problem, load_entry_schema
from linewise_contracts.declared import (
    MAX_CHANGE_FILES,
    MAX_CHOICES,
    MAX_DIFF_CHARS,
    MAX_PAYLOAD_VALUES,
    MAX_PREVIEW_CHARS,
    MAX_QUESTIONS,
    MAX_RUN_ITEMS,
    entry_schema_def,
)
from linewise_contracts.entries import KINDS_1_3
from linewise_contracts.validation import _problem, is_safe_workspace_path
from support import INPUT_REQUEST, RUN_RESULT, TS, VALID_ENTRIES, WORKSPACE_CHANGE

SCHEMA = load_entry_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _both(entry: dict[str, Any]) -> str | None:
    """entry_problem's verdict, checked against the schema's and the full check's."""
    problem = entry_problem(entry)
    assert (problem is None) == VALIDATOR.is_valid(entry), (problem, entry)
    assert problem == _problem(entry)
    return problem


@pytest.mark.parametrize("kind", KINDS_1_3)
def test_the_shipped_schema_holds_what_the_declarations_generate(kind: str) -> None:
    assert SCHEMA["$defs"][kind] == entry_schema_def(kind)
    assert {"$ref": f"#/$defs/{kind}"} in SCHEMA["oneOf"]


def test_the_new_fields_on_old_kinds_are_accepted_in_their_documented_values() -> None:
    assistant = {"kind": "assistant", "ts": TS, "text": "x"}
    assert _both({**assistant, "channel": "final", "itemId": "m"}) is None
    assert _both({**assistant, "channel": "summary"}) == (
        "assistant.channel must be one of progress, final, unknown, got 'summary'"
    )
    thinking = {"kind": "thinking", "ts": TS, "text": ""}
    assert _both({**thinking, "lifecycle": "completed", "channel": "detail"}) is None
    assert _both({**thinking, "lifecycle": "delta"}) is not None
    assert _both({**thinking, "itemId": 3}) == "thinking.itemId must be a str, got int"
    result = {"kind": "tool_result", "ts": TS, "toolUseId": "t", "content": "", "isError": False}
    assert _both({**result, "delta": True}) is None
    assert _both({**result, "delta": "yes"}) == "tool_result.delta must be a bool, got str"


def test_a_workspace_change_lists_at_most_2000_files_of_safe_paths() -> None:
    change = copy.deepcopy(WORKSPACE_CHANGE)
    file = change["files"][0]
    change["files"] = [dict(file, path=f"src/f{i}.py") for i in range(MAX_CHANGE_FILES)]
    assert _both(change) is None
    change["files"].append(dict(file))
    assert _both(change) == "workspace_change.files has more than 2,000 items"
    for unsafe in ("/etc/passwd", "../secrets.env", "a/../../b", "a\nb", "", "a\u2028b"):
        change["files"] = [dict(file, path=unsafe)]
        problem = _both(change)
        assert problem is not None and problem.startswith("workspace_change.files[0].path"), unsafe
    change["files"] = [dict(file, previousPath="../old")]
    assert _both(change) is not None


def test_a_file_diff_is_capped_at_262144_characters() -> None:
    change = copy.deepcopy(WORKSPACE_CHANGE)
    change["files"][0]["diff"] = "+" * MAX_DIFF_CHARS
    assert _both(change) is None
    change["files"][0]["diff"] += "+"
    assert _both(change) == (
        "workspace_change.files[0].diff is longer than 262,144 characters (or None)"
    )


def test_counts_are_never_negative_and_a_revision_starts_at_1() -> None:
    change = copy.deepcopy(WORKSPACE_CHANGE)
    assert _both({**change, "revision": 0}) == "workspace_change.revision must be at least 1"
    change["totals"]["additions"] = -1
    assert _both(change) is not None
    change["totals"]["additions"] = True
    assert _both(change) is not None


def test_safe_workspace_paths_follow_the_runner_rule() -> None:
    for path in ("a", "...", "./a", "a/./b", "a\\..\\b", "dir/", "ui/src/App.tsx"):
        assert is_safe_workspace_path(path), path
    for path in ("", "/a", "..", "a/..", "../a", "a/../b", "a\r", "a\u2029"):
        assert not is_safe_workspace_path(path), path


def test_a_provider_activity_payload_is_any_json_object_of_bounded_size() -> None:
    activity = next(e for e in VALID_ENTRIES if e["kind"] == "provider_activity")
    assert _both({**activity, "payload": {}}) is None
    assert _both({**activity, "payload": []}) is not None
    assert _both({**activity, "family": "weather"}) is not None
    big = {**activity, "payload": {"items": list(range(MAX_PAYLOAD_VALUES))}}
    assert entry_problem(big) == "provider_activity.payload has more than 100000 values"


def test_a_file_reference_preview_is_capped() -> None:
    reference = next(e for e in VALID_ENTRIES if e["kind"] == "workspace_file_reference")
    assert _both({**reference, "preview": "x" * MAX_PREVIEW_CHARS}) is None
    assert _both({**reference, "preview": "x" * (MAX_PREVIEW_CHARS + 1)}) is not None
    assert _both({**reference, "path": "../secrets.env"}) is not None


def test_a_runtime_request_bounds_its_choices_and_questions() -> None:
    request = copy.deepcopy(INPUT_REQUEST)
    assert _both({**request, "choices": [{"key": "k", "label": "l"}] * MAX_CHOICES}) is None
    assert _both({**request, "choices": [{"key": "k", "label": "l"}] * (MAX_CHOICES + 1)}) == (
        "runtime_request.choices has more than 32 items"
    )
    question = request["questionSet"]["questions"][0]
    request["questionSet"]["questions"] = [question] * (MAX_QUESTIONS + 1)
    assert (
        _both(request) == "runtime_request.questionSet.questions has more than 64 items (or None)"
    )
    request = copy.deepcopy(INPUT_REQUEST)
    request["questionSet"]["schema"] = "other"
    assert _both(request) is not None
    request = copy.deepcopy(INPUT_REQUEST)
    request["questionSet"]["questions"][0]["answerMode"] = "free"
    assert _both(request) is not None
    request = copy.deepcopy(INPUT_REQUEST)
    request["response"]["answers"]["environment"]["selectedOptionIds"] = [7]
    assert _both(request) is not None
    for optional in ("questionSet", "resolvedAction", "response"):
        assert _both({k: v for k, v in INPUT_REQUEST.items() if k != optional}) is None


def test_a_run_result_bounds_its_lists_and_checks_its_statuses() -> None:
    result = copy.deepcopy(RUN_RESULT)
    check = result["verification"][0]
    assert _both({**result, "verification": [check] * MAX_RUN_ITEMS}) is None
    assert _both({**result, "verification": [check] * (MAX_RUN_ITEMS + 1)}) is not None
    assert _both({**result, "verification": [{**check, "status": "ok"}]}) is not None
    assert _both({**result, "disposition": "finished"}) is not None
    blocker = {"reasonCode": "r", "unblockAction": "u", "scope": "task_wide"}
    assert _both({**result, "blocker": blocker}) is None
    assert _both({**result, "blocker": {**blocker, "scope": "world"}}) is not None
    wake = {"runId": "r", "sourceEventId": "s"}
    assert _both({**result, "acceptedResponseWake": wake}) is None


def test_a_run_terminal_names_its_states_from_the_documented_sets() -> None:
    terminal = next(e for e in VALID_ENTRIES if e["kind"] == "run_terminal")
    assert _both({k: v for k, v in terminal.items() if k != "stopReason"}) is None
    assert _both({**terminal, "runState": "completed"}) is not None
    assert _both({**terminal, "stopReason": None}) is not None
    assert _both({**terminal, "extra": 1}) == "run_terminal has unexpected field(s) 'extra'"
