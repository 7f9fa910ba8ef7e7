"""Isolation against a plugin that attacks it (issue 33): the host's clock, bounded replies,
a worker that cannot reach outside, and workers that die with their host.

The hostile plugin is a real installed distribution; each line names its trick. Every
render runs as a separate ``linewise`` process under the test's own limits (a timeout, an
address-space rlimit), so a host that hangs, allocates what a worker claims or is killed by
its worker fails the test instead of taking pytest down with it.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from linewise import Registry, build_transcript
from linewise.transcript.summary import plugin_summary
from support import FakeSite

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the worker's kernel limits are Linux's"
)

TS = "2026-01-01T00:00:00.000Z"
LINEWISE = str(Path(sys.executable).with_name("linewise"))

HOSTILE = '''
import json
import os
import signal
import struct
import sys
import time

_CONFIG = json.loads(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].startswith("{") else {}


def _progress_forever():
    """Keep the shared progress page moving, as if the parser were busy with new lines."""
    import mmap

    page = mmap.mmap(_CONFIG["progress_fd"], 8)
    number = 0
    while True:
        number += 1
        page[0:8] = struct.pack("<Q", number)


if os.environ.get("HOSTILE_IMPORT_SPINS") == "1" and _CONFIG:
    _progress_forever()


class Parser:
    def parse_line(self, line, ts):
        trick, _, argument = line.partition(" ")
        if trick == "spin-writing-progress":
            _progress_forever()
        if trick == "trickle":
            reply = _CONFIG["reply_fd"]
            os.write(reply, struct.pack(">II", 1 << 20, 1))
            while True:
                os.write(reply, b" ")
                time.sleep(0.2)
        if trick == "claim":
            # A header claiming the most a batch of one-character lines could ever need.
            claim = 24 * 2000 + (2 * 1024 * 1024 + 1) * 2000 + 1
            os.write(_CONFIG["reply_fd"], struct.pack(">II", claim, 2000))
            time.sleep(3600)
        if trick == "fork-exec":
            import _posixsubprocess

            command = ["/bin/sh", "-c", f"echo pwned > {argument}"]
            errors = os.pipe()
            common = [command, [b"/bin/sh"], True, (), None, None, *[-1] * 6, *errors]
            try:  # the signature of 3.11.7 and later
                _posixsubprocess.fork_exec(*common, False, False, -1, None, None, -1, -1, None, False)
            except TypeError:
                _posixsubprocess.fork_exec(*common, False, False, -1, None, None, -1, None)
            time.sleep(1)
        if trick == "sqlite":
            import sqlite3

            sqlite3.connect(argument).execute("create table t (x)")
        if trick == "listdir":
            return [{"kind": "assistant", "ts": ts, "text": "|".join(os.listdir(argument))}]
        if trick == "environ":
            return [{"kind": "assistant", "ts": ts, "text": json.dumps(dict(os.environ))}]
        if trick == "pidfd-kill":
            signal.pidfd_send_signal(os.pidfd_open(os.getppid()), signal.SIGKILL)
        if trick == "kill-host":
            os.kill(os.getppid(), signal.SIGKILL)
        if trick == "unset-parent-death":
            import ctypes

            ctypes.CDLL(None).prctl(1, 0)
        if trick == "raise":
            raise ValueError(f"no thanks: {argument}")
        if trick == "exit":
            os._exit(3)
        if trick == "hang":
            while True:
                pass
        return [{"kind": "assistant", "ts": ts, "text": f"parsed {line}"}]

    def reset(self):
        pass


def create_stdout_parser():
    return Parser()


def sniff(lines):
    return 0.95 if lines and lines[0].startswith("hostile") else 0.0


def summarize_run(lines):
    from linewise_contracts.summary import RunSummary, Usage

    lines = list(lines)
    if lines and lines[0] == "summary-nan":
        return RunSummary(cost_usd=float("nan"))
    if lines and lines[0] == "summary-text":
        return RunSummary(usage=Usage(input_tokens="12"))
    from linewise_contracts.usage import TokenUsage

    tokens = TokenUsage(uncached_input=12, cache_read=30, output=4)
    return RunSummary(
        usage=Usage(input_tokens=12),
        cost_usd=0.5,
        cost_source="reported",
        token_usage=tokens,
        model_usage={"m-1": tokens},
    )


def session_stores(environ, home):
    from pathlib import Path

    from linewise_contracts.sessions import SessionStore

    return [SessionStore(cli="hostile", root=Path(home) / ".hostile", patterns=("*.jsonl",))]
'''


@pytest.fixture
def hostile(fake_site: FakeSite) -> FakeSite:
    fake_site.add(
        "linewise-hostile",
        entry_points={"hostile": "hostile_parser"},
        requires=["linewise-contracts>=1.0,<2"],
        modules={"hostile_parser": HOSTILE},
    )
    return fake_site


def _environment(site: FakeSite, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(site.root),
        "LINEWISE_CACHE_DIR": "",
        "LINEWISE_WORKER_MEMORY": "512",
        **extra,
    }


def _limit_address_space() -> None:
    limit = 2 * 1024 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _render(
    site: FakeSite,
    log: Path,
    *arguments: str,
    timeout: float = 90,
    **extra: str,
) -> subprocess.CompletedProcess[str]:
    """``linewise render LOG -f jsonl`` with the hostile plugin isolated, under the test's limits."""
    return subprocess.run(
        [
            LINEWISE,
            "render",
            str(log),
            "-f",
            "jsonl",
            "--ts",
            TS,
            "--line-timeout",
            "1",
            *arguments,
        ],
        capture_output=True,
        text=True,
        env=_environment(site, **extra),
        timeout=timeout,
        preexec_fn=_limit_address_space,
        check=False,
    )


