"""Contract 1.10's result field: the model that answered the result's run."""

from __future__ import annotations

import jsonschema
import pytest
from linewise_contracts import load_entry_schema
from linewise_contracts.entries import UNKNOWN_MODEL, ResultEntry, model_name
from linewise_contracts.validation import entry_problem
from support import result_entry

RESULT = result_entry()
SCHEMA = jsonschema.Draft202012Validator(load_entry_schema())


def test_the_field_is_declared_on_the_result_entry() -> None:
    assert "model" in ResultEntry.__optional_keys__


def test_a_result_may_name_the_model_that_answered() -> None:
    entry = {**RESULT, "model": "claude-sonnet-4-5"}
    assert entry_problem(entry) is None
    assert SCHEMA.is_valid(entry)
    assert load_entry_schema()["$id"].endswith(":1.10.0")


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("", "result.model must be a non-empty model name"),
        ("   ", "result.model must be a non-empty model name"),
        (None, "result.model must be a non-empty model name, got None"),
        (7, "result.model must be a non-empty model name, got 7"),
        (UNKNOWN_MODEL, "result.model must name a model; a CLI that named none gives no model"),
    ],
)
def test_an_empty_or_unknown_model_is_refused_by_name(value: object, said: str) -> None:
    entry = {**RESULT, "model": value}
    problem = entry_problem(entry)
    assert problem is not None and problem.startswith(said), problem
    assert not SCHEMA.is_valid(entry)


def test_model_name_is_the_one_test_plugins_and_the_check_share() -> None:
    assert model_name("gpt-5.4") == "gpt-5.4"
    for value in ("", "  ", UNKNOWN_MODEL, None, 3):
        assert model_name(value) is None
        assert entry_problem({**RESULT, "model": value}) is not None
