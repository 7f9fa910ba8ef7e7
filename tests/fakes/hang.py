"""Fake agent: prints a line, then hangs (ignoring SIGTERM or SIGINT if asked), with children."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ignore-term", action="store_true", help="ignore SIGTERM")
    parser.add_argument("--ignore-int", action="store_true", help="ignore SIGINT")
    parser.add_argument(
        "--goodbye", action="store_true", help="on SIGTERM, print a last line and exit 0"
    )
    parser.add_argument("--children", type=int, default=0, help="sleeping children to start")
    parser.add_argument("--pidfile", help="write every pid (own first, then children) here")
    parser.add_argument(
        "--orphan",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="leave a child holding stdout open for SECONDS and exit at once",
    )
    args = parser.parse_args()
    if args.ignore_term:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if args.ignore_int:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if args.goodbye:

        def goodbye(signum: int, frame: object) -> None:
            print("goodbye", flush=True)
            sys.exit(0)

        signal.signal(signal.SIGTERM, goodbye)
    sleeper = [sys.executable, "-c", "import time; time.sleep(300)"]
    if args.orphan:
        sleeper = [sys.executable, "-c", f"import time; time.sleep({args.orphan})"]
    # Children inherit stdout and stderr, like the tools an agent starts.
    count = args.children or (1 if args.orphan else 0)
    children = [subprocess.Popen(sleeper) for _ in range(count)]
    if args.pidfile:
        with open(args.pidfile, "w") as pidfile:
            pidfile.write("\n".join(str(p) for p in [os.getpid(), *(c.pid for c in children)]))
    print("ready", flush=True)
    if args.orphan:
        os._exit(0)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main()
