"""``linewise render``: styles, output files, HTML, following a growing file, progress, memory."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from linewise.cli import main
from linewise.cli.commands.rendering import FOLLOW_INTERVAL, follow_chunks
from linewise.cli.common import file_ts
from linewise.render.progress import ProgressBar
from support import REPO, corpus_path

SAMPLE = REPO / "examples" / "claude-sample.jsonl"
SCRIPT = Path(sys.executable).with_name("linewise")


class Terminal(io.StringIO):
    """A fake terminal: a text stream that says it is a tty."""

    def isatty(self) -> bool:
        return True

    def screen(self) -> list[str]:
        """The lines as a terminal shows them: a carriage return writes over the line."""
        shown = []
        for line in self.getvalue().split("\n"):
            row = ""
            for piece in line.split("\r"):
                row = piece + row[len(piece) :]
            shown.append(row.rstrip())
        return shown


# -- styles and options ----------------------------------------------------------------


def test_compact_style_of_a_claude_log(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(SAMPLE), "--style", "compact", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:6] == [
        "[session 5b0e2f7c · claude-sonnet-4-6]",
        "I'll look at the implementation of `add` first.",
        "[Read] calc.py",
        "→ 5 lines",  # a Read result: its numbered lines, counted from the entry
        "[Retrying API call...]",
        "Found it: `add` calls `abs(a)`, which drops the sign. Let me run the tests to confirm.",
    ]
    assert "→ error: F." in lines  # the log's own colour codes are gone
    assert lines[-4:-1] == [
        "",
        "--- Result ---",
        "Fixed: `add` no longer takes the absolute value of `a`. Both tests pass.",
    ]
    # Claude's input and cache writes apart (6,961 under one label before)
    assert lines[-1].startswith(
        "[run completed · claude-sonnet-4-6 · whole run: uncached input 21 · cache read 60,210 · "
        "cache write 6,940"
    )


def test_compact_style_of_another_adapter_uses_its_entries(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"plain output\n\x1b]0;title\x07second\n"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", stdin)
        assert main(["render", "-", "-a", "process", "-s", "compact", "-q"]) == 0
    assert capsys.readouterr().out == "plain output\n␛]0;title␇second\n"  # payload shown, inert


def test_thinking_is_folded_unless_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    main(["render", str(SAMPLE), "-q"])
    assert "thinking    ⋯ (hidden; --thinking shows it)" in capsys.readouterr().out
    main(["render", str(SAMPLE), "-q", "--thinking"])
    assert "thinking    The user says `add` returns wrong results" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("options", "check"),
    [
        (["-f", "text"], lambda text: text.startswith("system      hook SessionStart")),
        (["-s", "compact"], lambda text: text.startswith("[session 5b0e2f7c")),
        # 18 entries, and contract 1.3's run_terminal after the result.
        (["-f", "jsonl"], lambda text: len([json.loads(x) for x in text.splitlines()]) == 19),
    ],
)
def test_output_goes_to_a_file_for_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], check: Any
) -> None:
    target = tmp_path / "out"
    assert main(["render", str(SAMPLE), "-q", "-o", str(target), *options]) == 0
    assert capsys.readouterr().out == ""
    assert check(target.read_text(encoding="utf-8"))


def test_colour_is_off_in_a_file_unless_forced(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    main(["render", str(SAMPLE), "-q", "-o", str(target)])
    assert "\x1b" not in target.read_text(encoding="utf-8")
    main(["render", str(SAMPLE), "-q", "-o", str(target), "--color", "always"])
    assert "\x1b[32massistant" in target.read_text(encoding="utf-8")


def test_the_output_may_not_be_the_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.jsonl"
    log.write_bytes(SAMPLE.read_bytes())
    with pytest.raises(SystemExit) as caught:
        main(["render", str(log), "-o", str(log)])
    assert caught.value.code == 2
    assert log.read_bytes() == SAMPLE.read_bytes()
    assert "is the input log itself" in capsys.readouterr().err


def test_the_output_may_not_be_the_file_stdin_reads(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    log.write_bytes(SAMPLE.read_bytes())
    with log.open("rb") as stdin:
        done = subprocess.run(
            [str(SCRIPT), "render", "-", "-o", str(log)],
            stdin=stdin,
            capture_output=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert b"is the input log itself" in done.stderr
    assert log.read_bytes() == SAMPLE.read_bytes()  # not truncated


def test_an_unwritable_output_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["render", str(SAMPLE), "-o", str(tmp_path / "missing" / "out.txt")])
    assert caught.value.code == 1
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["jsonl", "html"])
def test_style_applies_to_text_only(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["render", str(SAMPLE), "-f", fmt, "--style", "compact"])
    assert caught.value.code == 2
    assert "--style compact applies to --format text only" in capsys.readouterr().err


# -- HTML ---------------------------------------------------------------------------


def test_html_goes_through_the_html_renderer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    made: list[Any] = []

    class FakeHtmlRenderer:
        def __init__(self, stream: Any, *, title: str, file_ts: str | None = None) -> None:
            self.stream, self.title, self.file_ts = stream, title, file_ts
            self.kinds: list[str] = []
            made.append(self)

        def write(self, entry: dict[str, Any]) -> None:
            self.kinds.append(entry["kind"])

        def close(self, *, summary: Any = None) -> None:
            outcome = summary.outcome if summary is not None else None
            self.stream.write(f"<html>{len(self.kinds)} entries, {outcome}</html>")

    module = types.ModuleType("linewise.render.html")
    module.HtmlRenderer = FakeHtmlRenderer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "linewise.render.html", module)
    target = tmp_path / "run.html"
    assert main(["render", str(SAMPLE), "--format", "html", "-o", str(target), "-q"]) == 0
    assert target.read_text(encoding="utf-8") == "<html>19 entries, completed</html>"
    (renderer,) = made
    assert renderer.title == "claude-sample.jsonl"
    assert renderer.file_ts == file_ts(str(SAMPLE))  # to tell the file's time from the events'
    assert renderer.kinds[:3] == ["system", "system", "init"]
    assert capsys.readouterr().out == ""


def test_html_missing_is_a_clear_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "linewise.render.html", None)
    with pytest.raises(SystemExit) as caught:
        main(["render", str(SAMPLE), "--format", "html"])
    assert caught.value.code == 2
    assert "--format html is not available" in capsys.readouterr().err


def test_the_real_html_renderer_writes_a_page(tmp_path: Path) -> None:
    pytest.importorskip("linewise.render.html", reason="the HTML renderer is not installed")
    target = tmp_path / "run.html"
    assert main(["render", str(SAMPLE), "-f", "html", "-o", str(target), "-q"]) == 0
    page = target.read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html") and "\x1b" not in page


# -- real logs in every style ---------------------------------------------------------


@pytest.mark.parametrize(
    "options", [[], ["--thinking", "--full"], ["-s", "compact"], ["-f", "jsonl"]]
)
def test_every_real_claude_log_renders_in_every_style(tmp_path: Path, options: list[str]) -> None:
    target = tmp_path / "out"
    for path in sorted(corpus_path("real-logs", "claude").glob("*.jsonl")):
        assert main(["render", str(path), "-q", "-o", str(target), *options]) == 0
        shown = target.read_text(encoding="utf-8")
        assert shown and "\x1b" not in shown, path.name


# -- following a growing file ----------------------------------------------------------


def _append_slowly(path: Path, pieces: list[bytes], pause: float = 0.15) -> threading.Thread:
    def append() -> None:
        for piece in pieces:
            time.sleep(pause)
            with path.open("ab") as log:
                log.write(piece)

    thread = threading.Thread(target=append, daemon=True)
    thread.start()
    return thread


def test_follow_chunks_reads_what_another_thread_appends(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    path.write_bytes(b"first\n")
    writer = _append_slowly(path, [b"sec", b"ond\nthi", b"rd\n"])
    seen = b""
    with path.open("rb") as source:
        chunks = follow_chunks(source, interval=0.02)
        for chunk in chunks:
            seen += chunk
            if seen.endswith(b"third\n"):
                break
    writer.join()
    assert seen == b"first\nsecond\nthird\n"


def test_following_a_truncated_file_starts_again(tmp_path: Path) -> None:
    path = tmp_path / "live.log"
    path.write_bytes(b"old contents\n")
    with path.open("rb") as source:
        chunks = follow_chunks(source, interval=0.01, sleep=lambda _: path.write_bytes(b"new\n"))
        assert next(chunks) == b"old contents\n"
        assert next(chunks) == b"new\n"


def test_follow_renders_a_growing_log_live_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    path.write_bytes(b"")
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    process = subprocess.Popen(
        [str(SCRIPT), "render", str(path), "--follow"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    output: list[bytes] = []
    reader = threading.Thread(target=lambda: output.extend(iter(process.stdout.readline, b"")))  # type: ignore[union-attr]
    reader.start()
    try:
        # The log arrives in pieces, cut mid-line, while linewise waits for it.
        whole = b"".join(lines[:-1])
        pieces = [whole[:100], whole[100:1500], whole[1500:], lines[-1][:40]]
        _append_slowly(path, pieces).join()
        deadline = time.monotonic() + 20
        while b"Both tests pass." not in b"".join(output) and time.monotonic() < deadline:
            time.sleep(0.05)
        shown = b"".join(output).decode()
        assert "init        model claude-sonnet-4-6" in shown  # detected once a line was there
        assert "assistant   Fixed: `add` no longer takes the absolute value" in shown
        # The unfinished result line is in the file now; give the follower a few
        # polls to read it, and check that it waits for its end.
        time.sleep(4 * FOLLOW_INTERVAL)
        assert "\nresult " not in b"".join(output).decode()
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
        reader.join()
    assert process.returncode == 0
    errors = err.decode()
    assert "claude_local: 17 lines, 17 entries, 0 fallbacks, 0 dropped" in errors
    assert "an unfinished last line (40 bytes) is not shown" in errors
    assert "Traceback" not in errors


def test_following_a_pipe_reads_it_to_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    threading.Thread(target=lambda: fifo.write_bytes(SAMPLE.read_bytes()), daemon=True).start()
    assert main(["render", str(fifo), "--follow", "-s", "compact", "-q"]) == 0
    assert capsys.readouterr().out.endswith(
        "--- Result ---\nFixed: `add` no longer takes the absolute value of `a`. Both tests pass.\n"
        "[run completed · claude-sonnet-4-6 · whole run: uncached input 21 · cache read 60,210 · "
        "cache write 6,940 · output 512 · cost $0.0432]\n"
    )


def test_ctrl_c_during_a_render_reports_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(source: Any) -> Iterator[bytes]:
        yield source.read(2000)
        raise KeyboardInterrupt

    monkeypatch.setattr("linewise.cli.commands.rendering.read_chunks", interrupted)
    assert main(["render", str(SAMPLE), "-a", "claude_local"]) == 130
    captured = capsys.readouterr()
    assert captured.out.startswith("system      hook SessionStart")
    assert "linewise: claude_local: " in captured.err


# -- the progress bar --------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_bar_waits_for_its_delay_then_redraws_in_place() -> None:
    clock, err = Clock(), Terminal()
    bar = ProgressBar(err, 1000, delay=1.0, interval=0.1, clock=clock, width=60)
    bar.update(100)
    clock.now += 0.5
    bar.update(300)
    assert err.getvalue() == ""  # a quick render leaves no trace
    clock.now += 0.6
    bar.update(500)
    clock.now += 0.05
    bar.update(600)  # too soon to redraw
    clock.now += 0.1
    bar.update(1000)
    drawn = err.getvalue()
    assert drawn.count("\r") == 2 and "\n" not in drawn
    assert " 50%  500 B / 1.0 KB" in drawn and "100%  1.0 KB / 1.0 KB" in drawn
    assert "60%" not in drawn
    assert max(len(part) for part in drawn.split("\r")) <= 60
    bar.close()
    assert err.screen() == [""]  # erased
    bar.update(1000)
    assert err.screen() == [""]  # and never drawn again


def test_a_bar_is_wanted_on_a_terminal_only() -> None:
    assert ProgressBar.wanted(Terminal())
    assert not ProgressBar.wanted(io.StringIO())


def _big_log(path: Path, megabytes: float) -> Path:
    events = SAMPLE.read_bytes()
    with path.open("wb") as log:
        for _ in range(int(megabytes * 1e6 / len(events)) + 1):
            log.write(events)
    return path


@pytest.fixture
def no_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("linewise.render.progress.DELAY", 0.0)


@pytest.mark.usefixtures("no_delay")
def test_a_long_render_shows_a_bar_on_the_terminal_not_in_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _big_log(tmp_path / "big.jsonl", 0.5)
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["render", str(log), "-a", "claude_local"]) == 0
    out = capsys.readouterr().out
    assert "linewise [" in err.getvalue() and "%  " in err.getvalue()
    assert "linewise [" not in out and "\r" not in out
    lines = log.read_bytes().splitlines()
    count = len(lines)
    # Each result line also gives its run_terminal (contract 1.3).
    entries = count + sum(line.startswith(b'{"type":"result"') for line in lines)
    summary = f"linewise: claude_local: {count} lines, {entries} entries, 0 fallbacks, 0 dropped"
    assert err.screen() == [summary, ""]  # the bar was erased before the summary


@pytest.mark.usefixtures("no_delay")
def test_on_a_shared_terminal_the_bar_never_lands_inside_the_transcript(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _big_log(tmp_path / "big.jsonl", 0.5)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(["render", str(log), "-a", "claude_local", "--color", "never"]) == 0
    screen = terminal.screen()
    assert "linewise [" in terminal.getvalue()
    assert not [row for row in screen if "linewise [" in row]  # every bar was erased
    assert (
        screen.count(
            "init        model claude-sonnet-4-6 · session 5b0e2f7c-1a2b-4c3d-8e9f-0a1b2c3d4e5f"
        )
        > 10
    )


@pytest.mark.usefixtures("no_delay")
@pytest.mark.parametrize("how", ["stdin", "named-pipe", "quiet", "stderr-not-a-terminal", "follow"])
def test_no_bar_for_stdin_pipes_quiet_non_terminals_or_follow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    log = _big_log(tmp_path / "big.jsonl", 0.2)
    err: io.StringIO = Terminal()
    args = ["render", str(log), "-a", "claude_local", "-o", os.devnull]
    if how == "stdin":
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(log.read_bytes())))
        args[1] = "-"
    elif how == "named-pipe":  # as `linewise render <(claude ...)` gives
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        threading.Thread(target=lambda: fifo.write_bytes(log.read_bytes()), daemon=True).start()
        args[1] = str(fifo)
    elif how == "quiet":
        args.append("-q")
    elif how == "stderr-not-a-terminal":
        err = io.StringIO()
    else:

        def stop_at_the_end(source: Any, **_: Any) -> Iterator[bytes]:
            while chunk := source.read(65536):
                yield chunk
            raise KeyboardInterrupt

        monkeypatch.setattr("linewise.cli.commands.rendering.follow_chunks", stop_at_the_end)
        args.append("--follow")
    monkeypatch.setattr(sys, "stderr", err)
    assert main(args) == 0
    assert "linewise [" not in err.getvalue()


def test_a_quick_render_shows_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["render", str(SAMPLE), "-o", os.devnull]) == 0
    assert "linewise [" not in err.getvalue()


# -- constant memory ---------------------------------------------------------------------

_PEAK = """
import resource, sys
from linewise.cli import main
for style in ("default", "compact"):
    main(["render", sys.argv[1], "-a", "claude_local", "-s", style, "-q", "-o", sys.argv[2]])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _peak_kb(log: Path, tmp_path: Path) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, str(log), str(tmp_path / "out.txt")],
        capture_output=True,
        check=True,
        timeout=300,
    )
    return int(done.stdout.split()[-1])


