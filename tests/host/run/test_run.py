"""Live runs: fake agents that replay, hang, crash, flood and leak secrets, run through linewise."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise.run.agent import (
    EXIT_NOT_FOUND,
    EXIT_TIMEOUT,
    MASK,
    AgentStartError,
    Redactor,
    RunResult,
    redact_command,
    redact_env,
    run_agent,
)
from support import REPO

FAKES = REPO / "tests" / "fakes"
RECORDED = FAKES / "claude_run.jsonl"
SESSION = "9d4c1e2a-7b3f-4a50-9c61-2e8f0b7d3a14"
LINEWISE = Path(sys.executable).with_name("linewise")


def agent(name: str, *args: str) -> list[str]:
    """The argv of a fake agent in tests/fakes."""
    return [sys.executable, str(FAKES / f"{name}.py"), *args]


def linewise(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    """Run the installed console script, as a user would."""
    return subprocess.run(
        [str(LINEWISE), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=timeout,
        check=False,
    )


def collect(
    command: list[str], adapter_type: str = "auto", **options: Any
) -> tuple[RunResult, list[dict[str, Any]]]:
    """Run through the API; the entries handed to on_entry, in order."""
    entries: list[dict[str, Any]] = []
    result = run_agent(command, adapter_type, on_entry=entries.append, **options)  # type: ignore[arg-type]
    return result, entries


def texts(entries: list[dict[str, Any]], kind: str) -> list[str]:
    return [entry["text"] for entry in entries if entry["kind"] == kind]


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for a parent to reap it counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def wait_gone(pids: list[int], within: float = 5.0) -> list[int]:
    """The pids still running after ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


@pytest.fixture
def pidfile(tmp_path: Path) -> Iterator[Path]:
    """A file a fake agent writes its pids to; anything still running afterwards is killed."""
    path = tmp_path / "pids"
    yield path
    if path.exists():
        for pid in map(int, path.read_text().split()):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


# -- a recorded run, live ------------------------------------------------------------


def test_a_recorded_claude_run_is_parsed_live_and_summarised() -> None:
    result, entries = collect(agent("replay", str(RECORDED), "--delay", "0.01"), "claude_local")
    assert (result.exit_code, result.returncode, result.signal) == (0, 0, None)
    assert not (result.timed_out or result.killed or result.interrupted)
    assert entries[0] == {
        "kind": "init",
        "ts": entries[0]["ts"],
        "model": "claude-sonnet-4-6",
        "sessionId": SESSION,
        "cwd": "/home/dev/wordcount",
    }
    assert [e["kind"] for e in entries].count("tool_call") == 3
    assert [e["kind"] for e in entries[-2:]] == ["result", "run_terminal"]
    summary = result.summary
    assert summary.session_id == SESSION
    assert summary.turns == 4
    assert summary.cost_usd == pytest.approx(0.021734)
    assert summary.complete and not summary.is_error
    assert result.report.summary_source == "plugin"
    assert (result.report.stats.tool_calls, result.report.stats.tool_errors) == (3, 1)
    assert result.report.status == "complete"
    diagnostics = result.diagnostics
    assert diagnostics.lines == 10 and diagnostics.accounted and diagnostics.clean


def test_the_cli_detects_the_format_renders_and_ends_with_a_one_line_summary() -> None:
    done = linewise("run", "--", *agent("replay", str(RECORDED)))
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "init        model claude-sonnet-4-6" in out
    assert "tool_result" in out and "Bash" in out
    err = done.stderr.decode()
    assert "linewise: detected claude_local" in err
    assert "claude_local: 10 lines, " in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("linewise: run exited with 0 after ")
    for part in ("(exit 0)", "4 turns", "3 tool calls", "$0.0217", "complete"):
        assert part in last


def test_entries_are_handed_out_while_the_agent_is_still_running() -> None:
    started = time.monotonic()
    arrivals: list[float] = []
    result = run_agent(
        agent("replay", str(RECORDED), "--delay", "0.25"),
        on_entry=lambda entry: arrivals.append(time.monotonic() - started),
    )
    assert result.adapter_type == "claude_local"
    assert result.detection is not None and result.detection.detected
    # The first line identifies Claude: nothing waits for the rest of the run.
    assert arrivals[0] < result.duration - 1.5


