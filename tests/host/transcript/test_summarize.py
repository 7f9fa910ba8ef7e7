"""Run summaries: the plugin's summarize_run, the transcript's counts, totals, and the table."""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from linewise import Registry, build_transcript
from linewise.cli import main
from linewise.stream.lines import read_lines
from linewise.transcript.fold import TranscriptStats
from linewise.transcript.run_report import RunReport, summarize_log, total
from linewise_contracts.summary import Usage
from support import CORPUS, REPO, FakeSite, corpus_path

RECORDED = REPO / "tests" / "fakes" / "claude_run.jsonl"
SESSION = "9d4c1e2a-7b3f-4a50-9c61-2e8f0b7d3a14"

# A tiny line format for fake plugins: "init M S", "call N", "ok N", "fail N",
# "result IN OUT CACHED COST [error message]".
TINY = """
def parse_stdout_line(line, ts):
    word, _, rest = line.partition(" ")
    if word == "init":
        model, session = rest.split()
        return [{"kind": "init", "ts": ts, "model": model, "sessionId": session}]
    if word == "call":
        return [{"kind": "tool_call", "ts": ts, "name": rest, "input": {}, "toolUseId": rest}]
    if word in ("ok", "fail"):
        return [{"kind": "tool_result", "ts": ts, "toolUseId": rest, "content": "",
                 "isError": word == "fail"}]
    if word == "result":
        tokens_in, tokens_out, cached, cost, *message = rest.split(" ", 4)
        return [{"kind": "result", "ts": ts, "text": "done", "inputTokens": int(tokens_in),
                 "outputTokens": int(tokens_out), "cachedTokens": int(cached),
                 "costUsd": float(cost), "subtype": "error" if message else "success",
                 "isError": bool(message), "errors": message}]
    return [{"kind": "stdout", "ts": ts, "text": line}]
"""
TINY_RUN = "init tiny-1 s-42\ncall a\nok a\ncall b\nfail b\nresult 100 20 5 0.5\n"


def _summarize(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(["summarize", *args])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _tiny_site(site: FakeSite, extra: str = "") -> None:
    site.add("tiny-parser", entry_points={"tiny": "tiny_mod"}, modules={"tiny_mod": TINY + extra})


# -- one run ------------------------------------------------------------------------


def test_a_recorded_claude_run_summarised_by_its_plugin() -> None:
    report = summarize_log(RECORDED)
    assert report.adapter_type == "claude_local"
    assert report.detection is not None and report.detection.startswith("recognised")
    assert report.summary_source == "plugin" and report.summary_problem is None
    summary = report.summary
    assert (summary.session_id, summary.model, summary.turns) == (
        SESSION,
        "claude-sonnet-4-6",
        4,
    )
    # modelUsage: cache writes count as input, cache reads are the cached tokens.
    assert summary.usage == Usage(input_tokens=2628, output_tokens=195, cached_tokens=46300)
    assert summary.cost_usd == pytest.approx(0.021734)
    assert (report.stats.tool_calls, report.stats.tool_errors) == (3, 1)
    assert report.status == "complete"
    assert report.diagnostics.lines == 10 and report.diagnostics.accounted


def test_the_table_shows_one_aligned_row_per_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _summarize(str(RECORDED), capsys=capsys)
    assert (code, err) == (0, "")
    header, row, turns_legend, legend = out.splitlines()
    assert turns_legend.startswith("TURNS: the model's round trips as the CLI reported them")
    assert "UNCACHED-IN input neither read from nor written to a cache" in legend
    assert header.split() == [
        "FILE",
        "ADAPTER",
        "SESSION",
        "MODEL",
        "TURNS",
        "TOOLS",
        "ERRORS",
        "UNCACHED-IN",
        "CACHE-READ",
        "CACHE-WRITE",
        "OUTPUT",
        "COST",
        "STATUS",
        "OUTCOME",
    ]
    assert row.split() == [
        str(RECORDED),
        "claude_local",
        "9d4c1e2a-7b…",
        "claude-sonnet-4-6",
        "4",
        "3",
        "0",
        "18",  # Claude's input and cache writes apart (2,628 together before)
        "46,300",
        "2,610",
        "195",
        "$0.0217",
        "complete",
        "completed",
    ]
    # Right-aligned numbers: each column ends where its header ends.
    assert row.index("$0.0217") + len("$0.0217") == header.index("COST") + len("COST")


def test_a_transcript_alone_gives_tool_calls_errors_and_result_tokens(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    _tiny_site(fake_site)
    log = tmp_path / "tiny.log"
    log.write_text(TINY_RUN + "result 1 2 3 0.25 quota exceeded\n")
    registry = Registry(entry_points=fake_site.entry_points())
    report = summarize_log(log, "tiny", registry=registry)
    assert report.summary_source == "transcript" and report.summary_problem is None
    summary = report.summary
    assert (summary.session_id, summary.model, summary.turns) == ("s-42", "tiny-1", None)
    assert summary.usage == Usage(input_tokens=101, output_tokens=22, cached_tokens=8)
    assert summary.cost_usd == pytest.approx(0.75)
    assert summary.errors == ("quota exceeded",) and summary.is_error
    assert (report.stats.tool_calls, report.stats.tool_errors) == (2, 1)
    assert report.status == "error"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        (TINY_RUN, "complete"),
        ("init tiny-1 s-1\ncall a\n", "cut off"),
        (TINY_RUN + "init tiny-1 s-2\ncall c\n", "cut off"),  # the second session never ended
        ("call a\nok a\n", "unknown"),  # nothing says where a session starts or ends
        ("", "unknown"),
    ],
)
def test_without_a_plugin_summary_completeness_comes_from_init_and_result(
    fake_site: FakeSite, tmp_path: Path, text: str, status: str
) -> None:
    _tiny_site(fake_site)
    log = tmp_path / "tiny.log"
    log.write_text(text)
    report = summarize_log(log, "tiny", registry=Registry(entry_points=fake_site.entry_points()))
    assert report.status == status


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (
            "def summarize_run(lines):\n    raise ValueError('bad summary')\n",
            "tiny summarize_run raised ValueError: bad summary",
        ),
        (
            "def summarize_run(lines):\n    return {'sessionId': 'x'}\n",
            "tiny summarize_run returned a dict, not a RunSummary",
        ),
        (
            "from linewise_contracts.summary import RunSummary\n"
            "def summarize_run(lines):\n    return RunSummary(token_usage={'output': 3})\n",
            "tiny summarize_run: token_usage is not a TokenUsage",
        ),
        (
            "from linewise_contracts.summary import RunSummary\n"
            "def summarize_run(lines):\n    return RunSummary(cost_source='guessed')\n",
            "tiny summarize_run: cost_source is not one of reported, estimated",
        ),
    ],
)
def test_a_broken_summarize_run_falls_back_to_the_transcript_with_a_warning(
    fake_site: FakeSite,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: str,
    problem: str,
) -> None:
    _tiny_site(fake_site, extra)
    log = tmp_path / "tiny.log"
    log.write_text(TINY_RUN)
    code, out, err = _summarize(str(log), "-a", "tiny", "--json", capsys=capsys)
    assert code == 0
    run = json.loads(out)["runs"][0]
    assert run["summarySource"] == "transcript"
    assert run["summaryProblem"] == problem
    assert run["summary"]["usage"]["inputTokens"] == 100
    assert f"{problem}; summarised from the transcript" in err


