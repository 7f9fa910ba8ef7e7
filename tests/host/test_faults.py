"""Faults: export, render and sessions killed at random moments, full disks, concurrent writers.

After any kill the export folder is the complete old or the complete new
export, ``render -o`` leaves the complete old or the complete new transcript,
no pool worker outlives its parent by more than a second, and nothing prints a
traceback. Each case runs ``LINEWISE_FAULT_TRIALS`` trials (3 by default, so CI
stays short; raise it to measure).
"""

from __future__ import annotations

import os
import random
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from host.export.test_export import claude_log
from linewise.export import export_logs
from linewise.export._folder import committed_paths
from support import FakeSite, wait_for_linewise

pytestmark = pytest.mark.slow
pq = pytest.importorskip("pyarrow.parquet", reason="the export extra (pyarrow) is not installed")

TRIALS = int(os.environ.get("LINEWISE_FAULT_TRIALS", "3"))
SIGNALS = [signal.SIGKILL, signal.SIGINT, signal.SIGTERM]
#: What each signal's exit looks like when it arrived before the command was done.
EXITS = {signal.SIGKILL: -9, signal.SIGINT: 130, signal.SIGTERM: 143}
LINEWISE = [sys.executable, "-c", "import sys; from linewise.cli import main; sys.exit(main())"]