def test_stderr_is_interleaved_with_stdout_in_arrival_order() -> None:
    _, entries = collect(
        agent("replay", str(RECORDED), "--delay", "0.05", "--stderr", "3:warning: slow disk"),
        "claude_local",
    )
    kinds = [(e["kind"], e.get("toolUseId")) for e in entries]
    warning = kinds.index(("stderr", None))
    assert kinds[warning - 1] == ("tool_call", "toolu_01Grep")  # line 3
    assert kinds[warning + 1] == ("tool_result", "toolu_01Grep")  # line 4
    assert entries[warning]["text"] == "warning: slow disk\n"


def test_the_saved_log_is_the_exact_stdout_and_the_transcript_the_entries(tmp_path: Path) -> None:
    log, transcript = tmp_path / "run.log", tmp_path / "run.jsonl"
    result, entries = collect(
        agent("replay", str(RECORDED), "--stderr", "2:note"),
        save_log=log,
        save_transcript=transcript,
    )
    assert result.exit_code == 0
    assert log.read_bytes() == RECORDED.read_bytes()
    saved = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert saved == entries
    assert [(e["kind"], e["text"]) for e in saved if e["kind"] == "stderr"] == [
        ("stderr", "note\n")
    ]


# -- safety rails ---------------------------------------------------------------------


def test_a_timeout_terminates_the_whole_process_group_then_kills_it(pidfile: Path) -> None:
    result, entries = collect(
        agent("hang", "--ignore-term", "--children", "2", "--pidfile", str(pidfile)),
        "process",
        timeout=0.5,
        grace=0.5,
    )
    assert result.exit_code == EXIT_TIMEOUT == 124
    assert result.timed_out and result.killed
    assert (result.returncode, result.signal) == (-9, "SIGKILL")
    system = texts(entries, "system")
    assert system[0].startswith("linewise: timed out after 0.5s: sent SIGTERM")
    assert system[1] == (
        "linewise: still running 0.5s after SIGTERM: sent SIGKILL to the agent's process group"
    )
    assert texts(entries, "stdout") == ["ready"]
    assert wait_gone(list(map(int, pidfile.read_text().split()))) == []
    assert result.duration < 10


def test_an_agent_that_stops_on_sigterm_is_not_killed() -> None:
    result, entries = collect(agent("hang", "--goodbye"), "process", timeout=0.5, grace=30)
    assert result.exit_code == EXIT_TIMEOUT
    assert result.timed_out and not result.killed
    assert (result.returncode, result.signal) == (0, None)
    assert texts(entries, "stdout") == ["ready", "goodbye"]
    assert result.duration < 10


def test_the_cli_reports_a_timeout_with_exit_124() -> None:
    done = linewise(
        "run", "-a", "process", "--timeout", "0.5", "--grace", "0.5", "--", *agent("hang")
    )
    assert done.returncode == 124
    assert "linewise: timed out after 0.5s" in done.stdout.decode()
    assert "linewise: run timed out after " in done.stderr.decode()


def test_a_crash_keeps_its_exit_code_its_traceback_and_an_unfinished_summary() -> None:
    result, entries = collect(agent("crash"), "claude_local")
    assert (result.exit_code, result.signal) == (1, None)
    stderr = "".join(texts(entries, "stderr"))
    assert stderr.startswith("Traceback (most recent call last):")
    assert stderr.endswith("RuntimeError: boom: the agent fell over\n")
    assert result.summary.session_id == "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
    assert not result.summary.complete
    assert result.report.status == "cut off"


@pytest.mark.parametrize(
    ("args", "exit_code", "signal_name"),
    [
        (["--exit", "0"], 0, None),
        (["--exit", "3"], 3, None),
        (["--exit", "255"], 255, None),
        (["--signal", "SIGTERM"], 143, "SIGTERM"),
        (["--signal", "SIGKILL"], 137, "SIGKILL"),
        (["--signal", "SIGSEGV"], 139, "SIGSEGV"),
    ],
)
def test_the_exit_code_is_the_agents_or_128_plus_the_signal(
    args: list[str], exit_code: int, signal_name: str | None
) -> None:
    result, _ = collect(agent("crash", *args), "claude_local")
    assert (result.exit_code, result.signal) == (exit_code, signal_name)
    done = linewise("run", "-q", "-a", "claude_local", "--", *agent("crash", *args))
    assert done.returncode == exit_code