def _texts(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [json.loads(line).get("text", "") for line in done.stdout.splitlines() if line]


def _log(tmp_path: Path, *lines: str) -> Path:
    log = tmp_path / "run.log"
    log.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return log


# -- the deadline is the host's own clock (item 3) --------------------------------------------


@pytest.mark.parametrize("trick", ["spin-writing-progress", "trickle"])
def test_a_line_that_fakes_progress_or_trickles_its_reply_is_killed_on_the_hosts_clock(
    hostile: FakeSite, tmp_path: Path, trick: str
) -> None:
    log = _log(tmp_path, "hostile a", trick, "hostile b")
    done = _render(hostile, log, "-a", "hostile", "--isolate", "hostile", timeout=60)
    assert done.returncode == 0, done.stderr
    texts = _texts(done)
    assert texts[0] == "parsed hostile a"
    assert texts[1] == trick  # the generic parser's line
    # The progress page only names the line a worker died on: one that lies there can send
    # its own later lines of the batch to the generic parser too, never hold the host up.
    assert texts[2] in ("parsed hostile b", "hostile b")


def test_a_plugin_whose_import_spins_writing_progress_cannot_hang_auto_detection(
    hostile: FakeSite, tmp_path: Path
) -> None:
    log = _log(tmp_path, "plain words", "more words")
    done = _render(hostile, log, timeout=90, LINEWISE_ISOLATE="all", HOSTILE_IMPORT_SPINS="1")
    assert done.returncode == 0, done.stderr
    assert _texts(done) == ["plain words", "more words"]


# -- replies are bounded (item 4) -------------------------------------------------------------


def test_a_reply_header_claiming_gigabytes_is_a_protocol_error_not_an_allocation(
    hostile: FakeSite, tmp_path: Path
) -> None:
    # 2000 one-character lines make one batch; the header claims 4 GiB for them, the
    # host runs under a 2 GiB address-space limit.
    log = _log(tmp_path, "claim", *(["a"] * 1999))
    done = _render(hostile, log, "-a", "hostile", "--isolate", "hostile", timeout=90)
    assert done.returncode == 0, done.stderr
    texts = _texts(done)
    assert len(texts) == 2000  # every line accounted for
    assert texts[0] == "claim"
    assert texts[1:] == ["parsed a"] * 1999


# -- the sandbox (item 6) ---------------------------------------------------------------------


@pytest.mark.parametrize("trick", ["fork-exec", "sqlite"])
def test_the_worker_cannot_run_programs_or_create_files(
    hostile: FakeSite, tmp_path: Path, trick: str
) -> None:
    marker = tmp_path / "marker"
    log = _log(tmp_path, "hostile a", f"{trick} {marker}")
    done = _render(hostile, log, "-a", "hostile", "--isolate", "hostile", timeout=60)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert _texts(done)[1] == f"{trick} {marker}"  # refused: the generic parser's line


def test_the_worker_cannot_list_the_home_folder(hostile: FakeSite, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    log = _log(tmp_path, "hostile a", f"listdir {home}")
    done = _render(hostile, log, "-a", "hostile", "--isolate", "hostile", HOME=str(home))
    assert done.returncode == 0, done.stderr
    assert ".ssh" not in done.stdout
    assert _texts(done)[1] == f"listdir {home}"


def test_the_worker_does_not_see_the_hosts_environment(hostile: FakeSite, tmp_path: Path) -> None:
    log = _log(tmp_path, "hostile a", "environ")
    done = _render(
        hostile,
        log,
        "-a",
        "hostile",
        "--isolate",
        "hostile",
        ANTHROPIC_API_KEY="sk-ant-test-secret-value",
        LANG="C.UTF-8",
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(_texts(done)[1])
    assert "ANTHROPIC_API_KEY" not in seen
    assert "PYTHONPATH" not in seen
    assert seen.get("LANG") == "C.UTF-8"


@pytest.mark.parametrize("trick", ["pidfd-kill", "kill-host"])
def test_the_host_survives_a_worker_that_signals_it(
    hostile: FakeSite, tmp_path: Path, trick: str
) -> None:
    log = _log(tmp_path, "hostile a", trick, "hostile b")
    done = _render(hostile, log, "-a", "hostile", "--isolate", "hostile", timeout=60)
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert _texts(done) == ["parsed hostile a", trick, "parsed hostile b"]


# -- workers die with their host (item 7) -----------------------------------------------------


def _workers_of(host: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rpartition(")")[2].split()[1])
        if parent == host and b"linewise.plugins.isolation._worker" in command:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.parametrize("trick", ["hang", "unset-parent-death"])
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_a_worker_does_not_outlive_its_host(
    hostile: FakeSite, tmp_path: Path, how: signal.Signals, trick: str
) -> None:
    # The worker spins on its line (after trying to undo its parent-death signal).
    lines = ["hostile a", "hang"] if trick == "hang" else ["hostile a", trick, "hang"]
    log = _log(tmp_path, *lines)
    host = subprocess.Popen(
        [
            LINEWISE,
            "render",
            str(log),
            "-a",
            "hostile",
            "--isolate",
            "hostile",
            "--line-timeout",
            "600",
            "-f",
            "jsonl",
        ],
        env=_environment(hostile),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        # Two workers: the one that loaded the plugin (it answers sniff and the like) and
        # the parser's, which spins on its line.
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            workers = _workers_of(host.pid)
        assert len(workers) == 2, "the host never started its parser's worker"
        time.sleep(1.0)  # the parser's worker is in its endless line by now
        host.send_signal(how)
        host.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_alive, workers))
    finally:
        host.kill()
        host.wait()
        for worker in filter(_alive, workers):
            os.kill(worker, signal.SIGKILL)


# -- the isolation parts of issue 33 item 13 (and issue 31 item 7) ----------------------------


@pytest.fixture
def isolated(hostile: FakeSite) -> Registry:
    return Registry(entry_points=hostile.entry_points(), isolate="hostile", line_timeout=5.0)


def test_a_parser_error_names_its_own_line_not_the_batchs_last(isolated: Registry) -> None:
    lines = [f"raise {n}" if n in (100, 200, 300) else f"line {n}" for n in range(1, 561)]
    chunks = [{"ts": TS, "stream": "stdout", "chunk": "".join(f"{line}\n" for line in lines)}]
    transcript = build_transcript(chunks, "hostile", registry=isolated)
    errors = transcript.diagnostics.first_errors
    assert [error.line_number for error in errors] == [100, 200, 300]
    assert [error.message for error in errors] == [f"no thanks: {n}" for n in (100, 200, 300)]
    assert transcript.diagnostics.lines == 560


def test_a_worker_that_dies_on_every_line_is_replaced_a_few_times_then_given_up(
    isolated: Registry,
) -> None:
    chunks = [{"ts": TS, "stream": "stdout", "chunk": "exit\n" * 20}]
    transcript = build_transcript(chunks, "hostile", registry=isolated, merge=False)
    diagnostics = transcript.diagnostics
    assert diagnostics.parser_restarts == 5
    assert diagnostics.lines == 20
    assert [entry.get("text") for entry in transcript.entries] == ["exit"] * 20
    assert diagnostics.fallback_lines == 20


def test_sessions_say_which_isolated_plugins_stores_they_leave_out(
    hostile: FakeSite, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    (home / ".hostile").mkdir(parents=True)
    (home / ".hostile" / "one.jsonl").write_text("hostile a\n", encoding="utf-8")
    done = subprocess.run(
        [LINEWISE, "sessions"],
        capture_output=True,
        text=True,
        env=_environment(hostile, LINEWISE_ISOLATE="hostile", HOME=str(home)),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    warning = (
        "linewise: warning: hostile: session_stores not searched: the plugin runs isolated "
        "(LINEWISE_ISOLATE), and an isolated worker may not read files"
    )
    assert done.stderr.count(warning) == 1, done.stderr


@pytest.mark.parametrize(
    ("first", "problem"),
    [
        ("summary-nan", "cost_usd is not a finite number"),
        ("summary-text", "usage.input_tokens is not a token count"),
        ("fine", None),
    ],
)
def test_an_isolated_run_summary_is_judged_as_it_is_in_process(
    hostile: FakeSite, first: str, problem: str | None
) -> None:
    found = {}
    for isolate in ("hostile", None):
        registry = Registry(entry_points=hostile.entry_points(), isolate=isolate)
        loaded = registry.load("hostile")
        assert loaded.isolated is (isolate is not None)
        found[isolate] = plugin_summary(loaded, [first, "more"])
    isolated, in_process = found["hostile"], found[None]
    assert isolated == in_process
    if problem is None:
        assert isolated[0] is not None
        assert (isolated[0].usage.input_tokens, isolated[0].cost_usd) == (12, 0.5)
        # the usage vocabulary crosses the isolation wire too (contract 1.3)
        assert isolated[0].token_usage.cache_read == 30
        assert isolated[0].model_usage["m-1"].output == 4
        assert isolated[0].cost_source == "reported"
    else:
        assert isolated == (None, f"hostile summarize_run: {problem}")
