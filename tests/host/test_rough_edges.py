"""What a new user and the held-out checks hit (issue 31 items 6, 9, 10; issue 33 item 16)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from host.export.test_export import claude_log
from linewise import Registry
from linewise.cli import main
from linewise.cli.commands.rendering import follow_chunks
from linewise.cli.commands.scaffold import scaffold
from support import FakeSite, corpus_path

LINEWISE = [sys.executable, "-c", "import sys; from linewise.cli import main; sys.exit(main())"]


def _cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# -- item 9: sums past a float -----------------------------------------------------------


def test_summarize_json_of_costs_whose_sum_overflows_says_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.jsonl").write_text(claude_log(f"s-{name}", cost=1.5e308))
    code, out, err = _cli("summarize", "--json", str(tmp_path), capsys=capsys)
    assert code == 0, err
    totals = json.loads(out)["totals"]
    assert totals["costUsd"] is None and totals["costOverflowed"] is True
    assert [run["summary"]["costUsd"] for run in json.loads(out)["runs"]] == [1.5e308] * 2
    code, out, _ = _cli("summarize", str(tmp_path), capsys=capsys)
    assert code == 0
    (total,) = [line for line in out.splitlines() if line.startswith("TOTAL")]
    assert "overflowed" in total


# -- item 10: a new user's trial ---------------------------------------------------------

CURSOR_LOGS = ["cursor-hack-direct-sleep.jsonl", "cursor-hack-parallel-sleep.jsonl"]


@pytest.mark.parametrize("name", CURSOR_LOGS)
def test_the_new_plugin_template_does_not_claim_cursor_logs(tmp_path: Path, name: str) -> None:
    log = corpus_path("real-logs", "cursor", name)
    scaffold("acme", tmp_path)
    module = tmp_path / "linewise-acme" / "src"
    sys.path.insert(0, str(module))
    try:
        from linewise_acme import sniff  # type: ignore[import-not-found]

        lines = [line for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
        assert sniff(lines[:40]) == 0.0
    finally:
        sys.path.remove(str(module))
        sys.modules.pop("linewise_acme", None)


def test_a_clear_winner_is_detected_though_another_parser_is_confident_too() -> None:
    from linewise.stream.detect import _judge

    chosen, _ = _judge({"cursor_local": 0.95, "acme_local": 0.82}, "the first 40 lines")
    assert chosen is not None and chosen.adapter_type == "cursor_local"
    chosen, why = _judge({"cursor_local": 0.95, "acme_local": 0.90}, "the first 40 lines")
    assert chosen is None and why.reason.startswith("ambiguous")


def test_render_reads_a_piped_log_when_no_path_is_given(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text(claude_log("s-piped"), encoding="utf-8")
    with log.open("rb") as stdin:
        done = subprocess.run(
            [*LINEWISE, "render", "-f", "jsonl", "-q"],
            stdin=stdin,
            capture_output=True,
            text=True,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["sessionId"] == "s-piped"


def test_a_mistyped_cli_gets_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli("sessions", "--cli", "cladue", capsys=capsys)
    assert code == 2 and "did you mean 'claude'?" in err
    code, _, err = _cli("sessions", "--cli", "foo", capsys=capsys)
    assert code == 2 and "unknown CLI 'foo'" in err


def test_a_named_adapter_that_drops_a_third_of_the_lines_warns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = corpus_path("real-logs", "claude", "claude-clean-log-48.jsonl")
    code, _, err = _cli("render", str(log), "-a", "gemini_local", "-f", "jsonl", capsys=capsys)
    assert code == 0
    assert "the gemini_local parser read only 28 of 48 lines" in err
    assert "auto-detection picks claude_local" in err


TWIN = """
def parse_stdout_line(line, ts):
    return [{"kind": "stdout", "ts": ts, "text": line}]

def sniff(lines):
    return 0.9