def test_a_missing_command_is_127_and_names_the_command(tmp_path: Path) -> None:
    with pytest.raises(AgentStartError) as caught:
        run_agent(["no-such-agent-cli", "-p", "hi"], "process")
    assert caught.value.exit_code == EXIT_NOT_FOUND == 127
    done = linewise("run", "--", "no-such-agent-cli", "-p", "hi")
    assert done.returncode == 127
    assert done.stderr.decode() == "linewise: error: command not found: no-such-agent-cli\n"
    script = tmp_path / "agent.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    done = linewise("run", "--", str(script))
    assert done.returncode == 126
    assert "permission denied" in done.stderr.decode()


def test_an_agent_that_exits_leaving_a_process_holding_its_output_does_not_hang_linewise(
    pidfile: Path,
) -> None:
    result, entries = collect(
        agent("hang", "--orphan", "60", "--pidfile", str(pidfile)), "process", grace=0.5
    )
    assert (result.exit_code, result.timed_out) == (0, False)
    assert texts(entries, "stdout") == ["ready"]
    assert "processes it left running still hold its output open" in texts(entries, "system")[0]
    assert result.duration < 10


def test_a_timeout_bounds_the_wait_for_processes_the_agent_left_and_signals_them(
    pidfile: Path,
) -> None:
    started = time.monotonic()
    _, entries = collect(
        agent("hang", "--orphan", "60", "--pidfile", str(pidfile)), "process", timeout=3
    )
    assert time.monotonic() - started < 8  # not the 15 s grace period
    assert "sent SIGTERM to its process group" in texts(entries, "system")[0]
    assert wait_gone([int(pid) for pid in pidfile.read_text().split()]) == []


# -- Ctrl-C -----------------------------------------------------------------------------


def _started(*command: str) -> subprocess.Popen[bytes]:
    """``linewise run`` started in the background, once its agent has printed ``ready``."""
    process = subprocess.Popen(
        [str(LINEWISE), "run", "-a", "process", "--grace", "1", "--", *command],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == b"stdout      ready\n"
    return process


def test_ctrl_c_is_forwarded_to_the_agent() -> None:
    process = _started(*agent("hang"))
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130  # the agent died of SIGINT
    assert b"linewise: Ctrl-C: sent SIGINT to the agent" in out
    assert b"KeyboardInterrupt" in out  # the agent's own traceback, as a stderr entry
    assert b"run killed by SIGINT" in err


def test_ctrl_c_twice_terminates_an_agent_that_ignores_it(pidfile: Path) -> None:
    process = _started(*agent("hang", "--ignore-int", "--children", "1", "--pidfile", str(pidfile)))
    process.send_signal(signal.SIGINT)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 143
    assert b"Ctrl-C again: sent SIGTERM to the agent's process group" in out
    assert wait_gone(list(map(int, pidfile.read_text().split()))) == []


# -- flooding -------------------------------------------------------------------------


def _flood_digest(lines: int, width: int = 100) -> str:
    import importlib.util

    spec = importlib.util.spec_from_file_location("flood", FAKES / "flood.py")
    assert spec is not None and spec.loader is not None
    flood = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(flood)
    digest = hashlib.sha256()
    for number in range(lines):
        digest.update(flood.line(number, width))
    return digest.hexdigest()


def test_a_flood_on_both_pipes_loses_nothing(tmp_path: Path) -> None:
    count = {"stdout": 0, "stderr": 0, "progress": 0}

    def on_entry(entry: Any) -> None:
        count[entry["kind"]] = count.get(entry["kind"], 0) + 1
        if entry["kind"] == "stderr":
            count["progress"] += entry["text"].count("progress ")

    log = tmp_path / "flood.log"
    lines = 200_000
    result = run_agent(
        agent("flood", "--lines", str(lines), "--stderr-every", "500"),
        "process",
        on_entry=on_entry,
        save_log=log,
    )
    assert result.exit_code == 0
    assert count["stdout"] == lines
    assert count["progress"] == lines // 500  # every stderr line, while stdout was flooding
    diagnostics = result.diagnostics
    assert diagnostics.lines == lines and diagnostics.accounted
    assert diagnostics.entries == count["stdout"] + count["stderr"]
    assert hashlib.sha256(log.read_bytes()).hexdigest() == _flood_digest(lines)


def test_a_flood_runs_in_bounded_memory() -> None:
    # 40 MB through linewise; kept in memory, the entries alone would take several times that.
    lines = 400_000
    measure = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.stderr.buffer.write(done.stderr)\n"
    )
    command = [str(LINEWISE), "run", "-a", "process", "-f", "jsonl", "--", *agent("flood")]
    done = subprocess.run(
        [sys.executable, "-c", measure, *command, "--lines", str(lines)],
        capture_output=True,
        timeout=300,
        check=True,
    )
    returncode, max_rss_kib = map(int, done.stdout.split())
    assert returncode == 0
    assert f"process: {lines} lines, {lines} entries".encode() in done.stderr
    assert max_rss_kib < 80 * 1024, f"linewise used {max_rss_kib} KiB for a 40 MB flood"


