"""Contract 1.5's entry fields: what a run summary needs travels in the entries."""

from __future__ import annotations

import pytest
from linewise_contracts.entries import COST_SOURCES, ResultEntry, ToolCallEntry
from linewise_contracts.summary import COST_SOURCES as SUMMARY_COST_SOURCES
from linewise_contracts.usage import TOKEN_FIELDS, TokenUsage
from linewise_contracts.validation import TOKEN_KEYS, entry_problem

RESULT: dict[str, object] = {
    "kind": "result",
    "ts": "2026-01-01T00:00:00Z",
    "text": "done",
    "inputTokens": 10,
    "outputTokens": 5,
    "cachedTokens": 0,
    "costUsd": 0.01,
    "subtype": "success",
    "isError": False,
    "errors": [],
}
CALL: dict[str, object] = {
    "kind": "tool_call",
    "ts": "2026-01-01T00:00:00Z",
    "name": "Task",
    "input": {"prompt": "look"},
    "toolUseId": "t1",
}


def test_a_1_4_result_and_tool_call_stay_valid() -> None:
    assert entry_problem(RESULT) is None
    assert entry_problem(CALL) is None


def test_a_result_may_carry_its_usage_cost_source_outcome_and_session() -> None:
    usage = TokenUsage(uncached_input=10, cache_read=3, output=5).to_json()
    entry = {**RESULT, "usage": usage, "costSource": "reported", "outcome": "completed"}
    assert entry_problem({**entry, "sessionId": "s-1"}) is None
    assert entry_problem({**RESULT, "costSource": None, "usage": {}}) is None
    assert entry_problem({**RESULT, "usage": {"output": None}}) is None


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("usage", {"input": 3}, "result.usage has an unknown count 'input'"),
        ("usage", {"output": -1}, "result.usage output must be a non-negative int or null"),
        ("usage", {"output": 1.5}, "result.usage output must be a non-negative int or null"),
        ("usage", [1, 2], "result.usage must be an object of token counts"),
        ("costSource", "guessed", "result.costSource must be one of reported, estimated or null"),
        ("outcome", "success", "result.outcome must be one of completed"),
        ("sessionId", 7, "result.sessionId must be a str"),
    ],
)
def test_a_result_s_new_fields_of_the_wrong_type_are_refused_by_name(
    field: str, value: object, said: str
) -> None:
    problem = entry_problem({**RESULT, field: value})
    assert problem is not None and problem.startswith(said)


def test_a_tool_call_may_say_it_starts_a_subagent_with_a_bool_only() -> None:
    assert entry_problem({**CALL, "startsSubagent": True}) is None
    assert entry_problem({**CALL, "startsSubagent": False}) is None
    assert entry_problem({**CALL, "startsSubagent": "yes"}) == (
        "tool_call.startsSubagent must be a bool, got str"
    )


def test_an_unknown_field_is_still_refused() -> None:
    assert entry_problem({**RESULT, "usageTokens": {}}) == (
        "result has unexpected field(s) 'usageTokens'"
    )


def test_the_typed_dicts_list_the_new_fields_as_optional() -> None:
    assert {"usage", "costSource", "outcome", "sessionId"} <= ResultEntry.__optional_keys__
    assert "startsSubagent" in ToolCallEntry.__optional_keys__
    assert "usage" not in ResultEntry.__required_keys__


def test_the_usage_keys_are_the_usage_vocabulary_s_and_cost_sources_are_one_tuple() -> None:
    assert tuple(key for _, key in TOKEN_FIELDS) == TOKEN_KEYS
    assert COST_SOURCES is SUMMARY_COST_SOURCES
