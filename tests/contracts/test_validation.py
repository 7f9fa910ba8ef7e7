"""entry_problem: every contract kind accepted, every kind of wrong shape rejected with a reason."""

from __future__ import annotations

import math
from typing import Any

import pytest
from linewise_contracts import (
    ENTRY_KINDS,
    InvalidEntryError,
    entry_problem,
    is_valid_entry,
    validate_entry,
)
from linewise_contracts.validation import MAX_INT, MAX_JSON_DEPTH, json_problem
from support import VALID_ENTRIES as VALID

TS = "2026-03-29T00:00:00.000Z"


def test_every_contract_kind_has_a_valid_example() -> None:
    assert {entry["kind"] for entry in VALID} == set(ENTRY_KINDS)
    assert len(ENTRY_KINDS) == 17


@pytest.mark.parametrize("entry", VALID, ids=lambda e: e["kind"])
def test_valid_entries_pass(entry: dict[str, Any]) -> None:
    assert entry_problem(entry) is None
    assert is_valid_entry(entry)
    assert validate_entry(entry) is entry


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("text", "entry must be a dict, got str"),
        (None, "entry must be a dict, got None"),
        ([], "entry must be a dict, got list"),
        ({"ts": TS, "text": "x"}, "entry has no 'kind'"),
        ({"kind": "banner", "ts": TS, "text": "x"}, "unknown kind 'banner'"),
        ({"kind": 3, "ts": TS}, "unknown kind 3"),
        ({"kind": "assistant", "text": "x"}, "assistant.ts is missing"),
        ({"kind": "assistant", "ts": 5, "text": "x"}, "assistant.ts must be a str, got int"),
        ({"kind": "assistant", "ts": TS, "text": None}, "assistant.text must be a str, got None"),
        (
            {"kind": "assistant", "ts": TS, "text": "x", "delta": 1},
            "assistant.delta must be a bool, got int",
        ),
        (
            {"kind": "assistant", "ts": TS, "text": "x", "color": "red"},
            "assistant has unexpected field(s) 'color'",
        ),
        (
            {"kind": "tool_call", "ts": TS, "input": {}},
            "tool_call.name is missing",
        ),
        (
            {"kind": "tool_call", "ts": TS, "name": "x"},
            "tool_call.input is missing",
        ),
        (
            {"kind": "tool_call", "ts": TS, "name": "x", "input": {1: "a"}},
            "tool_call.input has a non-str key 1",
        ),
        (
            {"kind": "tool_call", "ts": TS, "name": "x", "input": {"a": {1, 2}}},
            "tool_call.input contains a set, which is not a JSON value",
        ),
        (
            {"kind": "tool_call", "ts": TS, "name": "x", "input": [math.nan]},
            "tool_call.input contains a non-finite number",
        ),
        (
            {"kind": "tool_call", "ts": TS, "name": "x", "input": {}, "toolUseId": 7},
            "tool_call.toolUseId must be a str, got int",
        ),
        (
            {"kind": "tool_result", "ts": TS, "toolUseId": "t", "content": "x"},
            "tool_result.isError is missing",
        ),
        (
            {"kind": "tool_result", "ts": TS, "toolUseId": "t", "content": ["x"], "isError": False},
            "tool_result.content must be a str, got list",
        ),
        (
            {"kind": "init", "ts": TS, "model": "m", "session_id": "s"},
            "init.sessionId is missing",
        ),
        (
            {
                "kind": "result",
                "ts": TS,
                "text": "",
                "inputTokens": True,
                "outputTokens": 0,
                "cachedTokens": 0,
                "costUsd": 0,
                "subtype": "",
                "isError": False,
                "errors": [],
            },
            "result.inputTokens must be a number, got bool",
        ),
        (
            {
                "kind": "result",
                "ts": TS,
                "text": "",
                "inputTokens": 0,
                "outputTokens": 0,
                "cachedTokens": 0,
                "costUsd": math.inf,
                "subtype": "",
                "isError": False,
                "errors": [],
            },
            "result.costUsd must be a finite number",
        ),
        (
            {
                "kind": "result",
                "ts": TS,
                "text": "",
                "inputTokens": 0,
                "outputTokens": 0,
                "cachedTokens": 0,
                "costUsd": 0,
                "subtype": "",
                "isError": False,
                "errors": ["ok", {"message": "x"}],
            },
            "result.errors[1] must be a str, got dict",
        ),
        (
            {"kind": "diff", "ts": TS, "changeType": "modify", "text": "x"},
            "diff.changeType must be one of add, remove, context, hunk, file_header, "
            "truncation, got 'modify'",
        ),
    ],
)
def test_invalid_entries_are_rejected_with_a_reason(entry: object, reason: str) -> None:
    assert entry_problem(entry) == reason
    assert not is_valid_entry(entry)
    with pytest.raises(InvalidEntryError) as caught:
        validate_entry(entry)
    assert caught.value.reason == reason


def test_subclasses_of_plain_types_are_not_plain_json() -> None:
    class Text(str):
        pass

    assert entry_problem({"kind": "stdout", "ts": TS, "text": Text("x")}) == (
        "stdout.text must be a str, got Text"
    )


