"""How often --adapter auto picks the right parser on the real logs of ../shared/corpus/real-logs.

Run with `python3 -m uv run python benchmarks/detect_accuracy.py`: one line per
log (expected, chosen, score, reason) and the accuracy per CLI and overall.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from linewise import detect_adapter
from linewise._detect import first_lines

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "real-logs"
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


def main() -> int:
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}", file=sys.stderr)
        return 1
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for folder, expected in EXPECTED.items():
        for path in sorted((CORPUS / folder).iterdir()):
            lines = first_lines(path.read_text(encoding="utf-8", errors="replace"))
            detection = detect_adapter(lines)
            ok = detection.adapter_type == BY_FILE.get(f"{folder}/{path.name}", expected)
            right[folder] += ok
            total[folder] += 1
            mark = "ok  " if ok else "MISS"
            print(f"{mark} {folder}/{path.name}: {detection.adapter_type} ({detection.reason})")
    print()
    for folder in EXPECTED:
        print(f"{folder:9} {right[folder]}/{total[folder]}")
    overall = sum(right.values()), sum(total.values())
    print(f"overall   {overall[0]}/{overall[1]} = {overall[0] / overall[1]:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
