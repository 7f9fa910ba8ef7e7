"""linewise export and query: Parquet tables of runs and entries, and SQL over them."""

from __future__ import annotations

import builtins
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from linewise import Registry
from linewise.cli import main
from linewise.export import (
    ENTRIES_COLUMNS,
    EXAMPLE_QUERIES,
    RUNS_COLUMNS,
    export_file,
    export_logs,
    run_query,
)
from linewise.transcript.run_report import summarize_log
from support import REPO, FakeSite, corpus_path

pq = pytest.importorskip("pyarrow.parquet", reason="the export extra (pyarrow) is not installed")

DAY = "2026-11-20"


def claude_log(
    session: str,
    *,
    model: str = "claude-sonnet-4-6",
    cost: float | None = 0.25,
    failing_tool: str = "Bash",
    subtype: str = "success",
    cwd: str = "/home/dev/app",
    hour: int = 10,
) -> str:
    """A short Claude stream-json run: init, a failing tool call, a reply and (with cost) a result."""
    start = f"{DAY}T{hour:02d}:00:00.000Z"
    lines: list[dict[str, Any]] = [
        {
            "type": "system",
            "subtype": "init",
            "cwd": cwd,
            "session_id": session,
            "model": model,
            "tools": [failing_tool],
            "timestamp": start,
        },
        {
            "type": "assistant",
            "message": {
                "id": "m1",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": failing_tool,
                        "input": {"command": "pytest -q"},
                    }
                ],
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
            "parent_tool_use_id": None,
            "session_id": session,
        },
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {
                        "tool_use_id": "toolu_1",
                        "type": "tool_result",
                        "content": "1 failed",
                        "is_error": True,
                    }
                ],
            },
            "parent_tool_use_id": None,
            "session_id": session,
        },
        {
            "type": "assistant",
            "message": {
                "id": "m2",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [{"type": "text", "text": "One test fails."}],
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
            "parent_tool_use_id": None,
            "session_id": session,
        },
    ]
    if cost is not None:
        lines.append(
            {
                "type": "result",
                "subtype": subtype,
                "is_error": subtype != "success",
                "duration_ms": 4200,
                "num_turns": 3,
                "result": "One test fails.",
                "session_id": session,
                "total_cost_usd": cost,
                "usage": {"input_tokens": 100, "output_tokens": 20, "cache_read_input_tokens": 50},
                "timestamp": f"{DAY}T{hour:02d}:00:04.200Z",
            }
        )
    return "".join(json.dumps(line) + "\n" for line in lines)


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    """Four logs: two Claude runs, one that hit max turns, one cut off, and a plain text file."""
    folder = tmp_path / "logs"
    (folder / "nested").mkdir(parents=True)
    (folder / "a.jsonl").write_text(claude_log("s-a", cost=0.25), encoding="utf-8")
    (folder / "b.jsonl").write_text(claude_log("s-b", cost=0.5, hour=11), encoding="utf-8")
    (folder / "nested" / "c.jsonl").write_text(
        claude_log("s-c", cost=1.0, subtype="error_max_turns", failing_tool="Edit"),
        encoding="utf-8",
    )
    (folder / "nested" / "d.jsonl").write_text(claude_log("s-d", cost=None), encoding="utf-8")
    (folder / "notes.txt").write_text("plain words\nnot an agent\n", encoding="utf-8")
    (folder / ".hidden.jsonl").write_text(claude_log("s-h"), encoding="utf-8")
    return folder