def test_summarize_run_gets_the_lines_a_session_sees(fake_site: FakeSite, tmp_path: Path) -> None:
    _tiny_site(
        fake_site,
        "from linewise_contracts.summary import RunSummary\n"
        "SEEN = []\n"
        "def summarize_run(lines):\n"
        "    SEEN.extend(lines)\n"
        "    return RunSummary(turns=len(SEEN))\n",
    )
    log = tmp_path / "tiny.log"
    log.write_bytes(b"\xef\xbb\xbfinit m s\r\n\n   \ncall \xff\r\nresult 1 1 1 0")
    registry = Registry(entry_points=fake_site.entry_points())
    report = summarize_log(log, "tiny", registry=registry)
    import tiny_mod  # type: ignore[import-not-found]

    seen = tiny_mod.SEEN
    assert seen == ["init m s", "call \ufffd", "result 1 1 1 0"]
    assert report.summary.turns == 3 and report.summary_source == "plugin"


# -- several runs ---------------------------------------------------------------------


def test_totals_add_up_across_files_and_json_has_everything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(RECORDED.read_bytes().splitlines(keepends=True)[:5]))
    code, out, _ = _summarize(str(RECORDED), str(cut), "--json", capsys=capsys)
    assert code == 0
    payload = json.loads(out)
    complete, cut_off = payload["runs"]
    assert (complete["status"], cut_off["status"]) == ("complete", "cut off")
    assert complete["summary"]["sessionId"] == SESSION and complete["toolCalls"] == 3
    # no result: no cost reported, so the tokens of its messages are priced, and say so
    assert cut_off["costSource"] == "estimated" and cut_off["priceData"]
    assert cut_off["diagnostics"]["lines"] == 5
    totals = payload["totals"]
    assert totals["runs"] == 2
    assert totals["toolCalls"] == complete["toolCalls"] + cut_off["toolCalls"] == 5
    assert totals["usage"]["cachedTokens"] == (
        complete["summary"]["usage"]["cachedTokens"] + cut_off["summary"]["usage"]["cachedTokens"]
    )
    # the reported cost of the complete run and the estimate of the cut-off one
    assert totals["costUsd"] == pytest.approx(0.021734 + cut_off["summary"]["costUsd"])
    assert totals["costSource"] == "mixed"
    assert totals["tokenUsage"]["cacheRead"] == (
        complete["summary"]["tokenUsage"]["cacheRead"]
        + cut_off["summary"]["tokenUsage"]["cacheRead"]
    )
    assert totals["statuses"] == {"complete": 1, "cut off": 1}
    assert payload["unreadable"] == []
    code, out, _ = _summarize(str(RECORDED), str(cut), capsys=capsys)
    last = next(row for row in out.splitlines() if row.startswith("TOTAL"))
    assert last.startswith("TOTAL (2 runs)") and "1 complete, 1 cut off" in last


