"""The contract's name checks: adapter types and entry point values, by their grammars."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st
from linewise_contracts.protocols import adapter_type_problem, entry_point_value_problem

# The grammars as the contract states them; the checks read them without regexes.
ADAPTER_TYPE = r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*"
DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
VALUE = rf"\s*({DOTTED})\s*(?::\s*({DOTTED})\s*)?(?:\[[^\]]*\]\s*)?"

# Text made of the characters the grammars turn on, so that most draws come close.
_PIECES = st.sampled_from(
    ["a", "z", "B", "_", "0", "9", ".", ":", "[", "]", " ", "\t", "\n", "\u3000", "\xa0", "-", "é"]
)
_NEAR = st.lists(_PIECES, max_size=14).map("".join)


@given(st.one_of(_NEAR, st.text(max_size=20), st.from_regex(ADAPTER_TYPE, fullmatch=True)))
@example("claude_local")
@example("a_")
@example("_a")
@example("a__b")
@example("")
@example("x" * 65)
@settings(max_examples=600)
def test_adapter_types_are_the_grammar_s_snake_case_names(name: str) -> None:
    expected = len(name) <= 64 and re.fullmatch(ADAPTER_TYPE, name) is not None
    assert (adapter_type_problem(name) is None) == expected


@given(st.one_of(_NEAR, st.text(max_size=24), st.from_regex(VALUE, fullmatch=True)))
@example("linewise_claude")
@example("m:two [extra]")
@example(" pkg.mod : A.b [x, y] ")
@example("pkg.mod [x]")
@example("a.")
@example("a.1")
@example("m:")
@example("m [a]]")
@example("m [a")
@example("\u3000m\xa0")
@settings(max_examples=600)
def test_entry_point_values_are_the_grammar_s_module_and_attribute(value: str) -> None:
    expected = re.fullmatch(VALUE, value) is not None
    assert (entry_point_value_problem(value) is None) == expected