def _logs(folder: Path, count: int, *, repeat: int = 40, tag: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for index in range(count):
        (folder / f"{index}.jsonl").write_text(
            claude_log(f"s{tag}-{index}") * repeat, encoding="utf-8"
        )
    return folder


def _tables(folder: Path) -> tuple[bytes, bytes]:
    paths = committed_paths(str(folder), ("runs.parquet", "entries.parquet"))
    return Path(paths["runs.parquet"]).read_bytes(), Path(paths["entries.parquet"]).read_bytes()


def _descendants_alive(marker: str) -> list[int]:
    """Processes whose command line holds ``marker`` (forked workers keep their parent's)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in command and state != "Z":
            found.append(int(entry))
    return found


def _kill_at_random(
    command: list[str], rng: random.Random, window: float, number: int
) -> tuple[int, str]:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for_linewise(process.pid)
    time.sleep(rng.uniform(0.0, window))
    process.send_signal(number)
    try:
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        pytest.fail(f"still running 60 s after {signal.Signals(number).name}")
    return process.returncode, err.decode("utf-8", "replace")


def _assert_stopped_cleanly(code: int, err: str, number: int) -> None:
    assert "Traceback" not in err, err
    assert code in (0, EXITS[number]), (code, err)
    if code == 130:
        assert "interrupted" in err
    if code == 143:
        assert "stopped by SIGTERM" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("number", SIGNALS, ids=lambda n: signal.Signals(n).name)
def test_a_killed_export_leaves_the_old_or_the_new_export_and_no_worker(
    tmp_path: Path, number: int
) -> None:
    old_inputs = _logs(tmp_path / "old", 2, tag="old")
    new_inputs = _logs(tmp_path / "new", 24)
    export_logs([str(new_inputs)], str(tmp_path / "reference"), workers=1)
    new = _tables(tmp_path / "reference")
    rng = random.Random(number)
    for trial in range(TRIALS):
        out = tmp_path / f"out-{trial}"
        export_logs([str(old_inputs)], str(out), workers=1)
        old = _tables(out)
        command = [*LINEWISE, "export", str(new_inputs), "--to", str(out), "-j", "2", "-q"]
        code, err = _kill_at_random(command, rng, 3.0, number)
        _assert_stopped_cleanly(code, err, number)
        time.sleep(1.0)
        assert _descendants_alive(str(out)) == [], "a worker outlived its export by 1 s"
        assert _tables(out) in (old, new), f"trial {trial}: neither the old nor the new export"


def _transcript(tmp_path: Path, log: Path, fmt: str, name: str) -> bytes:
    target = tmp_path / name
    done = subprocess.run(
        [*LINEWISE, "render", str(log), "-f", fmt, "-q", "-o", str(target)],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return target.read_bytes()


@pytest.mark.parametrize("fmt", ["text", "jsonl", "html"])
@pytest.mark.parametrize("number", SIGNALS, ids=lambda n: signal.Signals(n).name)
def test_a_killed_render_leaves_the_old_or_the_new_transcript(
    tmp_path: Path, number: int, fmt: str
) -> None:
    old_log = _logs(tmp_path / "old", 1, repeat=2) / "0.jsonl"
    new_log = _logs(tmp_path / "new", 1, repeat=3000) / "0.jsonl"
    new = _transcript(tmp_path, new_log, fmt, "reference")
    rng = random.Random(number * 7)
    for trial in range(TRIALS):
        target = tmp_path / f"run-{trial}.{fmt}"
        old = _transcript(tmp_path, old_log, fmt, target.name)
        command = [*LINEWISE, "render", str(new_log), "-f", fmt, "-q", "-o", str(target)]
        code, err = _kill_at_random(command, rng, 2.0, number)
        _assert_stopped_cleanly(code, err, number)
        assert target.read_bytes() in (old, new), f"trial {trial}: a cut transcript"
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")] or number == 9


#: A parser whose run summary takes a while and says when it starts (the marker file named
#: by SUMMARY_MARKER): a SIGTERM arriving then is caught by the host as the summary's failure.
SLOW_SUMMARY = """
import os, time
from linewise_contracts.summary import RunSummary

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def summarize_run(lines):
    for _ in lines:
        pass
    open(os.environ["SUMMARY_MARKER"], "w").close()
    time.sleep(1.0)
    return RunSummary(outcome="success", complete=True)
"""


@pytest.mark.parametrize("fmt", ["text", "html"])
def test_a_sigterm_during_a_plugins_run_summary_stops_render_with_the_earlier_file_intact(
    fake_site: FakeSite, tmp_path: Path, fmt: str
) -> None:
    fake_site.add("slow-summary", entry_points={"slow": "slow_summary"},
                  modules={"slow_summary": SLOW_SUMMARY})  # fmt: skip
    log = tmp_path / "run.log"
    log.write_text("".join(f"line {index}\n" for index in range(2000)), encoding="utf-8")
    marker = tmp_path / "summarising"
    env = {**os.environ, "SUMMARY_MARKER": str(marker)}
    command = [sys.executable, "-c", fake_site.command_script(), "render", str(log), "-a", "slow",
               "-f", fmt, "-q"]  # fmt: skip
    rng = random.Random(31)
    for trial in range(TRIALS):
        marker.unlink(missing_ok=True)
        target = tmp_path / f"run-{trial}.{fmt}"
        target.write_text("the earlier transcript\n", encoding="utf-8")
        process = subprocess.Popen([*command, "-o", str(target)], stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 60
        while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.9))  # somewhere inside the summary's second
        process.send_signal(signal.SIGTERM)
        err = process.communicate(timeout=60)[1].decode("utf-8", "replace")
        assert process.returncode == 143, (trial, process.returncode, err)
        assert "stopped by SIGTERM" in err and "Traceback" not in err
        assert "summarize_run raised" not in err  # a stop, not the plugin's failure
        assert target.read_text(encoding="utf-8") == "the earlier transcript\n", trial
        assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("number", SIGNALS, ids=lambda n: signal.Signals(n).name)
def test_a_killed_render_of_several_logs_leaves_no_worker_and_a_whole_file(
    tmp_path: Path, number: int
) -> None:
    logs = sorted(str(p) for p in _logs(tmp_path / "logs", 6, repeat=600).iterdir())
    rng = random.Random(number * 13)
    for trial in range(TRIALS):
        target = tmp_path / f"all-{trial}.jsonl"
        target.write_text("earlier\n", encoding="utf-8")
        command = [*LINEWISE, "render", *logs, "-j", "2", "-f", "jsonl", "-q", "-o", str(target)]
        code, err = _kill_at_random(command, rng, 2.0, number)
        _assert_stopped_cleanly(code, err, number)
        time.sleep(1.0)
        assert _descendants_alive(str(target)) == [], "a render worker outlived its parent by 1 s"
        text = target.read_text(encoding="utf-8")
        assert text == "earlier\n" or text.count("\n") > 1000


def test_two_renders_to_one_file_leave_one_whole_transcript(tmp_path: Path) -> None:
    first = _logs(tmp_path / "a", 1, repeat=1500, tag="a") / "0.jsonl"
    second = _logs(tmp_path / "b", 1, repeat=1500, tag="b") / "0.jsonl"
    wanted = {
        _transcript(tmp_path, log, "jsonl", f"ref-{log.parent.name}") for log in (first, second)
    }
    target = tmp_path / "shared.jsonl"
    processes = [
        subprocess.Popen(
            [*LINEWISE, "render", str(log), "-f", "jsonl", "-q", "-o", str(target)],
            stderr=subprocess.PIPE,
        )
        for log in (first, second)
    ]
    for process in processes:
        assert process.wait(timeout=120) == 0
    assert target.read_bytes() in wanted


# -- full disks -------------------------------------------------------------------------


def _limited(limit: int) -> None:
    """A child that may write files of ``limit`` bytes at most (a full disk, as a process sees it)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a signal
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="no file size limit here")
@pytest.mark.parametrize("fmt", ["text", "jsonl", "html"])
def test_a_full_disk_names_the_output_keeps_the_old_file_and_prints_no_traceback(
    tmp_path: Path, fmt: str
) -> None:
    log = _logs(tmp_path / "logs", 1, repeat=400) / "0.jsonl"
    target = tmp_path / "out.txt"
    target.write_text("the earlier transcript\n", encoding="utf-8")
    done = subprocess.run(
        [*LINEWISE, "render", str(log), "-f", fmt, "-q", "-o", str(target)],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: _limited(64 * 1024),
    )
    assert done.returncode == 1
    assert f"cannot write {target}: File too large" in done.stderr
    assert "cannot read" not in done.stderr and "Traceback" not in done.stderr
    assert target.read_text(encoding="utf-8") == "the earlier transcript\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs", "out.txt"]


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="no file size limit here")
def test_a_full_disk_during_run_names_the_file_written(tmp_path: Path) -> None:
    log = _logs(tmp_path / "logs", 1, repeat=400) / "0.jsonl"
    saved = tmp_path / "saved.log"
    done = subprocess.run(
        [*LINEWISE, "run", "-q", "--save-log", str(saved), "-o", os.devnull, "--",
         "cat", str(log)],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: _limited(64 * 1024),
    )  # fmt: skip
    assert done.returncode != 0
    assert f"cannot write {saved}: File too large" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="no file size limit here")