def test_a_reader_that_goes_away_stops_the_run_quietly() -> None:
    command = " ".join(agent("flood", "--forever"))
    done = subprocess.run(
        f"'{LINEWISE}' run -a process --grace 1 -- {command} | head -n 1",
        shell=True,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.startswith(b"stdout      line 000000000 ")
    assert b"Traceback" not in done.stderr


# -- auto-detection on a live stream ------------------------------------------------------


def test_unrecognised_output_is_held_at_most_the_detection_wait(tmp_path: Path) -> None:
    log = tmp_path / "plain.log"
    log.write_text("hello\nbye\n")
    started = time.monotonic()
    arrivals: dict[str, float] = {}
    result = run_agent(
        agent("replay", str(log), "--delay", "1.5"),
        on_entry=lambda entry: arrivals.setdefault(entry["text"], time.monotonic() - started),  # type: ignore[typeddict-item]
        detect_wait=0.3,
    )
    assert result.adapter_type == "process"
    assert result.detection is not None and not result.detection.detected
    assert arrivals["hello"] < arrivals["bye"] - 0.8


def test_stderr_before_any_stdout_is_shown_at_once_while_detecting() -> None:
    code = (
        "import sys, time\n"
        "print('starting up', file=sys.stderr, flush=True)\n"
        "time.sleep(1.0)\n"
        f"sys.stdout.write(open({str(RECORDED)!r}).read())\n"
    )
    started = time.monotonic()
    arrivals: list[tuple[str, float]] = []
    result = run_agent(
        [sys.executable, "-c", code],
        on_entry=lambda entry: arrivals.append((entry["kind"], time.monotonic() - started)),
    )
    assert result.adapter_type == "claude_local"
    assert arrivals[0][0] == "stderr" and arrivals[1][0] == "init"
    assert arrivals[0][1] < arrivals[1][1] - 0.5
    assert result.diagnostics.stderr_chunks == 1
    assert result.diagnostics.entries == len(arrivals)


# -- secrets --------------------------------------------------------------------------


SECRETS = {
    "FAKE_API_KEY": "sk-live-0123456789abcdef",
    "DB_PASSWORD": 'p@ss"word/with\\slash',
    "Session_Cookie": "c00kie-value-123",
}


def test_secret_values_from_the_environment_are_masked_in_everything_linewise_writes(
    tmp_path: Path,
) -> None:
    env = {**SECRETS, "GITHUB_TOKEN": "short", "PLAIN_SETTING": "visible-value"}
    names = [*SECRETS, "GITHUB_TOKEN", "PLAIN_SETTING"]
    log, transcript = tmp_path / "run.log", tmp_path / "run.jsonl"
    outputs = []
    for fmt in ("text", "jsonl"):
        done = linewise(
            "run",
            "-f",
            fmt,
            "--save-log",
            str(log),
            "--save-transcript",
            str(transcript),
            "--",
            *agent("leak_env", *names),
            "--api-key",
            SECRETS["FAKE_API_KEY"],
            env=env,
        )
        assert done.returncode == 0, done.stderr
        outputs += [done.stdout, done.stderr, log.read_bytes(), transcript.read_bytes()]
    everything = b"\n".join(outputs).decode()
    for value in SECRETS.values():
        assert value not in everything
        assert json.dumps(value)[1:-1] not in everything
    assert f"FAKE_API_KEY={MASK}" in everything
    assert f"split DB_PASSWORD={MASK}" in everything  # cut across two writes, still found
    assert f"stderr Session_Cookie={MASK}" in everything
    # Short values would mangle output if masked; other variables are not secrets.
    assert "GITHUB_TOKEN=short" in everything and "PLAIN_SETTING=visible-value" in everything
    # The agent itself got every value unchanged.
    values = [env[name] for name in names] + ["", ""]  # the --api-key pair: no such variables
    digest = hashlib.sha256("\n".join(values).encode()).hexdigest()
    assert f"env digest {digest}" in everything


def test_redact_env_masks_secret_names_like_the_reference() -> None:
    env = {
        "ANTHROPIC_API_KEY": "a",
        "GH_TOKEN": "b",
        "client_secret": "c",
        "PGPASSWORD": "d",
        "HTTP_AUTHORIZATION": "e",
        "COOKIE_JAR": "f",
        "PATH": "/usr/bin",
        "HOME": "/root",
    }
    assert redact_env(env) == {
        "ANTHROPIC_API_KEY": MASK,
        "GH_TOKEN": MASK,
        "client_secret": MASK,
        "PGPASSWORD": MASK,
        "HTTP_AUTHORIZATION": MASK,
        "COOKIE_JAR": MASK,
        "PATH": "/usr/bin",
        "HOME": "/root",
    }


def test_redact_command_masks_secret_options_and_values() -> None:
    redactor = Redactor(["sk-123456789"])
    command = ["claude", "--api-key", "x", "--token=y", "-p", "use sk-123456789", "--model", "m"]
    assert redact_command(command, redactor) == [
        "claude",
        "--api-key",
        MASK,
        f"--token={MASK}",
        "-p",
        f"use {MASK}",
        "--model",
        "m",
    ]


_SECRETS = st.lists(st.text(alphabet='abc"\\é', min_size=1, max_size=8), min_size=1, max_size=3)


@given(
    secrets=_SECRETS,
    pieces=st.lists(st.sampled_from(["a", "b", "c", "x\n", "é", "\\"]), max_size=60),
    cuts=st.lists(st.integers(1, 12), max_size=40),
)
def test_masking_does_not_depend_on_where_the_stream_is_cut(
    secrets: list[str], pieces: list[str], cuts: list[int]
) -> None:
    text = "".join(pieces + secrets + pieces[::-1]).encode()
    whole = Redactor(secrets)
    expected = whole.feed(text) + whole.flush()
    redactor = Redactor(secrets)
    out, position = [], 0
    for cut in cuts:
        out.append(redactor.feed(text[position : position + cut]))
        position += cut
    out.append(redactor.feed(text[position:]))
    out.append(redactor.flush())
    assert b"".join(out) == expected
    assert MASK.encode() in expected  # the text holds every secret verbatim


def test_output_without_a_possible_secret_start_is_never_held_back() -> None:
    redactor = Redactor(["sk-live-0123456789"])
    assert redactor.feed(b"hello world\n") == b"hello world\n"
    assert redactor.feed(b"ends with sk-") == b"ends with "
    assert redactor.feed(b"live-0123456789 done\n") == MASK.encode() + b" done\n"


@pytest.mark.parametrize(
    "spelling",
    [
        "sk/live/0123456789",  # as set
        "sk\\/live\\/0123456789",  # JSON's escaped solidus
        "".join(f"\\u{ord(c):04x}" for c in "sk/live/0123456789"),  # every char escaped
    ],
)
def test_json_spellings_of_a_secret_are_masked(spelling: str) -> None:
    redactor = Redactor.for_environment({"API_KEY": "sk/live/0123456789"})
    out = redactor.feed(f'{{"text": "{spelling}"}}\n'.encode()) + redactor.flush()
    assert b"0123456789" not in out and b"0031" not in out
    assert MASK.encode() in out


def test_a_secret_set_with_a_trailing_cr_or_spaces_is_masked_as_printed() -> None:
    redactor = Redactor.for_environment({"GITHUB_TOKEN": "  ghp_abcdef123456\r"})
    assert redactor.feed(b"token ghp_abcdef123456 used\n") == b"token *** used\n"


def test_the_redactor_memory_is_linear_in_the_secret_length() -> None:
    import tracemalloc

    def peak(size: int) -> int:
        tracemalloc.start()
        Redactor(["s" + "x" * size]).feed(b"some output\n")
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    small, large = peak(2_500), peak(10_000)
    assert large < 8 * small  # linear (4x the secret); the old prefix set was 16x and 1.6 GB


# -- usage errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["run"], 2, "no command to run"),
        (["run", "--"], 2, "no command to run"),
        (["run", "-a", "nope", "--", "true"], 2, "unknown adapter type 'nope'"),
        (["run", "--timeout", "soon", "--", "true"], 2, "not a number of seconds"),
        (["run", "--grace", "-1", "--", "true"], 2, "at least 0"),
        (["run", "--save-log", "/nonexistent/dir/run.log", "--", "true"], 125, "cannot write"),
    ],
)
def test_bad_options_and_unwritable_files(args: list[str], code: int, message: str) -> None:
    done = linewise(*args)
    assert done.returncode == code
    assert message in done.stderr.decode()