def _cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _rows(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    return rows


def _rendered(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    code, out, _ = _cli("render", "-q", "-f", "jsonl", str(path), capsys=capsys)
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


# -- the tables ---------------------------------------------------------------------


def test_one_run_row_per_log_and_the_entries_render_gives(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _cli(
        "export", str(logs), "--to", str(tmp_path / "out"), "-j", "1", capsys=capsys
    )
    assert code == 0, err
    assert "exported 5 of 5 logs" in err
    runs = _rows(tmp_path / "out" / "runs.parquet")
    entries = _rows(tmp_path / "out" / "entries.parquet")
    files = sorted(str(p) for p in logs.rglob("*") if p.is_file() and not p.name.startswith("."))
    assert [run["source_path"] for run in runs] == files  # hidden files are skipped
    for run in runs:
        mine = [e for e in entries if e["run_id"] == run["run_id"]]
        rendered = _rendered(Path(run["source_path"]), capsys)
        assert [json.loads(e["entry_json"]) for e in mine] == rendered
        assert [e["seq"] for e in mine] == list(range(len(rendered)))
        assert run["entries"] == len(rendered)
    assert [column.name for column in RUNS_COLUMNS] == list(runs[0])
    assert [column.name for column in ENTRIES_COLUMNS] == list(entries[0])


def test_run_facts_match_summarize(logs: Path, tmp_path: Path) -> None:
    result = export_logs([str(logs)], str(tmp_path / "out"), workers=1)
    assert (result.exported, result.failures, result.missing) == (5, [], [])
    by_name = {
        Path(run["source_path"]).name: run for run in _rows(tmp_path / "out" / "runs.parquet")
    }
    for name, run in by_name.items():
        report = summarize_log(run["source_path"])
        assert run["cost_usd"] == report.summary.cost_usd, name
        assert run["status"] == report.status
        assert run["tool_calls"] == report.stats.tool_calls
        assert run["input_tokens"] == report.summary.token_usage.total_input
        assert run["uncached_input_tokens"] == report.summary.token_usage.uncached_input
    a = by_name["a.jsonl"]
    assert a["adapter_type"] == "claude_local" and a["cli"]
    assert (a["session_id"], a["session_ids"], a["model"]) == ("s-a", ["s-a"], "claude-sonnet-4-6")
    assert (a["project"], a["turns"], a["tool_calls"], a["tool_errors"]) == (
        "/home/dev/app",
        3,
        1,
        1,
    )
    # every input token (100 uncached + 50 cache reads), the kinds apart, unreported ones null
    assert a["cost_usd"] == 0.25 and (a["input_tokens"], a["output_tokens"]) == (150, 20)
    assert (a["uncached_input_tokens"], a["cached_tokens"]) == (100, 50)
    assert a["cache_write_tokens"] is None and a["reasoning_tokens"] is None
    assert str(a["started_at"]) == "2026-11-20 10:00:00" and a["duration_ms"] == 4200
    assert str(a["ended_at"]) == "2026-11-20 10:00:04.200000"
    assert (a["status"], a["hit_limit"], a["lines"], a["fallback_lines"]) == (
        "complete",
        False,
        5,
        0,
    )
    assert by_name["c.jsonl"]["hit_limit"] is True
    assert by_name["c.jsonl"]["outcome"] == "max_turns"
    d = by_name["d.jsonl"]
    # cut off before its result: no reported cost, so its messages' tokens are priced (marked)
    assert d["status"] == "cut off" and d["cost_source"] == "estimated"
    assert d["cost_usd"] is not None and d["price_data"]
    notes = by_name["notes.txt"]
    assert notes["adapter_type"] == "process" and notes["entries"] == 2
    assert notes["started_at"] is None and notes["project"] is None


def test_times_are_the_lines_own_and_the_project_is_the_inits_cwd(tmp_path: Path) -> None:
    """Without a time of its own on any line a run has no start or end: the file's
    modification time (every entry's ts) is not one; a cwd elsewhere is no project."""
    events = [json.loads(line) for line in claude_log("s-t", cwd="/srv/app").splitlines()]
    for event in events:
        event.pop("timestamp", None)
    events[1]["message"]["content"][0]["input"] = {"cwd": "/elsewhere", "command": "ls"}
    log = tmp_path / "untimed.jsonl"
    log.write_text("".join(json.dumps(event) + "\n" for event in events), encoding="utf-8")
    run = export_file(str(log)).run
    assert (run["started_at"], run["ended_at"]) == (None, None)
    assert run["duration_ms"] == 4200  # the run summary's
    assert run["project"] == "/srv/app"
    events[0].pop("cwd")
    log.write_text("".join(json.dumps(event) + "\n" for event in events), encoding="utf-8")
    assert export_file(str(log)).run["project"] is None


def test_real_claude_logs_keep_their_project_times_and_duration() -> None:
    """Real runs: the project from init, the duration from the results (one line longer
    than the export's read size included), the times from the lines that carry one."""
    folder = corpus_path("real-logs", "claude")
    for name, duration in (
        ("trackgentic-mp9zkenj-long-66tools.jsonl", 757_009),  # its result line is 67 KB
        ("SOURCE-ELIDED-untether-autocompact-2.1.285.jsonl", 4997 + 3110 + 23181 + 1006),
        ("perfectsnake-run1-max-turns.jsonl", 198_336),
        ("githubgg-ralph-loop-concat-7sessions.jsonl", 1_291_183),
    ):
        run = export_file(str(folder / name)).run
        text = (folder / name).read_text(encoding="utf-8")
        init = next(json.loads(line) for line in text.splitlines() if '"subtype":"init"' in line)
        assert run["project"] == init["cwd"], name
        assert run["duration_ms"] == duration, name
        timed = '"timestamp"' in text
        assert (run["started_at"] is not None) == timed, name
        assert run["started_at"] is None or run["started_at"] <= run["ended_at"], name


def test_run_ids_are_stable_and_distinct_for_identical_content(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in ("one.jsonl", "two.jsonl"):
        (folder / name).write_text(claude_log("same"), encoding="utf-8")
    export_logs([str(folder)], str(tmp_path / "out"), workers=1)
    runs = _rows(tmp_path / "out" / "runs.parquet")
    assert len(runs) == 2 and runs[0]["content_hash"] == runs[1]["content_hash"]
    assert runs[0]["run_id"] != runs[1]["run_id"]
    export_logs([str(folder)], str(tmp_path / "again"), workers=1)
    assert [r["run_id"] for r in _rows(tmp_path / "again" / "runs.parquet")] == [
        r["run_id"] for r in runs
    ]


def test_re_running_gives_identical_files_with_one_or_two_processes(
    logs: Path, tmp_path: Path
) -> None:
    export_logs([str(logs)], str(tmp_path / "one"), workers=1)
    export_logs([str(logs)], str(tmp_path / "two"), workers=2)
    export_logs([str(logs)], str(tmp_path / "one-again"), workers=1)
    for name in ("runs.parquet", "entries.parquet"):
        first = (tmp_path / "one" / name).read_bytes()
        assert (tmp_path / "two" / name).read_bytes() == first
        assert (tmp_path / "one-again" / name).read_bytes() == first


def test_text_with_a_lone_surrogate_is_kept_exactly_in_entry_json(tmp_path: Path) -> None:
    log = tmp_path / "odd.jsonl"
    reply = {
        "type": "assistant",
        "message": {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "m",
            "content": [{"type": "text", "text": "bad \ud800 half"}],
        },
        "session_id": "s",
    }
    init = {"type": "system", "subtype": "init", "session_id": "s", "model": "m", "tools": []}
    log.write_text(json.dumps(init) + "\n" + json.dumps(reply) + "\n", encoding="utf-8")
    export_logs([str(log)], str(tmp_path / "out"), workers=1)
    (entry,) = [e for e in _rows(tmp_path / "out" / "entries.parquet") if e["kind"] == "assistant"]
    assert entry["text"] == "bad \ufffd half"
    assert json.loads(entry["entry_json"])["text"] == "bad \ud800 half"


SUBAGENT_PLUGIN = """
def parse_stdout_line(line, ts):
    word, _, rest = line.partition(" ")
    if word == "sub":
        parent, text = rest.split(" ", 1)
        return [{"kind": "assistant", "ts": ts, "text": text, "parentToolUseId": parent}]
    return [{"kind": "stdout", "ts": ts, "text": line}]
"""


def test_subagents_are_the_distinct_parent_tool_use_ids(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    fake_site.add(
        "sub-parser", entry_points={"sub": "sub_mod"}, modules={"sub_mod": SUBAGENT_PLUGIN}
    )
    registry = Registry(entry_points=fake_site.entry_points())
    log = tmp_path / "run.log"
    log.write_text("main\nsub t1 hello\nsub t2 hi\nsub t1 again\n", encoding="utf-8")
    rows = export_file(str(log), adapter_type="sub", registry=registry)
    assert rows.run["subagents"] == 2 and rows.run["entries"] == 4
    assert rows.entries["parent_tool_use_id"] == [None, "t1", "t2", "t1"]


# -- incremental export -------------------------------------------------------------


def test_append_skips_what_is_exported_and_replaces_what_changed(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "out")
    export_logs([str(logs / "a.jsonl"), str(logs / "b.jsonl")], out, workers=1)
    before = {r["source_path"]: r["run_id"] for r in _rows(tmp_path / "out" / "runs.parquet")}
    (logs / "b.jsonl").write_text(claude_log("s-b2", cost=0.75), encoding="utf-8")
    code, _, err = _cli(
        "export",
        str(logs / "a.jsonl"),
        str(logs / "b.jsonl"),
        str(logs / "notes.txt"),
        "--to",
        out,
        "--append",
        "-j",
        "1",
        capsys=capsys,
    )
    assert code == 0, err
    assert "exported 2 of 3 logs, 1 already exported, 1 replaced (content changed)" in err
    runs = _rows(tmp_path / "out" / "runs.parquet")
    assert sorted(Path(r["source_path"]).name for r in runs) == ["a.jsonl", "b.jsonl", "notes.txt"]
    by_path = {r["source_path"]: r for r in runs}
    assert by_path[str(logs / "a.jsonl")]["run_id"] == before[str(logs / "a.jsonl")]
    assert by_path[str(logs / "b.jsonl")]["cost_usd"] == 0.75
    entries = _rows(tmp_path / "out" / "entries.parquet")
    assert {e["run_id"] for e in entries} == {r["run_id"] for r in runs}  # old b rows are gone
    assert len(entries) == sum(r["entries"] for r in runs)


def test_appending_to_a_damaged_export_is_a_clear_error(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    export_logs([str(logs / "a.jsonl")], str(out), workers=1)
    (out / "runs.parquet").write_bytes(b"not parquet at all")
    code, _, err = _cli("export", str(logs), "--to", str(out), "--append", capsys=capsys)
    assert code == 1
    assert "cannot append to" in err and "export without --append" in err
    assert (out / "runs.parquet").read_bytes() == b"not parquet at all"  # left as it was


def test_without_append_an_export_replaces_the_folder_contents(logs: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "out")
    export_logs([str(logs)], out, workers=1)
    export_logs([str(logs / "a.jsonl")], out, workers=1)
    assert len(_rows(tmp_path / "out" / "runs.parquet")) == 1


# -- bad input ----------------------------------------------------------------------


def test_an_input_that_fails_is_reported_and_the_rest_exported(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import linewise.export._work

    real = linewise.export._work.content_hash

    def vanishing(path: str) -> str:
        if path.endswith("b.jsonl"):  # deleted between the walk and the read
            raise FileNotFoundError(2, "No such file or directory")
        return real(path)

    monkeypatch.setattr(linewise.export._work, "content_hash", vanishing)
    code, _, err = _cli(
        "export", str(logs), "--to", str(tmp_path / "out"), "-j", "1", capsys=capsys
    )
    assert code == 1
    assert "b.jsonl: cannot read it: No such file or directory" in err
    assert "exported 4 of 5 logs, 1 failed" in err
    assert len(_rows(tmp_path / "out" / "runs.parquet")) == 4


def test_a_missing_path_is_an_error_and_the_rest_is_exported(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _cli(
        "export",
        str(logs / "a.jsonl"),
        str(tmp_path / "nowhere.jsonl"),
        "--to",
        str(tmp_path / "out"),
        capsys=capsys,
    )
    assert code == 1
    assert "no such file or folder" in err and "nowhere.jsonl" in err
    assert len(_rows(tmp_path / "out" / "runs.parquet")) == 1


def test_glob_limits_the_files_taken_from_folders(logs: Path, tmp_path: Path) -> None:
    result = export_logs([str(logs)], str(tmp_path / "out"), workers=1, pattern="*.jsonl")
    assert result.exported == 4


@pytest.mark.parametrize("command", ["export", "query"])
def test_a_missing_extra_is_named(
    command: str,
    logs: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    real_import = builtins.__import__

    def no_arrow(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".", maxsplit=1)[0] in ("pyarrow", "duckdb"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)

    for name in list(sys.modules):
        if name.split(".")[0] in ("pyarrow", "duckdb"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(builtins, "__import__", no_arrow)
    args = [str(logs), "--to", str(tmp_path)] if command == "export" else ["select 1"]
    code, _, err = _cli(command, *args, capsys=capsys)
    assert code == 1
    assert "pip install 'linewise[export]'" in err


def test_dask_without_its_extra_names_it(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    code, _, err = _cli(
        "export", str(logs), "--to", str(tmp_path / "out"), "--engine", "dask", capsys=capsys
    )
    assert code == 1 and "pip install 'linewise[dask]'" in err


# -- queries ------------------------------------------------------------------------


@pytest.fixture
def exported(logs: Path, tmp_path: Path) -> str:
    out = str(tmp_path / "out")
    export_logs([str(logs)], out, workers=1)
    return out


def test_example_cost_per_model_per_day(exported: str) -> None:
    result = run_query(exported, EXAMPLE_QUERIES["cost-per-model-per-day"])
    rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
    sonnet = [row for row in rows if row["model"] == "claude-sonnet-4-6"]
    assert len(sonnet) == 1 and str(sonnet[0]["day"]) == DAY
    # the reported costs (1.75) and the estimate of the run that reported none (s-d)
    [(estimate,)] = run_query(exported, "SELECT cost_usd FROM runs WHERE session_id = 's-d'").rows
    assert sonnet[0]["runs"] == 4 and sonnet[0]["cost_usd"] == pytest.approx(1.75 + estimate)


def test_example_top_failing_tools(exported: str) -> None:
    result = run_query(exported, EXAMPLE_QUERIES["top-failing-tools"])
    assert result.columns == ["tool", "failures", "runs"]
    assert result.rows == [("Bash", 3, 3), ("Edit", 1, 1)]


def test_example_runs_that_hit_limits(exported: str, logs: Path) -> None:
    result = run_query(exported, EXAMPLE_QUERIES["runs-that-hit-limits"])
    assert [row[0] for row in result.rows] == [str(logs / "nested" / "c.jsonl")]


def test_query_cli_prints_a_table_json_lines_or_csv(
    exported: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sql = (
        "SELECT adapter_type, cost_usd FROM runs WHERE session_id = 's-a' "
        "OR adapter_type = 'process' ORDER BY 1"
    )
    code, out, _ = _cli("query", sql, "--from", exported, capsys=capsys)
    assert code == 0
    assert out.splitlines()[0].split() == ["adapter_type", "cost_usd"]
    assert out.splitlines()[2].split() == ["claude_local", "0.25"]
    assert out.splitlines()[3].split() == ["process", "NULL"]
    code, out, _ = _cli("query", sql, "--from", exported, "--json", capsys=capsys)
    assert [json.loads(line) for line in out.splitlines()] == [
        {"adapter_type": "claude_local", "cost_usd": 0.25},
        {"adapter_type": "process", "cost_usd": None},
    ]
    code, out, _ = _cli("query", sql, "--from", exported, "--csv", capsys=capsys)
    assert out == "adapter_type,cost_usd\nclaude_local,0.25\nprocess,\n"
    code, out, _ = _cli(
        "query", "--example", "runs-that-hit-limits", "--from", exported, "--json", capsys=capsys
    )
    assert code == 0 and json.loads(out)["outcome"] == "max_turns"


def test_query_errors_are_clear(
    exported: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _cli("query", "SELEC nonsense", "--from", exported, capsys=capsys)
    assert code == 1 and "the query failed" in err
    code, _, err = _cli("query", "SELECT 1", "--from", str(tmp_path / "empty"), capsys=capsys)
    assert code == 1 and "linewise export" in err
    code, _, err = _cli("query", "--example", "nope", "--from", exported, capsys=capsys)
    assert code == 2 and "cost-per-model-per-day" in err


def test_the_documented_schema_lists_every_column() -> None:
    docs = (REPO / "docs" / "export.md").read_text(encoding="utf-8")
    for column in (*RUNS_COLUMNS, *ENTRIES_COLUMNS):
        assert f"| `{column.name}` | {column.type} |" in docs, column.name
    for name in EXAMPLE_QUERIES:
        assert name in docs


def test_a_runner_run_exports_every_new_kind_with_its_one_line_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from linewise.render.described import DESCRIBED_KINDS, heading

    sample = (
        REPO / "plugins/paperclip-runner/src/linewise_paperclip_runner/samples/runner-run.jsonl"
    )
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "runner.jsonl").write_bytes(sample.read_bytes())
    code, _, err = _cli(
        "export", str(logs), "--to", str(tmp_path / "out"), "-j", "1", capsys=capsys
    )
    assert code == 0, err
    [run] = _rows(tmp_path / "out" / "runs.parquet")
    assert (run["adapter_type"], run["status"], run["outcome"]) == (
        "paperclip_runner",
        "complete",
        "completed",
    )
    entries = _rows(tmp_path / "out" / "entries.parquet")
    described = [row for row in entries if row["kind"] in DESCRIBED_KINDS]
    assert {row["kind"] for row in described} == DESCRIBED_KINDS
    for row in described:
        assert row["text"] == heading(json.loads(row["entry_json"]))
    [result] = [row for row in described if row["kind"] == "run_result"]
    assert "Leap years now follow the Gregorian rule" in result["text"]
