"""Fake agent: a wrapper's banner of N lines, a pause, then a recorded stdout log."""

from __future__ import annotations

import argparse
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("log", help="recorded stdout to write after the banner")
    parser.add_argument("--lines", type=int, default=45, help="banner lines before the log")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds after the banner")
    args = parser.parse_args()
    out = sys.stdout.buffer
    for number in range(1, args.lines + 1):
        out.write(f"[wrapper] starting step {number} of the agent environment\n".encode())
    out.flush()
    time.sleep(args.pause)
    with open(args.log, "rb") as log:
        out.write(log.read())
    out.flush()


if __name__ == "__main__":
    main()
