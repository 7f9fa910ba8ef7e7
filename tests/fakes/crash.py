"""Fake agent: starts a Claude session, then crashes (traceback), exits N, or dies by a signal."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys

SESSION = "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--exit", type=int, help="exit with this code instead of raising")
    parser.add_argument("--signal", help="die by this signal (e.g. SIGTERM) instead of raising")
    args = parser.parse_args()
    init = {
        "type": "system",
        "subtype": "init",
        "model": "claude-sonnet-4-6",
        "session_id": SESSION,
        "tools": ["Bash"],
        "claude_code_version": "2.1.280",
    }
    text = {
        "type": "assistant",
        "message": {
            "id": "msg_crash",
            "model": "claude-sonnet-4-6",
            "content": [{"type": "text", "text": "Working on it."}],
            "usage": {"input_tokens": 10, "output_tokens": 5},
        },
        "parent_tool_use_id": None,
        "session_id": SESSION,
    }
    for event in (init, text):
        print(json.dumps(event), flush=True)
    if args.signal:
        os.kill(os.getpid(), signal.Signals[args.signal])
    if args.exit is not None:
        sys.exit(args.exit)
    raise RuntimeError("boom: the agent fell over")


if __name__ == "__main__":
    main()
