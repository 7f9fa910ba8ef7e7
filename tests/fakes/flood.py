"""Fake agent: floods stdout (and stderr) with numbered lines as fast as the pipes take them."""

from __future__ import annotations

import argparse
import sys


def line(number: int, width: int) -> bytes:
    """Line ``number`` of the flood: deterministic, so a test can rebuild the exact bytes."""
    head = f"line {number:09d} "
    return (head + "x" * max(width - len(head), 0) + "\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=100_000, help="stdout lines")
    parser.add_argument("--width", type=int, default=100, help="characters per stdout line")
    parser.add_argument("--stderr-every", type=int, default=0, help="a stderr line every N lines")
    parser.add_argument("--forever", action="store_true", help="never stop")
    args = parser.parse_args()
    out, err = sys.stdout.buffer, sys.stderr.buffer
    batch: list[bytes] = []
    number = 0
    while args.forever or number < args.lines:
        batch.append(line(number, args.width))
        number += 1
        if args.stderr_every and number % args.stderr_every == 0:
            out.write(b"".join(batch))
            batch.clear()
            err.write(f"progress {number}\n".encode())
        elif len(batch) >= 512:
            out.write(b"".join(batch))
            batch.clear()
    out.write(b"".join(batch))
    out.flush()
    err.flush()


if __name__ == "__main__":
    main()
