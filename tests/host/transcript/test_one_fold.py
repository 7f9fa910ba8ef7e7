"""One fold: run totals and the outcome are computed in transcript/ and nowhere else in the host."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

from linewise.transcript.fold import RunFold, merged, starts_subagent
from linewise_contracts.summary import RunSummary

HOST = Path(__file__).resolve().parents[3] / "host" / "src" / "linewise"
#: A result entry's wire counts and cost: adding them up is folding the run's totals.
TOTAL_KEYS = frozenset({"inputTokens", "outputTokens", "cachedTokens", "costUsd"})
#: The functions that decide how a run ended.
OUTCOME_DEFINITIONS = frozenset({"run_outcome", "result_failed", "failure_word"})
#: Names of the folds the host had before the one fold (EntryTally stays in contracts, for
#: plugins' summarize_run; the host does not fold with it).
OLD_FOLDS = frozenset({"TranscriptStats", "EntryTally", "tally_entries"})


def _reads_total_key(node: ast.AST) -> bool:
    for inner in ast.walk(node):
        key = None
        if isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Constant):
            key = inner.slice.value
        elif (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and inner.func.attr == "get"
            and inner.args
            and isinstance(inner.args[0], ast.Constant)
        ):
            key = inner.args[0].value
        if key in TOTAL_KEYS:
            return True
    return False


def _failure_words(node: ast.AST) -> bool:
    """A literal list of a CLI's failure words (the outcome rule written again)."""
    if not isinstance(node, ast.Tuple | ast.List | ast.Set):
        return False
    words = {item.value for item in node.elts if isinstance(item, ast.Constant)}
    return {"error", "interrupt", "max_turns"} <= words


