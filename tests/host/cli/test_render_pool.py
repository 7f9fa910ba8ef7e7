"""``linewise render`` of several logs: a pool of processes, output in the order given."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from linewise.cli.render_pool import WORK_PER_PROCESS, largest_first, planned_jobs
from support import REPO, FakeSite

LINEWISE = str(Path(sys.executable).with_name("linewise"))
SAMPLE = REPO / "examples" / "claude-sample.jsonl"
TS = "2026-01-31T09:30:00Z"

# A parser that says which process parsed the line, prints to stdout while it
# parses (that must not reach the transcript), and is slow on purpose.
SLOW_PARSER = """
import os, time
def parse_stdout_line(line, ts):
    print("plugin noise on stdout")
    time.sleep(0.3)
    return [{"kind": "stdout", "ts": ts, "text": f"{line} pid={os.getpid()}"}]
"""


def _render(
    *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINEWISE, "render", *map(str, args), "--ts", TS],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        check=False,
    )


@pytest.fixture
def logs(tmp_path: Path) -> list[Path]:
    plain = tmp_path / "plain.log"
    plain.write_text("hello\nworld\n")
    first, last = tmp_path / "first.jsonl", tmp_path / "last.jsonl"
    first.write_bytes(SAMPLE.read_bytes())
    last.write_bytes(SAMPLE.read_bytes()[: len(SAMPLE.read_bytes()) // 2].rsplit(b"\n", 1)[0])
    return [first, plain, last]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_several_logs_come_out_in_order_as_each_alone(logs: list[Path], jobs: str) -> None:
    together = _render(*logs, "-f", "jsonl", "--jobs", jobs)
    assert together.returncode == 0, together.stderr
    alone = "".join(_render(log, "-f", "jsonl").stdout for log in logs)
    assert together.stdout == alone
    assert len(together.stdout.splitlines()) > 20
    for log in logs:
        assert f"linewise: {log}: " in together.stderr  # each log's diagnostics, named


def test_text_output_names_each_log_before_its_transcript(logs: list[Path]) -> None:
    done = _render(*logs, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    headers = [line for line in done.stdout.splitlines() if line.startswith("==> ")]
    assert headers == [f"==> {log} <==" for log in logs]
    assert "hello" in done.stdout.split(f"==> {logs[1]} <==")[1]


def test_a_log_that_cannot_be_read_fails_alone(logs: list[Path], tmp_path: Path) -> None:
    missing = tmp_path / "missing.log"
    done = _render(logs[0], missing, logs[1], "-f", "jsonl", "--jobs", "2")
    assert done.returncode == 1
    assert f"linewise: {missing}: error: cannot read" in done.stderr
    alone = "".join(_render(log, "-f", "jsonl").stdout for log in (logs[0], logs[1]))
    assert done.stdout == alone


def test_to_an_output_file(logs: list[Path], tmp_path: Path) -> None:
    target = tmp_path / "all.jsonl"
    done = _render(*logs, "-f", "jsonl", "-o", target)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert target.read_text() == "".join(_render(log, "-f", "jsonl").stdout for log in logs)
    refused = _render(*logs, "-o", logs[1])
    assert refused.returncode == 2
    assert "is the input log" in refused.stderr
    assert logs[1].read_text() == "hello\nworld\n"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-"], "- (stdin) can only be rendered alone"),
        (["--follow"], "--follow follows one log"),
        (["-f", "html"], "--format html draws one log per page"),
        (["--jobs", "0"], "must be at least 1"),
    ],
)
def test_what_several_logs_cannot_do_is_a_usage_error(
    logs: list[Path], extra: list[str], message: str
) -> None:
    done = _render(*logs, *extra)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""


def test_the_logs_are_parsed_by_several_processes_and_plugin_output_stays_out(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    fake_site.add("slow", entry_points={"slow": "slow_mod"}, modules={"slow_mod": SLOW_PARSER})
    logs = []
    for index in range(2):
        log = tmp_path / f"{index}.log"
        log.write_text(f"line-{index}\n")
        logs.append(log)
    env = {"PYTHONPATH": str(fake_site.root)}
    done = _render(*logs, "-a", "slow", "-f", "jsonl", "--jobs", "2", env=env)
    assert done.returncode == 0, done.stderr
    entries = [json.loads(line) for line in done.stdout.splitlines()]
    texts = [entry["text"] for entry in entries if entry["kind"] == "stdout"]
    assert [text.split()[0] for text in texts] == ["line-0", "line-1"]
    assert len({text.split("pid=")[1] for text in texts}) == 2
    assert "plugin noise" in done.stderr


def test_small_logs_are_rendered_by_one_process_unless_asked(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    fake_site.add("slow", entry_points={"slow": "slow_mod"}, modules={"slow_mod": SLOW_PARSER})
    logs = []
    for index in range(2):
        log = tmp_path / f"{index}.log"
        log.write_text(f"line-{index}\n")
        logs.append(log)
    done = _render(*logs, "-a", "slow", "-f", "jsonl", env={"PYTHONPATH": str(fake_site.root)})
    assert done.returncode == 0, done.stderr
    texts = [json.loads(line)["text"] for line in done.stdout.splitlines()]
    pids = {text.split("pid=")[1] for text in texts if "pid=" in text}
    assert len(pids) == 1


def test_the_planned_processes(tmp_path: Path) -> None:
    small, big = tmp_path / "small.log", tmp_path / "big.log"
    small.write_bytes(b"x\n" * 10)
    with big.open("wb") as handle:
        handle.truncate(WORK_PER_PROCESS * 3)
    few, many = [str(small)] * 3, [str(big)] * 3
    assert planned_jobs(few, None, cores=8) == 1  # not worth a second process
    assert planned_jobs(many, None, cores=8) == 3  # no more processes than logs
    assert planned_jobs(many, None, cores=2) == 2  # no more than the cores
    assert planned_jobs(few, 2, cores=8) == 2  # --jobs is obeyed
    assert planned_jobs(few, 16, cores=8) == 3
    # A log that cannot be read weighs nothing (it fails on its own).
    assert planned_jobs([str(tmp_path / "missing.log"), str(big)], None, cores=8) == 2
    assert planned_jobs([str(tmp_path / "missing.log")] * 4, None, cores=8) == 1


def test_the_largest_logs_are_started_first(tmp_path: Path) -> None:
    sizes = {"a": 5, "b": 50, "c": 5, "d": 500}
    paths = []
    for name, size in sizes.items():
        path = tmp_path / name
        path.write_bytes(b"x" * size)
        paths.append(str(path))
    missing = str(tmp_path / "missing.log")
    assert largest_first([*paths, missing]) == [3, 1, 0, 2, 4]


def test_text_keeps_the_output_encoding_when_it_is_not_utf8(logs: list[Path]) -> None:
    accented = logs[1].with_name("accented.log")
    accented.write_text("café ☕ 日本\n", encoding="utf-8")
    several = [logs[0], accented]
    for encoding in ("ascii", "utf-8"):
        env = {"PYTHONIOENCODING": encoding}
        together = _render(*several, "--jobs", "2", env=env)
        assert together.returncode == 0, together.stderr
        alone = "".join(f"==> {log} <==\n" + _render(log, env=env).stdout for log in several)
        assert together.stdout == alone
        assert ("caf? ? ??" in alone) is (encoding == "ascii")