def _generated_claude_log(path: Path, size: int) -> Path:
    """A long Claude run: thinking, text, parallel calls, big results, calls never answered."""
    with path.open("w", encoding="utf-8") as log:
        log.write(
            json.dumps({"type": "system", "subtype": "init", "session_id": "s", "model": "m"})
        )
        log.write("\n")
        turn = 0
        while log.tell() < size:
            turn += 1
            for event in (
                {
                    "type": "assistant",
                    "message": {
                        "id": f"m{turn}",
                        "content": [{"type": "thinking", "thinking": "hm " * 300}],
                    },
                },
                {
                    "type": "assistant",
                    "message": {
                        "id": f"m{turn}",
                        "content": [{"type": "text", "text": f"step {turn} " * 40}],
                    },
                },
                {
                    "type": "assistant",
                    "message": {
                        "id": f"m{turn}",
                        "content": [
                            {
                                "type": "tool_use",
                                "id": f"a{turn}",
                                "name": "Read",
                                "input": {"file_path": f"/s/{turn}.py"},
                            }
                        ],
                    },
                },
                {
                    "type": "assistant",
                    "message": {
                        "id": f"m{turn}",
                        "content": [
                            {
                                "type": "tool_use",
                                "id": f"b{turn}",
                                "name": "Bash",
                                "input": {"command": f"pytest -k {turn}"},
                            }
                        ],
                    },
                },
                {
                    "type": "user",
                    "message": {
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": f"b{turn}",
                                "content": "passed\n" * 400,
                            }
                        ]
                    },
                },
                {
                    "type": "user",
                    "message": {
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": f"a{turn}",
                                "content": "x = 1\n" * 300,
                            }
                        ]
                    },
                    "tool_use_result": {"file": {"numLines": 300}},
                },
                {
                    "type": "assistant",
                    "message": {
                        "id": f"n{turn}",
                        "content": [
                            {
                                "type": "tool_use",
                                "id": f"c{turn}",
                                "name": "Grep",
                                "input": {"pattern": "never answered"},
                            }
                        ],
                    },
                },
            ):
                log.write(json.dumps(event) + "\n")
    return path