def second_folds(source: str) -> list[str]:
    """What in ``source`` is a second implementation of run totals or of the outcome."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.AugAssign) and _reads_total_key(node.value):
            found.append(f"line {node.lineno}: adds up a result's {sorted(TOTAL_KEYS)}")
        elif isinstance(node, ast.FunctionDef) and node.name in OUTCOME_DEFINITIONS:
            found.append(f"line {node.lineno}: defines {node.name}")
        elif _failure_words(node):
            found.append(f"line {getattr(node, 'lineno', 0)}: lists failure words")
        elif isinstance(node, ast.Name | ast.alias) and (
            (node.id if isinstance(node, ast.Name) else node.name.rsplit(".", 1)[-1]) in OLD_FOLDS
        ):
            found.append(f"line {getattr(node, 'lineno', 0)}: uses an old fold")
    return found


def test_no_module_outside_transcript_adds_up_results_or_decides_the_outcome() -> None:
    problems = [
        f"{path.relative_to(HOST)} {problem}"
        for path in sorted(HOST.rglob("*.py"))
        if path.relative_to(HOST).parts[0] != "transcript"
        for problem in second_folds(path.read_text(encoding="utf-8"))
    ]
    assert problems == []


def test_the_search_finds_a_second_fold_when_there_is_one() -> None:
    source = (
        "def add(self, entry):\n"
        "    self.cost += entry['costUsd']\n"
        "    self.tokens += entry.get('inputTokens', 0)\n"
        "WORDS = ('error', 'interrupt', 'max_turns')\n"
        "def run_outcome(summary): ...\n"
        "from linewise_contracts.tally import EntryTally\n"
    )
    assert len(second_folds(source)) == 5
    assert second_folds("shown = entry['costUsd']\nprint(entry.get('inputTokens'))\n") == []


def _result(**fields: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "kind": "result",
        "ts": "2026-01-01T00:00:00Z",
        "text": "",
        "inputTokens": 0,
        "outputTokens": 0,
        "cachedTokens": 0,
        "costUsd": 0,
        "subtype": "success",
        "isError": False,
        "errors": [],
    }
    entry.update(fields)
    return entry


def test_a_session_s_later_result_replaces_its_earlier_totals_and_sessions_add_up() -> None:
    fold = RunFold()
    for session, output, cost in (("a", 10, 0.5), ("a", 30, 1.5), ("b", 5, 0.25)):
        fold.add(
            _result(
                sessionId=session,
                usage={"output": output, "uncachedInput": None},
                costUsd=cost,
                costSource="reported",
            )
        )
    assert fold.token_usage.output == 35
    assert fold.token_usage.uncached_input is None  # not reported stays unknown
    assert fold.cost_usd == 1.75
    assert fold.cost_source == "reported"
    assert fold.to_summary().session_id == "b"


def test_a_cost_no_result_reported_is_unknown_not_zero() -> None:
    said_none = RunFold()
    said_none.add(_result(costUsd=0, costSource=None))
    older = RunFold()
    older.add(_result(costUsd=0))
    assert said_none.cost_usd is None and said_none.to_summary().cost_source is None
    assert older.cost_usd is None


def test_a_run_where_only_some_results_report_a_cost_has_an_unknown_cost_not_a_part() -> None:
    fold = RunFold()
    fold.add(_result(costUsd=0.25, costSource="reported"))
    fold.add(_result(costUsd=0, costSource=None))  # this run's CLI reported none
    assert fold.cost_usd == 0.25 and fold.cost_partial
    summary = fold.to_summary()
    assert summary.cost_usd is None and summary.cost_source is None
    # The merge does not let the part stand for the whole, whatever the plugin says.
    assert merged(fold, RunSummary(cost_usd=0.25, cost_source="reported")).cost_usd is None


def test_a_session_whose_later_result_reports_its_cost_so_far_is_whole() -> None:
    fold = RunFold()
    fold.add(_result(costUsd=0, costSource=None, sessionId="a"))
    fold.add(_result(costUsd=0.5, costSource="reported", sessionId="a"))
    fold.add(_result(costUsd=0.25, costSource="reported", sessionId="b"))
    assert not fold.cost_partial and fold.to_summary().cost_usd == 0.75
    fold.add(_result(costUsd=0, costSource=None, sessionId="c"))  # a session with no cost
    assert fold.cost_partial and fold.to_summary().cost_usd is None


def test_a_tool_call_s_marker_decides_whether_it_starts_a_subagent() -> None:
    call = {"kind": "tool_call", "ts": "", "name": "Task", "input": {}}
    assert starts_subagent(call)  # an older plugin's call: its name says
    assert not starts_subagent({**call, "startsSubagent": False})
    assert starts_subagent({**call, "name": "delegate", "startsSubagent": True})


def _report_constructions(source: str) -> list[int]:
    """Lines of ``source`` that make a ``RunReport(...)`` themselves."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name | ast.Attribute)
        and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "RunReport"
    ]


def test_a_finished_runs_report_is_made_in_one_place() -> None:
    # summarize, live runs, sessions and export all call run_report.folded_report.
    made = {
        str(path.relative_to(HOST)): lines
        for path in sorted(HOST.rglob("*.py"))
        if (lines := _report_constructions(path.read_text(encoding="utf-8")))
    }
    assert list(made) == ["transcript/run_report.py"]
    assert len(made["transcript/run_report.py"]) == 1
    assert _report_constructions("r = RunReport(source='x')\nq = run_report.RunReport()\n") == [
        1,
        2,
    ]


def test_the_plugins_figure_stays_as_written_when_the_entries_say_the_same() -> None:
    fold = RunFold()
    fold.add(_result(costUsd=0, costSource="reported", sessionId="a"))
    plugin = RunSummary(session_id="a", cost_usd=0, cost_source="reported", complete=True)
    summary = merged(fold, plugin)
    assert summary.cost_usd == 0 and type(summary.cost_usd) is int  # not rewritten as 0.0
    assert merged(fold, replace(plugin, cost_usd=None)).cost_usd == 0.0


def test_the_latest_session_the_entries_name_is_the_runs() -> None:
    # A session cut off after the last result (an init after it) is the one to resume.
    fold = RunFold()
    fold.add(_result(sessionId="first"))
    fold.add({"kind": "init", "ts": "", "model": "m", "sessionId": "second"})
    assert merged(fold, RunSummary(session_id="second")).session_id == "second"
