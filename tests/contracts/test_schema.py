"""The shipped JSON Schema and entry_problem agree on what a TranscriptEntry is."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import ENTRY_KINDS, entry_problem, load_entry_schema
from support import VALID_ENTRIES as VALID

SCHEMA = load_entry_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert set(SCHEMA["$defs"]) == set(ENTRY_KINDS)


def test_schema_accepts_every_valid_example() -> None:
    for entry in VALID:
        assert VALIDATOR.is_valid(entry), entry


@st.composite
def mutated_entries(draw: st.DrawFn) -> dict[str, Any]:
    entry = copy.deepcopy(draw(st.sampled_from(VALID)))
    action = draw(st.sampled_from(["drop", "retype", "add", "none"]))
    keys = sorted(entry)
    if action == "drop":
        del entry[draw(st.sampled_from(keys))]
    elif action == "retype":
        entry[draw(st.sampled_from(keys))] = draw(json_values)
    elif action == "add":
        entry[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    return entry


@given(mutated_entries())
def test_schema_and_entry_problem_agree(entry: dict[str, Any]) -> None:
    assert VALIDATOR.is_valid(entry) == (entry_problem(entry) is None)


@given(mutated_entries())
def test_fast_acceptance_never_accepts_what_the_full_check_rejects(entry: dict[str, Any]) -> None:
    from linewise_contracts.validation import _problem

    assert entry_problem(entry) == _problem(entry)
