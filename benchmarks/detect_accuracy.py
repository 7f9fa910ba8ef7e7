"""How often --adapter auto picks the right parser on the real files of ../shared/corpus.

Run with `python3 -m uv run python benchmarks/detect_accuracy.py`: one line per
file (expected, chosen, score, reason) and the accuracy per CLI and overall,
first for the captured stdout of real-logs/ (the stdout types must win there),
then for the on-disk sessions of real-sessions/ (the session types must win), then for
the sample lines of newer CLIs in field-samples/ (FIELD lists the folders read).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from linewise import detect_adapter
from linewise.stream.detect import first_lines

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
LOGS = {
    "claude": "claude_local",
    "codex": "codex_local",
    "cursor": "cursor",
    "gemini": "gemini_local",
    "opencode": "opencode_local",
    "hermes": "hermes_local",
    "acp": "acp",
    "qwen": "qwen_local",
}
SESSIONS = {
    "claude": "claude_session",
    "codex": "codex_session",
    "gemini": "gemini_session",
    "copilot": "copilot_session",
    "opencode": "opencode_session",
    "qwen": "qwen_session",
}
# Sample lines of newer CLIs (field-samples/<folder>/): their stdout types must win.
FIELD = {
    "antigravity": "agy_local",
    "droid": "droid_local",
    "kimi": "kimi_local",
    "goose": "goose_local",
    "cline": "cline_local",
    "amp": "amp_local",
    "mistral-vibe": "vibe_local",
    "openhands": "openhands_local",
    "acp": "acp",
    "codex-app-server": "codex_app_server",
    "cursor": "cursor_session",  # the folder holds agent transcripts only
    "rush": "rush_session",
}
# Field samples that are session files, not stdout.
FIELD_BY_FILE = {
    "field-samples/droid/agi-cli-session-droid-execute-create.jsonl": "droid_session",
    "field-samples/droid/agi-cli-session-render-droid.jsonl": "droid_session",
    "field-samples/kimi/agi-cli-kimi-code-tool-args.jsonl": "kimi_session",
    "field-samples/kimi/agi-cli-kimi-code-wire.jsonl": "kimi_session",
    "field-samples/kimi/kimi-code-vis-fixture-wire.jsonl": "kimi_session",
    "field-samples/amp/agentsview-amp-thread-fixture.json": "amp_session",
}
# The ACP folder's Markdown report holds a Codex `proto` run as JSON lines (its ACP
# messages are pretty-printed over many lines): the Codex parser is the right one.
BY_FILE = {"real-logs/acp/acplazybridge-T033-test-results-zed-acp-debug-excerpt.md": "codex_local"}
# Files beside the sessions that are not sessions: a subagent's meta, Qwen's project
# meta and usage log, notes. (OpenCode's SQLite store is read through its plugin, not sniffed.)
NOT_SESSIONS = ("*meta.json", "*usage_record.jsonl", "*.db", "*.db-*", "*.md")


def _files(folder: Path, skip: tuple[str, ...]) -> list[Path]:
    found = (path for path in folder.rglob("*") if path.is_file())
    return sorted(path for path in found if not any(path.match(pattern) for pattern in skip))


def _section(name: str, expected: dict[str, str], skip: tuple[str, ...] = ()) -> tuple[int, int]:
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    print(f"== {name}")
    for folder, wanted in expected.items():
        if not (CORPUS / name / folder).is_dir():
            continue
        for path in _files(CORPUS / name / folder, skip):
            relative = path.relative_to(CORPUS).as_posix()
            lines = first_lines(path.read_text(encoding="utf-8", errors="replace"))
            detection = detect_adapter(lines)
            ok = detection.adapter_type == BY_FILE.get(relative, wanted)
            right[folder] += ok
            total[folder] += 1
            mark = "ok  " if ok else "MISS"
            print(f"{mark} {relative}: {detection.adapter_type} ({detection.reason})")
    print()
    for folder in expected:
        if total[folder]:
            print(f"{folder:9} {right[folder]}/{total[folder]}")
    overall = sum(right.values()), sum(total.values())
    print(f"overall   {overall[0]}/{overall[1]} = {overall[0] / max(overall[1], 1):.1%}")
    print()
    return overall


def main() -> int:
    if not (CORPUS / "real-logs").is_dir():
        print(f"corpus not found at {CORPUS}", file=sys.stderr)
        return 1
    _section("real-logs", LOGS)
    if (CORPUS / "real-sessions").is_dir():
        _section("real-sessions", SESSIONS, NOT_SESSIONS)
    BY_FILE.update(FIELD_BY_FILE)
    if (CORPUS / "field-samples").is_dir():
        _section("field-samples", FIELD, ("*.md",))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
