"""RunSummary, Usage, TokenUsage and GateDecision still behave as the frozen dataclasses they were.

Their methods are written out instead of generated at import (linewise_contracts._frozen);
what a plugin or host app does with them must not notice.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage
from linewise_contracts.versioning import GateDecision

SUMMARY = RunSummary(
    session_id="s-1",
    model="claude-sonnet-4-6",
    cost_usd=0.25,
    turns=3,
    complete=True,
    details={"max_turns": True},
    token_usage=TokenUsage(uncached_input=10, cache_read=5, output=7),
    model_usage={"claude-sonnet-4-6": TokenUsage(output=7)},
    cost_source="reported",
)


def test_fields_are_listed_in_their_declared_order() -> None:
    assert [item.name for item in dataclasses.fields(TokenUsage)] == [
        "uncached_input",
        "cache_read",
        "cache_write",
        "output",
        "reasoning",
    ]
    assert [item.name for item in dataclasses.fields(RunSummary)][:4] == [
        "session_id",
        "model",
        "usage",
        "cost_usd",
    ]
    assert dataclasses.is_dataclass(SUMMARY) and dataclasses.is_dataclass(Usage())


def test_defaults_are_fresh_for_each_value() -> None:
    first, second = RunSummary(), RunSummary()
    assert first.details == {} and first.details is not second.details
    assert first.model_usage is not second.model_usage
    assert first.usage == Usage() and first.token_usage == TokenUsage()


def test_replace_and_asdict_work_as_on_a_dataclass() -> None:
    changed = dataclasses.replace(SUMMARY, turns=4, final_text="done")
    assert (changed.turns, changed.final_text, changed.model) == (4, "done", "claude-sonnet-4-6")
    assert SUMMARY.turns == 3
    assert dataclasses.asdict(TokenUsage(output=2))["output"] == 2
    assert dataclasses.asdict(SUMMARY)["token_usage"]["cache_read"] == 5


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (SUMMARY, "turns"),
        (Usage(), "input_tokens"),
        (TokenUsage(), "output"),
        (GateDecision("compatible", ">=1.0,<2", "ok"), "verdict"),
    ],
)
def test_fields_cannot_be_set_or_deleted(value: object, name: str) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError, match=name):
        setattr(value, name, 1)
    with pytest.raises(dataclasses.FrozenInstanceError, match=name):
        delattr(value, name)


def test_equal_by_fields_and_class_and_hashable() -> None:
    assert TokenUsage(output=3) == TokenUsage(output=3)
    assert TokenUsage(output=3) != TokenUsage(output=4)
    assert hash(TokenUsage(output=3)) == hash(TokenUsage(output=3))
    assert {
        GateDecision("incompatible", "<1", "old"),
        GateDecision("incompatible", "<1", "old"),
    } == {GateDecision("incompatible", "<1", "old")}
    assert Usage() != TokenUsage()  # another class is never equal
    with pytest.raises(TypeError):  # a summary holds dicts, as the dataclass did
        hash(SUMMARY)


def test_repr_is_a_dataclass_repr() -> None:
    assert repr(Usage(input_tokens=2)) == "Usage(input_tokens=2, output_tokens=0, cached_tokens=0)"
    assert repr(GateDecision("undeclared", None, "grace")) == (
        "GateDecision(verdict='undeclared', declared=None, reason='grace')"
    )


def test_pickle_and_copies_keep_every_field() -> None:
    # Sessions and exports hand summaries between processes.
    assert pickle.loads(pickle.dumps(SUMMARY)) == SUMMARY
    assert copy.deepcopy(SUMMARY) == SUMMARY and copy.copy(SUMMARY) == SUMMARY
    restored: TokenUsage = pickle.loads(pickle.dumps(TokenUsage(cache_write=9)))
    assert restored.cache_write == 9
    with pytest.raises(dataclasses.FrozenInstanceError):
        restored.output = 1  # type: ignore[misc]


def test_token_counts_are_still_checked() -> None:
    with pytest.raises(ValueError, match=r"TokenUsage\.output must not be negative"):
        TokenUsage(output=-1)
    with pytest.raises(TypeError, match=r"TokenUsage\.cache_read must be an int or None"):
        TokenUsage(cache_read=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        TokenUsage(3)  # type: ignore[call-arg]  # keyword-only, as before


def test_match_args_are_those_of_the_dataclasses() -> None:
    assert RunSummary.__match_args__ == () and TokenUsage.__match_args__ == ()
    assert GateDecision.__match_args__ == ("verdict", "declared", "reason")
