"""The shared tally of a run's entries (contract 1.2), behind entry-based summaries."""

from __future__ import annotations

import json
from typing import Any

from linewise_contracts.tally import KEPT_ERRORS, EntryTally, tally_entries
from linewise_contracts.usage import TokenUsage, token_count


class _Echo:
    """A parser whose lines are the JSON of the entries they stand for."""

    def parse_line(self, line: str, ts: str) -> list[Any]:
        value = json.loads(line)
        return value.get("entries", []) if isinstance(value, dict) else []

    def reset(self) -> None:
        return None


def _line(*entries: dict[str, Any], **fields: Any) -> str:
    return json.dumps({"entries": list(entries), **fields})


def _result(cost: float, subtype: str) -> dict[str, Any]:
    return {
        "kind": "result", "ts": "t", "text": "", "inputTokens": 3, "outputTokens": 2,
        "cachedTokens": 1, "costUsd": cost, "subtype": subtype, "isError": False, "errors": [],
    }  # fmt: skip


def test_streamed_fragments_join_and_subagents_are_left_out() -> None:
    tally = EntryTally()
    for entry in (
        {"kind": "user", "ts": "t", "text": "hi"},
        {"kind": "assistant", "ts": "t", "text": "Hel", "delta": True},
        {"kind": "assistant", "ts": "t", "text": "lo ", "delta": True},
        {"kind": "assistant", "ts": "t", "text": "sub", "parentToolUseId": "toolu_1"},
    ):
        tally.add(entry)
    assert tally.texts == ["Hello "]
    assert tally.final_text == "Hello"
    assert tally.answered and tally.prompted  # answered; no result closed the turn yet


def test_results_add_up_and_a_later_prompt_is_pending() -> None:
    tally = EntryTally()
    for entry in (_result(0.5, "stop"), _result(0.25, "tool-calls")):
        tally.add(entry)
    tally.add({"kind": "user", "ts": "t", "text": "again"})
    assert (tally.usage.input_tokens, tally.usage.output_tokens, tally.usage.cached_tokens) == (
        6,
        4,
        2,
    )
    assert tally.costs == [0.5, 0.25]
    assert tally.outcome == "tool-calls"
    assert tally.prompted and not tally.answered


def test_init_names_the_model_else_the_first_record_that_does() -> None:
    lines = ["", _line(model="from-record"), _line({"kind": "init", "ts": "t", "model": "",
                                                    "sessionId": "s1"})]  # fmt: skip
    tally = tally_entries(lines, _Echo(), lambda record: str(record.get("model", "")))
    assert (tally.session_id, tally.model) == ("s1", "from-record")
    named = [*lines, _line({"kind": "init", "ts": "t", "model": "m", "sessionId": ""})]
    assert tally_entries(named, _Echo(), lambda record: "x").model == "m"


def test_only_the_first_errors_are_kept() -> None:
    lines = [_line({"kind": "stderr", "ts": "t", "text": f"e{n}"}) for n in range(KEPT_ERRORS + 5)]
    assert tally_entries(lines, _Echo()).errors == [f"e{n}" for n in range(KEPT_ERRORS)]


def _tokens(record: dict[str, Any]) -> TokenUsage | None:
    tokens = record.get("tokens")
    if not isinstance(tokens, dict):
        return None
    return TokenUsage(
        uncached_input=token_count(tokens.get("in")), output=token_count(tokens.get("out"))
    )


def test_usage_of_adds_up_the_vocabulary_per_model_and_leaves_unreported_counts_unknown() -> None:
    lines = [
        _line({"kind": "init", "ts": "t", "model": "main", "sessionId": "s"}),
        _line(tokens={"in": 10, "out": 2}),
        _line(tokens={"in": 5}, model="helper"),
        _line(note="no tokens here"),
    ]
    tally = tally_entries(lines, _Echo(), lambda record: str(record.get("model", "")), _tokens)
    assert tally.token_usage == TokenUsage(uncached_input=15, output=2)
    assert tally.token_usage.cache_read is None
    assert tally.model_usage == {
        "main": TokenUsage(uncached_input=10, output=2),
        "helper": TokenUsage(uncached_input=5),
    }


def test_without_usage_of_the_vocabulary_stays_unknown() -> None:
    tally = tally_entries([_line(_result(0.5, "stop"))], _Echo())
    assert tally.usage.input_tokens == 3
    assert tally.token_usage.is_empty
    assert tally.model_usage == {}
