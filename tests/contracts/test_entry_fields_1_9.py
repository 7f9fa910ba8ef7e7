"""Contract 1.9's result fields: the turns a result counts and its usage per model."""

from __future__ import annotations

import jsonschema
import pytest
from linewise_contracts import load_entry_schema
from linewise_contracts.entries import ResultEntry
from linewise_contracts.usage import TokenUsage
from linewise_contracts.validation import MAX_INT, entry_problem

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
SONNET = TokenUsage(uncached_input=10, cache_read=3, output=5).to_json()
SCHEMA = jsonschema.Draft202012Validator(load_entry_schema())


def test_the_fields_are_declared_on_the_result_entry() -> None:
    assert {"turns", "modelUsage"} <= set(ResultEntry.__optional_keys__)


def test_a_result_may_say_its_turns_and_its_usage_per_model() -> None:
    entry = {**RESULT, "turns": 4, "modelUsage": {"sonnet": SONNET, "haiku": {"output": None}}}
    assert entry_problem(entry) is None
    assert SCHEMA.is_valid(entry)
    assert entry_problem({**RESULT, "turns": 0, "modelUsage": {}}) is None


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("turns", -1, "result.turns must be a non-negative int, got -1"),
        ("turns", 2.5, "result.turns must be a non-negative int, got 2.5"),
        ("turns", True, "result.turns must be a non-negative int, got True"),
        ("turns", "3", "result.turns must be a non-negative int, got '3'"),
        ("turns", MAX_INT + 1, "result.turns must be a non-negative int"),
        ("modelUsage", [SONNET], "result.modelUsage must be an object of models' token counts"),
        ("modelUsage", {"": SONNET}, "result.modelUsage has a model name that is no non-empty"),
        ("modelUsage", {"sonnet": {"input": 1}}, "result.modelUsage['sonnet'] has an unknown"),
        ("modelUsage", {"sonnet": {"output": -2}}, "result.modelUsage['sonnet'] output must"),
        ("modelUsage", {"sonnet": 12}, "result.modelUsage['sonnet'] must be an object"),
    ],
)
def test_a_wrong_turns_or_model_usage_is_refused_by_name(
    field: str, value: object, said: str
) -> None:
    entry = {**RESULT, field: value}
    problem = entry_problem(entry)
    assert problem is not None and problem.startswith(said), problem
    assert not SCHEMA.is_valid(entry)
