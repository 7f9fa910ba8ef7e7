"""Isolation mode: a parser that hangs, eats memory, crashes or exits cannot stop a transcript.

Each zoo parser counts its lines (state a worker replacement loses) and
misbehaves on the lines that name its trick. The transcript must keep every
other line parsed by the plugin, the bad line through the generic parser,
and say in the diagnostics what happened.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from linewise import Registry, build_transcript
from support import FakeSite

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="isolation mode is POSIX only")

TS = "2026-01-01T00:00:00.000Z"

ZOO = '''
import ctypes
import os
import socket
import subprocess


class Parser:
    """Counts lines (state a restart loses) and misbehaves on request."""

    def __init__(self):
        self.count = 0

    def parse_line(self, line, ts):
        self.count += 1
        if line == "hang":
            while True:
                pass
        if line == "sleep":
            import time
            time.sleep(3600)
        if line == "eat":
            hoard = []
            while True:
                hoard.append(bytearray(64 * 1024 * 1024))
        if line == "segfault":
            ctypes.string_at(0)
        if line == "exit":
            os._exit(3)
        if line == "raise":
            raise ValueError("no thanks")
        if line == "exit-exception":
            raise SystemExit(4)
        if line == "write":
            with open("/tmp/linewise-isolation-probe", "w") as handle:
                handle.write("x")
        if line == "read":
            with open("/etc/hostname") as handle:
                return [{"kind": "assistant", "ts": ts, "text": handle.read()}]
        if line == "socket":
            socket.create_connection(("127.0.0.1", 9))
        if line == "spawn":
            subprocess.run(["true"], check=False)
        if line == "print":
            print("noise on stdout")
            os.write(1, b"raw noise on fd 1\\n")
        if line == "tuple":
            return ({"kind": "assistant", "ts": ts, "text": "t"},)
        if line == "object":
            return [{"kind": "assistant", "ts": ts, "text": object()}]
        if line == "huge":
            return [{"kind": "assistant", "ts": ts, "text": "x" * (3 * 1024 * 1024)}]
        if line.startswith("long"):
            return [{"kind": "assistant", "ts": ts, "text": f"{self.count}:{len(line)}"}]
        return [{"kind": "assistant", "ts": ts, "text": f"{self.count}:{line}"}]

    def reset(self):
        pass

    def finish(self, ts):
        return [{"kind": "system", "ts": ts, "text": f"saw {self.count}"}]


def create_stdout_parser():
    return Parser()


def sniff(lines):
    return 0.9 if lines and lines[0] == "zoo" else 0.0
'''


@pytest.fixture
def zoo(fake_site: FakeSite) -> Iterator[Registry]:
    fake_site.add(
        "linewise-zoo",
        entry_points={"zoo": "zoo_parser"},
        requires=["linewise-contracts>=1.0,<2"],
        modules={"zoo_parser": ZOO},
    )
    return Registry(
        entry_points=fake_site.entry_points(), isolate="zoo", line_timeout=1.0, worker_memory=512
    )


def _transcript(registry: Registry, *lines: str) -> tuple[list[dict[str, object]], object]:
    chunks = [{"ts": TS, "stream": "stdout", "chunk": "".join(f"{line}\n" for line in lines)}]
    transcript = build_transcript(chunks, "zoo", registry=registry, merge=False)
    return [dict(entry) for entry in transcript.entries], transcript.diagnostics


def _texts(entries: list[dict[str, object]]) -> list[object]:
    return [entry.get("text") for entry in entries]


def test_the_plugin_is_never_imported_into_the_host(zoo: Registry) -> None:
    entries, _diagnostics = _transcript(zoo, "a", "b")
    assert _texts(entries) == ["1:a", "2:b", "saw 2"]
    assert "zoo_parser" not in sys.modules
    assert zoo.load("zoo").isolated


@pytest.mark.parametrize("trick", ["hang", "sleep", "segfault", "exit"])
def test_a_line_that_kills_its_worker_falls_back_and_the_rest_is_parsed(
    zoo: Registry, trick: str
) -> None:
    entries, diagnostics = _transcript(zoo, "a", "b", trick, "c", "d")
    texts = _texts(entries)
    # before: parsed by the plugin; the bad line: raw through the generic parser;
    # after: parsed by the plugin in a fresh worker (which has seen only the lines
    # the dead one had not answered yet: here a and b, so it counts on from 2)
    assert texts[:2] == ["1:a", "2:b"]
    assert entries[2] == {"kind": "stdout", "ts": TS, "text": trick}
    assert texts[3:] == ["3:c", "4:d", "saw 4"]
    assert diagnostics.accounted
    assert diagnostics.lines == 5
    assert diagnostics.fallback_lines == 1
    assert diagnostics.parser_restarts == 1
    [error] = diagnostics.first_errors
    assert error.error_type == "WorkerError"
    assert "state" in error.message and "lost" in error.message


def test_a_worker_that_dies_after_answering_loses_the_state_before(zoo: Registry) -> None:
    # The worker answers every eight lines: the first eight were answered before
    # the crash; l8 was parsed but not answered, so the new worker parses it again.
    lines = [f"l{i}" for i in range(8)]
    entries, diagnostics = _transcript(zoo, *lines, "l8", "segfault", "after")
    texts = _texts(entries)
    assert texts[:8] == [f"{i + 1}:l{i}" for i in range(8)]
    assert texts[8:11] == ["1:l8", "segfault", "2:after"]
    assert diagnostics.parser_restarts == 1


def test_an_exception_is_an_ordinary_fallback_and_the_state_is_kept(zoo: Registry) -> None:
    entries, diagnostics = _transcript(zoo, "a", "raise", "exit-exception", "b")
    assert _texts(entries) == ["1:a", "raise", "exit-exception", "4:b", "saw 4"]
    assert [error.error_type for error in diagnostics.first_errors] == ["ValueError", "SystemExit"]


@pytest.mark.parametrize("trick", ["write", "read", "socket", "spawn"])
def test_the_worker_denies_files_network_and_subprocesses(zoo: Registry, trick: str) -> None:
    entries, diagnostics = _transcript(zoo, trick)
    assert entries[0] == {"kind": "stdout", "ts": TS, "text": trick}
    [error] = diagnostics.first_errors
    assert error.error_type == "SandboxViolation", error


def test_memory_exhaustion_hits_the_hard_limit_and_only_that_line_falls_back(
    zoo: Registry,
) -> None:
    entries, diagnostics = _transcript(zoo, "a", "eat", "b")
    # The limit turns the runaway allocation into a MemoryError inside the worker,
    # which survives it (or dies, and is replaced): either way the next line is parsed.
    texts = _texts(entries)
    assert texts[0] == "1:a" and texts[1] == "eat"
    assert str(texts[2]).endswith(":b")
    [error] = diagnostics.first_errors
    assert error.error_type in {"MemoryError", "WorkerError"}


def test_prints_in_the_worker_do_not_corrupt_the_replies(zoo: Registry) -> None:
    entries, _ = _transcript(zoo, "print", "x")
    assert _texts(entries) == ["1:print", "2:x", "saw 2"]


def test_a_reply_over_its_limit_falls_back_on_its_own_line(zoo: Registry) -> None:
    # A reply may be 24 bytes per character of its line plus 2 MiB; more is not read.
    # It travels alone, so exactly its line falls back (a was answered before it).
    entries, diagnostics = _transcript(zoo, "a", "huge", "b")
    assert _texts(entries) == ["1:a", "huge", "1:b", "saw 1"]
    assert diagnostics.parser_restarts == 1
    [error] = diagnostics.first_errors
    assert error.error_type == "WorkerError"
    assert "a reply of" in error.message


def test_a_batch_longer_than_the_pipes_goes_through_whole(zoo: Registry) -> None:
    # 40 lines of 100,000 characters: the request and the replies each outgrow a pipe.
    lines = [f"long{n:03d}" + "y" * 99_993 for n in range(40)]
    entries, diagnostics = _transcript(zoo, *lines)
    assert _texts(entries) == [f"{n + 1}:100000" for n in range(40)] + ["saw 40"]
    assert diagnostics.parser_restarts == 0


def test_values_json_cannot_hold_are_refused_by_validation(zoo: Registry) -> None:
    entries, diagnostics = _transcript(zoo, "object")
    assert entries[0]["kind"] == "stdout"
    assert diagnostics.dropped_entries == 1


def test_sniff_runs_in_the_worker(zoo: Registry) -> None:
    loaded = zoo.load("zoo")
    assert loaded.sniff is not None
    assert loaded.sniff(["zoo"]) == pytest.approx(0.9)
    assert loaded.sniff(["other"]) == 0.0
    assert "zoo_parser" not in sys.modules


def test_arguments_marshal_cannot_write_reach_the_worker_as_plain_values(zoo: Registry) -> None:
    class Line(str):
        pass

    loaded = zoo.load("zoo")
    assert loaded.sniff is not None
    assert loaded.sniff([Line("zoo")]) == pytest.approx(0.9)


def test_a_plugin_that_fails_to_import_in_its_worker_is_a_failed_load(fake_site: FakeSite) -> None:
    fake_site.add(
        "linewise-broken",
        entry_points={"broken": "broken_parser"},
        modules={"broken_parser": "raise RuntimeError('boom at import')\n"},
    )
    registry = Registry(entry_points=fake_site.entry_points(), isolate="all")
    assert registry.load("broken").is_fallback
    failure = registry.failed_loads["broken"]
    assert failure.stage == "import"
    assert "boom at import" in failure.reason


def test_the_policy_follows_the_settings_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from linewise.plugins.isolation import IsolationPolicy
    from linewise.settings.environment import Settings

    monkeypatch.setenv("LINEWISE_ISOLATE", "Zoo, linewise-other")
    monkeypatch.setenv("LINEWISE_LINE_TIMEOUT", "2.5")
    monkeypatch.setenv("LINEWISE_WORKER_MEMORY", "256")
    assert not IsolationPolicy.build().active  # no settings: the policy reads no environment
    policy = IsolationPolicy.build(settings=Settings.from_environment())
    assert policy.covers("zoo", None)
    assert policy.covers("x", "linewise_other")
    assert not policy.covers("claude_local", "linewise-claude")
    assert (policy.line_timeout, policy.worker_memory) == (2.5, 256)
    monkeypatch.setenv("LINEWISE_LINE_TIMEOUT", "soon")
    settings = Settings.from_environment()
    assert IsolationPolicy.build(settings=settings).line_timeout == 5.0  # warned, default used
    assert "LINEWISE_LINE_TIMEOUT must be a positive number, not 'soon'" in caplog.text
    with pytest.raises(ValueError, match="line_timeout must be a positive number"):
        IsolationPolicy.build(line_timeout=-1)
    assert json.dumps(sorted(IsolationPolicy.build(True, line_timeout=1).names)) == '["all"]'


RAW = """
class Parser:
    raw_lines = True

    def parse_line(self, line, ts):
        return [{"kind": "assistant", "ts": ts, "text": repr(line)}]

    def reset(self):
        pass


