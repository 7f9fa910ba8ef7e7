"""Fake agent: prints the values of the environment variables it is given, as an agent might leak them."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time


def main() -> None:
    names = sys.argv[1:]
    values = [os.environ.get(name, "") for name in names]
    # What the child received, without printing it: a test checks it arrived unchanged.
    digest = hashlib.sha256("\n".join(values).encode()).hexdigest()
    print(f"env digest {digest}", flush=True)
    for name, value in zip(names, values, strict=True):
        event = {
            "type": "assistant",
            "message": {"id": "msg_leak", "content": [{"type": "text", "text": f"{name}={value}"}]},
            "parent_tool_use_id": None,
            "session_id": "leaky",
        }
        print(json.dumps(event), flush=True)
        print(f"plain {name}={value}", flush=True)
        print(f"stderr {name}={value}", file=sys.stderr, flush=True)
        # The same value cut in two writes, as a pipe may deliver it.
        half = len(value) // 2
        sys.stdout.write(f"split {name}={value[:half]}")
        sys.stdout.flush()
        time.sleep(0.05)
        sys.stdout.write(value[half:] + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
