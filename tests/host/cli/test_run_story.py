"""One story per run: render (every format and style, file or pipe) and run end with the
outcome, tokens and cost the plugin's ``summarize_run`` gives, as ``summarize`` does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from linewise.cli import main
from linewise.cli.story import KeptChunks
from support import REPO

LINEWISE = Path(sys.executable).with_name("linewise")
FAKES = REPO / "tests" / "fakes"
SESSION = "0c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e4f5"


def _line(**fields: object) -> str:
    return json.dumps({**fields, "session_id": SESSION})


#: A Claude run that hit its turn limit: the result line says error_max_turns.
MAX_TURNS = (
    "\n".join(
        [
            _line(type="system", subtype="init", model="claude-sonnet-4-6", cwd="/tmp/demo"),
            _line(
                type="assistant",
                message={
                    "id": "m1",
                    "role": "assistant",
                    "model": "claude-sonnet-4-6",
                    "content": [{"type": "text", "text": "Working on it."}],
                    "usage": {"input_tokens": 120, "output_tokens": 30},
                },
            ),
            _line(
                type="result",
                subtype="error_max_turns",
                is_error=True,
                num_turns=3,
                total_cost_usd=0.0125,
                usage={"input_tokens": 120, "output_tokens": 30, "cache_read_input_tokens": 0},
            ),
        ]
    )
    + "\n"
)


@pytest.fixture
def max_turns_log(tmp_path: Path) -> Path:
    path = tmp_path / "max-turns.jsonl"
    path.write_text(MAX_TURNS, encoding="utf-8")
    return path


def _render(*args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [str(LINEWISE), "render", "-q", *args],
        input=(stdin or "").encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def test_text_ends_with_the_run_outcome_from_a_file_and_from_a_pipe(max_turns_log: Path) -> None:
    for shown in (_render(str(max_turns_log)), _render("-", stdin=MAX_TURNS)):
        assert "run         max_turns" in shown
        assert "whole run: uncached input 120" in shown and "output 30" in shown


def test_compact_tells_the_same_outcome(max_turns_log: Path) -> None:
    shown = _render(str(max_turns_log), "-s", "compact")
    assert "[run max_turns" in shown


def test_html_header_tells_the_same_outcome(max_turns_log: Path) -> None:
    pytest.importorskip("linewise.render.html")
    page = _render(str(max_turns_log), "-f", "html")
    assert "error_max_turns" in page


def test_summarize_tells_the_same_outcome(
    max_turns_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["summarize", str(max_turns_log)]) in (0, 1)
    assert "max_turns" in capsys.readouterr().out.split("\n")[1]


def test_jsonl_stays_the_entries_only(max_turns_log: Path) -> None:
    lines = _render(str(max_turns_log), "-f", "jsonl").splitlines()
    # The CLI's result, then its terminal state (contract 1.3): entries, no summary line.
    assert [json.loads(line)["kind"] for line in lines][-2:] == ["result", "run_terminal"]


def test_a_log_without_a_plugin_summary_gets_no_invented_outcome(tmp_path: Path) -> None:
    path = tmp_path / "plain.log"
    path.write_text("hello\nworld\n", encoding="utf-8")
    shown = _render(str(path), "-a", "process")
    assert "run " not in shown and "completed" not in shown


def test_run_ends_with_the_same_outcome(max_turns_log: Path) -> None:
    done = subprocess.run(
        [
            str(LINEWISE),
            "run",
            "-q",
            "--",
            sys.executable,
            str(FAKES / "replay.py"),
            str(max_turns_log),
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert "run         max_turns" in done.stdout.decode(), done.stderr


def test_a_pipe_is_kept_only_up_to_its_limit() -> None:
    kept = KeptChunks([b"a" * 10, b"b" * 10], limit=15)
    assert b"".join(kept) == b"a" * 10 + b"b" * 10  # everything passes on
    assert kept.data is None  # but too much to keep
    small = KeptChunks([b"a\n", b"b\n"], limit=15)
    list(small)
    assert small.data is not None and small.data.read() == b"a\nb\n"


@pytest.mark.parametrize("censor", [False, True])
def test_jsonl_does_not_read_the_log_again_for_a_summary_it_never_draws(
    max_turns_log: Path, monkeypatch: pytest.MonkeyPatch, censor: bool
) -> None:
    from linewise.cli.commands import rendering

    summarised: list[str] = []

    def spy(*args: object, **options: object) -> None:
        summarised.append(str(args[1]))

    monkeypatch.setattr(rendering, "run_summary", spy)
    extra = ["--censor-usernames"] if censor else []
    assert main(["render", "-q", str(max_turns_log), "-f", "jsonl", *extra]) == 0
    assert summarised == []
    assert main(["render", "-q", str(max_turns_log), *extra]) == 0
    assert summarised == ["claude_local"]