def test_unreadable_files_are_errors_and_the_others_are_still_summarised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.jsonl"
    code, out, err = _summarize(str(missing), str(RECORDED), capsys=capsys)
    assert code == 1
    assert f"linewise: error: cannot read {missing}: No such file or directory" in err
    rows = out.splitlines()
    assert len(rows) == 4 and rows[1].startswith(str(RECORDED))  # header, row, legend
    code, out, _ = _summarize(str(missing), str(RECORDED), "--json", capsys=capsys)
    payload = json.loads(out)
    assert code == 1
    assert payload["unreadable"] == [{"path": str(missing), "error": "No such file or directory"}]
    assert len(payload["runs"]) == 1


def test_each_file_is_detected_on_its_own_unless_an_adapter_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain.log"
    plain.write_text("hello\nworld\n")
    _, out, _ = _summarize(str(RECORDED), str(plain), "--json", capsys=capsys)
    runs = json.loads(out)["runs"]
    assert [run["adapterType"] for run in runs] == ["claude_local", "process"]
    assert runs[1]["status"] == "unknown"
    _, out, _ = _summarize(str(RECORDED), "-a", "process", "--json", capsys=capsys)
    run = json.loads(out)["runs"][0]
    assert (run["adapterType"], run["detection"], run["toolCalls"]) == ("process", None, 0)


def test_an_unknown_adapter_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _summarize(str(RECORDED), "-a", "nope", capsys=capsys)
    assert code == 2
    assert "unknown adapter type 'nope'" in err


def test_log_text_cannot_drive_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evil = tmp_path / "evil.jsonl"
    init = {
        "type": "system",
        "subtype": "init",
        "model": "\x1b]0;owned\x07m\x1b[2J",
        "session_id": "\x1b[31ms",
        "tools": [],
    }
    evil.write_text(json.dumps(init) + "\n")
    code, out, _ = _summarize(str(evil), "-a", "claude_local", capsys=capsys)
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out


# -- building blocks ------------------------------------------------------------------


def test_read_lines_bounds_a_huge_line_and_skips_its_rest() -> None:
    stream = io.BytesIO(b"first\n" + b"x" * 100 + b"\nlast")
    assert list(read_lines(stream, max_chars=10)) == ["first", "x" * 10, "last"]


def test_transcript_stats_count_what_entries_say() -> None:
    transcript = build_transcript(
        [{"ts": "T", "stream": "stdout", "chunk": RECORDED.read_text()}], "claude_local"
    )
    stats = TranscriptStats()
    for entry in transcript.entries:
        stats.add(entry)
    assert (stats.tool_calls, stats.tool_errors, stats.results) == (3, 1, 1)
    assert (stats.session_id, stats.model, stats.complete) == (SESSION, "claude-sonnet-4-6", True)
    # The result entry's own tokens (the plugin's summary reads modelUsage instead).
    assert stats.usage == Usage(input_tokens=18, output_tokens=195, cached_tokens=46300)
    assert TranscriptStats().complete is None


def test_turns_are_what_the_cli_reported_and_a_run_without_a_count_is_not_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = tmp_path / "cut.jsonl"  # no result line: Claude Code never said its num_turns
    cut.write_bytes(b"".join(RECORDED.read_bytes().splitlines(keepends=True)[:5]))
    complete, cut_off = summarize_log(RECORDED, "claude_local"), summarize_log(cut, "claude_local")
    assert complete.summary.turns == json.loads(RECORDED.read_text().splitlines()[-1])["num_turns"]
    assert cut_off.summary.turns is None
    both = total([complete, cut_off])
    assert (both.turns, both.unknown_turns) == (complete.summary.turns, 1)
    assert total([cut_off, cut_off]).turns is None and total([]).turns is None
    code, out, _ = _summarize(str(RECORDED), str(cut), capsys=capsys)
    row = next(line for line in out.splitlines() if line.startswith("TOTAL")).split()
    assert code == 0 and row[:4] == ["TOTAL", "(2", "runs)", f"≥{complete.summary.turns}"]
    code, out, _ = _summarize(str(cut), str(cut), capsys=capsys)
    row = next(line for line in out.splitlines() if line.startswith("TOTAL")).split()
    assert code == 0 and row[:4] == ["TOTAL", "(2", "runs)", "-"]  # TURNS: unknown, not 0
    assert "TURNS: the model's round trips" in out