def test_self_referencing_input_is_rejected_not_looped_on() -> None:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    problem = entry_problem({"kind": "tool_call", "ts": TS, "name": "x", "input": loop})
    assert problem == f"tool_call.input is nested deeper than {MAX_JSON_DEPTH} levels"


def test_deep_but_bounded_input_is_accepted() -> None:
    value: Any = "leaf"
    for _ in range(MAX_JSON_DEPTH):
        value = [value]
    assert entry_problem({"kind": "tool_call", "ts": TS, "name": "x", "input": value}) is None
    assert entry_problem({"kind": "tool_call", "ts": TS, "name": "x", "input": [value]}) is not None


# -- numbers (contract 1.1): finite and within float range ---------------------------

_RESULT: dict[str, Any] = {
    "kind": "result",
    "ts": TS,
    "text": "",
    "inputTokens": 0,
    "outputTokens": 0,
    "cachedTokens": 0,
    "costUsd": 0,
    "subtype": "success",
    "isError": False,
    "errors": [],
}


@pytest.mark.parametrize("field", ["inputTokens", "outputTokens", "cachedTokens", "costUsd"])
@pytest.mark.parametrize(
    "huge", [10**400, -(10**400), MAX_INT + 1, 10**5000], ids=["400", "-400", "max+1", "5000"]
)
def test_an_int_beyond_float_range_is_not_a_number(field: str, huge: int) -> None:
    entry = {**_RESULT, field: huge}
    assert entry_problem(entry) == (
        f"result.{field} must be within float range (an int of at most 309 digits)"
    )


@pytest.mark.parametrize("edge", [MAX_INT, -MAX_INT, 10**308, 2**63, 1.7976931348623157e308])
def test_numbers_up_to_the_float_range_are_valid(edge: float) -> None:
    assert entry_problem({**_RESULT, "costUsd": edge}) is None
    float(edge)  # what the rule promises a consumer: it converts


@pytest.mark.parametrize(
    "value",
    [10**400, [1, 10**400], {"a": -(10**400)}, {"deep": [[{"n": 10**309}]]}],
)
def test_a_huge_int_anywhere_in_a_tool_input_is_invalid(value: object) -> None:
    entry = {"kind": "tool_call", "ts": TS, "name": "x", "input": value, "toolUseId": "t"}
    assert entry_problem(entry) == "tool_call.input contains an int beyond float range"
    assert json_problem(value) == "contains an int beyond float range"


def test_the_fast_path_and_the_full_check_agree_on_huge_ints() -> None:
    from linewise_contracts.validation import _problem

    for value in (10**400, {"a": 10**400}, [10**400], {"a": MAX_INT}):
        entry = {"kind": "tool_call", "ts": TS, "name": "x", "input": value}
        assert entry_problem(entry) == _problem(entry)


# -- parentToolUseId (contract 1.1) --------------------------------------------------


@pytest.mark.parametrize("entry", VALID, ids=lambda entry: str(entry["kind"]))
def test_every_kind_accepts_a_parent_tool_use_id(entry: dict[str, Any]) -> None:
    assert entry_problem({**entry, "parentToolUseId": "toolu_01"}) is None


@pytest.mark.parametrize("bad", [None, 5, ["t"], {"id": "t"}, True])
@pytest.mark.parametrize("entry", VALID[:: max(len(VALID) // 6, 1)], ids=lambda e: str(e["kind"]))
def test_a_non_string_parent_tool_use_id_is_rejected(entry: dict[str, Any], bad: object) -> None:
    problem = entry_problem({**entry, "parentToolUseId": bad})
    assert problem is not None
    assert problem.startswith(f"{entry['kind']}.parentToolUseId must be a str")


@pytest.mark.parametrize(
    "entry",
    [
        {"kind": 10**5000, "ts": TS, "text": ""},
        {"kind": "diff", "ts": TS, "changeType": 10**5000, "text": ""},
        {"kind": "tool_call", "ts": TS, "name": "x", "input": {10**5000: 1}},
    ],
    ids=["kind", "changeType", "key"],
)
def test_a_reason_is_given_for_values_python_cannot_print(entry: object) -> None:
    # repr() of an int over 4,300 digits raises; the reason must not.
    assert isinstance(entry_problem(entry), str)


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no")


def test_a_reason_is_given_for_objects_whose_repr_raises() -> None:
    entry = {"kind": "tool_call", "ts": TS, "name": "x", "input": {_Unprintable(): 1}}
    assert entry_problem(entry) == "tool_call.input has a non-str key <_Unprintable>"


def test_the_fast_check_accepts_only_what_the_full_check_accepts() -> None:
    from linewise_contracts.validation import _fast_ok, _problem

    fast_kinds = set()
    for entry in VALID:
        for shape in (entry, {**entry, "parentToolUseId": "t"}, {**entry, "extra": 1}):
            if _fast_ok(shape):
                assert _problem(shape) is None, shape
                fast_kinds.add(shape["kind"])
    # The usual shape of every common kind takes the fast path (result and diff do not).
    assert fast_kinds >= {
        "assistant",
        "thinking",
        "user",
        "system",
        "stdout",
        "stderr",
        "tool_call",
        "tool_result",
        "init",
    }