def create_stdout_parser():
    return Parser()
"""


def test_a_raw_line_parser_gets_every_line_as_printed(fake_site: FakeSite) -> None:
    fake_site.add("linewise-raw", entry_points={"raw": "raw_parser"}, modules={"raw_parser": RAW})
    text = "a\r\n\n  spaced  \nlone\rcarriage\n\u2028sep\ud800\n"
    results = []
    for isolate in (False, True):
        registry = Registry(entry_points=fake_site.entry_points(), isolate=isolate)
        chunks = [{"ts": TS, "stream": "stdout", "chunk": text}]
        transcript = build_transcript(chunks, "raw", registry=registry, merge=False)
        results.append([dict(entry) for entry in transcript.entries])
    assert results[0] == results[1]
    assert [entry["text"] for entry in results[1]][:3] == [
        repr("a\r\n"),
        repr("\n"),
        repr("  spaced  \n"),
    ]


def test_isolated_parsing_gives_the_same_transcript_on_every_real_log() -> None:
    from linewise.stream.detect import detect_adapter, first_lines
    from support import corpus_path

    root = corpus_path("real-logs")
    inside = Registry()
    isolated = Registry(isolate="all")
    compared = 0
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != "PROVENANCE.md"):
        text = path.read_text(encoding="utf-8", errors="replace")
        adapter_type = detect_adapter(first_lines(text), registry=inside).adapter_type
        chunks = [{"ts": TS, "stream": "stdout", "chunk": text}]
        local = build_transcript(chunks, adapter_type, registry=inside, merge=False)
        remote = build_transcript(chunks, adapter_type, registry=isolated, merge=False)
        assert remote.entries == local.entries, path.name
        for field in ("lines", "entries", "fallback_lines", "dropped_entries", "parser_errors"):
            assert getattr(remote.diagnostics, field) == getattr(local.diagnostics, field), (
                path.name,
                field,
            )
        compared += 1
    assert compared >= 70


def test_render_isolate_survives_a_hanging_line_end_to_end(
    fake_site: FakeSite, tmp_path: pytest.TempPathFactory
) -> None:
    import os
    import subprocess
    from pathlib import Path

    fake_site.add(
        "linewise-zoo",
        entry_points={"zoo": "zoo_parser"},
        requires=["linewise-contracts>=1.0,<2"],
        modules={"zoo_parser": ZOO},
    )
    log = Path(str(tmp_path)) / "run.log"
    log.write_text("a\nhang\nb\n", encoding="utf-8")
    linewise = str(Path(sys.executable).with_name("linewise"))
    env = {**os.environ, "PYTHONPATH": str(fake_site.root), "LINEWISE_CACHE_DIR": ""}
    done = subprocess.run(
        [
            linewise,
            "render",
            str(log),
            "-a",
            "zoo",
            "-f",
            "jsonl",
            "--isolate",
            "zoo",
            "--line-timeout",
            "1",
            "--ts",
            TS,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    texts = [json.loads(line)["text"] for line in done.stdout.splitlines()]
    assert texts == ["1:a", "hang", "2:b", "saw 2"]  # the new worker saw a again
    assert "1 fallback" in done.stderr


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_host_polls_only_while_it_hardly_waits_for_a_core(tmp_path: Path) -> None:
    from linewise.plugins.isolation._polling import SPIN, PollingPolicy

    schedstat = tmp_path / "schedstat"
    clock = _Clock()
    policy = PollingPolicy(str(schedstat), clock)
    schedstat.write_text("5000000 0 10\n")
    assert policy.spin() == 0.0  # nothing known yet: no polling
    clock.now += 1.0
    schedstat.write_text("9000000 20000000 20\n")  # waited 0.02 s of 1 s for a core
    assert policy.spin() == SPIN
    clock.now += 1.0
    schedstat.write_text("9900000 620000000 30\n")  # waited 0.6 s of 1 s: a busy machine
    assert policy.spin() == 0.0


def test_without_schedstat_nobody_polls(tmp_path: Path) -> None:
    from linewise.plugins.isolation._polling import PollingPolicy

    clock = _Clock()
    policy = PollingPolicy(str(tmp_path / "missing"), clock)
    for _ in range(3):
        clock.now += 1.0
        assert policy.spin() == 0.0
