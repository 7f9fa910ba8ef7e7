"""Plugin output stays off the entry stream: what a plugin prints, from the parser, a thread
or straight to file descriptor 1, goes to stderr; stdout carries the transcript alone."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from linewise.cli.entry_stream import entry_stream
from support import FakeSite

LINEWISE = str(Path(sys.executable).with_name("linewise"))

NOISY = """
import os, sys, threading
print("noise at import")
os.write(1, b"fd1 noise at import\\n")

def _shout():
    print("noise from a thread")

def parse_stdout_line(line, ts):
    print("noise from parse_line")
    sys.stdout.write("more noise\\n")
    os.write(1, b"fd1 noise from parse_line\\n")
    thread = threading.Thread(target=_shout)
    thread.start()
    thread.join()
    return [{"kind": "assistant", "ts": ts, "text": "echo:" + line}]

def sniff(lines):
    print("noise from sniff")
    os.write(1, b"fd1 noise from sniff\\n")
    return 0.95 if lines and lines[0].startswith("NOISY") else 0.0
"""


@pytest.fixture
def noisy_env(fake_site: FakeSite) -> dict[str, str]:
    fake_site.add(
        "zoo-noisy",
        entry_points={"zoo_noisy": "zoo_noisy_mod"},
        requires=["linewise-contracts>=1,<2"],
        modules={"zoo_noisy_mod": NOISY},
    )
    return {**os.environ, "PYTHONPATH": str(fake_site.root)}


def _linewise(env: dict[str, str], *args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINEWISE, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("adapter", ["zoo_noisy", "auto"])
def test_render_jsonl_is_entries_only_whatever_the_plugin_prints(
    noisy_env: dict[str, str], adapter: str
) -> None:
    done = _linewise(
        noisy_env, "render", "-", "-a", adapter, "-f", "jsonl", "-q", stdin="NOISY one\ntwo\n"
    )
    assert done.returncode == 0, done.stderr
    entries = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["text"] for e in entries] == ["echo:NOISY one", "echo:two"]
    for noise in ("noise from parse_line", "fd1 noise from parse_line", "noise from a thread"):
        assert noise in done.stderr


def test_run_jsonl_is_entries_only_whatever_the_plugin_prints(noisy_env: dict[str, str]) -> None:
    script = "print('NOISY one'); print('two')"
    done = _linewise(
        noisy_env,
        "run",
        "-a",
        "zoo_noisy",
        "-f",
        "jsonl",
        "-q",
        "--",
        sys.executable,
        "-c",
        script,
        stdin="",
    )
    assert done.returncode == 0, done.stderr
    texts = [json.loads(line).get("text") for line in done.stdout.splitlines()]
    assert "echo:NOISY one" in texts and "echo:two" in texts
    assert "fd1 noise from parse_line" in done.stderr


def test_stdout_and_its_descriptor_are_put_back(capfd: pytest.CaptureFixture[str]) -> None:
    before = sys.stdout
    with entry_stream() as output:
        output.write("entry\n")
        print("plugin noise")
    assert sys.stdout is before
    print("after")
    captured = capfd.readouterr()
    assert "entry" in captured.out and "after" in captured.out
    assert "plugin noise" not in captured.out and "plugin noise" in captured.err


def test_a_captured_stdout_gets_the_entries_and_prints_go_to_stderr(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    with entry_stream() as output:
        output.write("entry\n")
        print("plugin noise")
    assert sys.stdout is out
    assert out.getvalue() == "entry\n" and err.getvalue() == "plugin noise\n"


TITLER = """
import os, sys

def parse_stdout_line(line, ts):
    print("\\x1b]0;pwned title\\x07printed")
    sys.stdout.write("\\x1b]8;;https://evil.example\\x1b\\\\link\\n")
    os.write(1, b"\\x1b]52;c;ZXZpbA==\\x07clipboard from fd 1\\n")
    if type(sys.stdout).__name__ != "NeutralisedText":  # an isolated worker's own stderr
        os.write(2, b"\\x1b]0;stderr title\\x07from fd 2\\n")
    return [{"kind": "assistant", "ts": ts, "text": "echo:" + line}]

def sniff(lines):
    return 0.95 if lines and lines[0].startswith("TITLE") else 0.0
"""


@pytest.mark.parametrize("isolate", ["", "all"], ids=["in-process", "isolated"])
def test_escape_sequences_a_plugin_prints_reach_stderr_neutralised(
    fake_site: FakeSite, isolate: str
) -> None:
    fake_site.add(
        "zoo-titler",
        entry_points={"zoo_titler": "zoo_titler_mod"},
        requires=["linewise-contracts>=1,<2"],
        modules={"zoo_titler_mod": TITLER},
    )
    env = {**os.environ, "PYTHONPATH": str(fake_site.root), "LINEWISE_ISOLATE": isolate}
    done = _linewise(env, "render", "-", "-a", "zoo_titler", "-f", "jsonl", "-q", stdin="TITLE\n")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["text"] for line in done.stdout.splitlines()] == ["echo:TITLE"]
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    for shown in ("␛]0;pwned title␇printed", "␛]8;;https://evil.example␛\\link"):
        assert shown in done.stderr
    assert "␛]52;c;ZXZpbA==␇clipboard from fd 1" in done.stderr
    if isolate:
        assert "␛]0;stderr title␇from fd 2" in done.stderr