"""


def test_summarize_of_an_ambiguous_log_says_ambiguous_not_unrecognised(
    fake_site: FakeSite,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import linewise.plugins.registry

    for name in ("one", "two"):
        fake_site.add(
            f"{name}-parser", entry_points={name: f"{name}_mod"}, modules={f"{name}_mod": TWIN}
        )
    monkeypatch.setattr(
        linewise.plugins.registry, "_default", Registry(entry_points=fake_site.entry_points())
    )
    log = tmp_path / "a.log"
    log.write_text("line\n", encoding="utf-8")
    code, _, err = _cli("summarize", str(log), capsys=capsys)
    assert code == 0
    assert "ambiguous: several parsers recognise" in err
    assert "no installed parser recognises it" not in err


# -- item 6: --follow and a rewritten file ------------------------------------------------


def test_following_a_file_rewritten_longer_within_one_poll_loses_no_line(tmp_path: Path) -> None:
    path = tmp_path / "live.log"
    path.write_bytes(b"".join(b"old %d\n" % n for n in range(100)))
    new = b"".join(b"new %d\n" % n for n in range(300))
    rewrites = [new]

    def rewrite(_: float) -> None:
        if rewrites:
            path.write_bytes(rewrites.pop())  # truncated and longer again before the next look

    seen = b""
    with path.open("rb") as source:
        for chunk in follow_chunks(source, interval=0.01, sleep=rewrite):
            seen += chunk
            if seen.endswith(b"new 299\n"):
                break
    assert seen.split(b"old 99\n", 1)[1] == new


def test_following_a_file_replaced_at_its_path_reads_the_new_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "live.log"
    path.write_bytes(b"first file\n")
    replacement = tmp_path / "next.log"
    replacement.write_bytes(b"second file\nits second line\n")
    moves = [replacement]

    def replace(_: float) -> None:
        if moves:
            os.replace(moves.pop(), path)

    seen = b""
    with path.open("rb") as source:
        for chunk in follow_chunks(source, interval=0.01, sleep=replace, path=str(path)):
            seen += chunk
            if seen.endswith(b"its second line\n"):
                break
    assert seen == b"first file\nsecond file\nits second line\n"
    assert "was replaced" in caplog.text


def test_an_unfinished_line_of_a_rewritten_file_is_ended_not_lost(tmp_path: Path) -> None:
    path = tmp_path / "live.log"
    path.write_bytes(b"whole\nhalf a li")
    rewrites = [b"fresh\n"]

    def rewrite(_: float) -> None:
        if rewrites:
            path.write_bytes(rewrites.pop())

    seen = b""
    with path.open("rb") as source:
        for chunk in follow_chunks(source, interval=0.01, sleep=rewrite):
            seen += chunk
            if seen.endswith(b"fresh\n"):
                break
    assert seen == b"whole\nhalf a li\nfresh\n"


# -- issue 33 item 16 --------------------------------------------------------------------


def test_run_refuses_one_file_for_two_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    same = str(tmp_path / "x")
    code, _, err = _cli("run", "--save-log", same, "-o", same, "--", "true", capsys=capsys)
    assert code == 2 and "-o and --save-log name the same file" in err
    assert not Path(same).exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_summarize_of_a_folder_skips_a_fifo_instead_of_blocking(tmp_path: Path) -> None:
    (tmp_path / "run.jsonl").write_text(claude_log("s-1"), encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.jsonl")
    done = subprocess.run(
        [*LINEWISE, "summarize", "--json", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "pipe.jsonl: not a regular file; skipped" in done.stderr
    assert len(json.loads(done.stdout)["runs"]) == 1


def test_new_with_a_label_that_is_not_utf8_writes_nothing(tmp_path: Path) -> None:
    done = subprocess.run(
        [*LINEWISE, "new", "acme", "--dir", str(tmp_path), "--label", "Acme \udcff"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "not valid UTF-8" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_new_that_fails_part_way_leaves_no_half_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Path.write_text
    written = []

    def full_disk(self: Path, *args: object, **kwargs: object) -> int:
        if written:
            raise OSError(28, "No space left on device")
        written.append(self)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "write_text", full_disk)
    with pytest.raises(OSError, match="No space left"):
        scaffold("half", tmp_path)
    assert list(tmp_path.iterdir()) == []


# -- issue 31 item 3: what killed workers left --------------------------------------------


def test_render_of_several_logs_removes_the_folders_of_killed_renders(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    temporary = tmp_path / "tmp"
    stale = temporary / f"linewise-render-{int(dead.stdout)}-abc123"
    stale.mkdir(parents=True)
    (stale / "0.out").write_text("half a transcript", encoding="utf-8")
    alive = temporary / f"linewise-render-{os.getpid()}-def456"  # a render still running
    alive.mkdir()
    logs = []
    for name in ("a", "b"):
        log = tmp_path / f"{name}.jsonl"
        log.write_text(claude_log(f"s-{name}"), encoding="utf-8")
        logs.append(str(log))
    done = subprocess.run(
        [*LINEWISE, "render", *logs, "-j", "2", "-f", "jsonl", "-q"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TMPDIR": str(temporary)},
    )
    assert done.returncode == 0, done.stderr
    assert not stale.exists() and alive.exists()
    assert [p.name for p in temporary.iterdir()] == [alive.name]  # its own folder is gone too


def test_a_worker_whose_parent_is_already_gone_exits_at_once() -> None:
    # tie_to_parent is given the pid the worker's parent had; here, one it never had.
    done = subprocess.run(
        [sys.executable, "-c",
         "import time\nfrom linewise.settings.workers import tie_to_parent\n"
         "tie_to_parent(1 if __import__('os').getppid() != 1 else 2)\ntime.sleep(30)"],
        capture_output=True,
        timeout=20,
        check=False,
    )  # fmt: skip
    assert done.returncode == 1
