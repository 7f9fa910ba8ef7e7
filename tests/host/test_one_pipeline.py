"""One stream pipeline in the host: sessions, detection and line cutting each made in one place.

Every way into the host (render, run, summarize, build_transcript, ...) gets its
session from ``_pipeline.new_session``, its detection from ``_detect.Sniffer``
and its lines from ``_lines.LineReader``; a second copy of any of them is how
the entry points came to disagree before.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import linewise

HOST = Path(linewise.__file__).resolve().parent


def _made(name: str) -> Counter[str]:
    """Where the host calls ``name(...)`` directly: module path -> number of calls."""
    found: Counter[str] = Counter()
    for path in sorted(HOST.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called == name:
                found[str(path.relative_to(HOST))] += 1
    return found


def test_sessions_are_made_only_by_new_session() -> None:
    assert _made("TranscriptSession") == {"_pipeline.py": 2}  # a fixed parser, or "auto"
    assert "_pipeline.py" in _made("new_session")


def test_detection_has_one_policy_fed_in_two_places() -> None:
    # Sessions (through the hold) and detect_adapter (a list of lines) feed the one Sniffer.
    assert _made("Sniffer") == {"_pipeline.py": 1, "_detect.py": 1}


def test_the_line_reader_is_the_one_that_cuts_stdout_and_stderr() -> None:
    made = _made("LineReader")
    assert set(made) <= {"_lines.py", "_session.py", "_run.py"}, made
    assert made["_session.py"] == 2  # stdout lines, stderr text
    # No host module cuts an agent's output into lines by hand; these split text of
    # the host's own making: a render worker's captured messages, an engine's error
    # message (its first line), npm's stderr (its last line).
    assert set(_made("splitlines")) <= {
        "cli/render_pool.py",
        "javascript/_engine.py",
        "javascript/_package.py",
    }