def test_options_after_the_command_belong_to_the_command() -> None:
    done = linewise(
        "run",
        "-q",
        "-a",
        "process",
        "-f",
        "jsonl",
        "--",
        sys.executable,
        "-c",
        "import sys; print(sys.argv[1:])",
        "--timeout",
        "-a",
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["text"] == "['--timeout', '-a']"


def test_run_renders_compact_and_html_too(tmp_path: Path) -> None:
    replay = agent("replay", str(RECORDED))
    compact = linewise("run", "-a", "claude_local", "-s", "compact", "-q", "--", *replay)
    assert compact.returncode == 0, compact.stderr
    assert compact.stdout.decode().startswith("[session 9d4c1e2a · claude-sonnet-4-6]\n")
    page = tmp_path / "run.html"
    html = linewise("run", "-f", "html", "-o", str(page), "-q", "--", *replay)
    assert html.returncode == 0, html.stderr
    assert html.stdout == b""
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert linewise("run", "-f", "jsonl", "-s", "compact", "--", *replay).returncode == 2


# -- one pipeline: run and render agree -------------------------------------------------


def test_run_and_render_both_detect_a_claude_stream_after_a_45_line_banner(
    tmp_path: Path,
) -> None:
    command = agent("banner", str(RECORDED), "--lines", "45", "--pause", "1.0")
    saved = tmp_path / "banner.log"
    ran = linewise("run", "-f", "jsonl", "--save-log", str(saved), "--", *command)
    assert ran.returncode == 0, ran.stderr
    assert b"detected claude_local: recognised lines 41-" in ran.stderr
    rendered = subprocess.run(
        [str(LINEWISE), "render", "-", "-f", "jsonl"],
        stdin=saved.open("rb"),
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert b"detected claude_local: recognised lines 41-" in rendered.stderr

    def kinds(output: bytes) -> list[tuple[str, str]]:
        entries = [json.loads(line) for line in output.splitlines()]
        return [(entry["kind"], entry.get("text", "")) for entry in entries]

    assert kinds(ran.stdout) == kinds(rendered.stdout)  # the same entries, the banner raw
    assert ("init", "") in kinds(ran.stdout)


def test_run_and_render_draw_the_same_compact_lines_after_a_45_line_banner(
    tmp_path: Path,
) -> None:
    command = agent("banner", str(RECORDED), "--lines", "45", "--pause", "1.0")
    saved = tmp_path / "banner.log"
    style = ("--style", "compact", "--color", "never")
    ran = linewise("run", *style, "--save-log", str(saved), "--", *command)
    assert ran.returncode == 0, ran.stderr
    assert b"detected claude_local: recognised lines 41-" in ran.stderr
    rendered = linewise("render", str(saved), *style)
    assert rendered.returncode == 0, rendered.stderr
    assert b"detected claude_local: recognised lines 41-" in rendered.stderr
    assert ran.stdout == rendered.stdout
    lines = ran.stdout.decode().splitlines()
    # The banner as printed, then Claude's own compact style from the raw lines.
    assert lines[44] == "[wrapper] starting step 45 of the agent environment"
    assert lines[45] == "[session 9d4c1e2a · claude-sonnet-4-6]"


def test_run_gives_the_claude_compact_style_render_gives(tmp_path: Path) -> None:
    ran = linewise(
        "run", "--style", "compact", "--color", "never", "--", *agent("replay", str(RECORDED))
    )
    assert ran.returncode == 0, ran.stderr
    rendered = linewise("render", str(RECORDED), "--style", "compact", "--color", "never")
    assert ran.stdout == rendered.stdout
    assert ran.stdout  # and it is the stream-json style, from the raw lines
