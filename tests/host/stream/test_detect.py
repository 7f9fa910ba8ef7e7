"""Auto-detection: each plugin's sniff scores the first lines; sure answers win, doubt falls back."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from linewise import Registry, build_transcript, detect_adapter
from linewise.hookspecs import hookimpl
from support import REPO, FakeSite

SNIFFING = """
def parse_stdout_line(line, ts):
    return [{{"kind": "system", "ts": ts, "text": "{name}:" + line}}]

def sniff(lines):
    mine = sum(1 for line in lines if line.startswith("{prefix}"))
    return mine / len(lines)
"""


def _site(site: FakeSite) -> Registry:
    site.add(
        "alpha-parser",
        entry_points={"alpha": "alpha_mod"},
        modules={"alpha_mod": SNIFFING.format(name="alpha", prefix="A")},
    )
    site.add(
        "beta-parser",
        entry_points={"beta": "beta_mod"},
        modules={"beta_mod": SNIFFING.format(name="beta", prefix="AB")},
    )
    site.add(
        "broken-sniffer",
        entry_points={"gamma": "gamma_mod"},
        modules={
            "gamma_mod": "def parse_stdout_line(line, ts):\n    return []\ndef sniff(lines):\n    raise RuntimeError('sniffer bug')\n"
        },
    )
    site.add(
        "silly-sniffer",
        entry_points={"delta": "delta_mod"},
        modules={
            "delta_mod": "def parse_stdout_line(line, ts):\n    return []\ndef sniff(lines):\n    return 'very sure'\n"
        },
    )
    site.add(
        "plain-parser",
        entry_points={"plain": "plain_mod"},
        modules={"plain_mod": "def parse_stdout_line(line, ts):\n    return []\n"},
    )
    return Registry(entry_points=site.entry_points())


def test_the_sure_and_clear_winner_is_chosen_with_a_reason(
    fake_site: FakeSite, caplog: pytest.LogCaptureFixture
) -> None:
    registry = _site(fake_site)
    with caplog.at_level(logging.WARNING, logger="linewise"):
        detection = detect_adapter(["A1", "A2", "A3", "A4", "x"], registry=registry)
    assert detection.detected
    assert detection.adapter_type == "alpha"
    assert detection.scores == {"alpha": 0.8, "beta": 0.0}
    assert detection.reason == "recognised the first 5 lines (score 0.80; next: beta 0.00)"
    assert "sniffer bug" in caplog.text  # a raising detector is logged and ignored


def test_close_scores_are_ambiguous_and_fall_back_to_generic(fake_site: FakeSite) -> None:
    detection = detect_adapter(["AB1", "AB2", "AB3"], registry=_site(fake_site))
    assert not detection.detected
    assert detection.adapter_type == "process"
    assert detection.reason.startswith("ambiguous: several parsers recognise the first 3 lines")
    assert "alpha 1.00" in detection.reason and "beta 1.00" in detection.reason


def test_unknown_input_falls_back_to_generic(fake_site: FakeSite) -> None:
    registry = _site(fake_site)
    detection = detect_adapter(["hello", "A"], registry=registry)
    assert detection.adapter_type == "process"
    assert detection.reason == "no parser recognised the first 2 lines (best: alpha 0.50)"
    assert detect_adapter([], registry=registry).reason == "the log has no lines to detect from"


def test_a_host_app_can_add_its_own_detector(fake_site: FakeSite) -> None:
    registry = _site(fake_site)

    class Mine:
        @hookimpl
        def linewise_sniff(self, lines: Sequence[str]) -> tuple[str, float] | None:
            return ("plain", 0.99) if lines[0] == "PLAIN" else None

    registry.hooks.register(Mine())
    assert detect_adapter(["PLAIN", "x"], registry=registry).adapter_type == "plain"


def test_disabled_plugins_do_not_take_part(fake_site: FakeSite) -> None:
    registry = _site(fake_site)
    registry.disable("alpha")
    assert detect_adapter(["A1", "A2"], registry=registry).adapter_type == "process"


def test_build_transcript_auto(fake_site: FakeSite) -> None:
    transcript = build_transcript(
        [{"ts": "t", "stream": "stdout", "chunk": "A1\nA2\n"}], "auto", registry=_site(fake_site)
    )
    assert transcript.adapter_type == "alpha"
    assert [e["text"] for e in transcript.entries] == ["alpha:A1", "alpha:A2"]  # type: ignore[typeddict-item]


def test_cli_detects_by_default_and_says_so() -> None:
    script = Path(sys.executable).with_name("linewise")
    done = subprocess.run(
        [str(script), "render", str(REPO / "examples" / "claude-sample.jsonl"), "-f", "jsonl"],
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert b'"kind":"init"' in done.stdout
    assert b"linewise: detected claude_local: recognised the first 18 lines" in done.stderr
    done = subprocess.run(
        [str(script), "render", "-"],
        input=b"just text\n",
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert done.stdout == b"stdout      just text\n"
    assert b"could not detect the log's format, using the generic parser" in done.stderr


def test_a_log_that_opens_with_other_output_is_detected_further_in(fake_site: FakeSite) -> None:
    registry = _site(fake_site)
    lines = [f"wrapper says {n}" for n in range(100)] + [f"A{n}" for n in range(40)]
    detection = detect_adapter(lines, registry=registry)
    assert detection.adapter_type == "alpha"
    assert detection.reason.startswith("recognised lines 121-140")
    assert detect_adapter(lines[:100], registry=registry).reason == (
        "no parser recognised the first 40 lines"
    )


EXPECTED = {
    "claude": "claude_local",
    "codex": "codex_local",
    "cursor": "cursor",
    "gemini": "gemini_local",
    "opencode": "opencode_local",
    "hermes": "hermes_local",
    "acp": "acp",
}
# The ACP folder's Markdown report holds a Codex `proto` run as JSON lines (its ACP
# messages are pretty-printed over many lines): the Codex parser is the right one.
BY_FILE = {"acp/acplazybridge-T033-test-results-zed-acp-debug-excerpt.md": "codex_local"}


def test_every_real_log_is_detected_as_its_cli() -> None:
    from linewise.stream.detect import first_lines
    from support import corpus_path

    wrong = []
    for folder, expected in EXPECTED.items():
        for path in sorted(corpus_path("real-logs", folder).iterdir()):
            lines = first_lines(path.read_text(encoding="utf-8", errors="replace"))
            chosen = detect_adapter(lines).adapter_type
            if chosen != BY_FILE.get(f"{folder}/{path.name}", expected):
                wrong.append(f"{folder}/{path.name}: {chosen}")
    assert wrong == []
