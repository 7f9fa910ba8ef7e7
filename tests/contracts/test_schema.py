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

# JSON does not tell 1.0 from 1: the schema's "integer" (a token count, contract 1.5 and
# 1.9) accepts both, while entry_problem, given Python values, wants an int. Integral
# floats are left out of the values tried, since no JSON document can make the difference.
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer())
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


def test_schema_names_every_field_the_check_allows() -> None:
    """Each kind's schema properties are the fields entry_problem accepts, no fewer, no more
    (the shipped schema lacked contract 1.5's result and tool_call fields before 1.9)."""
    from linewise_contracts.validation import _ALLOWED

    drift = {
        kind: sorted(set(SCHEMA["$defs"][kind]["properties"]) ^ allowed)
        for kind, allowed in _ALLOWED.items()
        if set(SCHEMA["$defs"][kind]["properties"]) != allowed
    }
    assert drift == {}


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
