"""Fake agent: replays a recorded stdout log line by line, with delays, and stderr where asked."""

from __future__ import annotations

import argparse
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("log", help="recorded stdout to replay, byte for byte")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each line")
    parser.add_argument(
        "--stderr",
        action="append",
        default=[],
        metavar="N:TEXT",
        help="write TEXT and a newline to stderr after line N",
    )
    args = parser.parse_args()
    after: dict[int, list[str]] = {}
    for item in args.stderr:
        number, _, text = item.partition(":")
        after.setdefault(int(number), []).append(text)
    with open(args.log, "rb") as log:
        for number, line in enumerate(log, 1):
            time.sleep(args.delay)
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
            for text in after.get(number, []):
                time.sleep(args.delay)
                sys.stderr.write(text + "\n")
                sys.stderr.flush()


if __name__ == "__main__":
    main()