def test_a_50_mb_log_renders_in_constant_memory(tmp_path: Path) -> None:
    small = _generated_claude_log(tmp_path / "small.jsonl", 1_000_000)
    big = _generated_claude_log(tmp_path / "big.jsonl", 50_000_000)
    # Peak resident memory of whole processes: nothing kept per entry can hide from it.
    # Keeping the entries (or the text) of a 50 MB log would add well over 50 MB.
    growth_kb = _peak_kb(big, tmp_path) - _peak_kb(small, tmp_path)
    assert growth_kb < 16_000, f"rendering 49 MB more log took {growth_kb} KB more memory"


def test_censor_usernames_masks_home_paths_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text(
        '{"type":"user","message":{"content":"open /Users/dotta/project/a.py"}}\n'
        '{"type":"assistant","message":{"id":"msg_1","content":[{"type":"tool_use","id":"t1",'
        '"name":"Read","input":{"file_path":"/home/dotta/a.py"}}]},"parent_tool_use_id":null}\n',
        encoding="utf-8",
    )
    for fmt in ("text", "jsonl"):
        assert (
            main(["render", str(log), "-a", "claude_local", "-f", fmt, "-q", "--censor-usernames"])
            == 0
        )
        out = capsys.readouterr().out
        assert "dotta" not in out
        assert "/Users/d****/project" in out and "/home/d****/a.py" in out
    assert main(["render", str(log), "-a", "claude_local", "-f", "jsonl", "-q"]) == 0
    assert "/Users/dotta/project" in capsys.readouterr().out