def test_totals_of_nothing_and_of_unknown_costs() -> None:
    assert total([]).cost_usd is None and total([]).runs == 0
    unknown: RunReport = summarize_log(RECORDED, "process")
    assert total([unknown, unknown]).cost_usd is None


# -- the real logs --------------------------------------------------------------------


REAL_CLAUDE = sorted((CORPUS / "real-logs" / "claude").glob("*.jsonl"))


@pytest.mark.parametrize("path", REAL_CLAUDE or [None], ids=lambda p: p.name if p else "absent")
def test_real_claude_logs_are_detected_and_summarised_by_the_plugin(path: Path | None) -> None:
    if path is None:
        corpus_path("real-logs", "claude")
    assert path is not None
    import linewise_claude

    report = summarize_log(path)
    assert report.adapter_type == "claude_local"
    assert report.summary_source == "plugin"
    with path.open("rb") as stream:
        own = linewise_claude.summarize_run(read_lines(stream))
    if report.summary.cost_source == "estimated":  # no reported cost: the host priced the tokens
        assert own.cost_usd is None
        own = dataclasses.replace(own, cost_usd=report.summary.cost_usd, cost_source="estimated")
    assert report.summary == own
    assert report.diagnostics.accounted and report.diagnostics.fallback_lines == 0


@pytest.mark.parametrize(
    ("name", "tool_calls", "status"),
    [
        ("trackgentic-mp9zkenj-long-66tools.jsonl", 66, "complete"),
        ("trackgentic-mp9xupi7-long-58tools.jsonl", 58, "complete"),
        ("trackgentic-mp9ygklz-incomplete-no-result.jsonl", 3, "cut off"),
        ("trackgentic-mp9r3tbb-init-only.jsonl", 0, "cut off"),
        ("githubgg-ralph-loop-concat-7sessions.jsonl", 180, "cut off"),  # 7 sessions, 5 results
        ("perfectsnake-run1-max-turns.jsonl", 52, "error"),  # ran out of turns
    ],
)
def test_real_claude_logs_known_outcomes(name: str, tool_calls: int, status: str) -> None:
    report = summarize_log(corpus_path("real-logs", "claude", name))
    assert (report.stats.tool_calls, report.status) == (tool_calls, status)


def test_the_cli_summarises_every_real_claude_log_with_totals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    corpus_path("real-logs", "claude")
    code, out, err = _summarize(*map(str, REAL_CLAUDE), capsys=capsys)
    assert (code, err) == (0, "")
    rows = [row for row in out.splitlines() if not row.lstrip().startswith("⤷ subagent")]
    assert len(rows) == len(REAL_CLAUDE) + 4  # the header, the total and the legend's 2 lines
    assert rows[-3].startswith(f"TOTAL ({len(REAL_CLAUDE)} runs)")


def test_huge_numbers_do_not_crash_summarize_and_the_good_file_is_still_reported(
    tmp_path: Path,
) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(
        '{"type":"result","subtype":"success","is_error":false,"result":"done",'
        '"total_cost_usd":0.5,"usage":{"input_tokens":10,"output_tokens":2}}\n'
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"type":"result","subtype":"success","is_error":false,"result":"done",'
        f'"total_cost_usd":{"9" * 400},"usage":{{"input_tokens":{"7" * 4400},'
        '"output_tokens":2}}\n'
    )
    done = subprocess.run(
        [
            str(Path(sys.executable).with_name("linewise")),
            "summarize",
            "--json",
            "-a",
            "claude_local",
            str(good),
            str(bad),
        ],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)  # strict JSON: no Infinity or NaN
    assert [run["source"] for run in payload["runs"]] == [str(good), str(bad)]
    assert payload["runs"][0]["summary"]["costUsd"] == 0.5
    assert b"Infinity" not in done.stdout and b"NaN" not in done.stdout


def test_the_table_shows_each_subagent_apart_under_its_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = corpus_path("real-logs", "claude", "perfectsnake-run1-max-turns.jsonl")
    assert main(["summarize", str(log)]) == 0
    lines = capsys.readouterr().out.splitlines()
    run = next(i for i, line in enumerate(lines) if "perfectsnake-run1" in line)
    sub = lines[run + 1]
    # The Explore subagent: its own tool calls and errors, apart from the run's totals.
    assert sub.lstrip().startswith("⤷ subagent Explore: Explore snake game codebase")
    assert sub.split()[-1] == "completed"