def test_a_full_disk_during_export_leaves_the_old_export(tmp_path: Path) -> None:
    out = tmp_path / "out"
    export_logs([str(_logs(tmp_path / "old", 1, repeat=2))], str(out), workers=1)
    old = _tables(out)
    done = subprocess.run(
        [*LINEWISE, "export", str(_logs(tmp_path / "new", 30, repeat=200)), "--to", str(out),
         "-q", "-j", "1"],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: _limited(4096),  # the new tables take about 30 KB
    )  # fmt: skip
    assert done.returncode == 1
    assert f"cannot write to {out}" in done.stderr and "Traceback" not in done.stderr
    assert _tables(out) == old
    assert not [name for name in os.listdir(out) if name.endswith(".tmp")]


# -- sessions ----------------------------------------------------------------------------


def _claude_home(home: Path, count: int) -> Path:
    project = home / ".claude" / "projects" / "-home-dev-app"
    project.mkdir(parents=True)
    for index in range(count):
        (project / f"session-{index:04d}.jsonl").write_text(
            claude_log(f"session-{index:04d}") * 5, encoding="utf-8"
        )
    return home


@pytest.mark.parametrize("number", SIGNALS, ids=lambda n: signal.Signals(n).name)
def test_a_killed_sessions_listing_leaves_a_cache_that_lists_the_same(
    tmp_path: Path, number: int
) -> None:
    home = _claude_home(tmp_path / "home", 300)
    env = {**os.environ, "HOME": str(home), "LINEWISE_CACHE_DIR": str(tmp_path / "reference")}
    command = [*LINEWISE, "sessions", "--json", "--limit", "1000"]
    wanted = subprocess.run(command, capture_output=True, env=env, check=True).stdout
    rng = random.Random(number * 17)
    for trial in range(TRIALS):
        env["LINEWISE_CACHE_DIR"] = str(tmp_path / f"cache-{trial}")
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
        )
        wait_for_linewise(process.pid)
        time.sleep(rng.uniform(0.0, 1.5))
        process.send_signal(number)
        err = process.communicate(timeout=60)[1].decode()
        _assert_stopped_cleanly(process.returncode, err, number)
        again = subprocess.run(command, capture_output=True, env=env, check=False)
        assert again.returncode == 0 and b"Traceback" not in again.stderr
        assert again.stdout == wanted, f"trial {trial}: the cache lost or changed sessions"


#: The command, with SIGTERM arriving the moment render -o has created its temporary file
#: (before the file object, or its cleanup, exists): the temporary was left behind.
SIGTERM_AT_THE_TEMPORARY = """
import os, signal, sys

real_open = os.open

def opening(path, flags, *rest, **options):
    descriptor = real_open(path, flags, *rest, **options)
    if str(path).endswith(".tmp"):
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs before this returns
    return descriptor

os.open = opening
from linewise.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("several", [False, True], ids=["one-log", "several-logs"])
def test_a_sigterm_as_the_temporary_file_is_created_leaves_no_temporary(
    tmp_path: Path, several: bool
) -> None:
    log = _logs(tmp_path / "logs", 1, repeat=2) / "0.jsonl"
    target = tmp_path / "out" / "run.jsonl"
    target.parent.mkdir()
    target.write_text("the earlier transcript\n", encoding="utf-8")
    paths = [str(log), str(log)] if several else [str(log)]
    done = subprocess.run(
        [sys.executable, "-c", SIGTERM_AT_THE_TEMPORARY, "render", *paths, "-f", "jsonl", "-q",
         "-o", str(target)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 143, done.stderr
    assert "stopped by SIGTERM" in done.stderr and "Traceback" not in done.stderr
    assert target.read_text(encoding="utf-8") == "the earlier transcript\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["run.jsonl"]
