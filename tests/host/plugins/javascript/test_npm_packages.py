"""Real npm ui-parser packages, fetched at test time: linewise gives the entries Node gives.

The package is downloaded with ``npm pack`` into a temporary folder (never
kept in the repository); the test skips when npm or node is missing or the
registry cannot be reached. Each parser runs over real agent output lines
from ../shared/corpus, once in Node and once in linewise's engine, a fresh
parser per transcript in both.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from linewise.cli import main
from linewise.plugins.javascript._engine import JavaScriptError
from linewise.plugins.registry import Registry
from support import corpus_path

PACKAGE = "@paperclipai/hermes-paperclip-adapter"
RUNNER = Path(__file__).parent / "node_runner.mjs"
TS = "2026-01-01T00:00:00.000Z"
# Lines of many formats: each parser sees its own agent's output and everyone else's.
CORPUS_FOLDERS = (
    ("real-logs", "hermes"),
    ("paperclip", "hermes"),
    ("real-logs", "qwen"),
    ("real-logs", "gemini"),
    ("real-logs", "acp"),
    ("real-logs", "cursor"),
    ("real-logs", "claude"),
    ("real-logs", "codex"),
    ("real-logs", "opencode"),
)
MAX_LINES_PER_FILE = 400


@pytest.fixture(scope="module")
def tarball(tmp_path_factory: pytest.TempPathFactory) -> Path:
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        pytest.skip("npm and node are needed to fetch and run the real package")
    folder = tmp_path_factory.mktemp("npm")
    try:
        done = subprocess.run(
            [npm, "pack", PACKAGE, "--ignore-scripts", "--pack-destination", str(folder)],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.skip(f"npm pack {PACKAGE} timed out (offline?)")
    tarballs = list(folder.glob("*.tgz"))
    if done.returncode != 0 or not tarballs:
        pytest.skip(f"npm pack {PACKAGE} failed (offline?): {done.stderr.strip()[-200:]}")
    return tarballs[0]


def _transcripts() -> list[list[str]]:
    transcripts = []
    for parts in CORPUS_FOLDERS:
        folder = corpus_path(*parts)
        for file in sorted(folder.iterdir()):
            if file.suffix not in (".txt", ".jsonl", ".log", ".ndjson"):
                continue
            text = file.read_text(encoding="utf-8", errors="replace")
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            transcripts.append(lines[:MAX_LINES_PER_FILE])
    return transcripts


def _in_node(module: Path, transcripts: list[list[str]]) -> list[list[Any]]:
    done = subprocess.run(
        ["node", str(RUNNER), str(module)],
        input=json.dumps(transcripts),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)


def _in_linewise(
    registry: Registry, adapter_type: str, transcripts: list[list[str]]
) -> list[list[Any]]:
    loaded = registry.load(adapter_type)
    assert not loaded.is_fallback, loaded.fallback_reason
    results = []
    for lines in transcripts:
        parser = loaded.new_parser()
        out: list[Any] = []
        for line in lines:
            try:
                out.append(parser.parse_line(line, TS))
            except JavaScriptError as error:
                out.append({"error": str(error)})
        results.append(out)
    return results


@pytest.mark.parametrize(
    "case",
    [("./ui-parser", "ui-parser.cjs"), ("./gateway/ui-parser", "gateway-ui-parser.cjs")],
)
def test_entries_match_node(
    tarball: Path, registry: Registry, data_dir: Path, case: tuple[str, str]
) -> None:
    export, module_path = case
    assert main(["js", "add", str(tarball), "--as", "npm_parser", "--export", export]) == 0
    copy = data_dir / "javascript" / "npm_parser" / "package" / module_path
    transcripts = _transcripts()
    expected = _in_node(copy, transcripts)
    actual = _in_linewise(registry, "npm_parser", transcripts)
    compared = 0
    for lines, node_out, ours in zip(transcripts, expected, actual, strict=True):
        for line, node_entries, our_entries in zip(lines, node_out, ours, strict=True):
            assert isinstance(node_entries, list), (line, node_entries)
            assert our_entries == node_entries, line
            compared += 1
    print(f"{export}: {compared} lines compared")
    assert compared > 100


def test_add_from_an_npm_spec_fetches_with_npm(
    tarball: Path, registry: Registry, data_dir: Path
) -> None:
    assert main(["js", "add", PACKAGE, "--as", "hermes_npm"]) == 0
    info = registry.info("hermes_npm")
    assert (info.kind, info.source, info.distribution) == ("javascript", PACKAGE, PACKAGE)
    parser = registry.load("hermes_npm").new_parser()
    assert parser.parse_line("plain words", TS) == [
        {"kind": "assistant", "ts": TS, "text": "plain words"}
    ]
