"""The compliance kit checks the contract 1.5 summary fields where a plugin emits them: their
types (entry_problem) and their meanings, which a host's run fold relies on."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from linewise_contracts.compliance import run_checks
from linewise_contracts.compliance._judge import parse_verdicts

TS = "2026-01-01T00:00:00.000Z"
SESSION = "4cda4f2a"


def _result(**fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "kind": "result",
        "ts": TS,
        "text": "done",
        "inputTokens": 18,
        "outputTokens": 950,
        "cachedTokens": 30100,
        "costUsd": 0.06,
        "subtype": "success",
        "isError": False,
        "errors": [],
        "usage": {"uncachedInput": 18, "cacheRead": 30100, "cacheWrite": 4200, "output": 950},
        "costSource": "reported",
        "outcome": "completed",
        "sessionId": SESSION,
    }
    entry.update(fields)
    return {key: value for key, value in entry.items() if value is not _LEFT_OUT}


_LEFT_OUT = object()
_CALL = {"kind": "tool_call", "ts": TS, "name": "Task", "input": {}, "toolUseId": "toolu_1"}


def _verdict(*lines_entries: list[dict[str, Any]]) -> tuple[str, str]:
    """parse.valid over one stateful run whose lines gave these entries."""
    lines = [f"line {number}" for number in range(len(lines_entries))]
    outcomes = [("value", list(entries)) for entries in lines_entries]
    record = ("parse", "notes_local", "samples", lines, True, outcomes, outcomes, outcomes)
    (valid,) = [v for v in parse_verdicts("notes_local", record) if v.check == "parse.valid"]
    return valid.status, " ".join([valid.message, *valid.details])


def test_results_and_calls_that_keep_the_fields_meanings_pass() -> None:
    later = _result(
        usage={"uncachedInput": 40, "cacheRead": 51000, "cacheWrite": 6100, "output": 1200},
        costUsd=0.11,
    )
    no_cost = _result(costUsd=0, costSource=None, sessionId="other", usage=_LEFT_OUT)
    interrupted = _result(isError=True, outcome="interrupted", sessionId="third")
    status, text = _verdict([{**_CALL, "startsSubagent": True}], [_result()], [later], [no_cost])
    assert status == "pass", text
    assert _verdict([interrupted])[0] == "pass"
    # Contract 1.9: turns, and usage per model adding up to the usage (or a part of it).
    split = {"sonnet": {"output": 900, "cacheRead": 30100}, "haiku": {"output": 50}}
    assert _verdict([_result(turns=3, modelUsage=split, sessionId="fourth")])[0] == "pass"


@pytest.mark.parametrize(
    ("entries", "said"),
    [
        (
            [_result(costSource=None, costUsd=0.5)],
            "costSource null (no cost known) has costUsd 0.5",
        ),
        ([_result(outcome="failed")], "outcome is 'failed' (a failure) has isError false"),
        ([_result(outcome="max_turns")], "outcome is 'max_turns' (a failure) has isError false"),
        ([_result(isError=True)], "outcome is 'completed' has isError true"),
        ([_result(sessionId="")], "sessionId is empty"),
        (
            [_result(usage={"uncachedInput": None, "output": None})],
            "usage reports no count",
        ),
        (
            [{**_CALL, "startsSubagent": True, "toolUseId": _LEFT_OUT}],
            "startsSubagent true has no toolUseId",
        ),
        (
            [
                _result(
                    modelUsage={
                        "sonnet": {"output": 900, "cacheRead": 30100},
                        "haiku": {"output": 100},
                    }
                )
            ],
            "modelUsage counts output 1000 over its models, more than its usage (950)",
        ),
        ([_result(turns=-1)], "result.turns"),
        # Types, from entry_problem.
        ([{**_CALL, "startsSubagent": "yes"}], "tool_call.startsSubagent"),
        ([_result(costSource="guessed")], "result.costSource"),
        ([_result(outcome="success")], "result.outcome"),
        ([_result(usage={"output": -3})], "result.usage"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_a_field_that_says_something_it_cannot_mean_fails_parse_valid(
    entries: list[dict[str, Any]], said: str
) -> None:
    cleaned = [{k: v for k, v in entry.items() if v is not _LEFT_OUT} for entry in entries]
    status, text = _verdict(cleaned)
    assert status == "fail"
    assert said in text


def test_a_sessions_later_result_with_fewer_tokens_or_less_cost_fails() -> None:
    # Per-turn figures under the session's id: a host's fold would keep only the last turn's.
    first = _result(usage={"uncachedInput": 500, "output": 900}, costUsd=0.2)
    fewer = _result(usage={"uncachedInput": 20, "output": 950}, costUsd=0.3)
    status, text = _verdict([first], [fewer])
    assert status == "fail"
    assert "reports uncachedInput 20, fewer than an earlier result of it (500)" in text
    cheaper = _result(usage={"uncachedInput": 600, "output": 950}, costUsd=0.05)
    status, text = _verdict([first], [cheaper])
    assert status == "fail" and "a cost of 0.05, less than an earlier result of it" in text
    # Another session, or a result naming none, is not compared.
    assert _verdict([first], [{**fewer, "sessionId": "next"}])[0] == "pass"
    assert _verdict([first], [_result(usage=fewer["usage"], sessionId=_LEFT_OUT)])[0] == "pass"


NOTES = '''
"""Notes whose `DONE n` lines end a session: their result carries the session's figures."""

label = "Notes"


def parse_stdout_line(line, ts):
    if line.startswith("DONE "):
        spent = int(line[5:])
        return [{
            "kind": "result", "ts": ts, "text": "", "inputTokens": spent, "outputTokens": 0,
            "cachedTokens": 0, "costUsd": COST, "subtype": "success", "isError": False,
            "errors": [], "usage": {"uncachedInput": spent}, "costSource": None,
            "outcome": "completed", "sessionId": "s1",
        }]
    return [{"kind": "stdout", "ts": ts, "text": line}]
'''


def _plugin(root: Path, cost: str) -> Path:
    package = root / "src" / "notes_parser"
    (package / "samples").mkdir(parents=True)
    (package / "__init__.py").write_text(
        textwrap.dedent(NOTES).replace("COST", cost), encoding="utf-8"
    )
    (package / "samples" / "run.log").write_text("DONE 10\nDONE 30\n", encoding="utf-8")
    (root / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [project]
            name = "notes-parser"
            version = "0.1.0"
            dependencies = ["linewise-contracts>=1.5,<2"]

            [project.entry-points."linewise.parsers"]
            notes_local = "notes_parser"
            """
        ),
        encoding="utf-8",
    )
    return root


def test_the_kit_fails_a_plugin_whose_result_calls_its_cost_unknown_but_gives_one(
    tmp_path: Path,
) -> None:
    good = run_checks(str(_plugin(tmp_path / "good", "0")), examples=0)
    assert {r.check: r.status for r in good.results}["parse.valid"] == "pass"
    bad = run_checks(str(_plugin(tmp_path / "bad", "0.25")), examples=0)
    (valid,) = [result for result in bad.results if result.check == "parse.valid"]
    assert valid.status == "fail"
    assert "costSource null (no cost known) has costUsd 0.25" in " ".join(valid.details)
