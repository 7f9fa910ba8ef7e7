"""One stream pipeline in the host: sessions, detection and line cutting each made in one place.

Every way into the host (render, run, summarize, build_transcript, ...) gets its
session from ``stream.pipeline.new_session``, its detection from
``stream.detect.Sniffer`` and its lines from ``stream.lines.LineReader``; a second
copy of any of them is how the entry points came to disagree before.
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
    assert _made("TranscriptSession") == {"stream/pipeline.py": 2}  # a fixed parser, or "auto"
    assert "stream/pipeline.py" in _made("new_session")


def test_detection_has_one_policy_fed_in_two_places() -> None:
    # Sessions (through the hold) and detect_adapter (a list of lines) feed the one Sniffer.
    assert _made("Sniffer") == {"stream/pipeline.py": 1, "stream/detect.py": 1}


def test_the_line_reader_is_the_one_that_cuts_stdout_and_stderr() -> None:
    made = _made("LineReader")
    assert set(made) <= {"stream/lines.py", "stream/session.py", "run/agent.py"}, made
    assert made["stream/session.py"] == 2  # stdout lines, stderr text
    # No host module cuts an agent's output into lines by hand; these split text of
    # the host's own making: a render worker's captured messages, an engine's error
    # message (its first line), npm's stderr (its last line); and an installed
    # distribution's entry_points.txt, split as importlib.metadata splits it.
    assert set(_made("splitlines")) <= {
        "plugins/dist_info.py",
        "cli/render_pool.py",
        "plugins/javascript/_engine.py",
        "plugins/javascript/_package.py",
    }


_JSON_MODULES = frozenset({"json", "orjson"})
_DECODERS = frozenset({"loads", "load"})
# Contract helpers and stdlib pieces that read a JSON log line by another name.
_LINE_READERS = frozenset({"parse_json_object", "raw_decode", "JSONDecoder"})


def _json_decoding() -> Counter[str]:
    """Where the host decodes JSON itself: module path -> number of calls.

    ``json.loads(...)``, ``orjson.load(...)``, an alias of either module or of
    ``loads`` imported from it, and the helpers that parse a log line.
    """
    found: Counter[str] = Counter()
    for path in sorted(HOST.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        modules, functions = set(_JSON_MODULES), set(_LINE_READERS)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules.update(a.asname or a.name for a in node.names if a.name in _JSON_MODULES)
            elif isinstance(node, ast.ImportFrom) and node.module in _JSON_MODULES:
                functions.update(a.asname or a.name for a in node.names if a.name in _DECODERS)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            by_module = (
                isinstance(func, ast.Attribute)
                and func.attr in _DECODERS | _LINE_READERS
                and isinstance(func.value, ast.Name)
                and func.value.id in modules
            )
            by_name = isinstance(func, ast.Name) and func.id in functions
            by_method = isinstance(func, ast.Attribute) and func.attr in _LINE_READERS
            if by_module or by_name or by_method:
                found[str(path.relative_to(HOST))] += 1
    return found


def test_no_host_module_reads_a_clis_wire_format() -> None:
    """Only plugins parse what a CLI wrote; the host decodes JSON of its own formats only.

    Each use allowed here reads something the host or a JavaScript package owns,
    never a line of an agent's output (the export, say, takes a run's project,
    times and duration from entries and the run summary, not from the lines).
    """
    assert _json_decoding() == {
        # The entry-point scan cache: a file the host writes and owns.
        "plugins/scan_cache.py": 1,
        # The build records linewise's build hook writes into wheels (_compiled.json),
        # and pip's direct_url.json of an editable install.
        "plugins/hot_path.py": 2,
        # The price rates cache: a file the host writes and owns.
        "transcript/prices.py": 1,
        # The sessions facts cache's usage column and the keys of a store file
        # holding several sessions: JSON the host wrote itself.
        "sessions/_cache.py": 2,
        # The stores each plugin declared, remembered in the facts cache: JSON the host
        # wrote itself (the store list and the names of the variables read).
        "sessions/_declared.py": 2,
        # A log that is one pretty-printed JSON document: checked whole and written
        # again on one line, for its plugin to read (the host reads none of its fields).
        "cli/json_document.py": 2,
        # The export folder's stamp and journal: files the host writes itself.
        "export/_folder.py": 2,
        # The isolation wire: messages between the host and its own worker process
        # (orjson, then json for what orjson refuses, such as a lone surrogate).
        "plugins/isolation/_wire.py": 2,
        # The worker's start-up settings, which the host passes on its command line.
        "plugins/isolation/_worker.py": 1,
        # The JSON text the QuickJS bridge hands back: a JavaScript parser's
        # entries (already parsed by the plugin), in the host's bridge format.
        "plugins/javascript/_engine.py": 3,
        # A JavaScript package's package.json manifest.
        "plugins/javascript/_package.py": 1,
        # A string literal in a JavaScript module's source, decoded for its value.
        "plugins/javascript/_module.py": 1,
        # The registration file the host writes when a JavaScript parser is added.
        "plugins/javascript/_store.py": 1,
    }
